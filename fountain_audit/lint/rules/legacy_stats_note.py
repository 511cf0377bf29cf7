"""A pre-b45c946 `[[stats: …]]` note instead of the stats action line.

## What it does
Reports `[[stats: …]]` notes, the form Harvey used for a turn's token and timing
statistics before the stats became an action line, and shows the current form.

## Why is this bad?
Since b45c946 Harvey writes the statistics as the last action line of a chat scene,
`MODELS · R reply + P ctx · DUR · T.T tok/s`, and its tests assert that they are never a
`[[stats:` note. Readers of the current format take the note for an unknown audit note
and miss the statistics. (SESSIONS.md's `[[stats: MODEL · N tokens · …]]` form was never
written by any recorder.)

## Severity
Info (was warning): a form the recorder itself wrote (8d0b75a–b45c946); its tokens, duration and rate are read.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

LLAMA
It declares package main.

[[stats: 26 prompt + 42 reply tokens · 8.3s · 5.1 tok/s]]
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

LLAMA
It declares package main.

Ollama (llama3:latest) · 42 reply + 26 ctx · 8.3s · 5.1 tok/s
```

## References
- harvey-recorder-inventory.md §4 (`a_stats`; `n_stats_v0`, 8d0b75a–b45c946);
  recorder_test `TestRecorder_withStats` (rules catalog E47)
"""


from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "L102"
NAME = "legacy-stats-note"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = SESSION_LIKE
NOTE_KINDS = ("stats",)

#: The recorder's pre-b45c946 form: ``P prompt + R reply tokens · DUR · T.T tok/s``.
_V0_RE = lazy(r"^stats:\s*(?P<prompt>\d+) prompt \+ (?P<reply>\d+) reply tokens · (?P<dur>\S+)"
                    r"(?: · (?P<rate>\d+(?:\.\d+)?) tok/s)?$")


def check_note(ctx, placed):
    rec = placed.note
    m = _V0_RE.match(rec.body)
    if m:
        line = f"{m['reply']} reply + {m['prompt']} ctx · {m['dur']}"
        if m["rate"]:
            line += f" · {m['rate']} tok/s"
        hint = f"write the action line 'MODELS · {line}'"
    else:
        hint = "write the action line 'MODELS · R reply + P ctx · DUR · T.T tok/s'"
    yield Finding(rec.line, rec.column, f"legacy [[stats:]] note; Harvey now writes statistics as an action "
                  f"line after the reply: {hint}", rec.node.end_line, rec.node.end_column)

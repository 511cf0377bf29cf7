"""HARVEY forwards to one model but another one replies.

## What it does
Reports a turn whose `Forwarding to NAME.` line (or the pre-v1.0 `(forwarding to NAME)`
parenthetical) names a different character than the one that replies. Names are
compared case-insensitively.

## Why is this bad?
The forwarding line is the record of which model received the prompt; the reply cue
is the record of which model answered. The recorder writes both from the same model
name, so they always agree in a recorded file, even when that name is stale (between
de4763b and cf4aa0d a `[[model switch:]]` did not update it, so Model:, the forwarding
line and the reply cue all keep the old name together). A mismatch means the scene was
edited by hand or assembled from pieces, and the audit trail contradicts itself about
who answered.

## Severity
Error (was warning): evidence misattributed: the trail contradicts itself about which model answered.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

MISTRAL
It declares package main.
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
```

## References
- SKILL.md (HARVEY's line reads exactly `Forwarding to {MODEL}.`; rules catalog D35);
  FOUNTAIN_FORMAT.md §Dialogue (characters introduced via forwarding; D30)
- harvey-recorder-inventory.md §0 (cf4aa0d: model switch updates the recorder's model
  name), §5 (`d_forwarding`, `d_forwarding_v0`); recorder_test
  `TestRecordModelSwitch_updatesModelName` (D37)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.model.names import upper_ascii
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "T101"
NAME = "forwarding-target-mismatch"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = SESSION_LIKE


def check_turn(ctx, turn, scene):
    target, reply = turn.target, turn.reply
    if target is None or reply is None:
        return None  # (a plain function, not a generator: it runs on every turn)
    if upper_ascii(target.strip()) == upper_ascii(reply.character.strip()):  # (ASCII: ſTAR is not STAR)
        return None
    cue = reply.dialogue.cue
    return (Finding(reply.line, reply.column, f"HARVEY forwards to {target} (line {turn.forwarding.forwarding_line}) "
                    f"but {reply.character} replies", reply.line, reply.column + len(cue.rstrip("\r\n"))),)

"""A scene timestamp in the loose `— YYYY-MM-DD HH:MM` form.

## What it does
Reports a scene heading whose timestamp is preceded by an em dash or lacks seconds,
e.g. `INT. HARVEY AND ALICE TALKING — 2026-07-03 19:15`.

## Why is this bad?
The recorder always writes `YYYY-MM-DD HH:MM:SS` after one space. The loose form is
found in hand-written and older files (and Harvey's replay tests); it is accepted,
but timestamps lose their seconds and the spec's heading regex does not match.

## Severity
Info (was warning): a form Harvey's own replay tests and real sessions carry and its reader tolerates; the time is recorded, only its seconds are missing.

## Example
```fountain
INT. HARVEY AND ALICE TALKING — 2026-07-03 19:15

ALICE
Hello?
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-07-03 19:15:00

ALICE
Hello?
```

## References
- harvey-recorder-inventory.md §3 (`h_chat_loose`); replay_test.go 3cf6ac3
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "H102"
NAME = "loose-scene-timestamp"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = SESSION_LIKE


def check_scene(ctx, scene):
    if scene.info.timestamp_form != "loose":
        return None  # (a plain function: most headings are not loose, and no generator is made for them)
    h = scene.heading
    ts = scene.info.timestamp
    what = []
    if "—" in h.text.rsplit(ts, 1)[0][-4:]:
        what.append("an em dash before it")
    if len(ts) == 16:
        what.append("no seconds")
    return (Finding(h.line, h.column, f"loose scene timestamp '{ts}' ({' and '.join(what) or 'extra space'}); "
                    "the recorder writes one space, then YYYY-MM-DD HH:MM:SS", h.end_line, h.end_column),)

"""A scene timestamp in the loose `— YYYY-MM-DD HH:MM` form, or followed by a design-doc `← comment`.

## What it does
Reports a scene heading whose timestamp is preceded by an em dash or lacks seconds,
e.g. `INT. HARVEY AND ALICE TALKING — 2026-07-03 19:15`, and one whose timestamp is
followed by a design document's annotation, `INT. HARVEY AND ALICE TALKING 2026-06-24
10:02:30   ← turn 3, tool loop (W1)` (`← comment` after a blank): the two deviations
harvey-recorder-inventory.md §3 lists as tolerated (`h_chat_loose`). The heading is read
with its timestamp and kind either way. Any other text after the timestamp (`<- junk`) is
H101's (error). The diagnostic's columns cover the offending part: the loose timestamp, or the
comment.

## Why is this bad?
The recorder always writes `YYYY-MM-DD HH:MM:SS` after one space, and nothing after it. The
loose form is found in hand-written and older files (and Harvey's replay tests), the
`← comment` in design documents (audit-trail-design.md); both are accepted, but timestamps
lose their seconds, and the spec's heading regex (timestamp at the end) matches neither.

## Severity
Info (was warning): a form Harvey's own replay tests and real sessions carry and its reader tolerates; the time is recorded, only its seconds are missing (or a comment follows it).

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
from fountain_audit.lint.rules import SESSION_LIKE, annotation_span, timestamp_span

CODE = "H102"
NAME = "loose-scene-timestamp"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = SESSION_LIKE


def check_scene(ctx, scene):
    info = scene.info
    if info.timestamp_form != "loose" and info.annotation is None:
        return None  # (a plain function: most headings are neither, and no generator is made for them)
    h = scene.heading
    ts = info.timestamp
    found = []
    if info.timestamp_form == "loose":
        what = []
        if "—" in h.text.rsplit(ts, 1)[0][-4:]:
            what.append("an em dash before it")
        if len(ts) == 16:
            what.append("no seconds")
        line, col, end_line, end_col = timestamp_span(h, ts, info.annotation)
        found.append(Finding(line, col, f"loose scene timestamp '{ts}' ({' and '.join(what) or 'extra space'}); "
                             "the recorder writes one space, then YYYY-MM-DD HH:MM:SS", end_line, end_col))
    if ts is not None and info.annotation is not None and info.annotation[0] == "←":  # (other text: H101's)
        line, col, end_line, end_col = annotation_span(h, ts, info.annotation)
        found.append(Finding(line, col, f"scene timestamp '{ts}' is followed by a design-doc comment "
                             f"'{info.annotation}'; the recorder writes nothing after the timestamp",
                             end_line, end_col))
    return found or None

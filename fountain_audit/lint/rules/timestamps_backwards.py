"""A scene heading timestamp earlier than the previous scene's.

## What it does
Reports a scene whose heading timestamp is earlier than the timestamp of the previous
scene that has one. When either timestamp has no seconds (the loose form), they are
compared to the minute. A hand-off heading's RFC 3339 time (``INT. HAND-OFF -
2026-07-01T16:04:05Z``) carries a UTC offset the recorder's local times lack, so it is not
compared with them.

## Why is this bad?
The recorder stamps each heading with the local time when it writes the scene and only
appends, so timestamps never decrease in a recorded file. A backward step means scenes
were reordered, pasted from another session, or edited by hand, and the audit trail's
order of events can no longer be trusted. The recorder writes local time with no zone,
so a clock change (daylight saving, NTP) can also cause it: that is why this is a
warning.

## Severity
Warning: each time is recorded as written; a clock change can explain the order, so the trail is not necessarily wrong.

## Example
```fountain
INT. SHELL 2026-06-24 10:05:00

ALICE
! ls

SHELL
a.go

[[shell: ls — exit 0]]

INT. SHELL 2026-06-24 10:04:00

ALICE
! pwd

SHELL
/tmp/ws

[[shell: pwd — exit 0]]
```

## Use instead
```fountain
INT. SHELL 2026-06-24 10:04:00

ALICE
! pwd

SHELL
/tmp/ws

[[shell: pwd — exit 0]]

INT. SHELL 2026-06-24 10:05:00

ALICE
! ls

SHELL
a.go

[[shell: ls — exit 0]]
```

## References
- harvey-recorder-inventory.md §1, §3 (`TS` = `time.Now()` local time, layout
  `2006-01-02 15:04:05`, no zone; append-only writes)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE
from fountain_audit.model.session import valid_timestamp

CODE = "S107"
NAME = "timestamps-backwards"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = SESSION_LIKE


def check(ctx):
    prev = None
    for scene in ctx.session.scenes:
        ts = scene.info.timestamp
        if not ts or not valid_timestamp(ts) or scene.info.timestamp_form == "rfc3339":
            continue  # (an impossible one, 2026-13-45 25:61:99, is H101's: nothing to compare; a local
            # time and one with a UTC offset cannot be ordered without the recorder's zone)
        if prev is not None:
            pts, pscene = prev
            n = min(len(ts), len(pts))  # 16 when either has no seconds
            if ts[:n] < pts[:n]:
                h = scene.heading
                yield Finding(h.line, h.column, f"scene timestamp {ts} is earlier than the previous scene's "
                              f"({pts}, line {pscene.line})", h.end_line, h.end_column)
        prev = (ts, scene)

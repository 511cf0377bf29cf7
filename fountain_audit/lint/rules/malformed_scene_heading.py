"""A Harvey scene heading without a valid timestamp, or a chat heading missing `TALKING`.

## What it does
Reports a scene heading of a kind the recorder time-stamps (chat, EXT., agent mode,
shell, skill, context recall, chunk analysis, pipeline) that has no
`YYYY-MM-DD HH:MM:SS` timestamp at its end or whose timestamp is not a real date and
time, an `INT. HAND-OFF - <RFC 3339 time>` heading whose time is not a real date and time
(`2026-13-14T10:04:05+02:00`, hour 25, offset `+24:00`) or is followed by more text (the time is
still read, as a chat heading's is), one whose label begins as a date but is no RFC 3339 time
(`…T16:04:05+0200`, no offset: not read), an `INT.` chat heading without
`TALKING`, and a chat heading with text between `TALKING` and its timestamp
(`TALKING - 2026-07-03 19:15:00`; the user is still the name before `TALKING`).

A timestamp followed by more text (`INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30 <- junk`)
is reported as such: `chat scene heading's timestamp '2026-06-24 10:02:30' is followed by
trailing text '<- junk'`; one with text glued to it (`10:02:30Z`, `10:02:30.123`), which is then
not read as a timestamp, says so: `chat scene heading's timestamp '2026-06-24 10:02:30' is
followed by 'Z' with no space, so it is not read`. The diagnostic's columns cover the offending
part: the trailing or glued text, the timestamp that is not a real date and time (the whole
heading when it has no timestamp at all or lacks `TALKING`). The heading is still read with its timestamp and kind (its scene,
turns and notes are checked as any other), as a design document's `   ← comment` is; that
comment, the one trailing text harvey-recorder-inventory.md §3 lists as tolerated, is H102's
(info), not this rule's. The recorder writes nothing after the timestamp.

## Why is this bad?
The timestamp is the only record of when an interaction happened; Harvey's own reader
recognises chat scenes by ` HARVEY AND ` and ` TALKING `, so a chat heading without
`TALKING` is invisible to `--continue` and `--replay`.
Text after the timestamp is nothing the recorder writes (the heading was edited by hand or
by another tool), and a reader that takes the timestamp from the end of the heading, as the
spec's heading pattern does, loses it.

## Severity
Error: the heading's timestamp is the only record of when the interaction happened; without a valid one it is lost (or Harvey cannot find the chat scene at all).

## Example
```fountain
INT. HARVEY AND ALICE TALKING

ALICE
Hello?
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
Hello?
```

## References
- FOUNTAIN_FORMAT.md §Scene Heading, Parsing step 1 (rules catalog B13, B14, B22)
- harvey-recorder-inventory.md §3
"""

from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.model.session import TIMESTAMPED_KINDS, valid_timestamp
from fountain_audit.lint.rules import (SESSION_LIKE, annotation_span, glued_timestamp, heading_span,
                                       timestamp_span)

#: A hand-off label that begins as a date does: a time the heading meant to record.
_DATE_START_RE = lazy(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

CODE = "H101"
NAME = "malformed-scene-heading"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = SESSION_LIKE + ("hand-off",)  # a hand-off file: only its heading time is judged


def check(ctx):
    for scene in ctx.session.scenes:
        info, h = scene.info, scene.heading
        ts = info.timestamp
        if info.kind not in TIMESTAMPED_KINDS:
            # a hand-off label read as its RFC 3339 time (read_heading) is held to the same test;
            # a hand-off without one is not time-stamped by the recorder and is not reported
            if info.timestamp_form == "rfc3339" and not valid_timestamp(ts):
                line, col, end_line, end_col = timestamp_span(h, ts)
                yield Finding(line, col, f"hand-off heading time '{ts}' is not a valid date and time", end_line, end_col)
            label = info.groups.get("label") or ""
            if info.kind == "hand-off" and ts is None and _DATE_START_RE.match(label):  # (`…T16:04:05+0200`, no offset)
                yield Finding(h.line, h.column, f"hand-off heading time '{label}' is no RFC 3339 time, so it is not "
                              "read (expected 'INT. HAND-OFF - YYYY-MM-DDTHH:MM:SSZ' or an offset '+HH:MM')",
                              h.end_line, h.end_column)
            if info.timestamp_form == "rfc3339" and info.annotation is not None and info.annotation[0] != "←":
                line, col, end_line, end_col = annotation_span(h, ts, info.annotation)
                yield Finding(line, col, f"hand-off heading time '{ts}' is followed by trailing text "
                              f"'{info.annotation}' (expected 'INT. HAND-OFF - <RFC 3339 time>')", end_line, end_col)
            continue
        if ts is None:
            glued = glued_timestamp(h.text)
            if glued is not None:  # (the span: what is glued to the timestamp)
                line, col, end_line, end_col = heading_span(h, glued.start("glued"), glued.end("glued"))
                yield Finding(line, col, f"{info.kind} scene heading's timestamp '{glued.group('ts')}' is followed by "
                              f"'{glued.group('glued')}' with no space, so it is not read "
                              "(expected 'YYYY-MM-DD HH:MM:SS' at the end)", end_line, end_col)
            else:
                yield Finding(h.line, h.column, f"{info.kind} scene heading has no timestamp "
                              "(expected 'YYYY-MM-DD HH:MM:SS' at the end)", h.end_line, h.end_column)
        elif info.annotation is not None and info.annotation[0] != "←":  # (a `← comment`: H102's)
            line, col, end_line, end_col = annotation_span(h, ts, info.annotation)
            yield Finding(line, col, f"{info.kind} scene heading's timestamp '{ts}' is followed by "
                          f"trailing text '{info.annotation}' (expected 'YYYY-MM-DD HH:MM:SS' at the end)",
                          end_line, end_col)
        if ts is not None and not valid_timestamp(ts):
            line, col, end_line, end_col = timestamp_span(h, ts, info.annotation)
            yield Finding(line, col, f"scene heading timestamp '{ts}' is not a valid date and time", end_line, end_col)
        extra = info.place[info.place.find(" TALKING", info.place.find(" AND ") + 5) + 8:].strip() \
            if ts is not None and info.kind in ("chat", "ext-chat") and info.groups.get("talking") else ""
        if extra:  # (`TALKING - 2026-07-03 19:15:00`, `TALKING TALKING 2026-…`)
            yield Finding(h.line, h.column, f"{info.kind} scene heading has '{extra}' between 'TALKING' and its "
                          "timestamp (expected 'TALKING YYYY-MM-DD HH:MM:SS')", h.end_line, h.end_column)
        if info.kind == "chat" and not info.groups.get("talking") and " TALKING " not in info.place.upper():
            # (' TALKING ' before a timestamp H101 cannot read is there: Harvey's reader needs no more)
            yield Finding(h.line, h.column, "INT. chat scene heading lacks 'TALKING' "
                          "(Harvey's reader needs ' HARVEY AND ' and ' TALKING ')", h.end_line, h.end_column)

"""A second audit note on the line of another, read as part of the first.

## What it does
Reports a standalone note whose text holds the head of another audit note after a `]]` on
the same line: `[[tool:`, `[[rag:`, `[[recall:`, `[[write:`, … (any note kind Harvey writes,
an actor's `[[NAME.tool:` too), whether blanks or other text stand between the two
(`[[tool: a() — ok]] then [[tool: b() — ok]]`), at the second note's `[[`; and the head of
an audit note that opens a line inside a note whose `]]` is missing before it (`[[tool: a() —
ok` then, on the next line, `[[tool: b() — error: exit 2]]`: both read as one call to `a`, with
`b`'s status).

## Why is this bad?
A note runs from its `[[` to the last `]]` of the note, so that tool arguments may hold
`]]` (`{"note":"a ]] b"}`). Two notes written on one line are therefore read as ONE note
whose text ends in the second: `[[tool: read_file({"path":"main.go"}) — ok]] [[tool:
list_files() — ok]]` is a `read_file` call with the arguments `{"path":"main.go"}) — ok]]
[[tool: list_files(`, and the `list_files` call is missing from `dump`, `provenance` and
`export`: evidence silently dropped from the audit trail. Harvey's recorder writes every note
on its own line, followed by a blank line; two on one line come from a hand edit or
another writer. `]]` and a note head inside a tool's JSON arguments (a string that
quotes a note) is not flagged.

## Severity
Error: a recorded note is lost to every reader of the audit trail.

## Example
```fountain
INT. AGENT MODE 2026-06-24 10:02:30

HARVEY
Write docs/a.md?

ALICE
yes

[[write: docs/a.md — ok]] [[write: docs/b.md — ok]]
```

## Use instead
```fountain
INT. AGENT MODE 2026-06-24 10:02:30

HARVEY
Write docs/a.md?

ALICE
yes

[[write: docs/a.md — ok]]

[[write: docs/b.md — ok]]
```

## References
- FOUNTAIN_FORMAT.md §Notes; recorder inventory `writeNote` (`"[[" + x + "]]\\n\\n"`, each
  note on its own line); case B27 (`]]` inside tool arguments stays part of the note)
"""

import functools
import re

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N111"
NAME = "second-note-on-line"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE

@functools.cache
def _second_re() -> re.Pattern[str]:
    """``[[`` and the head of a note kind (:data:`fountain_audit.parse.notes.AUDIT_HEAD_RE`, the
    pipeline notes too); group ``at`` is the ``[[`` (:func:`check` asks for a ``]]`` before it
    on its line: a pattern reaching back to the ``]]`` would rescan the line from every ``]]``)."""
    from fountain_audit.parse.notes import AUDIT_HEAD_RE, PIPELINE_HIDDEN, PIPELINE_STOP
    head = AUDIT_HEAD_RE.pattern.replace("|$)", r"|\]\]|$)")
    return re.compile(rf"(?P<at>\[\[)(?:{head}|{re.escape(PIPELINE_HIDDEN)}\]\]|{re.escape(PIPELINE_STOP)})")


def check(ctx):
    text = ctx.text
    if text.count("[[") <= len(ctx.session.notes):
        return  # (every note holds its own `[[`: no second head can be inside one)
    second = _second_re()
    for rec in ctx.session.notes:
        node = rec.node
        raw = text[node.offset:node.end_offset]
        if raw.count("[[") < 2:
            continue
        start, end = raw.find("[[") + 2, raw.rfind("]]")
        json_span = None
        if rec.kind == "tool" and rec.field("arguments_json"):
            args = rec.field("arguments_text") or ""
            at = raw.find(args, start) if args else -1
            if at >= 0:
                json_span = (at, at + len(args))  # `]] [[tool:` inside a JSON string is the argument's text
        # Each match reads on from the previous one (newlines counted, the line's start and its
        # first `]]` kept): linear in the note however many heads it holds.
        scanned, newlines, before, close = start, raw.count("\n", 0, start), raw.rfind("\n", 0, start), -2
        for m in second.finditer(raw, start, end + 2):
            p = m.start("at")
            if json_span and json_span[0] <= p < json_span[1]:
                continue
            k = raw.count("\n", scanned, p)
            if k:
                newlines += k
                before = raw.rfind("\n", scanned, p)
            scanned = p
            if close == -2 or 0 <= close < before:  # the first `]]` after the line's start
                close = raw.find("]]", max(before, start))
            unclosed = False
            if close < 0 or close + 2 > p:  # no `]]` before it on its line:
                if before < 0 or raw[before + 1:p].strip(" \t"):
                    continue  # not the head of a second note
                unclosed = True  # unless it opens a line of its own: the note before has no `]]`
            line = node.line + newlines
            column = node.column + p if before < 0 else p - before
            kind = m.group("kind")
            head = f"[[{kind}:]]" if kind else "[[pipeline stopped …]]" if "stopped" in m.group() else \
                "[[hidden confidence instruction appended]]"
            if unclosed:
                yield Finding(line, column,
                              f"note {head} starts a line inside the note at line {node.line}, which has no ']]' "
                              "before it: the two are read as one note, so this note's record is lost (dump, "
                              "provenance and export miss it) and its status is read as the first one's; close the "
                              f"note at line {node.line} with ']]'", line, column + 2)
                continue
            yield Finding(line, column,
                          f"second note {head} on the same line as the note at line {node.line}: it is "
                          "read as part of the first note's text, so its record is lost (dump, provenance and export "
                          "miss it); put each note on its own line", line, column + 2)

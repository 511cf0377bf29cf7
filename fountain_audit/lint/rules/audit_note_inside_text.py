"""An audit note written inside another element's text instead of on a line of its own.

## What it does
Reports a `[[…]]` note of an audit kind (`tool:`, `rag:`, `rag-source:`, `recall:`, `write:`,
`shell:`, `confidence:`, …, with or without an `ACTOR.` prefix) that is part of another
element's text: glued under a dialogue line with no blank line before it, or inside a
paragraph; or on a line another element takes whole, where it makes no record at all: after a
boneyard's closing `*/` on the same line (`/**/[[tool: …]]`: a line starting with `/*` is the
boneyard's, to its end), in a section (`# act [[tool: …]]`), a synopsis (`= … [[tool: …]]`),
centered text (`> [[tool: …]] <`), a lyric (`~[[tool: …]]`) or a title-page value
(`Title: [[tool: …]]`). Each is reported at the note's own line and column, naming the element
that swallowed it.

## Why is this bad?
Fountain ends a dialogue block or an action paragraph only at a blank line, so a note on the
next line belongs to that element: readers (Harvey's, ours) take it as the element's text, an
inline annotation, not as an audit record. The tool call, retrieval or recall it describes is
missing from `dump`, `provenance` and `export`, and no placement rule checks it: evidence
silently dropped from the audit trail. Harvey's recorder writes every note on its own line,
followed by a blank line; a glued note comes from a hand edit or another writer. A model's
reply that quotes such a line is flagged too: it reads like a record the session does not hold.

## Severity
Warning: the record is not lost from the file, but every reader of the audit trail misses it.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Clean the build.

HARVEY
Forwarding to LLAMA.
[[tool: run_shell({"cmd":"rm -rf build"}) — ok]]

LLAMA
Done.
```

The same note after a boneyard on its line (`/* x */[[tool: …]]`) or in a section line
(`# act [[tool: …]]`) is reported too: no `[[tool:]]` record is made for it.

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Clean the build.

HARVEY
Forwarding to LLAMA.

[[tool: run_shell({"cmd":"rm -rf build"}) — ok]]

LLAMA
Done.
```

## References
- FOUNTAIN_FORMAT.md §Notes and §Dialogue Rules (a blank line ends dialogue); recorder
  inventory `writeNote` (`"[[" + x + "]]\\n\\n"`, each note on its own line); case B34
  (a writer's inline `[[draft]]` note in a reply is not flagged: not an audit kind);
  §Boneyard, §Sections and Synopses, §Centered, §Lyrics, §Title Page (each takes its line
  whole: a note in it is its text)
"""

from itertools import compress

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N110"
NAME = "audit-note-inside-text"
SEVERITY = Severity.WARNING
SINCE = "1.2"
SCOPE = SESSION_LIKE

_INSIDE = {"dialogue": "a dialogue block", "action": "an action paragraph"}


def check(ctx):
    from fountain_audit.model.session import inline_placements
    from fountain_audit.parse.notes import parse_note

    session = ctx.session
    for placed in inline_placements(session):  # (none at once when the parse found no inline note)
        node = placed.note.node
        kind = parse_note(node).kind
        if kind in ("unknown", "pipeline-hidden"):
            continue  # a writer's annotation ([[draft]], [[she whispers]]), not an audit record
        element = placed.note.fields["element"]
        inside = _INSIDE.get(element) or "a " + element.replace("_", " ")
        head = "[[pipeline stopped …]]" if kind == "pipeline-stop" else f"[[{kind}:]]"
        yield Finding(node.line, node.column,
                      f"{head} note inside {inside}: it is read as that text, not as an audit record "
                      "(dump, provenance and export miss it); write it on a line of its own after a blank line",
                      node.end_line, node.end_column)
    yield from _swallowed(session.document)


#: Elements that take their line(s) whole and keep no inline notes: a note in their text makes
#: no record (the phrase names the element in the message).
_SWALLOWING = {"section": "a section line", "synopsis": "a synopsis line", "centered": "centered text",
               "lyrics": "a lyric line"}


class _Reads(dict):
    """Node class -> whether :func:`_swallowed` reads its nodes (a boneyard, a title page or one
    of :data:`_SWALLOWING`), decided once a class: the nodes are picked out in C by their class
    (``compress``), without a Python step for each of the others (blank lines, notes, speech...)."""

    def __missing__(self, cls) -> bool:
        found = self[cls] = cls.type in ("boneyard", "title_page") or cls.type in _SWALLOWING
        return found


_READS = _Reads()


def _swallowed(document):
    """Findings for the audit-kind notes in the text of a boneyard after its closing ``*/``,
    a section, a synopsis, centered text, a lyric or a title-page value: one pass over the
    top-level nodes, each searched once (``str.find``, linear in the file)."""
    text = document.text
    if "[[" not in text:
        return
    lines = document.line_index
    children = document.children
    for c in compress(children, map(_READS.__getitem__, map(type, children))):
        ctype = c.type
        if ctype == "boneyard":
            a, b = c.offset, c.end_offset
            if text.find("[[", a, b) < 0:
                continue
            opened = text.find("/*", a, b)
            close = text.find("*/", opened + 2, b) if opened >= 0 else -1
            if close < 0:
                continue
            yield from _scan(text, lines, close + 2, b,
                             "a boneyard's line, after its closing '*/' (a line starting with '/*' "
                             "is the boneyard's to its end)")
        elif ctype in _SWALLOWING:
            if text.find("[[", c.offset, c.end_offset) < 0:
                continue  # (the usual case: no note in it, told without starting a scan)
            yield from _scan(text, lines, c.offset, c.end_offset, _SWALLOWING[ctype])
        elif ctype == "title_page":
            for e in c.entries:
                yield from _scan(text, lines, e.offset, e.end_offset, f"a title-page value ({e.key}:)")


def _scan(text: str, lines, start: int, stop: int, inside: str):
    """The findings for the audit-kind ``[[…]]`` notes in ``text[start:stop]`` (each ``[[`` to the
    first ``]]`` after it, as inline notes are found), said to be inside ``inside``."""
    from fountain_audit.parse.lexer import inline_notes
    from fountain_audit.parse.notes import AUDIT_HEAD_RE, PIPELINE_STOP

    for i, end in inline_notes(text, start, stop):
        j = end - 2
        body = text[i + 2:j].strip()
        if body.startswith(PIPELINE_STOP):
            head = "[[pipeline stopped …]]"
        else:
            m = AUDIT_HEAD_RE.match(body)
            head = f"[[{m.group('kind')}:]]" if m else None
        if head is not None:
            line, column = lines.position(i)
            end_line, end_column = lines.position(end)
            yield Finding(line, column,
                          f"{head} note inside {inside}: no audit record is made for it, it is not in the "
                          "audit trail (dump, provenance and export miss it); write it on a line of its own "
                          "after a blank line", end_line, end_column)

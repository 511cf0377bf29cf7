"""How a note's head and payload read, for the rules that find an audit record written so that no
reader takes it for one: N112 misspelt-note-kind (a slip in the kind) and N113 disguised-note-kind
(the kind written with invisible or look-alike characters).

Both ask the same questions of a note read as free text (kind ``unknown``): which note kind its
head spells once folded (:func:`kinds_by_fold`, :func:`fold`), whether what follows the head reads
as that kind's payload (:data:`PAYLOADS`, :func:`reads_as_payload`), and which notes a scene's
speeches hold in their text (:func:`notes_in_speeches`); and they report it the same way
(:func:`lost_note`). Source: FOUNTAIN_FORMAT.md §Notes (a note kind and its ``kind: `` head,
exactly; each kind's payload as the recorder writes it).
"""

import functools
import re

from fountain_audit.lint.diagnostics import Finding
from fountain_audit.parse.fountain import Note

#: The separator before a status, loose: an em or en dash or one or two hyphens, up to three blanks
#: either side (bounded: linear time on any note).
_SEP = r"[ \t]{0,3}(?:—|–|--?)[ \t]{0,3}"
#: What reads as each kind's payload when its head is not written exactly (see N112's and N113's
#: docstrings): loose (other capitals, the status separator as a hyphen or en dash: N101 then says
#: what is wrong), but shaped, so that prose after an ordinary word is not taken for one. ``run``
#: and ``rag-source`` are missing: their payload is free text.
PAYLOADS = {
    "tool": rf"[^\s()]+\((?s:.*)\){_SEP}(?:ok|error)\b",
    "rag": r"-?\d+ chunks? from \S",
    "recall": rf"[^\s(][^(]*? \([^)]*\){_SEP}score\b",
    # a path (`a.go`, `docs/x`: holding `.` or `/`, see reads_as_payload); the path read lazily, the
    # separator after it bounded: linear (`[^\s—]*[./][^\s—]*` backtracked over every dot of
    # `a.a.a.…`, quadratic: 7 s for a 40 KB note, adversarial trial)
    "write": rf"(?P<path>[^\s—]*?){_SEP}(?:ok|skipped|aborted|error)\b",
    "shell": rf"\S(?s:.*){_SEP}exit -?\d+$",
    "model switch": r"[^\s(][^(]*? \([^)]*\) at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$",
    "chunk": r"file=[^,]*, *chunks=",
    "chunk-result": rf"\d+/\d+{_SEP}(?:ok|error)\b",
    "synthesis": rf"model=\S+{_SEP}(?:ok|error)\b",
    "confidence": rf"-?\d+(?:\.\d+)?{_SEP}threshold\b",
    "stats": r"(?:\d+ prompt \+ \d+ reply tokens|[^·]+ · \d+ tokens) · ",
    **{k: rf"\S(?s:.*){_SEP}\S" for k in ("add_memory", "update_memory", "delete_memory", "filter_context",
                                            "summary_context")},
}


@functools.cache
def _payload(kind: str) -> re.Pattern:
    """Kind ``kind``'s pattern of :data:`PAYLOADS`, compiled (case-insensitive)."""
    return re.compile(PAYLOADS[kind], re.I)


def reads_as_payload(kind: str, text: str) -> bool:
    """Whether ``text`` (what follows a note's head) reads as kind ``kind``'s payload
    (:data:`PAYLOADS`, a key of it; a write's path must hold a ``.`` or a ``/``)."""
    m = _payload(kind).match(text)
    return m is not None and (kind != "write" or any(c in m.group("path") for c in "./"))


@functools.cache
def kinds_by_fold() -> dict[str, str]:
    """Each note kind Harvey writes (:data:`fountain_audit.parse.notes.KINDS`) keyed by its folded
    form (:func:`fold`)."""
    from fountain_audit.parse.notes import KINDS
    return {fold(k): k for k in KINDS}


def fold(word: str) -> str:
    """``word`` in lower case with ``-``, ``_`` and blanks as one ``_``: the spellings a writer
    mixes up (``rag_source``, ``Model-Switch``) compare equal."""
    return re.sub(r"[-_ ]+", "_", word.strip().lower())


def notes_in_speeches(ctx, scene, check):
    """The findings ``check(ctx, note_node)`` gives for the notes of ``scene``'s speeches' text (a
    list), or ``None`` when there are none (most scenes: no list made). A note that is no audit
    record does not end the speech before it, so a misspelt or disguised one is read as that
    speech's text; N112 and N113 read those notes this way."""
    out = None
    for speech in scene.speeches:
        for node in speech.continuation:
            if isinstance(node, Note) and (found := check(ctx, node)):
                if out is None:
                    out = []
                out.extend(found)
    return out


def lost_note(node, raw: str, p: int, word: str, what: str, kind: str) -> tuple:
    """The finding ``what`` (a tuple of one :class:`Finding`) at the head ``word``, code point
    ``p`` of the note's text ``raw`` (``node``'s), spanning ``word`` on its line: it says the note
    is read as free text and asks whether kind ``kind`` was meant. Lines and columns 1-based."""
    before = raw.rfind("\n", 0, p)
    line = node.line + raw.count("\n", 0, p)
    column = node.column + p if before < 0 else p - before
    return (Finding(line, column, f"{what}: the note is read as free text, not as an audit record, so dump, "
                                  f"provenance and export miss it; did you mean '[[{kind}: …]]'?",
                    line, column + len(word)),)

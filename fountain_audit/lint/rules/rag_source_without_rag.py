"""A `[[rag-source:]]` note that does not follow a `[[rag:]]` note.

## What it does
Reports a `[[rag-source:]]` note whose previous element (blank lines and boneyard
comments aside) is neither a `[[rag:]]` note nor another `[[rag-source:]]` note.

## Why is this bad?
A `[[rag-source:]]` note names a document that one of the retrieved chunks came from;
it is only meaningful as part of the `[[rag:]]` note it follows (Harvey writes the
sources right after that note, one per distinct source, in rank order). On its own, or
after some other element, it claims provenance for a retrieval the file does not
record, and readers cannot tell which turn it belongs to.

## Severity
Error: evidence misplaced: the source is not attached to any retrieval.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

[[rag-source: docs/design.md]]

ALICE
What does the design say?

HARVEY
Forwarding to LLAMA.

LLAMA
It says to keep notes on one line.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

[[rag: 2 chunks from store.db, top score 0.74]]

[[rag-source: docs/design.md]]

ALICE
What does the design say?

HARVEY
Forwarding to LLAMA.

LLAMA
It says to keep notes on one line.
```

## References
- scholarly-provenance-design S3; recorder_test `TestRecordTurnWithStats_RAGSourceNotes`
  (rules catalog E41); harvey-recorder-inventory.md §6 (`n_rag_source`)
"""

from bisect import bisect_left
from operator import attrgetter

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.parse.fountain import Blank, Boneyard, Dialogue, Note
from fountain_audit.lint.rules import SESSION_LIKE, index_of

CODE = "N108"
NAME = "rag-source-without-rag"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE


def _where(ctx, node) -> str:
    if node is None:
        return "at the start of the file"
    rec = ctx.record_of(node)
    if rec is not None:
        kind = "unknown" if rec.kind == "unknown" else f"[[{rec.kind}:]]"
        return f"after the {kind} note at line {node.line}"
    if isinstance(node, Dialogue):
        return f"after {node.character}'s dialogue at line {node.line}"
    return f"after the {node.type.replace('_', ' ')} at line {node.line}"


NOTE_KINDS = ("rag-source",)


def _record(ctx, placed, node):
    """``ctx.record_of(node)`` for ``node``, the node before the note: when it is a note, its
    record is the scene's note record before this one (looked up by offset, without building
    the file's table of records); otherwise, or if not found there, ``ctx.record_of``."""
    scene = placed.scene
    if scene is not None and isinstance(node, Note):
        notes = scene.notes
        i = bisect_left(notes, placed.note.node.offset, key=_note_offset)
        if 0 < i < len(notes) and notes[i] is placed.note and notes[i - 1].node is node:
            return notes[i - 1]
    return ctx.record_of(node)


_note_offset = attrgetter("node.offset")  # a record's note's offset

def check_note(ctx, placed):
    rec = placed.note
    scene = placed.scene
    nodes = scene.nodes if scene is not None else ctx.document.body  # (a scene's: all after its heading)
    prev = None  # the node before the note in the file, blank lines and boneyards skipped
    for k in range(index_of(nodes, rec.node) - 1, -1, -1):
        if not isinstance(nodes[k], (Blank, Boneyard)):
            prev = nodes[k]
            break
    else:
        if scene is not None:
            prev = scene.heading
    prev_rec = _record(ctx, placed, prev) if prev is not None else None
    if prev_rec is not None and prev_rec.kind in ("rag", "rag-source"):
        return None
    return (Finding(rec.line, rec.column, f"[[rag-source:]] note {_where(ctx, prev)}, not after "
                    "a [[rag:]] note; sources follow the [[rag:]] note of their retrieval",
                    rec.node.end_line, rec.node.end_column),)

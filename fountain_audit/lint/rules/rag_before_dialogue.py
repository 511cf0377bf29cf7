"""A RAG note that is not between the scene description and the user's dialogue.

## What it does
Reports a `[[rag:]]` or `[[rag-source:]]` note that is not inside a chat scene, after
the scene description (when the scene has one) and before the user's dialogue of the turn
it informed.

## Why is this bad?
The RAG note records which retrieved chunks were added to the prompt. Harvey writes it
before the user's line (the retrieval happens before the prompt is sent), so a reader
attaches it to the turn that follows. A RAG note after the user's dialogue, or after
a reply, is attributed to the wrong turn, or to none: the evidence for an answer is
misfiled.

## Severity
Error: evidence misplaced: the retrieval is attached to the wrong input.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Summarise the design doc.

[[rag: 3 chunks from store.db, top score 0.87]]

HARVEY
Forwarding to LLAMA.

LLAMA
It proposes three services.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

[[rag: 3 chunks from store.db, top score 0.87]]

ALICE
Summarise the design doc.

HARVEY
Forwarding to LLAMA.

LLAMA
It proposes three services.
```

## References
- FOUNTAIN_FORMAT.md §RAG Provenance (v1.2); audit-trail-design W2;
  recorder_test `TestRecordTurnWithStats_RAGNote` (rules catalog E40); case A04
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE, no_placement_to_judge
from fountain_audit.lint.rules import scene_phrase

CODE = "P101"
NAME = "rag-before-dialogue"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE
NOTE_KINDS = ("rag", "rag-source")

_WHERE = {
    "after-user": "after the user's dialogue",
    "after-forwarding": "after HARVEY's forwarding line",
    "after-reply": "after the reply, with no user dialogue following it",
}


def check_note(ctx, p):
    rec = p.note
    scene = p.scene
    if scene is None or scene.info.kind not in ("chat", "ext-chat"):
        if scene is None and no_placement_to_judge(ctx.session):
            return None  # a design-doc excerpt of notes (a note in a scene always has its place judged)
        where = scene_phrase(p)
        return (Finding(rec.line, rec.column, f"{_what(rec)} {where}; it belongs in a chat scene, "
                        "before the user's dialogue"),)
    elif p.turn is None:
        return (Finding(rec.line, rec.column, f"{_what(rec)} in a chat scene with no user dialogue"),)
    elif p.phase != "before-user":
        return (Finding(rec.line, rec.column, f"{_what(rec)} {_WHERE[p.phase]} (line {_anchor(p)}); "
                        "it belongs before the user's dialogue"),)
    elif scene.description and _after(scene.description[0], rec):
        # a scene without a description (the spec's minimal excerpts; H106 accepts it) has
        # nothing for the note to be before: before the user's dialogue is its place
        return (Finding(rec.line, rec.column, f"{_what(rec)} before the scene description; "
                        "it belongs after it, before the user's dialogue"),)
    return None


def _what(rec) -> str:
    return f"[[{rec.kind}:]] note"


def _after(node, rec) -> bool:
    """Does ``node`` start on a line after the note's? (Only a node that starts after the
    note in the text can; lines are compared only then.)"""
    return node.offset > rec.node.offset and node.line > rec.line


def _anchor(p) -> int:
    t = p.turn
    sp = {"after-user": t.user, "after-forwarding": t.forwarding, "after-reply": t.reply}[p.phase]
    return sp.line if sp is not None else p.note.line

"""A `[[recall:]]` note outside an `INT. CONTEXT RECALL` scene.

## What it does
Reports a recall note that is not inside a context-recall scene.

## Why is this bad?
Recall notes record which stored memories were injected into the context. The spec
allows them only in the `INT. CONTEXT RECALL` scene; elsewhere readers attribute them
to a single turn (or to nothing), misstating what the agent knew.

## Severity
Error: evidence misplaced: recalled context is recorded outside the scene that holds it.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

[[recall: note-42 (memory.db) — score 1.00]]

ALICE
Remember the port?
```

## Use instead
```fountain
INT. CONTEXT RECALL 2026-06-24 10:02:10

[[recall: note-42 (memory.db) — score 1.00]]


INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
Remember the port?
```

## References
- FOUNTAIN_FORMAT.md §Context Recall Notes (rules catalog E42)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE, no_placement_to_judge
from fountain_audit.lint.rules import scene_phrase

CODE = "P104"
NAME = "recall-outside-recall-scene"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE
NOTE_KINDS = ("recall",)


def check_note(ctx, p):
    if no_placement_to_judge(ctx.session):
        return  # a design-doc excerpt of notes
    if p.note.kind == "recall" and (p.scene is None or p.scene.kind != "context-recall"):
        where = scene_phrase(p)
        yield Finding(p.note.line, p.note.column, f"[[recall:]] note {where}; "
                      "recall notes belong only in INT. CONTEXT RECALL")

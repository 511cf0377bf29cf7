"""An `INT. CONTEXT RECALL` scene after the first chat turn.

## What it does
Reports a context-recall scene that comes after a chat scene with a turn.

## Why is this bad?
Recalled memories are injected before the first prompt; the spec and the audit-trail
design place the recall scene once, before the first turn, so readers attach its
`[[recall:]]` records to the whole session. A recall scene later in the file changes
what the following turns knew. Harvey itself re-emits the scene after `/clear` or
`/profile use`; if that is what happened, suppress this warning for the file.

## Severity
Warning: the recalled context is recorded, in its own scene; only its time in the session is unusual.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
Remember the port?

HARVEY
Forwarding to LLAMA.

LLAMA
It is 8080.


INT. CONTEXT RECALL 2026-06-24 10:03:10

[[recall: note-42 (memory.db) — score 1.00]]
```

## Use instead
```fountain
INT. CONTEXT RECALL 2026-06-24 10:02:10

[[recall: note-42 (memory.db) — score 1.00]]


INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
Remember the port?

HARVEY
Forwarding to LLAMA.

LLAMA
It is 8080.
```

## References
- FOUNTAIN_FORMAT.md §Context Recall (v1.2); audit-trail-design §Design principles;
  recorder_test `TestRecordContextRecall_NonEmpty` (rules catalog B20); case A05
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "P103"
NAME = "recall-before-first-turn"
SEVERITY = Severity.WARNING
SINCE = "1.2"
SCOPE = SESSION_LIKE


def check(ctx):
    first_turn = None
    for scene in ctx.session.scenes:
        if scene.info.kind == "context-recall" and first_turn is not None:
            h = scene.heading
            yield Finding(h.line, h.column, "INT. CONTEXT RECALL scene after the first chat turn "
                          f"(line {first_turn.line}); recall belongs before the first turn",
                          h.end_line, h.end_column)
        if first_turn is None and scene.info.kind in ("chat", "ext-chat") and scene.turns:
            first_turn = scene.turns[0]

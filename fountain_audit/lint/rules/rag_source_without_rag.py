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

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.parse.fountain import Blank, Boneyard, Dialogue, Note
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N108"
NAME = "rag-source-without-rag"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE


def _where(node, records) -> str:
    if node is None:
        return "at the start of the file"
    rec = records.get(id(node))
    if rec is not None:
        kind = "unknown" if rec.kind == "unknown" else f"[[{rec.kind}:]]"
        return f"after the {kind} note at line {node.line}"
    if isinstance(node, Dialogue):
        return f"after {node.character}'s dialogue at line {node.line}"
    return f"after the {node.type.replace('_', ' ')} at line {node.line}"


def check(ctx):
    records = {id(r.node): r for r in ctx.session.notes}
    prev = None
    for node in ctx.document.body:
        if isinstance(node, (Blank, Boneyard)):
            continue
        rec = records.get(id(node)) if isinstance(node, Note) else None
        if rec is not None and rec.kind == "rag-source":
            prev_rec = records.get(id(prev)) if prev is not None else None
            if prev_rec is None or prev_rec.kind not in ("rag", "rag-source"):
                yield Finding(rec.line, rec.column, f"[[rag-source:]] note {_where(prev, records)}, not after "
                              "a [[rag:]] note; sources follow the [[rag:]] note of their retrieval",
                              rec.node.end_line, rec.node.end_column)
        prev = node

"""A `[[rag-source:]]` note that names no source.

## What it does
Reports a `[[rag-source:]]` note with nothing after the colon: no source path, title,
DOI or URL.

## Why is this bad?
Harvey writes `[[rag-source:]]` when a retrieved chunk carries no source metadata, so
the note is the recorder's own output and not an error; but the provenance of that
chunk is lost: the answer cannot be traced back to the document it came from. Worth
knowing when the session is used as evidence (re-index the RAG store with sources).

## Severity
Info: a form the recorder writes when a chunk has no source metadata; nothing recorded is lost.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

[[rag: 2 chunks from store.db, top score 0.74]]

[[rag-source:]]

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
- scholarly-provenance-design S3; harvey-recorder-inventory.md §6 (`n_rag_source`:
  `[[rag-source:]]` when the source is empty)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N109"
NAME = "empty-rag-source"
SEVERITY = Severity.INFO
SINCE = "1.2"
SCOPE = SESSION_LIKE
NOTE_KINDS = ("rag-source",)


def check_note(ctx, placed):
    rec = placed.note
    if not rec.valid:
        return None
    f = rec.fields
    if not f.get("source", "").strip() and not (f.get("title") or f.get("doi") or f.get("url")):
        return (Finding(rec.line, rec.column, "[[rag-source:]] names no source; the provenance of "
                        "this retrieved chunk is lost", rec.node.end_line, rec.node.end_column),)
    return None

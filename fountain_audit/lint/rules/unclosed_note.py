"""A `[[` note that is never closed before a blank line.

## What it does
Reports a line that opens a note with `[[` when no line up to the next blank line ends
it with `]]`. The lines are then read as ordinary text (Fountain 1.1: a note may span
lines but not an empty line), and the rest of the file is still checked.

## Why is this bad?
An audit note that does not close is not a note: its tool call, RAG or recall record
is lost to every reader, and other Fountain readers may swallow the following text
into a note.

## Severity
Error: the note is not read as a note, so the audit record it holds is lost (read as text).

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

[[rag: 3 chunks from store.db, top score 0.87

ALICE
Summarise the design doc.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

[[rag: 3 chunks from store.db, top score 0.87]]

ALICE
Summarise the design doc.
```

## References
- Fountain 1.1 §Notes; cases B02, B03
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS

CODE = "F101"
NAME = "unclosed-note"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = ALL_KINDS


def check(ctx):
    for p in ctx.document.problems:
        if p.kind == "unclosed-note":
            yield Finding(p.line, p.column, p.message, p.line, p.column + 2)

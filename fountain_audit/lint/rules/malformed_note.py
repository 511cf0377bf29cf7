"""A note of a known kind whose text does not follow that kind's syntax.

## What it does
Reports `[[tool:]]`, `[[rag:]]`, `[[recall:]]`, `[[write:]]`, `[[shell:]]`,
`[[model switch:]]`, `[[chunk:]]`, `[[chunk-result:]]`, `[[synthesis:]]`, memory-tool
and pipeline notes that do not parse, pointing at the first character that does not
fit. Where it can tell, the message names what is wrong: a number field that is not a number
(`top score abc`), or a tool call's status after a hyphen, two hyphens or an en dash instead of
` — ` (an em dash with a space each side; reported at the dash) or written in capitals (`— OK`).
The note is kept (as raw text) and the rest of the file is checked.

## Why is this bad?
These notes are the audit trail. A tool note without a status, a RAG note without a
score or a recall note without a source cannot be read back by any tool, so the
record of what the agent did, on whose evidence, is lost.

## Severity
Error: the note's fields cannot be read, so the evidence it records is unreadable.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

[[tool: read_file({"path":"a.go"}) — done]]

LLAMA
It declares package main.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

[[tool: read_file({"path":"a.go"}) — ok]]

LLAMA
It declares package main.
```

## References
- FOUNTAIN_FORMAT.md §Tool Call Notes, §RAG Provenance, §Context Recall Notes,
  §Chunk Analysis Notes, §File Operations; harvey-recorder-inventory.md §6
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N101"
NAME = "malformed-note"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = SESSION_LIKE


def check_note(ctx, placed):
    rec = placed.note
    if rec.valid:
        return None
    return (Finding(rec.error_line or rec.line, rec.error_column or rec.column, rec.error,
                    rec.node.end_line, rec.node.end_column),)

"""A `/*` boneyard that is never closed.

## What it does
Reports a line starting a boneyard with `/*` when no `*/` follows anywhere in the file.
The line is then read as ordinary text.

## Why is this bad?
Renderers hide everything after an unclosed `/*`, so the rest of the session
disappears from view, audit notes included.

## Severity
Error: renderers hide everything after it, so the rest of the audit trail is lost from view.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

/* draft

ALICE
Hello?
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

/* draft */

ALICE
Hello?
```

## References
- Fountain 1.1 §Boneyard
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS

CODE = "F102"
NAME = "unclosed-boneyard"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = ALL_KINDS


def check(ctx):
    for p in ctx.document.problems:
        if p.kind == "unclosed-boneyard":
            yield Finding(p.line, p.column, p.message, p.line, p.column + 2)

"""A `*/` that closes no boneyard, such as the outer end of a nested boneyard.

## What it does
Reports a `*/` at the end of a line that is not inside a boneyard, with the location of
the boneyard it probably belonged to: the last one before it. Fountain boneyards do not
nest: in `/* a /* b */ c */` the first `*/` ends the boneyard and ` c */` is text.

## Why is this bad?
The writer meant to hide everything up to the last `*/`; every Fountain reader shows
the rest as action instead, so the hidden text (a draft, a disabled note) appears in
the screenplay and the `*/` is printed. Nothing is lost from the file, but what it
says is not what its writer meant, so this is a warning, not an error.

## Severity
Warning: nothing recorded is lost or misplaced; text meant to be hidden shows.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

/* draft /* older draft */ end of draft */

ALICE
Hello?
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

/* draft, older draft, end of draft */

ALICE
Hello?
```

## References
- Fountain 1.1 §Boneyard
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS

CODE = "F103"
NAME = "stray-boneyard-close"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ALL_KINDS


def check(ctx):
    for p in ctx.document.problems:
        if p.kind == "stray-boneyard-close":
            yield Finding(p.line, p.column, p.message, p.line, p.column + 2)

r"""A UTF-8 byte-order mark at the start of the file.

## What it does
Reports a BOM (U+FEFF) at the start of the file.

## Why is this bad?
Harvey never writes one. It is harmless to fountain-audit (the BOM is kept as its own
node), but some readers take it as part of the first title key, so `Title:` is not
found.

## Severity
Info: harmless to this reader and to most others; nothing in the audit trail changes.

## Example
```fountain
\ufeffINT. SHELL 2026-06-24 10:02:30

ALICE
! ls
```

## Use instead
```fountain
INT. SHELL 2026-06-24 10:02:30

ALICE
! ls
```

## References
- harvey-recorder-inventory.md §1
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS

CODE = "E103"
NAME = "byte-order-mark"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = ALL_KINDS


def check(ctx):
    if ctx.text.startswith("\ufeff"):
        yield Finding(1, 1, "file starts with a UTF-8 byte-order mark", 1, 2)

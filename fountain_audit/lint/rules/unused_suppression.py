"""A suppression comment that suppresses nothing.

## What it does
Reports a `/* fountain-audit: disable... */` comment that no diagnostic matched, the
rules of its list that matched none (named in the message, as written: `'disable-next=P103'
suppressed no diagnostic`), and an `enable` that ends no region (or the rules of its list that
end none: `'enable=S104' ends no disabled region`), and a list that names a rule more than once
(`the list names P102 more than once`: the second name suppresses nothing). (Computed by the linter
after every other rule has run; suppressing this rule itself needs `--ignore A101`.)

## Why is this bad?
Stale suppressions accumulate when files are fixed, and then silently hide the next
real problem at that place.

## Severity
Warning: fountain-audit's own comments, not the audit trail; a stale suppression may hide a future finding.

## Example
```fountain
INT. SHELL 2026-06-24 10:02:30

/* fountain-audit: disable-next=P102 */

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
- ruff `RUF100` (unused `noqa`, and its duplicated codes), the model for this rule
"""

from fountain_audit.lint.diagnostics import Severity
from fountain_audit.lint.rules import ALL_KINDS

CODE = "A101"
NAME = "unused-suppression"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ALL_KINDS
#: Computed by the linter from the suppressions left unused (see linter.lint_text).
POST_CHECK = True


def check(ctx):
    return iter(())

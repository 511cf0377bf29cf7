r"""The file is empty or holds only white space: no session was recorded in it.

## What it does
Reports a file with no bytes, or with nothing but spaces, tabs and line breaks.

## Why is this bad?
A session file is the audit trail of what an agent did. A zero-byte `.spmd` (a recorder
that crashed before its first write, a truncated copy, a path mistyped in a script that
created it) records nothing, and without this rule it passes every check: CI would report
"all clear" on a trail that was lost.

## Severity
Info: nothing in the file is wrong, and an empty document is valid Fountain (other
readers return an empty element list for it); the finding makes the empty file visible in
the summary. A project where an empty session file means a lost trail raises it with
`[severity] empty-file = "error"`; one that keeps placeholder files ignores it with
`per-file-ignores`.

## Example
```fountain

```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
Hello.
```

## References
- Harvey's recorder inventory: a session file is created at the first interaction
- fountain-audit input handling: say what a file is rather than pass it silently
- ../shared/cases B20 (Tagirijus/fountain#4): zero bytes in, an empty document out; "a linter
  may emit one info-level 'empty document'"
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS

CODE = "E105"
NAME = "empty-file"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = ALL_KINDS


def check(ctx):
    if not ctx.text or ctx.text.isspace():
        what = "empty (0 bytes)" if not ctx.text else "blank (only white space)"
        yield Finding(1, 1, f"file is {what}: no session recorded")

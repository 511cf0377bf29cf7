"""The title page's `Author:` is not upper case.

## What it does
Reports a session whose `Author:` value contains lower-case letters. Digits, `.`, `-`
and `_` are fine (the recorder writes `$USER` as it is, upper-cased).

## Why is this bad?
The author is the human in the session and appears as a character cue in every chat
scene; Fountain cues are upper case, and the recorder upper-cases `$USER` (or writes
`OPERATOR`). A lower-case author was typed by hand or edited after recording, and
readers that match the author against the cues (`Author: alice` vs `ALICE`) can miss
the user's lines.

## Severity
Warning: the author is recorded; only the recorder's casing is not followed.

## Example
```fountain
Title: Harvey Session
Author: alice

FADE IN:

THE END.
```

## Use instead
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:

THE END.
```

## References
- FOUNTAIN_FORMAT.md §Required Elements (rules catalog A2: `Author:` ALL-CAPS)
- harvey-recorder-inventory.md §2 (`Author: $USER upper` or `OPERATOR`; may contain digits,
  `.`, `-`, `_`, which the spec regex `^Author: ([A-Z]+)$` wrongly rejects)
"""

from fountain_audit.lint.diagnostics import Finding, Severity

CODE = "S105"
NAME = "author-not-uppercase"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ("session",)


def check(ctx):
    tp = ctx.document.title_page
    if tp is None:
        return
    entry = tp.get("Author")
    if entry is None:
        return  # S102 reports a missing author
    value = entry.value.split("\n", 1)[0].strip()
    if not value or not any(c.islower() for c in value):
        return
    first = entry.tokens[0]
    raw = first.rstrip("\r\n")
    start = raw.find(value, raw.find(":") + 1)
    col = first.column + (start if start >= 0 else 0)
    yield Finding(first.line, col, f"'Author: {value}' is not upper case (the recorder writes "
                  f"'Author: {value.upper()}')", first.line, col + len(value))

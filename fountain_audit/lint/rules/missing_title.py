"""The title page has no `Title:`.

## What it does
Reports a session file whose title page lacks a non-empty `Title:` key.

## Why is this bad?
FOUNTAIN_FORMAT.md lists `Title:` as a required element; the recorder always writes
`Title: Harvey Session`. Its absence means the file was not written by the recorder
or lost its head.

## Severity
Warning (was error): the title is not part of the evidence; every note, turn and time is still there.

## Example
```fountain
Author: ALICE

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
- FOUNTAIN_FORMAT.md §Validation Rules / Required Elements (rules catalog A1)
"""

from fountain_audit.lint.diagnostics import Finding, Severity

CODE = "S101"
NAME = "missing-title"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ("session",)


def check(ctx):
    if not ctx.session.title.get("Title", "").strip():
        tp = ctx.document.title_page
        line = tp.line if tp else 1
        if tp is None:
            yield Finding(line, 1, "no title page (a session starts with 'Title:', 'Author:' ... lines)")
            return
        yield Finding(line, 1, "title page has no 'Title:' (the recorder writes 'Title: Harvey Session')")

"""The title page has no `Author:`.

## What it does
Reports a session file whose title page lacks a non-empty `Author:` key, or that has no
title page at all (S101 reports that too: a file with less information is not let off more
lightly than one missing this line alone).

## Why is this bad?
`Author:` names the human in the session; it is required by FOUNTAIN_FORMAT.md and is
how readers tell the user's dialogue from a model's. The recorder writes `$USER` in
upper case, or `OPERATOR`.

## Severity
Error: `Author:` is the only record of who ran the session; without it the session's human is unknown.

## Example
```fountain
Title: Harvey Session

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
- FOUNTAIN_FORMAT.md §Required Elements (rules catalog A2)
"""

from fountain_audit.lint.diagnostics import Finding, Severity

CODE = "S102"
NAME = "missing-author"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = ("session",)


def check(ctx):
    if not ctx.session.title.get("Author", "").strip():
        tp = ctx.document.title_page
        line = tp.line if tp else 1
        if tp is None:  # (S101 reports the missing title page; with it went the only record of the human)
            yield Finding(line, 1, "no title page, so no 'Author:' (the human in the session, e.g. 'Author: ALICE')")
            return
        yield Finding(line, 1, "title page has no 'Author:' (the human in the session, e.g. 'Author: ALICE')")

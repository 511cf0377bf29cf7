"""No `FADE IN:` before the first scene.

## What it does
Reports a session file with no `FADE IN:` line between the title page and the first
scene heading.

## Why is this bad?
FOUNTAIN_FORMAT.md requires `FADE IN:` exactly; the recorder writes it when a session
starts. Without it the file is not a complete recording.

## Severity
Warning (was error): `FADE IN:` carries no evidence; every scene, note and time is still read.

## Example
```fountain
Title: Harvey Session
Author: ALICE

INT. SHELL 2026-06-24 10:02:30

THE END.
```

## Use instead
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:

INT. SHELL 2026-06-24 10:02:30

THE END.
```

## References
- FOUNTAIN_FORMAT.md §Required Elements (rules catalog A6)
"""

from fountain_audit.lint.diagnostics import Finding, Severity

CODE = "S103"
NAME = "missing-fade-in"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ("session",)


def check(ctx):
    if ctx.session.fade_in is None:
        s = ctx.session
        if s.scenes:
            yield Finding(s.scenes[0].line, 1, "no 'FADE IN:' before the first scene")
            return
        # no scene: after the title page, on a line the file has (it pointed past the end of a file
        # that ends with the title page; adversarial trial, stop 38)
        text = ctx.text
        lines = text.count("\n") + (not text.endswith("\n"))
        page = ctx.document.title_page
        yield Finding(max(1, min(page.end_line + 1 if page else 1, lines)), 1,
                      "no 'FADE IN:' after the title page" if page else "no 'FADE IN:' in the session")

"""The session does not end with `THE END.`.

## What it does
Reports a session file whose last element is not `THE END.`.

## Why is this bad?
The recorder appends `THE END.` when a session closes; readers use it to tell a
complete session from one that crashed or is still being written. Its absence is
normal for a live or crashed session, so this is a warning: check that the session
was not cut short (the last turn may have no reply).

## Example
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:
```

## Use instead
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:


THE END.
```

## References
- FOUNTAIN_FORMAT.md §Session End (rules catalog A7); cases A09, B28
"""

from ..diagnostics import Finding, Severity

CODE = "S104"
NAME = "missing-the-end"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ("session",)


def check(ctx):
    if ctx.session.the_end is None:
        body = [n for n in ctx.document.children if n.type != "blank"]
        line = body[-1].end_line if body else 1
        extra = ""
        turns = ctx.session.turns
        if turns and turns[-1].reply is None:
            extra = "; the last turn has no reply (crashed or still running?)"
        elif turns and turns[-1].reply.truncated:
            extra = "; the last reply is cut off mid-line (crashed?)"
        yield Finding(line, 1, f"session does not end with 'THE END.'{extra}")

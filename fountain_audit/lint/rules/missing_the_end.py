"""The session does not end with `THE END.`.

## What it does
Reports a session file whose last element is not `THE END.`, when its last turn is
complete (a session cut short mid-turn is reported by S108 `session-cut-short`, as info).
`THE END` without the period is accepted as the end marker, as Harvey's own reader accepts it.

## Why is this bad?
The recorder appends `THE END.` when a session closes; readers use it to tell a
complete session from one that crashed or is still being written. Its absence is
normal for a live or crashed session, so this is a warning: check that the session
was not cut short (the last turn may have no reply).

## Severity
Warning: a complete session that does not say it is complete; nothing recorded is lost.

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

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules.content_after_the_end import ends_followed_by_content

CODE = "S104"
NAME = "missing-the-end"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ("session",)


def cut_short(session) -> str | None:
    """Why a session without ``THE END.`` looks crashed or still running (its last turn
    has no reply, or the reply stops mid-line at end of file), else ``None``."""
    turns = session.turns
    if not turns:
        return None
    if turns[-1].reply is None:
        return "the last turn has no reply"
    if turns[-1].reply.truncated:
        return "the last reply is cut off mid-line"
    return None


def check(ctx):
    if ctx.session.the_end is None and cut_short(ctx.session) is None and not ends_followed_by_content(ctx):
        # (a 'THE END.' that more content follows is S106's)
        body = [n for n in ctx.document.children if n.type != "blank"]
        line = body[-1].end_line if body else 1
        yield Finding(line, 1, "session does not end with 'THE END.' (closed sessions end with it)")

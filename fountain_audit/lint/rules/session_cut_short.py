"""The session stops mid-turn, with no `THE END.`: it crashed or is still running.

## What it does
Reports, as information, a session file without `THE END.` whose last turn has no
reply, or whose last reply stops mid-line at the end of the file (no final line break).

## Why is this bad?
It is not wrong: the recorder appends as it goes, so a live or crashed session looks
exactly like this. But the last exchange is incomplete, and an audit (or a replay) must
not treat the missing reply as an answer. Harvey's own reader drops such a turn.

## Severity
Info: the recorder's append-only writer leaves exactly this when a session crashes or is still running; what it wrote is intact.

## Example
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:

INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Now deploy it.

HARVEY
Forwarding to LLAMA.
```

## Use instead
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:

INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Now deploy it.

HARVEY
Forwarding to LLAMA.

LLAMA
Deployed.


THE END.
```

## References
- FOUNTAIN_FORMAT.md §Session End (rules catalog A7: append-only writer); cases A09, B28
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules.content_after_the_end import ends_followed_by_content
from fountain_audit.lint.rules.missing_the_end import cut_short

CODE = "S108"
NAME = "session-cut-short"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = ("session",)


def check(ctx):
    if ctx.session.the_end is not None or ends_followed_by_content(ctx):
        return  # (a 'THE END.' that more content follows is S106's)
    why = cut_short(ctx.session)
    if why is not None:
        body = [n for n in ctx.document.children if n.type != "blank"]
        line = body[-1].end_line if body else 1
        yield Finding(line, 1, f"session ends without 'THE END.': {why} (crashed or still running?)")

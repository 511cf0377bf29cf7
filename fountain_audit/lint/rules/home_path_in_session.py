"""An absolute path under a home directory, which names the user's account.

## What it does
Reports absolute paths under `/home/<user>`, `/Users/<user>` or `C:\\Users\\<user>` (in any
spelling: forward or back slashes, JSON-escaped, any case, `/home//bob` and `/home/./bob`; with
a root before it: a drive as WSL, Cygwin or Git Bash mount it, `/mnt/c/Users/<user>`,
`/cygdrive/c/Users/<user>`, `/c/Users/<user>`, a drive's share `\\\\pc\\c$\\Users\\<user>`,
`/System/Volumes/Data/Users/<user>`, FreeBSD's `/usr/home/<user>`, Fedora Silverblue's
`/var/home/<user>`, Solaris' `/export/home/<user>`, right after a short option
(`gcc -I/home/<user>/include`), WSL's
`\\\\wsl$\\Ubuntu\\home\\<user>`; not `/users` in lower case after a forward slash and no root, a
web route such as `GET /users/42/profile`), and under `/root` (root's home on Linux, user
`root`), in tool arguments, notes, replies and user input. The session's own `Workspace:` path (in any spelling,
and paths inside it) is not reported: it is the session's recorded working directory. The user
name is read whole: with an `@` (`/home/user@corp`), an apostrophe (`/home/O'Brien`), words after
a blank where the path goes on (`C:\\Users\\John Smith\\Documents`), a zero-width or control
character inside it, and spelt with JSON escapes (`/home/J\\u00fcrgen`).

## Why is this bad?
A home path reveals a person's account name and the layout of their machine
(`/home/wren/secret/key.pem`). That is fine in a private log and not in a file attached to
a public bug report. `--redact` and `fountain-audit redact` replace such paths with
`<home>`.

## Severity
Info: the audit trail is intact; an account name in a path matters only when the file is shared, so it is a hint for `--redact`.

## Example
```fountain
INT. SHELL 2026-06-24 10:02:30

ALICE
! cat /home/wren/notes/todo.txt
```

## Use instead
```fountain
INT. SHELL 2026-06-24 10:02:30

ALICE
! cat <home>/notes/todo.txt
```

## Options
`[tool.fountain-audit.privacy] allow = ["regex", ...]`: a home path (`/home/wren`) that one
of these regexes matches is not reported.

## References
- issue 15 (privacy); `fountain-audit redact`, `--redact`
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS
from fountain_audit.lint.rules.secret_in_session import UTF16_PLACE
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import parse
from fountain_audit.parse.source import LineIndex
from fountain_audit.privacy.detect import find_home_paths, skip_home_paths, workspace_paths, workspace_regex

CODE = "V102"
NAME = "home-path-in-session"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = ALL_KINDS


def _found(ctx):
    return find_home_paths(ctx.text, folded=ctx.folded())


def prepare(ctx):
    """Find the home paths before the model is built (the scan reads the folded text)."""
    ctx.memo(CODE, _found)


def check(ctx):
    text, where = ctx.text, ""
    wide = ctx.utf16_text()
    if wide is not None:  # a UTF-16 file: its session model, read as UTF-8, is noise
        text, where = wide, UTF16_PLACE
        found = skip_home_paths(wide, find_home_paths(wide), workspace_regex(workspace_paths(build_session(parse(wide)))))
    else:
        found = skip_home_paths(text, ctx.memo(CODE, _found), workspace_regex(workspace_paths(ctx.session)))
    if ctx.privacy_allow:
        found = [h for h in found if not any(p.search(h.text) for p in ctx.privacy_allow)]
    if not found:
        return
    index = LineIndex(text)
    for h in found:
        line, col = index.position(h.start)
        end_line, end_col = index.position(h.end)
        yield Finding(line, col, f"home directory path {h.text} names a user account{where}", end_line, end_col)

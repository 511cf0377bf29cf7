r"""The file is binary, not a session transcript.

## What it does
Reports a file whose start holds NUL bytes and mostly non-text characters (an image,
an archive, a database), and skips every other rule for it but the privacy rules (V): NUL
bytes put in front of a session must not hide the secrets and home paths in it. A UTF-16
file (one starting with a UTF-16 byte-order mark, as some Windows editors and shells write
text) is reported as such; the privacy rules read it decoded as UTF-16.

## Why is this bad?
A binary file named `*.spmd` or `*.fountain` is not a session: checking it would bury
the one useful finding under hundreds of meaningless ones.

## Severity
Error: the file is unreadable as a transcript, so whatever it records is lost.

## Example
```fountain
\x00\x01\x02\x03\x00\x01\x02\x03\x00\x01
```

## Use instead
```fountain
INT. SHELL 2026-06-24 10:02:30

ALICE
! ls
```

## References
- fountain-audit input handling (never crash, report and go on)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.parse.source import looks_binary
from fountain_audit.lint.rules import ALL_KINDS

CODE = "E104"
NAME = "binary-file"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = ALL_KINDS


def check(ctx):
    if ctx.utf16_text() is not None:
        yield Finding(1, 1, "file is UTF-16 text, not UTF-8: re-encode it as UTF-8 to check it as a session; "
                      "only the privacy rules (V) check it, in its UTF-16 text")
    elif looks_binary(ctx.text):
        yield Finding(1, 1, "file looks binary (NUL bytes and control characters); only the privacy rules (V) "
                      "check it further")

r"""Bytes that are not valid UTF-8.

## What it does
Reports each run of bytes that cannot be decoded as UTF-8, with its byte offset.

## Why is this bad?
Harvey writes UTF-8. Undecodable bytes mean a corrupted or foreign-encoded file;
readers either fail or replace the bytes, so the audit text no longer says what was
recorded. fountain-audit keeps the bytes (the file still parses and prints back
identically) and checks the rest of the file.

## Severity
Error: the text at these bytes is unreadable, so the evidence there is lost.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
caf\udce9
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
café
```

## References
- FOUNTAIN_FORMAT.md (files are UTF-8 text)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.parse.source import LineIndex, undecodable_runs
from fountain_audit.lint.rules import ALL_KINDS

CODE = "E101"
NAME = "invalid-utf8"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = ALL_KINDS


def check(ctx):
    try:
        ctx.text.encode("utf-8")  # C speed: fails only if undecodable bytes (lone surrogates) are present
        return
    except UnicodeEncodeError:
        pass
    runs = undecodable_runs(ctx.text)
    if not runs:
        return
    index_of = LineIndex(ctx.text)
    for index, count in runs:
        line, col = index_of.position(index)
        yield Finding(line, col, f"{count} byte(s) not valid UTF-8 at byte offset {index_of.byte_offset(index)}",
                      line, col + count)

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


#: Code points encoded at a time by :func:`_encodable` (its transient memory: at most 3 bytes each).
_CHUNK = 1 << 20


def _encodable(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8, i.e. holds no surrogate code point (undecodable bytes,
    see :mod:`fountain_audit.parse.source`). Encodes ``_CHUNK`` code points at a time (C speed,
    never a copy of the whole text: the encoder reserves 3 bytes a code point of a UCS-2 text);
    a cut between two code points cannot make or hide a surrogate. A chunk whose code points are
    all below U+0100 (Latin-1: a copy at memory speed) holds no surrogate either; once one is
    not, the text is a wide one and the rest is encoded as UTF-8."""
    if text.isascii():
        return True
    latin = True
    try:
        for i in range(0, len(text), _CHUNK):
            chunk = text[i:i + _CHUNK]
            if latin:
                try:
                    chunk.encode("latin-1")
                    continue
                except UnicodeEncodeError:
                    latin = False
            chunk.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check(ctx):
    if _encodable(ctx.text):
        return
    runs = undecodable_runs(ctx.text)
    if not runs:
        return
    index_of = LineIndex(ctx.text)
    for index, count in runs:
        line, col = index_of.position(index)
        yield Finding(line, col, f"{count} byte(s) not valid UTF-8 at byte offset {index_of.byte_offset(index)}",
                      line, col + count)

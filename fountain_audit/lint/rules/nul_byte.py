r"""NUL or other control characters in the text.

## What it does
Reports NUL bytes and C0 control characters other than tab, line feed and carriage
return.

## Why is this bad?
The recorder never writes them; they come from binary tool output pasted into a reply
or from a damaged file, and many tools stop reading at a NUL.

## Severity
Warning: the text around the character is still readable (shell output can hold such bytes); tools may truncate it.

## Example
```fountain
INT. SHELL 2026-06-24 10:02:30

SHELL
bin\x00ary
```

## Use instead
```fountain
INT. SHELL 2026-06-24 10:02:30

SHELL
binary
```

## References
- harvey-recorder-inventory.md §1 (what the recorder writes)
"""


from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.parse.source import LineIndex
from fountain_audit.lint.rules import ALL_KINDS
from fountain_audit.untrusted import CONTROL_BYTES, CONTROL_CODES

CODE = "E102"
NAME = "control-character"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ALL_KINDS

_CONTROL_RE = lazy("[" + "".join(map(chr, CONTROL_CODES)) + "]+")


def _present(ctx) -> bool:
    raw = ctx.ascii_bytes()  # (a control character is ASCII: one byte there, found by memchr)
    return any(c in raw for c in CONTROL_BYTES)


def prepare(ctx):
    """Test for control characters before the model is built (in the text's ASCII bytes)."""
    ctx.memo(CODE, _present)


def check(ctx):
    if not ctx.memo(CODE, _present):
        return
    index_of = None
    for m in _CONTROL_RE.finditer(ctx.text):
        index_of = index_of or LineIndex(ctx.text)
        line, col = index_of.position(m.start())
        names = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(m.group()))
        yield Finding(line, col, f"control character(s) {names} in text", line, col + len(m.group()))

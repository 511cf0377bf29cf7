r"""Bidirectional control characters that make text display in another order than it is stored.

## What it does
Reports the Unicode bidirectional embedding, override and isolate controls (U+202A–U+202E,
U+2066–U+2069), one finding per run of adjacent ones, naming each. The marks U+200E, U+200F
and U+061C, which right-to-left text uses on its own, are not reported.

## Why is this bad?
These characters reorder what a reader sees without changing what is stored ("Trojan
Source", CVE-2021-42574): a tool call's arguments, a reply or a cue can show one text in an
editor, a terminal or a review and hold another, so the audit trail no longer says what it
appears to say. The recorder writes them only when a model or a tool produced them.
fountain-audit's own outputs show them escaped (`\u202e`); other readers do not.

## Severity
Warning: the text is recorded as it was produced, but a person reading it may be misled.

## Example
```fountain
INT. SHELL 2026-06-24 10:02:30

SHELL
access granted \u202e; rm -rf ~ \u202c
```
(The controls are written `\u202e` and `\u202c` here; the file holds the characters.)

## Use instead
```fountain
INT. SHELL 2026-06-24 10:02:30

SHELL
access granted
```

## References
- Unicode Standard Annex #9 (the bidirectional algorithm), §2 (explicit formatting characters)
- CVE-2021-42574 (Trojan Source); rustc's `text_direction_codepoint_in_literal` and
  pylint's `bidirectional-unicode`, which report the same characters in source code
"""

from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS
from fountain_audit.parse.source import LineIndex

CODE = "E106"
NAME = "bidi-control-character"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ALL_KINDS

#: The embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069), with their names.
BIDI_CONTROLS = {"\u202a": "LEFT-TO-RIGHT EMBEDDING", "\u202b": "RIGHT-TO-LEFT EMBEDDING",
                 "\u202c": "POP DIRECTIONAL FORMATTING", "\u202d": "LEFT-TO-RIGHT OVERRIDE",
                 "\u202e": "RIGHT-TO-LEFT OVERRIDE", "\u2066": "LEFT-TO-RIGHT ISOLATE",
                 "\u2067": "RIGHT-TO-LEFT ISOLATE", "\u2068": "FIRST STRONG ISOLATE",
                 "\u2069": "POP DIRECTIONAL ISOLATE"}
_BIDI_RE = lazy("[\u202a-\u202e\u2066-\u2069]+")


def check(ctx):
    text = ctx.text
    # (each `in` is a fast search of the text; the expression, a step per character, runs only
    # on a text holding one of them)
    if text.isascii() or not any(c in text for c in BIDI_CONTROLS):
        return
    index_of = LineIndex(text)
    for m in _BIDI_RE.finditer(text):
        line, col = index_of.position(m.start())
        names = ", ".join(f"U+{ord(c):04X} {BIDI_CONTROLS[c]}" for c in dict.fromkeys(m.group()))
        yield Finding(line, col, f"bidirectional control character(s) {names}: the text around it displays in "
                                 "another order than it is stored", line, col + len(m.group()))

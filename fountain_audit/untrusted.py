"""Session text is untrusted data: make it safe to print on a terminal.

A session file records what models and users wrote. Printed raw, an ``ESC`` sequence in a reply
could retitle the auditor's terminal (OSC ``\\x1b]0;…\\x07``), clear it (CSI ``\\x1b[2J``), or a
carriage return / bidi override could hide or reorder what is shown. :func:`terminal_safe` shows
every such character as a visible backslash escape instead; every text output (``show``,
``provenance``, ``diff``, lint code frames) passes session text through it.
"""

from __future__ import annotations

import re

from fountain_audit.lazyre import lazy

#: Characters that show nothing, or change how the text around them is shown, other than the C0
#: controls: DEL and the C1 controls, the Unicode line and paragraph separators, bidirectional
#: embedding/override/isolate controls and direction marks (U+200E, U+200F, U+061C), the
#: interlinear annotation controls U+FFF9-U+FFFB, the braille pattern blank U+2800 (a blank that
#: is no white space), and every other Default_Ignorable_Code_Point of Unicode: soft hyphen U+00AD,
#: combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the
#: Khmer inherent vowels U+17B4-U+17B5, the Mongolian free variation selectors and vowel separator
#: U+180B-U+180F, zero width space U+200B, word joiner and invisible operators U+2060-U+2065, the
#: deprecated format controls U+206A-U+206F, the variation selectors U+FE00-U+FE0D, zero width
#: no-break space / BOM U+FEFF, the unassigned U+FFF0-U+FFF8, shorthand format controls
#: U+1BCA0-U+1BCA3, musical formatting controls U+1D173-U+1D17A, the tag characters
#: U+E0000-U+E007F, the variation selectors supplement U+E0100-U+E01EF and the rest of
#: U+E0000-U+E0FFF (unassigned). Not the zero width joiner and non-joiner U+200C/U+200D, nor the
#: text and emoji presentation selectors U+FE0E/U+FE0F: scripts and emoji sequences need them
#: (``⚠️`` is U+26A0 U+FE0F), and they hide no text. JSON outputs write these as escapes too
#: (:func:`fountain_audit.parse.source.json_safe`).
INVISIBLE_CHARS = ("\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u200e\u200f"
                   "\u2028\u2029\u202a-\u202e\u2060-\u2069\u206a-\u206f\u2800\u3164\ufe00-\ufe0d\ufeff"
                   "\uffa0\ufff0-\ufffb\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff")
#: The C0 controls but tab, line feed and carriage return, and DEL: what E102 reports, what
#: :func:`terminal_safe` escapes beside :data:`INVISIBLE_CHARS`, and what a secret hidden by one
#: is read without (:mod:`fountain_audit.privacy.detect`).
CONTROL_CODES = (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F)
#: :data:`CONTROL_CODES` as one-byte strings: each looked for with ``in`` in a text's one-byte form
#: (a ``memchr``), a cheap test before a scan.
CONTROL_BYTES = tuple(bytes([c]) for c in CONTROL_CODES)
# ... and C0 controls except TAB and LF, CR not followed by LF, and lone surrogates (undecodable
# input bytes kept by ``surrogateescape``).
_UNSAFE_CHARS = "".join(map(chr, CONTROL_CODES)) + INVISIBLE_CHARS
_UNSAFE_RE = lazy(f"[{_UNSAFE_CHARS}\ud800-\udfff]|\r(?!\n)")


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    n = ord(c)
    if 0xDC80 <= n <= 0xDCFF:  # an undecodable byte, as surrogateescape keeps it
        return f"\\x{n - 0xDC00:02x}"
    if n <= 0xFF and n != 0xAD:
        return f"\\x{n:02x}"
    if n > 0xFFFF:
        return f"\\U{n:08x}"
    return f"\\u{n:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with control characters, bidi controls and undecodable bytes shown as escapes.

    Returns a str holding no character that a terminal interprets (except TAB, LF and CR
    before LF), e.g. ``"a\\x1b[2Jb"`` → ``"a\\\\x1b[2Jb"`` (a backslash, ``x1b``, then ``[2J``).
    Undecodable input bytes (lone surrogates U+DC80–U+DCFF) appear as ``\\xNN`` of the original
    byte; other C0/C1 controls as ``\\xNN``; separators, bidi controls, direction marks and
    invisible characters as ``\\uNNNN`` (tag characters ``\\UNNNNNNNN``). Never
    raises.
    """
    return _UNSAFE_RE.sub(_escape, text)


#: :data:`_UNSAFE_RE` without the lone surrogates (a page writes them as U+FFFD, see
#: :func:`fountain_audit.parse.source.well_formed`).
_UNSAFE_PAGE_RE = lazy(f"[{_UNSAFE_CHARS}]|\r(?!\n)")


def page_safe(text: str) -> str:
    """:func:`terminal_safe` for an HTML page: the same characters shown as the same escapes
    (``\\x1b``, ``\\u202e``), so that neither a browser (bidi overrides reorder what is shown)
    nor a terminal that prints the page's source (``cat report.html``) acts on them. Lone
    surrogates are left for the page's own replacement by U+FFFD. The escapes hold no
    character that HTML gives a meaning to, so escaping before or after HTML-escaping gives
    the same page. Never raises."""
    return _UNSAFE_PAGE_RE.sub(_escape, text)


def one_line(text: str) -> str:
    """:func:`terminal_safe` that also shows LF and TAB as ``\\n`` and ``\\t``: for text that
    must stay on one line, such as a file name or a message in ``path:line:col: …`` output,
    where a newline in a file name could otherwise forge a diagnostic line."""
    return terminal_safe(text).replace("\r\n", "\\r\\n").replace("\n", "\\n").replace("\t", "\\t")

"""Names as a session writes them (cues, ``[[NAME.tool:]]`` prefixes, the title page's
``Author:``, a chat heading's human), compared without Unicode case folding.

Python's ``str.upper`` maps some non-ASCII letters onto ASCII ones (``ſ`` U+017F long s →
``S``, ``ı`` U+0131 dotless i → ``I``, the ligature ``ﬁ`` → ``FI``, ``ß`` → ``SS``): a prefix
``ſhell`` would read as ``SHELL``, a character the file does not record. Names are upper-cased
here in ASCII only, every other character kept as written.
"""

from __future__ import annotations

_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def upper_ascii(name: str) -> str:
    """``name`` with its ASCII letters upper-cased and every other character as written
    (``"margot"`` → ``"MARGOT"``, ``"ſhell"`` → ``"ſHELL"``, never ``"SHELL"``)."""
    return name.upper() if name.isascii() else name.translate(_ASCII_UPPER)

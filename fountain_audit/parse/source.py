"""Reading session files: bytes to text without losing a byte.

Files are decoded as UTF-8 with the ``surrogateescape`` error handler: each
undecodable byte becomes one lone surrogate code point (U+DC80–U+DCFF), so
``encode_text(decode_bytes(b)) == b`` for every byte string. A BOM stays in the
text (the parser keeps it as a node); CR, CRLF and NUL are kept as they are.
"""

from __future__ import annotations

import bisect
import os
import re

_UNDECODABLE_RE = re.compile("[\udc80-\udcff]+")
_EOL_RE = re.compile(r"\r\n|\r|\n")


def decode_bytes(data: bytes) -> str:
    """Decode file bytes losslessly (UTF-8, ``surrogateescape``)."""
    return data.decode("utf-8", "surrogateescape")


def encode_text(text: str) -> bytes:
    """Inverse of :func:`decode_bytes`."""
    return text.encode("utf-8", "surrogateescape")


def undecodable_runs(text: str) -> list[tuple[int, int]]:
    """``(code-point offset, byte count)`` for each run of undecodable bytes in ``text``."""
    return [(m.start(), m.end() - m.start()) for m in _UNDECODABLE_RE.finditer(text)]


def byte_offset(text: str, index: int) -> int:
    """Byte offset in the original file of code point ``index`` of decoded ``text``.

    (For a ``str`` holding lone surrogates that no file could have produced, the
    offset counts them as UTF-16-style 3-byte sequences.)
    """
    return _utf8_len(text[:index])


def _utf8_len(s: str) -> int:
    try:
        return len(s.encode("utf-8", "surrogateescape"))
    except UnicodeEncodeError:
        return len(s.encode("utf-8", "surrogatepass"))


class LineIndex:
    """Maps code-point offsets of one text to 1-based lines and columns in O(log n).

    Build it once per text (one pass over the line ends).
    """

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in _EOL_RE.finditer(text)]
        self._byte_cache = (0, 0)  # (index, byte offset) of the last byte_offset query

    def position(self, index: int) -> tuple[int, int]:
        """1-based ``(line, column)`` of code point ``index``."""
        k = bisect.bisect_right(self.starts, index) - 1
        return k + 1, index - self.starts[k] + 1

    def byte_offset(self, index: int) -> int:
        """Like :func:`byte_offset`; linear over increasing indexes."""
        last_i, last_b = self._byte_cache
        if index < last_i:
            last_i, last_b = 0, 0
        b = last_b + _utf8_len(self.text[last_i:index])
        self._byte_cache = (index, b)
        return b


def read_path(path: str | os.PathLike) -> str:
    """Read and decode a file. Raises ``OSError`` (e.g. missing, unreadable, a directory)."""
    with open(path, "rb") as f:
        return decode_bytes(f.read())


def looks_binary(text: str) -> bool:
    """True when the first 8192 code points hold a NUL and mostly non-text characters
    (more than 10% control characters or undecodable bytes): an image, an archive."""
    head = text[:8192]
    if "\x00" not in head:
        return False
    bad = sum(1 for c in head if (c < " " and c not in "\t\n\r") or "\udc80" <= c <= "\udcff")
    return bad > len(head) // 10

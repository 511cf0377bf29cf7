"""Reading session files: bytes to text without losing a byte.

Files are decoded as UTF-8 with the ``surrogateescape`` error handler: each
undecodable byte becomes one lone surrogate code point (U+DC80–U+DCFF), so
``encode_text(decode_bytes(b)) == b`` for every byte string. A BOM stays in the
text (the parser keeps it as a node); CR, CRLF and NUL are kept as they are.
"""

from __future__ import annotations

import bisect
import errno
import os
import re
import stat

from fountain_audit.lazyre import lazy
from fountain_audit.untrusted import INVISIBLE_CHARS

_UNDECODABLE_RE = lazy("[\udc80-\udcff]+")
_EOL_RE = lazy(r"\r\n|\r|\n")


def decode_bytes(data: bytes) -> str:
    """Decode file bytes losslessly (UTF-8, ``surrogateescape``)."""
    return data.decode("utf-8", "surrogateescape")


def encode_text(text: str) -> bytes:
    """Inverse of :func:`decode_bytes`."""
    return text.encode("utf-8", "surrogateescape")


def undecodable_runs(text: str) -> list[tuple[int, int]]:
    """``(code-point offset, byte count)`` for each run of undecodable bytes in ``text``."""
    return [(m.start(), m.end() - m.start()) for m in _UNDECODABLE_RE.finditer(text)]


#: Any lone surrogate: undecodable input bytes (U+DC80–U+DCFF), or others no file produces.
_LONE_SURROGATE_RE = lazy("[\ud800-\udfff]")


def well_formed(text: str) -> str:
    """``text`` as well-formed Unicode: each lone surrogate (one undecodable input byte)
    becomes U+FFFD REPLACEMENT CHARACTER. One code point for one, so every code-point
    offset, line and column is unchanged. What JSON outputs carry; the raw bytes are
    reported by :func:`undecodable_bytes`."""
    if text.isascii():
        return text
    try:  # encoding fails on a lone surrogate only, and finds none ~5x faster than the search
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE_RE.sub("\ufffd", text)
    return text


#: What a terminal acts on, or shows as nothing, that JSON text may carry unescaped (JSON escapes
#: C0 controls itself): :data:`fountain_audit.untrusted.INVISIBLE_CHARS` (DEL and C1 controls:
#: U+009B is a whole CSI, ``\u009b2J`` clears an xterm; bidi controls, which reorder what is
#: shown; line and paragraph separators; invisible format characters such as U+200B and tags).
_JSON_UNSAFE_RE = lazy(f"[{INVISIBLE_CHARS}]")


def json_safe(text: str) -> str:
    """JSON ``text`` made safe to print: :func:`well_formed`, and each character a terminal
    acts on (:data:`_JSON_UNSAFE_RE`) written as its ``\\uNNNN`` escape, the same JSON value
    (such characters occur only inside strings). What every JSON output of fountain-audit
    writes, to a terminal or to a file that is printed later."""
    text = well_formed(text)
    if text.isascii():
        return text
    return _JSON_UNSAFE_RE.sub(_json_escape, text)


def _json_escape(m: re.Match[str]) -> str:
    n = ord(m.group())
    if n > 0xFFFF:  # JSON writes a character past the BMP as its UTF-16 surrogate pair
        n -= 0x10000
        return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"
    return f"\\u{n:04x}"


def undecodable_bytes(text: str) -> list[dict[str, int | str]]:
    """Where the bytes the UTF-8 decoder could not read are, one entry per run of
    consecutive undecodable bytes, in file order (``[]`` for valid UTF-8)::

        {"byte_offset": 761, "length": 2, "hex": "f09f", "offset": 740, "line": 34, "column": 13}

    ``byte_offset``: 0-based offset of the run's first byte in the file; ``length``: number
    of bytes; ``hex``: the bytes, two lowercase hex digits each; ``offset``, ``line``,
    ``column``: where the run starts in the units of every span (0-based code-point offset,
    1-based line and column), where :func:`well_formed` text has ``length`` U+FFFD. One
    pass over ``text``.
    """
    runs: list[dict[str, int | str]] = []
    index: LineIndex | None = None
    at = byte = 0
    for m in _UNDECODABLE_RE.finditer(text):
        index = index or LineIndex(text)
        byte += _utf8_len(text[at:m.start()])
        raw = m.group().encode("utf-8", "surrogateescape")
        line, column = index.position(m.start())
        runs.append({"byte_offset": byte, "length": len(raw), "hex": raw.hex(), "offset": m.start(),
                     "line": line, "column": column})
        byte += len(raw)
        at = m.end()
    return runs


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


#: Files larger than this (bytes) are refused before they are read (``max-file-size``).
DEFAULT_MAX_FILE_SIZE = 512 * 1024 * 1024


class FileTooLarge(OSError):
    """A file over the size limit (refused before reading), or one that did not fit in
    memory. ``strerror`` says which and gives the size."""


def format_size(size: int) -> str:
    """``"2.0 GB (2147483648 bytes)"``; binary units (1 KB = 1024 bytes)."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit} ({size} bytes)"
    return f"{size} byte{'s' * (size != 1)}"


def parse_size(text: str | int) -> int:
    """A size in bytes from ``512MB``, ``1.5 GB``, ``64K``, ``1000`` (binary units, ``B``
    optional). Raises ``ValueError``."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 1:
            raise ValueError(f"a size must be positive, not {text}")
        return text
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([KMG]?)B?\s*", str(text), re.I)
    if not m or float(m.group(1)) <= 0:
        raise ValueError(f"not a size: {text!r} (e.g. 512MB, 2GB, 100000)")
    if not m.group(2) and "." in m.group(1):  # 0.5 was read as 0 bytes (every file refused), 1.5 as 1
        raise ValueError(f"a size in bytes is a whole number, not {m.group(1)} (e.g. 1.5MB, 100000)")
    size = float(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2).upper()]
    if size < 1:
        raise ValueError(f"{str(text).strip()!r} is less than one byte")
    if size >= 1 << 62:  # float('9' * 5000) is inf: no file is that large
        raise ValueError(f"{str(text).strip()[:40]!r}{'…' if len(str(text).strip()) > 40 else ''} is too large "
                         "a size (at most 4 EB)")
    return int(size)


def read_path(path: str | os.PathLike, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> str:
    """Read and decode a regular file of at most ``max_size`` bytes (``None``: no limit).

    Raises ``OSError``: missing, unreadable, a directory; ``strerror`` ``"not a regular
    file"`` for a FIFO, socket or device (opened without blocking, never read: a FIFO
    would wait for a writer forever); :class:`FileTooLarge` for a file over ``max_size``
    (checked before reading) or one that does not fit in memory.
    """
    return decode_file(read_bytes(path, max_size), path)


def why_unreadable(path: str | os.PathLike, error: OSError) -> str:
    """What :func:`read_path`'s ``error`` for ``path`` means, in the words every command uses:
    ``no such file or directory``, ``a dangling symbolic link (to TARGET)``, ``a symbolic link
    loop``, ``permission denied``, ``not a regular file``, ``is a directory``, else ``cannot read:
    STRERROR`` (a file too large says so)."""
    if isinstance(error, FileTooLarge):
        return f"cannot read: {error.strerror or error}"
    code = error.errno
    if code == errno.ENOENT:
        if not os.path.islink(path):
            return "no such file or directory"
        try:
            return f"a dangling symbolic link (to {os.readlink(path)})"
        except OSError:
            return "a dangling symbolic link"
    if code == errno.ELOOP:
        return "a symbolic link loop"
    if code in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if code == errno.EISDIR:
        return "is a directory"
    if error.strerror == "not a regular file":
        return "not a regular file"
    return f"cannot read: {error.strerror or error}"


def decode_file(data: bytes, path: str | os.PathLike) -> str:
    """:func:`decode_bytes` of the bytes read from ``path``; :class:`FileTooLarge` (naming
    ``path``) when the text does not fit in memory."""
    try:
        return decode_bytes(data)
    except MemoryError:
        raise _out_of_memory(len(data), path) from None


def read_bytes(path: str | os.PathLike, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> bytes:
    """The bytes of a regular file of at most ``max_size`` bytes, undecoded (the lint result
    cache hashes them before anything is decoded); raises as :func:`read_path` does."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
        if max_size is not None and info.st_size > max_size:
            raise FileTooLarge(errno.EFBIG, f"{format_size(info.st_size)} is over the size limit "
                                            f"(max-file-size {format_size(max_size)})", os.fspath(path))
        try:
            return f.read()
        except MemoryError:
            raise _out_of_memory(info.st_size, path) from None


def _out_of_memory(size: int, path: str | os.PathLike) -> FileTooLarge:
    return FileTooLarge(errno.ENOMEM, f"out of memory reading {format_size(size)} "
                                      f"(max-file-size can refuse such files)", os.fspath(path))


def looks_binary(text: str) -> bool:
    """True when the first 8192 code points hold a NUL and mostly non-text characters
    (more than 10% control characters or undecodable bytes): an image, an archive."""
    head = text[:8192]
    if "\x00" not in head:
        return False
    bad = sum(1 for c in head if (c < " " and c not in "\t\n\r") or "\udc80" <= c <= "\udcff")
    return bad > len(head) // 10


_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
    (b"%PDF-", "a PDF document"), (b"PK\x03\x04", "a zip archive (or .docx, .xlsx, .jar)"),
    (b"\x1f\x8b", "a gzip archive"), (b"BZh", "a bzip2 archive"), (b"\xfd7zXZ\x00", "an xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"), (b"\x7fELF", "an ELF executable"),
    (b"SQLite format 3\x00", "an SQLite database"), (b"\xff\xfe", "UTF-16 text (little-endian)"),
    (b"\xfe\xff", "UTF-16 text (big-endian)"),
)


#: The UTF-16 byte-order marks (FF FE little-endian, FE FF big-endian) as :func:`decode_bytes` reads
#: them: two undecodable bytes.
_UTF16_MARKS = ("\udcff\udcfe", "\udcfe\udcff")


def utf16_text(text: str) -> str | None:
    """The text of a UTF-16 file: ``text`` as :func:`decode_bytes` read it (UTF-8, so the file's
    bytes are ``encode_text(text)``) decoded as UTF-16 instead, when it starts with a UTF-16
    byte-order mark (the mark dropped); ``None`` when it does not, or does not decode as UTF-16.
    Offsets, lines and columns in it are those an editor reading the file as UTF-16 shows."""
    if not text.startswith(_UTF16_MARKS):
        return None
    try:
        return encode_text(text).decode("utf-16")
    except UnicodeError:
        return None


def describe_content(text: str, kind: str | None = None) -> str | None:
    """What a file that holds no session is, for messages: ``"empty"``, ``"a PNG image"``,
    ``"binary data"``, ``"a plain screenplay (no Harvey scene or note)"`` (when ``kind``,
    the session model's kind, is ``"screenplay"``), or ``None`` for anything else.
    Recognises a few common formats by their first bytes (undecodable bytes included)."""
    if not text or text.isspace():
        return "empty" if not text else "blank (only white space)"
    head = text[:64].encode("utf-8", "surrogateescape")
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return f"{name}, not a session transcript"
    if looks_binary(text):
        return "binary data, not a session transcript"
    if kind == "screenplay":
        return "a plain screenplay (no Harvey scene or note)"
    return None

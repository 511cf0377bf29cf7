"""Standard input and output as the shell gives them, for :func:`fountain_audit.__main__.run`.

A standard output that cannot be written (``> /dev/full``: ``ENOSPC``; ``EIO``...) or is closed
(``>&-``), and a closed standard input (``<&-``), end a run with one line naming the stream,
``fountain-audit: error: cannot write standard output: No space left on device``, and exit
status 2, whatever the command (not an ``OSError`` or ``AttributeError`` traceback and 1, the
status of findings). To tell those errors from any other ``OSError`` in one place (the entry
point), :func:`guard` puts ``sys.stdin`` and ``sys.stdout`` on descriptors 0 and 1 through a raw
file that marks the errors it raises with the stream's name (:func:`failed_stream`); encoding,
error handler and buffering stay as Python set them. A closed descriptor 0 or 1 is reopened on
``os.devnull`` (so that no file the run opens takes its number: ``-o /dev/stdout`` or a check of
standard input would reach that file) and its stream raises ``EBADF`` when used. A reader that goes
away (``EPIPE``: ``| head``) is left unmarked: the commands handle it as before.
"""

from __future__ import annotations

import errno
import io
import os
import sys

TYPE_CHECKING = False  # (not typing's: lint starts without importing typing)
if TYPE_CHECKING:
    from typing import Callable

_MARK = "fountain_audit_stream"


class _Raw(io.FileIO):
    """Descriptor 0 or 1 (not closed with the stream) whose errors name the stream; a closed one
    (``closed``) raises ``EBADF`` on every read and write."""

    def __init__(self, fd: int, mode: str, name: str, closed: bool) -> None:
        super().__init__(fd, mode, closefd=False)
        self.stream_name = name
        self.was_closed = closed
        self.broken = False  # standard error failed once (see _guarded)

    def _fail(self, e: OSError) -> OSError:
        if e.errno != errno.EPIPE:
            setattr(e, _MARK, self.stream_name)
        return e

    def _closed_error(self) -> OSError:
        # (standard input's is printed by the commands as '-: cannot read: ...': it names the stream)
        closed = "standard input is closed" if self.stream_name == "standard input" else "closed"
        return self._fail(OSError(errno.EBADF, f"{os.strerror(errno.EBADF)} ({closed})"))

    def _guarded(self, method, *args):
        # ``method`` of io.FileIO, its errors named after the stream; EBADF on a closed one.
        # Standard error's are dropped (see guard): what it would have said is lost either way.
        if self.stream_name == "standard error":
            if self.was_closed or self.broken:
                return len(args[0])
            try:
                return method(self, *args)
            except OSError:
                self.broken = True
                return len(args[0])
        if self.was_closed:
            raise self._closed_error()
        try:
            return method(self, *args)
        except OSError as e:
            raise self._fail(e) from None

    def write(self, b):
        return self._guarded(io.FileIO.write, b)

    def readinto(self, b):
        return self._guarded(io.FileIO.readinto, b)

    def readall(self):
        return self._guarded(io.FileIO.readall)

    def read(self, size=-1):
        return self._guarded(io.FileIO.read, size)

    def isatty(self) -> bool:
        return False if self.was_closed else super().isatty()


def guard() -> None:
    """Replace ``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` (when they are Python's own, on
    descriptors 0, 1 and 2, or ``None``: closed) by streams on :class:`_Raw`, with the same
    encoding, error handler and buffering. Streams a caller replaced (a test runner's) are left
    alone. A standard error that cannot be written (``2>/dev/full``) or is closed (``2>&-``) drops
    what is written to it: the run's exit status stays its own (an error's 2 read 1, the status
    of findings, through the traceback of the failed write; adversarial trial)."""
    for fd, name, attr, mode in ((0, "standard input", "stdin", "rb"), (1, "standard output", "stdout", "wb"),
                                 (2, "standard error", "stderr", "wb")):
        old = getattr(sys, attr)
        closed = old is None
        if closed:
            try:
                null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            except OSError:
                continue
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            encoding, errors, line_buffering, write_through = "utf-8", "strict", False, False
        else:
            try:
                if old.fileno() != fd or not isinstance(old, io.TextIOWrapper):
                    continue
            except (OSError, ValueError, AttributeError):
                continue
            encoding, errors = old.encoding, old.errors
            line_buffering, write_through = old.line_buffering, old.write_through
        raw = _Raw(fd, mode, name, closed)
        if not closed and isinstance(old.buffer, io.FileIO):  # (python -u: unbuffered, as Python made it)
            buffer = raw
        else:
            buffer = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
        stream = io.TextIOWrapper(buffer, encoding=encoding, errors=errors, line_buffering=line_buffering,
                                  write_through=write_through)
        if not closed:
            try:
                old.flush()  # (nothing written yet; never left behind in the old buffer)
            except (OSError, ValueError):
                pass
        setattr(sys, attr, stream)


def failed_stream(e: BaseException) -> str | None:
    """``standard input`` or ``standard output`` when ``e`` is an error reading or writing it
    (raised through the streams :func:`guard` installed), else ``None``."""
    return getattr(e, _MARK, None) if isinstance(e, OSError) else None


def give_up(e: OSError) -> None:
    """Report the failed stream of ``e`` (see :func:`failed_stream`) on standard error as one line and
    exit 2. Standard output is then sent to ``os.devnull``, so that what is still buffered is not
    written again (and fails again) when the interpreter exits."""
    name = failed_stream(e)
    verb = "read" if name == "standard input" else "write"
    if name == "standard output":
        discard_stdout()
    reason = e.strerror or str(e)
    try:
        sys.stderr.write(f"fountain-audit: error: cannot {verb} {name}: {reason}\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        pass
    raise SystemExit(2)


def discard_stdout() -> None:
    """Send what is still to be written to standard output to ``os.devnull``
    (:func:`fountain_audit.commands.common.reader_gone`), a closed one included."""
    from fountain_audit.commands.common import reader_gone
    reader_gone()  # (descriptor 1 is now os.devnull: writing it succeeds)
    buffer = getattr(sys.stdout, "buffer", None)
    raw = getattr(buffer, "raw", buffer)
    if isinstance(raw, _Raw):
        raw.was_closed = False


class _RedactingStderr(io.TextIOBase):
    """Standard error with every string written through ``redact`` first (``--redact``: see
    :func:`redact_stderr`). It has no ``buffer``, so nothing (click's stream wrapping included)
    can write to the stream past it; the rest (encoding, ``isatty``, ``fileno``) is the stream's."""

    def __init__(self, inner, redact) -> None:
        super().__init__()
        self.inner, self.redact = inner, redact

    @property
    def encoding(self):  # type: ignore[override]
        return getattr(self.inner, "encoding", "utf-8")

    @property
    def errors(self):  # type: ignore[override]
        return getattr(self.inner, "errors", "strict")

    def writable(self) -> bool:
        return True

    def write(self, s):  # (bytes: TypeError, so click does not take it for a binary stream)
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        self.inner.write(self.redact(s) if s else s)
        return len(s)

    def flush(self) -> None:
        self.inner.flush()

    def isatty(self) -> bool:
        try:
            return self.inner.isatty()
        except (AttributeError, ValueError, OSError):
            return False

    def fileno(self) -> int:
        return self.inner.fileno()


def redact_stderr(redact: Callable[[str], str]) -> Callable[[], None]:
    """From now on, pass every message written to standard error through ``redact`` (str ->
    str: a :class:`fountain_audit.privacy.redact.Redactor`'s ``text``): with ``--redact``, an
    error or warning naming a file must not show a secret (or, with the paths, a home
    directory) that the file's name holds, whichever code printed it (click, rich, the
    commands' own :func:`~fountain_audit.commands.common.echo`, ``print(file=sys.stderr)``).
    Called again, the new ``redact`` replaces the old one. Returns the function that puts the
    stream back as it was."""
    current = sys.stderr
    if isinstance(current, _RedactingStderr):
        old = current.redact
        current.redact = redact

        def put_back_function() -> None:
            current.redact = old
        return put_back_function
    sys.stderr = _RedactingStderr(current, redact)

    def put_back() -> None:
        if isinstance(sys.stderr, _RedactingStderr) and sys.stderr.inner is current:
            try:
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            sys.stderr = current
    return put_back

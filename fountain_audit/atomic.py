"""Writing files atomically: everything fountain-audit writes (reports, baselines, redacted
copies, exports, HTML pages) goes through :func:`write_atomic`, so an interrupted or failed run
leaves the previous file in place and at most no temporary file behind."""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading


#: Temporary files of :func:`write_atomic` are named ``TARGET.fountain-audit-XXXXXXXX.tmp``
#: beside TARGET (visible, so an interrupted run's leftover is easy to find and delete).
TEMP_INFIX = ".fountain-audit-"


def write_atomic(path: str | os.PathLike, data: str | bytes, *, durable: bool = False) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same directory, fsync and a
    rename, so a reader sees the old file or the new one, never half of one. A ``str`` is
    written as UTF-8, ``bytes`` as they are. ``durable`` also fsyncs the directory, so the
    rename itself survives a crash (the baseline, a shared ledger, asks for it).

    The file keeps the mode of the file it replaces (new files: 0666 less the umask).
    Raises ``OSError``; the temporary file (``TARGET.fountain-audit-XXXXXXXX.tmp``) is
    removed on failure, on ``KeyboardInterrupt`` (SIGINT) and on SIGTERM, after which
    the process still ends by that signal.
    """
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    with _terminate_raises() as interrupted:
        fd, tmp = tempfile.mkstemp(prefix=f"{os.path.basename(path)}{TEMP_INFIX}", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    if interrupted:
        signal.raise_signal(interrupted[0])
    if durable:
        fsync_dir(folder)


def fsync_dir(folder: str) -> None:
    """Make a rename in ``folder`` durable (not possible, and not needed, on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class _Terminated(BaseException):
    """SIGTERM arrived while a report was being written (see :func:`_terminate_raises`)."""


@contextlib.contextmanager
def _terminate_raises():
    """While in the block, SIGTERM (and SIGHUP) raise :class:`_Terminated` so that
    ``finally``/``except`` clean up; the signal number is then yielded back in the list,
    for the caller to re-raise with the previous handler restored. Only in the main
    thread (signal handlers cannot be set elsewhere)."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    wanted = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])

    def handler(signum, frame):
        raise _Terminated(signum)

    previous = {s: signal.signal(s, handler) for s in wanted}
    try:
        yield caught
    except _Terminated as e:
        caught.append(e.args[0])
    finally:
        for s, h in previous.items():
            signal.signal(s, h)

"""Writing files atomically: everything fountain-audit writes (reports, baselines, redacted
copies, exports, HTML pages) goes through :func:`write_atomic`, so an interrupted or failed run
leaves the previous file in place and at most no temporary file behind."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys
import tempfile
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Sequence


#: Temporary files of :func:`write_atomic` are named ``TARGET.fountain-audit-XXXXXXXX.tmp``
#: beside TARGET (visible, so an interrupted run's leftover is easy to find and delete).
TEMP_INFIX = ".fountain-audit-"


def write_atomic(path: str | os.PathLike, data: str | bytes | Sequence[str | bytes], *, durable: bool = False, sync: bool = True,
                 follow: bool = True, mode: int | None = None, parents: bool = False) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same directory, fsync and a
    rename, so a reader sees the old file or the new one, never half of one. A ``str`` is
    written as UTF-8, ``bytes`` as they are, a list of them one after the other (a large document
    written piece by piece, never joined into one string). ``durable`` also fsyncs the directory, so the
    rename itself survives a crash (the baseline, a shared ledger, asks for it); ``sync=False``
    skips the fsync of the file too (for a cache, whose files are checked when read: after a
    crash a reader may find a damaged file, never half of one written by a live process).

    What ``path`` names decides how it is written (see :func:`resolve_target`):

    - a symlink is never written through: the link itself is replaced by the new file, its
      target left as it was (a link planted in an output folder, e.g. ``pages/index.html ->
      ../victim.txt``, or committed in a checkout, must not redirect the write; adversarial
      trial). Symlinks in the folders above ``path`` are followed;
    - an existing file at ``path`` that is not a regular file nor a directory (a character
      device such as ``/dev/null``, a FIFO, a socket) or a path through ``/proc``
      (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``, the process's own descriptors) is
      opened and written directly, with no temporary file and no rename (it is a stream, not a
      file to replace: ``-o /dev/null`` discards, a FIFO's reader gets the data; opening a FIFO
      waits for its reader);
    - a directory stays an error (``IsADirectoryError`` from the rename), and so does a path
      ending in ``/`` (a folder's name, whether it exists or not: ``-o out/`` wrote a file ``out``).

    ``follow=False`` (a cache's own entries, the pages ``report`` writes into a folder) never
    writes directly: whatever ``path`` is (a symlink, a FIFO planted there) is replaced by the
    new regular file.

    ``parents``: the missing folders above ``path`` are created first (as ``mkdir -p``; what a
    user's ``-o out/lint.json`` expects, as ruff's ``--output-file``); a file in the way raises
    ``OSError`` (``NotADirectoryError``, ``FileExistsError``) like any other failure to write.

    A replaced file keeps its mode (new files: 0666 less the umask; ``mode`` sets it instead) and,
    unless ``follow=False`` (a cache entry planted by another user must become ours), its owner
    and group where the system allows it (root; a group the user is in).
    Raises ``OSError``; the temporary file (``TARGET.fountain-audit-XXXXXXXX.tmp``) is
    removed on failure, on ``KeyboardInterrupt`` (SIGINT) and on SIGTERM, after which
    the process still ends by that signal.
    """
    if names_folder(path):
        # (`-o out/`, `-o out/.`: a folder's name, never a file's; they wrote a file `out`)
        raise IsADirectoryError(errno.EISDIR, "a folder's name (it ends in '/'), not a file's", os.fspath(path))
    path, direct = resolve_target(path) if follow else (_link_free(path), False)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if direct:
        own = _own_descriptor(path)
        if own is not None:  # /dev/stdout: our descriptor's own offset (a shell's `> log`), not a new one
            if own in (1, 2):
                (sys.stdout if own == 1 else sys.stderr).flush()
            with open(own, "wb", closefd=False) as f:
                _write(f, payload)
            return
        with open(path, "wb") as f:
            _write(f, payload)
        return
    folder = os.path.dirname(path)
    if parents and not os.path.isdir(folder):
        try:
            os.makedirs(folder, exist_ok=True)
        except FileExistsError as e:  # a file where the folder goes: said as opening through it says it
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), e.filename) from None
    owner = None  # (uid, gid) of the regular file replaced, kept where the system lets us
    try:
        st = os.lstat(path)  # (a symlink replaced: a new file's mode, not its target's)
        if stat.S_ISREG(st.st_mode):
            owner = (st.st_uid, st.st_gid)
            if mode is None:
                mode = st.st_mode & 0o7777
    except OSError:
        pass
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    with _terminate_raises() as interrupted:
        fd, tmp = tempfile.mkstemp(prefix=f"{os.path.basename(path)}{TEMP_INFIX}", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                _write(f, payload)
                f.flush()
                if sync:
                    os.fsync(f.fileno())
            if follow and owner is not None and owner != (os.geteuid(), os.getegid()) and hasattr(os, "chown"):
                try:  # (root's `redact --in-place` made another user's file root's; adversarial trial)
                    os.chown(tmp, *owner)
                except OSError:  # not allowed (another user's file, not root): the new file is ours
                    pass
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


def names_folder(path: str | os.PathLike) -> bool:
    """Is ``path`` a folder's name whatever exists there: it ends in a separator (``out/``), or
    its last part is ``.`` or ``..`` (``out/.``)? Such a path is never written as a file."""
    path = os.fspath(path)
    return path.endswith(("/", os.sep)) or os.path.basename(path) in (".", "..")


def _write(f, payload: bytes | Sequence[str | bytes]) -> None:
    if isinstance(payload, bytes):
        f.write(payload)
        return
    for piece in payload:
        f.write(piece.encode("utf-8") if isinstance(piece, str) else piece)


def resolve_target(path: str | os.PathLike) -> tuple[str, bool]:
    """Where :func:`write_atomic` writes ``path``: ``(target, direct)``. ``direct`` is true
    when the file is to be opened and written in place (``target`` is then ``path`` as
    given): a path through a ``/proc`` link (``/dev/stdout`` -> ``/proc/self/fd/1``), whose
    target is an open file description, not a path to rename over; or a file that exists and
    is neither a regular file, a directory nor a symlink (device, FIFO, socket). Otherwise
    ``target`` is the absolute path with the symlinks of its folders resolved but not its own
    name's (:func:`_link_free`): a symlink there is replaced, never written through."""
    path = os.fspath(path)
    if _through_proc(path):
        return path, True
    try:
        st = os.lstat(path)
    except OSError:
        st = None
    if st is not None and not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        return path, True
    return _link_free(path), False


def _link_free(path: str | os.PathLike) -> str:
    """``path`` made absolute, its folder's symlinks resolved, its own last name kept: renaming
    over it replaces whatever is at that name (a symlink too), never what a link there names."""
    path = os.path.abspath(os.fspath(path))
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))


def _own_descriptor(path: str) -> int | None:
    """The file descriptor N of this process that ``path`` names through ``/proc``
    (``/dev/stdout`` → ``/proc/self/fd/1``, ``/dev/fd/N``, ``/proc/PID/fd/N``), else ``None``.
    Opening such a path makes a new open file description, with its own offset at 0 and
    ``O_TRUNC``: a report written that way over a shell's ``> log`` would overwrite what the
    shell wrote before it and be overwritten by what it writes after."""
    own = {"/proc/self/fd", f"/proc/{os.getpid()}/fd"}
    for folder, name in _symlink_chain(path):
        if folder in own and name.isdigit():
            return int(name)
    return None


def _through_proc(path: str) -> bool:
    """True when following ``path``'s symlinks reaches a symlink inside ``/proc``
    (``/proc/self/fd/1``, ``/proc/PID/cwd``...), a kernel "magic" link."""
    for folder, name in _symlink_chain(path):
        if (folder == "/proc" or folder.startswith("/proc/")) and os.path.islink(os.path.join(folder, name)):
            return True
    return False


def _symlink_chain(path: str):
    """``(folder, name)`` of ``path`` and of each symlink target after it, one link at a time
    (``folder`` with its own links resolved), as the kernel follows them (at most 40); ends at
    the first name that is not a symlink (yielded too) or cannot be read."""
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on links followed
        folder = os.path.realpath(os.path.dirname(current))
        name = os.path.basename(current)
        yield folder, name
        current = os.path.join(folder, name)
        if not os.path.islink(current):
            return
        try:
            link = os.readlink(current)
        except OSError:
            return
        current = os.path.normpath(os.path.join(folder, link))


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

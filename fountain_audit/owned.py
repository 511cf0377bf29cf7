"""Reading back the files of a cache (lint results, parser tables) only when this user wrote
them: what a cache holds is trusted when read (a pickled parser table runs code when loaded,
a lint entry decides what is reported), so a file another user could have planted or changed
is refused. Imports nothing beyond the standard library's ``os``, ``stat`` and ``errno``
(a warm-cache lint reads through this at start-up)."""

from __future__ import annotations

import errno
import os
import stat


def read_own_file(path: str | os.PathLike) -> bytes:
    """The bytes of a cache file: ``path`` must be a regular file (a symlink is not followed,
    a FIFO is not waited on) owned by this user and writable by no one else, since a cache
    file read back is trusted (a pickled parser table runs code when loaded). Raises
    ``OSError`` otherwise (``PermissionError`` for a file another user could have written)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
        if hasattr(os, "geteuid") and (info.st_uid != os.geteuid() or info.st_mode & 0o022):
            raise PermissionError(errno.EPERM, "not owned by this user alone", os.fspath(path))
        return f.read()

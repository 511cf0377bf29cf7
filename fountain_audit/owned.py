"""Files trusted because this user wrote them: the files of a cache (lint results, parser
tables) and a configuration file found by discovery. What a cache holds is trusted when read
(a pickled parser table runs code when loaded, a lint entry decides what is reported), and a
configuration found in an ancestor such as ``/tmp`` decides which rules run, so a file another
user could have planted or changed is refused. :func:`doubt` says why a file (or folder) may
hold another user's writing; :func:`read_own_file` reads a cache file under its strictest
rule. Imports nothing beyond the standard library's ``os``, ``stat`` and ``errno`` (a
warm-cache lint reads through this at start-up; ``grp`` and ``pwd`` when a group-writable
configuration file asks :func:`private_group`)."""

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
        if doubt(info) is not None:
            raise PermissionError(errno.EPERM, "not owned by this user alone", os.fspath(path))
        return f.read()


def doubt(info: os.stat_result, *, root_trusted: bool = False, own_group_may_write: bool = False,
          sticky_folder: bool = False) -> str | None:
    """Why the file or folder whose status is ``info`` (``os.stat``/``os.fstat``) may hold what
    another user wrote, or ``None``: ``"owned by another user (uid N)"`` or ``"writable by other
    users"``. Always ``None`` where there is no ``os.geteuid`` (Windows: no such check).

    The rule has three parameters, each off for a cache file (:func:`read_own_file`: owned by
    this user, writable by no group) and on for a configuration file or its folder
    (:mod:`fountain_audit.lint.config`):

    - ``root_trusted``: a file root owns is trusted too (a system-wide configuration);
    - ``own_group_may_write``: group write is allowed when the group is the user's own and
      private (:func:`private_group`: with a umask of 002 the user's files are writable by the
      user's private group, which holds no one else); write by a shared group (``users``, even
      when it is the user's primary group), by a group not the user's own, or by anyone, is not;
    - ``sticky_folder``: ``info`` is a folder, and when it has the sticky bit (as ``/tmp``) the
      others who may write to it cannot replace a file they do not own: not a doubt.

    A symbolic link (``info`` from ``os.lstat``) is judged by its owner alone: its mode is
    always 0777 and gives no one a right (who may replace it is its folder's business)."""
    if not hasattr(os, "geteuid"):
        return None
    uid = info.st_uid
    if uid != os.geteuid() and not (root_trusted and uid == 0):
        return f"owned by another user (uid {uid})"
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        return None
    group_writes = mode & 0o020 and not (own_group_may_write and info.st_gid == os.getegid()
                                         and private_group(info.st_gid))
    if (mode & 0o002 or group_writes) and not (sticky_folder and mode & stat.S_ISVTX):
        return "writable by other users"
    return None


#: :func:`private_group`'s answers by group id (the group database is read once per run).
_private: dict[int, bool] = {}


def private_group(gid: int) -> bool:
    """Whether the group ``gid`` holds no user but this one: no other user is listed as its
    member (``/etc/group``) or has it as primary group (``/etc/passwd``). A group that cannot be
    looked up is not private. Reads the whole user database (``pwd.getpwall``) once per group
    asked about, and only for a group-writable file of the user's own group."""
    if gid not in _private:
        import grp
        import pwd
        try:
            me = pwd.getpwuid(os.geteuid()).pw_name
            members = set(grp.getgrgid(gid).gr_mem)
            members.update(user.pw_name for user in pwd.getpwall() if user.pw_gid == gid)
        except (KeyError, OSError):
            members = {None}
        _private[gid] = members <= {me}
    return _private[gid]

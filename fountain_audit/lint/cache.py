"""The lint result cache: a file's diagnostics kept on disk, so an unchanged file is not parsed again.

As ruff's ``.ruff_cache``: ``fountain-audit lint`` stores each file's diagnostics (after
suppressions and fingerprints, before the baseline, which is applied to every run) under a
key made of

* everything that decides the result for every file of the run (:func:`settings_key`): the
  cache format (:data:`FORMAT`), fountain-audit's version, a stamp of its installed code
  (path, size and modification time of every file of the package, and of Lark's and
  detect-secrets', so an edited
  rule or grammar never meets an old result), the Python version, the selected rules with their
  severities and target-version cut, the ``[privacy] allow`` patterns and the bytes of the
  configuration file;
* the file's own inputs: the name it is reported under, its path relative to the project root
  (fingerprints hash it), the rules its ``per-file-ignores`` switch off;

and checked against a BLAKE2b digest of the file's bytes (:func:`content_digest`), stored in
the entry. A hit returns exactly what linting gave; any difference is a miss.

Where: ``--cache-dir DIR``, else ``$FOUNTAIN_AUDIT_CACHE_DIR``, else ``.fountain_audit_cache``
in the project root (the directory of the configuration file, else the current directory).
The directory gets a ``CACHEDIR.TAG`` (backup tools skip it) and a ``.gitignore`` of ``*``;
entries live in ``lint-v{FORMAT}/``, one file per (settings, file name), replaced when the
file changes. ``--no-cache`` or ``FOUNTAIN_AUDIT_NO_CACHE=1`` turn it off.

Safety: an entry is ``MAGIC``, a 16-byte BLAKE2b checksum of the payload, then the payload
(:mod:`marshal`: strings, integers, ``None`` and tuples only). Only a regular file owned by this user and
writable by no one else is read (an entry is written with mode 0600: it holds excerpts of the
session; a symlink or FIFO planted at an entry's name is replaced, never followed or opened). The
cache directory and its ``lint-v{FORMAT}`` must be real directories owned by this user: one that
is a symlink (a checkout can commit ``.fountain_audit_cache`` as a link to any folder) means no
cache for the run, nothing written through it.
A truncated, damaged or foreign file fails the checksum or the checks and is a miss; a directory that cannot be created or
written (read-only project, full disk) just means no cache. Entries are written with
:func:`fountain_audit.atomic.write_atomic` (no fsync: the checksum catches what a crash
could leave), so parallel runs and workers never read half an entry. Nothing here raises.

This module imports no parser and no rule: a run whose files all hit never loads Lark.
"""

from __future__ import annotations

import marshal
import os
import sys

try:  # the built-in module: hashlib would load OpenSSL too (start-up time)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - every CPython build has it
    from hashlib import blake2b

#: Version of the entry layout and of what a key covers; bumped when either changes.
FORMAT = 1
#: The default directory name, in the project root.
DIR_NAME = ".fountain_audit_cache"
#: The environment variable naming the cache directory (also used for the Lark tables,
#: see :mod:`fountain_audit.parse.cache`; the entries have their own sub-directory).
ENV_DIR = "FOUNTAIN_AUDIT_CACHE_DIR"
MAGIC = b"FACACHE\x01"
_TAG = (b"Signature: 8a477f597d28d172789f06886806bc55\n"
        b"# This file is a cache directory tag created by fountain-audit.\n"
        b"# For information about cache directory tags see https://bford.info/cachedir/\n")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fountain_audit.lint.diagnostics import Diagnostic


def _check_own_directory(path: str) -> None:
    """Raise ``OSError`` unless ``path`` is a real directory (not a symlink) owned by this user:
    a checkout can hold ``.fountain_audit_cache`` as a symlink to any folder, and entries, the
    tag and the ``.gitignore`` must not be written through it."""
    import stat
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or (hasattr(os, "geteuid") and info.st_uid != os.geteuid()):
        raise OSError(f"{path}: not a directory of this user's (a symlink is not followed)")


def content_digest(data: bytes) -> bytes:
    """BLAKE2b (16 bytes) of a file's bytes: what an entry is checked against."""
    return blake2b(data, digest_size=16).digest()


def cache_root(option: str | None, project_root: str | os.PathLike) -> str:
    """The cache directory: ``option`` (``--cache-dir``), else ``$FOUNTAIN_AUDIT_CACHE_DIR``,
    else ``PROJECT_ROOT/.fountain_audit_cache``."""
    return option or os.environ.get(ENV_DIR) or os.path.join(os.fspath(project_root), DIR_NAME)


def disabled_by_environment() -> bool:
    """``FOUNTAIN_AUDIT_NO_CACHE`` set to anything but empty or ``0``."""
    return os.environ.get("FOUNTAIN_AUDIT_NO_CACHE", "") not in ("", "0")


def code_stamp() -> tuple:
    """``(relative path, size, mtime_ns)`` of every module and grammar of the installed
    fountain-audit package (and of ``grammar/`` beside it in a source checkout) and of Lark's
    and detect-secrets' ``__init__.py``: a result computed by other code never matches."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out: list = []
    folders = [""]
    while folders:  # os.scandir: one stat per file, no path arithmetic (this runs on every lint)
        folder = folders.pop()
        try:
            with os.scandir(os.path.join(package, folder)) as it:
                found = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for entry in found:
            rel = f"{folder}/{entry.name}" if folder else entry.name
            try:
                if entry.is_dir():
                    if entry.name != "__pycache__":
                        folders.append(rel)
                elif entry.name.endswith((".py", ".lark")):
                    st = entry.stat()
                    out.append((rel, st.st_size, st.st_mtime_ns))
            except OSError:
                continue
    checkout = os.path.join(os.path.dirname(package), "grammar")  # a source checkout's grammar/
    try:
        names = sorted(os.listdir(checkout))
    except OSError:
        names = []
    for name in names:
        try:
            st = os.stat(os.path.join(checkout, name))
        except OSError:
            continue
        out.append((os.path.join("..", "grammar", name), st.st_size, st.st_mtime_ns))
    from fountain_audit.parse.memo import library_stamp
    # their versions without importing them (the privacy rules run detect-secrets' plugins, on
    # the texts where ahocorasick-rs finds their needles)
    for library in ("lark", "detect_secrets", "ahocorasick_rs"):
        stamp = library_stamp(library)
        if stamp is not None:
            out.append(stamp)
    return tuple(out)


def settings_key(rules, privacy_allow=(), config_source: str | os.PathLike | None = None) -> bytes:
    """The digest of everything run-wide that decides a file's diagnostics: see the module
    docstring. ``rules`` are the selected :class:`~fountain_audit.lint.rules.Rule` s (only their
    code, name, severity, since-version and scope are read)."""
    from fountain_audit import __version__

    config = b""
    if config_source is not None:
        try:
            with open(config_source, "rb") as f:
                config = f.read()
        except OSError:
            config = b"\0unreadable"
    from fountain_audit.lint.diagnostics import Diagnostic

    parts = (FORMAT, __version__, sys.version, code_stamp(), Diagnostic.__match_args__,
             tuple((r.code, r.name, int(r.severity), r.since, tuple(sorted(r.scope))) for r in rules),
             tuple(privacy_allow), os.fspath(config_source or ""), config)
    return blake2b(_stable_bytes(parts), digest_size=16).digest()


def _stable_bytes(value) -> bytes:
    """Key material as bytes that depend only on the value (``repr`` of strings, numbers,
    ``None`` and tuples; :mod:`marshal` output also depends on reference counts)."""
    return repr(value).encode("utf-8", "backslashreplace")


class ResultCache:
    """The entries of one lint run: ``directory`` (the cache root) and ``settings`` (from
    :func:`settings_key`). :meth:`get` and :meth:`put` never raise."""

    def __init__(self, directory: str | os.PathLike, settings: bytes) -> None:
        self.directory = os.fspath(directory)
        self.entries = os.path.join(self.directory, f"lint-v{FORMAT}")
        self.settings = settings
        self._ready = False
        self.writable = True

    def _path(self, name: str, key: str | None, ignored) -> str:
        ident = _stable_bytes((name, key, tuple(sorted(ignored))))
        return os.path.join(self.entries, blake2b(ident, digest_size=16, key=self.settings).hexdigest())

    def get(self, name: str, key: str | None, ignored, digest: bytes) -> tuple[Diagnostic, ...] | None:
        """The diagnostics stored for this file and content ``digest``, or ``None`` (a miss)."""
        from fountain_audit.owned import read_own_file
        try:
            data = read_own_file(self._path(name, key, ignored))
        except (OSError, ValueError):
            return None
        try:
            if data[:8] != MAGIC or blake2b(data[24:], digest_size=16).digest() != data[8:24]:
                return None
            stored_digest, stored_name, stored_key, rows = marshal.loads(data[24:])
            if stored_digest != digest or stored_name != name or stored_key != key:
                return None
            from fountain_audit.lint.diagnostics import Diagnostic, Severity
            fields = Diagnostic.__match_args__
            if not rows:
                return ()
            at = fields.index("severity")
            out = []
            for row in rows:
                if len(row) != len(fields):
                    return None
                row = list(row)
                row[at] = Severity(row[at])
                out.append(Diagnostic(*row))
            return tuple(out)
        except Exception:  # noqa: BLE001 - a damaged entry is a miss, never a crash
            return None

    def put(self, name: str, key: str | None, ignored, digest: bytes, diagnostics) -> None:
        """Store ``diagnostics`` for this file and content ``digest``; failures are ignored (the
        first one turns writing off for the run)."""
        if not self.writable:
            return
        try:
            from fountain_audit.lint.diagnostics import Diagnostic
            fields = Diagnostic.__match_args__
            rows = tuple(tuple(int(v) if f == "severity" else v for f, v in zip(fields, (getattr(d, f) for f in fields)))
                         for d in diagnostics)
            payload = marshal.dumps((digest, name, key, rows))
            if not self._ready:
                self._prepare()
            from fountain_audit.atomic import write_atomic
            write_atomic(self._path(name, key, ignored), MAGIC + blake2b(payload, digest_size=16).digest() + payload,
                         sync=False, follow=False, mode=0o600)
        except Exception:  # noqa: BLE001 - read-only directory, full disk, odd values: no cache
            self.writable = False

    def _prepare(self) -> None:
        """Create the directory with its ``CACHEDIR.TAG`` and ``.gitignore`` (once per run)."""
        fresh = not os.path.lexists(self.directory)
        if not fresh:
            _check_own_directory(self.directory)  # before anything is created through it
        elif not os.stat(os.path.dirname(os.path.abspath(self.directory))).st_mode & 0o222:
            # A folder nobody may write (a read-only checkout, reference data): no cache, even
            # for root, whom the system lets write there anyway.
            raise PermissionError(f"{self.directory}: its folder is read-only")
        os.makedirs(self.entries, exist_ok=True)
        for folder in (self.directory, self.entries):
            _check_own_directory(folder)
        for name, content in (("CACHEDIR.TAG", _TAG), (".gitignore", b"# Created by fountain-audit.\n*\n")):
            path = os.path.join(self.directory, name)
            if fresh or not os.path.exists(path):
                try:
                    with open(path, "xb") as f:
                        f.write(content)
                except FileExistsError:
                    pass
        self._ready = True

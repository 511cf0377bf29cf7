"""What the Lark grammars decided, kept on disk, so a process that meets only known shapes never
imports Lark.

The grammars stay the specification: every entry here was computed by Lark from
``grammar/*.lark`` (the first time a shape was met, in some earlier process) and is keyed by a
digest of the grammar's text, of Lark's installed code and of Python's version. A process asks
:class:`GrammarMemo` first and runs Lark only on a miss (then records the answer). Importing
``lark`` and loading its tables costs about 25 ms a process (issue 9, start-up); a memo hit costs
a dictionary lookup, and reading the file well under a millisecond.

Entries (:mod:`marshal` data, one file per grammar, beside the pickled tables of
:mod:`fountain_audit.parse.cache`, in the same directory): tables of strings keyed by strings,
e.g. ``{"element": {"CHARACTER DIALOGUE": "dialogue"}}`` — what each caller stores is described
where it is used (:func:`fountain_audit.parse.fountain.parse`,
:func:`fountain_audit.parse.notes._fast_readers`). The file is read only if it is a regular file
owned by this user and writable by no one else (:func:`fountain_audit.owned.read_own_file`);
what it holds is checked by the caller before use. Anything unreadable, foreign or malformed is
an empty memo; a directory that cannot be written means nothing is kept. Writes are atomic
(:func:`fountain_audit.atomic.write_atomic`, mode 0600) and merge what another process wrote
meanwhile. ``FOUNTAIN_AUDIT_NO_CACHE=1`` turns the memo off (every process runs Lark), as it does
the tables. Nothing here raises. Imports only the standard library's ``os``, ``sys`` and
``marshal`` (built into the interpreter; :mod:`json` was 1.2 ms of a lint's start-up) and the
built-in BLAKE2, so a memo hit loads neither Lark, ``hashlib``, ``json`` nor ``pathlib`` (a lint
whose results are all cached imports this module for :func:`library_stamp` alone).
"""

from __future__ import annotations

import marshal
import os
import sys

try:  # the built-in module: hashlib would load OpenSSL too (start-up time)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - every CPython build has it
    from hashlib import blake2b

#: Version of the file layout and of what callers store; part of the key (2: the notes memo's
#: plans cover optional terminals and list rules; 3: marshal data, no longer JSON).
FORMAT = 3
#: Longest key (characters) kept: a longer shape is decided by Lark each time, never stored.
MAX_KEY = 2000
#: Most entries a table keeps (a file of pathological shapes stays small).
MAX_ENTRIES = 4096


def library_stamp(name: str) -> tuple[str, int, int] | None:
    """``(path, size, mtime_ns)`` of the installed package ``name``'s ``__init__.py``, found on
    ``sys.path`` without importing it (so a changed Lark changes keys); ``None`` if not found."""
    for entry in sys.path:
        init = os.path.join(entry or ".", name, "__init__.py")
        try:
            st = os.stat(init)
        except OSError:
            continue
        return init, st.st_size, st.st_mtime_ns
    return None


def cache_directory() -> str | None:
    """The user's cache directory for parser tables and this memo: ``$FOUNTAIN_AUDIT_CACHE_DIR``,
    else the platform's (``$XDG_CACHE_HOME`` or ``~/.cache``, ``~/Library/Caches``,
    ``%LOCALAPPDATA%``) plus ``fountain-audit``; ``None`` when ``FOUNTAIN_AUDIT_NO_CACHE`` is
    set (to anything but empty or ``0``)."""
    if os.environ.get("FOUNTAIN_AUDIT_NO_CACHE", "") not in ("", "0"):
        return None
    explicit = os.environ.get("FOUNTAIN_AUDIT_CACHE_DIR")
    if explicit:
        return explicit
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        return os.path.join(base, "fountain-audit", "Cache")
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~/Library/Caches"), "fountain-audit")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "fountain-audit")


class GrammarMemo:
    """The decisions recorded for one grammar: ``get(table, key)`` / ``put(table, key, value)``,
    then :meth:`save` (writes only if something was put)."""

    def __init__(self, label: str, grammar: str | None) -> None:
        """``label``: the file's name prefix (``fountain``, ``notes``); ``grammar``: the grammar's
        text (its digest is part of the file name, with Lark's stamp and Python's version);
        ``None`` (the grammar could not be read): nothing is read or kept."""
        self.tables: dict[str, dict[str, object]] = {}
        self.path: str | None = None
        self._added: dict[str, dict[str, object]] = {}
        try:
            folder = cache_directory()
        except Exception:  # noqa: BLE001 - no home directory, odd environment: no memo
            folder = None
        if folder is None or grammar is None:
            return
        key = repr((FORMAT, grammar, library_stamp("lark"), sys.version_info[:2], sys.implementation.name))
        digest = blake2b(key.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
        self.path = os.path.join(folder, f"{label}-{digest}.memo")
        self.tables = _read(self.path)

    def get(self, table: str, key: str):
        """The value recorded under ``key`` in ``table``, else ``None``."""
        t = self.tables.get(table)
        return None if t is None else t.get(key)

    def put(self, table: str, key: str, value) -> None:
        """Record ``value`` (strings, numbers, ``None``, and lists and dicts of them) under ``key``; ignored for keys over
        :data:`MAX_KEY` characters or a table already holding :data:`MAX_ENTRIES`."""
        if self.path is None or len(key) > MAX_KEY:
            return
        t = self.tables.setdefault(table, {})
        if len(t) >= MAX_ENTRIES:
            return
        value = _plain(value)
        t[key] = value
        self._added.setdefault(table, {})[key] = value

    def save(self) -> None:
        """Write the file if anything was put since the last save, merged with what is on disk
        now (another process may have added entries). Failures leave no file and no error."""
        if not self._added or self.path is None:
            return
        added, self._added = self._added, {}
        try:
            merged = _read(self.path)
            for table, entries in added.items():
                t = merged.setdefault(table, {})
                for k, v in entries.items():
                    if len(t) < MAX_ENTRIES:
                        t[k] = v
            from fountain_audit.atomic import write_atomic
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            write_atomic(self.path, marshal.dumps(merged), follow=False, mode=0o600)
        except Exception:  # noqa: BLE001 - read-only or full disk: run without a memo
            pass


def _plain(value):
    """``value`` as JSON kept it when the memo was JSON, the shape callers check an entry
    against: every tuple a list, every string a plain ``str`` (Lark's rule names are a ``str``
    subclass, which :mod:`marshal` refuses, as it would keep a tuple a tuple)."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _read(path: str) -> dict[str, dict[str, object]]:
    """The tables in ``path``: a dict of dicts keyed by strings; anything else is an empty memo.
    (:func:`marshal.loads` trusts its data: the file is read only if this user owns it and no
    one else may write it, as the pickled tables of :mod:`fountain_audit.parse.cache` are.)"""
    try:
        from fountain_audit.owned import read_own_file
        data = marshal.loads(read_own_file(path))
    except Exception:  # noqa: BLE001 - missing, foreign, truncated or not marshal data
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, dict)}

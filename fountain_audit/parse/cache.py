"""Lark parsers cached on disk, so a cold start does not rebuild the LALR tables.

Building the two parsers from ``grammar/*.lark`` costs about 50 ms a process;
loading their pickled tables costs a few. :func:`cached_lark` keeps them in a
file in the user cache directory whose name holds a hash of
the grammar, the options, Lark's and Python's versions, so a changed grammar
never meets a stale table. The tables are written with Lark's public
``save``/``load`` to a temporary file that is then renamed into place, so
parallel workers never read half a file. Any failure (a read-only or missing
home, a corrupt file, a file from another Lark) falls back to building the
parser: a cache never breaks a run. (The file is a pickle, as Lark's own
``cache=True`` files are: only a regular file owned by this user and writable by no one else is
loaded, see :func:`fountain_audit.owned.read_own_file`; it is written with mode 0600.)

``FOUNTAIN_AUDIT_CACHE_DIR`` chooses the directory; ``FOUNTAIN_AUDIT_NO_CACHE=1``
turns the cache off.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lark import Lark


def cache_dir() -> Path | None:
    """Where parser tables are kept, or ``None`` when caching is off (see
    :func:`fountain_audit.parse.memo.cache_directory`)."""
    from fountain_audit.parse.memo import cache_directory
    folder = cache_directory()
    return None if folder is None else Path(folder)


def cache_file(label: str, grammar: str, options: dict) -> Path | None:
    """The cache file for this grammar and these options (``None`` when caching is off)."""
    folder = cache_dir()
    if folder is None:
        return None
    from lark import __version__ as lark_version
    key = "\0".join([grammar, repr(sorted((k, _stable(v)) for k, v in options.items())),
                     lark_version, "%d.%d" % sys.version_info[:2]])
    return folder / f"{label}-{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()[:24]}.lark-cache"


def _stable(value) -> str:
    """Options as text that does not change between processes (no object ids)."""
    if isinstance(value, type):
        return f"{value.__module__}.{value.__qualname__}"
    if isinstance(value, (str, int, float, bool, type(None), list, tuple)):
        return repr(value)
    return f"{type(value).__module__}.{type(value).__qualname__}"  # e.g. a Transformer instance


def cached_lark(label: str, grammar: str, **options) -> Lark:
    """``Lark(grammar, **options)`` (LALR), with its tables loaded from the cache when present.

    The cache file holds what :meth:`Lark.save` writes (tables, options and the
    transformer instance, by class); it is read with :meth:`Lark.load`. A file that
    cannot be read or loaded is rebuilt and replaced.
    """
    try:
        path = cache_file(label, grammar, options)
    except Exception:  # noqa: BLE001 - no home directory, odd environment: just build
        path = None
    from lark import Lark
    if path is not None:
        try:
            import io

            from fountain_audit.owned import read_own_file
            parser = Lark.load(io.BytesIO(read_own_file(path)))
            wanted = options.get("transformer")
            if wanted is None or type(parser.options.transformer) is type(wanted):
                return parser
        except FileNotFoundError:
            pass
        except Exception:  # noqa: BLE001 - corrupt, truncated or from another Lark: rebuild it
            pass
    parser = Lark(grammar, **options)
    if path is not None:
        try:
            _save(parser, path)
        except Exception:  # noqa: BLE001 - read-only or full disk: run without a cache
            pass
    return parser


def _save(parser: Lark, path: Path) -> None:
    """Write the tables to ``path`` with :func:`fountain_audit.atomic.write_atomic` (a
    temporary file renamed into place), so a concurrent reader sees the old file, the new
    one, or none, never half of one."""
    import io

    from fountain_audit.atomic import write_atomic

    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tables = io.BytesIO()
    parser.save(tables)
    write_atomic(path, tables.getvalue(), follow=False, mode=0o600)

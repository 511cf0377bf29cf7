"""fountain-audit: parser, linter and analysis tools for Harvey session transcripts.

Harvey (a terminal AI agent) records each session as a Fountain screenplay
(``.spmd``/``.fountain``). This package reads them losslessly:

>>> from fountain_audit import parse, build_session, lint
>>> doc = parse(text)             # Fountain AST; doc.render() == text
>>> session = build_session(doc)  # scenes, turns, typed audit notes
>>> diagnostics = lint(text)      # rule findings (code, name, severity, line, column, message)
"""

from __future__ import annotations

import os

# The subpackages first (their ``__init__`` modules import nothing), so that the import system
# does not later rebind ``parse`` and ``lint`` below (functions here) to the subpackages.
import fountain_audit.lint  # noqa: F401
import fountain_audit.parse  # noqa: F401

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: importing typing costs start-up time
if TYPE_CHECKING:
    from fountain_audit.lint.diagnostics import Diagnostic, Severity
    from fountain_audit.model.session import Scene, Session, Turn, build_session
    from fountain_audit.parse.fountain import Document
    from fountain_audit.parse.notes import NoteRecord, parse_note

#: Public names imported on first use (PEP 562), so that ``fountain-audit --version`` and the
#: commands that do not parse never import the parser (Lark), nor ``dataclasses`` and ``enum``
#: (``Diagnostic``, ``Severity``), at start-up.
_LAZY = {
    "Diagnostic": "fountain_audit.lint.diagnostics", "Severity": "fountain_audit.lint.diagnostics",
    "Document": "fountain_audit.parse.fountain",
    "NoteRecord": "fountain_audit.parse.notes", "parse_note": "fountain_audit.parse.notes",
    "Scene": "fountain_audit.model.session", "Session": "fountain_audit.model.session",
    "Turn": "fountain_audit.model.session", "build_session": "fountain_audit.model.session",
}


# ``parse`` and ``lint`` share their names with the subpackages ``fountain_audit.parse`` and
# ``fountain_audit.lint`` (imported above, so the import system does not rebind these names
# later): they are small functions here that import the parser or the linter when called.
def parse(text: str) -> "Document":
    """Parse Fountain ``text`` into a lossless :class:`Document` (``parse(t).render() == t``).
    See :func:`fountain_audit.parse.fountain.parse`."""
    from fountain_audit.parse.fountain import parse as run
    return run(text)


def lint(source, path=None, *, select=None, ignore=None):
    """Lint a session given as text (``str``), file bytes (``bytes``) or a ``PathLike``;
    returns sorted :class:`Diagnostic` objects. See :func:`fountain_audit.lint.linter.lint`
    (a function here, not the ``fountain_audit.lint`` package, as before)."""
    from fountain_audit.lint.linter import lint as run
    return run(source, path, select=select, ignore=ignore)


def lint_file(path, *, select=None, ignore=None):
    """Lint the file at ``path``. See :func:`fountain_audit.lint.linter.lint_file`."""
    from fountain_audit.lint.linter import lint_file as run
    return run(path, select=select, ignore=ignore)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'fountain_audit' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = ["Diagnostic", "Document", "NoteRecord", "Scene", "Session", "Severity", "Turn",
           "__version__", "build_session", "lint", "lint_file", "parse", "parse_file", "parse_note", "read_session"]


def parse_file(path: str | os.PathLike) -> Document:
    """Read ``path`` (bytes decoded as UTF-8 with ``surrogateescape``, so no byte is
    lost) and parse it. Raises ``OSError`` if the file cannot be read."""
    from fountain_audit.parse.source import read_path
    return parse(read_path(path))


def read_session(path: str | os.PathLike) -> Session:
    """``build_session(parse_file(path))``. Raises ``OSError`` if unreadable."""
    from fountain_audit.model.session import build_session
    return build_session(parse_file(path))

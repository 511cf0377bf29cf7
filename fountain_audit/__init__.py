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

from fountain_audit.lint.diagnostics import Diagnostic, Severity
from fountain_audit.parse.fountain import Document, parse
from fountain_audit.lint.linter import lint, lint_file
from fountain_audit.parse.notes import NoteRecord, parse_note
from fountain_audit.model.session import Scene, Session, Turn, build_session
from fountain_audit.parse.source import read_path

__version__ = "0.1.0"

__all__ = ["Diagnostic", "Document", "NoteRecord", "Scene", "Session", "Severity", "Turn",
           "__version__", "build_session", "lint", "lint_file", "parse", "parse_file", "parse_note", "read_session"]


def parse_file(path: str | os.PathLike) -> Document:
    """Read ``path`` (bytes decoded as UTF-8 with ``surrogateescape``, so no byte is
    lost) and parse it. Raises ``OSError`` if the file cannot be read."""
    return parse(read_path(path))


def read_session(path: str | os.PathLike) -> Session:
    """``build_session(parse_file(path))``. Raises ``OSError`` if unreadable."""
    return build_session(parse_file(path))

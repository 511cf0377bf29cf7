"""Diagnostics: what a rule reports, with its location.

Positions are 1-based; columns count code points; ``end_line``/``end_column``
are exclusive (the column after the last character), as in SARIF regions. A rule's
:class:`Finding` may leave the end out; the linter then ends the diagnostic at the end
of its start line, so every :class:`Diagnostic` the linter returns has an end.
"""

from __future__ import annotations

import enum

from fountain_audit.records import record, slot_setters


class Severity(enum.IntEnum):
    """Diagnostic severity; ordered so that ``ERROR > WARNING > INFO``."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Severity":
        """``"error"``/``"warning"``/``"info"`` → member; raises ``ValueError`` otherwise."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (use error, warning or info)") from None


def failing_severities(strict: bool) -> tuple[Severity, ...]:
    """The severities that fail a ``lint`` run (exit 1) and that JUnit marks as ``<failure>``:
    errors; with ``--strict`` warnings too. Infos never fail a run (as in ruff and yamllint)."""
    return (Severity.ERROR, Severity.WARNING) if strict else (Severity.ERROR,)


@record(frozen=True, slots=True)
class Finding:
    """What a rule's ``check`` yields: a location and a message."""

    line: int
    column: int
    message: str
    end_line: int | None = None
    end_column: int | None = None

    def __init__(self, line: int, column: int, message: str, end_line: int | None = None,
                 end_column: int | None = None) -> None:
        s = _FINDING_SLOTS  # (a frozen record: see fountain_audit.records.slot_setters)
        s[0](self, line)
        s[1](self, column)
        s[2](self, message)
        s[3](self, end_line)
        s[4](self, end_column)


@record(frozen=True, slots=True)
class Diagnostic:
    """A finding of one rule in one file.

    ``code`` (e.g. ``"P102"``) and ``name`` (``"tools-between-forward-and-reply"``)
    identify the rule; ``path`` is the file as given on the command line (or
    ``"-"`` / ``--stdin-filename`` for standard input). ``fingerprint`` (32 hex digits)
    and ``excerpt`` (a short normalised excerpt of the flagged element) are set by
    :func:`fountain_audit.lint.fingerprint.assign` when the run knows the project root,
    else ``None``; ``former_fingerprint``, the fingerprint the element had before secrets were
    masked in it (only where its lines hold one: a baseline written then still matches once).
    """

    path: str
    line: int
    column: int
    code: str
    name: str
    severity: Severity
    message: str
    end_line: int | None = None
    end_column: int | None = None
    fingerprint: str | None = None
    excerpt: str | None = None
    former_fingerprint: str | None = None

    def __init__(self, path: str, line: int, column: int, code: str, name: str, severity: Severity, message: str,
                 end_line: int | None = None, end_column: int | None = None, fingerprint: str | None = None,
                 excerpt: str | None = None, former_fingerprint: str | None = None) -> None:
        s = _DIAGNOSTIC_SLOTS  # (a frozen record: see fountain_audit.records.slot_setters)
        s[0](self, path)
        s[1](self, line)
        s[2](self, column)
        s[3](self, code)
        s[4](self, name)
        s[5](self, severity)
        s[6](self, message)
        s[7](self, end_line)
        s[8](self, end_column)
        s[9](self, fingerprint)
        s[10](self, excerpt)
        s[11](self, former_fingerprint)

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code)

    def to_dict(self) -> dict:
        """JSON-ready mapping (severity as ``"error"``/``"warning"``/``"info"``; the excerpt
        is left out: it is for the baseline)."""
        return {"path": self.path, "line": self.line, "column": self.column,
                "end_line": self.end_line, "end_column": self.end_column,
                "code": self.code, "name": self.name, "severity": str(self.severity),
                "message": self.message, "fingerprint": self.fingerprint}


_FINDING_SLOTS = slot_setters(Finding)
_DIAGNOSTIC_SLOTS = slot_setters(Diagnostic)

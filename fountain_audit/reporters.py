"""Reporters: turn diagnostics into text for people or JSON for programs.

A reporter never parses and never decides exit codes; it only formats.
"""

from __future__ import annotations

import json
from typing import Sequence

from rich.console import Console
from rich.text import Text

from . import __version__
from .diagnostics import Diagnostic, Severity

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
JSON_FORMAT_VERSION = "1.0"


def _safe(text: str) -> str:
    """Printable form of text that may hold undecodable bytes (lone surrogates)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def summary_line(diagnostics: Sequence[Diagnostic], files: int) -> str:
    """E.g. ``"Found 2 errors, 1 warning, 0 infos in 3 files checked."``."""
    counts = {s: 0 for s in Severity}
    for d in diagnostics:
        counts[d.severity] += 1

    def n(k: int, word: str) -> str:
        return f"{k} {word}{'' if k == 1 else 's'}"

    if not diagnostics:
        return f"All clear: no problems in {n(files, 'file')} checked."
    return (f"Found {n(counts[Severity.ERROR], 'error')}, {n(counts[Severity.WARNING], 'warning')}, "
            f"{n(counts[Severity.INFO], 'info')} in {n(files, 'file')} checked.")


def report_text(diagnostics: Sequence[Diagnostic], files: int, console: Console, *, summary: bool = True) -> None:
    """One line per diagnostic, ``path:line:col: CODE [rule-name] message``, then a summary."""
    for d in diagnostics:
        line = Text()
        line.append(f"{_safe(d.path)}:{d.line}:{d.column}:", style="bold")
        line.append(" ")
        line.append(d.code, style=_STYLE[d.severity])
        line.append(f" [{d.name}] ", style="dim")
        line.append(_safe(d.message))
        console.print(line, soft_wrap=True, highlight=False)
    if summary:
        console.print(summary_line(diagnostics, files), highlight=False, soft_wrap=True)


def report_json(diagnostics: Sequence[Diagnostic], files: Sequence[str]) -> str:
    """One JSON document: tool, version, format_version, files and diagnostics."""
    doc = {
        "tool": "fountain-audit",
        "version": __version__,
        "format_version": JSON_FORMAT_VERSION,
        "files": [_safe(f) for f in files],
        "diagnostics": [{**d.to_dict(), "path": _safe(d.path), "message": _safe(d.message)} for d in diagnostics],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2)

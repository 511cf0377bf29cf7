"""Reporters: turn diagnostics into text for people or JSON for programs.

A reporter never parses and never decides exit codes; it only formats.
"""

from __future__ import annotations


TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing

if TYPE_CHECKING:
    from typing import Sequence

    from rich.console import Console
    from rich.text import Text

    from fountain_audit.lint.baseline import Outcome

from fountain_audit import __version__
from fountain_audit.lint.diagnostics import Diagnostic, Severity
from fountain_audit.parse.source import json_safe
from fountain_audit.untrusted import one_line

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
JSON_FORMAT_VERSION = "1.2"  # 1.1: diagnostics gained "url" and "doc"; 1.2: "fingerprint"
#: Where the rules are documented: the README's rules table (each rule also by ``fountain-audit rule CODE``).
RULES_URL = "README.md#rules"


def _safe(text: str) -> str:
    """Printable form of text that may hold undecodable bytes (lone surrogates)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def counts(diagnostics: Sequence[Diagnostic]) -> dict[str, int]:
    """Diagnostics per severity name."""
    out = {str(s): 0 for s in sorted(Severity, reverse=True)}
    for d in diagnostics:
        out[str(d.severity)] += 1
    return out


def summary_line(diagnostics: Sequence[Diagnostic], files: int, unreadable: int = 0,
                 baseline: Outcome | None = None) -> str:
    """E.g. ``"Found 2 errors, 1 warning, 0 infos in 3 files checked."``; with a baseline
    also ``"; 4 baselined"`` and ``", 1 stale baseline entry"``; when no file could be read,
    ``"Nothing checked: 1 path could not be read."``."""
    if not files and unreadable and not diagnostics:
        return f"Nothing checked: {_n(unreadable, 'path')} could not be read."
    c = counts(diagnostics)
    tail = f"; {_n(unreadable, 'path')} could not be read" if unreadable else ""
    if baseline is not None:
        tail += f"; {baseline.baselined} baselined"
        if baseline.stale:
            k = len(baseline.stale)
            tail += f", {k} stale baseline entr{'y' if k == 1 else 'ies'}"
    if not diagnostics:
        head = "All clear: no problems" if not unreadable else "No problems"
        return f"{head} in {_n(files, 'file')} checked{tail}."
    return (f"Found {_n(c['error'], 'error')}, {_n(c['warning'], 'warning')}, "
            f"{_n(c['info'], 'info')} in {_n(files, 'file')} checked{tail}.")


def diagnostic_line(d: Diagnostic) -> "Text":
    """``path:line:col: CODE [rule-name] message``, styled by severity; control characters in
    the path or message shown as escapes (:func:`fountain_audit.untrusted.terminal_safe`)."""
    from rich.text import Text
    line = Text()
    line.append(f"{one_line(d.path)}:{d.line}:{d.column}:", style="bold")
    line.append(" ")
    line.append(d.code, style=_STYLE[d.severity])
    line.append(f" [{d.name}] ", style="dim")
    line.append(one_line(d.message))  # messages may quote session text
    return line


def stale_lines(baseline: Outcome | None) -> list[str]:
    """One line per stale baseline entry, e.g. ``"b.json: stale baseline entry P102 in
    a.spmd: "[[tool: …]]" matches nothing now; --update-baseline drops it"``. Paths and
    excerpts are untrusted text: control characters, line breaks and tabs are shown escaped
    (:func:`one_line`: a newline in an excerpt cannot forge an output line)."""
    if baseline is None:
        return []
    from fountain_audit.lint.fingerprint import FILE_LEVEL  # (their excerpt is the message: no element)

    return [f"{one_line(baseline.file)}: stale baseline entry {e.code} in {one_line(e.path)}"
            + (f" (about the whole file: \"{one_line(e.excerpt)}\")" if e.code in FILE_LEVEL
               else f": \"{one_line(e.excerpt)}\"")
            + " matches nothing now; --update-baseline drops it"
            for e in baseline.stale]


def _text_report(diagnostics: Sequence[Diagnostic], files: int, *, quiet: bool = False, unreadable: int = 0,
                 statistics: Sequence[str] = (), baseline: Outcome | None = None):
    """What the concise text report says, in order: ``("diagnostic", d)``, ``("text", line)``
    (printed as it is) and ``("summary", line)``; one list for :func:`report_text` and
    :func:`plain_text_lines`, so the two cannot drift apart."""
    out: list[tuple[str, object]] = [] if quiet else [("diagnostic", d) for d in diagnostics]
    out.extend(("text", line) for line in statistics)
    out.extend(("text", line) for line in ([] if quiet else stale_lines(baseline)))
    out.append(("summary", summary_line(diagnostics, files, unreadable, baseline)))
    return out


def plain_text_lines(diagnostics: Sequence[Diagnostic], files: int, **options) -> str | None:
    """What :func:`report_text` prints on a console without colour, built without rich, or
    ``None`` when a line holds a character rich would change (a control character, a tab,
    a line separator ...), for which the caller uses :func:`report_text`. ``options`` are
    those of :func:`report_text`."""
    lines = [f"{one_line(x.path)}:{x.line}:{x.column}: {x.code} [{x.name}] {one_line(x.message)}"
             if kind == "diagnostic"
             else x for kind, x in _text_report(diagnostics, files, **options)]
    if not all(line.isprintable() for line in lines):
        return None
    return "".join(line + "\n" for line in lines)


def report_text(diagnostics: Sequence[Diagnostic], files: int, console: "Console", *, quiet: bool = False,
                unreadable: int = 0, statistics: Sequence[str] = (), baseline: Outcome | None = None) -> None:
    """One line per diagnostic, ``path:line:col: CODE [rule-name] message``, then the
    ``statistics`` lines, the stale baseline entries, then a summary line (only the
    statistics and the summary when ``quiet``)."""
    for kind, x in _text_report(diagnostics, files, quiet=quiet, unreadable=unreadable, statistics=statistics,
                                baseline=baseline):
        if kind == "diagnostic":
            console.print(diagnostic_line(x), soft_wrap=True, highlight=False)
        elif kind == "text":
            console.print(x, soft_wrap=True, highlight=False, markup=False)
        else:
            console.print(x, highlight=False, soft_wrap=True)


def report_json(diagnostics: Sequence[Diagnostic], files: Sequence[str], unreadable: Sequence[str] = (),
                baseline: Outcome | None = None, rendered: Sequence[str] | None = None) -> str:
    """One JSON document: tool, version, format_version (of this JSON layout), files,
    unreadable paths (messages), summary counts and diagnostics; with a baseline also
    ``baseline``: its ``file``, how many diagnostics it ``baselined`` and the ``stale``
    entries. ``rendered``: the :func:`diagnostic_json` of each diagnostic, when they were
    made already (by the processes that linted the files)."""
    from fountain_audit.reporters import json_text  # json: only the formats that write it
    if rendered is None:
        rendered = [diagnostic_json(d) for d in diagnostics]
    doc = {
        "tool": "fountain-audit",
        "version": __version__,
        "format_version": JSON_FORMAT_VERSION,
        "files": [_safe(f) for f in files],
        "unreadable": [_safe(m) for m in unreadable],
        "summary": {"files": len(files), **counts(diagnostics)},
        "diagnostics": json_text.Encoded(rendered),
    }
    if baseline is not None:
        doc["baseline"] = {"file": _safe(baseline.file), "baselined": baseline.baselined,
                           "stale": [e.to_dict() for e in baseline.stale]}
    return json_text.dumps(doc, finish=json_safe)  # the fields are escaped already: a guard


#: The depth of a diagnostic in the ``json`` report (an item of the top-level object's ``diagnostics``).
_DIAGNOSTIC_DEPTH = 2


def diagnostic_json(d: Diagnostic) -> str:
    """``d`` as :func:`report_json` writes it in its ``diagnostics`` array: the indented
    :func:`diagnostic_dict`, well-formed. A parallel ``lint`` makes these in the processes
    that lint the files (see ``render`` in :func:`fountain_audit.lint.runner.lint_all`), so the
    process that prints the report joins them instead of encoding every diagnostic itself."""
    from fountain_audit.reporters import json_text
    return json_safe(json_text.dumps(diagnostic_dict(d), level=_DIAGNOSTIC_DEPTH))


def diagnostic_dict(d: Diagnostic) -> dict:
    """One diagnostic of the JSON formats: :meth:`Diagnostic.to_dict` (printable path
    and message) plus ``url`` (the rules table) and ``doc`` (the command that explains
    the rule); both ``null`` for ``X001 internal-error``, which is no rule."""
    rule = not d.code.startswith("X")
    return {**d.to_dict(), "path": _safe(d.path), "message": _safe(d.message),
            "url": RULES_URL if rule else None, "doc": f"fountain-audit rule {d.code}" if rule else None}

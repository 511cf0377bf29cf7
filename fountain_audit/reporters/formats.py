"""Output formats of ``fountain-audit lint`` beyond ``concise`` and ``json``.

``full`` (code frames, rich), ``json-lines``, ``github`` (workflow commands),
``sarif`` (SARIF 2.1.0), ``junit`` (JUnit XML) and ``gitlab`` (Code Quality).
Like :mod:`fountain_audit.reporters.text`, these only format: they never parse,
read files or decide exit codes. Every function but :func:`report_full`
returns the whole output as a ``str``; the CLI writes it to standard output
or, atomically, to ``--output``.

Paths and messages may hold undecodable bytes (lone surrogates, see
:mod:`fountain_audit.parse.source`): they are shown with backslash escapes, and in
SARIF URIs percent-encoded from the original bytes. The JSON formats are well-formed
Unicode whatever a field holds (any lone surrogate left would be U+FFFD).
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import MISSING, field, replace

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing

if TYPE_CHECKING:  # rich is imported by the text formats only (the machine formats start without it)
    from typing import Callable, Sequence

    from rich.console import Console
    from rich.text import Text

    from fountain_audit.lint.baseline import Outcome

# hashlib, inspect, json, unicodedata, collections.Counter, pathlib and urllib.parse are imported
# by the formats that use them: a cached ``lint`` run in the concise or json format needs none.
from fountain_audit import __version__
from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Diagnostic, Severity
from fountain_audit.reporters.text import _safe, diagnostic_dict, diagnostic_line, stale_lines, summary_line
from fountain_audit.lint.rules import Rule
from fountain_audit.records import record
from fountain_audit.parse.source import json_safe
from fountain_audit.untrusted import terminal_safe

#: Every ``--output-format`` value; ``auto`` picks one of the first two (or ``github``).
FORMATS = ("full", "concise", "json", "json-lines", "github", "sarif", "junit", "gitlab", "auto")
#: Formats for people: coloured, with a summary line; the others are for programs.
TEXT_FORMATS = ("full", "concise")
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

#: The ``partialFingerprints`` key of a SARIF result (name/version, as SARIF recommends).
SARIF_FINGERPRINT = "fountainAudit/v1"

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
_LINE_END = lazy(r"\r\n|\r|\n")


def resolve_format(requested: str | None, *, terminal: bool, environ: os._Environ | dict | None = None) -> str:
    """The format to use. Not given: ``full`` on a terminal, ``concise`` otherwise.
    ``auto``: the same, but ``github`` when ``GITHUB_ACTIONS=true``. ``text`` is the
    old name of ``concise``."""
    environ = os.environ if environ is None else environ
    if requested == "text":
        return "concise"
    if requested == "auto" and environ.get("GITHUB_ACTIONS") == "true":
        return "github"
    if requested in (None, "auto"):
        return "full" if terminal else "concise"
    return requested


@record
class LintRun:
    """Everything a reporter may show about one ``lint`` run."""

    diagnostics: Sequence[Diagnostic]
    files: Sequence[str]
    unreadable: Sequence[str] = ()
    rules: Sequence[Rule] = ()
    sources: dict[str, str] = field(default_factory=dict)
    baseline: Outcome | None = None
    #: ``--strict``: warnings fail the run too (JUnit marks them as failures); infos never do.
    strict: bool = False
    #: path -> ``column(line, column)``: where an original column is in ``sources`` when those
    #: are redacted (``lint --redact``); code frames underline there.
    frame_columns: dict[str, Callable[[int, int], int]] = field(default_factory=dict)

    def __init__(self, diagnostics: Sequence[Diagnostic], files: Sequence[str], unreadable: Sequence[str] = (),
                 rules: Sequence[Rule] = (), sources: dict[str, str] = MISSING, baseline: Outcome | None = None,
                 strict: bool = False, frame_columns: dict[str, Callable[[int, int], int]] = MISSING) -> None:
        # (written out, not generated: see fountain_audit.records)
        self.diagnostics = diagnostics
        self.files = files
        self.unreadable = unreadable
        self.rules = rules
        self.sources = {} if sources is MISSING else sources
        self.baseline = baseline
        self.strict = strict
        self.frame_columns = {} if frame_columns is MISSING else frame_columns


# -- statistics -------------------------------------------------------------------------------------------

def statistics(diagnostics: Sequence[Diagnostic]) -> list[tuple[int, str, str]]:
    """``(count, code, name)`` per rule that fired, most frequent first (then by code)."""
    from collections import Counter
    counts = Counter((d.code, d.name) for d in diagnostics)
    return sorted(((n, code, name) for (code, name), n in counts.items()), key=lambda t: (-t[0], t[1]))


def statistics_lines(diagnostics: Sequence[Diagnostic]) -> list[str]:
    """E.g. ``"    3  P102  [tools-between-forward-and-reply]"``, one line per rule."""
    rows = statistics(diagnostics)
    width = max((len(str(n)) for n, _, _ in rows), default=1)
    return [f"{n:>{width}}  {code}  [{name}]" for n, code, name in rows]


# -- full ---------------------------------------------------------------------------------------------------

def _visible(line: str) -> str:
    """Session text for a code frame, safe on a terminal: tabs become one space (so carets
    line up), control characters, bidi controls and undecodable bytes become visible escapes
    (:func:`fountain_audit.untrusted.terminal_safe`: ``\\x1b``, ``\\u202e``, ``\\xff``), and
    other invisible format, private-use or unassigned characters ``\\uNNNN``."""
    if line.isprintable() and "\t" not in line:
        return line
    import unicodedata
    out = []
    for c in terminal_safe(line.replace("\t", " ")):
        if unicodedata.category(c) in ("Cf", "Co", "Cn") or (c < " " and c != "\t"):
            n = ord(c)
            out.append(f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}")
        else:
            out.append(c)
    return "".join(out)


#: Code points of a source line shown in a code frame; a longer line is shown as a window
#: around the flagged column, with ``…`` where it was cut (output stays linear in the input).
FRAME_WIDTH = 160


def code_frame(d: Diagnostic, lines: Sequence[str], context: int = 2, max_span: int = 5) -> "Text":
    """The lines around ``d`` with line numbers and the flagged columns underlined
    (``^``), ending with the rule code, as in ruff's ``full`` output. Lines longer than
    :data:`FRAME_WIDTH` code points are shown as a window of that width."""
    from rich.cells import cell_len
    from rich.text import Text
    out = Text()
    if not lines or d.line > len(lines):
        return out
    start = d.line
    end = d.end_line if d.end_line and d.end_line >= start else start
    last = min(end, start + max_span, len(lines))
    first_shown, last_shown = max(1, start - context), min(len(lines), last + context)
    gutter = len(str(last_shown))
    style = _STYLE[d.severity]

    def bar(number: str = "") -> None:
        out.append(f"{number:>{gutter}} |", style="blue")

    bar()
    out.append("\n")
    for n in range(first_shown, last_shown + 1):
        raw = lines[n - 1]
        cut = 0  # code points of a long line left out before the part shown
        if len(raw) > FRAME_WIDTH:  # show a window around the flagged columns, not the whole line
            if n == start:
                cut = max(0, min(d.column - 1 - FRAME_WIDTH // 4, len(raw) - FRAME_WIDTH))
            left = "…" if cut else ""
            shown = left + _visible(raw[cut:cut + FRAME_WIDTH]) + ("…" if cut + FRAME_WIDTH < len(raw) else "")
        else:
            left = ""
            shown = _visible(raw)
        bar(str(n))
        out.append((" " + shown) if shown else "")
        out.append("\n")
        if start <= n <= last:
            lo = d.column if n == start else 1
            hi = d.end_column if n == end and d.end_column else len(raw) + 1
            lo = max(1, min(lo, len(raw) + 1))
            hi = min(hi, len(raw) + 1, cut + FRAME_WIDTH + 1)
            if hi <= lo:
                hi = lo + 1  # an empty span (or one past the end of the line): one caret
            pad = cell_len(left + _visible(raw[cut:lo - 1]))  # columns count characters of the line as recorded
            width = max(1, cell_len(_visible(raw[lo - 1:hi - 1])))
            bar()
            out.append(" " + " " * pad)
            out.append("^" * width, style=style)
            if n == last:
                out.append(f" {d.code}", style=style)
            out.append("\n")
    bar()
    out.append("\n")
    return out


def report_full(run: LintRun, console: "Console", *, quiet: bool = False, show_statistics: bool = False) -> None:
    """Each diagnostic as its concise line followed by a code frame, a blank line
    between diagnostics; then the statistics (if asked) and the summary line."""
    split: dict[str, list[str]] = {}
    if not quiet:
        for d in run.diagnostics:
            console.print(diagnostic_line(d), soft_wrap=True, highlight=False)
            text = run.sources.get(d.path)
            if text is not None:
                lines = split.get(d.path)
                if lines is None:
                    lines = split[d.path] = _LINE_END.split(text)
                col = run.frame_columns.get(d.path)
                shown = d if col is None else replace(
                    d, column=col(d.line, d.column),
                    end_column=col(d.end_line or d.line, d.end_column) if d.end_column else d.end_column)
                console.print(code_frame(shown, lines), soft_wrap=True, highlight=False, end="")
            console.print()
    if show_statistics:
        for line in statistics_lines(run.diagnostics):
            console.print(line, highlight=False, soft_wrap=True, markup=False)
    for line in [] if quiet else stale_lines(run.baseline):
        console.print(line, highlight=False, soft_wrap=True, markup=False)
    console.print(summary_line(run.diagnostics, len(run.files), len(run.unreadable), run.baseline),
                  highlight=False, soft_wrap=True)


# -- json-lines ---------------------------------------------------------------------------------------------

def report_json_lines(run: LintRun) -> str:
    """One JSON object per diagnostic per line (the objects of the ``json`` format's
    ``diagnostics``); nothing else."""
    import json
    return "".join(json_safe(json.dumps(diagnostic_dict(d), ensure_ascii=False)) + "\n" for d in run.diagnostics)


# -- github -------------------------------------------------------------------------------------------------

_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _gh_data(text: str) -> str:
    # CR and LF are the workflow command's own escapes; other controls (ESC, BEL, bidi) as \xNN
    return terminal_safe(_safe(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def report_github(run: LintRun) -> str:
    """GitHub Actions workflow commands, one per diagnostic:
    ``::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=CODE name::MESSAGE`` (``warning``
    and ``notice`` for the other severities; the end, exclusive as in every format, when the
    diagnostic has one), then the summary line."""
    out = [f"::{_GITHUB_LEVEL[d.severity]} file={_gh_property(d.path)},line={d.line},col={d.column},"
           + ("" if d.end_line is None else f"endLine={d.end_line},endColumn={d.end_column},")
           + f"title={_gh_property(f'{d.code} {d.name}')}::{_gh_data(d.message)}" for d in run.diagnostics]
    out.append(summary_line(run.diagnostics, len(run.files), len(run.unreadable), run.baseline))
    return "\n".join(out) + "\n"


# -- sarif --------------------------------------------------------------------------------------------------

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_INTERNAL = Rule("X001", "internal-error", Severity.ERROR, "1.0", frozenset(),
                 "A rule failed with an exception (a bug in fountain-audit; please report it).", lambda ctx: iter(()))


def _section(doc: str, title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\s*\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    return " ".join(m.group(1).split()) if m else ""


def sarif_rule(rule: Rule) -> dict:
    """A ``reportingDescriptor`` for ``rule``."""
    import inspect
    doc = inspect.cleandoc(rule.doc)
    full = _section(doc, "What it does") or rule.summary
    markdown = f"# {rule.code} {rule.name}\n\n{doc}\n\nSee `fountain-audit rule {rule.code}`."
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": full},
        "help": {"text": _safe(doc), "markdown": _safe(markdown)},
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
        "properties": {"since": rule.since, "tags": [rule.code[0]]},
    }


def artifact_uri(path: str) -> tuple[str, str | None]:
    """``(uri, uriBaseId)`` for ``path``: a relative path stays relative to
    ``%SRCROOT%`` (the current directory); an absolute one becomes a ``file:`` URI.
    Undecodable bytes are percent-encoded from the original bytes."""
    from pathlib import Path, PureWindowsPath
    from urllib.parse import quote

    raw = path.encode("utf-8", "surrogateescape")
    if PureWindowsPath(path).drive or os.path.isabs(path):
        absolute = Path(os.path.abspath(path)).as_posix()
        if not absolute.startswith("/"):
            absolute = "/" + absolute  # C:/x -> /C:/x
        return "file://" + quote(absolute.encode("utf-8", "surrogateescape"), safe="/:"), None
    posix = raw.replace(b"\\", b"/") if os.sep == "\\" else raw
    while posix.startswith(b"./"):
        posix = posix[2:]
    return quote(posix, safe="/"), "%SRCROOT%"


def _location(d: Diagnostic, index: dict[str, int]) -> dict:
    uri, base = artifact_uri(d.path)
    artifact = {"uri": uri}
    if base:
        artifact["uriBaseId"] = base
    if d.path in index:
        artifact["index"] = index[d.path]
    region = {"startLine": d.line, "startColumn": d.column}
    if d.end_line and d.end_column and (d.end_line, d.end_column) >= (d.line, d.column):
        region.update(endLine=d.end_line, endColumn=d.end_column)
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def sarif_log(run: LintRun, cwd: str | None = None) -> dict:
    """The SARIF 2.1.0 log of ``run`` as a dict: one run, ``tool.driver.rules`` for
    every selected rule, one result per diagnostic, one artifact per file checked,
    unreadable paths as tool execution notifications. A result's ``partialFingerprints``
    holds its stable fingerprint under :data:`SARIF_FINGERPRINT`. Columns count code points
    (``columnKind: unicodeCodePoints``)."""
    from pathlib import Path
    rules = list(run.rules)
    if any(d.code == "X001" for d in run.diagnostics) and all(r.code != "X001" for r in rules):
        rules.append(_INTERNAL)
    for d in run.diagnostics:  # a diagnostic of a rule not in the selection (should not happen)
        if all(r.code != d.code for r in rules):
            rules.append(Rule(d.code, d.name, d.severity, "1.0", frozenset(), d.name, _INTERNAL.check))
    rule_index = {r.code: i for i, r in enumerate(rules)}
    artifacts, index = [], {}
    for f in run.files:
        if f not in index:
            uri, base = artifact_uri(f)
            location = {"uri": uri, **({"uriBaseId": base} if base else {})}
            index[f] = len(artifacts)
            artifacts.append({"location": location, "roles": ["analysisTarget"]})
    results = [{
        "ruleId": d.code,
        "ruleIndex": rule_index[d.code],
        "level": _SARIF_LEVEL[d.severity],
        "message": {"text": _safe(d.message)},
        "locations": [_location(d, index)],
        **({"partialFingerprints": {SARIF_FINGERPRINT: d.fingerprint}} if d.fingerprint else {}),
    } for d in run.diagnostics]
    invocation = {
        "executionSuccessful": not run.unreadable,
        "toolExecutionNotifications": [{"level": "error", "message": {"text": _safe(m)}} for m in run.unreadable],
    }
    try:
        bases = {"%SRCROOT%": {"uri": Path(cwd or os.getcwd()).resolve().as_uri().rstrip("/") + "/"}}
    except FileNotFoundError:  # the current directory was removed: relative paths have no root to name
        bases = {}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "fountain-audit",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [sarif_rule(r) for r in rules],
            }},
            "invocations": [invocation],
            **({"originalUriBaseIds": bases} if bases else {}),
            "artifacts": artifacts,
            "results": results,
            "columnKind": "unicodeCodePoints",
        }],
    }


def report_sarif(run: LintRun) -> str:
    """:func:`sarif_log` as indented JSON."""
    from fountain_audit.reporters import json_text  # json: only the formats that write it
    return json_safe(json_text.dumps(sarif_log(run))) + "\n"


# -- junit --------------------------------------------------------------------------------------------------

@functools.cache
def _xml_bad() -> re.Pattern:
    return re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    """Text XML 1.0 can hold, safe to show: undecodable bytes as ``\\udcNN``, C0 and C1 controls,
    line separators and bidi controls as ``\\xNN``/``\\uNNNN`` (as
    :func:`fountain_audit.untrusted.terminal_safe` shows them), then anything XML cannot hold."""
    return _xml_bad().sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else
                        f"\\u{ord(m.group()):04x}", terminal_safe(_safe(text)))


def report_junit(run: LintRun) -> str:
    """JUnit XML that agrees with the exit status: one ``<testsuite>`` per file checked
    (``name`` = the path), one ``<testcase>`` per diagnostic (``name`` = ``CODE [rule-name]
    line:col``, ``classname`` and ``file`` = the path, ``line``). Only what fails the run is
    a ``<failure>`` (errors; warnings too under ``--strict``; never infos); other diagnostics are passing
    testcases whose ``<system-out>`` holds the diagnostic line and whose ``<properties>``
    hold ``severity``, ``code`` and ``rule``. A file without diagnostics is one passing
    testcase (``lint``). Unreadable paths are one suite ``unreadable`` of testcases with an
    ``<error>``. Every ``tests``/``failures``/``errors`` count is the number of such
    elements below it (one failure per failing testcase)."""
    from collections import Counter
    from xml.etree import ElementTree as ET  # only this format needs it (start-up time)

    from fountain_audit.lint.diagnostics import failing_severities
    failing = failing_severities(run.strict)
    by_file: dict[str, list[Diagnostic]] = {f: [] for f in run.files}
    for d in run.diagnostics:
        by_file.setdefault(d.path, []).append(d)
    suites = ET.Element("testsuites", {"name": "fountain-audit"})
    totals = Counter()

    def suite_of(name: str, tests: int, failures: int, errors: int) -> ET.Element:
        totals.update(tests=tests, failures=failures, errors=errors)
        return ET.SubElement(suites, "testsuite", {"name": _xml(name), "tests": str(tests),
                                                    "failures": str(failures), "errors": str(errors),
                                                    "skipped": "0"})

    for path, ds in by_file.items():
        suite = suite_of(path, max(1, len(ds)), sum(1 for d in ds if d.severity in failing), 0)
        if not ds:
            ET.SubElement(suite, "testcase", {"name": "lint", "classname": _xml(path), "file": _xml(path)})
        for d in ds:
            case = ET.SubElement(suite, "testcase", {"name": _xml(f"{d.code} [{d.name}] {d.line}:{d.column}"),
                                                     "classname": _xml(path), "file": _xml(path),
                                                     "line": str(d.line)})
            line = _xml(f"{d.path}:{d.line}:{d.column}: {d.code} [{d.name}] {d.message}")
            if d.severity in failing:
                failure = ET.SubElement(case, "failure", {"message": _xml(f"{d.code} [{d.name}] {d.message}"),
                                                          "type": d.code})
                failure.text = line
            else:
                props = ET.SubElement(case, "properties")
                for key, value in (("severity", str(d.severity)), ("code", d.code), ("rule", d.name)):
                    ET.SubElement(props, "property", {"name": key, "value": value})
                ET.SubElement(case, "system-out").text = f"{line} ({d.severity})"
    if run.unreadable:
        suite = suite_of("unreadable", len(run.unreadable), 0, len(run.unreadable))
        for message in run.unreadable:
            case = ET.SubElement(suite, "testcase", {"name": _xml(message), "classname": "unreadable"})
            ET.SubElement(case, "error", {"message": _xml(message), "type": "unreadable"})
    suites.attrib.update({k: str(totals[k]) for k in ("tests", "failures", "errors")})
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


# -- gitlab -------------------------------------------------------------------------------------------------

_GITLAB_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}
#: A rule family's Code Climate category (GitLab shows and filters by it): secrets and home
#: paths are security findings; encodings and legacy forms, compatibility; a reply that reads as
#: structure, clarity; suppressions, style; the format's rules (F, H, N, P, S, T), records an
#: audit trail loses or misplaces: bug risks.
_GITLAB_CATEGORY = {"V": "Security", "E": "Compatibility", "L": "Compatibility", "R": "Clarity", "A": "Style"}


def report_gitlab(run: LintRun) -> str:
    """A GitLab Code Quality report: a JSON array of issues (``description``,
    ``check_name``, ``fingerprint``, ``severity``, ``location.path`` and
    ``location.lines.begin``). ``fingerprint`` is the diagnostic's stable fingerprint
    (:mod:`fountain_audit.lint.fingerprint`); a diagnostic built without one (the Python
    API) gets a hash of its path, code, message and occurrence number instead."""
    import hashlib
    from collections import Counter

    seen: Counter = Counter()
    issues = []
    for d in run.diagnostics:
        key = (d.path, d.code, d.message)
        seen[key] += 1
        fingerprint = d.fingerprint or hashlib.sha256(
            "\0".join([*key, str(seen[key])]).encode("utf-8", "surrogateescape")).hexdigest()[:32]
        path = _safe(d.path)
        while path.startswith("./"):
            path = path[2:]
        issues.append({
            "type": "issue",
            "description": _safe(f"{d.code} [{d.name}] {d.message}"),
            "check_name": d.code,
            "fingerprint": fingerprint,
            "severity": _GITLAB_SEVERITY[d.severity],
            "categories": [_GITLAB_CATEGORY.get(d.code[:1], "Bug Risk")],
            "location": {"path": path, "lines": {"begin": d.line, "end": max(d.line, d.end_line or d.line)}},
        })
    from fountain_audit.reporters import json_text  # json: only the formats that write it
    return json_safe(json_text.dumps(issues)) + "\n"


#: Formats rendered as one string (the others print to a rich console).
RENDERERS = {
    "json-lines": report_json_lines,
    "github": report_github,
    "sarif": report_sarif,
    "junit": report_junit,
    "gitlab": report_gitlab,
}

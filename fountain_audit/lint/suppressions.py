"""Inline suppressions, written in the boneyard (which renderers hide and which
carries no audit meaning; ``[[notes]]`` are audit data and are never used)::

    /* fountain-audit: disable=P103,missing-the-end */   ... until a matching enable
    /* fountain-audit: enable=P103 */                    (``enable`` alone ends every region)
    /* fountain-audit: disable-next=P102 */              the next element only
    /* fountain-audit: disable-file */                   the whole file (optionally ``=RULES``)

Rules are named by code, code prefix or kebab-case name. A directive that names no
known rule is reported by ``A102 invalid-suppression``; one that suppressed nothing
by ``A101 unused-suppression``.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import MISSING, field

from fountain_audit.records import record
from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Diagnostic
from fountain_audit.parse.fountain import Blank, Boneyard, Document
from fountain_audit.lint.selection import RuleSelectionError, resolve_rules

_DIRECTIVE_RE = lazy(
    r"/\*\s*fountain-audit:\s*(?P<verb>disable-file|disable-next|disable|enable)\b\s*(?:=\s*(?P<rules>[^*]*?))?\s*\*/",
    re.S)
_PREFIX_RE = lazy(r"/\*\s*fountain-audit:")


@record
class Directive:
    """One suppression comment. ``codes`` is ``None`` for "every rule".

    ``first``/``last`` are the 1-based lines it covers (inclusive). ``selectors``: the rules
    its ``=...`` list names, as written (a code, prefix or name, each once, in order), with the
    codes each stands for; ``matched``: those of them that covered a diagnostic (set by
    :func:`apply`; A101 names the others).
    """

    verb: str
    text: str
    line: int
    column: int
    codes: frozenset[str] | None
    first: int = 0
    last: int = 0
    used: bool = False
    error: str | None = None
    end_line: int = 0
    end_column: int = 0
    matched: set[str] = field(default_factory=set)
    selectors: tuple[tuple[str, frozenset[str]], ...] = ()

    def __init__(self, verb: str, text: str, line: int, column: int, codes: frozenset[str] | None, first: int = 0,
                 last: int = 0, used: bool = False, error: str | None = None, end_line: int = 0, end_column: int = 0,
                 matched: set[str] = MISSING, selectors: tuple[tuple[str, frozenset[str]], ...] = ()) -> None:
        # (written out, not generated: see fountain_audit.records)
        self.verb = verb
        self.text = text
        self.line = line
        self.column = column
        self.codes = codes
        self.first = first
        self.last = last
        self.used = used
        self.error = error
        self.end_line = end_line
        self.end_column = end_column
        self.matched = set() if matched is MISSING else matched
        self.selectors = selectors


@functools.lru_cache(maxsize=1024)
def _codes(selectors: str | None) -> tuple[frozenset[str] | None, str | None, tuple[tuple[str, frozenset[str]], ...]]:
    """Rule codes named by a directive's ``=...`` list, an error, and each selector of the list
    (as written, once each) with its codes (cached: a file may repeat the same list thousands
    of times, and resolving reads the rule table)."""
    if selectors is None or not selectors.strip():
        return None, None, ()
    names = list(dict.fromkeys(s.strip() for s in selectors.split(",") if s.strip()))
    try:
        parts = tuple((name, frozenset(r.code for r in resolve_rules([name]))) for name in names)
    except RuleSelectionError:
        try:
            resolve_rules(names)  # the error for the whole list, as it has always read
        except RuleSelectionError as e:
            return None, str(e), ()
        raise
    return frozenset().union(*(codes for _, codes in parts)), None, parts


def directives(document: Document, in_speech: dict[int, str] | None = None) -> list[Directive]:
    """Every ``/* fountain-audit: ... */`` boneyard of ``document``, with the lines it covers.
    One that is part of a speech's text (``in_speech``: offset → speaker, as
    :meth:`fountain_audit.model.session.Session.speech_boneyards` gives them) is not applied:
    a speech is recorded verbatim, so it may come from a model (a reply could switch off the
    checks of the file it is recorded in); it has an ``error`` (A102 reports it).

    Linear in the number of nodes and directives: a ``disable-next`` looks only at the
    blank lines after it; an ``enable`` closes the open ``disable`` regions it names
    through an index by rule code, never rescanning earlier directives.
    """
    children = document.children
    out: list[Directive] = []
    last_line = children[-1].end_line if children else 1
    open_all: list[Directive] = []  # open "disable" regions for every rule
    open_by_code: dict[str, list[Directive]] = {}  # open "disable=CODES" regions, by code

    def close(regions: list[Directive], enable: Directive) -> None:
        for prev in regions:
            if prev.last == last_line:  # not closed yet (a region with several codes is listed under each)
                prev.last = enable.line
                enable.used = True
        regions.clear()

    for k, node in enumerate(children):
        if not isinstance(node, Boneyard):
            continue
        raw = node.render()
        if not _PREFIX_RE.search(raw):
            continue
        m = _DIRECTIVE_RE.search(raw)
        if not m:
            d = Directive("invalid", raw.strip(), node.line, node.column, None,
                          error="not a fountain-audit directive (disable=, enable=, disable-next=, disable-file)")
        else:
            codes, err, parts = _codes(m.group("rules"))
            d = Directive(m.group("verb"), m.group(0), node.line, node.column, codes, error=err, selectors=parts)
        d.end_line, d.end_column = node.end_line, node.end_column
        speaker = in_speech.get(node.offset) if in_speech else None
        if speaker is not None:
            d.verb, d.codes = "invalid", None
            d.error = (f"inside {speaker}'s speech, which is recorded verbatim (it may come from a model): "
                       "session text, not a directive; put it before the speech's cue, or use per-file-ignores "
                       "or a baseline")
        if d.verb == "disable-file":
            d.first, d.last = 1, last_line
        elif d.verb == "disable-next":
            j = k + 1
            while j < len(children) and isinstance(children[j], Blank):
                j += 1
            d.first, d.last = (children[j].line, children[j].end_line) if j < len(children) else (0, -1)
        elif d.verb == "disable":
            d.first, d.last = node.line, last_line
            if not d.error:
                if d.codes is None:
                    open_all.append(d)
                else:
                    for code in d.codes:
                        open_by_code.setdefault(code, []).append(d)
        elif d.verb == "enable" and not d.error:
            # An enable ends the earlier disable regions it names (or all of them); each rule of
            # its list that ended one is ``matched`` (A101 names the others)
            if any(prev.last == last_line for prev in open_all):
                d.matched.update(name for name, _ in d.selectors)  # (a region of every rule ended)
            close(open_all, d)
            if d.codes is None:
                for code in list(open_by_code):
                    close(open_by_code.pop(code, []), d)
            # (which rules end a region is decided before any is closed: a region of several rules
            # is listed under each, and closing it under one would leave it closed for the next)
            d.matched.update(name for name, codes in d.selectors
                             if any(prev.last == last_line for code in codes for prev in open_by_code.get(code, ())))
            for code in d.codes or ():
                close(open_by_code.pop(code, []), d)
        out.append(d)
    return out


def apply(diagnostics: list[Diagnostic], found: list[Directive]) -> list[Diagnostic]:
    """Diagnostics not covered by a directive; marks the directives that were used, and the
    selectors of each directive's list that were (``matched``).

    O((D·k + M) log M) for D directives naming k rules each and M diagnostics: each
    directive looks up its line range in the sorted lines of the rules it names, and
    each diagnostic in the merged ranges that cover its rule.
    """
    active = [d for d in found if d.verb in ("disable", "disable-next", "disable-file") and not d.error
              and d.first <= d.last]
    if not active:
        return diagnostics
    all_lines = sorted(diag.line for diag in diagnostics)
    lines_by_code: dict[str, list[int]] = {}
    for diag in diagnostics:
        lines_by_code.setdefault(diag.code, []).append(diag.line)
    for lines in lines_by_code.values():
        lines.sort()

    def any_in(lines: list[int], first: int, last: int) -> bool:
        i = bisect.bisect_left(lines, first)
        return i < len(lines) and lines[i] <= last

    ranges_all: list[tuple[int, int]] = []
    ranges_by_code: dict[str, list[tuple[int, int]]] = {}
    for d in active:
        if d.codes is None:
            d.used = d.used or any_in(all_lines, d.first, d.last)
            ranges_all.append((d.first, d.last))
        else:
            d.matched.update(name for name, codes in d.selectors
                             if any(any_in(lines_by_code.get(c, []), d.first, d.last) for c in codes))
            d.used = d.used or bool(d.matched)
            for c in d.codes:
                ranges_by_code.setdefault(c, []).append((d.first, d.last))
    cover_all = _Cover(ranges_all)
    covers = {c: _Cover(r) for c, r in ranges_by_code.items()}
    return [diag for diag in diagnostics if not (cover_all.covers(diag.line) or
                                                  (diag.code in covers and covers[diag.code].covers(diag.line)))]


def unused(d: Directive) -> str | None:
    """What A101 says of ``d`` after :func:`apply` (after ``unused suppression: ``), or ``None``
    when it was used (or is invalid: A102's). A directive with a rule list names the rules of
    it that suppressed nothing, as written, and only those (as ruff's RUF100 names the unused
    codes of a ``noqa``): ``'disable-next=P103' suppressed no diagnostic``."""
    if d.error:
        return None
    if d.verb == "enable":
        if d.selectors:
            names = [name for name, _ in d.selectors if name not in d.matched]
            return f"'enable={','.join(names)}' ends no disabled region" if names else None
        return None if d.used else "enable ends no disabled region"
    if d.selectors:
        names = [name for name, _ in d.selectors if name not in d.matched]
        return f"'{d.verb}={','.join(names)}' suppressed no diagnostic" if names else None
    return None if d.used else f"'{d.verb}' suppressed no diagnostic"


class _Cover:
    """The union of inclusive line ranges, as sorted disjoint ranges for bisection."""

    def __init__(self, ranges: list[tuple[int, int]]):
        self.starts: list[int] = []
        self.ends: list[int] = []
        for first, last in sorted(ranges):
            if self.ends and first <= self.ends[-1] + 1:
                self.ends[-1] = max(self.ends[-1], last)
            else:
                self.starts.append(first)
                self.ends.append(last)

    def covers(self, line: int) -> bool:
        i = bisect.bisect_right(self.starts, line) - 1
        return i >= 0 and line <= self.ends[i]

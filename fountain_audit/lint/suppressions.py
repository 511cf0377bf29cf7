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

import re
from dataclasses import dataclass, field

from fountain_audit.lint.diagnostics import Diagnostic
from fountain_audit.parse.fountain import Blank, Boneyard, Document
from fountain_audit.lint.selection import RuleSelectionError, resolve_rules

_DIRECTIVE_RE = re.compile(
    r"/\*\s*fountain-audit:\s*(?P<verb>disable-file|disable-next|disable|enable)\b\s*(?:=\s*(?P<rules>[^*]*?))?\s*\*/",
    re.S)
_PREFIX_RE = re.compile(r"/\*\s*fountain-audit:")


@dataclass
class Directive:
    """One suppression comment. ``codes`` is ``None`` for "every rule".

    ``first``/``last`` are the 1-based lines it covers (inclusive).
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


def _codes(selectors: str | None) -> tuple[frozenset[str] | None, str | None]:
    if selectors is None or not selectors.strip():
        return None, None
    names = [s.strip() for s in selectors.split(",") if s.strip()]
    try:
        return frozenset(r.code for r in resolve_rules(names)), None
    except RuleSelectionError as e:
        return None, str(e)


def directives(document: Document) -> list[Directive]:
    """Every ``/* fountain-audit: ... */`` boneyard of ``document``, with the lines it covers."""
    children = document.children
    out: list[Directive] = []
    last_line = children[-1].end_line if children else 1
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
            codes, err = _codes(m.group("rules"))
            d = Directive(m.group("verb"), m.group(0), node.line, node.column, codes, error=err)
        d.end_line, d.end_column = node.end_line, node.end_column
        if d.verb == "disable-file":
            d.first, d.last = 1, last_line
        elif d.verb == "disable-next":
            nxt = next((c for c in children[k + 1:] if not isinstance(c, Blank)), None)
            d.first, d.last = (nxt.line, nxt.end_line) if nxt is not None else (0, -1)
        elif d.verb == "disable":
            d.first, d.last = node.line, last_line
        out.append(d)
    # An enable ends the earlier disable regions it names (or all of them).
    for i, d in enumerate(out):
        if d.verb != "enable" or d.error:
            continue
        for prev in out[:i]:
            if prev.verb == "disable" and prev.last == last_line and \
                    (d.codes is None or prev.codes is None or prev.codes & d.codes):
                prev.last = d.line
                d.used = True
    return out


def apply(diagnostics: list[Diagnostic], found: list[Directive]) -> list[Diagnostic]:
    """Diagnostics not covered by a directive; marks the directives that were used."""
    active = [d for d in found if d.verb in ("disable", "disable-next", "disable-file") and not d.error]
    if not active:
        return diagnostics
    kept = []
    for diag in diagnostics:
        hit = False
        for d in active:
            if d.first <= diag.line <= d.last and (d.codes is None or diag.code in d.codes):
                d.used = True
                hit = True
        if not hit:
            kept.append(diag)
    return kept

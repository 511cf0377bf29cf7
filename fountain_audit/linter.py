"""The linter core: runs the selected rules over one file's session model.

Layering: text → :func:`fountain_audit.fountain.parse` → :func:`build_session`
→ rules → :class:`Diagnostic` list. Rules never read files or options; this
module never prints.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, Sequence

from .diagnostics import Diagnostic, Severity
from .fountain import gc_paused, parse
from .rules import Rule, RuleContext, all_rules
from .session import build_session
from .source import decode_bytes, looks_binary, read_path


class RuleSelectionError(ValueError):
    """A rule code, prefix or name in a selection matches no rule."""


def resolve_rules(selectors: Iterable[str], rules: Sequence[Rule] | None = None) -> list[Rule]:
    """Rules matching any selector: a code (``P102``), a code prefix (``P``, ``P1``),
    a name (``tools-between-forward-and-reply``) or ``ALL``.

    Raises :class:`RuleSelectionError` naming a selector that matches nothing.
    """
    rules = list(all_rules() if rules is None else rules)
    out: list[Rule] = []
    for raw in selectors:
        sel = raw.strip()
        if not sel:
            continue
        if sel.upper() == "ALL":
            hits = rules
        else:
            hits = [r for r in rules if r.name == sel.lower() or r.code.startswith(sel.upper())]
        if not hits:
            raise RuleSelectionError(f"unknown rule or rule prefix {raw!r} (see 'fountain-audit rules')")
        out.extend(r for r in hits if r not in out)
    return out


@dataclass(frozen=True)
class Selection:
    """Which rules run: ``select`` (default all) minus ``ignore``."""

    rules: tuple[Rule, ...]

    @classmethod
    def build(cls, select: Iterable[str] | None = None, ignore: Iterable[str] | None = None) -> "Selection":
        """Raises :class:`RuleSelectionError` for an unknown selector."""
        chosen = resolve_rules(select) if select else all_rules()
        dropped = resolve_rules(ignore) if ignore else []
        return cls(tuple(r for r in chosen if r not in dropped))


def lint_text(text: str, path: str = "<string>", selection: Selection | None = None,
              ignored: frozenset[str] | set[str] = frozenset()) -> list[Diagnostic]:
    """Lint decoded ``text`` (see :mod:`fountain_audit.source`); never raises on input.

    ``ignored`` holds rule codes switched off for this file (per-file ignores).
    Diagnostics covered by ``/* fountain-audit: ... */`` suppressions are dropped;
    unused suppressions are reported as ``A101`` when that rule is selected.
    Returns diagnostics sorted by line, column and code. A rule that fails with an
    exception yields one ``X001 internal-error`` diagnostic instead of crashing.
    """
    selection = selection or Selection.build()
    with gc_paused():
        return _lint(text, path, selection, ignored)


def _lint(text: str, path: str, selection: Selection, ignored) -> list[Diagnostic]:
    from .suppressions import apply, directives

    document = parse(text)
    session = build_session(document)
    ctx = RuleContext(text, document, session)
    out: list[Diagnostic] = []
    unused_rule = None
    rules = selection.rules
    if looks_binary(text):  # one finding (E104), not hundreds of meaningless ones
        rules = tuple(r for r in rules if r.code == "E104")
    for rule in rules:
        if rule.code in ignored or session.kind not in rule.scope:
            continue
        if rule.code == "A101":
            unused_rule = rule
            continue
        try:
            for f in rule.check(ctx):
                out.append(Diagnostic(path, f.line, f.column, rule.code, rule.name, rule.severity,
                                      f.message, f.end_line, f.end_column))
        except Exception as e:  # noqa: BLE001 - a rule bug must not hide the other rules' findings
            out.append(Diagnostic(path, 1, 1, "X001", "internal-error", Severity.ERROR,
                                  f"rule {rule.code} [{rule.name}] failed: {type(e).__name__}: {e}; please report"))
    found = directives(document) if "fountain-audit:" in text else []
    if found:
        out = apply(out, found)
        if unused_rule is not None:
            for d in found:
                if not d.used and not d.error:
                    what = "enable ends no disabled region" if d.verb == "enable" else \
                        f"'{d.verb}' suppressed no diagnostic"
                    out.append(Diagnostic(path, d.line, d.column, unused_rule.code, unused_rule.name,
                                          unused_rule.severity, f"unused suppression: {what}",
                                          d.end_line, d.end_column))
    out.sort(key=Diagnostic.sort_key)
    return out


def lint(source: str | bytes | os.PathLike, path: str | None = None, *,
         select: Iterable[str] | None = None, ignore: Iterable[str] | None = None) -> list[Diagnostic]:
    """Lint a session given as text (``str``), file bytes (``bytes``) or a
    ``pathlib.Path``/``os.PathLike``. A ``str`` is always the *text*: to lint a file
    named by a string, use :func:`lint_file` (or pass ``Path(name)``).

    ``path`` names the file in the diagnostics (default: the path, or
    ``"<string>"``). ``select``/``ignore`` take rule codes, prefixes or names.
    Raises ``OSError`` for an unreadable path and :class:`RuleSelectionError`
    for an unknown rule; never raises because of the file's content.
    """
    selection = Selection.build(select, ignore)
    if isinstance(source, bytes):
        text = decode_bytes(source)
    elif isinstance(source, str):
        text = source
    else:
        text = read_path(source)
        path = path or os.fspath(source)
    return lint_text(text, path or "<string>", selection)


def lint_file(path: str | os.PathLike, *, select: Iterable[str] | None = None,
              ignore: Iterable[str] | None = None) -> list[Diagnostic]:
    """Lint the file at ``path`` (a ``str`` or ``PathLike``); see :func:`lint`.

    Raises ``OSError`` if the file cannot be read, :class:`RuleSelectionError`
    for an unknown rule.
    """
    return lint_text(read_path(path), os.fspath(path), Selection.build(select, ignore))

"""The linter core: runs the selected rules over one file's session model.

Layering: text → :func:`fountain_audit.parse.fountain.parse` → :func:`build_session`
→ rules → :class:`Diagnostic` list. Rules never read files or options; this
module never prints.
"""

from __future__ import annotations

import functools
import operator
import os
import re
TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing (issue 9)
if TYPE_CHECKING:
    from typing import Iterable

from fountain_audit.lint.diagnostics import Diagnostic, Severity
from fountain_audit.parse.fountain import gc_paused, parse
from fountain_audit.lint.dispatch import walk
from fountain_audit.lint.rules import RuleContext
from fountain_audit.lint.selection import RuleSelectionError, Selection, resolve_rules  # noqa: F401 (re-exported)
from fountain_audit.model.session import build_session
from fountain_audit.parse.source import decode_bytes, looks_binary, read_path, utf16_text


def lint_text(text: str, path: str = "<string>", selection: Selection | None = None,
              ignored: frozenset[str] | set[str] = frozenset()) -> list[Diagnostic]:
    """Lint decoded ``text`` (see :mod:`fountain_audit.parse.source`); never raises on input.

    ``ignored`` holds rule codes switched off for this file (per-file ignores).
    Diagnostics covered by ``/* fountain-audit: ... */`` suppressions are dropped;
    unused suppressions are reported as ``A101`` when that rule is selected.
    Returns diagnostics sorted by line, column and code. A rule that fails with an
    exception yields one ``X001 internal-error`` diagnostic instead of crashing.
    """
    selection = selection or Selection.build()
    with gc_paused():
        return _lint(text, path, selection, ignored)


def lint_session(text: str, document, session, path: str = "<string>", selection: Selection | None = None,
                 ignored: frozenset[str] | set[str] = frozenset(), *, suppressions: bool = True) -> list[Diagnostic]:
    """:func:`lint_text` for a file already read into a model: ``document`` is
    ``parse(text)`` and ``session`` is ``build_session(document)`` (commands that show the
    session and its diagnostics, such as ``report``, parse once). Same result and guarantees.
    ``suppressions=False``: the file's ``/* fountain-audit: ... */`` directives are not applied
    (for a reader of the findings that is no lint report, such as provenance)."""
    selection = selection or Selection.build()
    with gc_paused():
        return _lint(text, path, selection, ignored, document, session, suppressions)


def _lint(text: str, path: str, selection: Selection, ignored, document=None, session=None,
          suppressions: bool = True) -> list[Diagnostic]:
    rules = selection.rules
    if looks_binary(text) or utf16_text(text) is not None:  # one finding (E104), not hundreds of
        # meaningless ones; but the privacy rules still run (NUL bytes put in front of a session, or
        # a session saved as UTF-16, must not hide the secrets in it)
        rules = tuple(r for r in rules if r.code == "E104" or r.code.startswith("V"))
    allow = _compiled(selection.privacy_allow)
    owned = document is None  # the model is made here, and dropped here once the rules have run
    if document is None:
        # The rules' work on the text alone first (the privacy scans read byte forms of the
        # text, one byte a code point each): dropped before the model is built, they do not
        # add to its peak.
        early = RuleContext(text, None, None, allow)
        for rule in rules:
            if rule.code not in ignored and rule.prepare is not None:
                try:
                    rule.prepare(early)
                except Exception:  # noqa: BLE001 - its check fails again, and is reported (X001)
                    pass
        early.release()
        document = parse(text)
        session = build_session(document)
        ctx = early.with_model(document, session)
        del early
    else:
        ctx = RuleContext(text, document, session, allow)
    out: list[Diagnostic] = []
    # Each message text is held once however many diagnostics give it (a rule often repeats
    # one message over a large file: each of the findings made its own copy).
    share = {}.setdefault
    unused_rule = None
    visits = []  # (rule code, what, visitor, kinds) of the rules that declare visitors
    by_code = {}
    failed: dict[str, Exception] = {}  # rule code -> the exception it raised (X001)
    for rule in rules:
        if rule.code in ignored or session.kind not in rule.scope:
            continue
        if rule.code == "A101":
            unused_rule = rule
            continue
        if rule.visits:
            by_code[rule.code] = rule
            visits.extend((rule.code, what, fn, kinds) for what, fn, kinds in rule.visits)
            continue
        try:
            for f in rule.check(ctx):
                out.append(Diagnostic(path, f.line, f.column, rule.code, rule.name, rule.severity,
                                      share(f.message, f.message), f.end_line, f.end_column))
        except Exception as e:  # noqa: BLE001 - a rule bug must not hide the other rules' findings
            failed[rule.code] = e
    ctx.release(memos=True)  # (the byte forms of the text some whole-file rules read, their memos)
    if visits:  # one walk over notes, scenes and turns for all of them
        for code, f in walk(ctx, visits, failed.__setitem__):
            rule = by_code[code]
            out.append(Diagnostic(path, f.line, f.column, code, rule.name, rule.severity,
                                  share(f.message, f.message), f.end_line, f.end_column))
    out.extend(_internal_error(path, r, failed[r.code]) for r in rules if r.code in failed)  # in rule order
    found = []
    if suppressions and "fountain-audit:" in text:  # (the module only then: issue 9, start-up)
        from fountain_audit.lint.suppressions import apply, directives, unused
        found = directives(document, session.speech_boneyards(), session.scenes_span())
    active = {r.code for r in rules if r.code not in ignored and session.kind in r.scope} if found else None
    selected = {r.code for r in rules if r.code not in ignored} if found else None
    kind = session.kind
    line_index = document.line_index
    if owned:
        # Nothing below reads the model: dropped now (most of the memory of a large file), what
        # follows (sorting, secrets masked in the messages) takes its place instead of adding to it.
        ctx = ctx.with_model(None, None)
        document = session = None
    if found:
        out = apply(out, found)
        if unused_rule is not None:
            for d in found:
                what = unused(d, active, selected, kind)
                if what is not None:
                    out.append(Diagnostic(path, d.line, d.column, unused_rule.code, unused_rule.name,
                                          unused_rule.severity, f"unused suppression: {what}",
                                          d.end_line, d.end_column))
    out = _with_ends(out, text, line_index)
    secrets = ctx.secrets() if out else []
    if secrets:  # a rule quoting a line must not print a secret in it (V101 masks its own)
        from dataclasses import replace

        from fountain_audit.privacy.redact import SecretMasker
        masker = SecretMasker(secrets)
        out = [d if d.code == "V101" else replace(d, message=masker.hide(d.message)) for d in out]
    out.sort(key=_SORT_KEY)
    return out


def _with_ends(diagnostics: list[Diagnostic], text: str, line_index=None) -> list[Diagnostic]:
    """Every diagnostic with an end: a finding that gives none covers the rest of its
    start line (``end_line = line``, ``end_column`` one past the line's last code point,
    never before ``column``), as the ``full`` format underlines it. ``line_index``: the
    document's :class:`~fountain_audit.parse.fountain.Lines` of ``text``, if there is one
    (its line starts, kept in an array, are read instead of a list made again)."""
    if all(d.end_line is not None and d.end_column is not None for d in diagnostics):
        return diagnostics
    from dataclasses import replace

    if line_index is not None:
        starts = line_index.starts  # (lacks the empty line after a final line break: width 0 either way)
    else:
        from fountain_audit.parse.source import LineIndex
        starts = LineIndex(text).starts
    out = []
    for d in diagnostics:
        if d.end_line is None or d.end_column is None:
            if 1 <= d.line <= len(starts):
                begin = starts[d.line - 1]
                end = starts[d.line] if d.line < len(starts) else len(text)
                width = len(text[begin:end].rstrip("\r\n"))
            else:
                width = 0
            d = replace(d, end_line=d.line, end_column=max(width + 1, d.column))
        out.append(d)
    return out


_SORT_KEY = operator.attrgetter("path", "line", "column", "code")  # Diagnostic.sort_key, in C


@functools.lru_cache(maxsize=8)
def _compiled(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns)


def _internal_error(path: str, rule, e: Exception) -> Diagnostic:
    return Diagnostic(path, 1, 1, "X001", "internal-error", Severity.ERROR,
                      f"rule {rule.code} [{rule.name}] failed: {type(e).__name__}: {e}; please report")


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

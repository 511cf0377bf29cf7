"""Inline suppressions, written in the boneyard (which renderers hide and which
carries no audit meaning; ``[[notes]]`` are audit data and are never used)::

    /* fountain-audit: disable=P103,missing-the-end */   ... until a matching enable
    /* fountain-audit: enable=P103 */                    (``enable`` alone ends every region)
    /* fountain-audit: disable-next=P102 */              the next element only
    /* fountain-audit: disable-file */                   the whole file (optionally ``=RULES``)

Rules are named by code, code prefix or kebab-case name. A directive that names no
known rule is reported by ``A102 invalid-suppression``; one that suppressed nothing
by ``A101 unused-suppression``.

Regions end rule by rule, as ESLint's ``eslint-disable``/``eslint-enable``: ``enable=P103``
ends P103's regions only, so after ``disable=P103,H102`` ... ``enable=P103`` H102 stays
disabled until an ``enable`` naming it or a bare ``enable``. After a bare ``disable`` (every
rule), ``enable=P103`` re-enables P103 alone: the region goes on for every other rule.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import MISSING, field

from fountain_audit.memos import forgettable
from fountain_audit.records import record
from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Diagnostic
from fountain_audit.parse.fountain import Blank, Boneyard, Document
from fountain_audit.lint.selection import RULES_HINT, RuleSelectionError, resolve_rules

_DIRECTIVE_RE = lazy(
    r"/\*\s*fountain-audit:\s*(?P<verb>disable-file|disable-next|disable|enable)\b\s*(?:=\s*(?P<rules>[^*]*?))?\s*\*/",
    re.S)
_PREFIX_RE = lazy(r"/\*\s*fountain-audit:")
#: A boneyard that starts like a directive in other capitals or with another separator
#: (``/* FOUNTAIN-AUDIT: …``, ``/* fountain_audit: …``): group 1 is what it wrote.
_NEAR_PREFIX_RE = lazy(r"/\*\s*(fountain[-_ ]?audit\s*:)", re.I)


def starts_directive(text: str, at: int) -> bool:
    """Whether a ``/* fountain-audit:`` comment starts at ``text[at]`` (blanks allowed after ``/*``)."""
    return _PREFIX_RE.match(text, at) is not None
#: The word after ``fountain-audit:`` in a comment that is no directive (for a did-you-mean).
_VERB_WORD_RE = lazy(r"/\*\s*fountain-audit:\s*([A-Za-z-]*)")
_VERBS = ("disable-file", "disable-next", "disable", "enable")
_VERBS_HELP = "disable=, enable=, disable-next=, disable-file"


def near_directive_in(text: str) -> bool:
    """Whether ``text`` holds a boneyard that starts like a directive in other capitals or with
    another separator (``/* FOUNTAIN-AUDIT: …``): one regex search, for A102's pre-check."""
    return "/*" in text and _NEAR_PREFIX_RE.search(text) is not None


def _not_a_directive(raw: str) -> str:
    """The error for a ``/* fountain-audit: … */`` comment :data:`_DIRECTIVE_RE` does not read:
    ``"'disable-nxt' is no fountain-audit directive; did you mean 'disable-next'? (disable=, …)"``,
    the did-you-mean only when a verb is close (:func:`fountain_audit.suggest.closest`)."""
    from fountain_audit.suggest import closest

    m = _VERB_WORD_RE.search(raw)
    word = m.group(1) if m else ""
    if not word:
        return f"not a fountain-audit directive ({_VERBS_HELP})"
    if word in _VERBS:  # the verb is right: what follows it is not (`disable=P102 /* nested`: adversarial trial)
        rest = raw[m.end():].rstrip()
        rest = rest[:-2].rstrip() if rest.endswith("*/") else rest
        shown = rest if len(rest) <= 40 else rest[:37] + "..."
        return (f"{word!r} is followed by {shown!r}, which is no list of rules ('=' then rule codes or names, "
                f"separated by commas; {_VERBS_HELP})")
    guess = closest(word, _VERBS)
    hint = f"; did you mean {guess!r}?" if guess and guess != word else ""
    return f"{word!r} is no fountain-audit directive{hint} ({_VERBS_HELP})"


@record
class Directive:
    """One suppression comment. ``codes`` is ``None`` for "every rule".

    ``first``/``last`` are the 1-based lines it covers (inclusive). ``ends``: for a ``disable``
    region, the rules it stopped covering before ``last`` (an ``enable=`` named them), with the
    line it stopped at (inclusive): the region covers rule ``c`` on ``first`` to
    ``ends.get(c, last)``; ``last`` is where its last rule ended (or the file's last line).
    ``selectors``: the rules its ``=...`` list names, as written (a code, prefix or name, each
    once, in order), with the codes each stands for; ``matched``: those of them that covered a
    diagnostic (set by :func:`apply`; A101 names the others). ``unknown``: what the list names
    that is no rule, when it names known ones too (they apply, as ruff's and ESLint's lists do;
    A102 reports the others); a list of no known rule is an ``error``. ``duplicated``: the names
    the list holds more than once, as written (A101 says so, as ruff's RUF100 does).
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
    ends: dict[str, int] = field(default_factory=dict)
    unknown: str | None = None
    duplicated: tuple[str, ...] = ()

    def __init__(self, verb: str, text: str, line: int, column: int, codes: frozenset[str] | None, first: int = 0,
                 last: int = 0, used: bool = False, error: str | None = None, end_line: int = 0, end_column: int = 0,
                 matched: set[str] = MISSING, selectors: tuple[tuple[str, frozenset[str]], ...] = (),
                 ends: dict[str, int] = MISSING, unknown: str | None = None,
                 duplicated: tuple[str, ...] = ()) -> None:
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
        self.ends = {} if ends is MISSING else ends
        self.unknown = unknown
        self.duplicated = duplicated


@forgettable
@functools.lru_cache(maxsize=1024)
def _codes(selectors: str | None) -> tuple[frozenset[str] | None, str | None, tuple[tuple[str, frozenset[str]], ...],
                                          str | None, tuple[str, ...]]:
    """Rule codes named by a directive's ``=...`` list, an error, each selector of the list (as
    written, once each) with its codes, what the list names that is no rule when it names
    known rules too, and the names it holds more than once (cached: a file may repeat the same
    list thousands of times, and resolving reads the rule table)."""
    if selectors is None:  # no "=": every rule
        return None, None, (), None, ()
    written = [s.strip() for s in selectors.split(",") if s.strip()]
    names = list(dict.fromkeys(written))
    twice = tuple(name for name in names if written.count(name) > 1) if len(names) < len(written) else ()
    if not names:  # "disable=" with nothing after it (a template's empty $RULES) must not mean every rule,
        # V101 included (adversarial trial): said, and the directive ignored
        return None, ("no rule after '=': name the rules, or write the directive without '=' for every "
                      "rule"), (), None, ()
    known, unknown = [], []
    for name in names:
        try:
            known.append((name, frozenset(r.code for r in resolve_rules([name]))))
        except RuleSelectionError as e:
            unknown.append(str(e))
    if not known:  # each name said (only the first was: adversarial trial, stop 37)
        return None, _joined(unknown), (), None, ()
    parts = tuple(known)
    # a list naming known rules and unknown ones: the known apply (a mistyped code no longer voids
    # the others, as ruff's and ESLint's lists; new-user trial), the rest said
    return (frozenset().union(*(codes for _, codes in parts)), None, parts,
            _joined(unknown) + " (the other rules of the list apply)" if unknown else None, twice)


def _joined(errors: list[str]) -> str:
    """The errors of a list's unknown names, as one: ``; `` between them, the hint they end with
    (``(see 'fountain-audit rules')``) once, at the end."""
    if all(e.endswith(RULES_HINT) for e in errors):
        return "; ".join(e.removesuffix(RULES_HINT) for e in errors) + RULES_HINT
    return "; ".join(errors)


def directives(document: Document, in_speech: dict[int, tuple[str, bool]] | None = None,
               scenes: tuple[int, int] | None = None) -> list[Directive]:
    """Every ``/* fountain-audit: ... */`` boneyard of ``document``, with the lines it covers.
    One that a speech may have written (``in_speech``: offset → speaker and whether a reply, as
    :meth:`fountain_audit.model.session.Session.speech_boneyards` gives them: in a reply, any
    boneyard from its cue to the next scene heading, past notes, stats lines and transitions) is
    not applied: a speech is recorded verbatim, so it may come from a model (a reply could
    switch off the checks of the file it is recorded in, or the secret rule for the tool note
    after it); it suppresses nothing and has an ``error`` (A102 reports it). So has one that
    does not start a paragraph (no blank line before it, nor the file's start, nor a comment
    that does: it may be the text of the line above, a cue's first line), and a
    ``disable-file`` between the offsets ``scenes`` (as
    :meth:`fountain_audit.model.session.Session.scenes_span` gives them: where a recording's
    scenes run, and its replies, which may write ``THE END.`` too): it covers the whole file,
    so it stands before the first scene heading. An ``enable`` applies wherever it stands: it
    can only turn checks back on.

    Linear in the number of nodes and directives: a ``disable-next`` looks only at the
    blank lines after it; an ``enable`` ends the open ``disable`` regions it names through an
    index by rule code, never rescanning earlier directives. Regions end rule by rule (see the
    module docstring): an ``enable=CODES`` after a bare ``disable`` records each of its codes
    once in each open every-rule region (``ends``; an index by code skips the regions that
    code already left), so the work is the directives times the rules they name.
    """
    children = document.children
    out: list[Directive] = []
    last_line = children[-1].end_line if children else 1
    open_all: list[Directive] = []  # open "disable" regions for every rule (since the last bare enable)
    all_left: dict[str, int] = {}  # code -> open_all[:i] no longer cover it (an enable=code ended it)
    open_by_code: dict[str, list[Directive]] = {}  # open "disable=CODES" regions, by code still covered

    def end_code(prev: Directive, code: str, line: int) -> None:
        """``prev`` (a ``disable=CODES`` region still covering ``code``) stops covering it at
        ``line``; when that was its last rule, the region ends there."""
        prev.ends[code] = line
        if len(prev.ends) == len(prev.codes):
            prev.last = line
            prev.ends = {c: end for c, end in prev.ends.items() if end < line}

    fresh = True  # the next node starts a paragraph (after a blank line, the start, or a boneyard that does)
    for k, node in enumerate(children):
        if not isinstance(node, Boneyard):
            fresh = isinstance(node, Blank)
            continue
        starts_paragraph = fresh  # (and the node after this comment does if it does)
        raw = node.render()
        near = None
        if not _PREFIX_RE.search(raw):
            # `FOUNTAIN-AUDIT:`, `Fountain-Audit:`, `fountain_audit:`: meant as one, read as none
            # (ignored silently: adversarial trial, stop 37); said where no speech runs
            near = _NEAR_PREFIX_RE.match(raw)
            if near is None or (in_speech and node.offset in in_speech):
                continue
        m = None if near else _DIRECTIVE_RE.search(raw)
        if near:
            d = Directive("invalid", raw.strip(), node.line, node.column, None,
                          error=f"{near.group(1)!r} is not read: a directive starts 'fountain-audit:', in lower case "
                                "with a hyphen")
        elif not m:
            d = Directive("invalid", raw.strip(), node.line, node.column, None, error=_not_a_directive(raw))
        else:
            codes, err, parts, unknown, twice = _codes(m.group("rules"))
            d = Directive(m.group("verb"), m.group(0), node.line, node.column, codes, error=err, selectors=parts,
                          unknown=unknown, duplicated=twice)
        d.end_line, d.end_column = node.end_line, node.end_column
        written = in_speech.get(node.offset) if in_speech else None
        why = None  # why it cannot apply where it stands (then it is invalid)
        misspelt = f" ({d.error})" if d.error else ""  # (a misspelt verb, an unknown rule)
        if d.verb == "enable" and not d.error:
            pass  # (anywhere: it can only turn checks back on)
        elif not starts_paragraph:
            why = ("not after a blank line: it goes on from the line above, whose text it may be (a cue's first "
                   "line, a reply's); a directive stands after a blank line" + misspelt)
        elif written is not None:
            speaker, reply = written
            where = (f"inside what {speaker}'s speech may have written (recorded verbatim, it may come from a "
                     "model; a reply's text runs on to the next scene heading)" if reply else
                     f"inside {speaker}'s input (recorded verbatim, it may hold text pasted from anywhere; it runs "
                     "to HARVEY's forwarding line)")
            why = (where + ": session text, not a directive; put it where no speech runs (after a scene's "
                   "description or HARVEY's forwarding line, or before the title page), or use per-file-ignores "
                   "or a baseline" + misspelt)
        elif d.verb == "disable-file" and scenes is not None and scenes[0] <= node.offset < scenes[1]:
            why = ("disable-file after the first scene heading, where replies are recorded (a reply may have "
                   "written it, THE END. too): put it before the first scene heading (or the title page), or use "
                   "per-file-ignores or a baseline")
        if why is not None:
            d.verb, d.codes, d.error = "invalid", None, why
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
            line = d.line
            if d.codes is None:
                # A bare enable ends every open region, for all its rules
                d.used = bool(open_all) or any(open_by_code.values())
                for prev in open_all:
                    prev.last = line
                open_all.clear()
                all_left.clear()
                for code, regions in open_by_code.items():
                    for prev in regions:
                        end_code(prev, code, line)
                open_by_code.clear()
            else:
                # ``enable=CODES`` ends those rules' regions only (the other rules of a
                # ``disable=CODES`` list, and of a bare ``disable``, stay disabled). Each rule of its
                # list that ended a region is ``matched`` (A101 names the others); which did is
                # decided before any region is ended (a list may name one code twice: ``P,P102``).
                d.matched.update(name for name, codes in d.selectors
                                 if any(open_by_code.get(code) or all_left.get(code, 0) < len(open_all)
                                        for code in codes))
                d.used = bool(d.matched)
                for code in d.codes:
                    for prev in open_all[all_left.get(code, 0):]:
                        prev.ends[code] = line
                    if open_all:
                        all_left[code] = len(open_all)
                    for prev in open_by_code.pop(code, ()):
                        end_code(prev, code, line)
        out.append(d)
    return out


def apply(diagnostics: list[Diagnostic], found: list[Directive]) -> list[Diagnostic]:
    """Diagnostics not covered by a directive; marks the directives that were used, and the
    selectors of each directive's list that were (``matched``).

    O((D·k + M) log M) for D directives naming k rules each (k counts the rules an
    ``enable=`` ended early in a region, its ``ends``) and M diagnostics: each directive looks
    up its line ranges in the sorted lines of the rules it names, and each diagnostic in the
    merged ranges that cover its rule, and in the latest every-rule region opened before it.
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

    def count(lines: list[int], first: int, last: int) -> int:
        return bisect.bisect_right(lines, last) - bisect.bisect_left(lines, first)

    def any_in(lines: list[int], first: int, last: int) -> bool:
        i = bisect.bisect_left(lines, first)
        return i < len(lines) and lines[i] <= last

    ranges_all: list[tuple[int, int]] = []
    ranges_by_code: dict[str, list[tuple[int, int]]] = {}
    partial: list[Directive] = []  # every-rule regions that some rules left early (``ends``)
    for d in active:
        if d.codes is None and not d.ends:
            d.used = d.used or any_in(all_lines, d.first, d.last)
            ranges_all.append((d.first, d.last))
        elif d.codes is None:
            # used: a diagnostic of a rule it still covered at that line
            d.used = d.used or (count(all_lines, d.first, d.last) >
                                sum(count(lines_by_code.get(c, []), d.first, d.last) for c in d.ends)) \
                or any(any_in(lines_by_code.get(c, []), d.first, end) for c, end in d.ends.items())
            partial.append(d)
        else:
            d.matched.update(name for name, codes in d.selectors
                             if any(any_in(lines_by_code.get(c, []), d.first, d.ends.get(c, d.last)) for c in codes))
            d.used = d.used or bool(d.matched)
            for c in d.codes:
                ranges_by_code.setdefault(c, []).append((d.first, d.ends.get(c, d.last)))
    cover_all = _Cover(ranges_all)
    covers = {c: _Cover(r) for c, r in ranges_by_code.items()}
    # Every-rule regions open together end together (a bare enable, or the end of the file), and
    # one opened later has left no rule earlier than one opened before it (an enable=X ends X in
    # every open region): of those open at a line, the latest opened covers all the others do.
    partial_firsts = [d.first for d in partial]

    def partly_covered(diag: Diagnostic) -> bool:
        i = bisect.bisect_right(partial_firsts, diag.line) - 1
        if i < 0:
            return False
        d = partial[i]
        return diag.line <= d.ends.get(diag.code, d.last)

    return [diag for diag in diagnostics if not (cover_all.covers(diag.line) or
                                                  (diag.code in covers and covers[diag.code].covers(diag.line)) or
                                                  (partial and partly_covered(diag)))]


#: What a file of each session kind (``Session.kind``) is called in A101's messages.
_KIND_NAMES = {"session": "a session", "screenplay": "a plain screenplay", "fragment": "a session fragment",
               "memory": "a memory file", "hand-off": "a hand-off"}


def unused(d: Directive, active: frozenset[str] | set[str] | None = None,
           selected: frozenset[str] | set[str] | None = None, kind: str | None = None) -> str | None:
    """What A101 says of ``d`` after :func:`apply` (after ``unused suppression: ``), or ``None``
    when it was used (or is invalid: A102's): :func:`_unused`, and the rules its list names more
    than once (``the list names P102 more than once``, as ruff's RUF100 says "duplicated": the
    name again suppresses nothing more)."""
    message = _unused(d, active, selected, kind)
    if not d.duplicated or d.error:
        return message
    names = d.duplicated[0] if len(d.duplicated) == 1 else ", ".join(d.duplicated[:-1]) + " and " + d.duplicated[-1]
    twice = f"the list names {names} more than once"
    return twice if message is None else f"{message}; {twice}"


def _unused(d: Directive, active: frozenset[str] | set[str] | None = None,
            selected: frozenset[str] | set[str] | None = None, kind: str | None = None) -> str | None:
    """What A101 says of ``d``'s rules that suppressed nothing (see :func:`unused`). A directive
    with a rule list names the rules of it that suppressed nothing, as written, and only those (as ruff's RUF100 names the unused
    codes of a ``noqa``): ``'disable-next=P103' suppressed no diagnostic``. ``active``: the codes
    of the rules that ran on the file; a named rule none of whose codes ran is said to be off
    (``… suppressed no diagnostic (not enabled in this run: P103)``, as RUF100's "non-enabled"),
    or, when it is among the ``selected`` codes but checks no file of the session ``kind``
    (``Session.kind``), not to apply (``… (S104 does not apply to a plain screenplay)``)."""
    if d.error:
        return None
    if active is not None and d.verb != "enable" and d.selectors:
        message = _unused(d)
        if message is None:
            return None
        off = [(name, codes) for name, codes in d.selectors if name not in d.matched and not codes & active]
        unselected = [name for name, codes in off if selected is None or not codes & selected]
        elsewhere = [name for name, codes in off if selected is not None and codes & selected]
        why = [f"not enabled in this run: {', '.join(unselected)}"] if unselected else []
        if elsewhere:
            what = _KIND_NAMES.get(kind or "", "this file")
            why.append(f"{', '.join(elsewhere)} {'does' if len(elsewhere) == 1 else 'do'} not apply to {what}")
        return f"{message} ({'; '.join(why)})" if why else message
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


def mid_line(document: Document, speech_nodes: set[int]) -> list[Directive]:
    """The ``/* fountain-audit: … */`` comments with text before them on their line (``Some
    action /* fountain-audit: disable=V101 */``), outside every speech (``speech_nodes``: the
    offsets of the nodes of the session's speeches, whose text A102 judges as
    :func:`directives` says): the parser reads such a comment as part of the line's element, so
    it is no directive; each is an ``invalid`` :class:`Directive` with an ``error`` (A102),
    spanning ``/*`` to its ``*/`` (or its line's end). In file order; linear in the text."""
    children = document.children
    if not children:
        return []
    src = children[0].src
    starts = [n.offset for n in children]
    out: list[Directive] = []
    for m in _PREFIX_RE.finditer(src):
        at = m.start()
        k = bisect.bisect_right(starts, at) - 1
        node = children[k] if k >= 0 else None
        if node is None or at >= node.end_offset or isinstance(node, (Boneyard, Blank)) or node.offset in speech_nodes:
            continue  # (a boneyard of its own is directives()'s)
        line_start = max(src.rfind("\n", node.offset, at) + 1, node.offset)
        if not src[line_start:at].strip():
            continue  # (at its line's start: the element's text, as a boneyard that begins a paragraph)
        line_end = src.find("\n", at, node.end_offset)
        line_end = node.end_offset if line_end < 0 else line_end
        close = src.find("*/", at, line_end)
        end = line_end if close < 0 else close + 2
        line = node.line + src.count("\n", node.offset, at)
        column = (node.column if line_start == node.offset else 1) + at - line_start
        d = Directive("invalid", src[at:end].rstrip("\r"), line, column, None,
                      error="text before it on its line: a directive must stand on its own line (a /* … */ "
                            "boneyard between blank lines); here it is part of the element's text and suppresses "
                            "nothing")
        d.end_line, d.end_column = line, column + len(src[at:end].rstrip("\r"))
        out.append(d)
    return out

"""The rule registry: one module per rule, listed in :data:`RULE_MODULES`.

A rule module defines ``CODE`` (stable, grouped by family letter), ``NAME``
(kebab-case), ``SEVERITY``, ``SINCE`` (the Harvey format version it applies
from), ``SCOPE`` (the session kinds it checks, see
:attr:`fountain_audit.model.session.Session.kind`), a docstring that is its
documentation (sections *What it does*, *Why is this bad?*, *Example*, *Use
instead*, *References*; the two examples are run by the tests), and either one
``check(ctx)`` generator yielding :class:`~fountain_audit.lint.diagnostics.Finding`
(a whole-file rule) or the visitors it needs — ``check_note(ctx, placed)`` with
``NOTE_KINDS``, ``check_scene(ctx, scene)`` with ``SCENE_KINDS``, ``check_turn(ctx,
turn, scene)``, each returning its findings (a generator, or a tuple) or ``None`` — which
the linter calls in one walk over the session for all rules
(:mod:`fountain_audit.lint.dispatch`).

Families: ``A`` fountain-audit's own comments (suppressions), ``E`` input and
encoding, ``F`` Fountain syntax, ``S`` file structure, ``H`` scene headings,
``T`` turns, ``N`` notes, ``P`` note placement, ``L`` legacy (pre-v1.2) forms,
``R`` reply text that other Fountain readers misread, ``V`` privacy (secrets and
personal paths).
"""

from __future__ import annotations

import sys
import re
from bisect import bisect_right
from operator import attrgetter
from types import ModuleType
TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator

from fountain_audit.records import record
from fountain_audit.lazyre import lazy
from fountain_audit.parse.source import utf16_text as _utf16_text
from fountain_audit.lint.catalog import PREPARED
from fountain_audit.lint.diagnostics import Finding, Severity

RULE_MODULES = (
    "unused_suppression",
    "invalid_suppression",
    "invalid_utf8",
    "nul_byte",
    "byte_order_mark",
    "binary_file",
    "empty_file",
    "bidi_control",
    "unclosed_note",
    "unclosed_boneyard",
    "stray_boneyard_close",
    "boneyard_hides_scenes",
    "missing_title",
    "missing_author",
    "missing_fade_in",
    "missing_the_end",
    "session_cut_short",
    "malformed_scene_heading",
    "loose_scene_timestamp",
    "unknown_scene_kind",
    "ext_without_routing",
    "malformed_note",
    "tool_arguments_not_json",
    "rag_before_dialogue",
    "tools_between_forward_and_reply",
    "recall_before_first_turn",
    "recall_outside_recall_scene",
    # -- structure and heading rules added for the full catalog (S105+, H105+) --
    "author_not_uppercase",
    "content_after_the_end",
    "timestamps_backwards",
    "int_scene_names_remote_route",
    "missing_model_or_workspace",
    "glued_scene_heading",
    # -- turn rules (T) --
    "forwarding_target_mismatch",
    "unanswered_turn",
    "several_exchanges_in_scene",
    "character_not_uppercase",
    "unfulfilled_mention",
    "turn_without_user_input",
    # -- note, legacy and reply rules (N103+, L, R) --
    "score_out_of_range",
    "note_in_wrong_scene",
    "tool_actor_not_participant",
    "chunk_result_sequence",
    "synthesis_not_last",
    "rag_source_without_rag",
    "empty_rag_source",
    "audit_note_inside_text",
    "second_note_on_line",
    "misspelt_note_kind",
    "disguised_note_kind",
    "legacy_prose_tool_call",
    "legacy_stats_note",
    "reply_reads_as_structure",
    # -- privacy (V) --
    "secret_in_session",
    "home_path_in_session",
)

#: Examples may spell characters as ``\\xNN`` / ``\\uNNNN`` (NUL, BOM, undecodable bytes).
_ESCAPE_RE = lazy(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})")
_EXAMPLE_RE = lazy(r"^## (Example|Use instead)\s*\n+```fountain\n(.*?)^```", re.M | re.S)


class Rule:
    """A registered rule. ``code``, ``name``, ``severity``, ``since`` and ``scope`` (a frozenset
    of session kinds) are known without importing anything (:mod:`fountain_audit.lint.catalog`);
    ``doc``, ``check`` and ``visits`` (the visitors the module declares, ``((what, visitor,
    kinds or None), ...)``, empty for a whole-file rule, see :mod:`fountain_audit.lint.dispatch`)
    come from the rule's module, imported when one of them is first read, so that selecting
    rules and reporting cached results never import the parser. Immutable; equal when all of
    these are equal. ``Rule(code, name, severity, since, scope, doc, check, visits=())`` builds
    one directly (no module)."""

    __slots__ = ("code", "name", "severity", "since", "scope", "module", "_parts")

    def __init__(self, code: str, name: str, severity: Severity, since: str, scope: frozenset[str],
                 doc: str | None = None, check: Callable[..., Iterator[Finding]] | None = None, visits: tuple = (),
                 *, module: str | None = None) -> None:
        put = object.__setattr__
        put(self, "code", code)
        put(self, "name", name)
        put(self, "severity", severity)
        put(self, "since", since)
        put(self, "scope", scope if type(scope) is frozenset else frozenset(scope))
        put(self, "module", module)
        put(self, "_parts", None if module is not None and check is None else (doc or "", check, tuple(visits)))

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r} (a Rule is immutable; see replace)")

    def _load(self) -> tuple:
        parts = self._parts
        if parts is None:
            name = f"{__name__}.{self.module}"
            __import__(name)  # (importlib.import_module would import importlib and warnings: issue 9, start-up)
            parts = _parts(sys.modules[name])
            object.__setattr__(self, "_parts", parts)
        return parts

    @property
    def doc(self) -> str:
        """The module's docstring: the rule's documentation."""
        return self._load()[0]

    @property
    def check(self) -> Callable[..., Iterator[Finding]]:
        """``check(ctx)``: the rule over a whole file, yielding findings."""
        return self._load()[1]

    @property
    def prepare(self) -> Callable[..., None] | None:
        """``prepare(ctx)`` of the rule's module, or ``None``: work on the text alone that the
        linter runs before it parses the file, so that the byte forms of the text it reads are
        dropped before the model is built (see :meth:`RuleContext.memo`). Known from the
        catalogue (:data:`fountain_audit.lint.catalog.PREPARED`): a module without one is not
        imported for it (issue 9)."""
        if self.module is None or self.module not in PREPARED:
            return None
        self._load()
        return getattr(sys.modules[f"{__name__}.{self.module}"], "prepare", None)

    @property
    def visits(self) -> tuple:
        """``((what, visitor, kinds or None), ...)``: what the rule visits in the linter's one
        walk (see :mod:`fountain_audit.lint.dispatch`); empty for a whole-file rule."""
        return self._load()[2]

    def replace(self, **changes) -> "Rule":
        """A copy with some fields changed (as :func:`dataclasses.replace`)."""
        fields = {k: getattr(self, k) for k in ("code", "name", "severity", "since", "scope")} | changes
        out = Rule(**fields, module=self.module)
        if self._parts is not None:
            object.__setattr__(out, "_parts", self._parts)
        return out

    def _key(self) -> tuple:
        return (self.code, self.name, self.severity, self.since, self.scope, self.module,
                self._parts if self.module is None else None)

    def __eq__(self, other) -> bool:
        return self._key() == other._key() if isinstance(other, Rule) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key()[:6])

    def __repr__(self) -> str:
        return (f"Rule(code={self.code!r}, name={self.name!r}, severity={self.severity!r}, since={self.since!r}, "
                f"scope={set(self.scope)!r}, module={self.module!r})")

    def __reduce__(self):  # a process pool under spawn re-imports the module in the worker
        if self.module is not None:
            return (_rebuild, (self.code, self.name, self.severity, self.since, self.scope, self.module))
        return (Rule, (self.code, self.name, self.severity, self.since, self.scope, *self._parts))

    @property
    def summary(self) -> str:
        """First line of the docstring."""
        return self.doc.strip().splitlines()[0].strip()

    @property
    def bad_example(self) -> str:
        """The *Example* block of the docstring (text that triggers the rule)."""
        return self._examples().get("Example", "")

    @property
    def good_example(self) -> str:
        """The *Use instead* block (text that does not trigger the rule)."""
        return self._examples().get("Use instead", "")

    def _examples(self) -> dict[str, str]:
        import inspect
        doc = inspect.cleandoc(self.doc)
        return {m.group(1): _ESCAPE_RE.sub(lambda e: chr(int(e.group(1)[1:], 16)), m.group(2))
                for m in _EXAMPLE_RE.finditer(doc)}


def _rebuild(code, name, severity, since, scope, module) -> Rule:
    return Rule(code, name, severity, since, scope, module=module)


def _parts(mod: ModuleType) -> tuple:
    """``(doc, check, visits)`` of a rule module."""
    from fountain_audit.lint.dispatch import declared, whole_file_check
    visits = declared(mod)
    check = getattr(mod, "check", None) or whole_file_check(visits)
    return (mod.__doc__ or "", check, visits if not hasattr(mod, "check") else ())


def _load(mod: ModuleType) -> Rule:
    """The rule of an imported module, read from the module itself."""
    return Rule(mod.CODE, mod.NAME, mod.SEVERITY, mod.SINCE, frozenset(mod.SCOPE), *_parts(mod))


def all_rules() -> list[Rule]:
    """Every rule, in registry order (from :mod:`fountain_audit.lint.catalog`; a rule's module is
    imported when its ``doc``, ``check`` or ``visits`` is first read). New objects each call, so
    each reads its module's attributes as they are then."""
    if not _ROWS:
        from fountain_audit.lint.catalog import RULES
        _ROWS.extend((code, name, _SEVERITY[severity], since, frozenset(scope), module)
                     for module, code, name, severity, since, scope in RULES)
    return [Rule(code, name, severity, since, scope, module=module) for code, name, severity, since, scope, module in _ROWS]


_SEVERITY = {str(s): s for s in Severity}
_ROWS: list[tuple] = []  # the catalogue with severities and scopes as the rules hold them


SESSION_LIKE = ("session", "fragment")


def no_placement_to_judge(session) -> bool:
    """Whether the placement rules (P101, P102, P104, N104) leave ``session``'s notes alone: a
    fragment with no scene at all is a design-doc excerpt of notes, with no placement to judge.
    A headed session (title page or ``FADE IN:``) with notes and no scene is judged: its notes
    lie before any scene, where the recorder writes none (a heading spelt with a lookalike
    letter, ``ІNT.`` with a Cyrillic I, is action text, and the turn under it was all clear)."""
    return not session.scenes and session.kind != "session"


def scene_phrase(placement) -> str:
    """Where a note outside its home is, for messages: ``"before the first scene"``,
    ``"in a shell scene"``, ``"in a non-Harvey scene"``."""
    scene = placement.scene
    if scene is None:
        return "before the first scene"
    if scene.kind == "other":
        return "in a non-Harvey scene"
    return f"in {'an' if scene.kind[0] in 'aeiou' else 'a'} {scene.kind} scene"
ALL_KINDS = ("session", "fragment", "memory", "hand-off", "screenplay")


@record(frozen=True)
class RuleContext:
    """What a rule's ``check`` receives: the text, its Fountain AST and session model, and
    ``privacy_allow``: the ``[privacy] allow`` regexes of the configuration (compiled).

    A rule's ``prepare(ctx)`` receives one without the model (``document`` and ``session``
    ``None``): the linter runs it before parsing, and the values it computes through
    :meth:`secrets` and :meth:`memo` are carried into the context the checks receive
    (:meth:`with_model`)."""

    text: str
    document: "Document"
    session: "Session"
    privacy_allow: tuple = ()

    def __init__(self, text: str, document: "Document", session: "Session", privacy_allow: tuple = ()) -> None:
        put = object.__setattr__  # (a frozen record: see fountain_audit.records)
        put(self, "text", text)
        put(self, "document", document)
        put(self, "session", session)
        put(self, "privacy_allow", privacy_allow)

    def secrets(self) -> list:
        """The secrets in the text (:func:`fountain_audit.privacy.detect.find_secrets` with the
        allowlist), found once per file: V101 reports them and the linter masks them in every
        other rule's message."""
        cached = self.__dict__.get("_secrets")
        if cached is None:
            from fountain_audit.privacy.detect import find_secrets
            cached = find_secrets(self.text, self.privacy_allow, ascii_bytes=self.ascii_bytes(), folded=self.folded())
            object.__setattr__(self, "_secrets", cached)
        return cached

    def ascii_bytes(self) -> bytes:
        """The text as one byte per code point, each ASCII character as itself and every other
        one as a byte that is not ASCII (so an ASCII character or word is found at its code-point
        offset, at the speed of a bytes search): ``text.encode("latin-1")`` when every code
        point is below U+0100 (a copy at memory speed), else ``text.encode("ascii",
        "replace")`` (``?`` for the others, which no needle holds). Computed once per file (E102
        and the privacy scans read it) and dropped after the whole-file rules (see :meth:`release`)."""
        cached = self.__dict__.get("_ascii")
        if cached is None:
            try:
                cached = self.text.encode("latin-1")
            except UnicodeEncodeError:
                cached = self.text.encode("ascii", "replace")
            object.__setattr__(self, "_ascii", cached)
        return cached

    def folded(self):
        """:func:`fountain_audit.privacy.detect.folded` of the text, for the privacy scans
        (V101, V102: computed once for both; one byte per code point; dropped with
        :meth:`ascii_bytes`)."""
        cached = self.__dict__.get("_folded")
        if cached is None:
            from fountain_audit.privacy.detect import folded
            cached = folded(self.text, self.ascii_bytes())
            object.__setattr__(self, "_folded", cached)
        return cached

    def utf16_text(self) -> str | None:
        """The file's text decoded as UTF-16 when it is a UTF-16 file
        (:func:`fountain_audit.parse.source.utf16_text`), else ``None``; once per file. The
        privacy rules look there: the session model of such a file, read as UTF-8, is noise."""
        return self.memo("utf16", lambda ctx: _utf16_text(ctx.text))

    def memo(self, key: str, compute: Callable[["RuleContext"], Any]) -> Any:
        """``compute(self)``, computed once per file for ``key`` (a rule's ``prepare`` computes
        what needs only the text; its ``check`` reads it back)."""
        memos = self.__dict__.get("_memos")
        if memos is None:
            memos = {}
            object.__setattr__(self, "_memos", memos)
        if key not in memos:
            memos[key] = compute(self)
        return memos[key]

    def with_model(self, document: "Document", session: "Session") -> "RuleContext":
        """A context for the same text with its model, holding what this one computed (its
        :meth:`secrets` and :meth:`memo` values; not the byte forms, see :meth:`release`)."""
        out = RuleContext(self.text, document, session, self.privacy_allow)
        for key in ("_secrets", "_memos"):
            if key in self.__dict__:
                object.__setattr__(out, key, self.__dict__[key])
        return out

    def release(self, *, memos: bool = False) -> None:
        """Drop the byte forms of the text (:meth:`ascii_bytes`, :meth:`folded`: twice the
        text's length in bytes); read again, they are computed again. With ``memos``, also
        the :meth:`memo` values (the rules' ``prepare`` computes them for their ``check``;
        asked for again, they are computed again). The linter calls it once the whole-file
        rules have run, with ``memos``: the walk over notes, scenes and turns then has their
        memory (a home path found on every scene of a large file adds up)."""
        self.__dict__.pop("_ascii", None)
        self.__dict__.pop("_folded", None)
        if memos:
            self.__dict__.pop("_memos", None)

    def body_at(self, offset: int) -> int:
        """Index in ``document.body`` of the node holding the 0-based code-point ``offset`` of
        the text (binary search over the nodes' offsets), or ``-1`` before the first one."""
        return bisect_right(self.document.body, offset, key=_node_offset) - 1

    def record_of(self, node):
        """The :class:`~fountain_audit.parse.notes.NoteRecord` of a note node of the session
        (``session.notes``), else ``None`` (computed once per file)."""
        records = self.__dict__.get("_records")
        if records is None:
            notes = self.session.notes
            records = dict(zip(map(id, map(_node_of, notes)), notes))  # {id(r.node): r}, built in C
            object.__setattr__(self, "_records", records)
        return records.get(id(node))


_node_offset = attrgetter("offset")
_node_of = attrgetter("node")


def index_of(nodes: list, node) -> int:
    """Index of ``node`` in ``nodes`` (AST nodes in source order, e.g. ``document.body`` or a
    scene's ``nodes``), found by its offset (binary search); ``ValueError`` if absent."""
    k = bisect_right(nodes, node.offset, key=_node_offset) - 1
    if k >= 0 and nodes[k] is node:
        return k
    return next(j for j, n in enumerate(nodes) if n is node)  # not expected: nodes do not overlap


if TYPE_CHECKING:  # type names for RuleContext, without importing the parser at start-up
    from fountain_audit.model.session import Session
    from fountain_audit.parse.fountain import Document


#: A timestamp glued to what follows it (``2026-06-24 14:20:31Z``, ``… 14:20:31.123``,
#: ``… 14:20:31←x``): after a blank or an em dash, then no blank before the heading's end text.
_GLUED_TIMESTAMP_RE = lazy(r"(?<=[\s—])(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?)(?P<glued>\S.*?)\s*$",
                           re.ASCII)


def glued_timestamp(heading_text: str) -> re.Match[str] | None:
    """The last ``YYYY-MM-DD HH:MM[:SS]`` of a scene heading's text that is glued to more text up
    to the heading's end (groups ``ts`` and ``glued``: ``'2026-06-24 14:20:31'``, ``'Z'``), or
    ``None``. For a heading whose timestamp could not be read."""
    if ":" not in heading_text:
        return None
    last = None
    for m in _GLUED_TIMESTAMP_RE.finditer(heading_text):
        last = m
    return last


def heading_span(heading, start: int, end: int) -> tuple[int, int, int, int]:
    """``(line, column, end_line, end_column)`` of ``heading.text[start:end]`` (0-based code point
    indices into the heading's one line; the end exclusive), for a :class:`Finding`. A heading
    whose text is not its one line as written gives its whole span."""
    h = heading
    if h.end_line != h.line or h.end_column - h.column != len(h.text) or not 0 <= start <= end <= len(h.text):
        return h.line, h.column, h.end_line, h.end_column
    return h.line, h.column + start, h.line, h.column + end


def timestamp_span(heading, ts: str, annotation: str | None = None) -> tuple[int, int, int, int]:
    """:func:`heading_span` of the timestamp ``ts`` read from ``heading`` (the last occurrence before
    its ``annotation``, when it has one)."""
    text = heading.text
    stop = len(text)
    if annotation:
        first = annotation.split(None, 1)[0]
        found = text.rfind(first)
        stop = found if found >= 0 else stop
    at = text.rfind(ts, 0, stop)
    return heading_span(heading, at, at + len(ts)) if at >= 0 else heading_span(heading, -1, -1)


def annotation_span(heading, ts: str, annotation: str) -> tuple[int, int, int, int]:
    """:func:`heading_span` of the text after the timestamp ``ts`` of ``heading`` (its
    ``annotation``: trailing text, a ``← comment``), from its first to its last non-blank character."""
    _line, column, _end_line, end_column = timestamp_span(heading, ts, annotation)
    text = heading.text
    start = column - heading.column + len(ts) if end_column - column == len(ts) else -1
    if start < 0:
        return heading_span(heading, -1, -1)
    while start < len(text) and text[start].isspace():
        start += 1
    return heading_span(heading, start, len(text.rstrip()))

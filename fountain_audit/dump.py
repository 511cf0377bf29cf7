"""Typed dump records of a session file: tool calls, other notes, turns and the Fountain AST.

This is the layer under ``fountain-audit dump``. Records are dataclasses built from the
session model (:mod:`fountain_audit.model.session`) and the AST (:mod:`fountain_audit.parse.fountain`);
each has ``to_json()`` returning a JSON-ready ``dict`` in the shape described by the shipped
schemas (``schemas.load("dump")``, ``"turns"``, ``"ast"``).

>>> from fountain_audit.dump import dump_text
>>> for rec in dump_text(text, "a.spmd"):            # tool calls (the default shape)
...     print(rec.name, rec.arguments, rec.status)
>>> turns = list(dump_text(text, "a.spmd", shape="turns"))

The generators yield records lazily, one file at a time, in source order, so a caller can
stream them (``--format jsonl``) without holding every serialised record in memory.

Nothing is invented: a value the file does not contain is ``None`` (``null``). Scene
timestamps are given in ISO 8601 without a time zone (the file has none):
``2026-06-24 10:02:30`` → ``2026-06-24T10:02:30``, loose ``— 2026-07-03 19:15`` →
``2026-07-03T19:15``.

Output versioning: :data:`FORMAT_VERSION` is ``MAJOR.MINOR``; a minor change only adds fields.
"""

from __future__ import annotations

import bisect
import heapq
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from fountain_audit.parse.fountain import (Blank, Dialogue, Document, Node, Note, SceneHeading, Section, TitleEntry, TitlePage,
                       parse)
from fountain_audit.parse.notes import MEMORY_KINDS, NoteRecord
from fountain_audit.parse.source import json_safe, undecodable_bytes
from fountain_audit.model import actors
from fountain_audit.audit.provenance import session_provenance
from fountain_audit.privacy.detect import workspace_paths
from fountain_audit.privacy.redact import Redactor
from fountain_audit.model.ids import SessionIds, ids_of, node_id, scene_id, turn_id
from fountain_audit.model.names import upper_ascii
from fountain_audit.model.session import (PROSE_TOOL_CALL_RE, Scene, Session, Speech, Turn, build_session,
                                          inline_placements, iter_placements, placements, valid_timestamp)

#: Version of the dump output formats (``MAJOR.MINOR``; a minor change only adds fields).
#: 1.1: every record (and scene, speech) gained "id" (fountain_audit.model.ids);
#: 1.2: tool calls and speeches gained "actor_ref" (fountain_audit.model.actors); inline notes
#: (record kind "inline", AST "inline_note" children); AST problems' related_line/related_column.
#: 1.3: turns gained "provenance" (fountain_audit.audit.provenance).
#: 1.4: text is well-formed Unicode (an undecodable byte is U+FFFD, no longer a lone surrogate);
#: an "undecodable_bytes" record precedes the records of a file that has such bytes.
#: 1.5: a scene's "timestamp_form" can be "rfc3339": a hand-off heading's RFC 3339 label
#: (``INT. HAND-OFF - 2026-07-01T16:04:05Z``) is its "timestamp", as written (was a label with no time);
#: a turn's "provenance" gained "unreadable_notes" (provenance format 1.2): present only when the turn
#: holds a note lint reports as unreadable (N112, N113, N110, F101), whatever its basis.
FORMAT_VERSION = "1.5"

#: Output shapes: tool calls and other note records, turns, the Fountain AST.
SHAPES = ("dump", "turns", "ast")

#: ``--records`` names mapped to the note kinds (:attr:`NoteRecord.kind`) they select.
RECORD_KINDS: dict[str, frozenset[str]] = {
    "tool": frozenset({"tool"}),
    "rag": frozenset({"rag"}),
    "rag-source": frozenset({"rag-source"}),
    "recall": frozenset({"recall"}),
    "write": frozenset({"write"}),
    "shell": frozenset({"shell"}),
    "model-switch": frozenset({"model switch"}),
    "chunk": frozenset({"chunk"}),
    "chunk-result": frozenset({"chunk-result"}),
    "synthesis": frozenset({"synthesis"}),
    "memory-tool": MEMORY_KINDS,
    "confidence": frozenset({"confidence"}),
    "pipeline": frozenset({"pipeline-hidden", "pipeline-stop"}),
    "run": frozenset({"run"}),
    "stats": frozenset({"stats"}),
    "unknown": frozenset({"unknown"}),
    "inline": frozenset({"inline"}),
}
_RECORD_ALIASES = {"model switch": "model-switch", "model_switch": "model-switch", "memory": "memory-tool",
                   "memory_tool": "memory-tool", "rag_source": "rag-source", "chunk_result": "chunk-result",
                   "tools": "tool", "tool-call": "tool", "tool_call": "tool"}


def record_kinds(names: Iterable[str]) -> frozenset[str]:
    """Note kinds selected by ``--records`` names (``all`` selects every kind).

    Raises ``ValueError`` naming an unknown record kind.
    """
    kinds: set[str] = set()
    for raw in names:
        name = raw.strip().lower()
        if not name:
            continue
        if name == "all":
            kinds.update(k for v in RECORD_KINDS.values() for k in v)
            continue
        name = _RECORD_ALIASES.get(name, name)
        if name not in RECORD_KINDS:
            from fountain_audit.suggest import closest
            guess = closest(name, [*RECORD_KINDS, *_RECORD_ALIASES, "all"])
            hint = f"; did you mean {_RECORD_ALIASES.get(guess, guess)!r}?" if guess else ""
            raise ValueError(f"unknown record kind {raw.strip()!r}{hint} (choose from {', '.join(RECORD_KINDS)} or all)")
        kinds.update(RECORD_KINDS[name])
    return frozenset(kinds)


def iso_timestamp(ts: str | None) -> str | None:
    """``YYYY-MM-DD HH:MM[:SS]`` → ``YYYY-MM-DDTHH:MM[:SS]`` (no time zone is added); a hand-off's
    RFC 3339 time (``2026-07-01T16:04:05Z``) is already ISO 8601 and comes back as written."""
    return None if ts is None else ts.replace(" ", "T", 1)


# --------------------------------------------------------------------------- building blocks


@dataclass(frozen=True, slots=True)
class Span:
    """A source region: 1-based ``line``/``column`` (code points), exclusive end
    (``end_column`` is the column after the last character, terminator excluded),
    and 0-based code-point ``offset``/``end_offset`` (terminator included)."""

    line: int
    column: int
    end_line: int
    end_column: int
    offset: int
    end_offset: int

    @classmethod
    def of(cls, first: Node, last: Node | None = None) -> Span:
        last = first if last is None else last
        return cls(first.line, first.column, last.end_line, last.end_column, first.offset, last.end_offset)

    @classmethod
    def cover(cls, spans: Iterable[Span]) -> Span | None:
        spans = list(spans)
        if not spans:
            return None
        a = min(spans, key=lambda s: s.offset)
        b = max(spans, key=lambda s: s.end_offset)
        return cls(a.line, a.column, b.end_line, b.end_column, a.offset, b.end_offset)

    def to_json(self) -> dict[str, int]:
        return {"line": self.line, "column": self.column, "end_line": self.end_line,
                "end_column": self.end_column, "offset": self.offset, "end_offset": self.end_offset}


@dataclass(frozen=True, slots=True)
class SceneRef:
    """The scene a record belongs to: 0-based ``index``, ``kind`` (see
    :data:`fountain_audit.model.session.SCENE_KINDS`), the ``heading`` text, its ``timestamp`` in
    ISO 8601 without zone (a hand-off heading's RFC 3339 label as written, with its UTC offset:
    ``2026-07-01T16:04:05Z``; ``None`` when the heading has none, or one that names no real date
    and time) and ``timestamp_form`` (``"exact"``, ``"loose"``, ``"rfc3339"``, ``"invalid"`` for such an impossible
    one, e.g. ``2026-13-45 25:61:99``, kept as written in ``heading`` only, or ``None``); ``id`` its stable id (``s3``, see
    :mod:`fountain_audit.model.ids`)."""

    index: int
    kind: str
    heading: str
    line: int
    timestamp: str | None
    timestamp_form: str | None
    id: str = ""

    @classmethod
    def of(cls, scene: Scene) -> SceneRef:
        ts, form = scene.info.timestamp, scene.info.timestamp_form
        if ts is not None and not valid_timestamp(ts):
            ts, form = None, "invalid"
        return cls(scene.index, scene.kind, scene.heading.heading, scene.line,
                   iso_timestamp(ts), form, scene_id(scene.index))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "index": self.index, "kind": self.kind, "heading": self.heading, "line": self.line,
                "timestamp": self.timestamp, "timestamp_form": self.timestamp_form}


def _scene_json(scene: SceneRef | None) -> dict[str, Any] | None:
    return None if scene is None else scene.to_json()


# --------------------------------------------------------------------------- note records


@dataclass(slots=True)
class ToolCallRecord:
    """One tool call: a ``[[tool: NAME(ARGS) — STATUS]]`` / ``[[NAME.tool: ...]]`` note
    (``form="note"``) or a pre-v1.2 ``Harvey calls NAME: ARGS`` action line (``form="prose"``,
    which records no status: ``status`` is ``None``).

    ``arguments`` is the parsed JSON value when ``arguments_json`` is true, otherwise the raw
    argument text; ``arguments_strict_json`` is false when the JSON only parses leniently
    (raw control characters such as a newline inside a string). ``actor`` is the ``NAME.``
    prefix or ``"HARVEY"``. ``valid`` is false for a tool note that does not follow the
    syntax (``problem`` says why; name, arguments and status are then ``None``).
    ``id``: the call's stable id (``t3.tool2``, see :mod:`fountain_audit.model.ids`).
    ``actor_ref``: ``actor`` in the actor grammar as the file records it
    (:func:`fountain_audit.model.actors.of_tool_note`: ``HARVEY`` → ``tool:harvey``, the
    session's human → ``human:<name>``, a model of the session → ``agent:<name>``, a name the
    file does not identify → ``agent:unknown``): ``known_actor_ref`` when the record was made
    from its session (:func:`note_records`, :func:`turn_records`), else read from ``actor`` alone.
    """

    file: str
    scene: SceneRef | None
    turn: int | None
    phase: str | None
    span: Span
    actor: str
    name: str | None
    arguments: Any
    arguments_text: str | None
    arguments_json: bool
    arguments_strict_json: bool
    status: str | None
    error: str | None
    form: str = "note"
    valid: bool = True
    problem: str | None = None
    body: str = ""
    id: str | None = None
    known_actor_ref: str | None = None

    record = "tool_call"

    @property
    def actor_ref(self) -> str:
        """``known_actor_ref`` (the actor as the file records it), else ``actor`` read alone."""
        ref = self.known_actor_ref
        return ref if ref is not None else actors.format(actors.of_tool_note(self.actor))

    def to_json(self) -> dict[str, Any]:
        return {"record": self.record, "id": self.id, "file": self.file, "scene": _scene_json(self.scene),
                "turn": self.turn, "phase": self.phase, "span": self.span.to_json(), "actor": self.actor,
                "actor_ref": self.actor_ref, "name": self.name,
                "arguments": self.arguments, "arguments_json": self.arguments_json,
                "arguments_strict_json": self.arguments_strict_json, "arguments_text": self.arguments_text,
                "status": self.status, "error": self.error, "form": self.form, "valid": self.valid,
                "problem": self.problem, "body": self.body}


@dataclass(slots=True)
class NoteRecordOut:
    """Any other audit-trail note (RAG, recall, write, shell, model switch, chunk ...).

    ``kind`` is the note kind (:attr:`fountain_audit.parse.notes.NoteRecord.kind`: ``rag``,
    ``model switch``, ``add_memory`` ...), ``fields`` its typed values (see
    :func:`fountain_audit.parse.notes.parse_note`), ``body`` the note text between ``[[`` and ``]]``.
    ``valid``/``problem`` as for :class:`ToolCallRecord`; ``id`` the note's stable id
    (``t3.rag1``, ``s5.write2``, ``recall:ID``).
    """

    file: str
    kind: str
    scene: SceneRef | None
    turn: int | None
    phase: str | None
    span: Span
    fields: dict[str, Any]
    valid: bool
    problem: str | None
    body: str
    id: str | None = None

    record = "note"

    def to_json(self) -> dict[str, Any]:
        return {"record": self.record, "id": self.id, "file": self.file, "kind": self.kind, "scene": _scene_json(self.scene),
                "turn": self.turn, "phase": self.phase, "span": self.span.to_json(), "fields": self.fields,
                "valid": self.valid, "problem": self.problem, "body": self.body}


def _lenient_json(text: str) -> tuple[Any, bool, bool]:
    """``(value, is_json, strict)`` for prose tool-call arguments."""
    for strict in (True, False):
        try:
            return json.loads(text, strict=strict), True, strict
        except ValueError:
            continue
    return text, False, False


def _tool_from_note(file: str, rec: NoteRecord, scene: SceneRef | None, turn: int | None,
                    phase: str | None, ids: SessionIds, actor_of: actors.ToolNoteActors) -> ToolCallRecord:
    f = rec.fields
    span = Span.of(rec.node)
    ref = actor_of.ref(rec.actor)
    if not rec.valid:
        return ToolCallRecord(file, scene, turn, phase, span, rec.actor or "HARVEY", None, None, None, False, False,
                              None, None, "note", False, rec.error, rec.body, ids.of(rec), ref)
    is_json = bool(f.get("arguments_json"))
    return ToolCallRecord(file, scene, turn, phase, span, rec.actor or "HARVEY", f["name"],
                          f["arguments"] if is_json else f["arguments_text"], f["arguments_text"], is_json,
                          bool(f.get("arguments_strict_json")), f["status"], f["error"], "note", True, None, rec.body,
                          ids.of(rec), ref)


def _tool_from_prose(file: str, node: Node, scene: SceneRef, turn: int, phase: str | None,
                     ids: SessionIds) -> ToolCallRecord:
    m = PROSE_TOOL_CALL_RE.match(node.text)
    assert m is not None
    text = m.group("args")
    if text is None:
        value, is_json, strict = None, False, False
    else:
        value, is_json, strict = _lenient_json(text)
    return ToolCallRecord(file, scene, turn, phase, Span.of(node), "HARVEY", m.group("name"), value, text,
                          is_json, strict, None, None, "prose", True, None, node.text, ids.of(node))


def _note_out(file: str, rec: NoteRecord, scene: SceneRef | None, turn: int | None,
              phase: str | None, ids: SessionIds) -> NoteRecordOut:
    return NoteRecordOut(file, rec.kind, scene, turn, phase, Span.of(rec.node), _jsonable(rec.fields),
                         rec.valid, rec.error if not rec.valid else None, rec.body, ids.of(rec))


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


class _SceneRefs:
    """SceneRef per scene index, built once per session."""

    def __init__(self, session: Session):
        self._scenes = session.scenes
        self._refs: dict[int, SceneRef] = {}

    def __call__(self, scene: Scene | int | None) -> SceneRef | None:
        if scene is None:
            return None
        i = scene if isinstance(scene, int) else scene.index
        ref = self._refs.get(i)
        if ref is None:
            ref = self._refs[i] = SceneRef.of(self._scenes[i])
        return ref


def _prose_phase(turn: Turn, node: Node) -> str | None:
    off = node.offset
    if turn.reply is not None and turn.reply.dialogue.offset < off:
        return "after-reply"
    if turn.forwarding is not None and turn.forwarding.dialogue.offset < off:
        return "after-forwarding"
    if turn.user is not None and turn.user.dialogue.offset < off:
        return "after-user"
    return "before-user"


def note_records(session: Session, file: str, kinds: frozenset[str] = frozenset({"tool"}),
                 in_turns: bool = True, turn: int | None = None) -> Iterator[ToolCallRecord | NoteRecordOut]:
    """The notes of ``session`` whose kind is in ``kinds``, in source order.

    Tool notes (and, when ``"tool"`` is selected, pre-v1.2 prose tool calls) come out as
    :class:`ToolCallRecord`, every other note as :class:`NoteRecordOut`. ``in_turns=False``
    leaves out the notes of turns (and prose tool calls, which are always in a turn): what
    :func:`turn_records` does not already give. ``turn`` (a 0-based turn index): only that
    turn's notes (``show t3.tool2`` makes no record of the others).
    """
    refs = _SceneRefs(session)
    ids = ids_of(session)
    actor_of = actors.ToolNoteActors(session)
    prose: list[tuple[int, ToolCallRecord]] = []
    if "tool" in kinds and in_turns:
        for turn_ in session.turns if turn is None else session.turns[turn:turn + 1]:
            for node in turn_.prose_tool_calls:
                prose.append((node.offset, _tool_from_prose(file, node, refs(turn_.scene_index), turn_.index,
                                                            _prose_phase(turn_, node), ids)))
    k = 0
    notes = iter_placements(session)  # (made as they are written, not kept)
    if "inline" in kinds and inline_placements(session):  # inline notes, in source order among the others
        notes = heapq.merge(notes, inline_placements(session), key=lambda p: p.note.node.offset)
    for p in notes:
        rec = p.note
        if rec.kind not in kinds or (p.turn is not None and not in_turns) or (
                turn is not None and (p.turn is None or p.turn.index != turn)):
            continue
        while k < len(prose) and prose[k][0] < rec.node.offset:
            yield prose[k][1]
            k += 1
        scene = refs(p.scene)
        index = p.turn.index if p.turn is not None else None
        if rec.kind == "tool":
            yield _tool_from_note(file, rec, scene, index, p.phase, ids, actor_of)
        else:
            yield _note_out(file, rec, scene, index, p.phase, ids)
    for _, r in prose[k:]:
        yield r


def tool_calls(session: Session, file: str) -> Iterator[ToolCallRecord]:
    """Every tool call of ``session`` (notes and pre-v1.2 prose lines), in source order."""
    yield from note_records(session, file, frozenset({"tool"}))  # type: ignore[misc]


# --------------------------------------------------------------------------- turns


@dataclass(slots=True)
class SpeechOut:
    """What one character wrote: ``text`` exactly (blank lines, markdown, ``#`` or ``INT.``
    lines kept; ``\\n`` line ends; leading parentheticals and trailing blank lines excluded),
    the ``parentheticals`` under the cue, the raw ``cue`` line and ``truncated`` when the
    file ends inside it without a line break; ``id`` is ``t3.user``, ``t3.forwarding``,
    ``t3.reply`` or ``t3.action1``. ``actor_ref`` is who wrote it in the actor grammar
    (:func:`fountain_audit.model.actors.of_character`: ``human:margot``,
    ``agent:qwen2.5-coder``, ``tool:harvey`` ...)."""

    character: str
    actor_ref: str
    cue: str
    parentheticals: list[str]
    text: str
    span: Span
    truncated: bool
    id: str | None = None

    @classmethod
    def of(cls, sp: Speech, ids: SessionIds | None = None, humans: frozenset[str] = frozenset(),
           scene_kind: str | None = None, author: actors.Actor | None = None) -> SpeechOut:
        """``humans``/``scene_kind``/``author``: see :func:`fountain_audit.model.actors.of_character`."""
        last = next(n for n in reversed(sp.nodes) if not isinstance(n, Blank))
        text = sp.text
        ref = actors.format(actors.of_character(sp.character, humans=humans, scene_kind=scene_kind, text=text,
                                                author=author, parentheticals=sp.parentheticals))
        cue = sp.dialogue.part_text(0)  # the cue line, without its terminator (CR, LF or CRLF)
        cut, cr = cue.find("\n"), cue.find("\r")
        if cr >= 0 and (cut < 0 or cr < cut):
            cut = cr
        if cut >= 0:
            cue = cue[:cut]
        return cls(sp.character, ref, cue, sp.parentheticals, text, Span.of(sp.dialogue, last),
                   sp.truncated, None if ids is None else ids.of(sp))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "character": self.character, "actor_ref": self.actor_ref, "cue": self.cue,
                "parentheticals": self.parentheticals,
                "text": self.text, "span": self.span.to_json(), "truncated": self.truncated}


@dataclass(slots=True)
class TurnRecord:
    """One exchange, with what resuming or replaying the session needs.

    ``user``: the user's input; ``forwarding``: HARVEY's ``Forwarding to NAME.`` line and
    ``target`` the NAME; ``reply``: the answer (complete text). ``tool_calls`` in order;
    ``rag``: the RAG and rag-source notes for this turn; ``recall``: the recall notes in force
    (those of the last ``INT. CONTEXT RECALL`` scene before the turn's scene);
    ``model``: the scene description's ``Model:``; ``model_switch``: the last
    ``[[model switch:]]`` note before the turn; ``actions``: other speeches of the turn
    (HARVEY's write or memory-tool prompts and the user's answers); ``other_notes``: the
    turn's remaining notes; ``stats``: the stats line. ``complete`` is true when the turn
    has a reply the file does not cut off. Missing parts are ``None``. ``id`` is ``t<index+1>``.
    ``provenance``: the evidence recorded before the reply and its ``basis`` (the ``replies``
    entry of :func:`fountain_audit.audit.provenance.session_provenance`).
    """

    file: str
    index: int
    scene: SceneRef
    span: Span | None
    user: SpeechOut | None
    forwarding: SpeechOut | None
    target: str | None
    reply: SpeechOut | None
    complete: bool
    tool_calls: list[ToolCallRecord]
    rag: list[NoteRecordOut]
    recall: list[NoteRecordOut]
    model: str | None
    model_switch: NoteRecordOut | None
    actions: list[SpeechOut]
    other_notes: list[NoteRecordOut]
    stats: str | None
    id: str = ""
    provenance: dict[str, Any] | None = None

    record = "turn"

    def to_json(self) -> dict[str, Any]:
        sp = (lambda s: None if s is None else s.to_json())
        return {"record": self.record, "id": self.id, "file": self.file, "index": self.index, "scene": self.scene.to_json(),
                "span": sp(self.span), "user": sp(self.user), "forwarding": sp(self.forwarding),
                "target": self.target, "reply": sp(self.reply), "complete": self.complete,
                "tool_calls": [t.to_json() for t in self.tool_calls], "rag": [n.to_json() for n in self.rag],
                "recall": [n.to_json() for n in self.recall], "model": self.model,
                "model_switch": sp(self.model_switch), "actions": [a.to_json() for a in self.actions],
                "other_notes": [n.to_json() for n in self.other_notes], "stats": self.stats,
                "provenance": self.provenance}


def _node_offset(node: Node) -> int:
    return node.offset


def _node_end_offset(node: Node) -> int:
    return node.end_offset


def turn_records(session: Session, file: str, only: int | None = None) -> Iterator[TurnRecord]:
    """Every turn of ``session`` in order (several per scene when the scene holds several
    exchanges; turns without user input or without reply too); with ``only`` (a 0-based turn
    index), that turn's record alone (none when there is no such turn)."""
    refs = _SceneRefs(session)
    ids = ids_of(session)
    provenance = session_provenance(session, file)["replies"]
    recall_scenes = [s for s in session.scenes if s.kind == "context-recall"]
    recall_idx = [s.index for s in recall_scenes]
    recall_cache: dict[int, list[NoteRecordOut]] = {}
    switches = [p for p in placements(session) if p.note.kind == "model switch"]
    switch_offsets = [p.note.node.offset for p in switches]
    switch_cache: dict[int, NoteRecordOut] = {}
    humans = actors.humans_of(session)
    actor_of = actors.ToolNoteActors(session, humans)
    for turn in session.turns if only is None else session.turns[only:only + 1] if only >= 0 else ():
        scene = session.scenes[turn.scene_index]
        ref = refs(scene)
        parts: list[Node] = []
        for sp in (turn.user, turn.forwarding, turn.reply, *turn.actions):
            if sp is not None:
                parts.extend(n for n in sp.nodes if not isinstance(n, Blank))
        parts.extend(r.node for _, r in turn.notes)
        parts.extend(turn.prose_tool_calls)
        if turn.stats is not None:
            parts.append(turn.stats)
        span = None  # the cover of the parts: first by start offset, last by end offset
        if parts:
            span = Span.of(min(parts, key=_node_offset), max(parts, key=_node_end_offset))
        start = span.offset if span is not None else scene.heading.offset
        k = bisect.bisect_left(recall_idx, turn.scene_index) - 1
        recall: list[NoteRecordOut] = []
        if k >= 0:
            rs = recall_scenes[k]
            if rs.index not in recall_cache:
                recall_cache[rs.index] = [_note_out(file, r, refs(rs), None, None, ids) for r in rs.notes
                                          if r.kind == "recall"]
            recall = recall_cache[rs.index]
        j = bisect.bisect_left(switch_offsets, start) - 1
        switch = None
        if j >= 0:
            if j not in switch_cache:  # one record per switch, shared by the turns it is in force for
                p = switches[j]
                switch_cache[j] = _note_out(file, p.note, refs(p.scene), p.turn.index if p.turn else None, p.phase,
                                            ids)
            switch = switch_cache[j]
        tools: list[tuple[int, ToolCallRecord]] = []
        rag: list[NoteRecordOut] = []
        other: list[NoteRecordOut] = []
        for phase, rec in turn.notes:
            if rec.kind == "tool":
                tools.append((rec.node.offset, _tool_from_note(file, rec, ref, turn.index, phase, ids, actor_of)))
            elif rec.kind in ("rag", "rag-source"):
                rag.append(_note_out(file, rec, ref, turn.index, phase, ids))
            else:
                other.append(_note_out(file, rec, ref, turn.index, phase, ids))
        for node in turn.prose_tool_calls:
            tools.append((node.offset, _tool_from_prose(file, node, ref, turn.index, _prose_phase(turn, node), ids)))
        tools.sort(key=lambda t: t[0])
        out = (lambda s: None if s is None else SpeechOut.of(s, ids, humans, scene.kind))
        yield TurnRecord(file, turn.index, ref, span, out(turn.user), out(turn.forwarding), turn.target,
                         out(turn.reply), turn.complete, [t for _, t in tools], rag, recall, scene.model, switch,
                         [SpeechOut.of(a, ids, humans, scene.kind) for a in turn.actions], other,
                         turn.stats.text if turn.stats is not None else None, turn_id(turn.index),
                         provenance[turn.index])


# --------------------------------------------------------------------------- AST


@dataclass(slots=True)
class TokenOut:
    """One line token of a node: its line class (``ACTION``, ``CHARACTER``, ``DIALOGUE``,
    ``PARENTHETICAL``, ``NOTE``, ``BLANK`` ...), span and exact text (terminator included)."""

    type: str
    span: Span
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "span": self.span.to_json(), "text": self.text}


@dataclass(slots=True)
class AstNodeRecord:
    """A Fountain AST node: ``type`` (``title_page``, ``title_entry``, ``scene_heading``,
    ``action``, ``dialogue``, ``note``, ``blank`` ...), ``span``, exact ``text``, its line
    ``tokens``, type-specific ``attributes`` and (for the title page) ``children``.
    ``index`` is the position among the document's top-level children (among the title page's
    entries for its ``children``); ``id`` is ``n<index+1>`` (``n1.2`` for a title-page entry)."""

    file: str
    index: int
    type: str
    span: Span
    text: str
    tokens: list[TokenOut]
    attributes: dict[str, Any] = field(default_factory=dict)
    children: list[AstNodeRecord] = field(default_factory=list)
    id: str = ""

    record = "node"

    def to_json(self) -> dict[str, Any]:
        return {"record": self.record, "id": self.id, "file": self.file, "index": self.index, "type": self.type,
                "span": self.span.to_json(), "text": self.text, "attributes": self.attributes,
                "tokens": [t.to_json() for t in self.tokens], "children": [c.to_json() for c in self.children]}


@dataclass(slots=True)
class AstDocumentRecord:
    """The root of a file's AST; its children follow as :class:`AstNodeRecord` records.
    ``problems`` are the lexer's syntax problems (unclosed notes and boneyards)."""

    file: str
    span: Span | None
    node_count: int
    problems: list[dict[str, Any]]
    id: str = "doc"

    record = "document"

    def to_json(self) -> dict[str, Any]:
        return {"record": self.record, "id": self.id, "file": self.file, "span": None if self.span is None else self.span.to_json(),
                "node_count": self.node_count, "problems": self.problems}


def _attributes(node: Node) -> dict[str, Any]:
    if isinstance(node, TitleEntry):
        return {"key": node.key, "value": node.value}
    if isinstance(node, SceneHeading):
        return {"heading": node.heading, "scene_number": node.scene_number, "forced": node.forced}
    if isinstance(node, Dialogue):
        return {"character": node.character, "extensions": node.extensions, "dual": node.dual,
                "forced": node.forced, "parentheticals": node.parentheticals}
    if isinstance(node, Note):
        return {"body": node.body}
    if isinstance(node, Section):
        return {"depth": node.depth}
    if isinstance(node, Blank):
        return {"count": node.count}
    return {}


def _ast_node(file: str, index: int, node: Node, parent: int | None = None) -> AstNodeRecord:
    toks = [TokenOut(t.type, Span(t.line, t.column, t.end_line, t.end_column, t.start_pos, t.end_pos), str(t))
            for t in node.tokens]
    if isinstance(node, TitlePage):
        children = [_ast_node(file, i, e, index) for i, e in enumerate(node.entries)]
    else:  # inline notes (``MAYA [[she whispers]]``) are the children of the element carrying them
        children = [_ast_node(file, i, e, index) for i, e in enumerate(node.inline_notes)]
    ident = node_id(index) if parent is None else node_id(parent, index)
    return AstNodeRecord(file, index, node.type, Span.of(node), node.render(), toks, _attributes(node), children,
                         ident)


def ast_node_record(document: Document, file: str, index: int) -> AstNodeRecord | None:
    """The record of ``document``'s top-level node ``index`` (0-based), as :func:`ast_records`
    gives it, or ``None`` when there is none (one node's, without building the others)."""
    kids = document.children
    return _ast_node(file, index, kids[index]) if 0 <= index < len(kids) else None


def ast_records(document: Document, file: str) -> Iterator[AstDocumentRecord | AstNodeRecord]:
    """A ``document`` record, then each top-level node of ``document`` in order."""
    kids = document.children
    span = Span.cover(Span.of(n) for n in (kids[:1] + kids[-1:])) if kids else None
    yield AstDocumentRecord(file, span, len(kids), [
        {"kind": p.kind, "message": p.message, "line": p.line, "column": p.column, "offset": p.offset,
         "related_line": p.related_line, "related_column": p.related_column}
        for p in document.problems])
    for i, node in enumerate(kids):
        yield _ast_node(file, i, node)


# --------------------------------------------------------------------------- undecodable bytes


@dataclass(slots=True)
class UndecodableBytesRecord:
    """The bytes of ``file`` that are not UTF-8: in JSON every text field carries one U+FFFD
    per such byte, and this record says where the raw bytes are. ``runs``: one entry per run
    of consecutive undecodable bytes (:func:`fountain_audit.parse.source.undecodable_bytes`:
    ``byte_offset``, ``length``, ``hex``, and ``offset``/``line``/``column`` in span units).
    ``fountain-audit dump`` writes it just before the file's first record, only when the file
    has such bytes and yields a record (:func:`dump_session` does not yield it: in memory the
    text is exact)."""

    file: str
    runs: list[dict[str, Any]]

    record = "undecodable_bytes"

    def to_json(self) -> dict[str, Any]:
        return {"record": self.record, "file": self.file, "runs": self.runs}


def undecodable_record(text: str, file: str) -> UndecodableBytesRecord | None:
    """The :class:`UndecodableBytesRecord` of ``text`` (as read from ``file``), or ``None``
    when it is valid UTF-8."""
    runs = undecodable_bytes(text)
    return UndecodableBytesRecord(file, runs) if runs else None


# --------------------------------------------------------------------------- filters, redaction


#: The statuses the recorder writes: tool calls, chunk results and syntheses ``ok``/``error``;
#: writes also ``skipped``/``aborted``; memory-tool notes ``ok``, ``archived`` (delete_memory).
#: Open-ended: a memory-tool or legacy ``[[run:]]`` note's status is the free text after its last
#: `` — ``, so ``--status`` accepts any value and only warns about one outside this list.
KNOWN_STATUSES = ("ok", "error", "skipped", "aborted", "archived")


@dataclass(frozen=True, slots=True)
class Filters:
    """Record filters (empty = no filter). ``tools``, ``statuses`` and ``actors`` concern tool
    calls: in the ``dump`` shape they keep only tool calls that match (``statuses`` also
    matches the ``status`` field of other notes); in the ``turns`` shape they keep turns with
    at least one matching tool call. ``scene_kinds`` keeps records of scenes of those kinds.
    An actor is a name as written (``HARVEY``, the ``NAME.`` of ``[[NAME.tool:]]``) or its
    ``actor_ref`` (``tool:harvey``, ``agent:devstral``); both compare case-insensitively."""

    tools: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()
    actors: frozenset[str] = frozenset()
    scene_kinds: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.tools or self.statuses or self.actors or self.scene_kinds)

    def _tool_ok(self, t: ToolCallRecord) -> bool:
        return (not self.tools or t.name in self.tools) and (not self.statuses or t.status in self.statuses) \
            and (not self.actors or upper_ascii(t.actor) in {upper_ascii(a) for a in self.actors}
                 or t.actor_ref.lower() in {a.lower() for a in self.actors})

    def _scene_ok(self, scene: SceneRef | None) -> bool:
        return not self.scene_kinds or (scene is not None and scene.kind in self.scene_kinds)

    def keep(self, rec: Any) -> bool:
        if isinstance(rec, ToolCallRecord):
            return self._scene_ok(rec.scene) and self._tool_ok(rec)
        if isinstance(rec, NoteRecordOut):
            if self.tools or self.actors:
                return False
            return self._scene_ok(rec.scene) and (not self.statuses or rec.fields.get("status") in self.statuses)
        if isinstance(rec, TurnRecord):
            if not self._scene_ok(rec.scene):
                return False
            if self.tools or self.statuses or self.actors:
                return any(self._tool_ok(t) for t in rec.tool_calls)
            return True
        return True


#: The session's ``Workspace:`` paths; the redaction layer lives in :mod:`fountain_audit.privacy`.
workspaces = workspace_paths


# --------------------------------------------------------------------------- entry points


def dump_session(session: Session, file: str, shape: str = "dump",
                 kinds: frozenset[str] = frozenset({"tool"}), filters: Filters = Filters()) -> Iterator[Any]:
    """Records of one session: ``shape="dump"``: note records of ``kinds`` (tool calls by
    default); ``"turns"``: :class:`TurnRecord`; ``"ast"``: the AST of ``session.document``.
    (The ``dump`` command writes an :class:`UndecodableBytesRecord` before them when the file
    has bytes that are not UTF-8.) For note records, the session's ids keep only the last
    scenes' names from then on (:meth:`~fountain_audit.model.ids.SessionIds.keep_last`)."""
    if shape == "ast":
        yield from ast_records(session.document, file)
        return
    if shape == "turns":
        recs: Iterator[Any] = turn_records(session, file)  # (reads the session's provenance, which names
    else:                                                   # objects of every scene first: all names kept)
        # Note records come scene after scene: the ids of the scenes already written are not kept.
        ids_of(session).keep_last(8)
        recs = note_records(session, file, kinds)
    for r in recs:
        if not filters or filters.keep(r):
            yield r


def dump_text(text: str, file: str = "<string>", shape: str = "dump",
              kinds: frozenset[str] = frozenset({"tool"}), filters: Filters = Filters()) -> Iterator[Any]:
    """Parse ``text`` and yield its records (see :func:`dump_session`)."""
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}")
    if shape == "ast":
        yield from ast_records(parse(text), file)
        return
    yield from dump_session(build_session(parse(text)), file, shape, kinds, filters)


# --------------------------------------------------------------------------- JSON output

def encode_json(value: Any, indent: int | None = None) -> str:
    """JSON text for ``value``, well-formed Unicode (non-ASCII kept, ready to write as UTF-8):
    each undecodable input byte (a lone surrogate from ``surrogateescape``), in a value or a
    key, is written as U+FFFD (:func:`fountain_audit.parse.source.well_formed`), which strict
    consumers (JavaScript, Go, Rust) accept, and what a terminal acts on (C1 controls, bidi
    controls) as ``\\uNNNN`` escapes (:func:`~fountain_audit.parse.source.json_safe`). Where
    the raw bytes were is reported apart (:class:`UndecodableBytesRecord`,
    ``"undecodable_bytes"`` fields). With ``indent``, containers deeper than
    :data:`INDENTED_DEPTH` are written on one line (linear output for deeply nested values)."""
    if indent is None:
        return json_safe(json.dumps(value, ensure_ascii=False))
    from fountain_audit.reporters.json_text import dumps
    return json_safe(dumps(value, indent, flat_from=INDENTED_DEPTH))


#: Indented JSON outputs indent this many levels; deeper containers (a tool call's JSON arguments
#: nested deeper) are written on one line: the text stays linear in the input, where per-level
#: indentation made arguments nested N deep cost N squared (950 levels: 367 MB of show output).
INDENTED_DEPTH = 24


def redaction_note(redactor: Redactor) -> dict:
    """``{"secrets": bool, "paths": bool, "spans": "original"}``: what a redacted output had
    replaced, and that its spans (lines, columns, offsets) still count positions in the
    original file, not in the redacted text."""
    return {"secrets": redactor.secrets, "paths": redactor.paths, "spans": "original"}


def _mask_split_secrets(rec: "AstNodeRecord", obj: dict[str, Any], redactor: Redactor) -> None:
    """A node's tokens are redacted one by one, so a secret that spans tokens (a private key
    block read as a character cue and its dialogue) would reach the output in pieces that no
    detector recognises: find the replacements in the node's whole text and, for each one that
    spans several tokens, write the placeholder in its first token and drop the secret's text
    from the others (their line ends kept, so each token keeps its lines). ``obj`` is the
    redacted ``rec.to_json()``; changed in place, title-page entries included."""
    for child, child_obj in zip(rec.children, obj.get("children", [])):
        _mask_split_secrets(child, child_obj, redactor)
    if len(rec.tokens) < 2:
        return
    reps = [r for r in redactor.replacements(rec.text) if r.what == "secret"]
    bounds, at = [], 0
    for t in rec.tokens:
        bounds.append((at, at + len(t.text)))
        at += len(t.text)
    for r in reps:
        hit = [k for k, (a, b) in enumerate(bounds) if a < r.end and r.start < b]
        if len(hit) < 2:
            continue
        for n, k in enumerate(hit):
            a, b = bounds[k]
            raw = rec.tokens[k].text
            lo, hi = max(a, r.start) - a, min(b, r.end) - a
            gone = raw[lo:hi]
            kept = "\n" * (gone.count("\n") + gone.count("\r") - gone.count("\r\n"))
            piece = (r.new if n == 0 else "") + kept
            obj["tokens"][k]["text"] = redactor.text(raw[:lo]) + piece + redactor.text(raw[hi:])


class JsonWriter:
    """Writes records to ``out`` as they come.

    ``fmt="jsonl"``: one record per line, each carrying ``format_version``.
    ``fmt="json"``: one document ``{"format_version", "shape", "records": [...], "files",
    "errors"}``, written incrementally (one record per line inside ``records``).

    With a ``redactor`` that replaces anything, every string goes through it and the output
    says so: the document (``json``) or each record (``jsonl``) gains ``"redaction"``
    (:func:`redaction_note`): what was replaced, and that spans are positions in the original file.
    """

    def __init__(self, out: TextIO, fmt: str, shape: str, redactor: Redactor | None = None):
        self.out, self.fmt, self.shape = out, fmt, shape
        self.redact = redactor if redactor is not None else Redactor(secrets=False, paths=False)
        self.note = redaction_note(self.redact) if self.redact else None
        self.count = 0
        if fmt == "json":
            head = f'"redaction": {encode_json(self.note)}, ' if self.note else ""
            out.write(f'{{"format_version": "{FORMAT_VERSION}", "shape": "{shape}", {head}"records": [')

    def write(self, rec: Any) -> None:
        obj = self.redact(rec.to_json())
        if self.redact and isinstance(rec, AstNodeRecord):
            _mask_split_secrets(rec, obj, self.redact)
        if self.fmt == "jsonl":
            obj = {"format_version": FORMAT_VERSION, **({"redaction": self.note} if self.note else {}), **obj}
            self.out.write(encode_json(obj) + "\n")
        else:
            self.out.write(("\n" if self.count == 0 else ",\n") + encode_json(obj))
        self.count += 1

    def close(self, files: list[str], errors: list[str]) -> None:
        if self.fmt == "json":
            self.out.write(("\n" if self.count else "") + "],\n" + '"files": ' + encode_json(self.redact(files))
                           + ', "errors": ' + encode_json(self.redact(errors)) + "}\n")
        self.out.flush()

"""Stable ids for everything a session file records: scenes, turns, speeches, notes, lines.

An id names one element of one file; ``dump`` prints it (the ``id`` field of every record)
and ``show`` reopens it. The grammar (:data:`ID_RE`), numbers 1-based, in file order:

========================  ==============================================================
``s3``                    scene 3 (scene headings in file order); ``s0`` is everything
                          before the first scene heading (title page, ``FADE IN:``)
``end``                   the end marker (``THE END.``) and whatever follows it
``t3``                    turn 3, counted over the whole session (the numbering of the
                          text formats; ``dump --turns`` has the 0-based ``index`` 2)
``t3.user``               the user's input of turn 3; also ``t3.forwarding`` (HARVEY's
                          forwarding line), ``t3.reply``, ``t3.stats``, ``t3.action2``
``t3.tool2``              the 2nd tool call of turn 3 (``[[tool:]]`` notes and pre-v1.2
                          ``Harvey calls`` lines together, in file order)
``t3.rag1``               the 1st note of group ``rag`` in turn 3; groups are the
                          ``dump --records`` names: ``tool``, ``rag``, ``rag-source``,
                          ``recall``, ``write``, ``shell``, ``model-switch``, ``chunk``,
                          ``chunk-result``, ``synthesis``, ``memory-tool``, ``confidence``,
                          ``pipeline``, ``run``, ``stats``, ``unknown``, ``inline``
                          (inline notes: ``t3.inline1``, ``s2.inline1``)
``s5.write2``             a note of scene 5 outside any turn (``s0.model-switch1``: before
                          the first scene)
``recall:ID``             the recall note with the recorded id ``ID``
                          (``recall:workspace_profile_8c41d2``); a second note with the
                          same recorded id is ``recall:ID#2`` (``#3``, … past an id an
                          earlier note took; in file order, so a note added later never
                          renames an earlier one); a recall note whose id
                          cannot be read keeps its positional id (``s1.recall3``)
``n4``, ``n2.3``          AST node 4 (top-level, 1-based; ``dump --ast`` ``index`` 3);
                          ``n2.3`` the 3rd title-page entry; ``doc`` the whole file
``L120``                  line 120
========================  ==============================================================

What changes an id: a scene, turn or AST node id changes only when a scene, turn or node is
added or removed *before* it; a note id ``t3.tool2`` only when a note of the same group is
added or removed before it in the same turn (edits to other turns, to reply text or to notes
of other groups leave it alone); ``recall:ID`` only when the recorded id is edited; ``L120``
with any line added or removed above it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from typing import Any

from fountain_audit.model.session import Scene, Session, Speech, Turn, _in_scene_order, inline_placements
from fountain_audit.parse.fountain import Note
from fountain_audit.parse.notes import MEMORY_KINDS, NoteRecord

#: The id grammar (see the module docstring).
ID_RE = re.compile(
    r"^(?:(?P<scene>s\d+)|(?P<end>end)|(?P<turn>t\d+)|(?P<node>n\d+(?:\.\d+)?)|(?P<doc>doc)|(?P<line>L\d+)"
    r"|(?P<recall>recall:.+))"
    r"\Z|^(?P<owner>s\d+|t\d+|end)\.(?P<part>user|forwarding|reply|stats|(?P<group>[a-z]+(?:-[a-z]+)*)(?P<k>\d+))\Z",
    re.ASCII)

#: Note groups (``dump --records`` names) for note kinds that are not their own group.
_GROUP_OF_KIND = {"model switch": "model-switch", "pipeline-hidden": "pipeline", "pipeline-stop": "pipeline",
                  **{k: "memory-tool" for k in MEMORY_KINDS}}
#: Every note group, in the order the README lists them.
GROUPS = ("tool", "rag", "rag-source", "recall", "write", "shell", "model-switch", "chunk", "chunk-result",
          "synthesis", "memory-tool", "confidence", "pipeline", "run", "stats", "unknown", "inline")


def note_group(kind: str) -> str:
    """The id group of a note kind: ``"model switch"`` → ``"model-switch"``,
    ``"add_memory"`` → ``"memory-tool"``, ``"rag"`` → ``"rag"``."""
    return _GROUP_OF_KIND.get(kind, kind)


class SessionIds:
    """The ids of one session's scenes, turns, speeches and notes (see :func:`ids_of`). Lookups
    take the model objects themselves and return ``None`` for an object that is not part of
    this session.

    A session as :func:`~fountain_audit.model.session.build_session` makes it (notes in scene
    order) is named one scene at a time, when an object of that scene is first looked up (the
    scene is found from the object's offset), and the names are kept; after
    :meth:`keep_last`, only the last few scenes' names are kept, so that a dump, which asks
    scene after scene, does not hold a name for every object of the file. Recall and inline
    notes, named across scenes, are named at once. Any other session is named all at once."""

    def __init__(self, session: Session):
        self._session = session
        self._kept: int | None = None  # how many scenes' names are kept (None: all)
        self._tables: dict[int, dict[int, str]] = {}  # scene position (-1: before, len: end) -> names
        self._last: dict[int, str] = {}  # the names of the scene last looked up in
        self._by_scene = _in_scene_order(session) and all(
            a.heading.offset < b.heading.offset for a, b in zip(session.scenes, session.scenes[1:]))
        if not self._by_scene:
            self._ids, self.recall_notes = _all_ids(session)
            return
        self._starts = [s.heading.offset for s in session.scenes]
        self._end = session.epilogue[0].offset if session.epilogue else None
        self._ids = {}
        self.recall_notes = []
        _name_across_scenes(session, self._ids, self.recall_notes,
                            lambda turn: turn_id(turn.index), lambda scene: scene_id(scene.index))

    def of(self, obj: Scene | Turn | Speech | NoteRecord | Any) -> str | None:
        """The id of a scene, turn, speech, note record, stats line or prose tool-call
        node of this session, or ``None``."""
        found = self._ids.get(id(obj))
        if found is not None or not self._by_scene:
            return found
        found = self._last.get(id(obj))  # (callers ask for the objects of one scene after another)
        if found is not None:
            return found
        scenes = self._session.scenes
        if isinstance(obj, Scene):
            return scene_id(obj.index) if 0 <= obj.index < len(scenes) and scenes[obj.index] is obj else None
        if isinstance(obj, Turn):
            k = obj.scene_index
            if not (isinstance(k, int) and 0 <= k < len(scenes)):
                return None
        else:
            if isinstance(obj, Speech):
                at = obj.dialogue.offset
            elif isinstance(obj, NoteRecord):
                at = obj.node.offset
            else:
                at = getattr(obj, "offset", None)
                if not isinstance(at, int):
                    return None
            k = len(scenes) if self._end is not None and at >= self._end else bisect_right(self._starts, at) - 1
        table = self._last = self._table(k)
        return table.get(id(obj))

    def keep_last(self, scenes: int) -> None:
        """From now on keep the names of the ``scenes`` scenes last used (at least 1), not all:
        for a caller that looks objects up scene after scene, once (a scene asked again after
        others is named again: same names, more time)."""
        self._kept = max(1, scenes)
        while len(self._tables) > self._kept:
            del self._tables[next(iter(self._tables))]

    def _table(self, k: int) -> dict[int, str]:
        """The names of scene position ``k``'s objects (``-1``: before the first scene;
        ``len(scenes)``: the end marker and after)."""
        tables = self._tables
        table = tables.get(k)
        if table is None:
            if self._kept is not None and len(tables) >= self._kept:
                del tables[next(iter(tables))]  # the least recently used
            table = tables[k] = _scene_ids(self._session, k)
        elif self._kept is not None:
            tables[k] = tables.pop(k)  # (now the most recently used)
        return table


def _scene_ids(session: Session, k: int) -> dict[int, str]:
    """``{id(obj): name}`` for the objects of scene position ``k`` of a session in scene order:
    its turns, their speeches, stats lines, notes and prose tool calls, and its notes outside
    turns (``-1``: the notes before the first scene, ``s0``; ``len(scenes)``: those of the end)."""
    scenes = session.scenes
    out: dict[int, str] = {}
    if 0 <= k < len(scenes):
        scene = scenes[k]
        owner = scene_id(scene.index)
        in_turns: set[int] = set()
        for turn in scene.turns:
            _name_turn(turn, out, in_turns)
        loose = [r for r in scene.notes if id(r) not in in_turns]
    else:
        before = sum(1 for n in session.prologue if isinstance(n, Note))
        if k < 0:
            owner, loose = "s0", session.notes[:before]
        else:
            owner = "end"
            loose = session.notes[before + sum(len(s.notes) for s in scenes):]
    count: Counter[str] = Counter()
    for rec in loose:
        group = note_group(rec.kind)
        count[group] += 1
        out[id(rec)] = f"{owner}.{group}{count[group]}"
    return out


def _name_turn(turn: Turn, out: dict[int, str], in_turns: set[int]) -> None:
    """Name ``turn``, its speeches, stats line, notes and prose tool calls into ``out``; the
    ids of its notes and prose tool calls go into ``in_turns``."""
    tid = turn_id(turn.index)
    out[id(turn)] = tid
    for part in ("user", "forwarding", "reply"):
        sp = getattr(turn, part)
        if sp is not None:
            out[id(sp)] = f"{tid}.{part}"
    for k, sp in enumerate(turn.actions, 1):
        out[id(sp)] = f"{tid}.action{k}"
    if turn.stats is not None:
        out[id(turn.stats)] = f"{tid}.stats"
    items: list[tuple[int, str, Any]] = [(r.node.offset, note_group(r.kind), r) for _, r in turn.notes]
    items += [(n.offset, "tool", n) for n in turn.prose_tool_calls]
    items.sort(key=lambda t: t[0])
    count: Counter[str] = Counter()
    for _, group, obj in items:
        count[group] += 1
        out[id(obj)] = f"{tid}.{group}{count[group]}"
        in_turns.add(id(obj))


def _name_across_scenes(session: Session, ids: dict[int, str], recall_notes: list[NoteRecord],
                        turn_name, scene_name) -> None:
    """Name the inline notes (counted per turn, else scene, else ``s0`` / ``end``) and the recall
    notes (by their recorded id, counted over the session) into ``ids``; the recall notes go
    into ``recall_notes``. ``turn_name(turn)`` and ``scene_name(scene)`` give those ids."""
    inline: Counter[str] = Counter()
    for p in inline_placements(session):  # notes inside lines: by turn, else scene, else s0 / end
        if p.turn is not None:
            owner = turn_name(p.turn)
        elif p.scene is not None:
            owner = scene_name(p.scene)
        else:
            owner = "end" if session.epilogue and p.note.node.offset >= session.epilogue[0].offset else "s0"
        inline[owner] += 1
        ids[id(p.note)] = f"{owner}.inline{inline[owner]}"
    recalls = [rec for rec in session.notes if rec.kind == "recall" and rec.valid and rec.fields.get("id")]
    # named in file order, each by its recorded id, else (taken by an earlier note) by the id and
    # the next free `#k`: a note added later (sessions grow at the end) never renames an earlier one,
    # even one whose recorded id is a generated name (`[[recall: dup#2 …]]` after two `dup`s is dup#2#2)
    taken: set[str] = set()
    nxt: dict[str, int] = {}
    for rec in recalls:
        rid = rec.fields["id"]
        name = rid
        if name in taken:
            k = nxt.get(rid, 2)
            while f"{rid}#{k}" in taken:
                k += 1
            nxt[rid] = k + 1  # (the next duplicate goes on from here)
            name = f"{rid}#{k}"
        taken.add(name)
        ids[id(rec)] = f"recall:{name}"
        recall_notes.append(rec)


def _all_ids(session: Session) -> tuple[dict[int, str], list[NoteRecord]]:
    """``({id(obj): name}, recall notes)`` for every object of ``session`` at once (any session)."""
    ids: dict[int, str] = {}
    recall_notes: list[NoteRecord] = []
    for scene in session.scenes:
        ids[id(scene)] = f"s{scene.index + 1}"
    in_turns: set[int] = set()
    for turn in session.turns:
        _name_turn(turn, ids, in_turns)
    prologue = {id(n) for n in session.prologue}
    epilogue = {id(n) for n in session.epilogue}
    scene_notes = {id(r): s for s in session.scenes for r in s.notes}
    loose: dict[str, list[NoteRecord]] = {}
    for rec in session.notes:
        if id(rec) in in_turns:
            continue
        if id(rec.node) in prologue:
            owner = "s0"
        elif id(rec.node) in epilogue:
            owner = "end"
        else:
            scene = scene_notes.get(id(rec))
            owner = ids[id(scene)] if scene is not None else "s0"
        loose.setdefault(owner, []).append(rec)
    for owner, recs in loose.items():
        count: Counter[str] = Counter()
        for rec in recs:
            group = note_group(rec.kind)
            count[group] += 1
            ids[id(rec)] = f"{owner}.{group}{count[group]}"
    _name_across_scenes(session, ids, recall_notes, lambda turn: ids[id(turn)], lambda scene: ids[id(scene)])
    return ids, recall_notes


def ids_of(session: Session) -> SessionIds:
    """The :class:`SessionIds` of ``session`` (computed on first use, then kept)."""
    if session._ids is None:
        session._ids = SessionIds(session)
    return session._ids


def scene_id(index: int) -> str:
    """``s<index+1>`` for a 0-based scene index."""
    return f"s{index + 1}"


def turn_id(index: int) -> str:
    """``t<index+1>`` for a 0-based turn index."""
    return f"t{index + 1}"


def node_id(index: int, child: int | None = None) -> str:
    """``n<index+1>`` (``n<index+1>.<child+1>`` for a title-page entry) for 0-based indexes."""
    return f"n{index + 1}" if child is None else f"n{index + 1}.{child + 1}"

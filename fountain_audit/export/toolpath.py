"""Sessions as a toolpath document: one Graph, one Path per session, kind
``agent-coding-session`` v1.2.0 (https://toolpath.net/kinds/agent-coding-session/v1.2.0/).

Steps, in file order, each the child of the one before (``parents``), ``head`` the last:

* one ``conversation.append`` step per speech of a turn (the user's input, HARVEY's
  forwarding line, the reply, HARVEY's prompts and the user's answers): ``role``
  (``user``, ``assistant``, ``system`` for the harness, ``tool``), the exact ``text``, the
  step ``actor`` (:mod:`fountain_audit.model.actors`) and the speech's id (``t3.reply``);
* the turn's tool notes become ``tool_uses`` on a step of the actor the file records for each
  call (``actor_ref``, as ``dump`` and the OTLP spans give it): the reply step holds the calls
  of the reply's actor; each other run of consecutive calls by one actor is a
  ``conversation.append`` step of that actor (id the first call's, ``t3.tool1``; ``text``
  empty), in file order, so that no call is given to an actor the file does not say made it
  (a ``[[tool:]]`` note is the harness's, ``[[MARGOT.tool:]]`` the user's). In a turn without
  reply, the turn's other notes are on a step of the recorder's (``t3.notes``). Each
  ``toolUse``: ``actor`` (also in an event), id ``t3.tool1``, ``name``,
  ``input``: the parsed JSON arguments, or the raw text when they are not JSON,
  ``category`` from the tool's name, ``result`` with ``is_error`` from the note's status and
  ``content`` the status text it records (``ok``, or the error: the file records no tool
  output, and the schema requires ``content`` beside ``is_error``);
  no ``result`` when the file records no status); the stats line's token counts become the
  reply step's ``token_usage`` (only where the file records them);
* each ``[[write:]]`` note becomes a ``file.write`` step keyed by the written path
  (``operation`` ``write`` for ``ok``, else the recorded status);
* each scene without turns (shell, agent mode, skill, chunk analysis, context recall,
  memory, other) becomes a ``conversation.event`` step with ``entry_type`` = the scene kind
  (its notes in ``notes``, its tool notes also as ``tool_uses``), and each note outside every turn in a turn scene (or before the first scene) a
  ``conversation.event`` step with ``entry_type`` = the note group; these steps and the
  ``file.write`` steps are the recorder's (:func:`fountain_audit.model.actors.recorder`:
  ``tool:harvey`` in a Harvey file, the title page's author in a plain screenplay).

Step timestamps are the scene headings' (:mod:`fountain_audit.export.timing`); a step whose
scene has none says where its time comes from in ``meta.timestamp_from``.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Callable

from fountain_audit.dump import NoteRecordOut, SpeechOut, ToolCallRecord, TurnRecord
from fountain_audit.export.common import (PIECES_MARK, PRODUCER, SessionExport, encoded_pieces, notes_by_scene,
                                          tool_category)
from fountain_audit.export.timing import When, offset_text
from fountain_audit.model import actors
from fountain_audit.model.ids import note_group, scene_id
from fountain_audit.model.names import upper_ascii
from fountain_audit.model.session import TURN_KINDS
from fountain_audit.parse.source import undecodable_bytes
from fountain_audit.privacy.detect import uri_path

if TYPE_CHECKING:
    from fountain_audit.privacy.redact import Redactor

KIND = "https://toolpath.net/kinds/agent-coding-session/v1.2.0"
SOURCE = "harvey"
_ROLES = {"human": "user", "agent": "assistant"}


def _role(actor_ref: str) -> str:
    a = actors.parse(actor_ref)
    if a.prefix in _ROLES:
        return _ROLES[a.prefix]
    return "system" if a == actors.HARVEY else "tool"


def tool_use(call: ToolCallRecord) -> dict[str, Any]:
    """A ``toolUse`` of the kind schema from a tool-call record, with the call's ``actor`` as the
    file records it (``tool:harvey`` for a ``[[tool:]]`` note; an extra the kind allows)."""
    use: dict[str, Any] = {"id": call.id, "name": call.name if call.name is not None else "",
                           "input": call.arguments, "category": tool_category(call.name), "actor": call.actor_ref}
    if call.status is not None:
        use["result"] = {"content": (call.error or "") if call.status == "error" else "ok",
                         "is_error": call.status == "error"}
    if not call.valid:
        use["problem"] = call.problem
    return use


class _PathBuilder:
    """The steps of one session's Path, chained in order. ``emit`` turns each step (a dict)
    into what :meth:`build` returns for it: the dict itself (:func:`graph_of`) or its JSON
    text, made at once (:func:`graph_text`)."""

    def __init__(self, sx: SessionExport, path_id: str, emit: Callable[[dict[str, Any]], Any] | None = None):
        self.sx = sx
        self.artifact = f"harvey://{path_id}"
        self.emit = emit
        self.steps: list[Any] = []
        self.last_id: str | None = None  # the id of the step made last (the next one's parent, the head)
        self.used: dict[str, set[str]] = {}   # actor ref → original names
        self.models: dict[str, dict[str, str]] = {}
        self.files_changed: list[str] = []

    def actor(self, ref: str, name: str) -> str:
        self.used.setdefault(ref, set()).add(name)
        return ref

    def recorder(self) -> str:
        """The actor of a step with no character of its own (:attr:`SessionExport.recorder`)."""
        return self.actor(str(self.sx.recorder), self.sx.recorder_name)

    def step(self, sid: str, actor: str, when: When, change: dict[str, Any], meta: dict[str, Any] | None = None
             ) -> dict[str, Any]:
        ident: dict[str, Any] = {"id": sid, "actor": actor, "timestamp": when.iso()}
        if self.steps:
            ident = {"id": sid, "parents": [self.last_id], "actor": actor, "timestamp": when.iso()}
        st: dict[str, Any] = {"step": ident, "change": change}
        st["meta"] = {"timestamp_from": when.source, **(meta or {})}
        self.steps.append(st if self.emit is None else self.emit(st))
        self.last_id = sid
        return st

    def append(self, sid: str, actor: str, when: When, structural: dict[str, Any], meta: dict[str, Any]) -> None:
        self.step(sid, actor, when, {self.artifact: {"structural": {"type": "conversation.append", **structural}}},
                  meta)

    def event(self, sid: str, when: When, entry_type: str, data: dict[str, Any]) -> None:
        structural = {"type": "conversation.event", "entry_type": entry_type, "event_source_id": sid, **data}
        self.step(sid, self.recorder(), when, {self.artifact: {"structural": structural}})

    def write(self, note: NoteRecordOut, when: When) -> None:
        f = note.fields
        path = f.get("path") if note.valid else None
        if not path:
            self.event(note.id, when, note_group(note.kind), {"note": _note(note)})
            return
        status = f.get("status") or ""
        structural = {"type": "file.write", "operation": "write" if status == "ok" else status or "unknown",
                      "status": status}
        if f.get("detail"):
            structural["detail"] = f["detail"]
        if status == "ok" and path not in self.files_changed:
            self.files_changed.append(path)
        self.step(note.id, self.recorder(), when, {path: {"structural": structural}},
                  {"source_note": note.body})

    def turn(self, t: TurnRecord, when: When) -> None:
        """The steps of one turn, in file order (by the first line each records): a step per
        speech, one per run of tool calls by one actor (consecutive, no other step between) and one
        per ``[[write:]]`` note. A run of the reply's actor's calls right before the reply (no other
        step between) is the reply step's ``tool_uses``; its calls before another actor's step
        are a run of their own. The turn's other notes ride on the reply step, or, when the file
        records no reply, on a step of the recorder's (``t3.notes``) after the others."""
        parts: list[tuple[int, Any]] = [(s.span.offset, s) for s in (t.user, t.forwarding, t.reply, *t.actions)
                                        if s is not None]
        parts += [(c.span.offset, c) for c in t.tool_calls]
        parts += [(n.span.offset, n) for n in t.other_notes if n.kind == "write"]
        parts.sort(key=_first)
        items: list[SpeechOut | NoteRecordOut | list[ToolCallRecord]] = []  # speeches, writes, runs of calls
        for _, part in parts:
            if isinstance(part, ToolCallRecord):
                if items and isinstance(items[-1], list) and items[-1][0].actor_ref == part.actor_ref:
                    items[-1].append(part)
                else:
                    items.append([part])
            else:
                items.append(part)
        others = [_note(n) for n in t.other_notes if n.kind != "write"]
        reply_ref = t.reply.actor_ref if t.reply is not None else None
        for k, item in enumerate(items):
            if isinstance(item, list):
                if item[0].actor_ref == reply_ref and k + 1 < len(items) and items[k + 1] is t.reply:
                    continue  # (the reply step's tool_uses)
                self.calls(item, when, {"reply": "not recorded"} if t.reply is None else {})
            elif isinstance(item, NoteRecordOut):
                self.write(item, when)
            else:
                before = items[k - 1] if k else None
                tools = before if item is t.reply and isinstance(before, list) and before[0].actor_ref == reply_ref \
                    else []
                self.speech(t, item, when, others if item is t.reply else [], tools)
        if t.reply is None and others:  # the turn's notes are the recorder's (no model step to carry them)
            self.append(f"{t.id}.notes", self.recorder(), when, {"role": _role(str(self.sx.recorder)), "text": "",
                                                                 "notes": others}, {"reply": "not recorded"})

    def speech(self, t: TurnRecord, sp: SpeechOut, when: When, notes: list[dict[str, Any]],
               tools: list[ToolCallRecord] = ()) -> None:
        """The ``conversation.append`` step of one speech of ``t``; the reply's also holds the
        calls of its actor right before it (``tools``, as ``tool_uses``), the turn's token counts,
        workspace and ``notes``."""
        structural: dict[str, Any] = {"role": _role(sp.actor_ref), "text": sp.text}
        meta: dict[str, Any] = {"character": sp.character}
        if sp is t.user and t.rag:
            structural["context"] = [_note(n) for n in t.rag]
        if sp is t.reply:
            if tools:
                structural["tool_uses"] = [self.tool_use(c) for c in tools]
            stats = self.sx.stats(t)
            if stats is not None and (stats.reply_tokens is not None or stats.context_tokens is not None):
                structural["token_usage"] = {"input_tokens": stats.context_tokens,
                                             "output_tokens": stats.reply_tokens}
            ws = self.sx.session.scenes[t.scene.index].workspace
            if ws:
                structural["environment"] = {"working_dir": ws}
            if notes:
                structural["notes"] = notes
            client = self.sx.client(t)
            if sp.actor_ref.startswith("agent:") and client.model and client.provider:
                self.models.setdefault(sp.actor_ref, {"model": client.model, **(
                    {"provider": client.provider} if client.provider else {})})
            elif not sp.actor_ref.startswith("agent:") and client.model:
                # a reply under HARVEY's cue: the actor stays who the file says spoke (never
                # the model, and no agent actor is made up); the turn's model goes on the step
                meta["model"] = client.model
                if client.provider:
                    meta["provider"] = client.provider
        self.append(sp.id, self.actor(sp.actor_ref, sp.character), when, structural, meta)

    def calls(self, calls: list[ToolCallRecord], when: When, meta: dict[str, Any]) -> None:
        """One ``conversation.append`` step for tool calls of one actor (``calls``, not empty), as
        the file records it (``[[tool:]]``: the harness's, ``[[NAME.tool:]]``: NAME's): that
        actor's step, with its ``role``, no ``text`` and the calls as ``tool_uses``; its id is
        the first call's (``t3.tool2``)."""
        first = calls[0]
        structural = {"role": _role(first.actor_ref), "text": "", "tool_uses": [self.tool_use(c) for c in calls]}
        self.append(first.id, self.call_actor(first), when, structural, {"character": first.actor, **meta})

    def call_actor(self, call: ToolCallRecord) -> str:
        """The actor string of ``call`` (its ``actor_ref``), named in ``meta.actors`` by the
        prefix the note writes, upper-cased as a cue is (``[[margot.tool:]]``: ``MARGOT``)."""
        return self.actor(call.actor_ref, upper_ascii(call.actor.strip()))

    def tool_use(self, call: ToolCallRecord) -> dict[str, Any]:
        """:func:`tool_use` of ``call``, its actor counted among the document's actors."""
        self.call_actor(call)
        return tool_use(call)

    def scene_event(self, index: int, when: When, notes: list) -> None:
        scene = self.sx.session.scenes[index]
        humans = self.sx.humans
        speeches = []
        for sp in scene.speeches:
            out = SpeechOut.of(sp, None, humans, scene.kind, self.sx.author)
            who = self.sx.recorder_name if self.sx.author is not None else sp.character  # (a screenplay's: its author's)
            speeches.append({"actor": self.actor(out.actor_ref, who), "character": sp.character,
                             "parentheticals": out.parentheticals, "text": out.text})
        data: dict[str, Any] = {"heading": scene.heading.heading}
        if scene.description:
            data["description"] = scene.description_text
        if speeches:
            data["speeches"] = speeches
        kept = [n for n in notes if not _is_write(n)]
        if kept:
            data["notes"] = [_note(n) for n in kept]
        calls = [self.tool_use(n) for n in kept if isinstance(n, ToolCallRecord)]
        if calls:  # a tool note in a scene without turns (a shell, a skill ...): its parsed call too
            data["tool_uses"] = calls
        self.event(scene_id(index), when, scene.kind, data)
        for n in notes:
            if _is_write(n):
                self.write(n, when)

    def build(self) -> list[dict[str, Any]]:
        sx = self.sx
        loose = notes_by_scene(sx.loose_notes)
        turns: dict[int, list[TurnRecord]] = {}
        for t in sx.turns:
            turns.setdefault(t.scene.index, []).append(t)
        for n in loose.get(None, []):
            if not n.id.startswith("end."):
                self._loose(n, sx.times.first)
        for scene in sx.session.scenes:
            when = sx.times.of(scene.index)
            notes = loose.get(scene.index, [])
            if scene.kind in TURN_KINDS or scene.index in turns:
                for t in turns.get(scene.index, []):
                    self.turn(t, when)
                for n in notes:
                    self._loose(n, when)
            else:
                self.scene_event(scene.index, when, notes)
        for n in loose.get(None, []):
            if n.id.startswith("end."):
                self._loose(n, sx.times.last)
        if not self.steps:  # nothing recorded but a title page: one event says what the file is
            self.event("doc", sx.times.first, "session", {"title": dict(sx.session.title),
                                                          "session_kind": sx.session.kind})
        return self.steps

    def _loose(self, n: NoteRecordOut | ToolCallRecord, when: When) -> None:
        if _is_write(n):
            self.write(n, when)
        elif isinstance(n, ToolCallRecord):
            self.event(n.id, when, "tool", {"tool_use": self.tool_use(n), "note": n.body})
        else:
            self.event(n.id, when, note_group(n.kind), {"note": _note(n)})


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]


def _is_write(n: NoteRecordOut | ToolCallRecord) -> bool:
    """A ``[[write:]]`` note (a tool note is a :class:`ToolCallRecord`, which has no ``kind``)."""
    return isinstance(n, NoteRecordOut) and n.kind == "write"


def _note(n: NoteRecordOut | ToolCallRecord) -> dict[str, Any]:
    if isinstance(n, ToolCallRecord):
        return {"id": n.id, "kind": "tool", "body": n.body}
    out: dict[str, Any] = {"id": n.id, "kind": n.kind, "body": n.body, "fields": n.fields}
    if not n.valid:
        out["problem"] = n.problem
    return out


def path_of(sx: SessionExport, path_id: str, emit: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    """The toolpath Path of one session (``path_id``: its id in the Graph); each step as
    ``emit`` gives it (see :class:`_PathBuilder`)."""
    b = _PathBuilder(sx, path_id, emit)
    steps = b.build()
    actor_defs: dict[str, dict[str, str]] = {}
    for ref in sorted(b.used):
        names = sorted(b.used[ref])  # several only when the ref is lossy (agent:unknown, human:user)
        d: dict[str, str] = {"name": "HARVEY" if ref == str(actors.HARVEY) else ", ".join(names)}
        d.update(b.models.get(ref, {}))
        actor_defs[ref] = d
    title = sx.session.title.get("Title", "").strip()
    meta: dict[str, Any] = {
        "title": f"{title}: {sx.name}" if title else sx.name,
        "kind": KIND,
        "source": SOURCE,
        "producer": dict(PRODUCER),
        "actors": actor_defs,
        "files_changed": b.files_changed,
        "harvey": {"file": sx.name, "sha256": sx.digest, "session_kind": sx.session.kind,
                   "timestamps": {"from": "scene headings" if sx.times.first.source != "fallback"
                                  else "fallback (--fallback-time)",
                                  "utc_offset": offset_text(sx.clock.zone),
                                  "utc_offset_recorded": sx.times.offsets_recorded}},
    }
    runs = undecodable_bytes(sx.text)
    if runs:  # the text fields carry U+FFFD for these bytes
        meta["harvey"]["undecodable_bytes"] = runs
    ident: dict[str, Any] = {"id": path_id, "head": b.last_id}
    ws = [s.workspace for s in sx.session.scenes if s.workspace]
    if ws:
        path = uri_path(ws[0].strip())  # (percent-encoded: `my proj` is no URI; redaction knows this spelling)
        ident = {"id": path_id, "base": {"uri": ("file://" if path.startswith("/") else "file:") + path},
                 "head": b.last_id}
    return {"path": ident, "steps": steps, "meta": meta}


def graph_of(sessions: list[SessionExport], emit: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    """One toolpath Graph holding one Path per session, in the order given (each step as
    ``emit`` gives it: see :class:`_PathBuilder`).

    Path ids are ``harvey-`` and the first 16 hex digits of the file's SHA-256 (``-2``,
    ``-3`` ... for a repeated file); the graph id is derived from the path ids, so the same
    files give the same document.
    """
    paths = []
    seen: dict[str, int] = {}
    for sx in sessions:
        pid = f"harvey-{sx.digest[:16]}"
        seen[pid] = seen.get(pid, 0) + 1
        if seen[pid] > 1:
            pid = f"{pid}-{seen[pid]}"
        paths.append(path_of(sx, pid, emit))
    gid = hashlib.sha256("\n".join(p["path"]["id"] for p in paths).encode()).hexdigest()[:16]
    meta: dict[str, Any] = {"title": f"Harvey sessions ({len(paths)})" if len(paths) != 1
                            else paths[0]["meta"]["title"], "producer": dict(PRODUCER)}
    return {"graph": {"id": f"graph-{gid}"}, "paths": paths, "meta": meta}


#: How deep a step sits in the Graph (``paths`` 1, a Path 2, its ``steps`` 3).
_STEP_LEVEL = 4


def graph_text(sessions: list[SessionExport], redactor: Redactor | None = None) -> list[bytes]:
    """The text :func:`fountain_audit.export.render` gives for :func:`graph_of`'s document
    (``redactor`` applied) as UTF-8, the same bytes, in pieces: each step is redacted and
    encoded as it is made, never all held as Python objects (as
    :func:`fountain_audit.export.otlp.request_text`)."""
    from fountain_audit.dump import INDENTED_DEPTH
    from fountain_audit.parse.source import json_safe
    from fountain_audit.reporters.json_text import Encoded, dumps

    def emit(step: dict[str, Any]) -> bytes:
        value = step if redactor is None else redactor(step)
        return json_safe(dumps(value, 2, _STEP_LEVEL, flat_from=INDENTED_DEPTH)).encode("utf-8")

    doc = graph_of(sessions, emit)
    texts = []
    for path in doc["paths"]:  # the rest of the Graph with a mark where each Path's steps go
        if path["steps"]:  # (never empty: a file with nothing recorded has one event)
            texts.append(path["steps"])
            path["steps"] = Encoded([PIECES_MARK])
    return encoded_pieces(doc, texts, _STEP_LEVEL, redactor)

"""Provenance per reply: the evidence a session file records before each reply, in its turn.

:func:`session_provenance` reads the session model (never the text) and returns, JSON-ready:

* ``session``: the recorder era the file shows (``era``) and the first marker of each form
  that decided it (``markers``);
* ``recall``: each ``INT. CONTEXT RECALL`` scene with its recall items and its ``scope`` (the
  turns it is in force for: up to the next recall scene) — reported once, session-wide;
* ``model_switches``: each ``[[model switch:]]`` note with its scope (the turns after it, up
  to the next switch);
* ``replies``: one entry per turn: its ``reply`` id, ``basis``, ``basis_reason``, ``route``,
  ``model``, the ``rag`` notes (each with its ``[[rag-source:]]`` sources), the ``tools`` called
  (notes and pre-v1.2 prose lines), ``other_notes``, all recorded in the turn *before* the
  reply; and, by id only, the ``recall`` scene and ``model_switch`` in force. Evidence is
  never copied from one turn to another: notes after a reply (memory tools written for the
  next turn, ``[[write:]]``) are not evidence for it, and session-wide state is referenced.

``basis`` is decided from what the file contains:

* ``recorded``: the turn has an evidence note (``[[tool:]]``, ``[[rag:]]``, ``[[rag-source:]]``)
  before its reply;
* ``unknown``: otherwise, when the file cannot tell: the turn holds a pre-v1.2 form (a prose
  ``Harvey calls`` line, a ``[[stats:]]`` note, a ``(forwarding to X)`` parenthetical, a
  ``Routing to``/``Answered by`` line); the turn is a remote route (``EXT.``) or a pipeline step,
  for which the recorder writes no evidence notes; or the session shows no v1.2 marker (or
  shows pre-v1.2 forms too);
* ``unreadable-note``: as ``none-recorded`` below, but the turn (between its scene heading, or
  the previous reply in the scene, and its reply) holds a note that could not be read as one:
  lint reports it (misspelt kind N112, disguised kind N113, note inside text N110, unclosed
  note F101). The file
  then cannot tell whether a tool was used; the reason names the line and the rule;
* ``none-recorded``: otherwise: the session is v1.2+ (it has a v1.2 marker — a tool, RAG,
  rag-source, recall, chunk, synthesis or memory-tool note, an ``INT. CONTEXT RECALL`` scene,
  an ``EXT.`` scene with ``Harvey routing to`` — and no pre-v1.2 form), and since v1.2 the
  recorder writes a note whenever a tool or retrieval was used, so none was.

Whatever the basis, a reply whose turn holds such an unreadable note (the lint findings that
decide ``unreadable-note``) lists them in ``unreadable_notes`` (id, line, column, lint code and
name; absent when there is none): a ``recorded`` turn with a ``[[tol: …]]`` beside its
``[[tool: …]]`` keeps its basis (a filter on ``basis == "recorded"`` keeps working) and says
that its evidence list may be incomplete.

Source: harvey-recorder-inventory.md §0 (epochs: cf4aa0d v1.2 notes replace prose tool calls;
b45c946 stats note → action; 3c20df3 v0 forwarding parenthetical), §6–§7 (which notes each
scene kind gets; EXT and pipeline scenes get none).
"""

from __future__ import annotations

import bisect
import json
from typing import Any

from fountain_audit.model.ids import ids_of
from fountain_audit.model.session import (PROSE_TOOL_CALL_RE, Scene, Session, Speech, Turn, _FORWARD_V0_RE,
                                          _ROUTE_STEP_RE, inline_placements, placements)
from fountain_audit.parse.fountain import Action, Blank, Node
from fountain_audit.parse.notes import MEMORY_KINDS, NoteRecord
from fountain_audit.parse.source import undecodable_bytes

#: Version of the ``provenance --format json`` document.
#: 1.1: text is well-formed Unicode (an undecodable byte is U+FFFD); ``undecodable_bytes``.
#: 1.2: a reply gained ``unreadable_notes`` (present only when its turn holds a note lint reports as
#: unreadable, whatever the basis: a ``recorded`` turn's evidence list can be incomplete).
FORMAT_VERSION = "1.2"
BASES = ("recorded", "none-recorded", "unreadable-note", "unknown")

#: The lint rules that report a note Harvey's readers (and ours) cannot read as an audit record:
#: a misspelt kind (N112), a kind disguised by an invisible or look-alike character (N113), a note
#: glued into a dialogue or action block (N110), a note not closed (F101). Such a note in a turn is
#: not "no tool was used": basis ``unreadable-note``.
UNREADABLE_NOTE_RULES = ("F101", "N110", "N112", "N113")

_V12_NOTES = {"tool": "[[tool:]] note", "rag": "[[rag:]] note", "rag-source": "[[rag-source:]] note",
              "recall": "[[recall:]] note", "chunk": "[[chunk:]] note", "chunk-result": "[[chunk-result:]] note",
              "synthesis": "[[synthesis:]] note", **{k: f"[[{k}:]] note" for k in MEMORY_KINDS}}
_EVIDENCE = frozenset({"tool", "rag", "rag-source"})
_SUMMARY_MAX = 80


def _span(first: Node, last: Node | None = None) -> dict[str, int]:
    last = first if last is None else last
    return {"line": first.line, "column": first.column, "end_line": last.end_line, "end_column": last.end_column,
            "offset": first.offset, "end_offset": last.end_offset}


def _speech_span(sp: Speech) -> dict[str, int]:
    return _span(sp.dialogue, [n for n in sp.nodes if not isinstance(n, Blank)][-1])


def arguments_summary(value: Any, is_json: bool, limit: int = _SUMMARY_MAX) -> str | None:
    """A one-line summary of tool-call arguments: ``key=value`` pairs (JSON values) for an
    object, the compact JSON otherwise, the raw text when not JSON; cut to at most ``limit``
    characters, at a space or JSON punctuation (never inside a word), with ``…``. ``None``
    when the call has no arguments."""
    if value is None or value == "" or value == {}:
        return None if value in (None, "") else ""
    if is_json and isinstance(value, dict):
        text = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in value.items())
    elif is_json:
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = str(value)
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    # Cut at a separator, never inside a word: half a token (a secret cut short) no longer
    # matches the detectors that --redact runs on the summary, and would leak its prefix.
    head = text[:limit - 1]
    cut = max(head.rfind(c) for c in ' ",:=[]{}')
    return head[:cut + 1].rstrip() + "…" if cut >= 0 else "…"


class _Era:
    """What the file shows of its recorder's era: v1.2 markers and pre-v1.2 forms."""

    def __init__(self, session: Session):
        ids = ids_of(session)
        self.markers: list[dict[str, Any]] = []
        #: turn index → the pre-v1.2 forms of that turn (:func:`_old_forms`), found once here
        self.old_forms: dict[int, list[tuple[str, str | None, int]]] = {}
        seen: set[str] = set()

        def mark(form: str, era: str, ident: str | None, line: int) -> None:
            if form not in seen:
                seen.add(form)
                self.markers.append({"form": form, "era": era, "id": ident, "line": line})

        found: list[tuple[int, str, str, str | None]] = []
        for rec in session.notes:
            if rec.kind in _V12_NOTES:
                found.append((rec.line, _V12_NOTES[rec.kind], "v1.2+", ids.of(rec)))
            elif rec.kind in ("stats", "run"):
                found.append((rec.line, f"[[{rec.kind}:]] note", "pre-v1.2", ids.of(rec)))
        for scene in session.scenes:
            if scene.kind == "context-recall":
                found.append((scene.line, "INT. CONTEXT RECALL scene", "v1.2+", ids.of(scene)))
            elif scene.kind == "ext-chat" and scene.routing is not None:
                found.append((scene.line, "EXT. scene with 'Harvey routing to'", "v1.2+", ids.of(scene)))
            for turn in scene.turns:
                forms = self.old_forms[turn.index] = _old_forms(turn, ids)
                for form, ident, line in forms:
                    found.append((line, form, "pre-v1.2", ident))
        for line, form, era, ident in sorted(found, key=lambda f: f[0]):
            mark(form, era, ident, line)
        eras = {m["era"] for m in self.markers}
        self.era = ("mixed" if len(eras) == 2 else eras.pop()) if eras else "undetermined"


def _old_forms(turn: Turn, ids) -> list[tuple[str, str | None, int]]:
    """The pre-v1.2 forms a turn holds: ``(form, id, line)``."""
    out = [("prose tool call 'Harvey calls'", ids.of(n), n.line) for n in turn.prose_tool_calls]
    out += [("[[stats:]] note", ids.of(r), r.line) for _, r in turn.notes if r.kind == "stats"]
    if turn.forwarding is not None and turn.forwarding.parentheticals and \
            _FORWARD_V0_RE.match(turn.forwarding.parentheticals[0]):
        out.append(("'(forwarding to X)' parenthetical", ids.of(turn.forwarding), turn.forwarding.line))
    if turn.reply is not None:
        for n in turn.reply.continuation:
            if isinstance(n, Action) and _ROUTE_STEP_RE.match(n.text.strip()):
                out.append(("'Routing to'/'Answered by' line", None, n.line))
    return out


def _rag_entry(rec: NoteRecord, ids) -> dict[str, Any]:
    f = rec.fields if rec.valid else {}
    return {"id": ids.of(rec), "span": _span(rec.node), "store": f.get("store"), "chunks": f.get("chunks"),
            "top_score": f.get("top_score"), "valid": rec.valid, "phase": None, "sources": []}


def _source_entry(rec: NoteRecord, ids) -> dict[str, Any]:
    f = rec.fields if rec.valid else {}
    return {"id": ids.of(rec), "span": _span(rec.node), "source": f.get("source"), "title": f.get("title"),
            "doi": f.get("doi"), "url": f.get("url"), "valid": rec.valid}


def _tool_entry(rec: NoteRecord, phase: str, ids) -> dict[str, Any]:
    f = rec.fields if rec.valid else {}
    is_json = bool(f.get("arguments_json"))
    args = f.get("arguments") if is_json else f.get("arguments_text")
    return {"id": ids.of(rec), "span": _span(rec.node), "form": "note", "phase": phase,
            "actor": rec.actor or "HARVEY", "name": f.get("name"), "arguments": args,
            "arguments_summary": arguments_summary(args, is_json) if rec.valid else None,
            "status": f.get("status"), "error": f.get("error"), "valid": rec.valid}


def _prose_entry(node: Action, ids) -> dict[str, Any]:
    m = PROSE_TOOL_CALL_RE.match(node.text)
    text = m.group("args") if m else None
    try:
        value, is_json = (json.loads(text), True) if text is not None else (None, False)
    except ValueError:
        value, is_json = text, False
    return {"id": ids.of(node), "span": _span(node), "form": "prose", "phase": None, "actor": "HARVEY",
            "name": m.group("name") if m else None, "arguments": value,
            "arguments_summary": arguments_summary(value, is_json), "status": None, "error": None, "valid": True}


#: The note kinds counted as evidence for a reply (as in the turn's ``notes`` figure above).
_EVIDENCE_KINDS = frozenset(("rag", "rag-source", "tool"))


def _before_reply(turn: Turn) -> list[tuple[str, NoteRecord]]:
    """The turn's notes recorded before its reply (all of them when it has no reply)."""
    if turn.reply is None:
        return list(turn.notes)
    start = turn.reply.dialogue.offset
    return [(ph, r) for ph, r in turn.notes if r.node.offset < start]


def _route(scene: Scene, ids) -> dict[str, Any]:
    if scene.kind == "ext-chat":
        m = scene.routing
        return {"kind": "remote", "scene": ids.of(scene), "heading": scene.heading.heading,
                "endpoint": m.group("endpoint") if m else None, "url": m.group("url") if m else None}
    return {"kind": "local", "scene": ids.of(scene), "heading": scene.heading.heading, "endpoint": None, "url": None}


def _reply_entry(session: Session, turn: Turn, era: _Era, recall: str | None, switch: str | None,
                 ids, unreadable: _Unreadable | None = None) -> dict[str, Any]:
    unreadable = unreadable if unreadable is not None else _Unreadable(session)
    scene = session.scenes[turn.scene_index]
    rags: list[dict[str, Any]] = []
    unattached: list[dict[str, Any]] = []
    tools: list[tuple[int, dict[str, Any]]] = []
    other: list[dict[str, Any]] = []
    for phase, rec in _before_reply(turn):
        if rec.kind == "rag":
            rags.append({**_rag_entry(rec, ids), "phase": phase})
        elif rec.kind == "rag-source":
            (rags[-1]["sources"] if rags else unattached).append(_source_entry(rec, ids))
        elif rec.kind == "tool":
            tools.append((rec.node.offset, _tool_entry(rec, phase, ids)))
        else:
            entry = {"id": ids.of(rec), "span": _span(rec.node), "kind": rec.kind, "phase": phase}
            if rec.kind == "unknown":  # (no kind to name it by: what it says, one line, cut short)
                entry["text"] = arguments_summary(rec.body, False) or ""
            other.append(entry)
    start = turn.reply.dialogue.offset if turn.reply is not None else None
    tools += [(n.offset, _prose_entry(n, ids)) for n in turn.prose_tool_calls if start is None or n.offset < start]
    tools.sort(key=lambda t: t[0])
    notes = len(rags) + sum(len(r["sources"]) for r in rags) + len(unattached) + \
        sum(1 for _, t in tools if t["form"] == "note")
    old = era.old_forms[turn.index] if turn.index in era.old_forms else _old_forms(turn, ids)
    bad = unreadable(turn)
    if notes:
        where = "before the reply" if turn.reply is not None else "and has no reply"
        basis, reason = "recorded", f"the turn records {notes} evidence note{'s' if notes != 1 else ''} {where}"
    elif old:
        basis, reason = "unknown", f"pre-v1.2 form in this turn ({old[0][0]}): the recorder could not write evidence notes"
    elif scene.kind == "ext-chat" and (scene.routing is not None or (turn.target or "").strip()):
        basis, reason = "unknown", "remote route (EXT.): the recorder writes no evidence notes for routed turns"
    elif scene.kind == "ext-chat":  # (no routing line, no forwarding: the spec's direct conversation)
        basis, reason = "unknown", ("direct conversation (EXT. scene, not routed by HARVEY): no harness is recorded "
                                    "that could write evidence notes")
    elif scene.kind == "pipeline":
        basis, reason = "unknown", "pipeline step: the recorder writes no evidence notes for pipeline steps"
    elif era.era == "v1.2+" and bad:
        d = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        basis, reason = "unreadable-note", (
            f"v1.2+ session and no evidence note read in this turn, but L{d.line} holds a note that could not be "
            f"read as one (lint {d.code} {d.name}){more}: the file cannot tell whether a tool or retrieval was used")
    elif era.era == "v1.2+":
        late = sum(1 for _, r in turn.notes if r.kind in _EVIDENCE_KINDS) if turn.reply is not None else 0
        basis, reason = "none-recorded", (
            f"v1.2+ session and no evidence note before the reply in this turn ({late} after it, which cannot have "
            "informed it): the recorder writes one before the reply whenever a tool or retrieval is used" if late else
            "v1.2+ session and no evidence note in this turn: the recorder writes one whenever a tool or retrieval "
            "is used")
    elif era.era == "mixed":
        basis, reason = "unknown", "the session holds both v1.2 and pre-v1.2 forms"
    else:
        basis, reason = "unknown", ("pre-v1.2 session: it predates audit notes" if era.era == "pre-v1.2"
                                    else "no v1.2 marker in the session: the file cannot tell whether it could record evidence")
    reply = turn.reply
    entry = {
        "turn": ids.of(turn), "index": turn.index, "scene": ids.of(scene),
        "reply": ids.of(reply) if reply is not None else None,
        "span": _speech_span(reply) if reply is not None else None,
        "basis": basis, "basis_reason": reason,
        "route": _route(scene, ids),
        "model": {"replied": reply.character if reply is not None else None, "forwarded_to": turn.target,
                  "scene_model": scene.model},
        "rag": rags, "unattached_sources": unattached, "tools": [t for _, t in tools], "other_notes": other,
        "recall": recall, "model_switch": switch,
    }
    if bad:  # (additive, format 1.2: absent when the turn holds no unreadable note)
        entry["unreadable_notes"] = [{"id": unreadable.ident(d), "line": d.line, "column": d.column, "code": d.code,
                                      "name": d.name} for d in bad]
    return entry


def session_provenance(session: Session, file: str) -> dict[str, Any]:
    """The provenance document of ``session`` (see the module docstring), JSON-ready:
    ``{"format_version", "file", "session", "recall", "model_switches", "replies"}``.
    Spans are 1-based lines/columns (exclusive end) and 0-based code-point offsets."""
    if session._provenance is not None and session._provenance[0] == file:
        return session._provenance[1]
    ids = ids_of(session)
    era = _Era(session)
    turns = session.turns
    recall_scenes = [s for s in session.scenes if s.kind == "context-recall"]
    recall_idx = [s.index for s in recall_scenes]

    def in_force_recall(turn: Turn) -> Scene | None:
        k = bisect.bisect_left(recall_idx, turn.scene_index)
        return recall_scenes[k - 1] if k else None

    switches = [p for p in placements(session) if p.note.kind == "model switch"]

    def turn_start(turn: Turn) -> int:
        first = turn.user or turn.forwarding or turn.reply
        offs = [first.dialogue.offset] if first is not None else []
        offs += [r.node.offset for _, r in turn.notes]
        return min(offs) if offs else session.scenes[turn.scene_index].heading.offset

    switch_offsets = [p.note.node.offset for p in switches]

    def in_force_switch(turn: Turn):
        # (as the reply starts: a switch written inside the turn, before its reply, is the reply's;
        # it was reported as in force for no turn, adversarial trial)
        k = bisect.bisect_left(switch_offsets, turn.reply.dialogue.offset if turn.reply is not None
                               else turn_start(turn))
        return switches[k - 1] if k else None

    recall_in_force = [in_force_recall(t) for t in turns]
    switch_in_force = [in_force_switch(t) for t in turns]
    recall_scope: dict[int, list[str]] = {}  # id(recall scene) -> the turns it is in force for
    switch_scope: dict[int, list[str]] = {}  # id(placement) -> the turns it is in force for
    for t, r, q in zip(turns, recall_in_force, switch_in_force):  # one pass: no scan per scene
        if r is not None:
            recall_scope.setdefault(id(r), []).append(ids.of(t))
        if q is not None:
            switch_scope.setdefault(id(q), []).append(ids.of(t))
    recall = []
    for rs in recall_scenes:
        scope = recall_scope.get(id(rs), [])
        recall.append({"id": ids.of(rs), "span": _span(rs.heading, ([rs.heading] + [n for n in rs.nodes
                                                                                  if not isinstance(n, Blank)])[-1]),
                       "items": [{"id": ids.of(r), "span": _span(r.node), "recorded_id": r.fields.get("id"),
                                  "source": r.fields.get("source"), "score": r.fields.get("score"), "valid": r.valid}
                                 for r in rs.notes if r.kind == "recall"],
                       "scope": {"kind": "session", "turns": scope}})
    model_switches = []
    for p in switches:
        f = p.note.fields if p.note.valid else {}
        model_switches.append({"id": ids.of(p.note), "span": _span(p.note.node), "model": f.get("model"),
                               "backend": f.get("backend"), "at": f.get("at"), "valid": p.note.valid,
                               "scope": {"kind": "session",
                                         "turns": switch_scope.get(id(p), [])}})
    unreadable = _Unreadable(session)
    replies = [_reply_entry(session, t, era, None if r is None else ids.of(r), None if q is None else ids.of(q.note),
                            ids, unreadable) for t, r, q in zip(turns, recall_in_force, switch_in_force)]
    doc = {"format_version": FORMAT_VERSION, "file": file,
           "session": {"era": era.era, "markers": era.markers},
           "recall": recall, "model_switches": model_switches, "replies": replies}
    runs = undecodable_bytes(session.document.text)
    if runs:  # the JSON text fields carry U+FFFD for these bytes
        doc["undecodable_bytes"] = runs
    session._provenance = (file, doc)
    return doc


class _Unreadable:
    """The lint findings of :data:`UNREADABLE_NOTE_RULES` in a turn, before its reply: called per
    turn (its basis ``unreadable-note``, and its ``unreadable_notes`` whatever the basis); the
    rules run once, on the first call, with the file's suppressions not applied: a
    ``disable-next`` that hides a lint finding does not change what the turn's basis is.
    :meth:`ident` names a finding's note by its id."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.found: list | None = None
        self.lines: list[int] = []
        self.by_line: dict[int, str] | None = None

    def ident(self, d) -> str:
        """The id of the note a finding ``d`` is about: the note (``t1.unknown1`` for a misspelt
        kind, ``t1.inline1`` for a note inside text) whose lines hold the finding's line; the
        line's id (``L14``) when no note was read there (an unclosed note, F101). ``show``
        reopens either."""
        if self.by_line is None:
            self.by_line = {}
            ids = ids_of(self.session)
            recs = [(r.node.line, r.node.end_line, r) for r in self.session.notes]
            recs += [(p.note.line, p.note.line, p.note) for p in inline_placements(self.session)]
            for first, last, rec in sorted(recs, key=lambda x: x[0]):
                ident = ids.of(rec)
                if ident is not None:
                    for line in range(first, last + 1):
                        self.by_line.setdefault(line, ident)
        return self.by_line.get(d.line) or f"L{d.line}"

    def __call__(self, turn: Turn) -> list:
        if self.found is None:
            from fountain_audit.lint.linter import lint_session
            from fountain_audit.lint.selection import Selection
            s = self.session
            self.found = sorted(lint_session(s.document.text, s.document, s, "<provenance>",
                                             Selection.build(select=UNREADABLE_NOTE_RULES), suppressions=False),
                                key=lambda d: (d.line, d.column, d.code))
            self.lines = [d.line for d in self.found]
        if not self.found:
            return []
        scenes = self.session.scenes
        lo = scenes[turn.scene_index].heading.line
        k = turn.index - 1  # the previous reply in the same scene bounds the turn
        if k >= 0:
            prev = self.session.turns[k]
            if prev.scene_index == turn.scene_index and prev.reply is not None:
                lo = max(lo, _speech_span(prev.reply)["end_line"])
        if turn.reply is not None:
            hi = turn.reply.dialogue.line
        else:
            hi = scenes[turn.scene_index + 1].heading.line if turn.scene_index + 1 < len(scenes) else float("inf")
        return self.found[bisect.bisect_left(self.lines, lo):bisect.bisect_left(self.lines, hi)]


# --------------------------------------------------------------------------- text


def _v(value: Any) -> str:
    return "not recorded" if value is None else str(value)


def score_text(v: Any) -> str:
    """A recorded score with two decimals, as the recorder writes it (``0.87``, ``1.00``), unless
    that would round it: then every digit it has (``0.871``, which was shown as ``0.87``);
    ``"?"`` for a value that is not a number. The text and HTML reports both show scores so."""
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return "?"
    two = f"{v:.2f}"
    return two if float(two) == v else str(v)


def _lines(span: dict[str, int] | None) -> str:
    if span is None:
        return ""
    return f"L{span['line']}" if span["line"] == span["end_line"] else f"L{span['line']}–{span['end_line']}"


def _source_text(entry: dict[str, Any]) -> str:
    """A rag-source entry's source for the text view, terminal-safe and on one line
    (:func:`~fountain_audit.untrusted.one_line`): ``(no source written)`` for an empty
    ``[[rag-source:]]`` note (N109), never a blank or ``None``."""
    from fountain_audit.untrusted import one_line

    source = entry["source"]
    return one_line(str(source)) if source else "(no source written)"


def _scope(turns: list[str]) -> str:
    if not turns:
        return "no turn"
    return turns[0] if len(turns) == 1 else f"{turns[0]}–{turns[-1]}" if len(turns) > 2 else ", ".join(turns)


def incomplete_text(notes: list[dict[str, Any]], safe=str) -> str:
    """What a reply's ``unreadable_notes`` say, on one line (the text tree's ``incomplete:`` row):
    ``1 note in this turn could not be read: t1.unknown1 L25 (lint N112 misspelt-note-kind)``;
    a note with no id of its own (its line's id) is named by its line alone."""
    items = "; ".join((n["id"] if n["id"] == f"L{n['line']}" else f"{safe(n['id'])} L{n['line']}")
                      + f" (lint {n['code']} {n['name']})" for n in notes)
    k = len(notes)
    return f"{k} note{'s' if k != 1 else ''} in this turn could not be read: {items}"


def render_text(document: dict[str, Any], style=None) -> str:
    """The provenance document as text: the session's era and session-wide state (recall
    scenes with their items and scope, model switches), then a tree per reply. Session text
    is passed through :func:`fountain_audit.untrusted.one_line` (terminal-safe, and a line break in
    a note's text shown as ``\\n``: a multi-line note could print a forged tree line, adversarial
    trial); ``style(text, **kw)`` (click.style) colours it, or ``None`` for plain text."""
    from fountain_audit.untrusted import one_line
    safe = one_line

    st = style or (lambda t, **kw: t)
    out: list[str] = []
    s = document["session"]
    first = s["markers"][0] if s["markers"] else None
    why = f" (first marker: {first['form']} {safe(first['id'] or '')} at line {first['line']})".replace("  ", " ") \
        if first else " (no v1.2 marker and no pre-v1.2 form)"
    out.append(st(one_line(document["file"]), bold=True) + f": {s['era']} session{why}\n")  # (a name on one line)
    if document["recall"]:
        out.append("recall in force (session-wide, reported once):\n")
        for r in document["recall"]:
            out.append(f"  {safe(r['id'])} {_lines(r['span'])} → {_scope(r['scope']['turns'])}\n")
            for it in r["items"]:
                out.append(f"    {st(safe(it['id'] or '?'), fg='cyan')}  ({safe(str(it['source']))}) "
                           f"score {score_text(it['score'])}  {_lines(it['span'])}\n")
    if document["model_switches"]:
        out.append("model switches:\n")
        for m in document["model_switches"]:
            what = "(malformed note: model, backend and time not read)" if m["model"] is None else \
                f"{safe(m['model'])} ({safe(_v(m['backend']))}) at {safe(_v(m['at']))}"  # (never "None")
            out.append(f"  {safe(m['id'])}  {what}  "
                       f"{_lines(m['span'])} → {_scope(m['scope']['turns'])}\n")
    for r in document["replies"]:
        out.append("\n")
        color = {"recorded": "green", "none-recorded": "yellow", "unreadable-note": "red",
                 "unknown": "magenta"}[r["basis"]]
        who = safe(str(r["model"]["replied"])) if r["reply"] else "no reply"
        where = f"{r['scene']}, {_lines(r['span'])}" if r["span"] else r["scene"]  # no reply: no lines of its own
        out.append(f"{st(r['reply'] or r['turn'], bold=True)}  {who}  ({where})  "
                   f"basis: {st(r['basis'], fg=color)}\n")
        rows: list[tuple[str, list[str]]] = [(f"why: {safe(r['basis_reason'])}", [])]
        if r.get("unreadable_notes"):
            rows.append((f"{st('incomplete', fg='red')}: {incomplete_text(r['unreadable_notes'], safe)}", []))
        route = r["route"]
        where = "local (INT.)" if route["kind"] == "local" else \
            ("remote (EXT.), endpoint not recorded" if route["endpoint"] is None else
             f"remote (EXT.) via {safe(route['endpoint'])}") + (f" at {safe(route['url'])}" if route["url"] else "")
        m = r["model"]
        rows.append((f"route: {where} · replied: {safe(_v(m['replied']))} · forwarded to: "
                     f"{safe(_v(m['forwarded_to']))} · scene Model: {safe(_v(m['scene_model']))}", []))
        rows.append((f"recall: {r['recall']} (session-wide)" if r["recall"] else "recall: none in force"
                     if s["era"] in ("v1.2+", "mixed") else
                     "recall: not recorded (the recorder writes recall scenes since v1.2; this session shows no "
                     "v1.2 marker)", []))
        rows.append((f"model switch in force: {r['model_switch']}" if r["model_switch"] else
                     "model switch in force: none", []))
        for g in r["rag"]:
            head = (f"rag {st(safe(g['id']), fg='cyan')}: {g['chunks']} chunk{'s' * (g['chunks'] != 1)} from {safe(str(g['store']))}, top score "
                    f"{score_text(g['top_score'])}  {_lines(g['span'])}") if g["valid"] else \
                f"rag {st(safe(g['id']), fg='cyan')}: (malformed)  {_lines(g['span'])}"
            rows.append((head, [f"{st(safe(x['id']), fg='cyan')}: {_source_text(x)}"
                                + (f" ({safe(x['title'])})" if x["title"] else "")
                                + (f" doi:{safe(x['doi'])}" if x["doi"] else "")
                                + (f" {safe(x['url'])}" if x["url"] else "") + f"  {_lines(x['span'])}"
                                for x in g["sources"]]))
        for x in r["unattached_sources"]:
            rows.append((f"rag-source {st(safe(x['id']), fg='cyan')} (no [[rag:]] before it): {_source_text(x)}  "
                         f"{_lines(x['span'])}", []))
        for t in r["tools"]:
            args = "" if t["arguments_summary"] is None else safe(t["arguments_summary"])
            status = "status not recorded (prose)" if t["form"] == "prose" else \
                "malformed" if not t["valid"] else t["status"] + (f": {safe(t['error'])}" if t["error"] else "")
            if t["name"] is None:  # a malformed note: no name was read (never shown as "None")
                rows.append((f"tool {st(safe(t['id']), fg='cyan')}: {safe(t['actor'])} (malformed note: name and "
                             f"arguments not read)  {_lines(t['span'])}", []))
                continue
            rows.append((f"tool {st(safe(t['id']), fg='cyan')}: {safe(t['actor'])} {safe(str(t['name']))}({args}) → "
                         f"{status}  {_lines(t['span'])}", []))
        for n in r["other_notes"]:
            # the recorded text of a note of no known kind; else its kind, a label, not what the note says
            shown = f"({safe(n['kind'])})" if n.get("text") is None else f"[[{one_line(n['text'])}]]"
            rows.append((f"note {st(safe(n['id']), fg='cyan')}: {shown}  {_lines(n['span'])}", []))
        for k, (text, kids) in enumerate(rows):
            last = k == len(rows) - 1
            out.append(("└─ " if last else "├─ ") + text + "\n")
            for j, kid in enumerate(kids):
                out.append(("   " if last else "│  ") + ("└─ " if j == len(kids) - 1 else "├─ ") + kid + "\n")
    return "".join(out)

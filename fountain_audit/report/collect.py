"""Page data for one session: what the report shows, read from the session model, the dump
records (:func:`fountain_audit.dump.turn_records`, :func:`~fountain_audit.dump.note_records`),
the provenance of each reply and the lint diagnostics. Everything here is plain data
(``dict``/``list``/``str``/numbers); nothing is rendered or escaped yet (but for a reply shown
redacted, where what its Markdown shows is checked: :func:`~fountain_audit.report.markdown.redacted_view`).

Times come only from scene headings: a scene without a timestamp has ``start = None`` and the
timeline says so; nothing is interpolated.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Callable

from fountain_audit.dump import note_records, record_kinds, turn_records
from fountain_audit.report.markdown import redacted_view
from fountain_audit.reporters import json_text
from fountain_audit.lint.diagnostics import Diagnostic, Severity
from fountain_audit.model import actors
from fountain_audit.model.ids import ids_of, scene_id
from fountain_audit.model.models import recorded_models

#: A tool call's arguments are shown indented this many levels; deeper ones on one line (the
#: page stays linear in the input: arguments nested N deep cost N squared when indented).
ARGUMENTS_INDENTED_DEPTH = 16
from fountain_audit.model.names import upper_ascii
from fountain_audit.model.session import Scene, Session
from fountain_audit.parse.source import describe_content

#: Scene kinds (``Scene.kind``) → label shown on the page and in the timeline legend.
SCENE_KIND_LABELS = {
    "chat": "chat (INT, local)", "ext-chat": "EXT (remote)", "agent-mode": "agent mode",
    "shell": "shell", "skill": "skill", "context-recall": "context recall",
    "chunk-analysis": "chunk analysis", "pipeline": "pipeline", "memory": "memory",
    "hand-off": "hand-off", "other": "other",
}


#: Session kinds (``Session.kind``) → what the page header calls the file.
KIND_LABELS = {"session": "Harvey session", "memory": "Harvey memory file", "hand-off": "Harvey hand-off",
               "fragment": "session fragment (scenes without title page or FADE IN:)",
               "screenplay": "a plain screenplay (no Harvey scene or note)"}


def well_formed(text: str) -> str:
    """``text`` with lone surrogates (undecodable input bytes) as U+FFFD, so the page is
    well-formed UTF-8. The original bytes stay in the file; ``show`` prints them escaped."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


#: Write outcomes as ``[[write: PATH — STATUS]]`` records them (the spec's ``ok``, ``skipped``,
#: ``error: MSG``; the recorder's ``aborted`` and ``skipped: MSG``, harvey-recorder-inventory.md §6
#: ``n_write``); any other status, or a note that cannot be read, counts as ``other``.
WRITE_STATUSES = ("ok", "skipped", "aborted", "error")
#: HARVEY's proposal (``Harvey proposes to write N file(s).``, the spec's with `` to the workspace``,
#: 8d0b75a's with `` and run M command(s)`` as an action) and prompt (``Write PATH?``), §5.
_PROPOSAL_RE = re.compile(r"^Harvey proposes to write (\d+) file\(s\)", re.ASCII)
_WRITE_PROMPT_RE = re.compile(r"^Write \S.*\?$")


@dataclass
class Counts:
    """The numbers in a page header and an index row. Writes: ``writes_proposed`` files
    HARVEY proposed to write (:func:`proposed_writes`); ``writes_ok`` … ``writes_other``: the
    ``[[write:]]`` outcome notes by status (:data:`WRITE_STATUSES`): a write declined, or whose
    backup failed, is ``skipped``; the user's ``quit`` is ``aborted``; neither is a write;
    ``writes_unproposed``: those notes no proposal or prompt accounts for (:func:`unproposed_writes`)."""

    turns: int = 0
    tools_ok: int = 0
    tools_error: int = 0
    tools_other: int = 0
    rag: int = 0
    recall: int = 0
    writes_proposed: int = 0
    writes_ok: int = 0
    writes_skipped: int = 0
    writes_aborted: int = 0
    writes_error: int = 0
    writes_other: int = 0
    writes_unproposed: int = 0
    errors: int = 0
    warnings: int = 0
    infos: int = 0

    @property
    def writes(self) -> int:
        """Every ``[[write:]]`` note, whatever its status."""
        return (self.writes_ok + self.writes_skipped + self.writes_aborted + self.writes_error
                + self.writes_other)

    @property
    def tools(self) -> int:
        """Every tool call: ok, error and any other recorded status."""
        return self.tools_ok + self.tools_error + self.tools_other

    def count_write(self, status: str | None) -> None:
        """Count one ``[[write:]]`` note of status ``status`` (``None``: not readable)."""
        key = (status or "").lower()
        key = key if key in WRITE_STATUSES else "other"
        setattr(self, f"writes_{key}", getattr(self, f"writes_{key}") + 1)


def proposed_writes(session: Session) -> int:
    """How many files HARVEY proposed to write: the ``N`` of each ``Harvey proposes to write N
    file(s)`` (a HARVEY speech or, as 8d0b75a wrote it, an action), and in a scene with no
    proposal (the recorder's untagged-code fallback, §7) one per ``Write PATH?`` prompt."""
    return sum(_scene_proposals(scene) for scene in session.scenes)


def unproposed_writes(session: Session) -> int:
    """How many ``[[write:]]`` notes no proposal or prompt accounts for: in each scene, its write
    notes past the files it proposes (:func:`proposed_writes`; the recorder writes one note per
    ``Write PATH?`` answer, after the proposal, harvey-recorder-inventory.md §6 ``n_write``, §7)."""
    total = 0
    for scene in session.scenes:
        notes = sum(1 for n in scene.notes if n.kind == "write")
        if notes:
            total += max(0, notes - _scene_proposals(scene))
    return total


def _scene_proposals(scene: Scene) -> int:
    """The files one scene proposes to write (see :func:`proposed_writes`)."""
    proposed, prompts = None, 0
    texts = [a.text.strip() for a in scene.description if "proposes" in a.text]
    texts += [sp.text.strip() for sp in scene.speeches if sp.character.strip().upper() == "HARVEY"]
    for text in texts:
        m = _PROPOSAL_RE.match(text)
        if m and len(m.group(1)) <= 18:  # (no session proposes 10**18 files; int() refuses 4,300+ digits)
            proposed = (proposed or 0) + int(m.group(1))
        elif _WRITE_PROMPT_RE.match(text):
            prompts += 1
    return prompts if proposed is None else proposed


@dataclass
class SessionPage:
    """One session's page data. ``scenes`` hold their turns (``turn`` dicts are ``dump
    --turns`` records plus ``route``, ``notes_by_id``, ``loose_diagnostics`` and
    ``diagnostics`` in each speech, tool call and note); ``file_diagnostics``
    are those outside every scene. ``timeline`` rows have ``x``/``width`` in [0, 1] of the time
    span, or ``None`` when the scene heading has no timestamp. ``participants``: ``human`` and
    ``tool`` names as the cues write them; ``agent``: one label per model
    (:func:`fountain_audit.model.models.recorded_models`)."""

    file: str
    kind: str
    title: list[tuple[str, str]]
    participants: dict[str, list[str]]
    date_range: tuple[str, str] | None
    counts: Counts
    scenes: list[dict[str, Any]]
    timeline: list[dict[str, Any]]
    file_diagnostics: list[dict[str, Any]]
    rules: dict[str, dict[str, str]] = field(default_factory=dict)
    redacted: bool = False
    recall: list[dict[str, Any]] = field(default_factory=list)
    #: Notes in no scene: before the first scene heading (``s0.…``) or after the end marker.
    outside_notes: list[dict[str, Any]] = field(default_factory=list)
    #: The remote endpoints of routed ``EXT.`` turns, one label each
    #: (:attr:`fountain_audit.model.models.EndpointEntry.label`); ``participants["agent"]`` holds the
    #: models' (:attr:`~fountain_audit.model.models.ModelEntry.label`).
    endpoints: list[str] = field(default_factory=list)


def _write_status(fields: dict[str, Any] | None, valid: bool) -> str | None:
    """A note's ``status`` field when the note could be read (a write's outcome), else ``None``."""
    return (fields or {}).get("status") if valid else None


def _diag(d: Diagnostic) -> dict[str, Any]:
    return {"code": d.code, "name": d.name, "severity": str(d.severity), "line": d.line, "column": d.column,
            "end_line": d.end_line, "end_column": d.end_column, "message": d.message}


class _Spans:
    """Elements with line spans (nested or disjoint, as turns and their parts are); a
    diagnostic belongs to the innermost element containing its start line. :meth:`assign`
    sweeps elements and diagnostics in line order with a stack of open elements, so the
    whole assignment is O((elements + diagnostics) log) — no scan per diagnostic."""

    def __init__(self) -> None:
        self.items: list[tuple[int, int, int, list]] = []

    def add(self, span: dict[str, Any] | None, bucket: list) -> None:
        if span:
            self.items.append((span["line"], -span["end_line"], len(self.items), bucket))

    def assign(self, lines: list[int]) -> list[list | None]:
        """For each line of ``lines``, the bucket of the innermost element containing it
        (``None``: no element)."""
        items = sorted(self.items)
        order = sorted(range(len(lines)), key=lines.__getitem__)
        out: list[list | None] = [None] * len(lines)
        stack: list[tuple[int, list]] = []  # (end line, bucket)
        k = 0
        for i in order:
            line = lines[i]
            while k < len(items) and items[k][0] <= line:
                start, neg_end, _, bucket = items[k]
                while stack and stack[-1][0] < start:
                    stack.pop()
                stack.append((-neg_end, bucket))
                k += 1
            while stack and stack[-1][0] < line:
                stack.pop()
            out[i] = stack[-1][1] if stack else None
        return out


def _timestamp(ts: str | None) -> datetime | None:
    if not ts:
        return None
    try:
        return datetime.fromisoformat(ts)
    except ValueError:
        return None


def collect(session: Session, file: str, text: str, diagnostics: list[Diagnostic],
            redact: Callable[[Any], Any] | None = None, rules: dict[str, dict[str, str]] | None = None
            ) -> SessionPage:
    """Page data for ``session`` (parsed from ``text``, shown as ``file``). ``redact``, when
    given, is applied to every JSON-ready value and text taken from the session (see
    :class:`fountain_audit.privacy.redact.Redactor`). ``rules`` maps codes to ``{"name", "doc"}``
    for the rule appendix."""
    red = redact or (lambda v: v)
    lines = text.splitlines(keepends=True)
    ids = ids_of(session)
    counts = Counts()
    kinds: Counter[str] = Counter()
    recall: list[dict[str, Any]] = []

    def count(kind: str, status: str | None = None) -> None:
        kinds[kind] += 1
        if kind == "write":
            counts.count_write(status)
        elif kind == "tool":
            status = (status or "").lower()
            if status == "ok":
                counts.tools_ok += 1
            elif status == "error":
                counts.tools_error += 1
            else:
                counts.tools_other += 1

    spans = _Spans()
    # notes outside turns (the turn records hold the others): counted, and shown in their scene
    # (or, in no scene, before the scenes)
    loose_notes: dict[int, list[dict[str, Any]]] = {}
    outside_notes: list[dict[str, Any]] = []  # (before the first scene, after the end marker)
    loose_recs = list(note_records(session, file, record_kinds(["all"]), in_turns=False))
    turn_recs = list(turn_records(session, file))
    for n in loose_recs:
        kind = "tool" if n.record == "tool_call" else n.kind
        count(kind, getattr(n, "status", None) if kind == "tool" else _write_status(n.fields, n.valid))
        rec = red(n.to_json())
        rec["diagnostics"] = []
        if n.scene is not None:
            loose_notes.setdefault(n.scene.index, []).append(rec)
        else:
            outside_notes.append(rec)
            spans.add(rec["span"], rec["diagnostics"])
        if kind == "recall":
            recall.append(rec)

    turns_by_scene: dict[int, list[dict[str, Any]]] = {}
    for rec in turn_recs:
        t = red(rec.to_json())
        if t["reply"] is not None:  # (the reply as Markdown: what its rendering shows, redacted)
            t["reply"]["shown"] = None if redact is None else redacted_view(rec.reply.text, redact)
        counts.turns += 1
        t["route"] = "EXT (remote)" if t["scene"]["kind"] == "ext-chat" else "INT (local)"
        t["notes_by_id"] = {n["id"]: n for n in t["rag"]}
        t["loose_diagnostics"] = []
        spans.add(t.get("span"), t["loose_diagnostics"])
        for key in ("user", "forwarding", "reply"):
            if t.get(key):
                t[key]["diagnostics"] = []
                spans.add(t[key]["span"], t[key]["diagnostics"])
        for tc in t["tool_calls"]:
            count("tool", tc["status"])
            tc["diagnostics"] = []
            tc["arguments_pretty"] = (json_text.dumps(tc["arguments"], 2, flat_from=ARGUMENTS_INDENTED_DEPTH)
                                      if tc.get("arguments_json") else tc.get("arguments_text") or "")
            spans.add(tc["span"], tc["diagnostics"])
        for n in [*t["rag"], *t["other_notes"]]:
            count(n["kind"], _write_status(n["fields"], n["valid"]))
            if n["kind"] == "recall":
                recall.append(n)
            n["diagnostics"] = []
            spans.add(n["span"], n["diagnostics"])
        turns_by_scene.setdefault(t["scene"]["index"], []).append(t)
    counts.rag, counts.recall = kinds["rag"], kinds["recall"]
    counts.writes_proposed = proposed_writes(session)
    counts.writes_unproposed = unproposed_writes(session)
    recall.sort(key=lambda n: n["span"]["offset"])
    for d in diagnostics:
        if d.severity == Severity.ERROR:
            counts.errors += 1
        elif d.severity == Severity.WARNING:
            counts.warnings += 1
        else:
            counts.infos += 1

    scenes: list[dict[str, Any]] = []
    for scene in session.scenes:
        start_line = scene.line
        node_end = scene.nodes[-1].end_line if scene.nodes else scene.heading.end_line
        sid = ids.of(scene) or scene_id(scene.index)
        s = {"id": sid, "index": scene.index, "kind": scene.kind,
             "kind_label": SCENE_KIND_LABELS.get(scene.kind, scene.kind),
             "heading": red(scene.heading.text.strip()),
             "timestamp": scene.timestamp, "line": start_line, "end_line": node_end,
             "turns": turns_by_scene.get(scene.index, []), "diagnostics": [], "failed_tools": 0,
             "errors": 0, "source": "", "notes": loose_notes.get(scene.index, [])}
        for n in s["notes"]:
            spans.add(n["span"], n["diagnostics"])
        if not s["turns"]:
            s["source"] = red("".join(lines[start_line - 1:node_end]))
        s["failed_tools"] = sum(1 for t in s["turns"] for tc in t["tool_calls"] if tc.get("status") == "error")
        scenes.append(s)
    scene_starts = [s["line"] for s in scenes]
    file_diags: list[dict[str, Any]] = []
    for d, bucket in zip(diagnostics, spans.assign([d.line for d in diagnostics])):
        item = red(_diag(d))
        k = bisect.bisect_right(scene_starts, d.line) - 1
        if k >= 0 and d.line <= scenes[k]["end_line"] and d.severity == Severity.ERROR:
            scenes[k]["errors"] += 1
        if bucket is not None:
            bucket.append(item)
        elif k >= 0 and d.line <= scenes[k]["end_line"]:
            scenes[k]["diagnostics"].append(item)
        else:
            file_diags.append(item)

    times = [(s, _timestamp(s["timestamp"])) for s in scenes]
    stamped = [t for _, t in times if t is not None]
    local = [t for t in stamped if t.tzinfo is None]
    if local and len(local) != len(stamped):
        # the recorder's local times and a hand-off's time with a UTC offset share no clock
        # without the recorder's zone, which the file does not record: only the local ones are
        # placed; the others are drawn as scenes without a time (their timestamp still shown)
        times = [(s, t if t is None or t.tzinfo is None else None) for s, t in times]
        stamped = local
    timeline: list[dict[str, Any]] = []
    date_range = None
    if stamped:
        t0, t1 = min(stamped), max(stamped)
        # as the headings write them: a heading without seconds shows none (19:15, not 19:15:00)
        first = next(s["timestamp"] for s, t in times if t == t0)
        last = next(s["timestamp"] for s, t in reversed(times) if t == t1)
        date_range = (first, last)
        total = (t1 - t0).total_seconds()
        following = [None] * len(times)
        nxt = None
        for i in range(len(times) - 1, -1, -1):
            following[i] = nxt
            if times[i][1] is not None:
                nxt = times[i][1]
        latest = None  # the latest heading time so far
        for i, (s, t) in enumerate(times):
            if t is None or total <= 0:
                x = None if t is None else 0.0
                width = None if t is None else 1.0
            else:
                x = (t - t0).total_seconds() / total
                end = following[i] or t1
                # a scene whose heading goes back in time (S107) has no duration the file can
                # tell: a tick at its time, not a bar across the scenes it went back over
                width = 0.0 if latest is not None and t < latest else max((end - t).total_seconds() / total, 0.0)
            if t is not None and (latest is None or t > latest):
                latest = t
            timeline.append({"id": s["id"], "kind": s["kind"], "label": s["heading"], "x": x, "width": width,
                             "failed_tools": s["failed_tools"], "errors": s["errors"], "timestamp": s["timestamp"]})
    else:
        timeline = [{"id": s["id"], "kind": s["kind"], "label": s["heading"], "x": None, "width": None,
                     "failed_tools": s["failed_tools"], "errors": s["errors"], "timestamp": None} for s in scenes]

    # the models, each once with its ids and cues, and the remote endpoints (a route's name is no
    # model): fountain_audit.model.models
    recorded = recorded_models(session, turn_recs)
    people: dict[str, list[str]] = {"human": [], "agent": [], "tool": []}
    for s in scenes:
        for t in s["turns"]:
            for key in ("user", "forwarding", "reply"):
                sp = t.get(key)
                if sp and sp.get("actor_ref"):
                    prefix = sp["actor_ref"].split(":", 1)[0]
                    name = sp.get("character") or sp["actor_ref"]
                    if prefix in ("human", "tool") and name not in people[prefix]:
                        people[prefix].append(name)
    people["agent"] = [red(m.label) for m in recorded.models]
    if not people["human"]:  # no chat turn: the people the file records (Author:, a chat heading's
        author = (session.author or "").strip()  # (shown as written: `John August`, not `JOHN AUGUST`)
        people["human"] = [red(author if author and upper_ascii(author) == n else n)  # human), as the exports
                           for n in sorted(actors.humans_of(session))]
    # the harness only when the file records it (a HARVEY cue, a [[tool:]] note, a scene or note
    # the recorder writes on its own behalf): an EXT scene where only the user and a model speak
    # names no HARVEY (model.actors.harness_recorded, as the exports)
    if "HARVEY" not in people["tool"] and actors.harness_recorded(session, turn_recs, loose_recs):
        people["tool"].insert(0, "HARVEY")
    title = [(red(k), red(v)) for k, v in session.title.items()]
    # what dump, diff and export call a file that holds no session (empty, a PNG image ...)
    kind = describe_content(text, session.kind) or KIND_LABELS.get(session.kind, session.kind)
    return SessionPage(file=red(file), kind=kind, title=title, participants=people, date_range=date_range,
                       counts=counts, scenes=scenes, timeline=timeline, file_diagnostics=file_diags,
                       rules={c: red(r) for c, r in (rules or {}).items()  # docs quote example secrets
                              if any(d.code == c for d in diagnostics)},
                       redacted=redact is not None, recall=recall, outside_notes=outside_notes,
                       endpoints=[red(e.label) for e in recorded.endpoints])


def summary(page: SessionPage) -> SessionPage:
    """``page`` without its scenes and timeline: what an index row needs (file, kind, dates,
    counts), so a directory of large sessions is not held in memory at once."""
    return replace(page, scenes=[], timeline=[], file_diagnostics=[], rules={}, recall=[], outside_notes=[])

"""Normalisation: what the diff does not compare (positions, and unless asked timestamps,
stats lines and the workspace) replaced by placeholders in a copy of a side's ``dump --turns``
document (:func:`normalise`), in the text of a scene without turns (:func:`scene_body`) and in
what a scene with turns holds outside them (:func:`scene_content`)."""

from __future__ import annotations

import re
from typing import Any

from fountain_audit import dump as dm
from fountain_audit.privacy.redact import WORKSPACE as WORKSPACE_PLACEHOLDER, Redactor
from fountain_audit.diff.jsonvalues import copy_json
from fountain_audit.diff.options import Options
from fountain_audit.model.session import CHAT_DESC_RE, ROUTING_RE, Scene, Session
from fountain_audit.parse.fountain import Note

#: Placeholders of the normalised documents.
FILE, TIMESTAMP, STATS, WORKSPACE = "<file>", "<timestamp>", "<stats>", WORKSPACE_PLACEHOLDER

TS_RE = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?")
#: A scene heading's time: ``YYYY-MM-DD HH:MM[:SS]`` (after an optional dash), or a hand-off label's
#: RFC 3339 time (``INT. HAND-OFF - 2026-07-01T16:04:05Z``, harvey.go WriteHandoff).
HEADING_TS_RE = re.compile(r"(?:\s*—)?\s*\d{4}-\d\d-\d\d(?: \d\d:\d\d(?::\d\d)?|T\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d))")


def redactor(session: Session, options: Options) -> Redactor:
    """The workspace redactor of a side: its ``Workspace:`` paths (in every spelling but other
    capitals, which name another path but on Windows: :func:`workspace_regex`), none
    when compared. Only the workspace: secrets and home paths are ``--redact``'s business."""
    return Redactor(() if options.workspace else dm.workspaces(session), secrets=False, homes=False, exact_case=True)


def _norm_scene_ref(ref: dict[str, Any] | None, options: Options) -> dict[str, Any] | None:
    if ref is None:
        return None
    ref = dict(ref, index=None, line=None)
    if "id" in ref:
        ref["id"] = None  # ids are positions (s3), like index and line
    if not options.timestamps:
        ref["heading"] = HEADING_TS_RE.sub(" " + TIMESTAMP, ref["heading"])
        ref["timestamp"] = None if ref["timestamp"] is None else TIMESTAMP
        ref["timestamp_form"] = None
    return ref


def _norm_note(note: dict[str, Any], options: Options) -> None:
    note["file"] = FILE
    note["scene"] = _norm_scene_ref(note.get("scene"), options)
    note["turn"] = None
    note["span"] = None
    if "id" in note:
        note["id"] = None  # t3.tool2 is a position, like turn and span
    kind = note.get("kind")
    if kind == "model switch" and not options.timestamps:
        note["body"] = TS_RE.sub(TIMESTAMP, note["body"])
        if isinstance(note.get("fields"), dict) and "at" in note["fields"]:
            note["fields"]["at"] = TIMESTAMP
    if kind == "stats" and not options.stats:
        note["body"] = "stats: " + STATS
        note["fields"] = {}


#: The keys of a provenance entry that name positions (ids of the turn, its scene, reply,
#: recall scene and model switch; its index).
_PROVENANCE_POSITIONS = ("turn", "index", "scene", "reply", "recall", "model_switch")
#: Of those, the ones that may be ``null`` (no recall scene, no model switch in force): whether
#: there is one is compared (``"<id>"``), which one is a position.
_PROVENANCE_OPTIONAL = frozenset({"recall", "model_switch"})
ID = "<id>"


def _norm_provenance(prov: dict[str, Any], options: Options) -> dict[str, Any]:
    """A turn's ``provenance`` with its positions ``null`` (every ``id`` and ``span`` at any
    depth, the ids and index of :data:`_PROVENANCE_POSITIONS`, the route's ``scene``; the id of
    the recall scene or model switch in force ``"<id>"``, ``null`` when none is; the ``line`` and
    ``column`` of its ``unreadable_notes``) and, unless
    compared, the timestamp of the route's ``heading`` replaced; same keys and list lengths."""
    for k in _PROVENANCE_POSITIONS:
        if k in prov:
            prov[k] = ID if k in _PROVENANCE_OPTIONAL and prov[k] is not None else None
    stack: list[Any] = [prov]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            for k in ("id", "span"):
                if k in v:
                    v[k] = None
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    for u in prov.get("unreadable_notes") or []:  # (their lines are positions too, as spans are)
        if isinstance(u, dict):
            for k in ("line", "column"):
                if k in u:
                    u[k] = None
    route = prov.get("route")
    if isinstance(route, dict):
        if "scene" in route:
            route["scene"] = None
        if not options.timestamps and isinstance(route.get("heading"), str):
            route["heading"] = HEADING_TS_RE.sub(" " + TIMESTAMP, route["heading"])
    return prov


def normalise(document: dict[str, Any], session: Session | None, options: Options = Options(),
              redact: Redactor | None = None) -> dict[str, Any]:
    """The normalised copy of a ``dump --turns`` document (see the module docstring); the
    workspace paths replaced are those of ``redact``, by default :func:`redactor` of ``session``."""
    if redact is None:
        redact = redactor(session, options)
    doc = copy_json(document, redact.text if redact else None)
    doc["files"] = [FILE for _ in doc.get("files", [])]
    for rec in doc["records"]:
        rec["file"] = FILE
        rec["index"] = None
        rec["span"] = None
        rec["id"] = None  # ids (t3, t3.reply ...) are positions, like index and span
        # derived from the turn's notes, which are compared themselves (the changes report them
        # there, and an EXT. scene's route as route-changed), but patched like every other field:
        # its positions (ids, spans, turn and scene ids) are not compared
        if isinstance(rec.get("provenance"), dict):
            rec["provenance"] = _norm_provenance(rec["provenance"], options)
        rec["scene"] = _norm_scene_ref(rec["scene"], options)
        for key in ("user", "forwarding", "reply"):
            if rec.get(key) is not None:
                rec[key]["span"] = None
                rec[key]["id"] = None
        for a in rec.get("actions", []):
            a["span"] = None
            a["id"] = None
        for key in ("tool_calls", "rag", "recall", "other_notes"):
            for n in rec.get(key, []):
                _norm_note(n, options)
        if rec.get("model_switch") is not None:
            _norm_note(rec["model_switch"], options)
        if not options.stats:
            rec["stats"] = None
    return doc


def scene_body(scene: Scene, options: Options, redact: Redactor) -> str:
    """The normalised text of a scene (stats and, unless compared, model-switch timestamps left
    out; line ends, trailing blanks and blank runs normalised; workspace paths redacted)."""
    return _scene_text(scene, options, redact, set())


def turn_parts(scene: Scene) -> set[int]:
    """The ids of the nodes of a scene's turns, as ``dump --turns`` gives them (each turn's
    speeches, notes, prose tool calls and stats line): what the diff compares turn by turn."""
    out: set[int] = set()
    for turn in scene.turns:
        for sp in (turn.user, turn.forwarding, turn.reply, *turn.actions):
            if sp is not None:
                out.add(id(sp.dialogue))
                out.update(id(n) for n in sp.continuation)
        out.update(id(r.node) for _, r in turn.notes)
        out.update(id(n) for n in turn.prose_tool_calls)
        if turn.stats is not None:
            out.add(id(turn.stats))
    return out


def scene_content(scene: Scene, options: Options, redact: Redactor) -> str:
    """The normalised text of what a scene with turns holds outside its turns (:func:`turn_parts`)
    and its description (compared as :func:`scene_description`): boneyards, transitions, action
    paragraphs between the speeches ..., normalised as :func:`scene_body` (stats lines left out
    unless compared); a paragraph break stands where a turn's part was. ``""`` when there is none."""
    skip = turn_parts(scene)
    skip.update(id(n) for n in scene.description)
    return _scene_text(scene, options, redact, skip)


def _scene_text(scene: Scene, options: Options, redact: Redactor, skip: set[int]) -> str:
    """The normalised text of a scene's nodes, those of ``skip`` replaced by a line break."""
    stats = {id(n) for n in scene.stats} if not options.stats else set()
    parts = []
    for n in scene.nodes:
        if id(n) in skip:
            if parts and parts[-1] != "\n":
                parts.append("\n")  # (a paragraph break: no two paragraphs glued together)
            continue
        if id(n) in stats:
            continue
        t = n.render()
        if not options.timestamps and isinstance(n, Note) and n.body.lstrip().startswith("model switch:"):
            t = TS_RE.sub(TIMESTAMP, t)
        parts.append(t)
    text = "".join(parts).replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
    return redact.text(text) if redact else text



#: Title-page keys whose values are times (compared only with :attr:`Options.timestamps`).
TIME_KEYS = frozenset({"date", "draft date"})


def title_entries(session: Session, options: Options, redact: Redactor) -> list[tuple[str, str]]:
    """The title page's ``(key, value)`` entries in order (a key written twice appears twice):
    the value of a time key (``Date``, ``Draft date``) is ``"<timestamp>"`` unless timestamps
    are compared; workspace paths are redacted."""
    tp = session.document.title_page
    out = []
    for e in tp.entries if tp is not None else ():
        value = e.value
        if e.key.strip().lower() in TIME_KEYS and not options.timestamps:
            value = TIMESTAMP
        out.append((e.key, redact.text(value) if redact else value))
    return out


def scene_description(scene: Scene, options: Options, redact: Redactor) -> str:
    """The normalised text of a scene's description (its leading action paragraphs): the values
    its turns carry and the diff compares per turn left out (the scene's model, wherever a
``Model:`` names it: ``<model>``;
    an EXT. scene's route endpoint and URL: ``<endpoint>``, ``<url>``), line ends and blank runs
    normalised, timestamps (unless compared) and workspace paths replaced."""
    text = scene.description_text
    spans: list[tuple[int, int, str]] = []
    if scene.model is not None:  # every `Model:` naming the scene's model, not only the first
        spans.extend((m.start("model"), m.end("model"), "<model>") for m in CHAT_DESC_RE.finditer(text)
                     if m.group("model") == scene.model)
    if scene.kind == "ext-chat":
        at = 0
        for a in scene.description:
            m = ROUTING_RE.match(a.text)
            if m:
                spans.extend((at + m.start(g), at + m.end(g), f"<{g}>") for g in ("endpoint", "url")
                             if m.group(g) is not None)
                break
            at += len(a.text) + 1
    for start, end, placeholder in sorted(set(spans), reverse=True):
        text = text[:start] + placeholder + text[end:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
    if not options.timestamps:
        text = TS_RE.sub(TIMESTAMP, text)
    return redact.text(text) if redact else text

"""Semantic diff of two Harvey sessions: the engine under ``fountain-audit diff A B``.

>>> from fountain_audit.diff import Options, diff_texts
>>> result = diff_texts(text_a, text_b, "a.spmd", "b.spmd")
>>> result.differences, result.summary()["new_failures"]
>>> doc = result.to_json()            # {"summary", "changes", "patch", ...}

**Sides.** Each file is read losslessly (:func:`fountain_audit.parse.source.read_path`), parsed and
dumped exactly as ``fountain-audit dump --turns FILE`` prints it (records from
:func:`fountain_audit.dump.dump_session`, written by :class:`fountain_audit.dump.JsonWriter`):
``{"format_version", "shape": "turns", "records": [turn, ...], "files", "errors"}``
(:attr:`Side.document`). Every JSON pointer in a change points into that document of its side
(``/records/3/tool_calls/1/status``); ``records[i]`` is turn ``i`` (0-based over the session).

**Normalisation** (:attr:`Side.normalised`): a copy of the document with the same keys and
list lengths (so a pointer valid in one is valid in the other) in which

* positions are never compared: every ``file`` becomes ``"<file>"`` (``files``: ``["<file>"]``),
  every ``span`` ``null``, and the turn ``index``, scene ``index``/``line`` and note ``turn``
  numbers ``null``;
* timestamps (unless :attr:`Options.timestamps`): scene headings and ``timestamp`` and the
  ``at`` of ``[[model switch:]]`` notes become ``"<timestamp>"``, ``timestamp_form`` ``null``;
* stats lines (unless :attr:`Options.stats`): a turn's ``stats`` becomes ``null``, a legacy
  ``[[stats:]]`` note's text ``"<stats>"``;
* the workspace (unless :attr:`Options.workspace`): each side's absolute ``Workspace:`` paths
  become ``"<workspace>"`` everywhere (:class:`fountain_audit.dump.Redactor`).

**Alignment.** Scenes are aligned by kind and content (the user inputs of their turns, or the
text of a scene without turns), then the turns of each pair of scenes by their user input,
then the notes of each pair of turns (tool calls, RAG, recall, other notes). Each level uses
:class:`difflib.SequenceMatcher` (``autojunk=False``) on exact keys; the items of a
*replace* block are paired, in order, by an optimal monotone matching on similarity
(:func:`difflib.SequenceMatcher.ratio` ≥ 0.5 on user input text, same tool name ...), so a
turn whose reply was reworded or whose tool now fails is one changed turn, never a deletion
plus an insertion. The turns removed and inserted between two paired turns are then aligned
again across scene boundaries (a scene split in two keeps its turns paired). A turn deleted in
one place and inserted with the same user input elsewhere is reported as moved.

**Changes** (:class:`Change`): ``kind`` and ``category``:

=================  =================================================================
category           kinds
=================  =================================================================
``turns``          ``turn-added``, ``turn-removed``, ``turn-moved``
``user``           ``user-changed`` (word diff)
``replies``        ``reply-changed`` (word diff)
``model``          ``model-changed``, ``target-changed``, ``forwarding-changed``,
                   ``actor-changed`` (who replied), ``model-switch-changed``
``tools``          ``tool-added``, ``tool-removed``, ``tool-changed`` (name, actor,
                   status ``ok → error``, error, arguments as a JSON-path diff ...)
``context``        ``rag-added|removed|changed``, ``recall-added|removed|changed``
``notes``          ``note-added|removed|changed`` (the turn's other notes)
``scenes``         ``scene-added|removed|changed`` (scenes without turns; headings)
``other``          ``actions-changed``, ``stats-changed``, ``field-changed``
=================  =================================================================

A recall or model-switch change in force for several turns is reported once, at the first
turn. Scenes without turns (shell, agent mode, chunk analysis ...) are compared by their
normalised text; their changes carry no pointer (they are not in the ``--turns`` document).

**Patch.** :attr:`DiffResult.patch` is an RFC 6902 JSON Patch that turns A's normalised
document into B's, built from the alignment (an inserted turn is one ``add`` of
``/records/N``); it is always complete, whatever :meth:`DiffResult.filtered` keeps.

**Units.** Indexes and pointers are 0-based; the text formats number scenes and turns from 1.
Similarity ratios are 0–1.

**Errors.** :class:`DiffError` (trouble, ``fountain-audit diff`` exits 2): a file that cannot
be read, or that is not a Harvey session (a plain screenplay, or a file with no turns).
"""

from __future__ import annotations

import copy
import difflib
import io
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from typing import Any

from fountain_audit import dump as dm
from fountain_audit.parse.fountain import Note, parse
from fountain_audit.model.session import Scene, Session, build_session
from fountain_audit.parse.source import read_path

#: Version of the ``--format json`` document (``MAJOR.MINOR``; a minor change only adds fields).
DIFF_FORMAT_VERSION = "1.0"
#: Placeholders of the normalised documents.
FILE, TIMESTAMP, STATS, WORKSPACE = "<file>", "<timestamp>", "<stats>", dm.Redactor.PLACEHOLDER
#: ``--only`` categories, in report order.
CATEGORIES = ("turns", "user", "replies", "model", "tools", "context", "notes", "scenes", "other")
#: Pairing threshold for the items of a replace block (SequenceMatcher ratio).
THRESHOLD = 0.5

_TS_RE = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?")
_HEADING_TS_RE = re.compile(r"(?:\s*—)?\s*\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?")
_WORD_RE = re.compile(r"\s+|\w+|[^\w\s]")
_PAIR_LIMIT = 40_000  # cells of the optimal-pairing table before falling back to a greedy pairing


class DiffError(Exception):
    """Trouble, not a difference: an unreadable file or one that is not a Harvey session.
    ``str(error)`` is the message, starting with the file name."""


@dataclass(frozen=True, slots=True)
class Options:
    """What normalisation keeps: ``True`` compares that part (``--compare-*``)."""

    timestamps: bool = False
    stats: bool = False
    workspace: bool = False

    def to_json(self) -> dict[str, bool]:
        return {"timestamps": self.timestamps, "stats": self.stats, "workspace": self.workspace}


# --------------------------------------------------------------------------- JSON helpers


def canon(value: Any) -> str:
    """Canonical JSON text of ``value`` (sorted keys): equal texts ⇔ equal JSON values
    (``1``, ``1.0`` and ``true`` differ, unlike in Python)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=True)


def same(a: Any, b: Any) -> bool:
    return a == b and canon(a) == canon(b)


def pointer_token(key: Any) -> str:
    """One RFC 6901 reference token (``~`` → ``~0``, ``/`` → ``~1``)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def json_path(parts: Sequence[Any]) -> str:
    """``["a", 0, "b c"]`` → ``$.a[0]['b c']``."""
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            out += "." + p
        else:
            out += "[" + json.dumps(p, ensure_ascii=False).replace("'", "\\'").replace('"', "'", 1)[:-1] + "']"
    return out


def json_path_diff(a: Any, b: Any, parts: tuple = ()) -> list[dict[str, Any]]:
    """Differences between two JSON values as ``{"op", "path", "pointer", "before", "after"}``
    entries: ``op`` is ``add``, ``remove`` or ``replace``; ``path`` a JSONPath (``$.a[0]``),
    ``pointer`` the RFC 6901 pointer relative to the values. Objects are compared key by key,
    arrays item by item (extra items added or removed at the end)."""
    if same(a, b):
        return []
    ptr = "".join("/" + pointer_token(p) for p in parts)
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[dict[str, Any]] = []
        for k in a:
            if k not in b:
                out.append({"op": "remove", "path": json_path(parts + (k,)), "pointer": ptr + "/" + pointer_token(k),
                            "before": a[k], "after": None})
            else:
                out.extend(json_path_diff(a[k], b[k], parts + (k,)))
        for k in b:
            if k not in a:
                out.append({"op": "add", "path": json_path(parts + (k,)), "pointer": ptr + "/" + pointer_token(k),
                            "before": None, "after": b[k]})
        return out
    if isinstance(a, list) and isinstance(b, list):
        out = []
        for i in range(max(len(a), len(b))):
            p = parts + (i,)
            if i >= len(b):
                out.append({"op": "remove", "path": json_path(p), "pointer": f"{ptr}/{i}", "before": a[i],
                            "after": None})
            elif i >= len(a):
                out.append({"op": "add", "path": json_path(p), "pointer": f"{ptr}/{i}", "before": None, "after": b[i]})
            else:
                out.extend(json_path_diff(a[i], b[i], p))
        return out
    return [{"op": "replace", "path": json_path(parts), "pointer": ptr, "before": a, "after": b}]


def json_patch(a: Any, b: Any, path: str = "") -> list[dict[str, Any]]:
    """An RFC 6902 patch (``add``/``remove``/``replace``) that turns ``a`` into ``b``; arrays
    are aligned with :class:`~difflib.SequenceMatcher`, so one inserted item is one ``add``."""
    if same(a, b):
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        ops: list[dict[str, Any]] = [{"op": "remove", "path": f"{path}/{pointer_token(k)}"} for k in a if k not in b]
        for k in a:
            if k in b:
                ops.extend(json_patch(a[k], b[k], f"{path}/{pointer_token(k)}"))
        ops.extend({"op": "add", "path": f"{path}/{pointer_token(k)}", "value": copy.deepcopy(b[k])}
                   for k in b if k not in a)
        return ops
    if isinstance(a, list) and isinstance(b, list):
        steps = align([canon(x) for x in a], [canon(y) for y in b],
                      lambda i, j: 1.0 if type(a[i]) is type(b[j]) else None)
        return list_patch(path, a, b, steps, json_patch)
    return [{"op": "replace", "path": path, "value": copy.deepcopy(b)}]


def list_patch(path: str, a: list, b: list, steps: list[tuple[str, int | None, int | None]],
               item_patch: Callable[[Any, Any, str], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The patch ops at array ``path`` for an alignment ``steps`` (see :func:`align`); a pair
    is patched with ``item_patch(a_item, b_item, item_path)``."""
    ops: list[dict[str, Any]] = []
    k = 0
    for op, i, j in steps:
        if op == "pair":
            ops.extend(item_patch(a[i], b[j], f"{path}/{k}"))
            k += 1
        elif op == "del":
            ops.append({"op": "remove", "path": f"{path}/{k}"})
        else:
            ops.append({"op": "add", "path": f"{path}/{k}", "value": copy.deepcopy(b[j])})
            k += 1
    return ops


# --------------------------------------------------------------------------- text helpers


def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """Word-level diff: ``[(op, text), ...]`` with ``op`` ``"="`` (kept), ``"-"`` (only in
    ``a``) or ``"+"`` (only in ``b``). Words, runs of white space and single punctuation
    characters are the units; the ``"="`` and ``"-"`` texts join to ``a``, ``"="`` and ``"+"`` to ``b``."""
    ta, tb = _WORD_RE.findall(a), _WORD_RE.findall(b)
    out: list[tuple[str, str]] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + text)
        else:
            out.append((op, text))

    for tag, i1, i2, j1, j2 in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag == "equal":
            add("=", "".join(ta[i1:i2]))
        else:
            add("-", "".join(ta[i1:i2]))
            add("+", "".join(tb[j1:j2]))
    return out


def ratio(a: str, b: str, threshold: float = THRESHOLD) -> float:
    """Similarity of two texts (0–1, :meth:`SequenceMatcher.ratio`); long texts are compared
    word by word. Below ``threshold`` the value is only an upper bound."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    x: Sequence[str] = a
    y: Sequence[str] = b
    if len(a) + len(b) > 4000:
        x, y = _WORD_RE.findall(a), _WORD_RE.findall(b)
    sm = SequenceMatcher(None, x, y, autojunk=False)
    if sm.real_quick_ratio() < threshold or sm.quick_ratio() < threshold:
        return min(sm.quick_ratio(), threshold - 1e-9)
    return sm.ratio()


# --------------------------------------------------------------------------- alignment

Step = tuple[str, "int | None", "int | None"]


def pair_block(n: int, m: int, sim: Callable[[int, int], float | None]) -> list[Step]:
    """Pair the items of a replace block (``n`` items of A, ``m`` of B) in order, maximising
    the total similarity; ``sim(i, j)`` is ``None`` when ``i`` and ``j`` may not be paired.
    Returns steps ``("pair", i, j)``, ``("del", i, None)``, ``("ins", None, j)`` in order."""
    steps: list[Step] = []
    if n * m > _PAIR_LIMIT:  # greedy: each A item takes the first pairable B item nearby
        j = 0
        for i in range(n):
            for jj in range(j, min(m, j + 10)):
                if sim(i, jj) is not None:
                    steps.extend(("ins", None, k) for k in range(j, jj))
                    steps.append(("pair", i, jj))
                    j = jj + 1
                    break
            else:
                steps.append(("del", i, None))
        steps.extend(("ins", None, k) for k in range(j, m))
        return steps
    w = [[sim(i, j) for j in range(m)] for i in range(n)]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            v = max(best[i + 1][j], best[i][j + 1])
            if w[i][j] is not None:
                v = max(v, w[i][j] + best[i + 1][j + 1])
            best[i][j] = v
    i = j = 0
    while i < n and j < m:
        if w[i][j] is not None and best[i][j] == w[i][j] + best[i + 1][j + 1]:
            steps.append(("pair", i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            steps.append(("del", i, None))
            i += 1
        else:
            steps.append(("ins", None, j))
            j += 1
    steps.extend(("del", k, None) for k in range(i, n))
    steps.extend(("ins", None, k) for k in range(j, m))
    return steps


def align(a_keys: Sequence[Any], b_keys: Sequence[Any], sim: Callable[[int, int], float | None]) -> list[Step]:
    """Align two sequences: :class:`SequenceMatcher` (``autojunk=False``) on the hashable
    ``keys``; equal items are paired, and the items of each replace block are paired by
    :func:`pair_block` with ``sim(i, j)`` (indexes into the whole sequences)."""
    steps: list[Step] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, list(a_keys), list(b_keys), autojunk=False).get_opcodes():
        if tag == "equal":
            steps.extend(("pair", i1 + k, j1 + k) for k in range(i2 - i1))
        elif tag == "delete":
            steps.extend(("del", i, None) for i in range(i1, i2))
        elif tag == "insert":
            steps.extend(("ins", None, j) for j in range(j1, j2))
        else:
            for op, i, j in pair_block(i2 - i1, j2 - j1, lambda x, y: sim(i1 + x, j1 + y)):
                steps.append((op, None if i is None else i1 + i, None if j is None else j1 + j))
    return steps


# --------------------------------------------------------------------------- sides


def turns_document(session: Session, file: str) -> dict[str, Any]:
    """The ``fountain-audit dump --turns FILE`` document of ``session``, as printed (no filters,
    no redaction), parsed back."""
    buf = io.StringIO()
    writer = dm.JsonWriter(buf, "json", "turns")
    for rec in dm.dump_session(session, file, "turns"):
        writer.write(rec)
    writer.close([file], [])
    return json.loads(buf.getvalue())


@dataclass(eq=False, slots=True)
class SceneUnit:
    """A scene as aligned: ``turns`` are record indexes; ``body`` the normalised text of a
    scene without turns; ``key`` the exact alignment key; ``text`` the similarity text."""

    index: int
    kind: str
    heading: str
    raw_heading: str
    turns: list[int]
    body: str
    workspace: str | None
    key: tuple
    text: str
    turn_keys: list[tuple]


@dataclass(eq=False, slots=True)
class Side:
    """One file of the diff: its ``name``, session model, ``document`` (the ``dump --turns``
    document), ``normalised`` copy and aligned scene units."""

    name: str
    session: Session
    document: dict[str, Any]
    normalised: dict[str, Any]
    scenes: list[SceneUnit]
    recall_scenes: frozenset[int]

    @property
    def records(self) -> list[dict[str, Any]]:
        return self.normalised["records"]


def _norm_scene_ref(ref: dict[str, Any] | None, options: Options) -> dict[str, Any] | None:
    if ref is None:
        return None
    ref = dict(ref, index=None, line=None)
    ref["id"] = None  # ids are positions (s3), like index and line
    if not options.timestamps:
        ref["heading"] = _HEADING_TS_RE.sub(" " + TIMESTAMP, ref["heading"])
        ref["timestamp"] = None if ref["timestamp"] is None else TIMESTAMP
        ref["timestamp_form"] = None
    return ref


def _norm_note(note: dict[str, Any], options: Options) -> None:
    note["file"] = FILE
    note["scene"] = _norm_scene_ref(note.get("scene"), options)
    note["turn"] = None
    note["span"] = None
    note["id"] = None  # t3.tool2 is a position, like turn and span
    kind = note.get("kind")
    if kind == "model switch" and not options.timestamps:
        note["body"] = _TS_RE.sub(TIMESTAMP, note["body"])
        if isinstance(note.get("fields"), dict) and "at" in note["fields"]:
            note["fields"]["at"] = TIMESTAMP
    if kind == "stats" and not options.stats:
        note["body"] = "stats: " + STATS
        note["fields"] = {}


def normalise(document: dict[str, Any], session: Session, options: Options = Options()) -> dict[str, Any]:
    """The normalised copy of a ``dump --turns`` document (see the module docstring)."""
    redact = dm.Redactor() if options.workspace else dm.Redactor(dm.workspaces(session))
    doc = redact(copy.deepcopy(document))
    doc["files"] = [FILE for _ in doc.get("files", [])]
    for rec in doc["records"]:
        rec["file"] = FILE
        rec["index"] = None
        rec["span"] = None
        rec["id"] = None  # ids (t3, t3.reply ...) are positions, like index and span
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


def _scene_body(scene: Scene, options: Options, redact: dm.Redactor) -> str:
    stats = {id(n) for n in scene.stats} if not options.stats else set()
    parts = []
    for n in scene.nodes:
        if id(n) in stats:
            continue
        t = n.render()
        if not options.timestamps and isinstance(n, Note) and n.body.lstrip().startswith("model switch:"):
            t = _TS_RE.sub(TIMESTAMP, t)
        parts.append(t)
    text = "".join(parts).replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
    return redact.text(text) if redact else text


def turn_key(rec: dict[str, Any]) -> tuple:
    """The alignment key of a normalised turn record: its user input (else its reply)."""
    if rec.get("user") is not None:
        return ("user", rec["user"]["text"])
    if rec.get("reply") is not None:
        return ("reply", rec["reply"]["character"], rec["reply"]["text"])
    return ("turn", canon({k: v for k, v in rec.items() if k != "scene"}))


def turn_text(rec: dict[str, Any]) -> str:
    """The similarity text of a turn: its user input, else its reply, else ``""``."""
    for key in ("user", "reply"):
        if rec.get(key) is not None:
            return rec[key]["text"]
    return ""


def make_side(name: str, text: str, options: Options = Options()) -> Side:
    """Parse ``text`` (the content of file ``name``) into a :class:`Side`.

    Raises :class:`DiffError` when it is not a Harvey session (a plain screenplay, or no turns).
    """
    try:
        session = build_session(parse(text))
    except (RecursionError, MemoryError, ValueError) as e:  # pragma: no cover - the parser never raises
        raise DiffError(f"{name}: cannot parse: {e}") from None
    if session.kind == "screenplay":
        raise DiffError(f"{name}: not a Harvey session (a plain screenplay)")
    if not session.turns:
        raise DiffError(f"{name}: not a Harvey session (no turns)")
    document = turns_document(session, name)
    normalised = normalise(document, session, options)
    redact = dm.Redactor() if options.workspace else dm.Redactor(dm.workspaces(session))
    by_scene: dict[int, list[int]] = {}
    for i, rec in enumerate(document["records"]):
        by_scene.setdefault(rec["scene"]["index"], []).append(i)
    recall_scenes = frozenset(n["scene"]["index"] for rec in document["records"] for n in rec["recall"]
                              if n.get("scene") is not None)
    units = []
    recs = normalised["records"]
    for sc in session.scenes:
        turns = by_scene.get(sc.index, [])
        heading = _HEADING_TS_RE.sub(" " + TIMESTAMP, sc.heading.heading) if not options.timestamps \
            else sc.heading.heading
        heading = redact.text(heading) if redact else heading
        body = "" if turns else _scene_body(sc, options, redact)
        ws = sc.workspace if options.workspace else None
        tkeys = [turn_key(recs[t]) for t in turns]
        key = (sc.kind, heading, tuple(tkeys)) if turns else (sc.kind, heading, body)
        text = "\n".join(turn_text(recs[t]) for t in turns) if turns else body
        units.append(SceneUnit(sc.index, sc.kind, heading, sc.heading.heading, turns, body, ws, key, text, tkeys))
    return Side(name, session, document, normalised, units, recall_scenes)


def read_side(path: str, options: Options = Options(), name: str | None = None) -> Side:
    """Read file ``path`` (reported as ``name``) into a :class:`Side`.

    Raises :class:`DiffError` for an unreadable file or one that is not a Harvey session.
    """
    name = path if name is None else name
    try:
        text = read_path(path)
    except OSError as e:
        raise DiffError(f"{name}: cannot read: {e.strerror or e}") from None
    return make_side(name, text, options)


# --------------------------------------------------------------------------- changes


@dataclass(slots=True)
class Change:
    """One difference. ``a_turn``/``b_turn`` and ``a_scene``/``b_scene`` are 0-based indexes
    (``None`` on the side that lacks it); ``a_pointer``/``b_pointer`` JSON pointers into that
    side's ``dump --turns`` document (``None`` when the item is absent or not in it).
    ``before``/``after`` are the values compared (normalised), ``words`` a
    :func:`word_diff`, ``details`` per-field differences (``{"field", "before", "after"}``,
    or ``{"field", "diff": json_path_diff(...)}``, or ``{"field", "words"}``).
    ``new_failures`` counts tool calls that now fail (``ok → error``, or added with ``error``)."""

    kind: str
    category: str
    message: str
    a_scene: int | None = None
    b_scene: int | None = None
    a_turn: int | None = None
    b_turn: int | None = None
    a_pointer: str | None = None
    b_pointer: str | None = None
    before: Any = None
    after: Any = None
    words: list[tuple[str, str]] | None = None
    details: list[dict[str, Any]] = field(default_factory=list)
    new_failures: int = 0
    categories: tuple[str, ...] = ()
    heading: str | None = None

    def __post_init__(self) -> None:
        if not self.categories:
            self.categories = (self.category,)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "category": self.category, "categories": list(self.categories),
                "message": self.message, "scene": {"a": self.a_scene, "b": self.b_scene},
                "turn": {"a": self.a_turn, "b": self.b_turn},
                "pointer": {"a": self.a_pointer, "b": self.b_pointer},
                "before": self.before, "after": self.after,
                "words": None if self.words is None else [list(w) for w in self.words],
                "details": self.details, "new_failures": self.new_failures}


_POSITIONAL_NOTE_KEYS = frozenset({"record", "id", "file", "scene", "turn", "span"})
_TOOL_FIELDS = ("name", "actor", "status", "error", "arguments", "arguments_json", "arguments_strict_json",
                "phase", "form", "valid", "problem")
_NOTE_FIELDS = ("kind", "fields", "phase", "valid", "problem")
_SPEECH_SKIP = frozenset({"text", "span"})
_TURN_KEYS = frozenset({"record", "id", "file", "index", "span", "scene", "user", "forwarding", "target", "reply",
                        "complete", "tool_calls", "rag", "recall", "model", "model_switch", "actions",
                        "other_notes", "stats"})


def _field_details(x: dict[str, Any], y: dict[str, Any], order: Sequence[str],
                   fallback: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Per-field differences of two records: the fields of ``order`` first, then (only when
    none differs) the first differing field of ``fallback``, then any other non-positional key."""
    out: list[dict[str, Any]] = []
    for f in order:
        a, b = x.get(f), y.get(f)
        if same(a, b):
            continue
        if isinstance(a, (dict, list)) and isinstance(b, (dict, list)) and type(a) is type(b):
            out.append({"field": f, "diff": json_path_diff(a, b)})
        elif isinstance(a, str) and isinstance(b, str) and f in ("arguments", "error", "problem"):
            out.append({"field": f, "before": a, "after": b, "words": [list(w) for w in word_diff(a, b)]})
        else:
            out.append({"field": f, "before": a, "after": b})
    if not out:
        for f in fallback:
            a, b = x.get(f), y.get(f)
            if not same(a, b):
                d: dict[str, Any] = {"field": f, "before": a, "after": b}
                if isinstance(a, str) and isinstance(b, str):
                    d["words"] = [list(w) for w in word_diff(a, b)]
                out.append(d)
                break
    known = set(order) | set(fallback) | _POSITIONAL_NOTE_KEYS | {"arguments_text", "body"}
    for f in list(x) + [k for k in y if k not in x]:
        if f not in known and not same(x.get(f), y.get(f)):
            out.append({"field": f, "before": x.get(f), "after": y.get(f)})
    return out


def _tool_sim(x: dict[str, Any], y: dict[str, Any]) -> float | None:
    if x.get("name") is not None and x.get("name") == y.get("name"):
        return 1.0 + 0.5 * ratio(canon(x.get("arguments")), canon(y.get("arguments")), 0.0)
    r = ratio(x.get("body", ""), y.get("body", ""))
    return r if r >= THRESHOLD else None


def _note_sim(x: dict[str, Any], y: dict[str, Any]) -> float | None:
    if x.get("kind") != y.get("kind"):
        return None
    fx, fy = x.get("fields") or {}, y.get("fields") or {}
    for ident in ("id", "source", "path", "command", "target", "model"):
        if ident in fx and fx.get(ident) == fy.get(ident):
            return 1.5
    r = ratio(x.get("body", ""), y.get("body", ""))
    return r if r >= THRESHOLD else None


def compact(note: dict[str, Any] | None) -> dict[str, Any] | None:
    """A note record without its positional keys (``id``, ``file``, ``scene``, ``turn``, ``span``),
    as shown in a change's ``before``/``after`` (the pointers say where it is)."""
    if note is None:
        return None
    return {k: v for k, v in note.items() if k not in ("id", "file", "scene", "turn", "span")}


def _tool_label(t: dict[str, Any]) -> str:
    body = t.get("body") or ""
    if t.get("form") == "note" and ":" in body[:200]:
        head, _, rest = body.partition(":")
        if head.endswith("tool"):
            return (head[:-5] + "." if head != "tool" else "") + rest.strip()
    return body


def _what(base: str, note: dict[str, Any]) -> str:
    """``tool``, or a note's kind (``rag-source``, ``recall``, ``model switch`` ...)."""
    return base if base == "tool" else str(note.get("kind") or base)


def _note_label(n: dict[str, Any]) -> str:
    """A note's text without its ``kind:`` head."""
    body = n.get("body") or ""
    head, sep, rest = body.partition(":")
    return rest.strip() if sep and head.strip().endswith(str(n.get("kind"))) else body


def _status_text(t: dict[str, Any]) -> str:
    s = t.get("status")
    if s == "error" and t.get("error"):
        return f"error ({t['error']})"
    return str(s)


def _one_line(text: str | None, width: int = 60) -> str:
    if text is None:
        return "(none)"
    first = text.strip().split("\n", 1)[0]
    more = "\n" in text.strip()
    if len(first) > width:
        return first[:width - 1] + "…"
    return first + (" …" if more else "")


class _Differ:
    """Builds the changes and the patch for two sides."""

    def __init__(self, a: Side, b: Side, options: Options):
        self.a, self.b, self.options = a, b, options
        self.ra, self.rb = a.records, b.records
        self.changes: list[Change] = []
        self.seen: set[str] = set()  # dedupe of recall / model-switch changes

    # ---- helpers
    def _ctx(self, ia: int | None, ib: int | None) -> dict[str, Any]:
        da, db = self.a.document["records"], self.b.document["records"]
        sa = da[ia]["scene"]["index"] if ia is not None else None
        sb = db[ib]["scene"]["index"] if ib is not None else None
        heading = db[ib]["scene"]["heading"] if ib is not None else da[ia]["scene"]["heading"]
        return {"a_turn": ia, "b_turn": ib, "a_scene": sa, "b_scene": sb, "heading": heading}

    def add(self, kind: str, category: str, message: str, ctx: dict[str, Any], pa: str | None, pb: str | None,
            **kw: Any) -> Change:
        ch = Change(kind, category, message, a_pointer=pa, b_pointer=pb, **ctx, **kw)
        self.changes.append(ch)
        return ch

    def _dedupe(self, *parts: Any) -> bool:
        """True the first time these values are seen."""
        k = canon(parts)
        if k in self.seen:
            return False
        self.seen.add(k)
        return True

    # ---- run
    def run(self) -> tuple[list[Change], list[dict[str, Any]]]:
        a, b = self.a, self.b
        scene_steps = align([s.key for s in a.scenes], [s.key for s in b.scenes],
                            lambda i, j: self._scene_sim(a.scenes[i], b.scenes[j]))
        # The record-level script (monotone), with the scene step each record step belongs to.
        events: list[tuple[str, Any]] = []
        script: list[Step] = []
        for op, i, j in scene_steps:
            sa = a.scenes[i] if i is not None else None
            sb = b.scenes[j] if j is not None else None
            events.append(("scene", (op, sa, sb)))
            if op == "pair":
                tsteps = align(sa.turn_keys, sb.turn_keys,
                               lambda x, y: self._turn_sim(sa.turns[x], sb.turns[y]))
                steps = [(o, None if x is None else sa.turns[x], None if y is None else sb.turns[y])
                         for o, x, y in tsteps]
            elif op == "del":
                steps = [("del", t, None) for t in sa.turns]
            else:
                steps = [("ins", None, t) for t in sb.turns]
            script.extend(steps)
            events.extend(("turn", s) for s in steps)
        script, events = self._refine(script, events)
        moved = self._moves(script)
        moved_a = {x for x, _ in moved.items()}
        moved_b = {y: x for x, y in moved.items()}
        for what, ev in events:
            if what == "scene":
                self._scene_changes(*ev)
                continue
            op, i, j = ev
            if op == "pair":
                self._turn_changes(i, j)
            elif op == "del":
                if i not in moved_a:
                    self._turn_added_removed("turn-removed", i, None)
            elif j in moved_b:
                ia = moved_b[j]
                ctx = self._ctx(ia, j)
                self.add("turn-moved", "turns", f"turn moved from turn {ia + 1} to turn {j + 1}", ctx,
                         f"/records/{ia}", f"/records/{j}")
                self._turn_changes(ia, j)
            else:
                self._turn_added_removed("turn-added", None, j)
        patch = self._patch(script)
        return self.changes, patch

    # ---- scenes
    def _scene_sim(self, sa: SceneUnit, sb: SceneUnit) -> float | None:
        if sa.kind != sb.kind:
            return None
        if sa.turns and sb.turns:
            r = SequenceMatcher(None, sa.turn_keys, sb.turn_keys, autojunk=False).ratio()
            if r > 0:
                return 1.0 + r
        t = ratio(sa.text, sb.text)
        return t if t >= THRESHOLD else None

    def _reportable(self, side: Side, s: SceneUnit) -> bool:
        """Scenes without turns are compared as scenes, except recall scenes whose notes the
        turns carry (their changes are reported as recall changes)."""
        return not s.turns and not (s.kind == "context-recall" and s.index in side.recall_scenes)

    def _scene_changes(self, op: str, sa: SceneUnit | None, sb: SceneUnit | None) -> None:
        if op == "del":
            if self._reportable(self.a, sa):
                self.add("scene-removed", "scenes", f"scene removed: {sa.raw_heading}",
                         {"a_scene": sa.index, "b_scene": None, "heading": sa.raw_heading}, None, None,
                         before={"heading": sa.heading, "text": sa.body})
            return
        if op == "ins":
            if self._reportable(self.b, sb):
                self.add("scene-added", "scenes", f"scene added: {sb.raw_heading}",
                         {"a_scene": None, "b_scene": sb.index, "heading": sb.raw_heading}, None, None,
                         after={"heading": sb.heading, "text": sb.body})
            return
        details: list[dict[str, Any]] = []
        if sa.heading != sb.heading:
            details.append({"field": "heading", "before": sa.heading, "after": sb.heading})
        if self.options.workspace and sa.workspace != sb.workspace:
            details.append({"field": "workspace", "before": sa.workspace, "after": sb.workspace})
        if self._reportable(self.a, sa) and self._reportable(self.b, sb) and sa.body != sb.body:
            lines = list(difflib.unified_diff(sa.body.split("\n"), sb.body.split("\n"), lineterm="", n=1))[2:]
            details.append({"field": "text", "before": sa.body, "after": sb.body, "diff": lines})
        if not details:
            return
        pa = f"/records/{sa.turns[0]}/scene" if sa.turns else None
        pb = f"/records/{sb.turns[0]}/scene" if sb.turns else None
        what = ", ".join(d["field"] for d in details)
        self.add("scene-changed", "scenes", f"scene changed ({what}): {sb.raw_heading}",
                 {"a_scene": sa.index, "b_scene": sb.index, "heading": sb.raw_heading}, pa, pb,
                 before=sa.heading, after=sb.heading, details=details)

    # ---- turns
    def _turn_sim(self, i: int, j: int) -> float | None:
        r = ratio(turn_text(self.ra[i]), turn_text(self.rb[j]))
        return r if r >= THRESHOLD else None

    def _refine(self, script: list[Step], events: list[tuple[str, Any]]) -> tuple[list[Step], list[tuple[str, Any]]]:
        """Re-align the turns removed and inserted between two paired turns across scene
        boundaries (a scene split or merged in two keeps its turns paired), keeping the
        script monotone. ``events`` (scene and turn events in order) follow the new script."""
        refined: list[Step] = []
        gaps: dict[int, tuple[int, list[Step]]] = {}  # script position of a gap -> (its end, new steps)
        k = 0
        while k < len(script):
            if script[k][0] == "pair":
                refined.append(script[k])
                k += 1
                continue
            end = k
            while end < len(script) and script[end][0] != "pair":
                end += 1
            gap = script[k:end]
            dels = [i for op, i, _ in gap if op == "del"]
            ins = [j for op, _, j in gap if op == "ins"]
            if dels and ins:
                gap = [(op, None if x is None else dels[x], None if y is None else ins[y])
                       for op, x, y in align([turn_key(self.ra[i]) for i in dels],
                                             [turn_key(self.rb[j]) for j in ins],
                                             lambda x, y: self._turn_sim(dels[x], ins[y]))]
            gaps[k] = (end, gap)
            refined.extend(gap)
            k = end
        out: list[tuple[str, Any]] = []
        pos = skip_until = 0
        for what, ev in events:
            if what != "turn":
                out.append((what, ev))
                continue
            if pos in gaps:
                skip_until, steps = gaps[pos]
                out.extend(("turn", st) for st in steps)
            elif pos >= skip_until:
                out.append(("turn", ev))
            pos += 1
        return refined, out

    def _moves(self, script: list[Step]) -> dict[int, int]:
        """Deleted A turns re-inserted elsewhere in B with the same key: ``{a: b}``."""
        inserted: dict[tuple, list[int]] = {}
        for op, _, j in script:
            if op == "ins":
                inserted.setdefault(turn_key(self.rb[j]), []).append(j)
        out: dict[int, int] = {}
        for op, i, _ in script:
            if op == "del":
                cands = inserted.get(turn_key(self.ra[i]))
                if cands:
                    out[i] = cands.pop(0)
        return out

    def _turn_summary(self, rec: dict[str, Any]) -> dict[str, Any]:
        sp = (lambda s: None if s is None else {"character": s["character"], "text": s["text"]})
        return {"user": sp(rec.get("user")), "target": rec.get("target"), "reply": sp(rec.get("reply")),
                "tool_calls": [_tool_label(t) for t in rec.get("tool_calls", [])],
                "rag": [n.get("body") for n in rec.get("rag", [])], "model": rec.get("model")}

    def _turn_added_removed(self, kind: str, ia: int | None, ib: int | None) -> None:
        rec = self.rb[ib] if ib is not None else self.ra[ia]
        cats = ["turns"]
        if rec.get("tool_calls"):
            cats.append("tools")
        if rec.get("reply") is not None:
            cats.append("replies")
        if rec.get("rag"):  # (recall notes are those in force, not the turn's own)
            cats.append("context")
        n = ib if ib is not None else ia
        label = _one_line(turn_text(rec))
        summary = self._turn_summary(rec)
        failures = sum(1 for t in rec.get("tool_calls", []) if t.get("status") == "error") if ib is not None else 0
        self.add(kind, "turns", f"turn {n + 1} {'added' if ib is not None else 'removed'}: {label}",
                 self._ctx(ia, ib), None if ia is None else f"/records/{ia}", None if ib is None else f"/records/{ib}",
                 before=None if ia is None else summary, after=None if ib is None else summary,
                 categories=tuple(cats), new_failures=failures)

    def _turn_changes(self, ia: int, ib: int) -> None:
        x, y = self.ra[ia], self.rb[ib]
        ctx = self._ctx(ia, ib)
        pa, pb = f"/records/{ia}", f"/records/{ib}"
        if same({k: v for k, v in x.items() if k != "scene"}, {k: v for k, v in y.items() if k != "scene"}):
            return
        # user input
        self._speech("user-changed", "user", "user", x.get("user"), y.get("user"), ctx, pa, pb)
        # forwarding
        if not same(x.get("target"), y.get("target")):
            self.add("target-changed", "model", f"forwarding target {x.get('target')} → {y.get('target')}", ctx,
                     pa + "/target", pb + "/target", before=x.get("target"), after=y.get("target"))
        elif not same(x.get("forwarding"), y.get("forwarding")):
            self._speech("forwarding-changed", "model", "forwarding", x.get("forwarding"), y.get("forwarding"),
                         ctx, pa, pb)
        # reply
        rx, ry = x.get("reply"), y.get("reply")
        if rx is not None and ry is not None and rx["character"] != ry["character"]:
            self.add("actor-changed", "model", f"reply by {rx['character']} → {ry['character']}", ctx,
                     pa + "/reply/character", pb + "/reply/character", before=rx["character"], after=ry["character"])
        self._speech("reply-changed", "replies", "reply", rx, ry, ctx, pa, pb)
        # model, model switch
        if not same(x.get("model"), y.get("model")):
            self.add("model-changed", "model", f"model {x.get('model')} → {y.get('model')}", ctx,
                     pa + "/model", pb + "/model", before=x.get("model"), after=y.get("model"))
        mx, my = compact(x.get("model_switch")), compact(y.get("model_switch"))
        if not same(mx, my) and self._dedupe("model-switch", mx, my):
            bx = None if mx is None else mx.get("body")
            by = None if my is None else my.get("body")
            det = _field_details(mx, my, _NOTE_FIELDS, ("body",)) if mx is not None and my is not None else []
            self.add("model-switch-changed", "model", f"model switch {_one_line(bx)} → {_one_line(by)}", ctx,
                     pa + "/model_switch", pb + "/model_switch", before=mx, after=my, details=det)
        # notes
        self._notes("tool_calls", x, y, ctx, pa, pb)
        self._notes("rag", x, y, ctx, pa, pb)
        self._notes("recall", x, y, ctx, pa, pb)
        self._notes("other_notes", x, y, ctx, pa, pb)
        # actions, stats, anything else
        ax, ay = x.get("actions", []), y.get("actions", [])
        if not same(ax, ay):
            tx = "\n".join(f"{s['character']}: {s['text']}" for s in ax)
            ty = "\n".join(f"{s['character']}: {s['text']}" for s in ay)
            self.add("actions-changed", "other", "prompts and answers changed", ctx, pa + "/actions", pb + "/actions",
                     before=tx, after=ty, words=word_diff(tx, ty))
        if not same(x.get("stats"), y.get("stats")):
            self.add("stats-changed", "other", f"stats {_one_line(x.get('stats'))} → {_one_line(y.get('stats'))}",
                     ctx, pa + "/stats", pb + "/stats", before=x.get("stats"), after=y.get("stats"))
        for k in list(x) + [k for k in y if k not in x]:
            if k not in _TURN_KEYS and not same(x.get(k), y.get(k)):
                self.add("field-changed", "other", f"{k} changed", ctx, f"{pa}/{pointer_token(k)}",
                         f"{pb}/{pointer_token(k)}", before=x.get(k), after=y.get(k))

    def _speech(self, kind: str, category: str, key: str, sx: dict | None, sy: dict | None, ctx: dict[str, Any],
                pa: str, pb: str) -> None:
        if same(sx, sy):
            return
        who = (sy or sx or {}).get("character", "")
        if sx is None or sy is None:
            verb = "added" if sx is None else "removed"
            self.add(kind, category, f"{key} {verb} ({who})", ctx, f"{pa}/{key}", f"{pb}/{key}",
                     before=None if sx is None else sx["text"], after=None if sy is None else sy["text"])
            return
        skip = set(_SPEECH_SKIP)
        if key == "reply" and sx["character"] != sy["character"]:
            skip |= {"character", "cue"}  # reported as actor-changed
        details = [{"field": f, "before": sx.get(f), "after": sy.get(f)}
                   for f in list(sx) + [k for k in sy if k not in sx]
                   if f not in skip and not same(sx.get(f), sy.get(f))]
        text_changed = sx["text"] != sy["text"]
        if not text_changed and not details:
            return
        only_text = text_changed and not details
        suffix = "/text" if only_text else ""
        self.add(kind, category, f"{key} changed ({who})", ctx, f"{pa}/{key}{suffix}", f"{pb}/{key}{suffix}",
                 before=sx["text"], after=sy["text"], words=word_diff(sx["text"], sy["text"]) if text_changed else None,
                 details=details)

    def _notes(self, key: str, x: dict[str, Any], y: dict[str, Any], ctx: dict[str, Any], pa: str, pb: str) -> None:
        xs, ys = x.get(key, []), y.get(key, [])
        if same([compact(n) for n in xs], [compact(n) for n in ys]):
            return
        steps = self._note_steps(key, xs, ys)
        base, category = {"tool_calls": ("tool", "tools"), "rag": ("rag", "context"), "recall": ("recall", "context"),
                          "other_notes": ("note", "notes")}[key]
        for op, i, j in steps:
            na = None if i is None else xs[i]
            nb = None if j is None else ys[j]
            p_a = None if i is None else f"{pa}/{key}/{i}"
            p_b = None if j is None else f"{pb}/{key}/{j}"
            if op == "pair" and same(compact(na), compact(nb)):
                continue
            if key == "recall" and not self._dedupe("recall", na, nb):
                continue
            label = _tool_label if key == "tool_calls" else _note_label
            if op == "del":
                self.add(f"{base}-removed", category, f"{_what(base, na)} removed: {label(na)}", ctx, p_a, None,
                         before=compact(na))
            elif op == "ins":
                fails = 1 if key == "tool_calls" and nb.get("status") == "error" else 0
                self.add(f"{base}-added", category, f"{_what(base, nb)} added: {label(nb)}", ctx, None, p_b,
                         after=compact(nb), new_failures=fails)
            elif key == "tool_calls":
                details = _field_details(na, nb, _TOOL_FIELDS, ("arguments_text", "body"))
                fails = 1 if na.get("status") != "error" and nb.get("status") == "error" else 0
                parts = []
                fields = {d["field"] for d in details}
                if fields & {"status", "error"}:
                    parts.append(f"status {_status_text(na)} → {_status_text(nb)}")
                for d in details:
                    if d["field"] in ("status", "error"):
                        continue
                    if d["field"] in ("name", "actor"):
                        parts.append(f"{d['field']}: {d['before']} → {d['after']}")
                    else:
                        parts.append(f"{d['field']} changed")
                name = nb.get("name") or na.get("name") or "?"
                self.add("tool-changed", "tools", f"tool {name}: " + ", ".join(parts), ctx, p_a, p_b,
                         before=compact(na), after=compact(nb), details=details, new_failures=fails)
            else:
                details = _field_details(na, nb, _NOTE_FIELDS, ("body",))
                self.add(f"{base}-changed", category, f"{_what(base, nb)} changed: {label(nb)}", ctx, p_a, p_b,
                         before=compact(na), after=compact(nb), details=details)

    def _note_steps(self, key: str, xs: list, ys: list) -> list[Step]:
        keys_a, keys_b = [canon(compact(n)) for n in xs], [canon(compact(n)) for n in ys]
        sim = _tool_sim if key == "tool_calls" else _note_sim
        return align(keys_a, keys_b, lambda i, j: sim(xs[i], ys[j]))

    # ---- patch
    def _record_patch(self, x: dict[str, Any], y: dict[str, Any], path: str) -> list[dict[str, Any]]:
        lists = ("tool_calls", "rag", "recall", "other_notes")
        ops = json_patch({k: v for k, v in x.items() if k not in lists},
                         {k: v for k, v in y.items() if k not in lists}, path)
        for key in lists:
            xs, ys = x.get(key), y.get(key)
            if same(xs, ys):
                continue
            if not isinstance(xs, list) or not isinstance(ys, list):
                ops.extend(json_patch({key: xs} if key in x else {}, {key: ys} if key in y else {}, path))
                continue
            ops.extend(list_patch(f"{path}/{key}", xs, ys, self._note_steps(key, xs, ys), json_patch))
        return ops

    def _patch(self, script: list[Step]) -> list[dict[str, Any]]:
        na, nb = self.a.normalised, self.b.normalised
        ops = json_patch({k: v for k, v in na.items() if k != "records"},
                         {k: v for k, v in nb.items() if k != "records"})
        ops.extend(list_patch("/records", self.ra, self.rb, script, self._record_patch))
        return ops


# --------------------------------------------------------------------------- result


@dataclass(eq=False, slots=True)
class DiffResult:
    """The diff of two sides: ``changes`` in order (B's order, removals where they were),
    the complete ``patch`` (A's normalised document → B's) and ``only`` (the categories
    kept, ``None`` for all)."""

    a: Side
    b: Side
    options: Options
    changes: list[Change]
    patch: list[dict[str, Any]]
    only: frozenset[str] | None = None

    @property
    def differences(self) -> bool:
        return bool(self.changes)

    def filtered(self, only: Sequence[str] | frozenset[str] | None) -> DiffResult:
        """The result keeping only changes of these categories (a change of an added or
        removed turn belongs to ``turns`` and to the categories of what the turn holds)."""
        if not only:
            return self
        keep = frozenset(only)
        bad = keep - set(CATEGORIES)
        if bad:
            raise ValueError(f"unknown category {sorted(bad)[0]!r} (choose from {', '.join(CATEGORIES)})")
        return replace(self, changes=[c for c in self.changes if keep & set(c.categories)], only=keep)

    def summary(self) -> dict[str, Any]:
        """Counts over :attr:`changes`. ``tool_calls_added``/``removed`` include the tool calls
        of added/removed turns; ``new_failures`` counts tool calls that fail in B and did not
        in A (``ok → error``, or added with ``error``)."""
        cs = self.changes
        kinds = [c.kind for c in cs]
        added = [c for c in cs if c.kind == "turn-added"]
        removed = [c for c in cs if c.kind == "turn-removed"]
        moved = {(c.a_turn, c.b_turn) for c in cs if c.kind == "turn-moved"}
        modified = {(c.a_turn, c.b_turn) for c in cs if c.category != "turns" and c.a_turn is not None
                    and c.b_turn is not None and (c.a_turn, c.b_turn) not in moved}
        tools_in = (lambda side, recs: sum(len(side.records[c.b_turn if side is self.b else c.a_turn]
                                               .get("tool_calls", [])) for c in recs))
        return {
            "differences": bool(cs),
            "changes": len(cs),
            "turns_a": len(self.a.records),
            "turns_b": len(self.b.records),
            "turns_changed": len(added) + len(removed) + len(moved) + len(modified),
            "turns_added": len(added),
            "turns_removed": len(removed),
            "turns_moved": len(moved),
            "turns_modified": len(modified),
            "tool_calls_added": kinds.count("tool-added") + tools_in(self.b, added),
            "tool_calls_removed": kinds.count("tool-removed") + tools_in(self.a, removed),
            "tool_calls_changed": kinds.count("tool-changed"),
            "new_failures": sum(c.new_failures for c in cs),
            "user_inputs_changed": kinds.count("user-changed"),
            "replies_changed": kinds.count("reply-changed"),
            "model_changes": sum(1 for c in cs if c.category == "model"),
            "context_changes": sum(1 for c in cs if c.category == "context"),
            "note_changes": sum(1 for c in cs if c.category == "notes"),
            "scene_changes": sum(1 for c in cs if c.category == "scenes"),
            "other_changes": sum(1 for c in cs if c.category == "other"),
        }

    def to_json(self, stat: bool = False) -> dict[str, Any]:
        """The ``--format json`` document: ``format_version``, ``a``/``b`` (file, turns,
        scenes), ``compared`` (:meth:`Options.to_json`), ``only``, ``summary``, then (unless
        ``stat``) ``changes`` and ``patch``."""
        out: dict[str, Any] = {
            "format_version": DIFF_FORMAT_VERSION,
            "a": {"file": self.a.name, "turns": len(self.a.records), "scenes": len(self.a.scenes)},
            "b": {"file": self.b.name, "turns": len(self.b.records), "scenes": len(self.b.scenes)},
            "compared": self.options.to_json(),
            "only": None if self.only is None else [c for c in CATEGORIES if c in self.only],
            "summary": self.summary(),
        }
        if not stat:
            out["changes"] = [c.to_json() for c in self.changes]
            out["patch"] = self.patch
        return out


def diff_sides(a: Side, b: Side, options: Options = Options()) -> DiffResult:
    """Diff two sides built with the same ``options``."""
    changes, patch = _Differ(a, b, options).run()
    return DiffResult(a, b, options, changes, patch)


def diff_texts(text_a: str, text_b: str, name_a: str = "a", name_b: str = "b",
               options: Options = Options()) -> DiffResult:
    """Diff two session texts. Raises :class:`DiffError` (see :func:`make_side`)."""
    return diff_sides(make_side(name_a, text_a, options), make_side(name_b, text_b, options), options)


def diff_files(path_a: str, path_b: str, options: Options = Options()) -> DiffResult:
    """Diff two session files. Raises :class:`DiffError` (see :func:`read_side`)."""
    return diff_sides(read_side(path_a, options), read_side(path_b, options), options)


# --------------------------------------------------------------------------- rendering

#: A rendered line: segments ``(text, style)``; style names: ``header``, ``meta``, ``add``,
#: ``remove``, ``change``, ``move``, ``del`` / ``ins`` (words), ``summary``, or ``None``.
Line = list[tuple[str, "str | None"]]

_SIGN = {"added": ("+", "add"), "removed": ("-", "remove"), "moved": (">", "move")}


def _sign(kind: str) -> tuple[str, str]:
    return _SIGN.get(kind.rsplit("-", 1)[-1], ("~", "change"))


def _hunk_key(c: Change) -> tuple:
    if c.a_turn is not None or c.b_turn is not None:
        return ("turn", c.a_turn, c.b_turn)
    return ("scene", c.a_scene, c.b_scene)


def _hunk_header(c: Change) -> Line:
    if c.a_turn is not None or c.b_turn is not None:
        nums = " ".join(p for p in (None if c.a_turn is None else f"-turn {c.a_turn + 1}",
                                    None if c.b_turn is None else f"+turn {c.b_turn + 1}") if p)
    else:
        nums = " ".join(p for p in (None if c.a_scene is None else f"-scene {c.a_scene + 1}",
                                    None if c.b_scene is None else f"+scene {c.b_scene + 1}") if p)
    scene = c.b_scene if c.b_scene is not None else c.a_scene
    return [(f"@@ {nums} @@", "header"), (f" scene {scene + 1 if scene is not None else '?'}: {c.heading or ''}",
                                          "meta")]


def _words_lines(words: list[tuple[str, str]], indent: str = "    ") -> list[Line]:
    """Word-diff segments split into lines."""
    lines: list[Line] = [[(indent, None)]]
    for op, text in words:
        style = {"=": None, "-": "del", "+": "ins"}[op]
        parts = text.split("\n")
        for k, part in enumerate(parts):
            if k:
                lines.append([(indent, None)])
            if part:
                lines[-1].append((part, style))
    return lines


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def _detail_lines(d: dict[str, Any]) -> list[Line]:
    out: list[Line] = []
    if "diff" in d and d["field"] != "text":
        for e in d["diff"]:
            if e["op"] == "replace":
                out.append([(f"    {d['field']} {e['path']}: ", "meta"), (_value(e["before"]), "del"),
                            (" → ", None), (_value(e["after"]), "ins")])
            elif e["op"] == "add":
                out.append([(f"    {d['field']} {e['path']}: ", "meta"), ("+ " + _value(e["after"]), "ins")])
            else:
                out.append([(f"    {d['field']} {e['path']}: ", "meta"), ("- " + _value(e["before"]), "del")])
    elif d["field"] == "text" and "diff" in d:
        for ln in d["diff"]:
            style = "add" if ln.startswith("+") else "remove" if ln.startswith("-") else "meta" if ln.startswith("@") \
                else None
            out.append([("    " + ln, style)])
    elif "words" in d:
        out.append([(f"    {d['field']}:", "meta")])
        out.extend(_words_lines([tuple(w) for w in d["words"]], "      "))
    else:
        out.append([(f"    {d['field']}: ", "meta"), (_value(d.get("before")), "del"), (" → ", None),
                    (_value(d.get("after")), "ins")])
    return out


def _change_lines(c: Change) -> list[Line]:
    sign, style = _sign(c.kind)
    lines: list[Line] = []
    if c.words is not None and c.kind in ("user-changed", "reply-changed", "actions-changed"):
        multi = any("\n" in t for _, t in c.words)
        if multi:
            lines.append([(f"{sign} {c.message}:", style)])
            lines.extend(_words_lines(c.words))
        else:
            lines.append([(f"{sign} {c.message}: ", style)] + [(t, {"=": None, "-": "del", "+": "ins"}[op])
                                                                 for op, t in c.words])
    elif c.kind in ("turn-added", "turn-removed"):
        lines.append([(f"{sign} {c.message}", style)])
        s = c.after if c.kind == "turn-added" else c.before
        rows = []
        if s.get("user"):
            rows.append(f"{s['user']['character']}: {s['user']['text']}")
        rows.extend(f"tool {t}" for t in s.get("tool_calls", []))
        rows.extend(f"{b}" for b in s.get("rag", []))
        if s.get("reply"):
            rows.append(f"{s['reply']['character']}: {s['reply']['text']}")
        for row in rows:
            for k, ln in enumerate(row.split("\n")):
                lines.append([(f"{sign}     " + ("" if k == 0 else "  ") + ln, style)])
    elif c.kind in ("user-changed", "reply-changed") and (c.before is None or c.after is None):
        lines.append([(f"{sign} {c.message}: ", style), (_one_line(c.after if c.before is None else c.before, 200),
                                                          "ins" if c.before is None else "del")])
    else:
        lines.append([(f"{sign} {c.message}", style)])
    for d in c.details:
        if c.kind == "tool-changed" and d["field"] in ("status", "error", "name", "actor"):
            continue  # in the message
        if c.kind == "scene-changed" and d["field"] == "heading":
            lines.append([("    heading: ", "meta"), (d["before"], "del"), (" → ", None), (d["after"], "ins")])
            continue
        lines.extend(_detail_lines(d))
    return lines


def summary_text(s: dict[str, Any]) -> str:
    """The one-line footer: ``N turns changed (…), tool calls +A -R ~C, F new failures, …``."""
    if not s["differences"]:
        return "no differences"
    parts = [f"{s['turns_changed']} turn{'s' * (s['turns_changed'] != 1)} changed "
             f"({s['turns_added']} added, {s['turns_removed']} removed, {s['turns_moved']} moved, "
             f"{s['turns_modified']} modified)",
             f"tool calls +{s['tool_calls_added']} -{s['tool_calls_removed']} ~{s['tool_calls_changed']}",
             f"{s['new_failures']} new failure{'s' * (s['new_failures'] != 1)}",
             f"{s['replies_changed']} repl{'ies' if s['replies_changed'] != 1 else 'y'} changed"]
    for key, one, many in (("user_inputs_changed", "user input changed", "user inputs changed"),
                           ("context_changes", "context change", "context changes"),
                           ("model_changes", "model change", "model changes"),
                           ("note_changes", "note change", "note changes"),
                           ("scene_changes", "scene change", "scene changes"),
                           ("other_changes", "other change", "other changes")):
        if s[key]:
            parts.append(f"{s[key]} {one if s[key] == 1 else many}")
    return ", ".join(parts)


_STAT_ROWS = (("turns_a", "turns in A"), ("turns_b", "turns in B"), ("turns_changed", "turns changed"),
              ("turns_added", "  added"), ("turns_removed", "  removed"), ("turns_moved", "  moved"),
              ("turns_modified", "  modified"), ("tool_calls_added", "tool calls added"),
              ("tool_calls_removed", "tool calls removed"), ("tool_calls_changed", "tool calls changed"),
              ("new_failures", "new failures"), ("user_inputs_changed", "user inputs changed"),
              ("replies_changed", "replies changed"), ("model_changes", "model changes"),
              ("context_changes", "context changes"), ("note_changes", "note changes"),
              ("scene_changes", "scene changes"), ("other_changes", "other changes"), ("changes", "changes"))


def render_lines(result: DiffResult, stat: bool = False) -> list[Line]:
    """The report as styled lines (shared by the ``unified`` and ``rich`` formats): a
    ``--- A`` / ``+++ B`` header, one hunk per turn (or scene), headed
    ``@@ -turn N +turn M @@ scene K: HEADING``, then the summary footer. With ``stat``:
    the header and one ``count  label`` line per summary count."""
    lines: list[Line] = [[(f"--- {result.a.name}", "remove")], [(f"+++ {result.b.name}", "add")]]
    s = result.summary()
    if stat:
        width = max(len(str(s[k])) for k, _ in _STAT_ROWS)
        lines.extend([[(f"{s[k]:>{width}}  {label}", "summary" if k == "changes" else None)]
                      for k, label in _STAT_ROWS])
        return lines
    last = None
    for c in result.changes:
        key = _hunk_key(c)
        if key != last:
            lines.append(_hunk_header(c))
            last = key
        lines.extend(_change_lines(c))
    lines.append([(summary_text(s), "summary")])
    return lines


def render_unified(result: DiffResult, stat: bool = False) -> str:
    """Plain text: removed words as ``[-…-]``, added words as ``{+…+}`` (as ``git diff --word-diff=plain``)."""
    out = []
    for line in render_lines(result, stat):
        out.append("".join(f"[-{t}-]" if st == "del" else f"{{+{t}+}}" if st == "ins" else t for t, st in line))
    return "\n".join(out) + "\n"


RICH_STYLES = {"header": "bold cyan", "meta": "cyan", "add": "green", "remove": "red", "change": "yellow",
               "move": "magenta", "del": "bold red strike", "ins": "bold green underline", "summary": "bold"}


def render_rich(result: DiffResult, console: Any, stat: bool = False) -> None:
    """Print to a :class:`rich.console.Console`: hunks headed by scene and turn, changed words
    highlighted (``[-…-]``/``{+…+}`` markers too when the console has no colour), the summary footer."""
    from rich.text import Text

    markers = console.no_color or console.color_system is None
    for line in render_lines(result, stat):
        text = Text(no_wrap=False)
        for t, st in line:
            if markers and st in ("del", "ins"):
                t = f"[-{t}-]" if st == "del" else f"{{+{t}+}}"
            text.append(t, style=RICH_STYLES.get(st or "", ""))
        console.print(text, soft_wrap=True, highlight=False)

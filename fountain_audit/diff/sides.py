"""The two sides of a diff: each file read losslessly, parsed, dumped as ``dump --turns``
prints it, normalised, and cut into scene units with their alignment keys (:class:`Side`,
:func:`make_side`, :func:`read_side`)."""

from __future__ import annotations

from typing import Callable

from dataclasses import dataclass
from typing import Any

from fountain_audit import dump as dm
from fountain_audit.diff.jsonvalues import canon
from fountain_audit.diff.normalisation import (HEADING_TS_RE, TIMESTAMP, normalise, redactor, scene_body,
                                               scene_content, scene_description, title_entries)
from fountain_audit.diff.options import DiffError, Options
from fountain_audit.model.session import Session, build_session, without_turns
from fountain_audit.parse.fountain import parse
from fountain_audit.parse.source import looks_binary, read_path, why_unreadable


def turns_document(session: Session, file: str) -> dict[str, Any]:
    """The ``fountain-audit dump --turns FILE`` document of ``session`` (no filters, no
    redaction) as JSON values, except that undecodable bytes stay lone surrogates (so two
    files that differ only there still differ) and no ``undecodable_bytes`` record is
    included (the diff's ``--format json`` gives them per side). The records' values are
    plain JSON types (dicts with string keys, lists, strings, numbers, booleans, ``None``), as
    ``to_json`` makes them, and may share parts with the session model (a tool call's parsed
    arguments): read only, never changed (:func:`~fountain_audit.diff.normalisation.normalise`
    and the patches copy what they change or carry)."""
    records = [rec.to_json() for rec in dm.dump_session(session, file, "turns")]
    return {"format_version": dm.FORMAT_VERSION, "shape": "turns", "records": records, "files": [file],
            "errors": []}


@dataclass(eq=False, slots=True)
class SceneUnit:
    """A scene as aligned: ``turns`` are record indexes; ``body`` the normalised text of a
    scene without turns; ``key`` the exact alignment key; ``text`` the similarity text;
    ``description`` the normalised text of its description (:func:`scene_description`);
    ``content`` that of what a scene with turns holds outside its turns and description
    (:func:`scene_content`; ``""`` for a scene without turns, compared by its ``body``)."""

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
    description: str = ""
    content: str = ""


class Side:
    """One file of the diff: its ``name``, session model, ``document`` (the ``dump --turns``
    document), ``normalised`` copy and aligned scene units. The document, its normalised copy
    and the units are built when first read (a diff of two identical texts needs none of
    them); :attr:`turn_count` and :attr:`scene_count` come from the session model."""

    __slots__ = ("name", "session", "options", "_document", "_normalised", "_scenes", "_recall_scenes", "_title")

    def __init__(self, name: str, session: Session, options: Options = Options()):
        self.name, self.session, self.options = name, session, options
        self._document: dict[str, Any] | None = None
        self._normalised: dict[str, Any] | None = None
        self._scenes: list[SceneUnit] | None = None
        self._recall_scenes: frozenset[int] = frozenset()
        self._title: list[tuple[str, str]] | None = None

    def renamed(self, name: str) -> "Side":
        """The same session (shared, not parsed again) as file ``name``."""
        return Side(name, self.session, self.options)

    @property
    def text(self) -> str:
        """The session text as read (lone surrogates for undecodable bytes)."""
        return self.session.document.text

    @property
    def turn_count(self) -> int:
        return len(self.session.turns)

    @property
    def scene_count(self) -> int:
        return len(self.session.scenes)

    @property
    def document(self) -> dict[str, Any]:
        if self._document is None:
            self._build()
        return self._document  # type: ignore[return-value]

    @property
    def normalised(self) -> dict[str, Any]:
        if self._normalised is None:
            self._build()
        return self._normalised  # type: ignore[return-value]

    @property
    def scenes(self) -> list[SceneUnit]:
        if self._scenes is None:
            self._build()
        return self._scenes  # type: ignore[return-value]

    @property
    def recall_scenes(self) -> frozenset[int]:
        if self._scenes is None:
            self._build()
        return self._recall_scenes

    @property
    def title(self) -> list[tuple[str, str]]:
        """The title page's ``(key, value)`` entries in order, values normalised
        (:func:`title_entries`)."""
        if self._title is None:
            self._build()
        return self._title  # type: ignore[return-value]

    @property
    def records(self) -> list[dict[str, Any]]:
        return self.normalised["records"]

    def _build(self) -> None:
        """The document, its normalised copy and the scene units. Raises :class:`DiffError`
        (never :class:`RecursionError`) if a value is nested too deeply to compare."""
        session, options, name = self.session, self.options, self.name
        try:
            document = turns_document(session, name)
            normalised = normalise(document, session, options)
        except RecursionError:  # pragma: no cover - the walks are iterative; a last guard
            raise DiffError(f"{name}: a value is nested too deeply to compare") from None
        redact = redactor(session, options)
        by_scene: dict[int, list[int]] = {}
        for i, rec in enumerate(document["records"]):
            by_scene.setdefault(rec["scene"]["index"], []).append(i)
        recall_scenes = frozenset(n["scene"]["index"] for rec in document["records"] for n in rec["recall"]
                                  if n.get("scene") is not None)
        units = []
        recs = normalised["records"]
        for sc in session.scenes:
            turns = by_scene.get(sc.index, [])
            heading = HEADING_TS_RE.sub(" " + TIMESTAMP, sc.heading.heading) if not options.timestamps \
                else sc.heading.heading
            heading = redact.text(heading) if redact else heading
            body = "" if turns else scene_body(sc, options, redact)
            description = scene_description(sc, options, redact)
            ws = sc.workspace if options.workspace else None
            tkeys = [turn_key(recs[t]) for t in turns]
            key = (sc.kind, heading, tuple(tkeys)) if turns else (sc.kind, heading, body)
            text = "\n".join(turn_text(recs[t]) for t in turns) if turns else body
            # (a scene without turns: compared by its body, its content only when the other side's
            # scene, under the same heading, holds turns: see Differ._scene_changes)
            content = scene_content(sc, options, redact)
            units.append(SceneUnit(sc.index, sc.kind, heading, sc.heading.heading, turns, body, ws, key, text, tkeys,
                                   description, content))
        self._document, self._normalised, self._scenes, self._recall_scenes = document, normalised, units, recall_scenes
        self._title = title_entries(session, options, redact)


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


def what_file(text: str) -> str:
    """What a file that is not a Harvey session is: ``an empty file: 0 bytes``, ``an empty
    file: only white space``, ``a binary file`` (:func:`~fountain_audit.parse.source.looks_binary`)
    or ``a plain screenplay``."""
    if not text:
        return "an empty file: 0 bytes"
    if not text or text.isspace():
        return "an empty file: only white space"
    if looks_binary(text):
        return "a binary file"
    return "a plain screenplay"


def make_side(name: str, text: str, options: Options = Options(), *, build: bool = True) -> Side:
    """Parse ``text`` (the content of file ``name``) into a :class:`Side`; with ``build``
    (the default) its document, normalised copy and scene units are built now, else when
    first read.

    Raises :class:`DiffError` when it is not a Harvey session, saying what it is instead (see
    :func:`what_file`), or when it has no turns (:func:`~fountain_audit.model.session.without_turns`).
    """
    try:
        session = build_session(parse(text))
    except (RecursionError, MemoryError, ValueError) as e:  # pragma: no cover - the parser never raises
        raise DiffError(f"{name}: cannot parse: {e}") from None
    if session.kind == "screenplay":
        raise DiffError(f"{name}: not a Harvey session ({what_file(text)})")
    if not session.turns:  # a session (lint checks it), but diff pairs sessions by their turns
        raise DiffError(f"{name}: {without_turns(session)}: nothing to compare turn by turn")
    side = Side(name, session, options)
    if build:
        side._build()
    return side


def read_side(path: str, options: Options = Options(), name: str | None = None,
              redact: Callable[[str], str] | None = None, *, build: bool = True, same_as: Side | None = None) -> Side:
    """Read file ``path`` (reported as ``name``) into a :class:`Side`; ``redact`` (e.g.
    :func:`fountain_audit.privacy.redact.redact_text`) rewrites the text first.

    Raises :class:`DiffError` for an unreadable file, a FIFO, socket or device (``not a
    regular file``: never opened), or one that is not a Harvey session. ``build``: see
    :func:`make_side`; ``same_as``: a side whose text, if it is this file's (after ``redact``),
    is shared rather than parsed again (:meth:`Side.renamed`).
    """
    name = path if name is None else name
    try:
        text = read_path(path)  # never blocks on a FIFO: "not a regular file"
    except OSError as e:
        raise DiffError(f"{name}: {why_unreadable(path, e)}") from None
    return side_of(name, redact(text) if redact else text, options, build=build, same_as=same_as)


def side_of(name: str, text: str, options: Options = Options(), *, build: bool = True,
            same_as: Side | None = None) -> Side:
    """:func:`make_side`, or ``same_as`` renamed when it was made from the same ``text`` and options."""
    if same_as is not None and same_as.options == options and same_as.text == text:
        return same_as.renamed(name)
    return make_side(name, text, options, build=build)


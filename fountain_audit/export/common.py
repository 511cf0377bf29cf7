"""What both export targets read from a session: its records (with ``dump``'s ids and
actor references), content digests, tool categories and the models named by stats lines.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from fountain_audit import __version__
from fountain_audit.dump import NoteRecordOut, ToolCallRecord, TurnRecord, note_records, record_kinds, turn_records
from fountain_audit.export.timing import Clock, SessionTimes
from fountain_audit.model import actors
# (Client and client_of moved to the session model; exporters still import them from here)
from fountain_audit.model.models import Client, client_of, names_endpoint, route_of  # noqa: F401
from fountain_audit.model.session import Scene, Session, StatsLine, parse_duration, parse_duration_ns, parse_stats

PRODUCER = {"name": "fountain-audit", "version": __version__}
ALL_NOTE_KINDS = record_kinds(["all"])

#: toolpath's tool categories, tried in this order on the words of a tool's name.
_CATEGORY_WORDS: list[tuple[str, frozenset[str]]] = [
    ("delegation", frozenset({"agent", "delegate", "subagent", "spawn", "task", "handoff"})),
    ("network", frozenset({"http", "https", "fetch", "web", "url", "download", "curl", "wget", "browse",
                           "browser", "request", "api"})),
    ("shell", frozenset({"shell", "bash", "sh", "exec", "command", "cmd", "terminal", "run"})),
    ("file_write", frozenset({"write", "edit", "create", "delete", "remove", "patch", "move", "rename", "append",
                              "replace", "save", "mkdir"})),
    ("file_read", frozenset({"read", "cat", "view", "open", "get", "load", "head", "tail"})),
    ("file_search", frozenset({"search", "grep", "glob", "find", "list", "ls", "locate", "tree"})),
]
_LEGACY_STATS_RE = re.compile(r"^stats: (?P<prompt>\d+) prompt \+ (?P<reply>\d+) reply tokens · (?P<duration>[\dhmsuµn.]+)"
                              r"(?: · (?P<rate>\d+(?:\.\d+)?) tok/s)?$")
_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def tool_category(name: str | None) -> str | None:
    """toolpath's category of a tool from the words of its name (``read_file`` → ``file_read``,
    ``run_shell`` → ``shell``, ``web_search`` → ``network``); ``None`` when no word tells
    (``add_memory``)."""
    if not name:
        return None
    words = {w.lower() for w in _WORD_RE.findall(name)}
    for category, keys in _CATEGORY_WORDS:
        if words & keys:
            return category
    return None


def content_digest(text: str) -> str:
    """SHA-256 (hex) of a file's text as read (undecodable bytes restored)."""
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


@dataclass(slots=True)
class SessionExport:
    """One session as the exporters read it.

    ``name``: the file name to report; ``digest``: :func:`content_digest` of its text;
    ``turns``: its :class:`~fountain_audit.dump.TurnRecord` (ids and actor references as in
    ``dump --turns``); ``loose_notes``: note records outside every turn, in file order (as in
    ``dump --records all``); ``times``: scene times (raises
    :class:`~fountain_audit.export.timing.NoTimestamp` on construction when the file has none
    and no fallback is given); ``humans``: the session's people
    (:func:`~fountain_audit.model.actors.humans_of`, read once: it walks every scene);
    ``recorder``/``recorder_name``: whose the elements without a character of their own are
    (:func:`~fountain_audit.model.actors.recorder`: ``tool:harvey`` in a Harvey file, the
    ``Author:`` in a plain screenplay); ``harness``: whether the file records the harness
    (:func:`~fountain_audit.model.actors.harness_recorded`).
    """

    name: str
    text: str
    session: Session
    clock: Clock
    digest: str = ""
    turns: list[TurnRecord] = field(default_factory=list)
    loose_notes: list[NoteRecordOut | ToolCallRecord] = field(default_factory=list)
    times: SessionTimes | None = None
    humans: frozenset[str] = frozenset()
    recorder: actors.Actor = actors.HARVEY
    recorder_name: str = "HARVEY"
    harness: bool = False
    #: A plain screenplay's author (:func:`fountain_audit.model.actors.recorder`): its characters' lines
    #: are the author's; ``None`` in a Harvey file.
    author: actors.Actor | None = None
    #: Each turn's stats line and model, by turn index, read once (an exporter asks for them
    #: several times per turn: its span, its provider, its usage).
    _stats: dict = field(default_factory=dict)
    _clients: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.times = SessionTimes(self.session, self.clock)
        self.digest = content_digest(self.text)
        self.humans = actors.humans_of(self.session)
        self.turns = list(turn_records(self.session, self.name))
        self.loose_notes = [r for r in note_records(self.session, self.name, ALL_NOTE_KINDS) if r.turn is None]
        self.recorder = actors.recorder(self.session)
        self.recorder_name = actors.recorder_name(self.session)
        self.author = self.recorder if self.session.kind == "screenplay" else None
        self.harness = actors.harness_recorded(self.session, self.turns, self.loose_notes)

    def stats(self, turn: TurnRecord) -> StatsLine | None:
        """The turn's stats line, else its pre-b45c946 note (:func:`turn_stats`)."""
        try:
            return self._stats[turn.index]
        except KeyError:
            st = self._stats[turn.index] = turn_stats(turn)
            return st

    def client(self, turn: TurnRecord) -> Client:
        """The model of a turn (:func:`turn_client`)."""
        try:
            return self._clients[turn.index]
        except KeyError:
            scene = self.session.scenes[turn.scene.index]
            c = self._clients[turn.index] = _client_from(turn, self.stats(turn), scene)
            return c

    def provider(self, turn: TurnRecord) -> str | None:
        """The turn's provider (``ollama``), else (not for an EXT route, which is remote) the
        title page's ``Backend:``; ``None`` when the file does not say."""
        p = self.client(turn).provider
        if p is None and turn.scene.kind != "ext-chat" and self.session.title.get("Backend", "").strip():
            p = self.session.title["Backend"].strip().lower()
        return p


def turn_stats(turn: TurnRecord) -> StatsLine | None:
    """The turn's stats line, else its pre-b45c946 ``[[stats: N prompt + N reply tokens ·
    DUR · R tok/s]]`` note; ``None`` when the turn records neither."""
    if turn.stats:
        return parse_stats(turn.stats)
    for n in turn.other_notes:
        # (a note the parser refused, one of numbers no int or float holds among them, is no stats)
        m = _LEGACY_STATS_RE.match(n.body) if n.kind == "stats" and n.valid else None
        if m:
            return StatsLine([], int(m.group("reply")), int(m.group("prompt")),
                             parse_duration(m.group("duration")), float(m.group("rate")) if m.group("rate") else None,
                             parse_duration_ns(m.group("duration")))
    return None


def turn_client(turn: TurnRecord, scene: Scene | None = None) -> Client:
    """The model of a turn, as the file records it, first found of: the stats line's single
    model (``Ollama (qwen2.5-coder:7b)`` → provider ``ollama``, model ``qwen2.5-coder:7b``);
    the scene's ``Model:`` when it names a client (pipelines); the forwarding target
    (``Forwarding to MISTRAL.``); the scene's ``Model:`` as written (``llama3:latest``); the
    reply's cue when it is a model's (an ``agent:`` actor: ``CLAUDE``). A reply under
    ``HARVEY``'s cue names no model (the harness is never the model): with none of these,
    ``Client(None, None)``, the model not recorded.

    A routed ``EXT.`` turn (:func:`~fountain_audit.model.models.route_of`; ``scene``, the turn's
    scene, for its ``Harvey routing to`` line) goes to a remote endpoint: its forwarding target
    and reply cue name the endpoint (``LIGHTHOUSE``), not a model, so only its stats line or
    ``Model:`` can name the model; else ``Client(None, None)``."""
    return _client_from(turn, turn_stats(turn), scene)


def _client_from(turn: TurnRecord, st: StatsLine | None, scene: Scene | None = None) -> Client:
    """:func:`turn_client` given the turn's :func:`turn_stats`."""
    if st is not None and len(st.models) == 1:
        return client_of(st.models[0])
    c = client_of(turn.model)
    if route_of(turn, scene) is not None:  # (a Model: that names the endpoint names no model)
        return Client(None, None) if names_endpoint(turn.model) else c
    if c.provider is not None:
        return c
    for name in (turn.target, turn.model):
        if name and name.strip():
            return Client(None, name.strip())
    reply = turn.reply
    if reply is not None and reply.actor_ref.startswith("agent:") and reply.character.strip():
        return Client(None, reply.character.strip())
    return Client(None, None)


def notes_by_scene(notes: Iterable[NoteRecordOut | ToolCallRecord]) -> dict[int | None, list]:
    """Loose notes grouped by 0-based scene index (``None``: before the first scene or after
    the end marker)."""
    out: dict[int | None, list] = {}
    for n in notes:
        out.setdefault(n.scene.index if n.scene is not None else None, []).append(n)
    return out


#: Stands for a list of already-encoded items in the text of the rest of a document (see
#: :func:`encoded_pieces`): JSON writes a NUL in a string as ``\u0000``, so a raw one can only be it.
PIECES_MARK = "\0"


def encoded_pieces(doc: object, pieces: list[list[bytes]], level: int, redactor=None) -> list[bytes]:
    """The indented JSON text of ``doc`` (``redactor`` applied) as UTF-8 pieces to write one after
    the other, where each ``Encoded([PIECES_MARK])`` value of ``doc`` stands for the next list of
    ``pieces``: items already encoded at depth ``level`` (as the whole document's encoder writes
    an array's items there), joined as that array's items. Used by the exports, which encode each
    span or step as it is made instead of holding the whole document (same bytes)."""
    from fountain_audit.dump import INDENTED_DEPTH
    from fountain_audit.parse.source import json_safe
    from fountain_audit.reporters.json_text import dumps

    if redactor is not None:
        doc = redactor(doc)  # (an Encoded value is kept as it is)
    frame = dumps(doc, 2, flat_from=INDENTED_DEPTH).split(PIECES_MARK)
    assert len(frame) == len(pieces) + 1
    frame[-1] += "\n"
    between = (",\n" + "  " * level).encode("utf-8")
    out = [json_safe(frame[0]).encode("utf-8")]
    for items, after in zip(pieces, frame[1:]):
        for i, item in enumerate(items):
            if i:
                out.append(between)
            out.append(item)
        out.append(json_safe(after).encode("utf-8"))
    return out

"""Actors: who did what in a session, as ``prefix:id[/sub]`` strings.

The grammar is toolpath's actor reference, restricted to the three kinds a Harvey
session holds::

    actor  = prefix ":" id [ "/" sub ]
    prefix = "human" | "agent" | "tool"
    id     = 1*( ALPHA / DIGIT / "_" / "." / "-" )      ; sub likewise

:func:`parse` reads such a string into an :class:`Actor`, :func:`format` writes one
back; ``format(parse(s)) == s`` for every valid ``s`` and ``parse(format(a)) == a``
for every valid ``a``.

How a session's characters map to actors (:func:`of_character`):

* the user's character (the human named in a chat heading, the title page's
  ``Author:``) → ``human:<name>`` lower-cased; a name outside the grammar →
  ``human:user``; so is every cue but HARVEY's and SHELL's in a shell, agent-mode or pipeline
  scene (only the user speaks there beside the harness: a pipeline step is the user's step
  file and HARVEY's reply);
* in a plain screenplay, every character → its author, as :func:`recorder` (the characters of
  a story are neither models nor people who took part: who wrote their lines is recorded);
* a model's cue → ``agent:<model>`` lower-cased (``QWEN2.5-CODER`` →
  ``agent:qwen2.5-coder``); a name that cannot be an id (``/``, ``:``, spaces ...)
  → ``agent:unknown`` (callers keep the original name beside it);
* ``HARVEY`` and whatever the harness writes on its own behalf (forwarding and
  routing lines, ``[chunk i failed: …]`` notices, notes) → ``tool:harvey``;
  ``SHELL`` (command output the harness recorded) → ``tool:shell``; a skill's
  character in an ``INT. SKILL`` scene → ``tool:<skill>`` (``tool:skill`` when
  the name is outside the grammar).

A tool note's actor (:func:`of_tool_note`) follows the same map for the ``NAME.`` of
``[[NAME.tool:]]`` (no prefix: ``tool:harvey``): the session's human → ``human:<name>``, a
model the file records (:func:`models_of`) → ``agent:<model>``; a name the file does not
identify → ``agent:unknown``, never an agent made up from the prefix.

Names are compared upper-cased in ASCII only (:func:`fountain_audit.model.names.upper_ascii`)
and an id is read from the name as written: ``[[ſhell.tool:]]`` (U+017F long s, which Unicode
upper-cases to ``S``) is not ``SHELL``'s call but one of a name the file does not identify.

A harness line is never an ``agent:`` actor: "no model was involved"
(``tool:harvey``) and "a model ran, unnamed" (``agent:unknown``) stay distinct.

What has no character of its own (a scene without turns, a note outside every turn, a
``[[write:]]`` note) is its recorder's (:func:`recorder`): in a Harvey file the harness's
(``tool:harvey``: the recorder writes those scenes and notes on its own behalf); a plain
screenplay records no harness, so there it is its author's, ``human:<Author>`` from the title
page (``human:user`` when it names none usable). HARVEY is named as an actor of a file only
when the file records it (:func:`harness_recorded`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fountain_audit.model.names import upper_ascii
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from fountain_audit.dump import NoteRecordOut, ToolCallRecord, TurnRecord
    from fountain_audit.model.session import Session

#: The actor kinds a Harvey session holds.
PREFIXES = ("human", "agent", "tool")
#: One actor string, anchored (toolpath's ``actorRef`` less its ``ci`` kind).
PATTERN = re.compile(r"^(human|agent|tool):([A-Za-z0-9_.-]+)(?:/([A-Za-z0-9_.-]+))?$")
_ID_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
#: Recorder-written notices under a model's cue (harvey-recorder-inventory.md §5, ``p_chunk``).
_HARNESS_NOTICE_RE = re.compile(r"^\[chunk \d+ failed: .*\]$", re.S)
#: A model's answer in a chunk analysis: ``(chunk 2/3)``, ``(synthesis)`` (§5 ``p_chunk``, ``p_synthesis``).
_CHUNK_ANSWER_RE = re.compile(r"^\(\s*(?:chunk \d+/\d+|synthesis)\s*\)$", re.I)


@dataclass(frozen=True, slots=True)
class Actor:
    """An actor: ``prefix`` (``human``, ``agent`` or ``tool``), ``id`` and optional ``sub``.

    ``str(actor)`` is :func:`format`. Construct through :func:`parse` or the helpers
    (:func:`human`, :func:`agent`, :func:`tool`) to be sure it is valid.
    """

    prefix: str
    id: str
    sub: str | None = None

    def __str__(self) -> str:
        return format(self)


def parse(ref: str) -> Actor:
    """Read an actor string (``"agent:qwen2.5-coder"``, ``"tool:harvey/shell"``).

    Raises ``ValueError`` when ``ref`` does not follow the grammar.
    """
    m = PATTERN.fullmatch(ref) if isinstance(ref, str) else None
    if m is None:
        raise ValueError(f"not an actor reference: {ref!r} (expected human|agent|tool:ID[/SUB])")
    return Actor(m.group(1), m.group(2), m.group(3))


def format(actor: Actor) -> str:  # noqa: A001 - the grammar's own word
    """Write ``actor`` as ``prefix:id[/sub]``. Raises ``ValueError`` for an invalid actor."""
    if actor.prefix not in PREFIXES or not is_id(actor.id) or (actor.sub is not None and not is_id(actor.sub)):
        raise ValueError(f"not a valid actor: {actor!r}")
    return f"{actor.prefix}:{actor.id}" + (f"/{actor.sub}" if actor.sub is not None else "")


def is_id(name: str) -> bool:
    """True when ``name`` can be an actor id as it is (``[A-Za-z0-9_.-]+``)."""
    return isinstance(name, str) and bool(_ID_RE.fullmatch(name))


#: The harness.
HARVEY = Actor("tool", "harvey")
#: The shell whose output the harness recorded.
SHELL = Actor("tool", "shell")
#: A human the file does not name in a usable way.
USER = Actor("human", "user")
#: A model ran but its name cannot be an id.
UNKNOWN_AGENT = Actor("agent", "unknown")


def human(name: str | None) -> Actor:
    """``human:<name>`` lower-cased, or ``human:user`` when the name is outside the grammar (as
    written: ``\u212aEN``, whose Kelvin sign lower-cases to ``k``, is not ``human:ken``)."""
    n = (name or "").strip()
    return Actor("human", n.lower()) if is_id(n) else USER


def agent(model: str | None) -> Actor:
    """``agent:<model>`` lower-cased, or ``agent:unknown`` when the name cannot be an id (as
    written, see :func:`human`)."""
    n = (model or "").strip()
    return Actor("agent", n.lower()) if is_id(n) else UNKNOWN_AGENT


def tool(name: str | None, fallback: str = "tool") -> Actor:
    """``tool:<name>`` lower-cased, or ``tool:<fallback>`` when the name cannot be an id (as
    written, see :func:`human`)."""
    n = (name or "").strip()
    return Actor("tool", n.lower()) if is_id(n) else Actor("tool", fallback)


def of_character(character: str, *, humans: frozenset[str] | set[str], scene_kind: str | None = None,
                 text: str | None = None, author: Actor | None = None,
                 parentheticals: list[str] | None = None) -> Actor:
    """The actor behind a character cue.

    ``humans``: the upper-cased names of the session's people (the chat heading's human,
    the ``Author:``). ``scene_kind``: the scene's kind (a character in a ``skill`` scene
    is the skill). ``text``: what the character wrote, to recognise a harness notice
    written under a model's cue (``[chunk 2 failed: …]``). ``author``: in a plain screenplay,
    its :func:`recorder` (the title page's author): every character's lines are the author's
    (a character of a story is no model, nor a person who took part). ``parentheticals``: the
    speech's, in a ``chunk-analysis`` scene: a model answers there under ``(chunk i/N)`` or
    ``(synthesis)`` (§5 ``p_chunk``, ``p_synthesis``); a cue without either is the user's
    instruction (the spec's form of the scene), never a model's (``None``: not known, a model's).
    """
    if author is not None:
        return author
    who = upper_ascii(character.strip())
    if who == "HARVEY":
        return HARVEY
    if who == "SHELL":
        return SHELL
    if who in humans or scene_kind in ("shell", "agent-mode", "pipeline"):  # only the user answers there
        return human(who)
    if scene_kind == "skill":
        return tool(who, "skill")
    if scene_kind == "chunk-analysis" and parentheticals is not None and not any(
            _CHUNK_ANSWER_RE.match(p) for p in parentheticals):
        return human(who)
    if text is not None and _HARNESS_NOTICE_RE.match(text.strip()):
        return HARVEY
    return agent(who)


def humans_of(session: Session) -> frozenset[str]:
    """The upper-cased names of the people of ``session``: the title page's ``Author:``, the
    human of every chat heading (``INT. HARVEY AND MARGOT TALKING`` → ``MARGOT``) and every chat
    turn's user (the human its description names: ``Harvey and MARGOT are in chat mode.``), of every
    pipeline step (``MARGOT executes /pipeline …``, the cue of its step file), and the cue of a
    chunk analysis's instruction (a speech without ``(chunk i/N)`` or ``(synthesis)``)."""
    names = {upper_ascii(s.user.strip()) for s in session.scenes if s.user}
    for s in session.scenes:  # who speaks as the user where only the user speaks beside the harness
        if s.kind in ("pipeline", "chat", "ext-chat"):  # (a chat's: the human its description names too)
            names.update(upper_ascii(t.user.character.strip()) for t in s.turns if t.user is not None)
        elif s.kind == "chunk-analysis":
            names.update(upper_ascii(sp.character.strip()) for sp in s.speeches
                         if of_character(sp.character, humans=(), scene_kind=s.kind,
                                         parentheticals=sp.parentheticals).prefix == "human")
    if session.author and session.author.strip():
        names.add(upper_ascii(session.author.strip()))
    names.discard("HARVEY")
    return frozenset(names)


def of_tool_note(actor: str | None, *, humans: frozenset[str] | set[str] = frozenset(),
                 models: frozenset[str] | set[str] | None = None) -> Actor:
    """The actor of a tool call as the file records it.

    ``actor``: ``HARVEY`` or ``None`` (a ``[[tool:]]`` note, a prose ``Harvey calls`` line) or
    the ``NAME.`` of ``[[NAME.tool:]]``. ``humans``/``models``: the upper-cased names the file
    records as the session's people (:func:`humans_of`) and models (:func:`models_of`).
    ``HARVEY`` → ``tool:harvey``; ``SHELL`` → ``tool:shell``; one of ``humans`` →
    ``human:<name>``; one of ``models`` → ``agent:<name>`` (as its cue, :func:`of_character`);
    any other name → ``agent:unknown`` (a prefix says a model called the tool, but the file does
    not say which: no agent is made up from it). ``models=None`` (no file to ask) takes every
    other name for a model, ``agent:<name>``.
    """
    who = upper_ascii((actor or "HARVEY").strip())
    if who == "HARVEY":
        return HARVEY
    if who == "SHELL":
        return SHELL
    if who in humans:
        return human(who)
    if models is None or who in models:
        return agent(who)
    return UNKNOWN_AGENT


def models_of(session: Session, humans: frozenset[str] | set[str]) -> frozenset[str]:
    """The upper-cased names ``session`` records as models: each scene's ``Model:``, each turn's
    forwarding target (``Forwarding to NAME.``) and each cue that is an ``agent:`` actor
    (:func:`of_character`, ``humans`` from :func:`humans_of`). None in a plain screenplay (its
    characters are its author's, :func:`recorder`). One walk over the scenes."""
    if session.kind == "screenplay":
        return frozenset()
    names: set[str] = set()
    for scene in session.scenes:
        if scene.model:
            names.add(upper_ascii(scene.model.strip()))
        for turn in scene.turns:
            if turn.target:
                names.add(upper_ascii(turn.target.strip()))
        for sp in scene.speeches:
            if of_character(sp.character, humans=humans, scene_kind=scene.kind,
                            parentheticals=sp.parentheticals).prefix == "agent":
                names.add(upper_ascii(sp.character.strip()))
    return frozenset(names)


class ToolNoteActors:
    """:func:`of_tool_note` for the tool notes of one session: ``self(actor)`` → :class:`Actor`.
    The session's people and models are read once, at the first ``[[NAME.tool:]]`` note (a
    file without one is not walked); ``humans`` (:func:`humans_of`) when the caller has them."""

    def __init__(self, session: Session, humans: frozenset[str] | None = None) -> None:
        self.session = session
        self.humans = humans
        self.models: frozenset[str] | None = None
        self._refs: dict[str | None, str] = {}  # prefix as written → actor string, made once each

    def __call__(self, actor: str | None) -> Actor:
        if actor is None or upper_ascii(actor.strip()) == "HARVEY":
            return HARVEY
        if self.models is None:
            if self.humans is None:
                self.humans = humans_of(self.session)
            self.models = models_of(self.session, self.humans)
        return of_tool_note(actor, humans=self.humans or frozenset(), models=self.models)

    def ref(self, actor: str | None) -> str:
        """``format(self(actor))``: the actor string of a tool note whose prefix is ``actor``."""
        ref = self._refs.get(actor)
        if ref is None:
            ref = self._refs[actor] = format(self(actor))
        return ref


def recorder(session: Session) -> Actor:
    """Who wrote the elements of ``session`` that have no character of their own (scenes
    without turns, notes outside every turn, ``[[write:]]`` notes): the harness, ``tool:harvey``,
    in a Harvey file (``session.kind`` other than ``screenplay``: its recorder writes them on its
    own behalf, harvey-recorder-inventory.md); in a plain screenplay, which records no harness,
    the title page's ``Author:`` as :func:`human` (``human:user`` when there is none or it is
    outside the grammar)."""
    if session.kind != "screenplay":
        return HARVEY
    return human(session.author)


def recorder_name(session: Session) -> str:
    """The name shown for :func:`recorder`: ``HARVEY``, else the ``Author:`` as written, else
    ``not recorded``."""
    if session.kind != "screenplay":
        return "HARVEY"
    return session.author.strip() if session.author and session.author.strip() else "not recorded"


def harness_recorded(session: Session, turns: Iterable[TurnRecord],
                     loose_notes: Iterable[NoteRecordOut | ToolCallRecord]) -> bool:
    """True when the file records the harness, so that HARVEY may be named as an actor: a
    speech or a tool call of a turn (``turns``: :func:`fountain_audit.dump.turn_records`) is
    ``tool:harvey`` (a ``HARVEY`` cue, a ``[chunk i failed: …]`` notice, a ``[[tool:]]`` note or
    ``Harvey calls`` line: the harness ran the call), or :func:`recorder` is the harness and the
    file holds a scene without turns or a note outside every turn (``loose_notes``: records of
    :func:`fountain_audit.dump.note_records` whose ``turn`` is ``None``). An ``EXT. CLAUDE AND
    RSDOIEL`` scene where only the user and the model speak records none."""
    harvey = format(HARVEY)
    scenes_with_turns: set[int] = set()
    for t in turns:
        scenes_with_turns.add(t.scene.index)
        if any(sp is not None and sp.actor_ref == harvey for sp in (t.user, t.forwarding, t.reply, *t.actions)):
            return True
        if any(c.actor_ref == harvey for c in t.tool_calls):
            return True
    loose = list(loose_notes)
    if recorder(session) != HARVEY:
        return any(getattr(n, "actor_ref", None) == harvey for n in loose)
    return bool(loose) or any(s.index not in scenes_with_turns for s in session.scenes)

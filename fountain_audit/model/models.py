"""The models and the remote endpoints a session records, each named once.

The recorder names one model in two ways (harvey-recorder-inventory.md):

* its **id**, the raw model name as the backend knows it (``devstral:24b``): in the stats line
  (``Ollama (devstral:24b) · …``, §4 ``a_stats``, ``Client.Name()``), a pipeline scene's
  ``Model: Ollama (devstral:24b)`` (§4 ``a_pipeline_2``), a ``[[model switch: devstral:24b
  (ollama) at …]]`` note (§6 ``n_model_switch``);
* its **cue**, the ALL-CAPS name it writes as the character, in ``Forwarding to NAME.`` and in a
  chat scene's ``Model: NAME`` (``DEVSTRAL``, §4 ``a_chat``, §5): ``extractModelName`` of the
  id (§2: the text inside ``(…)``, cut at the first ``:``, kept after the last ``/``,
  upper-cased), :func:`cue_of`.

A cue and an id are the same model only where the file ties them: the id and the cue are
recorded for the same turn (its stats line, its scene's ``Model:``, the ``[[model switch:]]`` in
force, which sets the name the next chat scenes' ``Model:`` gives, §0 ``cf4aa0d``) **and** the cue
is the one §2 derives from that id. A cue no id is tied to stays a cue ("id not recorded"); ids
never merge with one another but through a cue they both derive to.

A routed ``EXT.`` turn (``Harvey routing to NAME``, or HARVEY's ``Forwarding to NAME.`` in an
``EXT.`` scene; §3 ``h_ext``, §4 ``a_ext``) goes to a remote **endpoint**: ``NAME`` is the route's
name (``upper(@name)``), not a model, and the recorder writes no model for it (§7 EXT: no stats
line); its model is "not recorded" unless the turn records one (a stats line or a ``Model:``).
An ``EXT.`` scene that HARVEY does not route (the spec's direct conversation, ``CLAUDE and
RSDOIEL in direct conversation``, §4 ``a_ext_direct``) is a model's own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fountain_audit.model.actors import agent, of_character
from fountain_audit.model.session import stats_models

if TYPE_CHECKING:
    from collections.abc import Iterable

    from fountain_audit.dump import TurnRecord
    from fountain_audit.model.session import Scene, Session

#: ``Ollama (qwen2.5-coder:7b)``: a backend and the raw model (stats lines, ``Model:`` of pipelines).
_CLIENT_RE = re.compile(r"^(?P<provider>[A-Za-z][\w.-]*) \((?P<model>[^()]+)\)$")


@dataclass(frozen=True, slots=True)
class Client:
    """A model as a stats line names it: ``provider`` (``ollama``) and raw ``model``
    (``qwen2.5-coder:7b``); either may be ``None`` when the line does not say."""

    provider: str | None
    model: str | None


def client_of(text: str | None) -> Client:
    """``Ollama (qwen2.5-coder:7b)`` → ``Client("ollama", "qwen2.5-coder:7b")``; any other
    name → ``Client(None, name)``."""
    if not text:
        return Client(None, None)
    m = _CLIENT_RE.match(text.strip())
    if m:
        return Client(m.group("provider").lower(), m.group("model").strip())
    return Client(None, text.strip())


def cue_of(model_id: str) -> str:
    """The cue the recorder writes for the raw model ``model_id``: its ``extractModelName``
    (harvey-recorder-inventory.md §2), the part before the first ``:``, after the last ``/``,
    upper-cased: ``devstral:24b`` → ``DEVSTRAL``, ``MichelRosselli/apertus:latest`` →
    ``APERTUS``; a client name (``Ollama (devstral:24b)``) is read inside its parentheses."""
    name = client_of(model_id).model or ""
    return name.split(":", 1)[0].rsplit("/", 1)[-1].strip().upper()


def is_cue(name: str) -> bool:
    """True when ``name`` is in the form the recorder writes a cue in (:func:`cue_of` leaves it
    as it is: ``QWEN2.5-CODER``), so a ``Model:`` or ``Forwarding to`` name in that form is a cue
    and any other (``llama3:latest``, ``mistral``) an id as written."""
    return bool(name) and cue_of(name) == name


@dataclass(frozen=True, slots=True)
class Route:
    """A routed ``EXT.`` turn's remote endpoint: its ``name`` (``LIGHTHOUSE``: the routing line's,
    else the forwarding target) and the ``url`` the routing line gives (``ollama://host:11434``;
    ``None``: not recorded, as the recorder never writes one)."""

    name: str
    url: str | None


def names_endpoint(model: str | None) -> bool:
    """True when a ``Model:`` value names a remote endpoint, not a model: a URL
    (``ollama://192.168.1.2:11434``, the spec's Example 4) or one marked ``(cloud API)`` (as the
    lint rule H105 reads it)."""
    return bool(model) and ("://" in model or "(cloud api)" in model.lower())


def route_of(turn: TurnRecord, scene: Scene | None = None) -> Route | None:
    """The remote endpoint of ``turn`` when it is a routed turn, else ``None`` (a local turn, or
    an ``EXT.`` scene HARVEY does not route: a model's direct conversation). ``scene``: the turn's
    scene, for its ``Harvey routing to NAME`` line (without it only HARVEY's ``Forwarding to
    NAME.`` tells). Routed: an ``EXT.`` turn with either line (the recorder's form, §3 ``h_ext``);
    an ``INT.`` chat turn whose ``Model:`` names an endpoint (:func:`names_endpoint`: the v1.0
    form the spec's Example 4 keeps, §8 item 11), named by its forwarding target, else its
    model's cue."""
    if turn.scene.kind == "ext-chat":
        routing = scene.routing if scene is not None else None
        if routing is not None:
            return Route(routing.group("endpoint"), routing.group("url"))
        if turn.target and turn.target.strip():
            return Route(turn.target.strip(), None)
        return None
    if turn.scene.kind != "chat" or not names_endpoint(turn.model):
        return None
    model = turn.model.strip()
    reply = turn.reply
    cue = reply.character.strip() if reply is not None and reply.actor_ref.startswith("agent:") else None
    name = (turn.target or "").strip() or cue or model
    return Route(name, model if "://" in model else None)


@dataclass(slots=True)
class ModelEntry:
    """One model: the ``ids`` (raw names) and ``cues`` (ALL-CAPS names) the file ties to it,
    each in order of first appearance; one of the two lists may be empty (not recorded)."""

    ids: list[str] = field(default_factory=list)
    cues: list[str] = field(default_factory=list)
    #: Where the file records it when no turn names it (``[[chunk:]] note``, ``[[synthesis:]]
    #: note``, ``chunk analysis answer``), in order of first appearance; empty: a turn names it.
    sources: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``devstral:24b (cue DEVSTRAL)``, ``llama3:latest``, ``CLAUDE (cue; id not recorded)``;
        a model recorded outside the turns says where: ``llama3.2:1b (cue LLAMA3.2; in [[chunk:]]
        note, chunk analysis answer)``, ``LLAMA3 (in [[chunk:]] note)``."""
        where = f"in {', '.join(self.sources)}" if self.sources else ""
        if not self.cues:
            return ", ".join(self.ids) + (f" ({where})" if where else "")
        cues = ", ".join(self.cues)
        where = f"; {where}" if where else ""
        if not self.ids:
            return f"{cues} (cue; id not recorded{where})"
        return f"{', '.join(self.ids)} (cue {cues}{where})"


@dataclass(slots=True)
class EndpointEntry:
    """One remote endpoint: its ``name``, the ``urls`` and ``models`` its turns record (each in
    order of first appearance; empty: not recorded)."""

    name: str
    urls: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``LIGHTHOUSE (remote route; model not recorded)``, ``PI2 at ollama://… (remote route;
        model mistral:7b)``."""
        where = f" at {', '.join(self.urls)}" if self.urls else ""
        model = ", ".join(self.models) or "not recorded"
        return f"{self.name}{where} (remote route; model {model})"


@dataclass(slots=True)
class Recorded:
    """What :func:`recorded_models` finds: ``models`` and ``endpoints``, in order of first
    appearance."""

    models: list[ModelEntry]
    endpoints: list[EndpointEntry]


class _Names:
    """Union-find over the names of models: nodes ``("id", name)`` and ``("cue", name)``."""

    def __init__(self) -> None:
        self.parent: dict[tuple[str, str], tuple[str, str]] = {}  # (insertion order: first appearance)
        self.sources: dict[tuple[str, str], list[str]] = {}  # node -> where outside the turns
        self.in_turns: set[tuple[str, str]] = set()  # nodes a turn or a [[model switch:]] names

    def add(self, node: tuple[str, str], source: str | None = None) -> None:
        """Add ``node``, named by a turn (``source`` ``None``) or where ``source`` says (a note's
        or scene's label, kept once each, in order)."""
        self.parent.setdefault(node, node)
        if source is None:
            self.in_turns.add(node)
        else:
            where = self.sources.setdefault(node, [])
            if source not in where:
                where.append(source)

    def find(self, node: tuple[str, str]) -> tuple[str, str]:
        """The root of ``node``'s set (the first-added name of the model); compresses the path."""
        root = node
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[node] != root:  # (path compression)
            self.parent[node], node = root, self.parent[node]
        return root

    def union(self, a: tuple[str, str], b: tuple[str, str]) -> None:
        """Tie ``a`` and ``b`` (the file records them as one model: an id and its cue)."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra

    def entries(self) -> list[ModelEntry]:
        """One :class:`ModelEntry` per set, in order of first appearance."""
        out: dict[tuple[str, str], ModelEntry] = {}
        in_turns: set[tuple[str, str]] = set()  # the roots of the models a turn names
        for node in self.parent:
            root = self.find(node)
            entry = out.setdefault(root, ModelEntry())
            (entry.ids if node[0] == "id" else entry.cues).append(node[1])
            if node in self.in_turns:
                in_turns.add(root)
            for where in self.sources.get(node, ()):
                if where not in entry.sources:
                    entry.sources.append(where)
        for root in in_turns:  # (where a model is found only outside the turns is told)
            out[root].sources.clear()
        return list(out.values())


def _named(name: str | None) -> tuple[str, str] | None:
    """The node of a model name a ``Model:`` or ``Forwarding to`` line writes (``None``: no name).
    A client name (``Ollama (devstral:24b)``) gives its id; a name in a cue's form
    (:func:`is_cue`) is a cue; any other (``llama3:latest``) an id as written."""
    if not name or not name.strip():
        return None
    c = client_of(name)
    if c.provider is not None:
        return ("id", c.model)
    n = name.strip()
    return ("cue", n) if is_cue(n) else ("id", n)


def recorded_models(session: Session, turns: Iterable[TurnRecord]) -> Recorded:
    """The models and remote endpoints ``session`` records (``turns``: its
    :func:`fountain_audit.dump.turn_records`), each once (see the module's docstring for what ties
    a cue to an id). A local turn names: its reply's cue when a model's (an ``agent:`` actor),
    its forwarding target, its scene's ``Model:`` and its stats line's models; a routed ``EXT.``
    turn names its endpoint (:func:`route_of`) and, as the endpoint's model, what its stats line
    or ``Model:`` records. ``[[model switch:]]`` notes name the id switched to. One pass over the
    turns and the notes."""
    names = _Names()
    endpoints: dict[str, EndpointEntry] = {}
    seen: set[tuple] = set()  # what local turns named (a session repeats its models turn after turn)
    for t in turns:
        scene = session.scenes[t.scene.index]
        models = stats_models(t.stats) if t.stats else []
        route = route_of(t, scene)
        if route is not None:
            ep = endpoints.setdefault(route.name, EndpointEntry(route.name))
            if route.url and route.url not in ep.urls:
                ep.urls.append(route.url)
            named = [client_of(m).model for m in models]
            if t.model and not names_endpoint(t.model):  # (a Model: that names the endpoint names no model)
                named.append(client_of(t.model).model)
            for m in named:
                if m and m not in ep.models:
                    ep.models.append(m)
            continue
        reply = t.reply
        cue_name = reply.character.strip() if reply is not None and reply.actor_ref.startswith("agent:") else ""
        switch = t.model_switch.fields.get("model") if t.model_switch is not None and t.model_switch.valid else None
        key = (cue_name, t.target, t.model, tuple(models), switch)
        if key in seen:
            continue
        seen.add(key)
        ids = [("id", client_of(m).model) for m in models]
        found = [n for n in (("cue", cue_name) if cue_name else None, _named(t.target), _named(t.model),
                             *ids) if n is not None]
        for node in found:
            names.add(node)
        tied = [n for n in found if n[0] == "id"] + ([("id", switch)] if switch else [])
        for c in (n for n in found if n[0] == "cue"):
            for i in tied:
                if cue_of(i[1]) == c[1]:
                    names.add(i)
                    names.union(c, i)
    for n in session.notes:
        if n.kind == "model switch" and n.valid and n.fields.get("model"):
            names.add(("id", n.fields["model"]))
    for scene in session.scenes:
        if scene.kind == "chunk-analysis":
            _chunk_analysis_models(scene, names)
    return Recorded(names.entries(), list(endpoints.values()))


def _chunk_analysis_models(scene: Scene, names: _Names) -> None:
    """Add to ``names`` the models a chunk analysis scene records, which has no turn: the
    ``model=`` of its ``[[chunk:]]`` and ``[[synthesis:]]`` notes (an id as the recorder writes
    it, ``llama3.2:1b``; the spec's form writes a cue, ``LLAMA3``) and the cue of each answer
    (``(chunk i/N)``, ``(synthesis)``; :func:`fountain_audit.model.actors.of_character`). A cue
    and an id of the scene are one model when the cue is the one §2 derives from the id."""
    found: list[tuple[str, str]] = []
    for n in scene.notes:
        if n.kind in ("chunk", "synthesis") and n.valid:
            node = _named(n.fields.get("model"))
            if node is not None:
                names.add(node, f"[[{n.kind}:]] note")
                found.append(node)
    for sp in scene.speeches:
        if of_character(sp.character, humans=frozenset(), scene_kind="chunk-analysis",
                        parentheticals=sp.parentheticals) == agent(sp.character):
            node = ("cue", sp.character.strip())
            names.add(node, "chunk analysis answer")
            found.append(node)
    tied = [n for n in found if n[0] == "id"]
    for c in (n for n in found if n[0] == "cue"):
        for i in tied:
            if cue_of(i[1]) == c[1]:
                names.union(c, i)

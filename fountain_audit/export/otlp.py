"""Sessions as OpenTelemetry traces: an OTLP/JSON ``ExportTraceServiceRequest`` following the
GenAI semantic conventions (development status; schema URL 1.37.0).

One trace per session, one ``resourceSpans`` per session (``service.name`` = ``harvey``; for a
file that records no harness, :func:`~fountain_audit.model.actors.harness_recorded`, such as a
plain screenplay, ``unknown_service``, and the root span is named ``session`` without the two
``invoke_agent`` attributes: no agent invocation is invented):

* root span ``invoke_agent harvey`` (INTERNAL): ``gen_ai.operation.name`` ``invoke_agent``,
  ``gen_ai.agent.name`` ``harvey``, ``gen_ai.conversation.id`` (the toolpath path id),
  ``gen_ai.provider.name`` from the title page's ``Backend:`` when recorded, the summed
  token usage when any turn records it;
* a ``chat <model>`` span (CLIENT) per turn: ``gen_ai.operation.name``,
  ``gen_ai.provider.name`` and ``gen_ai.request.model`` (from the stats line, ``Ollama
  (qwen2.5-coder:7b)``, else the scene's ``Model:`` or the forwarding target, else a model's
  reply cue, never ``HARVEY``: :func:`~fountain_audit.export.common.turn_client`; left out, and
  the span named ``chat``, when the file does not say: the conventions require it only "if
  available"). A routed ``EXT.`` turn goes to a remote endpoint, whose name (``LIGHTHOUSE``) is
  no model: ``gen_ai.request.model`` only when its stats line or ``Model:`` records one, the
  endpoint as ``harvey.route.endpoint`` (and ``harvey.route.url``, ``server.address``,
  ``server.port`` when the routing line gives a URL: the recorder writes none);
  ``gen_ai.usage.input_tokens``/``output_tokens`` where the stats line records them,
  ``gen_ai.input.messages``/``gen_ai.output.messages`` with the exact texts;
  RAG notes and the turn's other notes as span events (``harvey.rag`` with
  ``harvey.rag.top_score`` ...);
* an ``execute_tool <name>`` span (INTERNAL) per tool call, child of its turn's span:
  ``gen_ai.tool.name``, ``gen_ai.tool.call.id`` (``t3.tool1``, as in ``dump``),
  ``gen_ai.tool.type`` ``function``, ``gen_ai.tool.call.arguments``; a failed call has status
  ERROR with the recorded message and ``error.type`` ``_OTHER``;
* a span (INTERNAL) per scene without turns, named after its kind (``context-recall``,
  ``shell``, ``chunk-analysis`` ...), its notes as events (``harvey.recall`` with
  ``harvey.recall.score`` ...) and its speeches as ``harvey.speech`` events.

Every span carries ``harvey.id`` (the ``dump``/``show`` id) and, where someone acted,
``harvey.actor`` (:mod:`fountain_audit.model.actors`).

Times: a span starts at its scene heading's time (:mod:`fountain_audit.export.timing`); a chat
span lasts the stats line's duration where one is recorded, every other span is zero-length
(tool calls and notes carry no time of their own); the root span starts with the first heading's
time or the earliest span, if earlier (timestamps that go backwards), and ends with the last span.
Strings are well-formed UTF-8: an undecodable input byte is written as U+FFFD, and the
resource attribute ``harvey.session.undecodable_bytes`` lists where the raw bytes are, one
``BYTE_OFFSET:HEX`` string per run of such bytes (``761:f09f``: bytes F0 9F at 0-based byte
offset 761 of the file); it is left out for valid UTF-8.
Trace and span ids are SHA-256 digests of the file's content and the element's id, so the
same file always gives the same ids.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any, Callable

from fountain_audit.dump import NoteRecordOut, SpeechOut, ToolCallRecord, TurnRecord
from fountain_audit.export.common import PIECES_MARK, PRODUCER, SessionExport, encoded_pieces, notes_by_scene
from fountain_audit.export.timing import When, offset_text
from fountain_audit.model import actors
from fountain_audit.model.ids import note_group, scene_id
from fountain_audit.model.models import route_of
from fountain_audit.model.session import TURN_KINDS
from fountain_audit.parse.source import undecodable_bytes, well_formed

if TYPE_CHECKING:
    from fountain_audit.privacy.redact import Redactor

SCHEMA_URL = "https://opentelemetry.io/schemas/1.37.0"
SERVICE_NAME = "harvey"
#: ``service.name`` of a file that records no harness (a plain screenplay, an ``EXT.`` scene where
#: only the user and a model speak): OpenTelemetry's name for a service that is not known.
UNKNOWN_SERVICE = "unknown_service"
#: The root span's name: the harness's invocation, or for a file that records none, the session.
ROOT_NAME, PLAIN_ROOT_NAME = "invoke_agent harvey", "session"
#: OTLP span kinds and status codes (opentelemetry/proto/trace/v1/trace.proto).
KIND_INTERNAL, KIND_CLIENT = 1, 3
STATUS_ERROR = 2


#: OTLP's ``*UnixNano`` fields are fixed64: nanoseconds since 1970-01-01T00:00:00Z, 0 .. 2**64 - 1.
MAX_UNIX_NANO = 2**64 - 1
_RANGE = "1970-01-01T00:00:00Z to 2554-07-21T23:34:33.709551615Z"


class TimeOutOfRange(ValueError):
    """A time of the session that OTLP cannot carry (before 1970 or after 2554-07-21): the
    session is not exported rather than given a time it does not record."""


def _seconds_text(ns: int) -> str:
    whole, frac = divmod(ns, 10**9)
    return f"{whole}.{frac:09d}".rstrip("0").rstrip(".") + "s"


def attr(key: str, value: Any) -> dict[str, Any]:
    """One OTLP/JSON ``KeyValue`` (strings, booleans, integers as decimal strings, floats,
    lists of strings). An integer outside OTLP's ``int64`` (a stats line's ``9223372036854775808
    reply``, or the sum of two huge counts) is carried as its decimal digits in a ``stringValue``:
    the value the file records, in a document every OTLP reader accepts (an ``intValue`` out of
    range made the protobuf encoder raise, adversarial trial)."""
    if isinstance(value, bool):
        v: dict[str, Any] = {"boolValue": value}
    elif isinstance(value, int):
        v = {"intValue": str(value)} if -(1 << 63) <= value < 1 << 63 else {"stringValue": str(value)}
    elif isinstance(value, float):
        v = {"doubleValue": value}
    elif isinstance(value, (list, tuple)):
        v = {"arrayValue": {"values": [{"stringValue": str(x)} for x in value]}}
    else:
        v = {"stringValue": str(value)}
    return {"key": key, "value": v}


def _attrs(pairs: dict[str, Any]) -> list[dict[str, Any]]:
    return [attr(k, v) for k, v in pairs.items() if v is not None]


def trace_id_of(digest: str, occurrence: int = 1) -> str:
    """32 hex digits from a file's SHA-256 (``occurrence`` > 1 for a file given again)."""
    seed = digest if occurrence == 1 else f"{digest}#{occurrence}"
    return hashlib.sha256(f"fountain-audit trace\0{seed}".encode()).hexdigest()[:32]


def span_id_of(trace_id: str, element: str) -> str:
    """16 hex digits from the trace id and the element's id (``session``, ``t3``, ``t3.tool1``)."""
    return hashlib.sha256(f"{trace_id}\0{element}".encode()).hexdigest()[:16]


def server_of(url: str | None) -> dict[str, Any]:
    """``server.address`` and ``server.port`` of a routing line's URL (``ollama://192.168.1.2:11434``
    → ``192.168.1.2``, ``11434``), each only when the URL records it; ``{}`` without a URL (the
    recorder writes none: the route's name is no address)."""
    from urllib.parse import urlsplit

    if not url:
        return {}
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:  # (a port out of range or not a number: the URL as written, in harvey.route.url)
        return {}
    return {"server.address": host or None, "server.port": port if host else None}


def _scalar_fields(prefix: str, fields: dict[str, Any]) -> dict[str, Any]:
    return {f"{prefix}.{k}": v for k, v in fields.items() if isinstance(v, (str, int, float, bool))}


class _TraceBuilder:
    """One session's spans. ``emit`` turns each finished span (a dict) into what :meth:`build`
    returns for it: the dict itself (:func:`request_of`), or its JSON text, made at once so that
    a 3,000-turn session's spans are never all held as Python objects (:func:`request_text`)."""

    def __init__(self, sx: SessionExport, trace_id: str, conversation_id: str,
                 emit: Callable[[dict[str, Any]], Any] | None = None):
        self.sx = sx
        self.trace_id = trace_id
        self.conversation_id = conversation_id
        self.root_id = span_id_of(trace_id, "session")
        self.emit = emit
        self.spans: list[Any] = []
        self.earliest: int | None = None  # the spans' earliest start and latest end (the root span's times)
        self.latest: int | None = None
        self.root_events: list[dict[str, Any]] = []
        self.usage = [0, 0, False]  # input, output, any recorded

    @staticmethod
    def nano(when: When) -> int:
        """``when`` in OTLP nanoseconds; raises :class:`TimeOutOfRange` outside them."""
        ns = when.unix_nano()
        if not 0 <= ns <= MAX_UNIX_NANO:
            src = "--fallback-time" if when.source == "fallback" else f"scene {when.source}'s heading"
            raise TimeOutOfRange(f"the time of {src}, {when.iso()}, is outside what OTLP can carry ({_RANGE})")
        return ns

    def span(self, element: str, parent: str, name: str, kind: int, start: int, end: int,
             attributes: dict[str, Any], events: list[dict[str, Any]] | None = None,
             status: dict[str, Any] | None = None) -> dict[str, Any]:
        sp: dict[str, Any] = {"traceId": self.trace_id, "spanId": span_id_of(self.trace_id, element),
                              "parentSpanId": parent, "name": name, "kind": kind,
                              "startTimeUnixNano": str(start), "endTimeUnixNano": str(end),
                              "attributes": _attrs({**attributes, "harvey.id": element})}
        if events:
            sp["events"] = events
        sp["status"] = status or {}
        self.earliest = start if self.earliest is None else min(self.earliest, start)
        self.latest = end if self.latest is None else max(self.latest, end)
        self.spans.append(sp if self.emit is None else self.emit(sp))
        return sp

    @staticmethod
    def event(name: str, time: int, attributes: dict[str, Any]) -> dict[str, Any]:
        return {"timeUnixNano": str(time), "name": name, "attributes": _attrs(attributes)}

    def note_event(self, n: NoteRecordOut | ToolCallRecord, time: int) -> dict[str, Any]:
        if isinstance(n, ToolCallRecord):
            return self.event("harvey.tool", time, {"harvey.id": n.id, "harvey.note.body": n.body})
        group = note_group(n.kind).replace("-", "_")
        return self.event(f"harvey.{group}", time, {"harvey.id": n.id, "harvey.note.kind": n.kind,
                                                    "harvey.note.body": n.body,
                                                    **_scalar_fields(f"harvey.{group}", n.fields)})

    def tool(self, call: ToolCallRecord, parent: str, time: int) -> None:
        attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": call.name,
                      "gen_ai.tool.call.id": call.id, "gen_ai.tool.type": "function",
                      "gen_ai.tool.call.arguments": call.arguments_text, "harvey.actor": call.actor_ref,
                      "harvey.tool.status": call.status}
        status = None
        if call.status == "error":
            attributes["error.type"] = "_OTHER"
            status = {"message": call.error or "", "code": STATUS_ERROR}
        name = f"execute_tool {call.name}" if call.name else "execute_tool"
        self.span(call.id, parent, name, KIND_INTERNAL, time, time, attributes, status=status)

    def turn(self, t: TurnRecord, when: When) -> None:
        start = self.nano(when)
        stats = self.sx.stats(t)
        end = start + stats.duration_ns if stats is not None else start
        if end > MAX_UNIX_NANO:
            raise TimeOutOfRange(f"turn {t.id} ends {_seconds_text(stats.duration_ns)} (its stats line) after "
                                 f"{when.iso()}, later than OTLP can carry ({_RANGE})")
        client = self.sx.client(t)
        attributes: dict[str, Any] = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": self.sx.provider(t),
                                      "gen_ai.request.model": client.model,
                                      "gen_ai.conversation.id": self.conversation_id}
        if stats is not None and stats.context_tokens is not None:
            attributes["gen_ai.usage.input_tokens"] = stats.context_tokens
            self.usage[0] += stats.context_tokens
            self.usage[2] = True
        if stats is not None and stats.reply_tokens is not None:
            attributes["gen_ai.usage.output_tokens"] = stats.reply_tokens
            self.usage[1] += stats.reply_tokens
            self.usage[2] = True
        if t.user is not None:
            attributes["gen_ai.input.messages"] = json.dumps(
                [{"role": "user", "parts": [{"type": "text", "content": t.user.text}]}], ensure_ascii=False)
            attributes["harvey.user.actor"] = t.user.actor_ref
        parts: list[dict[str, Any]] = [{"type": "tool_call", "id": c.id, "name": c.name, "arguments": c.arguments}
                                       for c in t.tool_calls]
        if t.reply is not None:
            parts.append({"type": "text", "content": t.reply.text})
            attributes["harvey.actor"] = t.reply.actor_ref
        if parts:
            attributes["gen_ai.output.messages"] = json.dumps([{"role": "assistant", "parts": parts}],
                                                              ensure_ascii=False)
        attributes["harvey.forwarding.target"] = t.target
        scene = self.sx.session.scenes[t.scene.index]
        route = route_of(t, scene)
        if route is not None:  # a remote endpoint: named as such, never as the model
            attributes["harvey.route.endpoint"] = route.name
            attributes["harvey.route.url"] = route.url
            attributes.update(server_of(route.url))
        attributes["harvey.workspace"] = scene.workspace
        attributes["harvey.turn.complete"] = t.complete
        events = [self.note_event(n, start) for n in (*t.rag, *t.other_notes)]
        name = f"chat {client.model}" if client.model else "chat"
        span = self.span(t.id, self.root_id, name, KIND_CLIENT, start, end, attributes, events)
        for c in t.tool_calls:
            self.tool(c, span["spanId"], start)

    def scene(self, index: int, when: When, notes: list) -> None:
        sc = self.sx.session.scenes[index]
        time = self.nano(when)
        humans = self.sx.humans
        events: list[tuple[int, dict[str, Any]]] = []
        for sp in sc.speeches:
            out = SpeechOut.of(sp, None, humans, sc.kind, self.sx.author)
            events.append((sp.dialogue.offset, self.event("harvey.speech", time, {
                "harvey.actor": out.actor_ref, "harvey.character": sp.character, "harvey.speech.text": out.text})))
        for n in notes:
            events.append((n.span.offset, self.note_event(n, time)))
        events.sort(key=lambda e: e[0])
        attributes = {"harvey.scene.kind": sc.kind, "harvey.scene.heading": sc.heading.heading,
                      "harvey.actor": str(self.sx.recorder)}
        # a turn scene that holds no turn (e.g. only a pipeline-stopped note) is no model call:
        # "scene chat", never "chat", the GenAI name of a chat span
        name = f"scene {sc.kind}" if sc.kind in TURN_KINDS else sc.kind
        self.span(scene_id(index), self.root_id, name, KIND_INTERNAL, time, time, attributes,
                  [e for _, e in events])

    def build(self) -> list[dict[str, Any]]:
        sx = self.sx
        loose = notes_by_scene(sx.loose_notes)
        turns: dict[int, list[TurnRecord]] = {}
        for t in sx.turns:
            turns.setdefault(t.scene.index, []).append(t)
        for scene in sx.session.scenes:
            when = sx.times.of(scene.index)
            notes = loose.get(scene.index, [])
            if scene.index in turns:  # a chat scene without a turn still gets its own span (below)
                for t in turns.get(scene.index, []):
                    self.turn(t, when)
                for n in notes:
                    self.loose(n, when)
            else:
                self.scene(scene.index, when, notes)
        for n in loose.get(None, []):
            self.loose(n, sx.times.last if n.id.startswith("end.") else sx.times.first)
        # the root span holds every span: it starts with the earliest (a heading time that goes
        # backwards, S107, puts a later scene's span before the first heading's time)
        start = self.nano(sx.times.first)
        if self.earliest is not None:
            start = min(start, self.earliest)
        end = start if self.latest is None else max(start, self.latest)
        title = sx.session.title
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "invoke_agent" if sx.harness else None,
            "gen_ai.provider.name": title.get("Backend", "").strip().lower() or None,
            "gen_ai.agent.name": "harvey" if sx.harness else None, "gen_ai.conversation.id": self.conversation_id,
            "harvey.actor": str(actors.HARVEY) if sx.harness else None,  # only when the file records it
            "harvey.session.file": sx.name, "harvey.session.sha256": sx.digest,
            "harvey.session.kind": sx.session.kind,
            "harvey.timestamps.from": "fallback" if sx.times.first.source == "fallback" else "scene headings",
            "harvey.timestamps.utc_offset": offset_text(sx.clock.zone)}
        if self.usage[2]:
            attributes["gen_ai.usage.input_tokens"] = self.usage[0]
            attributes["gen_ai.usage.output_tokens"] = self.usage[1]
        root = {"traceId": self.trace_id, "spanId": self.root_id, "name": ROOT_NAME if sx.harness else PLAIN_ROOT_NAME,
                "kind": KIND_INTERNAL, "startTimeUnixNano": str(start), "endTimeUnixNano": str(end),
                "attributes": _attrs({**attributes, "harvey.id": "doc"})}
        if self.root_events:
            root["events"] = self.root_events
        root["status"] = {}
        return [root if self.emit is None else self.emit(root), *self.spans]

    def loose(self, n: NoteRecordOut | ToolCallRecord, when: When) -> None:
        if isinstance(n, ToolCallRecord) and n.valid:
            self.tool(n, self.root_id, self.nano(when))
        else:
            self.root_events.append(self.note_event(n, self.nano(when)))


def _utf8(value: Any) -> Any:
    """Protobuf strings are UTF-8: an undecodable input byte (a lone surrogate from
    ``surrogateescape``) becomes U+FFFD (:func:`~fountain_audit.parse.source.well_formed`)."""
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, dict):
        return {_utf8(k): _utf8(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_utf8(v) for v in value]
    return value


def request_of(sessions: list[SessionExport],
               skipped: list[tuple[SessionExport, TimeOutOfRange]] | None = None) -> dict[str, Any]:
    """One OTLP/JSON ``ExportTraceServiceRequest`` for ``sessions``: one ``resourceSpans`` and
    one trace per session, in the order given (ids as hex strings, times and integers as
    decimal strings, as OTLP/JSON wants).

    A session with a time OTLP cannot carry (:class:`TimeOutOfRange`) is left out and added
    to ``skipped`` with the error; without ``skipped`` the error is raised."""
    return _utf8({"resourceSpans": _resource_spans(sessions, skipped, None)})


def _resource_spans(sessions: list[SessionExport], skipped: list[tuple[SessionExport, TimeOutOfRange]] | None,
                    emit: Callable[[dict[str, Any]], Any] | None) -> list[dict[str, Any]]:
    """The ``resourceSpans`` of :func:`request_of`, each span as ``emit`` gives it (see :class:`_TraceBuilder`)."""
    out = []
    seen: dict[str, int] = {}
    for sx in sessions:
        seen[sx.digest] = seen.get(sx.digest, 0) + 1
        k = seen[sx.digest]
        trace_id = trace_id_of(sx.digest, k)
        conversation = f"harvey-{sx.digest[:16]}" + (f"-{k}" if k > 1 else "")
        try:
            spans = _TraceBuilder(sx, trace_id, conversation, emit).build()
        except TimeOutOfRange as e:
            if skipped is None:
                raise
            skipped.append((sx, e))
            continue
        service = SERVICE_NAME if sx.harness else UNKNOWN_SERVICE
        out.append({"resource": {"attributes": _attrs({"service.name": service,
                                                       "harvey.session.file": sx.name,
                                                       "harvey.session.undecodable_bytes": [
                                                           f"{r['byte_offset']}:{r['hex']}"
                                                           for r in undecodable_bytes(sx.text)] or None})},
                    "scopeSpans": [{"scope": {"name": PRODUCER["name"], "version": PRODUCER["version"]},
                                    "spans": spans, "schemaUrl": SCHEMA_URL}],
                    "schemaUrl": SCHEMA_URL})
    return out


#: How deep a span sits in the request (``resourceSpans`` 1, its item 2, ``scopeSpans`` 3, its
#: item 4, ``spans`` 5): its text is made at that depth, as the whole document's encoder makes it.
_SPAN_LEVEL = 6


def request_text(sessions: list[SessionExport],
                 skipped: list[tuple[SessionExport, TimeOutOfRange]] | None = None,
                 redactor: Redactor | None = None) -> list[bytes]:
    """The text :func:`fountain_audit.export.render` gives for :func:`request_of`'s document
    (``redactor`` applied) as UTF-8, the same bytes, in pieces to write one after the other.

    Each span is redacted, encoded and made UTF-8 as soon as it is made, at the depth it has in
    the document, and dropped: the whole request is never held as Python objects, nor as one
    string (a 3.6 MB, 3,000-turn session gives 59 MB of text, which a ``str`` holding one em dash
    stores in 118 MB; building the document first took 145 times the input in memory)."""
    from fountain_audit.dump import INDENTED_DEPTH
    from fountain_audit.parse.source import json_safe
    from fountain_audit.reporters.json_text import Encoded, dumps

    def emit(span: dict[str, Any]) -> str:
        # json_safe makes each lone surrogate U+FFFD in the text, as _utf8 does in the values (JSON
        # writes it as it is): the copy is only needed for the redactor, which reads the values
        value = span if redactor is None else redactor(_utf8(span))
        return json_safe(dumps(value, 2, _SPAN_LEVEL, flat_from=INDENTED_DEPTH)).encode("utf-8")

    resources = _resource_spans(sessions, skipped, emit)
    texts = []
    for item in resources:  # the rest of the request with a mark where each session's spans go
        scope = item["scopeSpans"][0]
        texts.append(scope["spans"])
        scope["spans"] = Encoded([PIECES_MARK])
    return encoded_pieces(_utf8({"resourceSpans": resources}), texts, _SPAN_LEVEL, redactor)

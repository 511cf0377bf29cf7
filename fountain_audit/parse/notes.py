"""Typed records for Harvey's audit-trail notes (``[[kind: ...]]``).

``parse_note(note)`` reads a :class:`~fountain_audit.parse.fountain.Note` node: a
regular expression recognises the head (``tool:``, ``LLAMA3.tool:``,
``rag-source:``, ``model switch:`` ...), then the payload is parsed with the
LALR grammar ``grammar/notes.lark`` (one start rule per kind). The result is a
:class:`NoteRecord` whose ``kind`` names the note and whose ``fields`` hold the
typed values. A note that names a known kind but does not match its syntax is
kept (``valid=False``, ``error`` says why, ``error_column`` where); a note of an
unknown kind is kept as kind ``"unknown"``. Nothing is ever dropped.

Sources: FOUNTAIN_FORMAT.md v1.2–v1.3 and harvey-recorder-inventory.md §6.
"""

from __future__ import annotations

import functools
import re
from sys import intern  # repeated names (tools, actors, stores, errors) are held once
TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing (issue 9)
if TYPE_CHECKING:
    from typing import Any

from fountain_audit.lazyre import lazy
from fountain_audit.memos import content_table, forgettable, remember
from fountain_audit.parse.fountain import Note, read_grammar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lark import Lark

#: Note kinds, as written in the head, mapped to the grammar's start rule.
KINDS: dict[str, str] = {
    "tool": "tool",
    "rag": "rag",
    "rag-source": "rag_source",
    "recall": "recall",
    "write": "write",
    "shell": "shell",
    "model switch": "model_switch",
    "chunk": "chunk",
    "chunk-result": "chunk_result",
    "synthesis": "synthesis",
    "add_memory": "memory",
    "update_memory": "memory",
    "delete_memory": "memory",
    "filter_context": "memory",
    "summary_context": "memory",
    "confidence": "confidence",
    "run": "run",
    "stats": "stats",  # legacy (pre-b45c946)
}
MEMORY_KINDS = frozenset(k for k, v in KINDS.items() if v == "memory")

#: The head of an audit note's text (after ``[[``): an optional ``ACTOR.``, a kind of :data:`KINDS`
#: (group ``kind``; the longest first: ``rag-source`` before ``rag``), ``:`` and a blank before
#: the payload, or the end. Rules N110 and N111 look for it inside other text too.
AUDIT_HEAD_RE = lazy(r"(?:(?P<actor>[^\s:\[\]]+?)\.)?(?P<kind>"
                     + "|".join(re.escape(k) for k in sorted(KINDS, key=len, reverse=True))
                     + r"):(?: (?=\S)|$)")
#: The two pipeline notes that have no ``kind:`` head: the whole text of the first, the start of the second.
PIPELINE_HIDDEN = "hidden confidence instruction appended"
PIPELINE_STOP = "pipeline stopped at step "
_INT_RE = lazy(r"-?[0-9]{1,18}")
#: A Go ``time.Duration`` string: ``8.3s``, ``850ms``, ``1m2.5s``, ``2h0m0s``.
_GO_DURATION_RE = lazy(r"([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h)")
_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_SOURCE_DETAIL_RE = lazy(r"^(?P<source>.*?)\s*\((?P<detail>[^()]*)\)$", re.S)
#: A URL's scheme, ``https://``, among a RAG source's details.
_URL_SCHEME_RE = lazy(r"[a-z][a-z0-9+.-]*://")


def _rare_value(rec: "NoteRecord", k: int):
    """Item ``k`` of a record's rare values (body, error, error_line, error_column), or ``None``."""
    rare = rec._rare
    return None if rare is None else rare[k]


class NoteRecord:
    """One audit-trail note, typed.

    ``kind``: ``tool``, ``rag``, ``rag-source``, ``recall``, ``write``, ``shell``,
    ``model switch``, ``chunk``, ``chunk-result``, ``synthesis``, a memory-tool name
    (``add_memory`` ...), ``confidence``, ``pipeline-hidden``, ``pipeline-stop``,
    ``run``, ``stats`` or ``unknown``.
    ``actor``: the ``CHARACTER.`` prefix of a ``[[CHARACTER.tool:]]`` note, else ``None``.
    ``fields``: kind-specific values (see :func:`parse_note`).
    ``valid``: False when the payload does not match the kind's syntax; ``error``
    then says why and ``error_line``/``error_column`` locate it in the file
    (1-based).
    ``body``: the note's text between ``[[`` and ``]]``, stripped; when the record is made
    with ``body=None`` (as :func:`parse_note` does) it is not kept but sliced from the
    node's text on each access (``node.body``), so a record holds no copy of its note.

    A well-formed tool call whose arguments are a JSON object or array (most of a session's
    notes) keeps its fields as a small tuple (see :func:`_tool_call`): ``fields`` then gives a
    new :class:`ToolFields` on each access (equal each time) and :meth:`field` reads one value
    without building it.
    """

    # _rare: None, or (body, error, error_line, error_column) once one of these is given (most
    # records have none: a note's body is sliced from its node, a well-formed note has no error).
    __slots__ = ("kind", "node", "actor", "_fields", "valid", "_rare")

    def __init__(self, kind: str, node: Note, body: str | None = None, actor: str | None = None,
                 fields: dict[str, Any] | None = None, valid: bool = True, error: str | None = None,
                 error_line: int | None = None, error_column: int | None = None):
        self.kind = kind
        self.node = node
        self.actor = actor
        self._fields = {} if fields is None else fields
        self.valid = valid
        self._rare = None if body is None and error is None and error_line is None and error_column is None \
            else (body, error, error_line, error_column)

    def _set(self, k: int, value) -> None:
        rare = self._rare
        if rare is None and value is None:
            return
        rare = list(rare or (None, None, None, None))
        rare[k] = value
        self._rare = tuple(rare)  # (a tuple: a copy of the record never shares a change)

    error = property(lambda self: _rare_value(self, 1), lambda self, v: self._set(1, v),
                     doc="Why the payload does not match the kind's syntax, or ``None``.")
    error_line = property(lambda self: _rare_value(self, 2), lambda self, v: self._set(2, v),
                          doc="1-based file line of the error, or ``None``.")
    error_column = property(lambda self: _rare_value(self, 3), lambda self, v: self._set(3, v),
                            doc="1-based file column (code points) of the error, or ``None``.")

    @property
    def fields(self) -> dict[str, Any]:
        """The kind-specific values (see :func:`parse_note`), a ``dict``."""
        f = self._fields
        return _tool_fields(f, self.node) if f.__class__ is tuple else f

    @fields.setter
    def fields(self, value: dict[str, Any]) -> None:
        self._fields = value

    def field(self, key: str, default: Any = None) -> Any:
        """``fields.get(key, default)``, without building the fields of a tool call that keeps
        them as a tuple."""
        f = self._fields
        if f.__class__ is not tuple:
            return f.get(key, default)
        k = _TOOL_KEYS.get(key)
        if k is None or k == 4:  # (not a key; the arguments, decoded)
            return default if k is None else _tool_fields(f, self.node)["arguments"]
        if k == 1:
            body = self.node.body
            return body[f[3]:len(body) - f[4]]
        if k == 2:
            return "ok" if f[1] is None else "error"
        return f[_TOOL_SLOT[k]]

    @property
    def body(self) -> str:
        """The note's text between ``[[`` and ``]]`` (sliced from the node unless given)."""
        rare = self._rare
        b = None if rare is None else rare[0]
        return self.node.body if b is None else b

    def __repr__(self) -> str:
        return (f"NoteRecord(kind={self.kind!r}, node={self.node!r}, body={self.body!r}, actor={self.actor!r}, "
                f"fields={self.fields!r}, valid={self.valid!r}, error={self.error!r}, "
                f"error_line={self.error_line!r}, error_column={self.error_column!r})")

    @property
    def line(self) -> int:
        """1-based line of the note's ``[[``."""
        return self.node.line

    @property
    def column(self) -> int:
        """1-based column (code points) of the note's ``[[``."""
        return self.node.column


class NoteFields:
    """Turns a notes.lark parse into a ``fields`` dict; one method per rule (the parser's
    transformer is :class:`fountain_audit.parse.lark_parsers.NoteTransformer`; the fast readers
    call the methods directly)."""

    def status(self, items):
        error = _status_error(str(items[0]))
        return {"status": "ok" if error is None else "error", "error": error}

    def tool(self, items):
        name, args, status = items
        out = {"name": intern(str(name)), "arguments_text": str(args)[1:-1]}
        out.update(status)
        return out

    def rag(self, items):
        count, store, score = items
        return {"chunks": int(count.split()[0]), "store": intern(str(store)),
                "top_score": finite_number(score.rsplit(" ", 1)[1])}

    def rag_source(self, items):
        # (a session cites a few sources again and again: their values are held once; the whole
        # text only when it is the source)
        text = "" if items[0] is None else str(items[0])
        out = {"source": text, "title": None, "doi": None, "url": None}
        # `SOURCE (DETAILS)`: what _SOURCE_DETAIL_RE matches, found without it when the text ends
        # with the ")" (the details: from the last "(", holding no ")"; the source before it, its
        # trailing blanks dropped as the pattern's lazy source and `\s*` leave them)
        if text[-1:] == ")":
            cut = text.rfind("(")
            detail = text[cut + 1:-1] if cut >= 0 and text.find(")", cut, len(text) - 1) < 0 else None
            source = None if detail is None else text[:cut].rstrip()
        else:
            m = _SOURCE_DETAIL_RE.match(text) if text[-1:] == "\n" else None  # (`$` before a final newline)
            source, detail = (None, None) if m is None else m.group("source", "detail")
        if detail is None:
            out["source"] = intern(text)
        else:
            out["source"] = intern(source)
            rest = []
            for p in map(str.strip, detail.split(",")):
                if p.startswith("doi:"):
                    out["doi"] = intern(p[4:])
                elif "://" in p and _URL_SCHEME_RE.match(p):  # (the scheme's "://": a cheap test first)
                    out["url"] = intern(p)
                else:
                    rest.append(p)
            out["title"] = intern(", ".join(rest)) or None
        return out

    def recall(self, items):
        ident, source, score = items
        return {"id": str(ident), "source": str(source)[2:-1], "score": finite_number(score.rsplit(" ", 1)[1])}

    def write(self, items):
        path, status = items
        s = str(status)
        word, _, detail = s.partition(":")
        return {"path": str(path), "status": word, "detail": detail.strip() or None}

    def shell(self, items):
        cmd, code = items
        return {"command": str(cmd), "exit_code": int(code)}

    def model_switch(self, items):
        name, backend, ts = items
        return {"model": str(name), "backend": "" if backend is None else str(backend), "at": str(ts)}

    def field(self, items):
        return (str(items[0]), None if items[1] is None else str(items[1]).strip())

    def chunk(self, items):
        out: dict[str, Any] = {"pairs": dict(items)}
        for key, val in items:
            if key in ("chunks", "chunk-size") and val is not None and _INT_RE.fullmatch(val):
                out[key.replace("-", "_")] = int(val)  # a negative count is kept (and reported by N103)
            elif key in ("file", "model", "boundary"):
                out[key] = val
        return out

    def chunk_result(self, items):
        i, n, status = items
        out = {"index": int(i), "count": int(n)}
        out.update(status)
        return out

    def synthesis(self, items):
        model, status = items
        out = {"model": str(model)}
        out.update(status)
        return out

    def memory(self, items):
        target, status = items
        return {"target": str(target), "status": str(status).strip()}

    run = memory

    def confidence(self, items):
        score, threshold = items
        t = str(threshold)
        m = re.search(r"\((.*)\)", t)
        return {"score": finite_number(score), "threshold_met": t == "threshold met",
                "threshold": finite_number(m.group(1)) if m else None}

    def stats(self, items):
        out: dict[str, Any] = {"models": None, "prompt_tokens": None, "reply_tokens": None, "tokens": None}
        if len(items) == 4:  # MODEL · N tokens · D · T tok/s
            models, total, duration, rate = items
            out["models"] = str(models)
            out["tokens"] = int(total.split()[0])
        else:  # P prompt + R reply tokens · D · T tok/s
            tokens, duration, rate = items
            words = tokens.split()
            out["prompt_tokens"], out["reply_tokens"] = int(words[0]), int(words[3])
        out["duration"] = str(duration)
        out["seconds"] = finite_number(go_duration_seconds(str(duration)))
        out["tokens_per_second"] = finite_number(str(rate).split()[0])
        return out

    def pipeline_stop(self, items):
        step, steps, score, threshold = items
        return {"step": int(step), "steps": int(steps), "score": finite_number(score),
                "threshold": finite_number(threshold)}


def finite_number(number: str | float) -> float:
    """``float(number)`` (a number's text, or a float), or ``ValueError`` when that is no finite
    number (``9`` x 400, a duration past a double's range: written as ``Infinity``, which no JSON
    reader takes; adversarial trial). A note holding one is then not well formed (N101 says why, as
    for a number Python cannot convert); a stats line holding one is none (``parse_stats``)."""
    value = float(number)
    if value - value:  # (inf - inf and nan - nan are nan, which is true; a finite number gives 0.0)
        raise ValueError(f"{number!s:.40} is beyond what a number can hold")
    return value


def _status_error(status: str) -> str | None:
    """The error of a note's status terminal (`` — ok``, `` — error``, `` — error: MESSAGE``):
    ``None`` for ok, else the message (``""`` when none is written), held once."""
    s = status[3:]  # after " — "
    if s == "ok":
        return None
    return intern(s[6:].strip()) if s.startswith("error:") else ""


def go_duration_seconds(text: str) -> float:
    """Seconds in a Go ``time.Duration`` string (``"1m2.5s"`` → ``62.5``, ``"850ms"`` → ``0.85``),
    rounded to the nanosecond. ``text`` must match the grammar's ``DURATION``."""
    return round(sum(float(n) * _UNIT_SECONDS[u] for n, u in _GO_DURATION_RE.findall(text)), 9)


@functools.cache
def _parser() -> Lark:
    """The LALR parser of ``grammar/notes.lark`` (see
    :func:`fountain_audit.parse.lark_parsers.notes_parser`); imports Lark."""
    from fountain_audit.parse.lark_parsers import notes_parser
    return notes_parser()


#: Strict and lenient (raw control characters allowed in strings) JSON decoders, and their
#: scanners, by ``strict``: made by :func:`_json_decoder` on first use (a file without tool
#: arguments is linted without importing json: start-up, issue 9).
_DECODERS: dict = {}
_SCANNERS: dict = {}


def _no_constant(name: str):
    """``NaN``, ``Infinity``, ``-Infinity``: Python's decoder reads them, JSON has none."""
    raise ValueError(f"{name} is no JSON value")


def _json_decoder(strict: bool):
    """The ``json.JSONDecoder(strict=strict)`` of :data:`_DECODERS` (made now if it is not yet)."""
    decoder = _DECODERS.get(strict)
    if decoder is None:
        import json

        # (NaN, Infinity and a number past a double's range, 1E400, are no value JSON writes back:
        # Python reads them, and dump wrote them as NaN and Infinity; kept as raw text instead)
        decoder = _DECODERS[strict] = json.JSONDecoder(strict=strict, parse_constant=_no_constant,
                                                       parse_float=finite_number)
        _SCANNERS[strict] = decoder.scan_once
    return decoder


#: The deepest nesting of JSON arrays and objects decoded in a tool's arguments. Python's decoder
#: recurses once a level and stops near the interpreter's recursion limit (1000 by default, less
#: the caller's stack), so deeper arguments are not decoded at all: kept as raw text, the same
#: on every run (N102 says they are too deep, with this limit).
JSON_MAX_DEPTH = 950
#: A JSON string (to its closing quote, or the end of the text), or a bracket.
_JSON_NESTING_RE = lazy(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)


def json_nesting(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text`` outside JSON strings (``0`` for a scalar),
    counted without decoding it (valid JSON or not), in linear time."""
    depth = deepest = 0
    for m in _JSON_NESTING_RE.finditer(text):
        c = m.group()
        if c == "[" or c == "{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif c == "]" or c == "}":
            depth = max(depth - 1, 0)
    return deepest


def too_deep_to_decode(text: str) -> bool:
    """Whether JSON ``text`` nests deeper than :data:`JSON_MAX_DEPTH` (then it is not decoded)."""
    return text.count("[") + text.count("{") > JSON_MAX_DEPTH and json_nesting(text) > JSON_MAX_DEPTH


def _decode_json(text: str, strict: bool):
    """``json.JSONDecoder(strict=strict).decode(text)``: the value, else ``ValueError`` (or
    ``RecursionError`` for absurd nesting). Calls the decoder's scanner directly when the value
    starts at the first character (a tool's arguments almost always do): a third of the cost."""
    scan = _SCANNERS.get(strict)
    if scan is None:
        scan = _json_decoder(strict).scan_once
    try:
        value, end = scan(text, 0)
    except StopIteration:  # leading whitespace, or no value at all: the decoder's own path says which
        return _json_decoder(strict).decode(text)
    if end != len(text) and text[end:].strip(" \t\n\r"):
        raise ValueError("extra data after the JSON value")
    return value


class _Pending:
    """The type of the placeholders a :class:`ToolFields` holds for values it computes when read."""

    __slots__ = ()


#: The value of ``"arguments"`` in a :class:`ToolFields` until it is first read.
_UNDECODED = _Pending()
#: The value of ``"arguments_text"`` in a :class:`ToolFields` that slices it from its note when read.
_UNSLICED = _Pending()


class ToolFields(dict):
    """The ``fields`` of a ``tool`` note whose arguments are a JSON object or array: a ``dict``
    whose ``"arguments"`` value is decoded again from ``arguments_text`` when first read (the
    decoder has already said the text is JSON, strict or not: ``arguments_json``,
    ``arguments_strict_json``), so a session's records do not hold every tool call's
    arguments as Python objects (lint never reads them). Made by :func:`_tool_fields`, it does
    not hold ``arguments_text`` either: the text is sliced from the note's body each time it
    is read (``_note``; ``_at``: where it starts in the body, ``_tail``: how many code points
    of the body follow it), until a reading of every value (``items()``, ``==`` ...) keeps it.
    Every way of reading it (indexing, ``get``, ``items``, ``values``, ``dict(x)``, ``{**x}``,
    ``==``, ``copy``, ``repr``, pickling, the ``json`` encoders) gives the values a plain
    ``dict`` would hold."""

    __slots__ = ("_note", "_at", "_tail")

    def _text(self) -> str:
        value = dict.__getitem__(self, "arguments_text")
        if value is _UNSLICED:
            body = self._note.body
            value = body[self._at:len(body) - self._tail]
        return value

    def _decoded(self) -> Any:
        value = dict.__getitem__(self, "arguments")
        if value is _UNDECODED:
            value = _decode_json(self._text(), dict.__getitem__(self, "arguments_strict_json"))
            dict.__setitem__(self, "arguments", value)
        return value

    def _value(self, key, value):
        return self._decoded() if value is _UNDECODED else self._text()

    def _resolved(self) -> "ToolFields":
        if dict.get(self, "arguments") is _UNDECODED:
            self._decoded()
        if dict.get(self, "arguments_text") is _UNSLICED:
            dict.__setitem__(self, "arguments_text", self._text())
        return self

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        return self._value(key, value) if value.__class__ is _Pending else value

    def get(self, key, default=None):
        value = dict.get(self, key, default)
        return self._value(key, value) if value.__class__ is _Pending else value

    def __iter__(self):  # defined in Python, so dict(x) and {**x} read the values through __getitem__
        return dict.__iter__(self)

    def items(self):
        return dict.items(self._resolved())

    def values(self):
        return dict.values(self._resolved())

    def copy(self) -> dict:
        return dict(self._resolved())

    def pop(self, key, *default):
        return dict.pop(self._resolved(), key, *default)

    def popitem(self):
        return dict.popitem(self._resolved())

    def setdefault(self, key, default=None):
        return dict.setdefault(self._resolved(), key, default)

    def __eq__(self, other):
        if isinstance(other, ToolFields):
            other._resolved()
        return dict.__eq__(self._resolved(), other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return dict.__repr__(self._resolved())

    def __reduce_ex__(self, protocol):
        return dict, (dict(self._resolved()),)


#: The keys of a tool call's fields, in order (a :class:`ToolFields` made by :func:`_tool_fields`).
_TOOL_KEYS = {k: i for i, k in enumerate(("name", "arguments_text", "status", "error", "arguments", "arguments_json",
                                          "arguments_strict_json"))}
#: Where the tuple of :func:`_tool_call` holds the value of a key (by its index in ``_TOOL_KEYS``).
_TOOL_SLOT = {0: 0, 3: 1, 5: 5, 6: 2}


def _tool_call(fields: dict[str, Any], strict: bool, body: str, at: int) -> tuple | None:
    """The fields of a tool call whose arguments (``fields["arguments_text"]``) are a JSON
    object or array (``strict``: for the strict decoder), as a tuple ``(name, error, strict,
    at, tail, True)``: ``error`` is ``None`` for status ``ok``, the arguments start at code
    point ``at`` of ``body`` (the note's body) and ``tail`` code points follow them there.
    ``None`` when ``body`` does not hold the arguments at ``at`` (then the fields are kept)."""
    text = fields["arguments_text"]
    if not body.startswith(text, at):
        return None
    error = None if fields["status"] == "ok" else fields["error"]
    if error is None and fields["status"] != "ok":
        return None
    return _shared_call((fields["name"], error, strict, at, len(body) - at - len(text), True))


def _shared_call(call: tuple) -> tuple:
    """``call`` (a tuple of :func:`_tool_call`), or an equal one already made: a session repeats
    a few of these (tool name, status, layout) thousands of times, each is kept once, shared by
    the records (immutable, as the node shapes of parse.fountain)."""
    name, error = call[0], call[1]
    if len(name) + (0 if error is None else len(error)) > 200:  # (the table keeps no long text alive)
        return call
    shared = _CALLS.get(call)
    return shared if shared is not None else remember(_CALLS, call, call)


_CALLS: dict[tuple, tuple] = content_table()  # the tuples of _tool_call, each kept once


def _tool_fields(call: tuple, note: Note) -> "ToolFields":
    """The :class:`ToolFields` of a tool call kept as :func:`_tool_call`'s tuple (a new one)."""
    name, error, strict, at, tail, _ = call
    out = ToolFields(name=name, arguments_text=_UNSLICED, status="ok" if error is None else "error", error=error,
                     arguments=_UNDECODED, arguments_json=True, arguments_strict_json=strict)
    out._note, out._at, out._tail = note, at, tail
    return out


def _split_tool_arguments(fields: dict[str, Any], note: Note | None = None, body: str = "",
                          at: int = 0) -> dict[str, Any]:
    """``fields`` (tool fields from the grammar) with ``arguments`` (the JSON value),
    ``arguments_json`` and ``arguments_strict_json`` (bools) added: a :class:`ToolFields`
    when the value is an object or array, else ``fields`` itself. With ``note`` (whose body
    is ``body``, the payload starting at code point ``at`` of it), an object or array gives the
    tuple of :func:`_tool_call` instead (a :class:`NoteRecord` keeps it as its fields).

    If the grammar's split leaves invalid JSON but the text starts with a JSON
    value followed by ``) — status``, that split wins (a status message that
    itself contains ``) — ok``).
    """
    text = fields["arguments_text"]
    fields["arguments"] = None
    fields["arguments_json"] = False
    fields["arguments_strict_json"] = False
    if not text or too_deep_to_decode(text):
        return fields
    for strict in (True, False):
        try:
            value = _decode_json(text, strict)
        except (ValueError, RecursionError):  # RecursionError: absurdly nested arrays
            continue
        if isinstance(value, (dict, list)) and text.count("[") + text.count("{") < 200:
            # (decoded again when read, at any stack depth: fewer than 200 brackets nest < 200 deep)
            if note is not None:  # NAME(ARGS) — status: the arguments start after "NAME("
                call = _tool_call(fields, strict, body, at + len(fields["name"]) + 1)
                if call is not None:
                    return call
            out = ToolFields(fields)
            dict.__setitem__(out, "arguments", _UNDECODED)
        else:
            out = fields
            out["arguments"] = value
        out["arguments_json"] = True
        out["arguments_strict_json"] = strict
        return out
    # Re-split: a JSON value, then ") — status"; the grammar took the last ") — ".
    status = "ok" if fields["status"] == "ok" else "error" + (": " + fields["error"] if fields["error"] else "")
    full = text + ") — " + status
    for strict in (True, False):
        try:
            value, end = _json_decoder(strict).raw_decode(full)
        except (ValueError, RecursionError):  # RecursionError: absurdly nested arrays
            continue
        m = re.fullmatch(r"\) — (ok|error(?::\s*(.*))?)", full[end:], re.S)
        if m:
            fields.update(arguments_text=full[:end], arguments=value, arguments_json=True,
                          arguments_strict_json=strict, status="ok" if m.group(1) == "ok" else "error",
                          error=None if m.group(1) == "ok" else (m.group(2) or "").strip())
        return fields
    return fields


def parse_note(note: Note) -> NoteRecord:
    """Parse a note node into a :class:`NoteRecord`. Never raises.

    Fields by kind: ``tool``: name, arguments_text, arguments (JSON value or
    None), arguments_json, status (``ok``/``error``), error; ``rag``: chunks,
    store, top_score; ``rag-source``: source, title, doi, url; ``recall``: id,
    source, score; ``write``: path, status, detail; ``shell``: command,
    exit_code; ``model switch``: model, backend, at; ``chunk``: file, chunks,
    model, boundary, chunk_size, pairs; ``chunk-result``: index, count, status,
    error; ``synthesis``: model, status, error; memory tools and ``run``:
    target, status; ``confidence``: score, threshold_met, threshold;
    ``pipeline-stop``: step, steps, score, threshold; ``stats`` (legacy):
    models (``MODEL ·`` form, else None), prompt_tokens and reply_tokens (``P prompt
    + R reply tokens`` form, else None), tokens (``N tokens`` form, else None: a
    total the file does not write is not computed), duration (as written, e.g.
    ``"8.3s"``), seconds (float), tokens_per_second (float); ``unknown``: none
    (see ``body``).
    """
    # The recorder's most frequent notes (a tool call, a RAG note) read in the document's text,
    # in place: no copy of the note's body, one expression for its head and its ends
    src = note._lines.text
    at, end = note.offset, note.end_offset
    # (the usual ending, `]]` and a line feed, tested at once; the blank before it: by the expression)
    close = end - 3 if src.endswith("]]\n", at, end) else _close_of(src, at, end)
    m = None if close < 0 else _RECORDER_NOTE.match(src, at, close)
    if m is not None:
        # a tool call's (ARGS) and where its status starts (after them); (-1, -1) for a RAG note
        args, status = m.span(3)
        if args >= 0:  # `tool`: NAME from `[[tool: `, to `(`; the status is ` — ok` or an error
            if (_TOOL_MATCH[0] or _tool_reader()) is not None:
                call = _tool_call_in(src, at + 2, close, (at + 8, args), (args, status),
                                     None if close - status == 5 else _status_of(src[status:close]))
                if call is not None:  # (the most frequent note: its record made here, as _valid_record makes it)
                    rec = _new(NoteRecord)
                    rec.kind, rec.node, rec.actor, rec._fields, rec.valid, rec._rare = "tool", note, None, call, True, None
                    return rec
        else:  # `rag`, `rag-source`: the payload after the head and its blank
            head = m.end(6)
            return _context_record("rag" if head - at == 5 else "rag-source", note, None,
                                   src[head + 2:close], head - at)
    return _read_note(note)


#: A note node's whole text when it is one of the recorder's most frequent notes: ``[[``, a
#: ``tool`` head (no actor) and a call as notes.lark's ``tool`` rule reads it (groups ``name``,
#: ``args``: they run to the last ``) — `` followed by a valid status, ``status``: from `` — ``,
#: ``ok`` when it is that),
#: or a ``rag`` or ``rag-source`` head (group ``kind``) and a payload starting with a non-blank;
#: the body ends with a non-blank (tested first, by the lookahead: tested after a body read to the
#: end, each of many ``) — error: `` would be read to the end again), then ``]]`` and at most a line
#: end (:func:`_close_of` finds that ``]]``, :func:`parse_note` itself the usual ``]]\n``; the
#: expression is matched up to it: with the end in the expression, a note of many
#: ``) — error: ]]`` failing at its end backtracked over each, quadratic). Group ``body`` is then
#: exactly :attr:`Note.body <fountain_audit.parse.fountain.Note.body>` (the text between the
#: first ``[[`` and the last ``]]``, with nothing to strip), which :func:`parse_note` reads as
#: it would read the sliced body. (``\S`` and ``str.isspace`` agree on what a blank is;
#: ``tests/test_note_sequences.py`` holds the tool reading to the grammar's.)
_RECORDER_NOTE = lazy(r"\[\[(?=(?s:.*+)(?<=\S))(?P<body>(?:tool: (?P<name>(?>[^\s(]+))(?P<args>\((?s:.*)\))(?P<status> — (?:(?P<ok>ok)|error(?::(?s:.*))?))"
                      r"|(?P<kind>rag-source|rag): (?=\S)(?s:.*)))\Z")


def _close_of(text: str, start: int, end: int) -> int:
    """Where the closing ``]]`` of the note ``text[start:end]`` starts when the note ends with a
    non-blank, ``]]`` and at most one line end (``\n``, ``\r\n`` or ``\r``), else -1."""
    if text[end - 1:end] == "\n":
        end -= 1
    if text[end - 1:end] == "\r":
        end -= 1
    end -= 2
    return end if end - start >= 3 and text.startswith("]]", end) and not text[end - 1].isspace() else -1


def _read_note(note: Note) -> NoteRecord:
    """:func:`parse_note` of any note, from its body (the general path)."""
    body = note.body
    # The head: most notes start `KIND: ` with no actor, read without the expression (the same
    # answer: a head with no period can only be that kind, and a blank then a non-blank follow it;
    # neither pipeline note has a colon in its first 16 characters)
    colon = body.find(":", 0, 16)
    kind = _KIND_NAMES.get(body[:colon]) if colon > 0 else None
    if kind is not None and body[colon + 1:colon + 2] == " " and colon + 2 < len(body) \
            and not body[colon + 2].isspace():
        actor, end = None, colon + 2
    else:
        if body == PIPELINE_HIDDEN:
            return NoteRecord("pipeline-hidden", note)
        if body.startswith(PIPELINE_STOP):
            return _read_payload(NoteRecord("pipeline-stop", note), body, 0, "pipeline_stop")
        m = AUDIT_HEAD_RE.match(body)
        if not m:
            return NoteRecord("unknown", note)
        kind, actor, end = _KIND_NAMES[m.group("kind")], m.group("actor"), m.end()
        if actor is not None:
            if kind != "tool":
                return NoteRecord("unknown", note)
            actor = intern(actor)  # (a session's notes name a few actors, each held once)
    if kind == "tool":
        call = _read_tool_call(body, 0, end, len(body))
        if call is not None:
            return _valid_record(kind, note, actor, call)  # (the most frequent note)
    payload = body[end:]
    if kind in _CONTEXT_FIELDS:
        return _context_record(kind, note, actor, payload, end)
    rec = NoteRecord(kind, note, actor=actor)
    start = KINDS[kind]
    if not start:
        return rec
    rec = _read_payload(rec, payload, end, start)
    if rec.valid and kind == "tool":
        rec.fields = _split_tool_arguments(rec.fields, note, body, end)
    return rec


def _valid_record(kind: str, note: Note, actor: str | None, fields) -> NoteRecord:
    """``NoteRecord(kind, note, actor=actor, fields=fields)`` of a well-formed note, made without
    its ``__init__``'s keyword defaults (one a note: every slot set, as ``__init__`` sets it)."""
    rec = _new(NoteRecord)
    rec.kind, rec.node, rec.actor, rec._fields, rec.valid, rec._rare = kind, note, actor, fields, True, None
    return rec


_new = object.__new__
#: The fields of the rag and rag-source payloads read (by kind, then payload; each record gets a copy).
_CONTEXT_FIELDS: dict[str, dict[str, dict]] = {"rag": content_table(), "rag-source": content_table()}


def _context_record(kind: str, note: Note, actor: str | None, payload: str, at: int) -> NoteRecord:
    """The record of a ``rag`` or ``rag-source`` note (``kind``) whose payload, from code point
    ``at`` of its body, is ``payload``: its fields read once per distinct payload (a session
    repeats some of them: the same store, score, source), each record given its own copy."""
    memo = _CONTEXT_FIELDS[kind]
    fields = memo.get(payload)
    if fields is None:
        fields = _read_fast(payload, KINDS[kind])
        if fields is None:  # (not well formed: the general path says why)
            return _parse_payload(NoteRecord(kind, note, actor=actor), payload, at, KINDS[kind])
        if len(payload) <= 200:  # (the table keeps no long text alive)
            remember(memo, payload, fields)
    rec = _new(NoteRecord)  # (as _valid_record makes it; the record's own dict: a reader may change it)
    rec.kind, rec.node, rec.actor, rec._fields, rec.valid, rec._rare = kind, note, actor, fields.copy(), True, None
    return rec


def _read_tool_call(text: str, start: int, at: int, end: int) -> tuple | None:
    """The fields of the most frequent note, a well-formed tool call whose arguments are a JSON
    object or array, as :func:`_tool_call`'s tuple, for the note whose body is ``text[start:end]``
    (code points; the document's text, or the body itself with ``start`` 0), its payload from
    code point ``at`` of ``text``: read with the grammar's ``tool`` pattern and the arguments
    decoded in place, what :func:`_read_payload` and :func:`_split_tool_arguments` give such a
    note, without the two dicts they build and drop. ``None`` for any other payload, which then
    takes that general path."""
    match = _TOOL_MATCH[0]
    if match is False:
        match = _tool_reader()
    m = None if match is None else match(text, at, end)  # (the body's end is the pattern's end)
    if m is None:
        return None
    _, name, args, (t, t_end) = m.regs
    return _tool_call_in(text, start, end, name, args, _status_of(text[t:t_end]))


def _tool_reader():
    """The ``match`` of the grammar's tool pattern when tool calls have a fast reader (see
    :func:`_fast_readers`), else ``None``; kept in :data:`_TOOL_MATCH`."""
    match = _TOOL_MATCH[0] = _tool_match() if "tool" in _fast_readers() else None
    return match


def _tool_call_in(text: str, start: int, end: int, name: tuple[int, int], args: tuple[int, int],
                  error: str | None) -> tuple | None:
    """:func:`_read_tool_call` of the tool call whose body is ``text[start:end]`` once its NAME
    and ``(ARGS)`` are found there, each as ``(start, end)`` code points of ``text``, and the
    error its status says (:func:`_status_of`)."""
    (n, n_end), (s, e) = name, args
    s += 1  # the arguments, between "NAME(" and ")"
    e -= 1
    if s >= e:
        return None
    args = text[s:e]
    size = e - s
    for strict in (True, False):
        # (the arguments alone, copied: a scan of the whole text could run on far past them)
        scan = _SCANNERS.get(strict) or _json_decoder(strict).scan_once
        try:
            try:
                value, stop = scan(args, 0)
            except StopIteration:  # leading whitespace, or no value at all: the decoder's own path
                value, stop = _decode_json(args, strict), size
        except (ValueError, RecursionError):
            continue
        if stop != size and args[stop:].strip(" \t\n\r"):
            continue  # (extra data after the value)
        if not isinstance(value, (dict, list)) or size >= 200 and args.count("[") + args.count("{") >= 200:
            return None
        call = (intern(text[n:n_end]), error, strict, s - start, end - e, True)
        shared = _CALLS.get(call)
        return shared if shared is not None else _shared_call(call)
    return None


def _status_of(status: str) -> str | None:
    """:func:`_status_error` of a tool call's status terminal (`` — ok``, `` — error: MESSAGE``),
    each distinct one read once."""
    error = _STATUSES.get(status, False)
    if error is False:
        error = _status_error(status)
        if len(status) <= 200:  # (the table keeps no long text alive)
            remember(_STATUSES, status, error)
    return error


#: A tool call's status terminal -> its error (see :func:`_status_error`), each read once.
_STATUSES: dict[str, str | None] = content_table()


#: ``[match]``: :func:`_tool_match` once asked (``False`` before), read without a call.
_TOOL_MATCH: list = [False]


@functools.cache
def _tool_match():
    """The ``match`` method of the tool reader's pattern (see :func:`_fast_readers`), or ``None``."""
    pattern = _reader_tables()[0].get("tool")
    return None if pattern is None else re.compile(pattern).match


#: Each note kind's name, held once (a record's ``kind`` is one of these, not a new string).
_KIND_NAMES = {k: k for k in KINDS}


@forgettable
@functools.lru_cache(maxsize=4096)
def _parse_cached(payload: str, start: str) -> tuple[dict[str, Any] | None, int]:
    """``(fields, -1)`` or ``(None, error position)``; identical notes (a file read
    twice, a recurring RAG source) are parsed once. Imports Lark."""
    from lark.exceptions import LarkError, UnexpectedInput
    try:
        fast = _sequences().get(start)
        if fast is not None:
            fields = fast(payload)
            if fields is not None:
                return fields, -1
        return _parser().parse(payload, start=start), -1
    except UnexpectedInput as e:
        return None, getattr(e, "pos_in_stream", None) or 0
    except (ValueError, ArithmeticError, LarkError):
        # A value the grammar accepts but Python cannot hold (a 5000-digit exit code).
        return None, 0


@functools.cache
def _sequences() -> dict[str, Any]:
    """Start rules of notes.lark that are a plain sequence of terminals (most note
    kinds), each as a function ``payload -> fields | None``.

    The function matches one regular expression built from the grammar's own terminal
    patterns, in rule order, each in an atomic group (``(?>...)``): that is what the
    LALR parser's contextual lexer does when each state accepts one terminal (it matches
    that terminal's pattern where it stands, first match, no backtracking into it), and
    then it reduces with the parser's own callbacks (child filtering, placeholders and
    :class:`NoteFields`, given the terminals' text as ``str``). So the result is the
    parser's, without its per-call set-up
    (about 45 µs a note). ``None`` means "did not match": the caller then runs the LALR
    parser, which gives the error position. Rules with alternatives other than one
    empty expansion (``[BACKEND]`` in the middle, ``chunk``'s repetition) are left to
    the parser.
    """
    lark = _parser()
    patterns = {t.name: t.pattern.to_regexp() for t in lark.terminals}
    callbacks = lark.parser.parser.parser.callbacks
    rules: dict[str, list] = {}
    for r in lark.rules:
        rules.setdefault(r.origin.name, []).append(r)

    def plan(rule, parts: list[str]):
        steps = []
        for sym in rule.expansion:
            if sym.is_term:
                if sym.name not in patterns:
                    return None
                parts.append(f"(?>(?P<g{len(parts)}>{patterns[sym.name]}))")
                steps.append((sym.name, f"g{len(parts) - 1}"))
            else:
                sub = rules.get(sym.name, [])
                if len(sub) != 1:
                    return None
                inner = plan(sub[0], parts)
                if inner is None:
                    return None
                steps.append((None, inner))
        return callbacks[rule], steps

    def reduce(m, node):
        callback, steps = node
        # Terminal values as plain strings (the transformer only reads them as text).
        return callback([m.group(arg) if name is not None else reduce(m, arg) for name, arg in steps])

    out: dict[str, Any] = {}
    for start in lark.options.start:
        exps = rules.get(start, [])
        empty = [r for r in exps if not r.expansion]
        full = [r for r in exps if r.expansion]
        if len(full) != 1 or len(empty) > 1:
            continue
        parts: list[str] = []
        node = plan(full[0], parts)
        if node is None:
            continue
        rx = re.compile("".join(parts) + r"\Z")
        on_empty = callbacks[empty[0]] if empty else None

        def run(payload: str, rx=rx, node=node, on_empty=on_empty):
            if not payload and on_empty is not None:
                return on_empty([])
            m = rx.match(payload)
            return reduce(m, node) if m else None

        run.rx = rx  # for _fast_readers
        out[start] = run
    return out


#: The start rules with a hand-made fast reader (the recorder's most frequent note kinds).
_FAST_KINDS = ("tool", "rag", "recall", "rag_source")


@functools.cache
def _fast_readers() -> dict[str, Any]:
    """Readers for the note kinds whose start rule is a plain sequence: ``payload -> fields |
    None``, each a fresh dict. ``None``: not well formed; the caller then runs
    :func:`_parse_payload`, which says why.

    Each matches the regular expression :func:`_sequences` derives from the grammar's own
    terminals for that start rule and hands the terminals' text to :class:`NoteFields`, as the
    parser's callbacks would: the same fields, without the generic reduction, the cache and its
    copy (``tests/test_note_sequences.py`` checks field-for-field equality with the LALR parser
    on generated payloads and every note of samples/ and ../shared). The recorder's most
    frequent kinds (``tool``, ``rag``, ``rag_source``, ``recall``) have hand-made readers;
    the other plain sequences (``write``, ``shell``, ``memory`` ...) follow a *plan*
    (:func:`_plans`). Patterns and plans come from the grammar memo
    (:func:`_reader_tables`), so reading notes of these kinds never imports Lark once known.
    """
    patterns, plans = _reader_tables()
    rx = {start: re.compile(p) for start, p in patterns.items()}
    t = NoteFields()
    out: dict[str, Any] = {start: _plan_reader(re.compile(p), plan, t) for start, (p, plan) in plans.items()}
    if "tool" in rx:
        def tool(payload: str, match=rx["tool"].match, tool=t.tool, status=t.status):
            m = match(payload)
            if m is None:
                return None
            name, args, st = m.group("g0", "g1", "g2")
            return tool([name, args, status([st])])
        out["tool"] = tool
    for start in ("rag", "recall"):
        if start in rx:
            def three(payload: str, match=rx[start].match, build=getattr(t, start)):
                m = match(payload)
                return None if m is None else build(list(m.group("g0", "g1", "g2")))
            out[start] = three
    if "rag_source" in rx:
        def rag_source(payload: str, match=rx["rag_source"].match, build=t.rag_source):
            if not payload:
                return build([None])
            return build([payload]) if match(payload) else None
        out["rag_source"] = rag_source
    return out


def _plan_reader(rx: re.Pattern, plan: list, fields: NoteFields):
    """A reader (see :func:`_fast_readers`) that matches ``rx`` and reduces by ``plan``:
    ``[method, steps]``, each step a group name of ``rx`` (a kept terminal's text) or a
    nested plan (a sub-rule's value), the method a :class:`NoteFields` method's name."""
    def reduce(m, node):
        method, steps = node
        return getattr(fields, method)([m.group(x) if isinstance(x, str) else reduce(m, x) for x in steps])

    if plan[0] == "*":  # a list rule, `item (SEP item)*`: rx matches one item, then SEP or the end
        method, item = getattr(fields, plan[1]), plan[2]

        def read_list(payload: str):
            items = []
            at = 0
            while True:
                m = rx.match(payload, at)
                if m is None:
                    return None
                items.append(reduce(m, item))
                if m.group("sep") is None:  # (the end of the payload)
                    return method(items)
                at = m.end()
        return read_list

    def read(payload: str):
        m = rx.match(payload)
        return None if m is None else reduce(m, plan)
    return read


def _is_plan(plan, groups: dict) -> bool:
    """Whether ``plan`` (from the memo) is well formed: ``[method, steps]`` naming a public
    :class:`NoteFields` method, each step a group of the pattern or a nested plan."""
    if isinstance(plan, list) and len(plan) == 3 and plan[0] == "*":  # a list rule's: ["*", method, item plan]
        return "sep" in groups and isinstance(plan[1], str) and _is_plan([plan[1], []], groups) and \
            _is_plan(plan[2], groups)
    if not (isinstance(plan, list) and len(plan) == 2 and isinstance(plan[0], str) and isinstance(plan[1], list)):
        return False
    method, steps = plan
    if method.startswith("_") or not callable(getattr(NoteFields, method, None)):
        return False
    return all(x in groups if isinstance(x, str) else _is_plan(x, groups) for x in steps)


def _reader_tables() -> tuple[dict[str, str], dict[str, tuple[str, list]]]:
    """``(patterns, plans)`` of the fast readers: the hand-made readers' regular expressions
    (start rule -> pattern) and the other readers' ``(pattern, plan)``, as :func:`_sequences`
    and :func:`_plans` derive them from notes.lark; recorded in the grammar memo
    (:class:`~fountain_audit.parse.memo.GrammarMemo`, tables ``readers`` and ``plans``), so a
    process whose notes are all of these kinds never imports Lark. A recorded entry that does
    not compile or is not well formed is not trusted: all are derived again."""
    from fountain_audit.parse.memo import GrammarMemo
    memo = GrammarMemo("notes", read_grammar("notes.lark"))
    found = {start: memo.get("readers", start) for start in _FAST_KINDS}
    recorded = memo.tables.get("plans")
    if all(isinstance(p, str) for p in found.values()) and isinstance(recorded, dict) and recorded:
        try:
            plans = {}
            for p in found.values():
                re.compile(p)
            for start, entry in recorded.items():
                pattern, plan = entry
                if not _is_plan(plan, re.compile(pattern).groupindex):
                    raise ValueError(start)
                plans[start] = (pattern, plan)
            return found, plans
        except (re.error, ValueError, TypeError):
            pass
    seq = _sequences()
    patterns = {start: seq[start].rx.pattern for start in _FAST_KINDS if start in seq}
    plans = {start: entry for start, entry in _plans().items() if start not in patterns}
    for start, p in patterns.items():
        memo.put("readers", start, p)
    for start, (p, plan) in plans.items():
        memo.put("plans", start, [p, plan])
    memo.save()
    return patterns, plans


def _plans() -> dict[str, tuple[str, list]]:
    """Start rules of notes.lark whose parse is one sequence of terminals and named sub-rules,
    with no inlined (``_rule``) or single-child (``?rule``) sub-rule and no kept punctuation,
    where a terminal may be optional (``[BACKEND]``: Lark's two expansions, one with the
    terminal's place marked empty; its group is then ``None``, the parser's placeholder), or a
    list of one sub-rule, ``item (SEP item)*`` (``chunk``: plan ``["*", method, item plan]``,
    the pattern one item then group ``sep`` or the end): start rule -> ``(pattern, plan)``
    (see :func:`_plan_reader`; ``tests/test_note_sequences.py`` checks the readers against the
    parser on generated payloads). The
    pattern is :func:`_sequences`'; the plan passes each sub-rule's value and the text of each
    terminal the parser keeps (named terminals not starting with ``_``; anonymous strings and
    ``_NAME`` terminals are filtered out, as Lark's tree builder does) to the rule's
    :class:`NoteFields` method. Imports Lark."""
    lark = _parser()
    patterns = {t.name: t.pattern.to_regexp() for t in lark.terminals}
    rules: dict[str, list] = {}
    for r in lark.rules:
        rules.setdefault(r.origin.name, []).append(r)

    def plan(rule, parts: list[str], optional: tuple[bool, ...] = ()):
        o = rule.options
        if o.keep_all_tokens or o.expand1 or o.empty_indices or getattr(o, "template_source", None):
            return None
        steps: list = []
        for i, sym in enumerate(rule.expansion):
            if sym.is_term:
                if sym.name not in patterns:
                    return None
                group = f"g{len(parts)}"
                part = f"(?>(?P<{group}>{patterns[sym.name]}))"
                # an optional terminal (`[BACKEND]`): its group is None when absent, as the
                # parser's placeholder
                parts.append(f"(?:{part})?" if i < len(optional) and optional[i] else part)
                if not sym.filter_out:
                    steps.append(group)
            else:
                sub = rules.get(sym.name, [])
                if sym.name.startswith("_") or len(sub) != 1 or i < len(optional) and optional[i]:
                    return None
                inner = plan(sub[0], parts)
                if inner is None:
                    return None
                steps.append(inner)
        method = str(rule.alias or rule.origin.name)
        return [method, steps] if callable(getattr(NoteFields, method, None)) else None

    def item_plan(name: str, parts: list[str]):
        # a rule's plan: one sequence, or `a [B] c` (Lark's two expansions: the full sequence, and
        # the one without B, B's place marked empty; B's group is then None)
        exps = rules.get(name, [])
        optional: tuple[bool, ...] = ()
        if len(exps) == 2:
            full, short = sorted(exps, key=lambda r: len(r.expansion), reverse=True)
            optional = short.options.empty_indices
            if full.options.empty_indices or len(optional) != len(full.expansion) or \
                    [s for s, gone in zip(full.expansion, optional) if not gone] != list(short.expansion) or \
                    short.alias != full.alias:
                return None
            exps = [full]
        return plan(exps[0], parts, optional) if len(exps) == 1 else None

    def list_plan(start: str, exps: list):
        # `start: item (SEP... item)*`, which Lark writes as `start: item | item __star` and
        # `__star: SEP... item | __star SEP... item`: one item, then the separators or the end
        if len(exps) != 2 or any(r.options.empty_indices or r.alias for r in exps):
            return None
        one, more = sorted(exps, key=lambda r: len(r.expansion))
        if len(one.expansion) != 1 or one.expansion[0].is_term or len(more.expansion) != 2 or \
                more.expansion[0] != one.expansion[0] or more.expansion[1].is_term:
            return None
        item, star = one.expansion[0], more.expansion[1]
        loop = rules.get(star.name, [])
        if not star.name.startswith("__") or len(loop) != 2:
            return None
        first, again = sorted(loop, key=lambda r: len(r.expansion))
        seps = first.expansion[:-1]
        if first.expansion[-1] != item or list(again.expansion) != [star, *seps, item] or \
                not seps or not all(s.is_term and s.filter_out and s.name in patterns for s in seps):
            return None
        parts: list[str] = []
        node = item_plan(item.name, parts)
        method = str(start)
        if node is None or not callable(getattr(NoteFields, method, None)):
            return None
        sep = "".join(f"(?>{patterns[s.name]})" for s in seps)
        return "".join(parts) + f"(?:(?P<sep>{sep})|\\Z)", ["*", method, node]

    out: dict[str, tuple[str, list]] = {}
    for start in lark.options.start:
        exps = rules.get(start, [])
        listed = list_plan(start, exps)
        if listed is not None:
            out[start] = listed
            continue
        parts: list[str] = []
        node = item_plan(start, parts)
        if node is not None:
            out[start] = ("".join(parts) + r"\Z", node)
    return out


#: :func:`_fast_readers`, once asked (empty before), read without a call.
_READERS: dict = {}


def _read_payload(rec: NoteRecord, payload: str, skip: int, start: str) -> NoteRecord:
    """``rec`` with the fields of ``payload`` (start rule ``start``), read by its fast reader
    when it has one and the payload is well formed, else by :func:`_parse_payload`."""
    fields = _read_fast(payload, start)
    if fields is not None:
        rec._fields = fields
        return rec
    return _parse_payload(rec, payload, skip, start)


def _read_fast(payload: str, start: str) -> dict | None:
    """The fields of ``payload`` (start rule ``start``) read by its fast reader (a new dict), or
    ``None`` when it has none or the payload is not well formed (then :func:`_parse_payload`
    says why)."""
    read = (_READERS or _READERS.update(_fast_readers()) or _READERS).get(start)
    if read is None:
        return None
    try:
        return read(payload)
    except (ValueError, ArithmeticError):  # a number Python cannot hold: the parser's path says so
        return None


def _parse_payload(rec: NoteRecord, payload: str, skip: int, start: str) -> NoteRecord:
    fields, error_pos = _parse_cached(payload, start)
    if fields is not None:
        rec.fields = dict(fields)
        return rec
    rec.valid = False
    rec.error = _describe(rec.kind)
    bad = _bad_field(rec.kind, payload)
    if bad is not None:  # point at the start of the field that is wrong, and name it
        at, what = bad
        rec.error = rec.error.replace(": expected '", f": {what}; expected '", 1)
    else:
        at = _error_position(payload, error_pos)
    rec.error_line, rec.error_column = _locate(rec.node, skip + at)
    return rec


_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_WHOLE = r"-?[0-9]+"
#: Per note kind: the note's shape with one group per field (loose: any text in each), and for
#: the fields that must be numbers, ``(group, what it is, pattern)``. A payload the grammar
#: rejected whose shape matches names its first field that fails its pattern.
_FIELDS: dict[str, tuple[re.Pattern[str], tuple[tuple[str, str, str], ...]]] = {
    "rag": (lazy(r"(?P<chunks>.*?) chunks? from (?P<store>.+), top score (?P<score>.*)", re.S),
            (("chunks", "the chunk count", _WHOLE), ("score", "the top score", _NUMBER))),
    "recall": (lazy(r"(?P<id>.*?) \((?P<source>[^)]*)\) — score (?P<score>.*)", re.S),
               (("score", "the score", _NUMBER),)),
    "shell": (lazy(r"(?P<command>.+) — exit (?P<code>.*)", re.S), (("code", "the exit status", _WHOLE),)),
    "chunk-result": (lazy(r"(?P<index>[^/—]*)/(?P<count>[^/—]*?) — (?P<status>.*)", re.S),
                     (("index", "the chunk index", _WHOLE), ("count", "the chunk count", _WHOLE))),
    "confidence": (lazy(r"(?P<score>.*?) — (?P<threshold>threshold .*)", re.S),
                   (("score", "the confidence score", _NUMBER),)),
}


def _bad_field(kind: str, payload: str) -> tuple[int, str] | None:
    """``(offset in payload, "the top score 'abc' is not a number")`` for the first number
    field of a rejected payload that is not one, when the payload has its kind's shape, or for a
    tool call's status written after another dash than `` — `` or in other capitals (see
    :func:`_bad_tool_status`); else ``None`` (the parser's position is used)."""
    if kind == "tool":
        return _bad_tool_status(payload)
    known = _FIELDS.get(kind)
    if known is None:
        return None
    shape, numbers = known
    m = shape.fullmatch(payload)
    if m is None:
        return None
    for group, what, pattern in numbers:
        value = m.group(group)
        if not re.fullmatch(pattern, value):
            kind_of = "a whole number" if pattern == _WHOLE else "a plain decimal number (like 0.87)"
            return m.start(group), f"{what} '{value}' is not {kind_of}"
    return None


#: A tool call whose status follows a dash (group ``sep``: a hyphen, two, an en dash, a minus
#: sign, an em dash, with up to three blanks each side) and is ``ok`` or ``error`` in any capitals
#: (group ``status``): ``NAME(ARGS) - ok``, ``NAME(ARGS) — OK``. (Bounded blanks: linear time.)
_TOOL_STATUS = lazy(r"[^\s(]+\((?s:.*)\)(?P<sep>[ \t]{0,3}(?:—|–|−|-{1,2})[ \t]{0,3})"
                    r"(?P<status>(?i:ok|error))(?::(?s:.*))?")


def _bad_tool_status(payload: str) -> tuple[int, str] | None:
    """``(offset in payload, what is wrong)`` for a rejected tool call whose status follows
    another separator than `` — `` (at the dash: "the status must follow ' — ' ..., not ' - '")
    or is not in lower case (at the status); else ``None``."""
    m = _TOOL_STATUS.fullmatch(payload)
    if m is None:
        return None
    sep, status = m.group("sep", "status")
    if sep != " — ":
        return (m.start("sep") + len(sep) - len(sep.lstrip(" \t")),
                f"the status must follow ' — ' (an em dash, U+2014, with a space each side), not '{sep}'")
    if status != status.lower():
        return m.start("status"), f"status '{status}' must be lower-case '{status.lower()}'"
    return None


def _error_position(payload: str, pos: int) -> int:
    """Where to point for a payload the grammar rejected at ``pos``.

    The grammar's look-ahead terminals (tool arguments, write paths) fail at their
    start when what is wrong is the status after the last " — ": point there.
    """
    sep = payload.rfind(" — ")
    if sep >= pos:
        return sep + 3
    return pos


def _describe(kind: str) -> str:
    expected = {
        "tool": "NAME(ARGS) — ok|error: MESSAGE",
        "rag": "N chunks from STORE, top score S",
        "recall": "ID (SOURCE) — score S",
        "write": "PATH — ok|skipped|aborted|error: MESSAGE",
        "shell": "COMMAND — exit N",
        "model switch": "NAME (BACKEND) at YYYY-MM-DD HH:MM:SS",
        "chunk": "file=F, chunks=N, model=M, boundary=B, chunk-size=S",
        "chunk-result": "i/N — ok|error: MESSAGE",
        "synthesis": "model=M — ok|error: MESSAGE",
        "confidence": "S — threshold met|threshold not met (T)",
        "pipeline-stop": "pipeline stopped at step i/n: confidence S below threshold T",
        "stats": "P prompt + R reply tokens · DURATION · T tok/s",
    }.get(kind, "TARGET — STATUS")
    return f"malformed [[{kind}:]] note: expected '{expected}'"


def _locate(note: Note, body_pos: int) -> tuple[int, int]:
    """File line/column (1-based) of code point ``body_pos`` of the note's body."""
    raw = note.render()
    start = raw.find("[[") + 2
    start += len(raw[start:]) - len(raw[start:].lstrip())
    upto = raw[:start + body_pos]
    nl = max(upto.rfind("\n"), upto.rfind("\r"))
    if nl < 0:
        return note.line, note.column + len(upto)
    return note.line + upto.count("\n") + upto.count("\r") - upto.count("\r\n"), len(upto) - nl

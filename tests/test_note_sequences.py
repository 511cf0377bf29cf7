"""The note fast path (notes.lark's sequence rules matched as one derived regular
expression, reduced with the parser's callbacks) gives exactly what the LALR parser gives."""

from __future__ import annotations

import contextlib
import unittest.mock

import pytest
from hypothesis import example, given, settings, strategies as st
from lark.exceptions import LarkError

from fountain_audit import memos
from fountain_audit.parse import notes as notes_module
from fountain_audit.parse.fountain import Note, parse
from fountain_audit.parse.notes import ToolFields, _fast_readers, _parse_cached, _parser, _sequences, parse_note
from fountain_audit.parse.source import decode_bytes
from tests.conftest import SAMPLES, shared_files

PIECES = [" — ", "ok", "error", "error: ", ":", "(", ")", "()", "{", "}", '"', ",", " ", "\n", "/", "=",
          "exit ", "-", "3", "0.87", "12", "chunks from ", "chunk from ", ", top score ", " — score ", "model=",
          "threshold met", "threshold not met (0.8)", "skipped", "aborted", "pipeline stopped at step ",
          ": confidence ", " below threshold ", "—", "]]", "x", "read_file", "a b", "é"]


def _lark(payload: str, start: str):
    try:
        return _parser().parse(payload, start=start)
    except (LarkError, ValueError, ArithmeticError):
        return None


def _same(payload: str, start: str) -> None:
    try:
        fast = _sequences()[start](payload)
    except (ValueError, ArithmeticError, LarkError):
        fast = None
    assert fast == _lark(payload, start), (start, payload)


def test_sequence_rules_cover_the_common_kinds():
    assert sorted(_sequences()) == ["chunk_result", "confidence", "memory", "pipeline_stop", "rag", "rag_source",
                                    "recall", "run", "shell", "synthesis", "tool", "write"]


def test_recorder_payloads_match_the_parser():
    for start, payload in [
        ("tool", 'read_file({"path":"a.go","note":"a — b ]] c"}) — ok'), ("tool", "x() — error: boom\nmore"),
        ("tool", 'x({"a":")"}) — ok) — ok'), ("tool", "x — ok"), ("rag", "3 chunks from store.db, top score 0.87"),
        ("rag", "1 chunk from a, b, top score 2"), ("rag_source", ""), ("rag_source", "docs/a.md (T, doi:10.1/x)"),
        ("recall", "profile_1 (workspace_profile) — score 1.00"), ("write", "a.go — ok"), ("write", "a.go — skipped: no"),
        ("shell", "ls -la — exit 0"), ("shell", "a — exit 1 — exit 2"), ("chunk_result", "2/3 — ok"),
        ("synthesis", "model=LLAMA — error: x"), ("memory", "m1 — fact — ok"), ("confidence", "0.91 — threshold met"),
        ("pipeline_stop", "pipeline stopped at step 1/3: confidence 0.42 below threshold 0.80"), ("run", "ls — ok"),
        ("shell", "ls — exit " + "9" * 5000),
    ]:
        _same(payload, start)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(_sequences())), st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_any_payload_matches_the_parser(start, payload):
    _same(payload, start)


# --- the readers of the recorder's common kinds (notes._fast_readers) -----------------------------

FAST_PIECES = PIECES + ["file=", "chunks=2", "a=", ", ", ",", "model=qwen2.5-coder:7b", "boundary=paragraph",
                        " (", ") at ", " at ", "2026-08-03 14:25:00", "devstral:24b", "(ollama)", "é=", '{"path":"pkg/f0_0.go","note":"a — b ]] c"}', "rag_store.db", "docs/design-0.md",
                        " (Design notes, doi:10.1234/d0)", "https://x.org/a", "profile_1", " (workspace_profile)",
                        "exit status 1", "\r\n", "\t", "  ", "1e3", "-2", "9" * 40]


def _same_fast(payload: str, start: str) -> None:
    try:
        fast = _fast_readers()[start](payload)
    except (ValueError, ArithmeticError):
        fast = None
    assert fast == _lark(payload, start), (start, payload)


def test_fast_readers_cover_every_kind_but_legacy_stats():
    assert sorted(_sequences()) == ["chunk_result", "confidence", "memory", "pipeline_stop", "rag", "rag_source",
                                    "recall", "run", "shell", "synthesis", "tool", "write"]
    # and the two kinds whose rule is not one sequence: an optional terminal, a list
    assert sorted(_fast_readers()) == sorted([*_sequences(), "chunk", "model_switch"])


def test_plans_pass_what_the_parser_keeps():
    from fountain_audit.parse.notes import _plans
    plans = {start: plan for start, (_, plan) in _plans().items()}
    assert plans["shell"] == ["shell", ["g0", "g3"]]  # SHELL_CMD _SEP "exit " INT: separators filtered
    assert plans["chunk_result"] == ["chunk_result", ["g0", "g2", ["status", ["g3"]]]]
    assert plans["pipeline_stop"] == ["pipeline_stop", ["g1", "g3", "g5", "g7"]]
    # `[BACKEND]`: an optional group, None when absent (the parser's placeholder)
    assert plans["model_switch"] == ["model_switch", ["g0", "g2", "g4"]]
    # `field ("," _WS field)*`: one field a match, then the separators (group `sep`) or the end
    assert plans["chunk"] == ["*", "chunk", ["field", ["g0", "g2"]]]
    assert "stats" not in plans  # alternatives whose first terminals overlap: left to the parser


def test_fast_readers_match_the_parser_on_recorder_payloads():
    for start, payload in [
        ("tool", 'read_file({"path":"a.go","note":"a — b ]] c"}) — ok'), ("tool", "x() — error: boom\nmore"),
        ("tool", 'x({"a":")"}) — ok) — ok'), ("tool", "x — ok"), ("tool", "x() — error"), ("tool", "x() — error:"),
        ("tool", "() — ok"), ("tool", "x(a) — okay"), ("rag", "3 chunks from store.db, top score 0.87"),
        ("rag", "1 chunk from a, b, top score 2"), ("rag", "-1 chunks from s, top score -0.5"),
        ("rag", "3 chunks from , top score 1"), ("rag", "9" * 5000 + " chunks from s, top score 1"),
        ("rag_source", ""), ("rag_source", "docs/a.md (T, doi:10.1/x)"), ("rag_source", "a (b, https://c.d/e, f)"),
        ("rag_source", "a\n(b)"), ("recall", "profile_1 (workspace_profile) — score 1.00"),
        ("recall", "p (s) — score"), ("recall", " (s) — score 1"), ("write", "a.go — ok"),
        ("write", "a.go — skipped: no"), ("shell", "ls -la — exit 0"), ("shell", "a — exit 1 — exit 2"),
        ("shell", "ls — exit " + "9" * 5000), ("chunk_result", "2/3 — ok"), ("synthesis", "model=LLAMA — error: x"),
        ("memory", "m1 — fact — ok"), ("confidence", "0.91 — threshold met"), ("run", "ls — ok"),
        ("confidence", "0.5 — threshold not met (0.8)"),
        ("pipeline_stop", "pipeline stopped at step 1/3: confidence 0.42 below threshold 0.80"),
        ("chunk", "file=harbour-log.md, chunks=2, model=qwen2.5-coder:7b, boundary=paragraph, chunk-size=4000"),
        ("chunk", "a="), ("chunk", "a=, b=1"), ("chunk", "a=1,b=2"), ("chunk", ""), ("chunk", "a=1, "),
        ("chunk", "a=1,\n\tb= x "), ("chunk", "chunks=-3, chunk-size=9" + "9" * 5000), ("chunk", "1a=2"),
        ("model_switch", "devstral:24b (ollama) at 2026-08-03 14:25:00"),
        ("model_switch", "x () at 2026-08-03 14:25:00"), ("model_switch", "x (a) (b) at 2026-08-03 14:25:00"),
        ("model_switch", "x (a) at 2026-08-03 14:25"), ("model_switch", " (a) at 2026-08-03 14:25:00"),
    ]:
        _same_fast(payload, start)


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(sorted(_fast_readers())),
       st.lists(st.sampled_from(FAST_PIECES), max_size=14).map("".join))
def test_fast_readers_match_the_parser_on_any_payload(start, payload):
    _same_fast(payload, start)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40))
def test_fast_readers_match_the_parser_on_any_text(payload):
    for start in sorted(_fast_readers()):
        _same_fast(payload, start)


def _record(rec):
    return (rec.kind, rec.actor, rec.body, rec.fields, rec.valid, rec.error, rec.error_line, rec.error_column)


def _generated_session() -> str:
    """120 turns' worth of the notes the recorder writes, varied by index: the same test has more
    than 100 notes to compare in a clone without ../shared."""
    parts = ["INT. CONTEXT RECALL 2026-06-24 10:00:01\n\n"
             "[[recall: workspace_profile_1 (workspace_profile) — score 1.00]]\n\n"]
    for i in range(120):
        status = ("ok", "error: exit status 1", "skipped: denied")[i % 3]
        parts.append(f"INT. HARVEY AND BENCH TALKING 2026-06-24 10:{i // 60:02d}:{i % 60:02d}\n\n"
                     f"[[rag: {i % 9 + 1} chunks from store.db, top score 0.{i % 90 + 10}]]\n\n"
                     f"[[rag-source: docs/d{i}.md (Design, doi:10.1/{i})]]\n\n"
                     f"[[tool: read_file({{\"path\":\"f{i}.go\",\"n\":\"a — b ]] c\"}}) — {status}]]\n\n"
                     f"[[write: pkg/f{i}.go — {status}]]\n\n[[shell: go test ./{i} — exit {i % 3}]]\n\n"
                     f"[[confidence: 0.{i % 90 + 10} — threshold {'met' if i % 2 else 'not met (0.80)'}]]\n\n"
                     f"[[chunk: file=f{i}.log, chunks={i % 4}, model=m{i}, boundary=block, chunk-size={i * 100}]]\n\n"
                     f"[[model switch: m{i} ({'ollama' if i % 2 else ''}) at 2026-06-24 11:{i // 60:02d}:{i % 60:02d}]]\n\n")
    return "".join(parts)


def test_parse_note_is_the_same_without_the_fast_readers(monkeypatch):
    """Every note of samples/ and ../shared (corpus and cases), and a generated session's:
    field-for-field the same record with and without the fast readers."""
    texts = [p.read_bytes() for p in sorted(SAMPLES.rglob("*")) if p.is_file()]
    texts += [p.read_bytes() for p in shared_files()]
    texts.append(_generated_session().encode())
    notes_ = [n for t in texts for n in parse(decode_bytes(t)).children if isinstance(n, Note)]
    assert len(notes_) > 100 + (100 if shared_files() else 0)
    fast = [_record(parse_note(n)) for n in notes_]
    with general_reading():
        slow = [_record(parse_note(n)) for n in notes_]
    assert fast == slow


@contextlib.contextmanager
def general_reading():
    """``parse_note`` without its fast readers: :func:`notes._fast_readers` empty, and the tables
    filled from it (``_READERS``, ``_TOOL_MATCH``) emptied meanwhile (once filled, patching
    ``_fast_readers`` alone changed nothing: both sides of a comparison read fast); the notes read
    before are forgotten first (the note memo would answer), and those read meanwhile after."""
    with unittest.mock.patch.object(notes_module, "_fast_readers", lambda: {}), \
            unittest.mock.patch.object(notes_module, "_READERS", {}), \
            unittest.mock.patch.object(notes_module, "_TOOL_MATCH", [False]):
        memos.forget()
        yield
    memos.forget()


def test_general_reading_takes_the_general_path(monkeypatch):
    """Inside :func:`general_reading` no fast reader runs: one that answers nonsense changes the
    fast reading only."""
    node = next(n for n in parse('[[tool: read_file({"path":"a.go"}) — ok]]\n\n[[rag: 3 chunks from s.db, top score 0.87]]\n').children
                if isinstance(n, Note))
    memos.forget()
    monkeypatch.setattr(notes_module, "_tool_call_in", lambda *a: ("nonsense",) * 7)
    monkeypatch.setattr(notes_module, "_READERS", {"rag": lambda payload: {"nonsense": 1}})
    with general_reading():
        assert parse_note(node).field("name") == "read_file"
    memos.forget()


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(FAST_PIECES + ['{"a":1}', "[1]", '{"p":"x — ok) — ok"}', "\t"]), max_size=12)
       .map("".join))
@example('read_file({"path":"a.go","note":"a — b ]] c"}) — ok')
@example('x({"a":")"}) — ok) — error: boom')
@example('w({"t":"a\tb"}) — error:  spaced ')
@example('x([1, 2] ) — error')
@example('x( {"a":1}) — ok')
@example('x({"a":1} x) — ok')
@example('x("s") — ok')
@example("x(" + "[" * 300 + "]" * 300 + ") — ok")
def test_tool_notes_are_the_same_without_the_fast_readers(payload):
    """A tool note read in place (notes._read_tool_call) is the record the general path gives."""
    import unittest.mock

    nodes = [n for n in parse(f"[[tool: {payload}]]\n\n[[LLAMA.tool: {payload}]]\n").children if isinstance(n, Note)]
    fast = [(_record(r), r.field("arguments_text"), r.field("status")) for r in map(parse_note, nodes)]
    with general_reading():
        slow = [(_record(r), r.field("arguments_text"), r.field("status")) for r in map(parse_note, nodes)]
    assert fast == slow


# --- tool arguments decoded when read (notes.ToolFields) -----------------------------------------

def _tool_fields(body: str):
    return parse_note(parse(f"[[tool: {body}]]\n").children[0]).fields


def test_tool_arguments_are_decoded_when_read():
    import copy
    import json
    import pickle

    plain = {"name": "read_file", "arguments_text": '{"path":"a.go","n":[1,2.5,null]}', "status": "ok",
             "error": None, "arguments": {"path": "a.go", "n": [1, 2.5, None]}, "arguments_json": True,
             "arguments_strict_json": True}
    for read in (lambda f: f["arguments"], lambda f: f.get("arguments"), lambda f: dict(f), lambda f: {**f},
                 lambda f: list(f.items()), lambda f: list(f.values()), lambda f: f.copy(), repr,
                 lambda f: json.dumps(f), lambda f: json.dumps(f, indent=2, sort_keys=True),
                 lambda f: pickle.loads(pickle.dumps(f)), copy.deepcopy, lambda f: f | {}, lambda f: {} | f):
        lazy = _tool_fields('read_file({"path":"a.go","n":[1,2.5,null]}) — ok')
        assert isinstance(lazy, ToolFields)
        assert read(lazy) == read(plain), read
    lazy = _tool_fields('read_file({"path":"a.go","n":[1,2.5,null]}) — ok')
    assert lazy == plain and plain == lazy and not lazy != plain
    assert lazy == _tool_fields('read_file({"path":"a.go","n":[1,2.5,null]}) — ok')
    assert type(pickle.loads(pickle.dumps(lazy))) is dict
    lenient = _tool_fields('w({"t":"a\tb"}) — ok')  # a raw tab: JSON only for the lenient decoder
    assert lenient["arguments"] == {"t": "a\tb"} and lenient["arguments_strict_json"] is False
    assert type(_tool_fields('x("s") — ok')) is dict  # a scalar is kept as it is
    assert type(_tool_fields("x(" + "[" * 300 + "]" * 300 + ") — ok")) is dict  # deep: decoded once, kept
    assert _tool_fields("x(" + "[" * 300 + "]" * 300 + ") — ok")["arguments_json"] is True


# --- the JSON decoding of tool arguments (notes._decode_json) -----------------------------------

JSON_PIECES = [" ", "\t", "\n", "{", "}", "[", "]", '"', ":", ",", "1", "-", ".5", "e3", "true", "null", "NaN",
               "\\", "\\n", "\x01", "a", '"k"', '{"a":1}', "[1,2]"]


def _outcome(decode, text):
    try:
        return "ok", repr(decode(text))
    except RecursionError:
        return ("recursion",)
    except ValueError:
        return ("error",)


@given(st.lists(st.sampled_from(JSON_PIECES), max_size=14).map("".join), st.booleans())
def test_decode_json_is_the_decoders_decode(text, strict):
    from fountain_audit.parse.notes import _DECODERS, _decode_json
    assert _outcome(lambda t: _decode_json(t, strict), text) == _outcome(_DECODERS[strict].decode, text)


def test_decode_json_edges():
    from fountain_audit.parse.notes import _decode_json
    assert _decode_json(' {"a": [1]}\n', True) == {"a": [1]}
    assert _decode_json('"a\nb"', False) == "a\nb"
    for bad in ("", " ", '{"a":1} x', "{}{}", '"a\nb"'):
        with pytest.raises(ValueError):
            _decode_json(bad, True)


def test_tool_fields_kept_small_and_read_from_the_note():
    import json

    from fountain_audit.parse.notes import _UNSLICED, _TOOL_KEYS
    doc = parse('[[LLAMA.tool: read_file({"path":"a — b.go"}) — error: exit 1]]\n\n'
                '[[LLAMA.tool: read_file({"path":"c.go"}) — error: exit 1]]\n\n'
                '[[tool: w({"t":"a\tb"}) — ok]]\n\n[[tool: x("s") — ok]]\n')
    a, b, c, d = (parse_note(n) for n in doc.children if n.type == "note")
    assert type(a._fields) is tuple and type(c._fields) is tuple and type(d._fields) is dict
    plain = {"name": "read_file", "arguments_text": '{"path":"a — b.go"}', "status": "error", "error": "exit 1",
             "arguments": {"path": "a — b.go"}, "arguments_json": True, "arguments_strict_json": True}
    f = a.fields
    assert isinstance(f, ToolFields) and list(f) == list(plain) == list(_TOOL_KEYS)
    assert dict.__getitem__(f, "arguments_text") is _UNSLICED  # not held
    assert f["arguments_text"] == '{"path":"a — b.go"}' == f.get("arguments_text")
    assert dict.__getitem__(f, "arguments_text") is _UNSLICED  # still not held after a read
    assert f == plain and a.fields == plain and json.loads(json.dumps(a.fields)) == plain
    assert dict.__getitem__(f, "arguments_text") == '{"path":"a — b.go"}'  # kept once every value is read
    for rec in (a, b, c, d):
        for key in [*_TOOL_KEYS, "nope"]:
            assert rec.field(key, "dflt") == rec.fields.get(key, "dflt"), (rec, key)
    assert c.fields == {"name": "w", "arguments_text": '{"t":"a\tb"}', "status": "ok", "error": None,
                        "arguments": {"t": "a\tb"}, "arguments_json": True, "arguments_strict_json": False}
    # repeated strings are held once: kind, actor, tool name, error message
    assert a.kind is b.kind and a.actor is b.actor
    assert a.fields["name"] is b.fields["name"] and a.fields["error"] is b.fields["error"] == "exit 1"


@pytest.mark.parametrize("body, message", [
    ("rag: 3 chunks from s.db, top score ９.９",
     "malformed [[rag:]] note: the top score '９.９' is not a plain decimal number (like 0.87); "
     "expected 'N chunks from STORE, top score S'"),
    ("recall: p1 (workspace_profile) — score ０.５",
     "malformed [[recall:]] note: the score '０.５' is not a plain decimal number (like 0.87); "
     "expected 'ID (SOURCE) — score S'"),
    ("shell: ls — exit ٣", "malformed [[shell:]] note: the exit status '٣' is not a whole number; "
     "expected 'COMMAND — exit N'"),
])
def test_note_numbers_are_ascii_digits(body, message):
    # (other scripts' digits were read as numbers: "top score ９.９" as 9.9; heading times already
    # read ASCII digits only; adversarial trial)
    rec = parse_note(parse(f"[[{body}]]\n").children[0])
    assert (rec.valid, rec.error) == (False, message)
    _parse_cached.cache_clear()

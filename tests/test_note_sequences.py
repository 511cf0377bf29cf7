"""The note fast path (notes.lark's sequence rules matched as one derived regular
expression, reduced with the parser's callbacks) gives exactly what the LALR parser gives."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
from lark.exceptions import LarkError

from fountain_audit.parse.notes import _parser, _sequences

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

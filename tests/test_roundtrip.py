"""Lossless parsing: every input prints back byte for byte; parsing never raises."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fountain_audit import build_session, lint, parse
from fountain_audit.parse.source import decode_bytes, encode_text

from .adversarial import ADVERSARIAL, ADVERSARIAL_FILES, HEAD
from .conftest import or_skipped, shared_files
from .fuzz.run import check

FILES = shared_files()


@pytest.mark.parametrize("path", or_skipped(FILES), ids=lambda p: p.name if p else "no-shared")
def test_shared_file_round_trips(path):
    data = path.read_bytes()
    text = decode_bytes(data)
    doc = parse(text)
    assert doc.render() == text
    assert encode_text(doc.render()) == data


def test_shared_corpus_is_present_or_skipped():
    if not FILES:
        pytest.skip("../shared not present")
    assert len(FILES) >= 90


def test_every_character_in_exactly_one_node():
    text = "\ufeffTitle: T\nAuthor: A\n\nFADE IN:\n\nINT. X 2026-01-01 00:00:00\r\n\r\nA\r\n(p)\r\nhi\r\n\r[[n\nx]]\n/* b\n\n*/\nEND"
    doc = parse(text)
    spans = [(c.offset, c.end_offset) for c in doc.children]
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert [c.type for c in doc.children] == [
        "byte_order_mark", "title_page", "blank", "transition", "blank", "scene_heading", "blank",
        "dialogue", "blank", "note", "boneyard", "action"]


LINE_PARTS = st.sampled_from([
    "", "  ", "\t", "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30", "ALICE", "HARVEY", "LLAMA",
    "Forwarding to LLAMA.", "(chunk 1/2)", "[[tool: read_file({\"path\":\"a\"}) — ok]]", "[[rag: 1 chunks from s, top score 1]]",
    "[[unclosed", "]]", "/*", "*/", "THE END.", "FADE IN:", "Title: Harvey Session", "Author: ALICE", "~lyric",
    "> centered <", ">forced", "CUT TO:", "# section", "= synopsis", "===", "!forced action", "@mention",
    ".forced heading", "text with — dash", "\x00", "\udcff", "\ufeff", "INT. CONTEXT RECALL 2026-06-24 10:00:00",
    "[[recall: a (b) — score 1.00]]", "EXT. PI2 AND ALICE 2026-06-24 10:00:00",
])
EOLS = st.sampled_from(["\n", "\r\n", "\r", ""])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(LINE_PARTS, EOLS), max_size=40))
def test_structured_random_files_round_trip_and_lint(lines):
    text = "".join(a + b for a, b in lines)
    doc = parse(text)
    assert doc.render() == text
    build_session(doc)
    for d in lint(text):
        assert d.line >= 1 and d.column >= 1
        assert d.code != "X001", d.message


@settings(max_examples=200)
@given(st.text())
def test_arbitrary_text_round_trips(text):
    assert parse(text).render() == text
    lint(text)


@settings(max_examples=100)
@given(st.binary())
def test_arbitrary_bytes_round_trip(data):
    text = decode_bytes(data)
    assert encode_text(parse(text).render()) == data
    assert all(d.code != "X001" for d in lint(data))


def _with_examples(test):
    """One explicit example per adversarial chunk of issue 14 (and all of them at once)."""
    for chunk in ADVERSARIAL.values():
        test = example(HEAD + chunk, HEAD + b"ALICE\nq\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nok\n")(test)
    everything = HEAD + b"".join(ADVERSARIAL.values())
    return example(everything, everything[::-1])(test)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(ADVERSARIAL_FILES, ADVERSARIAL_FILES)
@_with_examples
def test_adversarial_files_through_every_command(a, b):
    """The fuzz target's check (tests/fuzz/run.py) on files mixing issue 14's adversarial inputs:
    lint, dump (every shape, and redacted), show (dumped ids, line ids, --lines ranges),
    provenance and diff never raise, every JSON output is well-formed Unicode, the AST prints
    back."""
    check(a, b)


def test_fuzz_summary_counts_in_the_singular_when_one():
    """The fuzz target's closing line said "in 1 minutes" for its default --minutes 1."""
    from .fuzz.run import summary

    assert summary(1, 1.0, 0.021, 1) == "fuzz: 1 input checked in 1 minute, no failure; slowest input 0.02 s (1 byte)"
    assert summary(2406, 10, 0.5, 8192) == (
        "fuzz: 2406 inputs checked in 10 minutes, no failure; slowest input 0.50 s (8192 bytes)")
    assert summary(0, 0.5, 0.0, 0).startswith("fuzz: 0 inputs checked in 0.5 minutes,")

"""The AST keeps offsets only (fountain_audit.parse.fountain.Node, Lines): every derived
value — tokens, parts, lines and columns — agrees with a direct computation from the text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from fountain_audit.parse.fountain import ByteOrderMark, Lines, TitlePage, parse
from fountain_audit.parse.source import LineIndex, decode_bytes
from tests.conftest import SAMPLES, shared_files


def _nodes(doc):
    for c in doc.children:
        yield c
        yield from c.inline_notes
        if isinstance(c, TitlePage):
            yield from c.entries


def _check(text: str) -> None:
    doc = parse(text)
    assert doc.render() == text
    assert doc.body == [c for c in doc.children if not isinstance(c, (ByteOrderMark, TitlePage))]
    index = LineIndex(text)
    for node in _nodes(doc):
        parts = node.parts
        n = node.part_count
        assert n == len(parts) >= 1
        assert node.spans() == [p[:3] for p in parts]
        assert (parts[0][1], parts[-1][2]) == (node.offset, node.end_offset)
        for i in range(-n, n):
            assert node.part_type(i) == parts[i][0]
            assert node.part_span(i) == parts[i][1:3]
            assert node.part_text(i) == text[parts[i][1]:parts[i][2]] == str(node.tokens[i])
        for bad in (n, -n - 1):
            with pytest.raises(IndexError):
                node.part_span(bad)
            with pytest.raises(IndexError):
                node.part_type(bad)
        for ty, a, b, line, col, end_line, end_col in parts:
            assert (line, col) == index.position(a)
            body = text[a:b]
            body = body[:-2] if body.endswith("\r\n") else body[:-1] if body[-1:] in ("\n", "\r") else body
            assert (end_line, end_col) == index.position(a + len(body))
        assert (node.line, node.column) == parts[0][3:5]
        assert (node.end_line, node.end_column) == parts[-1][5:7]


def test_every_sample_and_corpus_file():
    paths = [p for p in sorted(SAMPLES.rglob("*")) if p.is_file()] + shared_files()
    for p in paths:
        _check(decode_bytes(p.read_bytes()))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["\n", "\r\n", "\r", "\ufeff", "BOB", "(beat)", "hi", "[[n]]", "[[", "]]", "/*", "*/",
                                 "INT. A", "Title: x", "Author: y\n", "\n\n", "  ", "~la", "> a <", "é", "done.INT. HARVEY AND A TALKING 2026-01-01 10:00"]),
                max_size=30).map("".join))
def test_any_text(text):
    _check(text)


def test_lines_positions():
    lines = Lines("ab\r\ncd\re\n", [0, 4, 7])
    assert [lines.position(o) for o in (0, 1, 2, 4, 7, 8)] == [(1, 1), (1, 2), (1, 3), (2, 1), (3, 1), (3, 2)]
    assert lines.end_position(0, 4) == (1, 3) and lines.end_position(4, 7) == (2, 3) and lines.end_position(7, 7) == (3, 1)
    assert parse("\ufeff").line_index.position(0) == (1, 1)


def _looked_for(doc) -> bool:
    return any(c.inline_notes for c in doc.children)


def test_has_inline_notes_is_known_from_the_parse_and_equals_a_look_over_the_children():
    """``Document.has_inline_notes()`` is set by the parse (the model reads it instead of walking
    every node of the file); it must say what a walk over the children says, on every file."""
    files = sorted(SAMPLES.rglob("*.spmd")) + sorted(SAMPLES.rglob("*.fountain")) + shared_files()
    seen = {True: 0, False: 0}
    for f in files:
        doc = parse(decode_bytes(f.read_bytes()))
        assert doc._inline is not None, f  # known from the parse, not looked for
        assert doc.has_inline_notes() == _looked_for(doc), f
        seen[doc.has_inline_notes()] += 1
    assert seen[False] > 0 and (seen[True] > 0 or not shared_files())
    for text in ("MAYA [[she whispers]]\nHello.\n", "The bus stops. [[a bus?]] It leaves.\n", "[[tool: x]]\n",
                 "", "INT. HOUSE [[day?]]\n", "Title: t\n\n[[a]] b\n"):
        doc = parse(text)
        assert doc.has_inline_notes() == _looked_for(doc) == ("[[" in text and "tool" not in text), text


@given(st.text(alphabet="[]AB \n.ab:", max_size=60))
@settings(max_examples=300, deadline=None)
def test_has_inline_notes_matches_the_children_on_random_text(text):
    doc = parse(text)
    assert doc.has_inline_notes() == _looked_for(doc)

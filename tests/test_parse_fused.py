"""parse() makes the body's nodes as the lexer finds its elements (lexer.lex_nodes, for texts with
no ``*/``): the same nodes as the general way, lex() then _build, on the random texts of
test_lexer_same (their ``*/`` pieces broken, so that most take the fused way) and the bench's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fountain_audit.parse.fountain import Lines, _build, parse
from fountain_audit.parse.lexer import lex
from tests.conftest import shared_path
from tests.test_lexer_same import random_texts


def shape(nodes) -> list:
    """Each node's class, span, token layout and inline notes (a title page's entries too)."""
    return [(type(c).__name__, c.offset, c.end_offset, c._p,
             [(type(x).__name__, x.offset, x.end_offset, x._p) for x in c.inline_notes],
             [(type(e).__name__, e.offset, e.end_offset, e._p) for e in getattr(c, "entries", ())])
            for c in nodes]


def general(text: str):
    """The nodes, inline flag and problems of lex() then _build() (the way for texts with ``*/``)."""
    problems: list = []
    tokens, starts = lex(text, problems)
    nodes, inline = _build(Lines(text, starts), tokens)
    return shape(nodes), inline, problems


@pytest.mark.parametrize("seed", [1, 2])
def test_fused_parse_makes_the_general_nodes(seed):
    for text in random_texts(seed, 5_000):
        text = text.replace("*/", "*|")
        doc = parse(text)
        assert (shape(doc.children), doc.has_inline_notes(), doc.problems) == general(text), text
        assert doc.render() == text


@pytest.mark.parametrize("which", ["note-heavy session", "screenplay"])
def test_fused_parse_of_the_bench_texts(which):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    bench = pytest.importorskip("bench")
    # (the screenplay is ../shared's: skipped when the reference data is absent)
    if which == "screenplay":
        texts = [shared_path("corpus", "fountain", bench.CHARADE.name).read_text(encoding="utf-8")]
    else:
        texts = [bench.generate_session(60_000)]
    for text in texts:
        doc = parse(text)
        assert (shape(doc.children), doc.has_inline_notes(), doc.problems) == general(text)

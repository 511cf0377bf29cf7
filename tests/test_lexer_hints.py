"""Cheap pre-checks in the lexer give exactly what the regular expressions they stand for give."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

import random

from fountain_audit.parse.lexer import GLUED_HEADING_RE, _GLUE_HINT_RE, _glue_possible, glued_heading_start

PIECES = ["INT. ", "EXT. ", "INT.", "EXT", "I", "T", ".", " ", "\n", "\t", "x", "A", "Z", "\u2003", "\x1c", "é", "—"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_glue_hint_is_the_regex(text):
    assert _glue_possible(text) == (_GLUE_HINT_RE.search(text) is not None)


def test_glue_hint_examples():
    assert _glue_possible("done.INT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00")
    assert not _glue_possible("INT. HOUSE\n\nINT. GARDEN\nEXT. A")  # at line starts: no glue
    assert not _glue_possible("THE INT. X")  # after a space
    assert not _glue_possible("TINT. X")  # after an upper-case letter


GLUE_PIECES = PIECES + ["2026-06-24 10:05", "2026-06-24 10:05:00", ":00", "2026-06-24", " 10:05", " — ", "\r", "9",
                        "xINT. H ", ".EXT. ", "  ", "\t\n"]


def _regex_start(line: str) -> int:
    m = GLUED_HEADING_RE.search(line)
    return m.start() if m else -1


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(GLUE_PIECES), max_size=12).map("".join))
def test_glued_heading_start_is_the_regex(line):
    """The linear finder of a glued heading matches where GLUED_HEADING_RE (its specification)
    matches (that expression took 21 s on 'aINT. ' * 20000: adversarial trial)."""
    assert glued_heading_start(line) == _regex_start(line)


def test_glued_heading_start_on_many_random_lines():
    rng = random.Random(9)
    for _ in range(100_000):
        line = "".join(rng.choice(GLUE_PIECES) for _ in range(rng.randrange(1, 10)))
        assert glued_heading_start(line) == _regex_start(line), repr(line)


def test_glued_heading_start_examples():
    assert glued_heading_start("done.INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00") == 5
    assert glued_heading_start("done.INT. HARVEY — 2026-06-24 10:05") == 5
    assert glued_heading_start("done.INT. 2026-06-24 10:05") == -1  # the heading's blank is not the separator's
    assert glued_heading_start("a.INT. X\rY 2026-06-24 10:05") == -1  # a line break between
    assert glued_heading_start("THE INT. X 2026-06-24 10:05") == -1  # after a blank: no glue

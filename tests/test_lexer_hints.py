"""Cheap pre-checks in the lexer give exactly what the regular expressions they stand for give."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from fountain_audit.parse.lexer import _GLUE_HINT_RE, _glue_possible

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

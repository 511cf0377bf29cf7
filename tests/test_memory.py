"""Memory: what the linter and the dump hold while they run (issue 9). The figures are
measured with ``tracemalloc`` on generated sessions and checked with wide margins; the
equivalences (a chunked scan finds what a whole-text scan finds) are exact."""

from __future__ import annotations

import pytest

from fountain_audit import lint
from fountain_audit.lint.rules import invalid_utf8


@pytest.mark.parametrize("at", [0, 5, 6, 7, 8, 13, 14, 20])
def test_invalid_utf8_found_in_any_chunk(monkeypatch, at):
    # A lone surrogate (an undecodable byte) before, on and after the chunk boundaries.
    text = "é" * 21
    text = text[:at] + "\udce9" + text[at + 1:]
    whole = [(d.line, d.column, d.message) for d in lint(text, select=["E101"])]
    assert whole == [(1, at + 1, f"1 byte(s) not valid UTF-8 at byte offset {2 * at}")]
    monkeypatch.setattr(invalid_utf8, "_CHUNK", 7)
    assert [(d.line, d.column, d.message) for d in lint(text, select=["E101"])] == whole
    assert invalid_utf8._encodable("é" * 20) and invalid_utf8._encodable("ascii only")
    assert not invalid_utf8._encodable(text)

"""fountain_audit.memos: the process-wide tables of answers read from session text, emptied by
forget() (a benchmark's runs over the same text each pay for their first reading: issue 9)."""

from __future__ import annotations

from fountain_audit import memos
from fountain_audit.lint.linter import lint_text
from fountain_audit.model import session as sm
from fountain_audit.parse import notes as nm
from fountain_audit.privacy import detect
from tests.conftest import SAMPLES


def _filled() -> dict[str, int]:
    return {"timestamps": len(sm._VALID_TIMESTAMPS), "places": len(sm._PLACES), "workspaces": len(sm._WORKSPACES),
            "calls": len(nm._CALLS), "statuses": len(nm._STATUSES), "rag": len(nm._CONTEXT_FIELDS["rag"]),
            "notes": nm._parse_cached.cache_info().currsize, "real dates": sm._real_date.cache_info().currsize,
            "secrets": int(detect._LAST_FOUND is not None)}


def test_forget_empties_every_table_a_lint_filled_and_the_next_lint_says_the_same():
    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    memos.forget()  # (what earlier tests left in the tables)
    first = lint_text(text, "s.spmd")
    filled = _filled()
    # (the sample has headings, a workspace, tool calls, RAG, a secrets' scan; its notes are all read
    # without the parser, whose cache is filled by hand)
    assert all(v for k, v in filled.items() if k != "notes"), filled
    nm._parse_cached("2 chunks from s.db, top score 0.80", "rag")
    assert _filled()["notes"] == 1
    memos.forget()
    assert not any(_filled().values()), _filled()
    assert lint_text(text, "s.spmd") == first

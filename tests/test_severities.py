"""Severities (issue 14, item 16) and legacy stats notes (item 17).

error = the audit trail is wrong or lost; info = a form the recorder wrote and tolerates;
a well-formed note with an out-of-range value is a warning that keeps its typed fields.
"""

from __future__ import annotations

import inspect
import re

import pytest

from fountain_audit.dump import dump_text
from fountain_audit.lint.linter import lint_text
from fountain_audit.lint.rules import all_rules
from fountain_audit.parse.fountain import parse
from fountain_audit.parse.notes import go_duration_seconds, parse_note

from .conftest import SAMPLES

RULES = all_rules()
HEAD = ("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: ALICE\nDate: 2026-06-24 10:00:00\n"
        "Draft date: 2026-06-24\n\n\nFADE IN:\n\n\n")


def chat(notes: str) -> str:
    return (HEAD + "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
            "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /w.\n\n" + notes +
            "\n\nALICE\nWhat does the design say?\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nOne line.\n\nTHE END.\n")


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_rule_gives_the_reason_for_its_severity(rule):
    doc = inspect.cleandoc(rule.doc)
    m = re.search(r"^## Severity\n(\w+)(?: \(was (\w+)\))?: \S", doc, re.M)
    assert m, f"{rule.code} has no '## Severity' section starting with its severity"
    assert m.group(1).lower() == str(rule.severity)
    assert m.group(2) != str(rule.severity)


def test_severity_changes():
    got = {r.code: str(r.severity) for r in RULES}
    assert {c: got[c] for c in ("S101", "S103", "H102", "H105", "T101", "N103", "L101", "L102", "N109")} == {
        "S101": "warning", "S103": "warning", "H102": "info", "H105": "error", "T101": "error",
        "N103": "warning", "L101": "info", "L102": "info", "N109": "info"}


@pytest.mark.parametrize("name, code, severity", [
    ("H102-loose-scene-timestamp.spmd", "H102", "info"),
    ("N109-empty-rag-source.spmd", "N109", "info"),
    ("N103-score-out-of-range.spmd", "N103", "warning"),
    ("T101-forwarding-target-mismatch.spmd", "T101", "error"),
    ("L102-legacy-stats-note.spmd", "L102", "info"),
])
def test_samples_report_the_new_severity(name, code, severity):
    text = (SAMPLES / "violations" / name).read_text(encoding="utf-8")
    assert [(d.code, str(d.severity)) for d in lint_text(text)] == [(code, severity)]


def test_negative_chunk_count_is_a_warning_with_typed_fields():
    text = chat("[[rag: -2 chunks from store.db, top score 1.7]]")
    assert [(d.code, d.line, d.column, str(d.severity)) for d in lint_text(text)] == [
        ("N103", 15, 8, "warning"), ("N103", 15, 43, "warning")]
    [rec] = [r.to_json() for r in dump_text(text, "t.spmd", "dump", frozenset({"rag"}))]
    assert (rec["valid"], rec["problem"], rec["fields"]) == (True, None,
                                                             {"chunks": -2, "store": "store.db", "top_score": 1.7})


def test_chunk_note_with_negative_count_keeps_it():
    text = ("INT. CHUNK ANALYSIS — NOTES.MD 2026-06-24 10:02:30\n\nHarvey processes notes.md as 2 chunks of type "
            "prose.\n\n[[chunk: file=notes.md, chunks=-3, model=llama3.2:1b, boundary=paragraph, chunk-size=6000]]\n")
    note = parse(text).children[4]
    rec = parse_note(note)
    assert (rec.valid, rec.fields["chunks"], rec.fields["chunk_size"]) == (True, -3, 6000)
    assert [(d.code, d.line, d.column, d.end_column) for d in lint_text(text) if d.code == "N103"] == [
        ("N103", 5, 32, 34)]


# --------------------------------------------------------------------------- 17: legacy stats

@pytest.mark.parametrize("body, fields", [
    ("stats: 26 prompt + 42 reply tokens · 8.3s · 5.1 tok/s",
     {"models": None, "prompt_tokens": 26, "reply_tokens": 42, "tokens": None, "duration": "8.3s", "seconds": 8.3,
      "tokens_per_second": 5.1}),
    ("stats: LLAMA3.1 · 10 tokens · 0.5s · 20.0 tok/s",
     {"models": "LLAMA3.1", "prompt_tokens": None, "reply_tokens": None, "tokens": 10, "duration": "0.5s",
      "seconds": 0.5, "tokens_per_second": 20.0}),
    ("stats: 3 prompt + 1 reply tokens · 1m2.5s · 0.1 tok/s",
     {"models": None, "prompt_tokens": 3, "reply_tokens": 1, "tokens": None, "duration": "1m2.5s", "seconds": 62.5,
      "tokens_per_second": 0.1}),
])
def test_legacy_stats_note_fields(body, fields):
    rec = parse_note(parse(f"[[{body}]]\n").children[0])
    assert (rec.kind, rec.valid, rec.fields) == ("stats", True, fields)


def test_legacy_stats_note_in_dump():
    text = (SAMPLES / "violations" / "L102-legacy-stats-note.spmd").read_text(encoding="utf-8")
    [rec] = [r.to_json() for r in dump_text(text, "t.spmd", "dump", frozenset({"stats"}))]
    assert rec["fields"] == {"models": None, "prompt_tokens": 1022, "reply_tokens": 19, "tokens": None,
                             "duration": "1.65s", "seconds": 1.65, "tokens_per_second": 11.5}


def test_stats_note_of_another_shape_is_malformed_not_dropped():
    rec = parse_note(parse("[[stats: fast]]\n").children[0])
    assert (rec.kind, rec.valid, rec.fields, rec.error) == (
        "stats", False, {}, "malformed [[stats:]] note: expected 'P prompt + R reply tokens · DURATION · T tok/s'")


def test_go_durations():
    assert [go_duration_seconds(d) for d in ("850ms", "18.412s", "1m2.5s", "2h0m0s", "0s", "3us")] == \
        [0.85, 18.412, 62.5, 7200.0, 0.0, 3e-06]

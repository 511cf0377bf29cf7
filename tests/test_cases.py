"""The edge cases in ../shared/cases (CASES.md) and the recorder-shaped corpus files."""

from __future__ import annotations

import pytest

from fountain_audit import Severity, lint, read_session

from .conftest import shared_path


def codes(path):
    return [(d.code, d.line) for d in lint(path)]


def test_a03_tool_note_before_forwarding_line():
    assert codes(shared_path("cases", "A03.spmd")) == [("P102", 17)]
    s = read_session(shared_path("cases", "A03.spmd"))
    (turn,) = s.turns
    assert turn.user.text == "What is in a.go?"
    assert [(t.fields["name"], t.fields["status"]) for t in turn.tool_calls] == [("read_file", "ok")]
    assert turn.target == "LLAMA" and turn.reply.text == "It declares package main."


def test_a04_rag_note_after_user_dialogue():
    assert codes(shared_path("cases", "A04.spmd")) == [("P101", 17)]
    (rag,) = read_session(shared_path("cases", "A04.spmd")).turns[0].context
    assert rag.kind == "rag"
    assert rag.fields == {"chunks": 3, "store": "store.db", "top_score": 0.87}


def test_a05_recall_scene_after_first_turn():
    assert codes(shared_path("cases", "A05.spmd")) == [("P103", 24)]
    s = read_session(shared_path("cases", "A05.spmd"))
    assert [sc.kind for sc in s.scenes] == ["chat", "context-recall", "chat"]
    assert len(s.turns) == 2
    assert [(n.fields["id"], n.fields["source"], n.fields["score"]) for n in s.notes] == [
        ("note-42", "memory.db", 1.0), ("note-7", "memory.db", 0.61)]


def test_a06_two_exchanges_in_one_scene_are_two_turns():
    s = read_session(shared_path("cases", "A06.spmd"))
    assert len(s.scenes) == 1
    assert [(t.user.text, t.target, t.reply.text) for t in s.turns] == [
        ("First question?", "LLAMA", "First answer."), ("Second question?", "LLAMA", "Second answer.")]
    assert codes(shared_path("cases", "A06.spmd")) == [("T103", 23)]  # info: Harvey's replay lost these


def test_a01_em_dash_inside_tool_arguments():
    (tool,) = read_session(shared_path("cases", "A01.spmd")).tool_calls
    assert tool.fields["name"] == "write_file"
    assert tool.fields["arguments"] == {"path": "log.md", "text": "done — ok"}
    assert tool.fields["status"] == "ok"


def test_a08_ext_scene_model_from_forwarding_line():
    s = read_session(shared_path("cases", "A08.spmd"))
    (turn,) = s.turns
    assert s.scenes[0].kind == "ext-chat" and turn.target == "NOVA" and turn.reply.character == "NOVA"


def test_a09_crashed_session():
    s = read_session(shared_path("cases", "A09.spmd"))
    assert [t.complete for t in s.turns] == [True, False]
    assert s.turns[1].user.text == "Now deploy it." and s.turns[1].target == "LLAMA"
    assert [(d.code, d.line, d.severity) for d in lint(shared_path("cases", "A09.spmd"))] == [
        ("S108", 32, Severity.INFO)]  # a crashed session: info, as CASES.md says


def test_b26_raw_newline_in_tool_json_keeps_note_whole():
    s = read_session(shared_path("cases", "B26.spmd"))
    (tool,) = s.turns[0].tool_calls
    assert tool.node.line == 17 and tool.node.end_line == 18
    assert tool.fields["name"] == "edit_file" and tool.fields["status"] == "ok"
    assert tool.fields["arguments"] == {"path": "a.go", "old": "line one\nline two", "new": "x"}
    assert ("N102", 17) in codes(shared_path("cases", "B26.spmd"))


def test_b27_closing_brackets_inside_json():
    (tool,) = read_session(shared_path("cases", "B27.spmd")).tool_calls
    assert tool.fields["arguments"] == {"path": "n.md", "text": "see [[wiki]] and ]] end"}


def test_b28_torn_last_record():
    s = read_session(shared_path("cases", "B28.spmd"))
    assert len(s.turns) == 2
    assert s.turns[1].reply.text == "Running go test ./... — two packages pa"
    assert s.turns[1].reply.truncated and not s.turns[0].reply.truncated
    assert [(d.code, d.severity) for d in lint(shared_path("cases", "B28.spmd"))] == [("S108", Severity.INFO)]


def test_b31_crlf_same_as_lf():
    s = read_session(shared_path("cases", "B31.spmd"))
    (turn,) = s.turns
    assert turn.target == "LLAMA" and turn.reply.character == "LLAMA" and turn.reply.text == "Hi."
    assert s.scenes[0].timestamp == "2026-06-24 10:02:30"
    assert turn.tool_calls[0].fields["status"] == "ok"


def test_b32_second_paragraph_stays_with_the_speaker():
    (turn,) = read_session(shared_path("cases", "B32.spmd")).turns
    assert turn.reply.character == "LLAMA"
    assert turn.reply.text == "First paragraph of the answer.\n\nSecond paragraph after a blank line."


def test_b34_markup_inside_dialogue():
    s = read_session(shared_path("cases", "B34.spmd"))
    assert len(s.scenes) == 1 and len(s.turns) == 1
    assert s.turns[0].reply.text == "Here it is:\nINT. HOUSE - DAY\n[[draft]] Ana waits.\nTHE END."
    assert s.the_end.line == 29


def test_b20_empty_file():
    """Zero bytes in, an empty document out; one info-level finding (the case allows one)."""
    assert read_session(shared_path("cases", "B20.fountain")).scenes == []
    assert [(d.code, str(d.severity), d.line, d.column, d.message) for d in lint(b"")] == [
        ("E105", "info", 1, 1, "file is empty (0 bytes): no session recorded")]


def test_b03_unclosed_note_is_reported_and_kept_as_action():
    path = shared_path("cases", "B03.fountain")
    assert codes(path) == [("F101", 1)]


def test_composite_reply_keeps_everything_the_model_wrote():
    s = read_session(shared_path("corpus", "harvey", "reconstructed", "head-composite-call-order.spmd"))
    reply = s.turns[0].reply
    assert reply.text == ("Interface changes are listed below.\n\n- item one\n  - nested item\n\n"
                          "INT. this line starts with INT\n\nTHE END. is just text here")
    assert [sc.kind for sc in s.scenes] == [
        "context-recall", "chat", "chunk-analysis", "chat", "shell", "chat", "ext-chat", "agent-mode", "skill",
        "pipeline", "pipeline", "chat"]
    assert [n.kind for n in s.notes].count("tool") == 4
    assert s.turns[0].tool_calls[1].fields["error"] == "exit status 1"
    assert s.turns[2].tool_calls[0].actor == "MISTRAL"


def test_recorder_shaped_files_have_no_errors():
    files = sorted(shared_path("corpus", "harvey", "reconstructed").glob("head-*.spmd"))
    assert len(files) >= 10
    for f in files:
        errors = [d for d in lint(f) if d.severity is Severity.ERROR]
        assert errors == [], f


@pytest.mark.parametrize("name,turns", [
    ("spec/ff-v1.3-example2-multimodel.fountain", 2),
    ("tests/replay_test-TwoExchangesInOneScene.spmd", 2),
    ("real/harvey-session-20260417-handoff.fountain", 6),
])
def test_turns_recovered(name, turns):
    s = read_session(shared_path("corpus", "harvey", *name.split("/")))
    assert len(s.turns) == turns
    assert all(t.user is not None and t.reply is not None for t in s.turns)


def test_a08_ext_without_routing_is_a_warning():
    assert [(d.code, d.line, d.severity) for d in lint(shared_path("cases", "A08.spmd"))] == [
        ("H104", 10, Severity.WARNING)]


def test_prose_tool_calls_do_not_swallow_the_reply():
    s = read_session(shared_path("corpus", "harvey", "reconstructed", "epoch-88504ea-prose-tool-calls.spmd"))
    turn = s.turns[0]
    assert (turn.target, turn.reply.character, turn.reply.text) == ("LLAMA3", "LLAMA3", "There is an error.")
    assert [a.text for a in turn.prose_tool_calls] == ['Harvey calls read_file: {"path":"harvey.go"}',
                                                       "Harvey calls list_files"]

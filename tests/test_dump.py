"""`fountain-audit dump` / `schema` and the fountain_audit.dump API: exact records, turns, AST,
filters, redaction, JSON Schemas, jsonl streaming."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time

import jsonschema
import pytest
from click.testing import CliRunner

from fountain_audit import schemas
from fountain_audit.cli import main
from fountain_audit.dump import (FORMAT_VERSION, Filters, NoteRecordOut, Redactor, ToolCallRecord, TurnRecord,
                                 dump_text, iso_timestamp, record_kinds)
from fountain_audit.parse.fountain import parse
from fountain_audit.model.session import build_session
from fountain_audit.parse.source import read_path

from .conftest import ROOT, SAMPLES, SHARED, or_skipped, shared_files, shared_path

COMPOSITE = ("corpus", "harvey", "reconstructed", "head-composite-call-order.spmd")


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def dump_json(*args, input=None) -> dict:
    r = run("dump", *args, input=input)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def tools_of(path) -> list[tuple]:
    return [(r["actor"], r["name"], r["arguments"], r["arguments_json"], r["status"], r["error"])
            for r in dump_json(str(path))["records"]]


def validator(shape: str, record: bool = False) -> jsonschema.Draft202012Validator:
    schema = schemas.load(shape)
    if record:  # a jsonl line: one item of "records"
        schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/record"}
    return jsonschema.Draft202012Validator(schema)


SESSION = """Title: Harvey Session
Credit: Recorded by Harvey
Author: ALICE
Date: 2026-06-24 10:00:00

FADE IN:

[[model switch: phi-mini (llamafile) at 2026-06-24 10:00:01]]


INT. CONTEXT RECALL 2026-06-24 10:00:05

[[recall: profile_1 (workspace_profile) — score 1.00]]


INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /home/user/project.

[[rag: 2 chunks from /home/user/project/rag.db, top score 0.80]]

ALICE
Fix /home/user/project/src/a.go please.

HARVEY
Forwarding to LLAMA.

[[tool: read_file({"path":"/home/user/project/src/a.go"}) — ok]]

[[LLAMA.tool: run_shell({"cmd":"cd /home/user/project && go test"}) — error: exit status 1]]

LLAMA
Done. /home/user/project/src/a.go compiles; /home/user/project2 is untouched.


INT. HARVEY AND ALICE TALKING — 2026-06-24 10:05

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /home/user/project.

ALICE
Second?

HARVEY
Forwarding to LLAMA.

LLAMA
Yes.


THE END.
"""


# --------------------------------------------------------------------------- tool calls


def test_a01_em_dash_inside_arguments():
    path = shared_path("cases", "A01.spmd")
    (rec,) = dump_json(str(path))["records"]
    assert rec == {
        "record": "tool_call", "id": "t1.tool1", "file": str(path),
        "scene": {"id": "s1", "index": 0, "kind": "chat", "heading": "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30",
                  "line": 10, "timestamp": "2026-06-24T10:02:30", "timestamp_form": "exact"},
        "turn": 0, "phase": "after-user",
        "span": {"line": 17, "column": 1, "end_line": 17, "end_column": 64, "offset": 268, "end_offset": 332},
        "actor": "HARVEY", "actor_ref": "tool:harvey", "name": "write_file", "arguments": {"path": "log.md", "text": "done — ok"},
        "arguments_json": True, "arguments_strict_json": True,
        "arguments_text": '{"path":"log.md","text":"done — ok"}', "status": "ok", "error": None, "form": "note",
        "valid": True, "problem": None, "body": 'tool: write_file({"path":"log.md","text":"done — ok"}) — ok'}


def test_b27_closing_brackets_and_b26_newline_in_arguments():
    assert tools_of(shared_path("cases", "B27.spmd")) == [
        ("HARVEY", "write_file", {"path": "n.md", "text": "see [[wiki]] and ]] end"}, True, "ok", None)]
    (rec,) = dump_json(str(shared_path("cases", "B26.spmd")))["records"]
    assert (rec["name"], rec["arguments"], rec["arguments_json"], rec["arguments_strict_json"], rec["status"]) == (
        "edit_file", {"path": "a.go", "old": "line one\nline two", "new": "x"}, True, False, "ok")
    assert rec["arguments_text"] == '{"path":"a.go","old":"line one\nline two","new":"x"}'
    assert (rec["span"]["line"], rec["span"]["end_line"]) == (17, 18)


def test_every_tool_call_of_the_cases():
    got = [(r["file"].rsplit("/", 1)[1], r["span"]["line"], r["name"], r["arguments"], r["status"])
           for r in dump_json(str(shared_path("cases")))["records"]]
    assert got == [
        ("A01.spmd", 17, "write_file", {"path": "log.md", "text": "done — ok"}, "ok"),
        ("A03.spmd", 17, "read_file", {"path": "a.go"}, "ok"),
        ("B26.spmd", 17, "edit_file", {"path": "a.go", "old": "line one\nline two", "new": "x"}, "ok"),
        ("B27.spmd", 17, "write_file", {"path": "n.md", "text": "see [[wiki]] and ]] end"}, "ok"),
        ("B31.spmd", 17, "read_file", {"path": "a.go"}, "ok"),
    ]


def test_tool_calls_of_the_samples():
    assert tools_of(SAMPLES / "clean-session.spmd") == [
        ("HARVEY", "search_notes", {"query": "retro — action items", "limit": 5}, True, "ok", None),
        ("HARVEY", "run_shell", {"cmd": "make test"}, True, "error", "exit status 2"),
        ("HARVEY", "write_file", {"path": "wiki/retro.md", "content": "Linked from [[Retro Index]]."}, True, "ok", None),
        ("HARVEY", "add_memory", {"type": "preference", "content": "Release notes go in docs/CHANGES.md"}, True, "ok",
         None),
        ("HARVEY", "read_file", {"path": "harbour-log.md"}, True, "ok", None),
        ("DEVSTRAL", "read_file", {"path": "tides/predict.py"}, True, "ok", None),
        ("DEVSTRAL", "list_files", "", False, "ok", None),  # `list_files()`: no JSON, the raw (empty) text
    ]
    v = SAMPLES / "violations"
    assert tools_of(v / "N102-tool-arguments-not-json.spmd") == [
        ("HARVEY", "edit_file", '{path: "src/garden.py", "old":"water","new":"irrigate"}', False, "ok", None)]
    assert tools_of(v / "N105-tool-actor-not-participant.spmd") == [
        ("PHI4", "read_file", {"path": "scripts/weigh.py"}, True, "ok", None)]
    # a pre-v1.2 prose call records no status: null, not an invented "ok"
    (prose,) = dump_json(str(v / "L101-legacy-prose-tool-call.spmd"))["records"]
    assert (prose["form"], prose["name"], prose["arguments"], prose["status"]) == (
        "prose", "read_file", {"path": "logs/west-scale.csv"}, None)


def test_prose_tool_calls_without_arguments():
    path = shared_path(*COMPOSITE[:3], "epoch-88504ea-prose-tool-calls.spmd")
    recs = dump_json(str(path))["records"]
    assert [(r["form"], r["name"], r["arguments"], r["arguments_text"], r["arguments_json"], r["phase"], r["turn"])
            for r in recs] == [
        ("prose", "read_file", {"path": "harvey.go"}, '{"path":"harvey.go"}', True, "after-forwarding", 0),
        ("prose", "list_files", None, None, False, "after-forwarding", 0)]


# --------------------------------------------------------------------------- other records


def test_records_kinds_and_all():
    path = str(shared_path(*COMPOSITE))
    recs = dump_json("--records", "rag,rag-source,recall", path)["records"]
    assert [(r["kind"], r["fields"]) for r in recs] == [
        ("recall", {"id": "workspace_profile_250928", "source": "workspace_profile", "score": 1.0}),
        ("rag", {"chunks": 3, "store": "rag_store.db", "top_score": 0.87}),
        ("rag-source", {"source": "design.md", "title": None, "doi": None, "url": None}),
        ("rag-source", {"source": "", "title": None, "doi": None, "url": None})]
    assert recs[1]["turn"] == 0 and recs[1]["phase"] == "before-user" and recs[0]["turn"] is None
    ms = dump_json("--records", "model-switch", path)["records"]
    assert [(r["kind"], r["fields"]["model"], r["fields"]["at"], r["scene"]) for r in ms][0] == (
        "model switch", "phi-mini", "2026-07-01 09:00:01", None)
    kinds = [r.get("kind", "tool") for r in dump_json("--records", "all", path)["records"]]
    assert {"tool", "recall", "rag", "rag-source", "chunk", "chunk-result", "synthesis", "write", "shell",
            "model switch", "add_memory", "confidence", "pipeline-hidden", "pipeline-stop"} <= set(kinds)
    mem = dump_json("--records", "memory-tool", path)["records"]
    assert [(r["kind"], r["fields"]) for r in mem] == [
        ("add_memory", {"target": "tool_use_1a2b3c — tool_use", "status": "ok"})]
    assert record_kinds(["model switch"]) == record_kinds(["model-switch"]) == frozenset({"model switch"})
    r = run("dump", "--records", "nope", path)
    assert r.exit_code == 2 and "unknown record kind 'nope'" in r.output


def test_unknown_notes_and_invalid_notes_are_kept():
    text = SESSION.replace('[[tool: read_file({"path":"/home/user/project/src/a.go"}) — ok]]',
                           "[[tool: read_file — maybe]]\n\n[[todo: ask again]]")
    recs = list(dump_text(text, "s.spmd", kinds=record_kinds(["tool", "unknown"])))
    bad, unknown = recs[0], recs[1]
    assert isinstance(bad, ToolCallRecord) and not bad.valid and bad.name is None and bad.status is None
    assert bad.problem.startswith("malformed [[tool:]] note")
    assert isinstance(unknown, NoteRecordOut) and (unknown.kind, unknown.body) == ("unknown", "todo: ask again")


# --------------------------------------------------------------------------- turns


def turns_of(path) -> list[dict]:
    return dump_json("--turns", str(path))["records"]


def test_a06_two_exchanges_in_one_scene():
    turns = turns_of(shared_path("cases", "A06.spmd"))
    assert [(t["index"], t["scene"]["index"], t["user"]["text"], t["target"], t["reply"]["character"],
             t["reply"]["text"], t["complete"]) for t in turns] == [
        (0, 0, "First question?", "LLAMA", "LLAMA", "First answer.", True),
        (1, 0, "Second question?", "LLAMA", "LLAMA", "Second answer.", True)]
    assert turns[0]["scene"]["timestamp"] == "2026-06-24T10:02:30" and turns[0]["model"] == "LLAMA"


def test_composite_turn_reply_with_blank_lines_and_context():
    turns = turns_of(shared_path(*COMPOSITE))
    t = turns[0]
    assert t["user"]["text"] == "Summarise the design doc."
    assert t["reply"]["text"] == ("Interface changes are listed below.\n\n- item one\n  - nested item\n\n"
                                  "INT. this line starts with INT\n\nTHE END. is just text here")
    assert [(c["name"], c["status"], c["error"]) for c in t["tool_calls"]] == [
        ("read_file", "ok", None), ("run_shell", "error", "exit status 1")]
    assert [(n["kind"], n["fields"].get("source")) for n in t["rag"]] == [
        ("rag", None), ("rag-source", "design.md"), ("rag-source", "")]
    assert [(n["fields"]["id"], n["scene"]["kind"]) for n in t["recall"]] == [
        ("workspace_profile_250928", "context-recall")]
    assert t["model_switch"]["fields"] == {"model": "phi-mini", "backend": "llamafile", "at": "2026-07-01 09:00:01"}
    assert t["stats"] == "llamafile (phi-mini) · 312 reply + 1840 ctx · 18.412s · 16.9 tok/s"
    assert [(a["character"], a["text"]) for a in t["actions"]] == [
        ("HARVEY", "Add_memory tool_use_1a2b3c — tool_use"), ("RSDOIEL", "auto")]
    assert [n["kind"] for n in t["other_notes"]] == ["add_memory"]
    # the later model switch is in force for the MISTRAL turn
    mistral = next(x for x in turns if x["target"] == "MISTRAL")
    assert mistral["model_switch"]["fields"]["model"] == "mistral:7b"
    assert [(c["actor"], c["name"]) for c in mistral["tool_calls"]] == [("MISTRAL", "read_file")]


def test_mention_multiline_and_loose_timestamps():
    ex2 = turns_of(shared_path("corpus", "harvey", "spec", "ff-v1.3-example2-multimodel.fountain"))
    assert [(t["user"]["text"], t["target"], t["reply"]["text"]) for t in ex2] == [
        ("@mistral review this function", "MISTRAL", "The function has a potential off-by-one error at line 23."),
        ("@claude can you confirm?", "CLAUDE", "Confirmed. The loop should use `<=` not `<`.")]
    b34 = turns_of(shared_path("cases", "B34.spmd"))
    assert [(t["user"]["text"], t["reply"]["text"]) for t in b34] == [
        ("Write a scene for me. Start with:\nINT. HOUSE - DAY\nand finish with THE END.",
         "Here it is:\nINT. HOUSE - DAY\n[[draft]] Ana waits.\nTHE END.")]
    two = turns_of(shared_path("corpus", "harvey", "tests", "replay_test-TwoExchangesInOneScene.spmd"))
    assert [(t["scene"]["timestamp"], t["scene"]["timestamp_form"], t["user"]["text"]) for t in two] == [
        ("2026-07-03T19:15", "loose", "Let's do phase 2."),
        ("2026-07-03T19:15", "loose", "I am going to hit token limits. We'll continue phase 2 later.")]
    real = turns_of(shared_path("corpus", "harvey", "real", "harvey-session-20260417-handoff.fountain"))
    assert len(real) == 6 and real[0]["user"]["parentheticals"] == ["(session resumed from context summary)"]
    assert real[0]["user"]["text"].count("\n") == 2 and all(t["complete"] for t in real)


def test_truncated_and_unanswered_turns():
    b28 = turns_of(shared_path("cases", "B28.spmd"))
    assert [(t["complete"], t["reply"]["truncated"]) for t in b28] == [(True, False), (False, True)]
    a09 = turns_of(shared_path("cases", "A09.spmd"))
    assert (a09[1]["user"]["text"], a09[1]["reply"], a09[1]["complete"]) == ("Now deploy it.", None, False)


def _user_dialogue_lines(path) -> set[int]:
    """Independent of the turn builder: lines of every dialogue cue of the user in a chat scene."""
    session = build_session(parse(read_path(path)))
    users = {(session.author or "").upper()}
    out = set()
    for scene in session.scenes:
        if scene.kind in ("chat", "ext-chat", "pipeline"):
            who = users | ({scene.user.upper()} if scene.user else set())
            out |= {sp.line for sp in scene.speeches if sp.character.upper() in who - {""}}
    return out


@pytest.mark.parametrize("path", or_skipped([p for p in shared_files() if p.parent.name in ("real", "spec")]),
                         ids=lambda p: p.name if p else "no-shared")
def test_turns_recover_every_user_input_of_real_and_spec_files(path):
    turns = turns_of(path)
    seen = {t["user"]["span"]["line"] for t in turns if t["user"]} | \
        {a["span"]["line"] for t in turns for a in t["actions"]}
    assert _user_dialogue_lines(path) <= seen
    for t in turns:  # nothing of a reply is cut: the text is the source slice after the cue
        if t["reply"] and not t["reply"]["parentheticals"]:
            src = read_path(path).replace("\r\n", "\n")
            assert t["reply"]["text"] in src


# --------------------------------------------------------------------------- AST


def test_ast_records_cover_the_file():
    path = shared_path("cases", "A01.spmd")
    text = read_path(path)
    recs = dump_json("--ast", str(path))["records"]
    doc, nodes = recs[0], recs[1:]
    assert doc["record"] == "document" and doc["node_count"] == len(nodes) and doc["problems"] == []
    assert "".join(n["text"] for n in nodes) == text
    assert [n["index"] for n in nodes] == list(range(len(nodes)))
    tp = nodes[0]
    assert tp["type"] == "title_page" and [(c["attributes"]["key"], c["attributes"]["value"])
                                           for c in tp["children"]][:2] == [("Title", "Harvey Session"),
                                                                            ("Credit", "Recorded by Harvey")]
    heading = next(n for n in nodes if n["type"] == "scene_heading")
    assert heading["span"] == {"line": 10, "column": 1, "end_line": 10, "end_column": 50, "offset": 124,
                               "end_offset": 174}
    assert heading["attributes"]["heading"] == "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30"
    note = next(n for n in nodes if n["type"] == "note")
    assert note["attributes"]["body"].startswith("tool: write_file(")
    dlg = next(n for n in nodes if n["type"] == "dialogue")
    assert [t["type"] for t in dlg["tokens"]] == ["CHARACTER", "DIALOGUE"]
    assert text[doc["span"]["offset"]:doc["span"]["end_offset"]] == text
    r = run("dump", "--ast", "--tool", "x", str(path))
    assert r.exit_code == 2 and "do not apply to --ast" in r.output


def test_tool_filters_with_records_that_hold_no_tool_call_are_a_usage_error():
    """``--records rag --tool x`` printed an empty document (the filter keeps tool calls only),
    where ``--ast --tool x`` is a usage error: it says so too."""
    f = str(SAMPLES / "clean-session.spmd")
    r = run("dump", "--records", "rag", "--records", "recall", "--tool", "read_file", f)
    assert (r.exit_code, r.output.splitlines()[-1]) == (
        2, "Error: --tool selects tool calls, and --records rag,recall selects none (add tool to --records)")
    r = run("dump", "--records", "rag", "--actor", "HARVEY", f)
    assert r.output.splitlines()[-1].startswith("Error: --actor selects tool calls, and --records rag selects none")
    r = run("dump", "--records", "rag,tool", "--tool", "read_file", "--format", "jsonl", f)
    assert r.exit_code == 0 and [json.loads(x)["id"] for x in r.output.splitlines()] == ["t3.tool1", "t4.tool1"]


def test_undecodable_bytes_are_u_fffd_with_their_offsets(tmp_path):
    f = tmp_path / "x.spmd"
    data = SESSION.replace("Second?", "cafX?").encode("utf-8").replace(b"cafX", b"caf\xe9")
    f.write_bytes(data)
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "dump", "--turns", str(f)], capture_output=True,
                       cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout.decode("utf-8"))  # valid UTF-8 output
    at = data.index(b"\xe9")
    assert doc["records"][0] == {"record": "undecodable_bytes", "file": str(f), "runs": [
        {"byte_offset": at, "length": 1, "hex": "e9", "offset": len(data[:at].decode()),
         "line": data[:at].count(b"\n") + 1, "column": len(data[:at].decode().rsplit("\n", 1)[-1]) + 1}]}
    assert doc["records"][2]["user"]["text"] == "caf\ufffd?"
    validator("turns").validate(doc)


# --------------------------------------------------------------------------- filters


def test_filters():
    path = str(shared_path(*COMPOSITE))
    names = lambda *a: [(r["name"], r["status"], r["actor"]) for r in dump_json(*a, path)["records"]]  # noqa: E731
    assert names("--status", "error") == [("run_shell", "error", "HARVEY")]
    assert names("--tool", "read_file") == [("read_file", "ok", "HARVEY")] * 2 + [("read_file", "ok", "MISTRAL")]
    assert names("--actor", "mistral") == [("read_file", "ok", "MISTRAL")]
    assert names("--actor", "agent:mistral") == [("read_file", "ok", "MISTRAL")]  # the actor_ref works too
    assert names("--actor", "tool:harvey", "--tool", "read_file") == [("read_file", "ok", "HARVEY")] * 2
    assert names("--scene-kind", "ext-chat") == []
    assert [r["kind"] for r in dump_json("--records", "all", "--scene-kind", "agent-mode", path)["records"]] == [
        "write", "write"]
    assert [r["fields"]["path"] for r in dump_json("--records", "write", "--status", "aborted", path)["records"]] \
        == ["src/b.go"]
    turns = dump_json("--turns", "--tool", "read_file", "--status", "ok", path)["records"]
    assert [t["index"] for t in turns] == [0, 1, 2]
    assert [t["index"] for t in dump_json("--turns", "--scene-kind", "pipeline", path)["records"]] == [4, 5]
    r = run("dump", "--scene-kind", "kitchen", path)
    assert r.exit_code == 2 and "Error: unknown scene kind 'kitchen' (choose from chat, ext-chat, " in r.output
    assert not Filters() and Filters(tools=frozenset({"x"}))


def test_an_unknown_status_warns_with_a_suggestion_and_still_filters():
    """--status is open-ended (a memory-tool note's status is free text), so an unknown value is
    not refused: it warns on stderr, suggests the closest known status, and exits 0."""
    clean = str(SAMPLES / "clean-session.spmd")
    known = "(ok, error, skipped, aborted, archived; a memory-tool or run note may hold another)"
    r = run("dump", "--status", "eror", clean)
    assert r.exit_code == 0 and json.loads(r.stdout)["records"] == []
    assert r.stderr == f"fountain-audit: warning: --status 'eror' is not a status the recorder writes {known}; " \
                       "did you mean 'error'?\n"
    r = run("dump", "--status", "OK,wibble,eror", clean)  # each unknown value once, in order
    assert r.exit_code == 0 and r.stderr.splitlines() == [
        f"fountain-audit: warning: --status 'OK' is not a status the recorder writes {known}; did you mean 'ok'?",
        f"fountain-audit: warning: --status 'wibble' is not a status the recorder writes {known}",
        f"fountain-audit: warning: --status 'eror' is not a status the recorder writes {known}; "
        "did you mean 'error'?"]
    for status in ("ok", "error", "skipped", "aborted", "archived"):
        assert run("dump", "--records", "all", "--status", status, clean).stderr == ""
    memory = "[[add_memory: preference_9e03b1 — preference — ok]]"
    text = (SAMPLES / "clean-session.spmd").read_text().replace(memory, memory.replace("— ok]]", "— pending]]"))
    r = run("dump", "--records", "memory-tool", "--status", "pending", "-", input=text)  # free text: still matched
    assert r.exit_code == 0 and [x["fields"]["status"] for x in json.loads(r.stdout)["records"]] == ["pending"]
    assert "'pending' is not a status the recorder writes" in r.stderr


@pytest.mark.parametrize("args, error", [
    (("--scene-kind", "chatt"), "unknown scene kind 'chatt'; did you mean 'chat'? (choose from chat, ext-chat, "),
    (("--scene-kind", "CHAT"), "unknown scene kind 'CHAT'; did you mean 'chat'? (choose from chat, "),
    (("--records", "rags"), "unknown record kind 'rags'; did you mean 'rag'? (choose from tool, rag, rag-source, "),
    (("--records", "tool_cal"), "unknown record kind 'tool_cal'; did you mean 'tool'? (choose from tool, "),
    (("--records", "nope"), "unknown record kind 'nope' (choose from tool, "),
])
def test_a_mistyped_scene_kind_or_record_kind_is_refused_with_a_suggestion(args, error):
    r = run("dump", *args, str(SAMPLES / "clean-session.spmd"))
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.splitlines()[-1].startswith("Error: " + error)


# --------------------------------------------------------------------------- redaction, errors, stdin


def test_redact_paths_removes_the_workspace_and_home_paths_everywhere():
    plain = run("dump", "--records", "all", "-", "--stdin-filename", "/home/user/project/s.spmd",
                input=SESSION.encode())
    assert "/home/user/project/src/a.go" in plain.output
    for args in (["--records", "all"], ["--turns"], ["--ast"], ["--format", "jsonl"]):
        r = run("dump", "--redact-paths", *args, "-", "--stdin-filename", "/home/user/project/s.spmd",
                input=SESSION.encode())
        assert r.exit_code == 0, r.output
        assert "/home/user" not in r.output, args
        assert "<workspace>" in r.output
    turn = dump_json("--turns", "--redact-paths", "-", input=SESSION.encode())["records"][0]
    assert turn["user"]["text"] == "Fix <workspace>/src/a.go please."
    assert turn["tool_calls"][1]["arguments"] == {"cmd": "cd <workspace> && go test"}
    # the workspace, and (since issue 15) any other path under the user's home
    assert turn["reply"]["text"] == "Done. <workspace>/src/a.go compiles; <home>/project2 is untouched."
    red = Redactor(["C:\\Users\\a\\ws"])
    assert red({"p": "C:\\Users\\a\\ws\\x", "raw": '{"p":"C:\\\\Users\\\\a\\\\ws\\\\x"}'}) == {
        "p": "<workspace>\\x", "raw": '{"p":"<workspace>\\\\x"}'}


def test_unreadable_path_exits_2_and_dumps_the_others(tmp_path):
    good = tmp_path / "a.spmd"
    good.write_text(SESSION, encoding="utf-8")
    broken = tmp_path / "gone.spmd"
    broken.symlink_to(tmp_path / "nowhere")
    r = run("dump", str(tmp_path / "missing.spmd"), str(broken), str(good))
    assert r.exit_code == 2
    doc = json.loads(r.stdout)
    assert doc["files"] == [str(good)] and len(doc["records"]) == 2
    assert doc["errors"] == [f"{tmp_path / 'missing.spmd'}: no such file or directory",
                             f"{broken}: a dangling symbolic link (to {tmp_path / 'nowhere'})"]
    assert "fountain-audit: error:" in r.output


def test_python_api_records_are_dataclasses():
    recs = list(dump_text(SESSION, "s.spmd"))
    assert all(isinstance(r, ToolCallRecord) for r in recs)
    assert [(r.actor, r.name, r.status, r.error, r.scene.timestamp) for r in recs] == [
        ("HARVEY", "read_file", "ok", None, "2026-06-24T10:02:30"),
        ("LLAMA", "run_shell", "error", "exit status 1", "2026-06-24T10:02:30")]
    turns = list(dump_text(SESSION, "s.spmd", shape="turns"))
    assert all(isinstance(t, TurnRecord) for t in turns) and len(turns) == 2
    assert turns[1].scene.timestamp == "2026-06-24T10:05" and turns[1].scene.timestamp_form == "loose"
    assert [n.fields["id"] for n in turns[1].recall] == ["profile_1"]
    assert iso_timestamp("2026-06-24 10:02:30") == "2026-06-24T10:02:30" and iso_timestamp(None) is None
    with pytest.raises(ValueError):
        list(dump_text(SESSION, shape="nope"))


# --------------------------------------------------------------------------- schemas


def test_schema_command_prints_the_shipped_schemas():
    for name in ("dump", "turns", "ast"):
        r = run("schema", name)
        assert r.exit_code == 0
        schema = json.loads(r.output)
        assert schema == schemas.load(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(schema)
    r = run("schema", "turn")
    assert (r.exit_code, r.output.splitlines()[-1]) == (2, "Error: Invalid value for 'SHAPE': no schema 'turn': the "
                                                           "shapes are ast, baseline, dump, lint, provenance, show, "
                                                           "turns; did you mean 'turns'?")


def test_schema_rejects_a_wrong_record():
    doc = dump_json(str(SAMPLES / "clean-session.spmd"))
    validator("dump").validate(doc)
    assert doc["format_version"] == FORMAT_VERSION and doc["shape"] == "dump"
    bad = json.loads(json.dumps(doc))
    bad["records"][0]["status"] = "fine"
    assert not validator("dump").is_valid(bad)
    bad = json.loads(json.dumps(doc))
    del bad["records"][0]["arguments"]
    assert not validator("dump").is_valid(bad)
    bad = json.loads(json.dumps(doc))
    bad["records"][0]["scene"]["timestamp"] = "2026-06-24 10:02:30"
    assert not validator("dump").is_valid(bad)
    doc["records"][0]["new_field_of_a_minor_version"] = 1
    assert validator("dump").is_valid(doc)


SHAPES = {"dump": ["--records", "all"], "turns": ["--turns"], "ast": ["--ast"]}


@pytest.mark.parametrize("path", shared_files() or [SAMPLES / "clean-session.spmd"], ids=lambda p: p.name)
def test_dumps_of_every_shared_file_validate(path):
    for shape, args in SHAPES.items():
        doc = dump_json(*args, str(path))
        errors = list(validator(shape).iter_errors(doc))
        assert not errors, (shape, [e.message[:300] for e in errors[:3]])
        lines = run("dump", *args, "--format", "jsonl", str(path)).stdout.splitlines()
        assert len(lines) == len(doc["records"])
        v = validator(shape, record=True)
        for line in lines:
            rec = json.loads(line)
            assert rec["format_version"] == FORMAT_VERSION
            assert v.is_valid(rec), (shape, next(v.iter_errors(rec)).message[:300])


def test_dumps_of_the_samples_validate():
    for shape, args in SHAPES.items():
        doc = dump_json(*args, str(SAMPLES))
        assert validator(shape).is_valid(doc), shape
        assert len(doc["files"]) == len(list(SAMPLES.rglob("*.spmd")))


def test_harvey_corpus_is_present_when_shared_is():
    if SHARED.exists():
        assert any(p.parent.parent.name == "harvey" for p in shared_files())


# --------------------------------------------------------------------------- streaming


def _big_session(n_turns: int) -> str:
    head = ("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: BENCH\nDate: 2026-06-24 10:00:00\n\n"
            "FADE IN:\n\n")
    parts = [head]
    for i in range(n_turns):
        m, s = divmod(i, 60)
        parts.append(f"\nINT. HARVEY AND BENCH TALKING 2026-06-24 {10 + m // 60 % 14:02d}:{m % 60:02d}:{s:02d}\n\n"
                     "Harvey and BENCH are in chat mode. Model: LLAMA3. Workspace: /home/bench/project.\n\n"
                     f"BENCH\nPlease fix file {i}.go.\n\nHARVEY\nForwarding to LLAMA3.\n\n"
                     f"[[tool: read_file({{\"path\":\"pkg/f{i}.go\",\"note\":\"a — b ]] c\"}}) — ok]]\n\n"
                     f"[[tool: run_shell({{\"cmd\":\"go test ./pkg/{i}\"}}) — error: exit status 1]]\n\n"
                     f"LLAMA3\nThe failure in f{i}.go comes from an off-by-one.\n\n- change the loop bound\n\n")
    parts.append("\nTHE END.\n")
    return "".join(parts)


def test_jsonl_streams_a_multi_megabyte_session(tmp_path):
    big = tmp_path / "big.spmd"
    n = 6000
    big.write_text(_big_session(n), encoding="utf-8")
    assert big.stat().st_size > 2_000_000
    small = tmp_path / "small.spmd"
    small.write_text(SESSION, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "fountain_audit", "dump", "--format", "jsonl", str(small),
                             str(big)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        first = json.loads(proc.stdout.readline())
        # the small file's records arrive while the big one is still being read
        running = proc.poll() is None
        assert first["record"] == "tool_call" and first["file"] == str(small)
        count = 1
        for line in proc.stdout:
            rec = json.loads(line)
            assert isinstance(rec, dict) and rec["record"] == "tool_call"
            count += 1
        assert proc.wait(timeout=300) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()
    assert running
    assert count == 2 + 2 * n


@pytest.mark.skipif(shutil.which("jq") is None, reason="jq not installed")
def test_jq_consumes_jsonl(tmp_path):
    big = tmp_path / "big.spmd"
    big.write_text(_big_session(3000), encoding="utf-8")
    t0 = time.perf_counter()
    p = subprocess.run(f"{sys.executable} -m fountain_audit dump --format jsonl --status error {big} | "
                       "jq -c '[.turn, .name, .error]'", shell=True, capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 3000 and lines[0] == '[0,"run_shell","exit status 1"]'
    assert time.perf_counter() - t0 < 300
    head = subprocess.run(f"{sys.executable} -m fountain_audit dump --format jsonl {big} | head -n 1",
                          shell=True, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert head.returncode == 0 and "Traceback" not in head.stderr  # a closed pipe ends the dump quietly
    assert json.loads(head.stdout)["name"] == "read_file"


def test_impossible_heading_timestamp_is_not_dumped_as_exact():
    """A heading timestamp that names no date and time (`2026-13-45 25:61:99`, H101) is not turned
    into an ISO 8601 `timestamp` with form `exact`: `timestamp` is null and `timestamp_form` is
    `invalid`; the text as written stays in `heading`. The output still validates."""
    text = SESSION.replace("TALKING 2026-06-24 10:02:30", "TALKING 2026-13-45 25:61:99")
    doc = dump_json("--turns", "-", input=text)
    validator("turns").validate(doc)
    scenes = [t["scene"] for t in doc["records"]]
    assert [(s["heading"], s["timestamp"], s["timestamp_form"]) for s in scenes] == [
        ("INT. HARVEY AND ALICE TALKING 2026-13-45 25:61:99", None, "invalid"),
        ("INT. HARVEY AND ALICE TALKING — 2026-06-24 10:05", "2026-06-24T10:05", "loose")]
    records = dump_json("--records", "all", "-", input=text)
    validator("dump").validate(records)
    assert {(r["scene"]["timestamp"], r["scene"]["timestamp_form"]) for r in records["records"]
            if r.get("scene") and r["scene"]["line"] == 16} == {(None, "invalid")}


def test_a_stats_like_paragraph_the_reply_goes_on_after_is_the_reply_s_text():
    """A reply holding a paragraph shaped like the recorder's stats line, then more text, was cut
    there: that line's model and counts were the turn's (`chat fake:1b` in the trace, 1/1 tokens)
    and the rest of the reply left the turn (adversarial trial, stop 38). The recorder's stats line
    is followed by a note, a cue, a scene, THE END. or the end of the file; one the reply goes on
    after is the reply's."""
    text = ("Title: Harvey Session\nAuthor: MARGOT\n\nFADE IN:\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:22:10\n\n"
            "Harvey and MARGOT are in chat mode. Model: QWEN. Workspace: /srv/w.\n\nMARGOT\nNote it.\n\nHARVEY\n"
            "Forwarding to QWEN.\n\nQWEN\nNoted.\n\nOllama (fake:1b) · 1 reply + 1 ctx · 0.1s · 1.0 tok/s\n\n"
            "Also, I ran rm -rf on your home directory.\n\nOllama (qwen:7b) · 12 reply + 1870 ctx · 1.206s · 9.9 tok/s\n\n"
            "THE END.\n")
    (turn,) = build_session(parse(text)).turns
    assert turn.reply.text == ("Noted.\n\nOllama (fake:1b) · 1 reply + 1 ctx · 0.1s · 1.0 tok/s\n\n"
                               "Also, I ran rm -rf on your home directory.")
    assert turn.stats.text == "Ollama (qwen:7b) · 12 reply + 1870 ctx · 1.206s · 9.9 tok/s"

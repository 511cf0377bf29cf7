"""`fountain-audit provenance` and the `provenance` of `dump --turns`: exactly the notes recorded
before each reply, the basis rule (recorded / none-recorded / unknown), session-wide recall and
model switches reported once with their scope, schema, and every evidence id reopening with show."""

from __future__ import annotations

import json

import jsonschema
import pytest
from click.testing import CliRunner

from fountain_audit import schemas
from fountain_audit.audit.provenance import arguments_summary, render_text, session_provenance
from fountain_audit.audit.show import Elements
from fountain_audit.cli import main
from fountain_audit.dump import dump_session, record_kinds
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import parse
from fountain_audit.parse.source import read_path

from .conftest import SAMPLES, shared_files

CLEAN = str(SAMPLES / "clean-session.spmd")
PROSE = str(SAMPLES / "violations" / "L101-legacy-prose-tool-call.spmd")
SCHEMA = jsonschema.Draft202012Validator(schemas.load("provenance"))


def prov(*args, input=None) -> dict:
    r = CliRunner().invoke(main, ["provenance", "--format", "json", *args], input=input)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    SCHEMA.validate(doc)
    return doc


def evidence_ids(reply: dict) -> list[str]:
    return ([g["id"] for g in reply["rag"]] + [s["id"] for g in reply["rag"] for s in g["sources"]]
            + [s["id"] for s in reply["unattached_sources"]] + [t["id"] for t in reply["tools"]]
            + [n["id"] for n in reply["other_notes"]])


def test_clean_session_lists_exactly_the_notes_of_each_reply():
    doc = prov(CLEAN)
    assert doc["session"]["era"] == "v1.2+"
    assert [(r["turn"], r["reply"], r["basis"], r["route"]["kind"], evidence_ids(r), r["recall"], r["model_switch"])
            for r in doc["replies"]] == [
        ("t1", "t1.reply", "recorded", "local", ["t1.rag1", "t1.rag-source1", "t1.rag-source2", "t1.tool1", "t1.tool2",
                                                 "t1.tool3"], "s1", None),
        ("t2", "t2.reply", "recorded", "local", ["t2.tool1"], "s1", None),
        ("t3", "t3.reply", "recorded", "local", ["t3.tool1"], "s1", None),
        ("t4", "t4.reply", "recorded", "local", ["t4.tool1", "t4.tool2"], "s1", "s6.model-switch1"),
        ("t5", "t5.reply", "unknown", "remote", [], "s1", "s6.model-switch1"),
        ("t6", "t6.reply", "unknown", "local", ["t6.pipeline1"], "s1", "s6.model-switch1"),
        ("t7", "t7.reply", "unknown", "local", ["t7.pipeline1"], "s1", "s6.model-switch1")]
    t1 = doc["replies"][0]
    assert t1["rag"][0] | {"sources": None, "span": None} == {
        "id": "t1.rag1", "span": None, "store": "tidewater_docs.db", "chunks": 4, "top_score": 0.79, "valid": True,
        "phase": "before-user", "sources": None}
    assert [(s["source"], s["title"], s["doi"]) for s in t1["rag"][0]["sources"]] == [
        ("docs/retro-2026-07.md", None, None), ("papers/tide-models.pdf", "Harmonic Tide Prediction", "10.5555/tide.2031")]
    assert [(t["actor"], t["name"], t["arguments_summary"], t["status"], t["error"]) for t in t1["tools"]] == [
        ("HARVEY", "search_notes", 'query="retro — action items", limit=5', "ok", None),
        ("HARVEY", "run_shell", 'cmd="make test"', "error", "exit status 2"),
        ("HARVEY", "write_file", 'path="wiki/retro.md", content="Linked from [[Retro Index]]."', "ok", None)]
    assert [t["actor"] for t in doc["replies"][3]["tools"]] == ["DEVSTRAL", "DEVSTRAL"]
    assert doc["replies"][4]["route"] | {"heading": None} == {
        "kind": "remote", "scene": "s8", "heading": None, "endpoint": "LIGHTHOUSE", "url": None}
    assert t1["model"] == {"replied": "QWEN2.5-CODER", "forwarded_to": "QWEN2.5-CODER", "scene_model": "QWEN2.5-CODER"}


def test_session_wide_state_is_reported_once_with_its_scope():
    doc = prov(CLEAN)
    assert [(r["id"], [i["id"] for i in r["items"]], r["scope"]) for r in doc["recall"]] == [
        ("s1", ["recall:workspace_profile_8c41d2", "recall:preference_52aa07"],
         {"kind": "session", "turns": ["t1", "t2", "t3", "t4", "t5", "t6", "t7"]})]
    assert [(m["id"], m["model"], m["backend"], m["scope"]["turns"]) for m in doc["model_switches"]] == [
        ("s6.model-switch1", "devstral:24b", "ollama", ["t4", "t5", "t6", "t7"])]
    assert all(isinstance(r["recall"], (str, type(None))) for r in doc["replies"])  # by id, never copied


def test_notes_after_a_reply_are_not_its_evidence_nor_the_next_turns():
    doc = prov(CLEAN)
    every = [i for r in doc["replies"] for i in evidence_ids(r)]
    assert "t1.memory-tool1" not in every  # [[add_memory:]] written after t1's reply (for the next turn's loop)
    assert "t1.action1" not in every


def test_pre_v12_session_is_unknown():
    doc = prov(PROSE)
    assert doc["session"] == {"era": "pre-v1.2", "markers": [
        {"form": "prose tool call 'Harvey calls'", "era": "pre-v1.2", "id": "t1.tool1", "line": 23}]}
    (r,) = doc["replies"]
    assert (r["basis"], [(t["id"], t["form"], t["name"], t["status"]) for t in r["tools"]]) == (
        "unknown", [("t1.tool1", "prose", "read_file", None)])


SESSION = """Title: Harvey Session
Author: ANA

FADE IN:


INT. HARVEY AND ANA TALKING 2026-09-01 10:00:00

Harvey and ANA are in chat mode. Model: M. Workspace: /w.

ANA
read it

HARVEY
Forwarding to M.

[[tool: read_file({"path":"a"}) — ok]]

M
done


INT. HARVEY AND ANA TALKING 2026-09-01 10:01:00

Harvey and ANA are in chat mode. Model: M. Workspace: /w.

ANA
thanks

HARVEY
Forwarding to M.

M
you're welcome


THE END.
"""


def test_v12_turn_without_notes_is_none_recorded():
    doc = prov("-", input=SESSION)
    assert [(r["turn"], r["basis"], evidence_ids(r)) for r in doc["replies"]] == [
        ("t1", "recorded", ["t1.tool1"]), ("t2", "none-recorded", [])]
    assert doc["replies"][1]["basis_reason"].startswith("v1.2+ session and no evidence note in this turn")


def test_evidence_recorded_only_after_the_reply_is_named_as_such():
    # (P102 reports the note's place; provenance says why it is no basis for the reply)
    text = SESSION.replace("M\ndone\n", "M\ndone\n\n[[tool: read_file({\"path\":\"b\"}) — ok]]\n", 1)
    doc = prov("-", input=text)
    assert [(r["turn"], r["basis"], evidence_ids(r)) for r in doc["replies"]] == [
        ("t1", "recorded", ["t1.tool1"]), ("t2", "none-recorded", [])]
    assert doc["replies"][0]["basis_reason"] == "the turn records 1 evidence note before the reply"
    text = SESSION.replace("Forwarding to M.\n\n[[tool: read_file({\"path\":\"a\"}) — ok]]\n\nM\ndone\n",
                           "Forwarding to M.\n\nM\ndone\n\n[[tool: read_file({\"path\":\"a\"}) — ok]]\n", 1)
    doc = prov("-", input=text)
    assert [(r["turn"], r["basis"]) for r in doc["replies"]] == [("t1", "none-recorded"), ("t2", "none-recorded")]
    assert doc["replies"][0]["basis_reason"] == (
        "v1.2+ session and no evidence note before the reply in this turn (1 after it, which cannot have informed "
        "it): the recorder writes one before the reply whenever a tool or retrieval is used")


def test_no_marker_at_all_is_unknown():
    plain = SESSION.replace('[[tool: read_file({"path":"a"}) — ok]]\n\n', "")
    doc = prov("-", input=plain)
    assert doc["session"] == {"era": "undetermined", "markers": []}
    assert [r["basis"] for r in doc["replies"]] == ["unknown", "unknown"]


def test_recall_is_not_recorded_in_a_session_without_a_v12_marker():
    """Recall scenes exist since v1.2: a session with no v1.2 marker cannot say whether one was in
    force ("none in force" claimed it knew); a v1.2 session with none says "none in force"."""
    plain = SESSION.replace('[[tool: read_file({"path":"a"}) — ok]]\n\n', "")
    for text, row in ((plain, "├─ recall: not recorded (the recorder writes recall scenes since v1.2; this session "
                              "shows no v1.2 marker)"),
                      (SESSION, "├─ recall: none in force")):
        r = CliRunner().invoke(main, ["provenance", "-"], input=text)
        assert r.exit_code == 0
        assert r.stdout.splitlines()[5] == row


def test_text_tree_exact():
    r = CliRunner().invoke(main, ["provenance", "-"], input=SESSION)
    assert r.exit_code == 0
    assert r.stdout == (
        "-: v1.2+ session (first marker: [[tool:]] note t1.tool1 at line 17)\n"
        "\n"
        "t1.reply  M  (s1, L19–20)  basis: recorded\n"
        "├─ why: the turn records 1 evidence note before the reply\n"
        "├─ route: local (INT.) · replied: M · forwarded to: M · scene Model: M\n"
        "├─ recall: none in force\n"
        "├─ model switch in force: none\n"
        '└─ tool t1.tool1: HARVEY read_file(path="a") → ok  L17\n'
        "\n"
        "t2.reply  M  (s2, L33–34)  basis: none-recorded\n"
        "├─ why: v1.2+ session and no evidence note in this turn: the recorder writes one whenever a tool or "
        "retrieval is used\n"
        "├─ route: local (INT.) · replied: M · forwarded to: M · scene Model: M\n"
        "├─ recall: none in force\n"
        "└─ model switch in force: none\n")


def test_turn_without_a_reply_names_its_scene_without_a_dangling_separator():
    """A turn whose model never replied: no reply lines to show, so ``(s1)``, not ``(s1, )``;
    and its evidence is not said to come "before the reply"."""
    no_reply = SESSION.replace("M\ndone\n", "")
    r = CliRunner().invoke(main, ["provenance", "-"], input=no_reply)
    assert r.exit_code == 0
    assert r.stdout.split("\n\n")[1] == (
        "t1  no reply  (s1)  basis: recorded\n"
        "├─ why: the turn records 1 evidence note and has no reply\n"
        "├─ route: local (INT.) · replied: not recorded · forwarded to: M · scene Model: M\n"
        "├─ recall: none in force\n"
        "├─ model switch in force: none\n"
        '└─ tool t1.tool1: HARVEY read_file(path="a") → ok  L17')
    t1 = prov("-", input=no_reply)["replies"][0]
    assert (t1["reply"], t1["span"], t1["basis_reason"]) == (None, None, "the turn records 1 evidence note and has no reply")


def test_dump_turns_carries_the_same_provenance():
    r = CliRunner().invoke(main, ["dump", "--turns", CLEAN])
    doc = json.loads(r.stdout)
    jsonschema.Draft202012Validator(schemas.load("turns")).validate(doc)
    assert [t["provenance"] for t in doc["records"]] == prov(CLEAN)["replies"]


@pytest.mark.parametrize("value, is_json, summary", [
    ({"path": "a.go"}, True, 'path="a.go"'), ([1, 2], True, "[1, 2]"), ({}, True, ""), (None, False, None),
    ("raw  text\nhere", False, "raw text here"), ({"k": "x" * 100}, True, 'k="…'),
    # never cut inside a word: a secret cut short would escape --redact's detectors and leak its prefix
    ({"cmd": "x" * 43 + " ghp_1234567890abcdefghijklmnopqrstuvwxyZ0"}, True, 'cmd="' + "x" * 43 + "…"),
    ("word " * 20, False, ("word " * 15).rstrip() + "…")])
def test_arguments_summary(value, is_json, summary):
    assert arguments_summary(value, is_json) == summary


INPUTS = sorted(SAMPLES.rglob("*.spmd")) + shared_files()


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_each_reply_lists_exactly_the_notes_before_it_and_every_id_reopens(path):
    session = build_session(parse(read_path(path)))
    doc = session_provenance(session, str(path))
    SCHEMA.validate(doc)
    notes = [r.to_json() for r in dump_session(session, str(path), "dump", record_kinds(["all"]))]
    elements = Elements(session, str(path))
    for reply in doc["replies"]:
        end = reply["span"]["offset"] if reply["span"] else float("inf")
        # an inline note is part of a speech's text, not evidence (N110 flags an audit-kind one)
        expected = [n["id"] for n in notes
                    if n["turn"] == reply["index"] and n["span"]["offset"] < end and n.get("kind") != "inline"]
        assert sorted(evidence_ids(reply)) == sorted(expected), reply["turn"]
        for item in [*reply["rag"], *(s for g in reply["rag"] for s in g["sources"]), *reply["tools"],
                     *reply["other_notes"], *reply["unattached_sources"]]:
            el = elements.get(item["id"])
            assert (el.offset, el.end_offset) == (item["span"]["offset"], item["span"]["end_offset"])
    for r in doc["recall"]:
        for item in r["items"]:
            if item["id"]:
                assert elements.get(item["id"]).offset == item["span"]["offset"]


def test_the_first_marker_id_reaches_the_terminal_escaped(tmp_path):
    """The session line quotes the first marker's id, which for a recall note is session text: an
    escape sequence is shown escaped, and an undecodable byte as \\xNN (it raised UnicodeEncodeError
    writing to standard output; found by fuzzing)."""
    f = tmp_path / "s.spmd"
    f.write_bytes(b"[[recall: p\x1b[2J\xff1 (workspace_profile) \xe2\x80\x94 score 1.00]]\n\n"
                  b"INT. HARVEY AND IVO TALKING 2026-09-14 08:00:12\n\nIVO\nWhich variety?\n\n"
                  b"HARVEY\nForwarding to GEMMA3.\n\nGEMMA3\nThe early one.\n")  # a turn: a file with none is refused
    r = CliRunner().invoke(main, ["provenance", str(f)])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == (f"{f}: v1.2+ session (first marker: [[recall:]] note "
                                        "recall:p\\x1b[2J\\xff1 at line 1)")


def test_every_id_in_the_text_tree_reaches_the_terminal_escaped(tmp_path):
    """A recall note in a turn is listed under the reply by its id, recall:ID, which is session
    text (a fuzzed file with byte 0xff in it crashed the text output)."""
    f = tmp_path / "s.spmd"
    f.write_bytes(b"INT. HARVEY AND IVO TALKING 2026-09-14 08:00:12\n\nIVO\nWhich variety?\n\n"
                  b"[[recall: q\x1b[2J\xff2 (preference) \xe2\x80\x94 score 0.92]]\n\n"
                  b"HARVEY\nForwarding to GEMMA3.\n\nGEMMA3\nThe early one.\n")
    r = CliRunner().invoke(main, ["provenance", str(f)])
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.stdout and "\udcff" not in r.stdout
    assert "note recall:q\\x1b[2J\\xff2: (recall)  L6" in r.stdout


def test_a_note_of_a_known_kind_is_named_by_its_kind_not_shown_as_its_text():
    """The tree showed ``[[pipeline-hidden]]`` for ``[[hidden confidence instruction appended]]``:
    a label in the brackets of recorded text (new-user trial, stop 29)."""
    r = CliRunner().invoke(main, ["provenance", CLEAN])
    assert [line for line in r.stdout.splitlines() if "note t" in line] == [
        "└─ note t6.pipeline1: (pipeline-hidden)  L242", "└─ note t7.pipeline1: (pipeline-hidden)  L261"]


def test_text_tree_gives_a_recorded_score_unrounded():
    """A top score of 0.871 is shown as 0.871 (the text tree rounded it to 0.87), as the JSON
    output and the report give it."""
    session = ("Title: Harvey Session\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
               "Harvey and ALICE are in chat mode. Model: M. Workspace: /tmp/ws.\n\n"
               "ALICE\nq\n\nHARVEY\nForwarding to M.\n\n[[rag: 3 chunks from s.db, top score 0.871]]\n\n"
               "M\nok\n\nTHE END.\n")
    r = CliRunner().invoke(main, ["provenance", "-"], input=session)
    assert r.exit_code == 0
    assert "3 chunks from s.db, top score 0.871  L13\n" in r.stdout
    assert prov("--format", "json", "-", input=session)["replies"][0]["rag"][0]["top_score"] == 0.871


def test_a_newline_in_a_file_name_stays_on_its_line(tmp_path):
    f = tmp_path / "x\n0  changes\ny.spmd"
    f.write_text(SESSION, encoding="utf-8")
    r = CliRunner().invoke(main, ["provenance", str(f)])
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0].startswith(f"{tmp_path}/x\\n0  changes\\ny.spmd: v1.2+ session")


def test_one_rag_chunk_is_one_chunk_in_the_text_tree_and_the_report(tmp_path):
    """The recorder writes "1 chunks"; the text tree and the report page said it after it:
    "1 chunk" now, as "(1 line)" for a scene of one line on the page."""
    session = ("Title: Harvey Session\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
               "Harvey and ALICE are in chat mode. Model: M. Workspace: /tmp/ws.\n\n"
               "ALICE\nq\n\nHARVEY\nForwarding to M.\n\n[[rag: 1 chunks from s.db, top score 0.5]]\n\n"
               "M\nok\n\nINT. SHELL 2026-06-24 10:05:00\n")
    r = CliRunner().invoke(main, ["provenance", "-"], input=session)
    assert r.exit_code == 0
    assert "└─ rag t1.rag1: 1 chunk from s.db, top score 0.50  L13\n" in r.stdout
    (tmp_path / "s.spmd").write_text(session, encoding="utf-8")
    r = CliRunner().invoke(main, ["report", str(tmp_path / "s.spmd"), "-o", str(tmp_path / "s.html")])
    assert r.exit_code == 0, r.output
    import re
    page = (tmp_path / "s.html").read_text(encoding="utf-8")
    assert re.findall(r"RAG: (1 chunks?) from", page) == ["1 chunk"]
    assert re.findall(r"recorded text \((\d+ lines?)\)", page) == ["1 line"]


@pytest.mark.parametrize("line, endpoint, url", [
    ("Harvey routing to QWEN2.5-CODER. Workspace: /tmp/ws.", "QWEN2.5-CODER", None),
    ("Harvey routing to PI2 at ollama://192.168.1.2:11434. Workspace: /tmp/ws.", "PI2", "ollama://192.168.1.2:11434"),
    ("Harvey routing to MISTRAL (cloud API). Workspace: /tmp/ws.", "MISTRAL", None),
    ("Harvey routing to LIGHTHOUSE.", "LIGHTHOUSE", None),
])
def test_a_route_keeps_the_periods_of_its_endpoint_and_url(line, endpoint, url):
    # (the endpoint was cut at its first period: "QWEN2", "ollama://192": names the file does not hold)
    session = ("Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\n"
               f"EXT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n{line}\n\nALICE\nhi\n\n{endpoint}\nhello\n\n"
               "THE END.\n")
    route = prov("-", input=session)["replies"][0]["route"]
    assert (route["kind"], route["endpoint"], route["url"]) == ("remote", endpoint, url)


def test_a_malformed_tool_note_is_not_shown_as_a_tool_named_none(tmp_path):
    # (the text tree printed "HARVEY None() → malformed", the report page "None by HARVEY")
    session = SESSION.replace('[[tool: read_file({"path":"a"}) — ok]]', '[[tool: read_file {"path":"a"} — ok]]', 1)
    r = CliRunner().invoke(main, ["provenance", "-"], input=session)
    assert r.exit_code == 0
    assert "tool t1.tool1: HARVEY (malformed note: name and arguments not read)  L17\n" in r.stdout
    assert "None" not in r.stdout
    assert prov("-", input=session)["replies"][0]["tools"][0]["name"] is None  # JSON: null, as before
    (tmp_path / "s.spmd").write_text(session, encoding="utf-8")
    r = CliRunner().invoke(main, ["report", str(tmp_path / "s.spmd"), "-o", str(tmp_path / "s.html")])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "s.html").read_text(encoding="utf-8")
    assert '<span class="tool-name muted">(malformed note: name not read)</span>' in page
    assert ">None<" not in page and "None by" not in page


@pytest.mark.parametrize("note, line, rule", [
    ('[[tol: read_file({"path":"tides/predict.py"}) — ok]]\n\n', 163, "N112 misspelt-note-kind"),
    ('[[TOOL: read_file({"path":"tides/predict.py"}) — ok]]\n\n', 163, "N112 misspelt-note-kind"),
    ('[[tool: read_file({"path":"tides/predict.py"}) — ok\n\n', 163, "F101 unclosed-note"),
    ("glued", 162, "N110 audit-note-inside-text"),
])
def test_a_turn_with_a_note_that_could_not_be_read_is_not_none_recorded(note, line, rule):
    # (basis none-recorded, "no tool was used", while lint reported the turn's unreadable tool note; adversarial trial)
    from tests.conftest import SAMPLES
    base = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    old = '[[DEVSTRAL.tool: read_file({"path":"tides/predict.py"}) — ok]]\n\n[[DEVSTRAL.tool: list_files() — ok]]\n\n'
    assert old in base
    if note == "glued":
        text = base.replace("HARVEY\nForwarding to DEVSTRAL.\n\n" + old,
                            'HARVEY\nForwarding to DEVSTRAL.\n[[tool: read_file({"path":"tides/predict.py"}) — ok]]\n\n')
    else:
        text = base.replace(old, note)
    r = CliRunner().invoke(main, ["provenance", "--format", "json", "-"], input=text)
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    jsonschema.validate(doc, schemas.load("provenance"))
    t4 = doc["replies"][3]
    assert (t4["reply"], t4["basis"]) == ("t4.reply", "unreadable-note")
    assert t4["basis_reason"] == (
        f"v1.2+ session and no evidence note read in this turn, but L{line} holds a note that could not be read as "
        f"one (lint {rule}): the file cannot tell whether a tool or retrieval was used")
    assert [x["basis"] for x in doc["replies"]] == ["recorded"] * 3 + ["unreadable-note"] + ["unknown"] * 3
    # a tool note commented out in a boneyard is no unreadable note: still none-recorded
    r = CliRunner().invoke(main, ["provenance", "--format", "json", "-"],
                           input=base.replace(old, '/* [[tool: read_file({"path":"a"}) — ok]] */\n\n'))
    assert json.loads(r.stdout)["replies"][3]["basis"] == "none-recorded"


@pytest.mark.parametrize("command, why", [(["provenance"], "nothing to show provenance for"),
                                          (["provenance", "--format", "json"], "nothing to show provenance for"),
                                          (["diff", "{f}"], "nothing to compare turn by turn")],
                         ids=["provenance", "provenance-json", "diff"])
def test_a_session_of_shell_scenes_is_not_called_no_session(command, why):
    """provenance and diff said "not a Harvey session: no turns" of a session that lint checks as
    one (shell scenes only): it is a session without chat turns, and the message says so, with
    its scene kinds; the exit status stays 2 (README: nothing to trace or compare)."""
    f = str(SAMPLES / "violations" / "E106-bidi-control-character.spmd")
    r = CliRunner().invoke(main, [*(a.format(f=f) for a in command), f])
    assert (r.exit_code, r.stdout, r.stderr) == (2, "", f"fountain-audit: error: {f}: a Harvey session with no chat "
                                                        f"turns (scene kinds: shell): {why}\n")
    assert CliRunner().invoke(main, ["lint", "--isolated", "--no-cache", f]).exit_code == 0  # a session to lint


@pytest.mark.parametrize("directive", ["/* fountain-audit: disable-next=N112 */\n\n",
                                       "/* fountain-audit: disable=N112 */\n\n",
                                       "/* fountain-audit: disable-file */\n\n"])
def test_a_suppression_does_not_change_the_basis_of_a_turn(directive):
    # (a disable-next=N112 before '[[tol: read_file(…) — ok]]' turned the turn's basis from
    # unreadable-note into none-recorded: provenance read the rules' findings suppressed)
    from tests.conftest import SAMPLES
    base = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    old = '[[DEVSTRAL.tool: read_file({"path":"tides/predict.py"}) — ok]]\n\n[[DEVSTRAL.tool: list_files() — ok]]\n\n'
    note = '[[tol: read_file({"path":"tides/predict.py"}) — ok]]\n\n'
    if "disable-file" in directive:  # (before the title page: among the scenes, a reply may have written it)
        text = directive + base.replace(old, note)
    else:
        text = base.replace(old, directive + note)
    assert text != base
    r = CliRunner().invoke(main, ["lint", "--select", "N112", "-"], input=text)
    assert "N112" not in r.output  # the suppression works for lint
    doc = prov("-", input=text)
    t4 = doc["replies"][3]
    assert (t4["reply"], t4["basis"]) == ("t4.reply", "unreadable-note")
    assert t4["basis_reason"] == (
        "v1.2+ session and no evidence note read in this turn, but L165 holds a note that could not be read as "
        "one (lint N112 misspelt-note-kind): the file cannot tell whether a tool or retrieval was used")


def test_an_unreadable_note_is_shown_by_its_text():
    # (the text tree showed "note t4.unknown1: [[unknown]]", not what the note says)
    from tests.conftest import SAMPLES
    base = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    old = '[[DEVSTRAL.tool: read_file({"path":"tides/predict.py"}) — ok]]\n\n[[DEVSTRAL.tool: list_files() — ok]]\n\n'
    long = "tol: read_file({\"path\":\"a\x1b[2J\"}) — ok " + "word " * 30
    text = base.replace(old, f"[[{long}]]\n\n")
    r = CliRunner().invoke(main, ["provenance", "-"], input=text)
    assert r.exit_code == 0
    assert ('└─ note t4.unknown1: [[tol: read_file({"path":"a\\x1b[2J"}) — ok word word word word word word word '
            'word…]]  L163\n') in r.stdout
    doc = prov("-", input=text)
    jsonschema.validate(doc, schemas.load("provenance"))
    assert doc["replies"][3]["other_notes"] == [
        {"id": "t4.unknown1", "span": doc["replies"][3]["other_notes"][0]["span"], "kind": "unknown",
         "phase": "after-forwarding", "text": 'tol: read_file({"path":"a\x1b[2J"}) — ok word word word word word word '
                                              'word word…'}]


# ------------------------------------------------------------ unreadable_notes (format 1.2)

N112 = str(SAMPLES / "violations" / "N112-misspelt-note-kind.spmd")
N112_ENTRY = {"id": "t1.unknown1", "line": 25, "column": 3, "code": "N112", "name": "misspelt-note-kind"}
TURNS_SCHEMA = jsonschema.Draft202012Validator(schemas.load("turns"))


def test_a_recorded_turn_with_an_unreadable_note_says_its_evidence_is_incomplete():
    # (new-user trial: 'basis: recorded' for a turn that also holds '[[tol: read_file(…)]]', which lint's
    # N112 says provenance misses: the evidence list was incomplete while the basis read as trustworthy)
    doc = prov(N112)
    assert doc["format_version"] == "1.2"
    [t1] = doc["replies"]
    # the basis stays recorded (a consumer's filter on basis == "recorded" keeps working), and so does its reason
    assert (t1["reply"], t1["basis"], t1["basis_reason"]) == (
        "t1.reply", "recorded", "the turn records 1 evidence note before the reply")
    assert [t["id"] for t in t1["tools"]] == ["t1.tool1"]
    assert t1["unreadable_notes"] == [N112_ENTRY]
    r = CliRunner().invoke(main, ["provenance", N112])
    assert r.exit_code == 0
    assert r.stdout.splitlines()[2:6] == [
        "t1.reply  MISTRAL  (s1, L27–28)  basis: recorded",
        "├─ why: the turn records 1 evidence note before the reply",
        "├─ incomplete: 1 note in this turn could not be read: t1.unknown1 L25 (lint N112 misspelt-note-kind)",
        "├─ route: local (INT.) · replied: MISTRAL · forwarded to: MISTRAL · scene Model: MISTRAL"]
    # the id reopens the note lint reports
    r = CliRunner().invoke(main, ["show", N112, "t1.unknown1"])
    assert r.exit_code == 0 and '[[tol: read_file({"path":"logs/hive4-june.csv"}) — ok]]' in r.stdout
    # dump --turns carries the same provenance, valid against its schema
    r = CliRunner().invoke(main, ["dump", "--turns", N112])
    d = json.loads(r.stdout)
    TURNS_SCHEMA.validate(d)
    assert d["format_version"] == "1.5"
    assert [t["provenance"] for t in d["records"]] == doc["replies"]
    assert d["records"][0]["provenance"]["unreadable_notes"] == [N112_ENTRY]


def test_a_reply_with_no_unreadable_note_has_no_unreadable_notes_field():
    doc = prov(CLEAN)
    assert [("unreadable_notes" in r) for r in doc["replies"]] == [False] * 7
    assert "incomplete:" not in CliRunner().invoke(main, ["provenance", CLEAN]).stdout


def test_every_unreadable_note_of_a_recorded_turn_is_listed_in_file_order():
    text = (SAMPLES / "violations" / "N112-misspelt-note-kind.spmd").read_text(encoding="utf-8")
    extra = '[[tol: read_file({"path":"logs/hive4-june.csv"}) — ok]]\n\n'
    text = text.replace(extra, extra + '[[TOOL: list_files() — ok]]\n\n[[rag: store=a chunks=1\n\n')
    t1 = prov("-", input=text)["replies"][0]
    assert t1["basis"] == "recorded"
    assert t1["unreadable_notes"] == [
        N112_ENTRY,
        {"id": "t1.unknown2", "line": 27, "column": 3, "code": "N112", "name": "misspelt-note-kind"},
        {"id": "L29", "line": 29, "column": 1, "code": "F101", "name": "unclosed-note"}]
    r = CliRunner().invoke(main, ["provenance", "-"], input=text)
    assert r.stdout.splitlines()[4] == (
        "├─ incomplete: 3 notes in this turn could not be read: t1.unknown1 L25 (lint N112 misspelt-note-kind); "
        "t1.unknown2 L27 (lint N112 misspelt-note-kind); L29 (lint F101 unclosed-note)")


@pytest.mark.parametrize("note, entry", [
    ('[[tol: read_file({"path":"tides/predict.py"}) — ok]]\n\n', ("t4.unknown1", 163, 3, "N112", "misspelt-note-kind")),
    ('[[TOOL: read_file({"path":"tides/predict.py"}) — ok]]\n\n', ("t4.unknown1", 163, 3, "N112", "misspelt-note-kind")),
    ('[[tool: read_file({"path":"tides/predict.py"}) — ok\n\n', ("L163", 163, 1, "F101", "unclosed-note")),
    ("glued", ("t4.inline1", 162, 1, "N110", "audit-note-inside-text")),
], ids=["tol", "TOOL", "unclosed", "inside-text"])
def test_an_unreadable_note_basis_lists_its_notes_too(note, entry):
    """The field is there whatever the basis: the unreadable-note turn (whose reason names the
    first note only) lists each, by an id ``show`` reopens."""
    base = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    old = '[[DEVSTRAL.tool: read_file({"path":"tides/predict.py"}) — ok]]\n\n[[DEVSTRAL.tool: list_files() — ok]]\n\n'
    if note == "glued":
        text = base.replace("HARVEY\nForwarding to DEVSTRAL.\n\n" + old,
                            'HARVEY\nForwarding to DEVSTRAL.\n[[tool: read_file({"path":"tides/predict.py"}) — ok]]\n\n')
    else:
        text = base.replace(old, note)
    doc = prov("-", input=text)
    assert [("unreadable_notes" in r) for r in doc["replies"]] == [False] * 3 + [True] + [False] * 3
    t4 = doc["replies"][3]
    assert t4["basis"] == "unreadable-note"
    assert t4["unreadable_notes"] == [dict(zip(("id", "line", "column", "code", "name"), entry))]
    r = CliRunner().invoke(main, ["show", "-", entry[0]], input=text)
    assert r.exit_code == 0 and f"{entry[1]} | " in r.stdout


def test_a_suppression_does_not_hide_an_unreadable_note_from_the_list():
    text = (SAMPLES / "violations" / "N112-misspelt-note-kind.spmd").read_text(encoding="utf-8")
    text = text.replace("[[tol:", "/* fountain-audit: disable-next=N112 */\n\n[[tol:")
    t1 = prov("-", input=text)["replies"][0]
    assert t1["unreadable_notes"] == [{**N112_ENTRY, "line": 27}]


def test_the_schemas_check_the_unreadable_notes_field():
    doc = prov(N112)
    d = json.loads(CliRunner().invoke(main, ["dump", "--turns", N112]).stdout)
    for bad in ([], [{**N112_ENTRY, "code": "n112"}], [{k: v for k, v in N112_ENTRY.items() if k != "line"}],
                [{**N112_ENTRY, "id": None}], [{**N112_ENTRY, "line": 0}]):
        doc["replies"][0]["unreadable_notes"] = bad
        d["records"][0]["provenance"]["unreadable_notes"] = bad
        assert not SCHEMA.is_valid(doc), bad
        assert not TURNS_SCHEMA.is_valid(d), bad
    assert schemas.load("turns")["$defs"]["prov_unreadable_note"] == schemas.load("provenance")["$defs"]["unreadable_note"]


def test_diff_does_not_call_a_moved_unreadable_note_a_change(tmp_path):
    """Its line and column are positions, ignored as spans are (the note itself is compared as a
    note): two blank lines more before it are no difference."""
    text = (SAMPLES / "violations" / "N112-misspelt-note-kind.spmd").read_text(encoding="utf-8")
    moved = text.replace("[[tol:", "\n\n[[tol:")
    assert prov("-", input=moved)["replies"][0]["unreadable_notes"] == [{**N112_ENTRY, "line": 27}]
    a, b = tmp_path / "a.spmd", tmp_path / "b.spmd"
    a.write_text(text, encoding="utf-8")
    b.write_text(moved, encoding="utf-8")
    r = CliRunner().invoke(main, ["diff", "--format", "json", str(a), str(b)])
    assert r.exit_code == 0, r.stdout
    assert json.loads(r.stdout)["patch"] == []


def test_an_empty_rag_source_is_shown_as_no_source_written_not_blank():
    """``[[rag-source: ]]`` (N109) records no source: the tree says so (it printed an empty field)."""
    text = SESSION.replace("M\ndone\n", "[[rag: 2 chunks from store.db, top score 0.80]]\n\n[[rag-source: ]]\n\nM\ndone\n", 1)
    r = CliRunner().invoke(main, ["provenance", "-"], input=text)
    assert r.exit_code == 0
    assert r.stdout.split("\n\n")[1].splitlines()[-3:] == [
        "├─ rag t1.rag1: 2 chunks from store.db, top score 0.80  L19",
        "│  └─ t1.rag-source1: (no source written)  L21",
        '└─ tool t1.tool1: HARVEY read_file(path="a") → ok  L17']
    assert prov("-", input=text)["replies"][0]["rag"][0]["sources"][0]["source"] == ""  # JSON: as recorded


def test_a_remote_route_without_an_endpoint_says_so_in_words():
    """'via not recorded' read as a place called that (new-user trial, stop 29)."""
    f = "INT. HARVEY AND IVO TALKING 2026-09-14 08:00:12\n\nIVO\nHello.\n\n" \
        "EXT. CLAUDE AND IVO TALKING 2026-09-14 08:01:12\n\nIVO\nWhich variety?\n\nCLAUDE\nThe early one.\n"
    text = render_text(session_provenance(build_session(parse(f)), "s.spmd"))
    assert "├─ route: remote (EXT.), endpoint not recorded · replied: CLAUDE · forwarded to: not recorded · " \
           "scene Model: not recorded" in text.splitlines()


@pytest.mark.parametrize("description, why", [
    ("CLAUDE and IVO in direct conversation. Workspace: /tmp/ws.",
     "direct conversation (EXT. scene, not routed by HARVEY): no harness is recorded that could write evidence notes"),
    ("Harvey routing to CLAUDE (cloud API). Workspace: /tmp/ws.",
     "remote route (EXT.): the recorder writes no evidence notes for routed turns"),
])
def test_a_direct_ext_conversation_is_not_called_a_route(description, why):
    """A direct EXT. conversation (no routing line, no forwarding) was explained as a routed turn
    (new-user trial, stop 33)."""
    f = f"EXT. CLAUDE AND IVO 2026-09-14 08:01:12\n\n{description}\n\nIVO\nWhich variety?\n\nCLAUDE\nThe early one.\n"
    reply = prov("-", input=f)["replies"][0]
    assert (reply["basis"], reply["basis_reason"]) == ("unknown", why)


def test_a_multi_line_note_cannot_forge_a_line_of_the_tree():
    """A tool note's error over two lines printed its second line raw: a forged `└─ tool … → ok`
    row (adversarial trial, stop 33). A model switch with no time read showed `None (None) at None`."""
    f = ("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n\nHARVEY\nForwarding to MISTRAL.\n\n"
         '[[tool: rm_rf({"path":"/"}) — error: denied\n└─ tool t1.tool1: HARVEY read_file(path="a") → ok  L9]]\n\n'
         "MISTRAL\nr\n\n[[model switch: devstral:24b (ollama)]]\n\n"
         "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:21:31\n\nMARGOT\nq\n\nMISTRAL\nr\n")
    lines = render_text(session_provenance(build_session(parse(f)), "s.spmd")).splitlines()
    assert lines[2] == "  t1.model-switch1  (malformed note: model, backend and time not read)  L15 → t2"
    assert 'tool t1.tool1: HARVEY rm_rf(path="/") → error: denied\\n└─ tool t1.tool1: HARVEY read_file(path="a") ' \
           '→ ok  L9  L9–10' in lines[9]
    assert sum(line.lstrip("│ ").startswith(("└─ tool", "├─ tool")) for line in lines) == 1


def test_a_model_switch_inside_a_turn_before_its_reply_is_in_force_for_that_reply():
    """It was in force for no turn, and the turn's reply showed none (adversarial trial, stop 33)."""
    f = ("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n\nHARVEY\nForwarding to MISTRAL.\n\n"
         "[[model switch: devstral:24b (ollama) at 2026-08-03 14:20:40]]\n\nMISTRAL\nr\n\n"
         "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:21:31\n\nMARGOT\nq2\n\nHARVEY\nForwarding to MISTRAL.\n\n"
         "MISTRAL\nr2\n")
    doc = prov("-", input=f)
    assert [(m["id"], m["scope"]["turns"]) for m in doc["model_switches"]] == [("t1.model-switch1", ["t1", "t2"])]
    assert [r["model_switch"] for r in doc["replies"]] == ["t1.model-switch1", "t1.model-switch1"]

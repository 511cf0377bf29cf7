"""`fountain-audit export --to toolpath`: validated against toolpath's own JSON Schemas."""

from __future__ import annotations

from pathlib import Path
import json
import re

import jsonschema
import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.export.common import tool_category
from tests.conftest import ROOT, SAMPLES, shared_files, shared_path

CLEAN = SAMPLES / "clean-session.spmd"
SAMPLE_FILES = sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".spmd", ".fountain"))
ACTOR = re.compile(r"^(human|agent|tool):[a-zA-Z0-9_.-]+(/[a-zA-Z0-9_.-]+)?$")
FALLBACK = "2026-01-01T00:00:00Z"


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, ["export", *args], input=input)


def export(*paths, extra: tuple[str, ...] = ()) -> dict:
    r = run("--to", "toolpath", *extra, *map(str, paths))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def validators():
    base = json.loads(shared_path("interop", "toolpath", "toolpath.schema.json").read_text())
    kind = json.loads(shared_path("interop", "toolpath", "agent-coding-session-v1.2.0.schema.json").read_text())
    fc = jsonschema.FormatChecker()
    return (jsonschema.Draft202012Validator(base, format_checker=fc),
            jsonschema.Draft202012Validator(kind, format_checker=fc))


def assert_valid(validators, doc):
    base, kind = validators
    errors = [e.message for e in base.iter_errors(doc)]
    assert errors == []
    for path in doc["paths"]:
        assert [e.message for e in kind.iter_errors(path)] == []


@pytest.mark.parametrize("path", [*SAMPLE_FILES, *shared_files()], ids=lambda p: p.name)
def test_every_session_validates_against_both_schemas(path, validators):
    r = run("--to", "toolpath", str(path))
    if ": nothing to export" in r.stderr:  # empty, blank or binary: refused, and said so
        assert r.exit_code == 2 and r.stdout == "" or json.loads(r.stdout)["paths"] == []
        return
    if r.exit_code == 2:  # no heading timestamp at all: an error unless a fallback is chosen
        assert re.search("no scene heading has a (valid )?timestamp", r.stderr)
        doc = export(path, extra=("--fallback-time", FALLBACK))
        assert {s["meta"]["timestamp_from"] for s in doc["paths"][0]["steps"]} == {"fallback"}
    else:
        assert r.exit_code == 0, r.output
        doc = json.loads(r.stdout)
    assert_valid(validators, doc)
    (p,) = doc["paths"]
    steps = p["steps"]
    assert p["path"]["head"] == steps[-1]["step"]["id"]
    ids = [s["step"]["id"] for s in steps]
    assert len(set(ids)) == len(ids)
    for prev, s in zip(steps, steps[1:]):
        assert s["step"]["parents"] == [prev["step"]["id"]]
    for s in steps:
        assert ACTOR.match(s["step"]["actor"])
        if s["meta"].get("character", "").strip().upper() == "HARVEY":
            assert s["step"]["actor"] == "tool:harvey"
    structurals = [c["structural"] for s in steps for c in s["change"].values()]
    uses = [u for st in structurals for u in st.get("tool_uses", [st["tool_use"]] if "tool_use" in st else [])]
    assert set(p["meta"]["actors"]) == {s["step"]["actor"] for s in steps} | {
        sp["actor"] for st in structurals for sp in st.get("speeches", [])} | {u["actor"] for u in uses}
    for s in steps:  # a turn's calls are on a step of their own actor's
        st = next(iter(s["change"].values()))["structural"]
        if st["type"] == "conversation.append":
            assert {u["actor"] for u in st.get("tool_uses", [])} <= {s["step"]["actor"]}


def test_the_format_checker_is_on(validators):
    base, _ = validators
    doc = export(CLEAN)
    doc["paths"][0]["steps"][0]["step"]["timestamp"] = "2026-08-03T14:20:04"  # no offset: not RFC 3339
    assert not base.is_valid(doc)


def test_clean_session_steps(validators):
    doc = export(CLEAN)
    (p,) = doc["paths"]
    rows = [(s["step"]["id"], s["step"]["actor"], s["step"]["timestamp"],
             [(v["structural"]["type"], v["structural"].get("role") or v["structural"].get("entry_type")
               or v["structural"].get("operation")) for v in s["change"].values()]) for s in p["steps"]]
    ev, ap = "conversation.event", "conversation.append"
    assert rows == [
        ("s1", "tool:harvey", "2026-08-03T14:20:04Z", [(ev, "context-recall")]),
        ("t1.user", "human:margot", "2026-08-03T14:20:31Z", [(ap, "user")]),
        ("t1.forwarding", "tool:harvey", "2026-08-03T14:20:31Z", [(ap, "system")]),
        ("t1.tool1", "tool:harvey", "2026-08-03T14:20:31Z", [(ap, "system")]),  # [[tool:]]: the harness's calls
        ("t1.reply", "agent:qwen2.5-coder", "2026-08-03T14:20:31Z", [(ap, "assistant")]),
        ("t1.action1", "tool:harvey", "2026-08-03T14:20:31Z", [(ap, "system")]),
        ("t1.action2", "human:margot", "2026-08-03T14:20:31Z", [(ap, "user")]),
        ("t2.user", "human:margot", "2026-08-03T14:22:10Z", [(ap, "user")]),
        ("t2.forwarding", "tool:harvey", "2026-08-03T14:22:10Z", [(ap, "system")]),
        ("t2.tool1", "tool:harvey", "2026-08-03T14:22:10Z", [(ap, "system")]),
        ("t2.reply", "agent:qwen2.5-coder", "2026-08-03T14:22:10Z", [(ap, "assistant")]),
        ("s4", "tool:harvey", "2026-08-03T14:23:02Z", [(ev, "chunk-analysis")]),
        ("t3.user", "human:margot", "2026-08-03T14:23:40Z", [(ap, "user")]),
        ("t3.forwarding", "tool:harvey", "2026-08-03T14:23:40Z", [(ap, "system")]),
        ("t3.tool1", "tool:harvey", "2026-08-03T14:23:40Z", [(ap, "system")]),
        ("t3.reply", "agent:qwen2.5-coder", "2026-08-03T14:23:40Z", [(ap, "assistant")]),
        ("s6", "tool:harvey", "2026-08-03T14:24:15Z", [(ev, "shell")]),
        ("t4.user", "human:margot", "2026-08-03T14:25:01Z", [(ap, "user")]),
        ("t4.forwarding", "tool:harvey", "2026-08-03T14:25:01Z", [(ap, "system")]),
        ("t4.reply", "agent:devstral", "2026-08-03T14:25:01Z", [(ap, "assistant")]),
        ("t5.user", "human:margot", "2026-08-03T14:26:30Z", [(ap, "user")]),
        ("t5.forwarding", "tool:harvey", "2026-08-03T14:26:30Z", [(ap, "system")]),
        ("t5.reply", "agent:lighthouse", "2026-08-03T14:26:30Z", [(ap, "assistant")]),
        ("s9", "tool:harvey", "2026-08-03T14:27:05Z", [(ev, "agent-mode")]),
        ("s9.write1", "tool:harvey", "2026-08-03T14:27:05Z", [("file.write", "write")]),
        ("s9.write2", "tool:harvey", "2026-08-03T14:27:05Z", [("file.write", "skipped")]),
        ("s9.write3", "tool:harvey", "2026-08-03T14:27:05Z", [("file.write", "aborted")]),
        ("s10", "tool:harvey", "2026-08-03T14:28:00Z", [(ev, "skill")]),
        ("t6.user", "human:margot", "2026-08-03T14:29:00Z", [(ap, "user")]),
        ("t6.reply", "tool:harvey", "2026-08-03T14:29:00Z", [(ap, "system")]),
        ("t7.user", "human:margot", "2026-08-03T14:29:40Z", [(ap, "user")]),
        ("t7.reply", "tool:harvey", "2026-08-03T14:29:40Z", [(ap, "system")]),
        ("s13.pipeline1", "tool:harvey", "2026-08-03T14:30:05Z", [(ev, "pipeline")]),
    ]
    steps = {s["step"]["id"]: s for s in p["steps"]}
    reply = next(iter(steps["t1.reply"]["change"].values()))["structural"]
    calls = next(iter(steps["t1.tool1"]["change"].values()))["structural"]
    assert (calls["role"], calls["text"], steps["t1.tool1"]["meta"]) == ("system", "", {
        "timestamp_from": "s2", "character": "HARVEY"})
    assert calls["tool_uses"] == [
        {"id": "t1.tool1", "name": "search_notes", "input": {"query": "retro — action items", "limit": 5},
         "category": "file_search", "actor": "tool:harvey", "result": {"content": "ok", "is_error": False}},
        {"id": "t1.tool2", "name": "run_shell", "input": {"cmd": "make test"}, "category": "shell",
         "actor": "tool:harvey", "result": {"content": "exit status 2", "is_error": True}},
        {"id": "t1.tool3", "name": "write_file",
         "input": {"path": "wiki/retro.md", "content": "Linked from [[Retro Index]]."}, "category": "file_write",
         "actor": "tool:harvey", "result": {"content": "ok", "is_error": False}},
    ]
    assert "tool_uses" not in reply  # the harness ran those calls, not the model
    devstral = next(iter(steps["t4.reply"]["change"].values()))["structural"]  # [[DEVSTRAL.tool:]]: its own
    assert [(u["id"], u["actor"]) for u in devstral["tool_uses"]] == [("t4.tool1", "agent:devstral"),
                                                                       ("t4.tool2", "agent:devstral")]
    assert reply["token_usage"] == {"input_tokens": 2412, "output_tokens": 186}
    assert reply["text"].startswith("## July retro\n\nThe team agreed") and reply["text"].endswith("test_ebb_window\n```")
    assert "token_usage" not in next(iter(steps["t5.reply"]["change"].values()))["structural"]  # EXT: no stats
    assert steps["s9.write2"]["change"] == {"docs/announce.txt": {"structural": {
        "type": "file.write", "operation": "skipped", "status": "skipped", "detail": "cannot backup existing file"}}}
    shell = next(iter(steps["s6"]["change"].values()))["structural"]
    assert [(s["actor"], s["text"]) for s in shell["speeches"]][0] == ("human:margot", "! git log --oneline -3")
    assert [n["id"] for n in shell["notes"]] == ["s6.shell1", "s6.model-switch1"]
    chunk = next(iter(steps["s4"]["change"].values()))["structural"]
    assert [(s["actor"], s["text"][:20]) for s in chunk["speeches"]] == [
        ("agent:qwen2.5-coder", "Entries from March: "), ("tool:harvey", "[chunk 2 failed: mod"),
        ("tool:harvey", "Synthesizing results"), ("agent:qwen2.5-coder", "The log records two ")]
    meta = p["meta"]
    assert meta["kind"] == "https://toolpath.net/kinds/agent-coding-session/v1.2.0"
    assert meta["source"] == "harvey" and meta["producer"]["name"] == "fountain-audit"
    assert meta["files_changed"] == ["docs/CHANGES.md"]
    assert meta["actors"] == {
        "agent:devstral": {"name": "DEVSTRAL", "model": "devstral:24b", "provider": "ollama"},
        "agent:lighthouse": {"name": "LIGHTHOUSE"},
        "agent:qwen2.5-coder": {"name": "QWEN2.5-CODER", "model": "qwen2.5-coder:7b", "provider": "ollama"},
        "human:margot": {"name": "MARGOT"},
        "tool:changelog-check": {"name": "CHANGELOG-CHECK"},
        "tool:harvey": {"name": "HARVEY"},
        "tool:shell": {"name": "SHELL"},
    }
    assert p["path"]["base"] == {"uri": "file:///home/margot/src/tidewater"}
    assert_valid(validators, doc)


def test_tool_use_ids_are_the_dump_ids():
    doc = export(CLEAN)
    uses = [(u["id"], u["name"]) for s in doc["paths"][0]["steps"] for c in s["change"].values()
            for u in c["structural"].get("tool_uses", [])]
    r = CliRunner().invoke(main, ["dump", str(CLEAN)])
    assert uses == [(t["id"], t["name"]) for t in json.loads(r.stdout)["records"]]
    assert len(uses) == 7


def test_a_model_that_cannot_be_an_id_is_agent_unknown_with_its_name_kept(tmp_path, validators):
    f = tmp_path / "s.spmd"
    f.write_text("Title: Harvey Session\nAuthor: IVO\n\nFADE IN:\n\n"
                 "INT. HARVEY AND IVO TALKING 2026-01-02 03:04:05\n\n"
                 "Harvey and IVO are in chat mode. Model: LLAMA/3. Workspace: /w.\n\n"
                 "IVO\nhi\n\nHARVEY\nForwarding to LLAMA/3.\n\nLLAMA/3\nhello\n\nTHE END.\n", encoding="utf-8")
    doc = export(f)
    assert_valid(validators, doc)
    p = doc["paths"][0]
    assert [s["step"]["actor"] for s in p["steps"]] == ["human:ivo", "tool:harvey", "agent:unknown"]
    assert p["meta"]["actors"]["agent:unknown"] == {"name": "LLAMA/3"}


def test_no_timestamp_is_an_error_unless_a_fallback_is_chosen(tmp_path):
    f = tmp_path / "memo.spmd"
    f.write_text("Title: Harvey Session\n\nFADE IN:\n\nINT. MEMORY - NOTES\n\nA note.\n", encoding="utf-8")
    r = run("--to", "toolpath", str(f))
    assert r.exit_code == 2
    assert r.stderr == (f"fountain-audit: error: {f}:5:1: no scene heading has a timestamp, so the session has no "
                        "time; pass --fallback-time TIME to export it with an explicit time\n")
    doc = export(f, extra=("--fallback-time", "2026-05-04T10:00:00+02:00"))
    (step,) = doc["paths"][0]["steps"]
    assert step["step"]["timestamp"] == "2026-05-04T10:00:00+02:00"
    assert step["meta"]["timestamp_from"] == "fallback"
    assert doc["paths"][0]["meta"]["harvey"]["timestamps"]["from"] == "fallback (--fallback-time)"
    assert run("--to", "toolpath", "--fallback-time", "yesterday", str(f)).exit_code == 2


def test_no_timestamp_points_at_the_first_scene_heading_or_nowhere(tmp_path):
    """The error said 1:1 (the title page) whatever the file: it points at the first scene
    heading (line 5 above, line 7 here, after a prologue note), and a file with no scene
    heading at all gets no line and column."""
    f = tmp_path / "late.spmd"
    f.write_text("Title: Harvey Session\n\nFADE IN:\n\n[[model switch: m]]\n\nINT. MEMORY - NOTES\n\nA note.\n",
                 encoding="utf-8")
    g = tmp_path / "noscene.spmd"
    g.write_text("Title: Harvey Session\n\nFADE IN:\n\n[[recall: p1 (workspace_profile) — score 1.00]]\n",
                 encoding="utf-8")
    r = run("--to", "toolpath", str(f), str(g))
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        f"fountain-audit: error: {f}:7:1: no scene heading has a timestamp, so the session has no time; "
        "pass --fallback-time TIME to export it with an explicit time",
        f"fountain-audit: error: {g}: no scene heading has a timestamp, so the session has no time; "
        "pass --fallback-time TIME to export it with an explicit time"]


def test_utc_offset_and_scenes_without_a_timestamp(tmp_path):
    f = tmp_path / "s.spmd"
    f.write_text("Title: Harvey Session\nAuthor: IVO\n\nFADE IN:\n\n"
                 "INT. HARVEY AND IVO TALKING 2026-01-02 03:04:05\n\nIVO\nhi\n\n"
                 "INT. MEMORY - LATER\n\nSomething.\n\nTHE END.\n", encoding="utf-8")
    doc = export(f, extra=("--utc-offset", "+02:00"))
    steps = doc["paths"][0]["steps"]
    assert [(s["step"]["id"], s["step"]["timestamp"], s["meta"]["timestamp_from"]) for s in steps] == [
        ("t1.user", "2026-01-02T03:04:05+02:00", "s1"), ("s2", "2026-01-02T03:04:05+02:00", "s1")]
    assert doc["paths"][0]["meta"]["harvey"]["timestamps"]["utc_offset"] == "+02:00"
    assert run("--to", "toolpath", "--utc-offset", "CEST", str(f)).exit_code == 2


def test_two_exports_are_byte_identical_and_several_files_make_one_graph(tmp_path):
    a = run("--to", "toolpath", str(CLEAN))
    b = run("--to", "toolpath", str(CLEAN))
    assert a.stdout_bytes == b.stdout_bytes
    other = SAMPLES / "violations" / "T103-several-exchanges-in-scene.spmd"
    doc = export(CLEAN, other)
    assert [p["meta"]["harvey"]["file"] for p in doc["paths"]] == [str(CLEAN), str(other)]
    assert doc["graph"]["id"] != json.loads(a.stdout)["graph"]["id"]
    out = tmp_path / "g.json"
    r = run("--to", "toolpath", "-o", str(out), str(CLEAN))
    assert r.exit_code == 0 and r.stdout == "" and r.stderr == f"fountain-audit: wrote {out}\n"  # (as report -o)
    assert out.read_bytes() == a.stdout_bytes
    out = tmp_path / "new" / "dir" / "g.json"  # missing folders are made (as lint -o and report -o)
    r = run("--to", "toolpath", "-o", str(out), str(CLEAN))
    assert r.exit_code == 0 and out.read_bytes() == a.stdout_bytes


def test_directories_and_stdin(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.spmd").write_bytes(CLEAN.read_bytes())
    (d / "b.txt").write_text("not a session")
    doc = export(d)
    assert [p["meta"]["harvey"]["file"] for p in doc["paths"]] == [str(d / "a.spmd")]
    r = run("--to", "toolpath", "--stdin-filename", "x.spmd", "-", input=CLEAN.read_bytes())
    assert r.exit_code == 0
    assert json.loads(r.stdout)["paths"][0]["meta"]["harvey"]["file"] == "x.spmd"
    assert json.loads(r.stdout)["paths"][0]["path"]["id"] == doc["paths"][0]["path"]["id"]


def test_redact_paths():
    r = run("--to", "toolpath", "--redact-paths", str(CLEAN))
    assert r.exit_code == 0
    assert "/home/margot" not in r.stdout
    doc = json.loads(r.stdout)
    assert doc["paths"][0]["path"]["base"] == {"uri": "file://<workspace>"}
    assert "/home/margot/src/tidewater" in run("--to", "toolpath", str(CLEAN)).stdout


def test_usage_errors():
    assert run(str(CLEAN)).exit_code == 2
    assert run("--to", "toolpath", "--endpoint", "http://127.0.0.1:9/v1/traces", str(CLEAN)).exit_code == 2
    r = run("--to", "toolpath", str(ROOT / "no-such-file.spmd"), str(CLEAN))
    assert r.exit_code == 2 and "no such file or directory" in r.stderr
    assert len(json.loads(r.stdout)["paths"]) == 1


@pytest.mark.parametrize("name, category", [
    ("read_file", "file_read"), ("write_file", "file_write"), ("editFile", "file_write"),
    ("list_files", "file_search"), ("grep", "file_search"), ("run_shell", "shell"), ("bash", "shell"),
    ("web_search", "network"), ("fetch_url", "network"), ("delegate_task", "delegation"),
    ("add_memory", None), ("", None), (None, None)])
def test_tool_category(name, category):
    assert tool_category(name) == category


def test_legacy_stats_note_gives_token_usage():
    doc = export(SAMPLES / "violations" / "L102-legacy-stats-note.spmd")
    usage = [c["structural"]["token_usage"] for s in doc["paths"][0]["steps"] for c in s["change"].values()
             if "token_usage" in c["structural"]]
    assert usage == [{"input_tokens": 1022, "output_tokens": 19}]  # [[stats: 1022 prompt + 19 reply tokens · 1.65s …]]


def test_export_refuses_to_write_over_its_input(tmp_path):
    from click.testing import CliRunner

    from fountain_audit.cli import main as cli_main
    f = tmp_path / "a.spmd"
    original = (Path(__file__).parents[1] / "samples" / "clean-session.spmd").read_text()
    f.write_text(original)
    r = CliRunner().invoke(cli_main, ["export", "--to", "toolpath", str(f), "-o", str(f)])
    assert r.exit_code == 2 and "refusing to write the export over an input file" in r.output
    assert f.read_text() == original


def test_a_plain_screenplay_in_a_folder_is_skipped_with_a_warning(tmp_path):
    (tmp_path / "play.fountain").write_text("INT. KITCHEN - DAY\n\nMAYA\nHello.\n", encoding="utf-8")
    (tmp_path / "s.spmd").write_text((ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    r = run("--to", "toolpath", str(tmp_path))
    assert r.exit_code == 0
    assert r.stderr == (f"fountain-audit: warning: {tmp_path / 'play.fountain'}: a plain screenplay (no Harvey "
                        "scene or note), not a session: skipped\n")
    assert [p["meta"]["harvey"]["file"] for p in json.loads(r.stdout)["paths"]] == [str(tmp_path / "s.spmd")]
    named = run("--to", "toolpath", str(tmp_path / "play.fountain"))  # named: exported, so no time is an error
    assert named.exit_code == 2 and "no scene heading has a timestamp" in named.stderr


@pytest.mark.parametrize("spelling", ["./{d}/play.fountain", "{d}/./play.fountain", "{d}/../{d}/play.fountain",
                                      "{d} {d}/play.fountain", "link.fountain"])
def test_a_plain_screenplay_named_however_spelt_is_exported_not_skipped(tmp_path, monkeypatch, spelling):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "play.fountain").write_text("INT. KITCHEN - DAY\n\nMAYA\nHello.\n", encoding="utf-8")
    (tmp_path / "link.fountain").symlink_to(tmp_path / "d" / "play.fountain")
    r = run("--to", "toolpath", *spelling.format(d="d").split())
    assert r.exit_code == 2 and "skipped" not in r.stderr
    assert ":1:1: no scene heading has a timestamp, so the session has no time" in r.stderr


@pytest.mark.parametrize("heading, kind", [
    ("INT. SHELL 2026-01-01 10:00:00", "shell"), ("INT. AGENT MODE 2026-01-01 10:00:00", "agent-mode"),
    ("INT. SKILL review 2026-01-01 10:00:00", "skill"), ("INT. CONTEXT RECALL 2026-01-01 10:00:00", "context-recall"),
    ("INT. CHUNK ANALYSIS - a.py 2026-01-01 10:00:00", "chunk-analysis"), ("INT. MEMORY", "memory"),
    ("INT. HAND-OFF", "hand-off"), ("INT. KITCHEN - DAY", "other")])
def test_a_tool_note_in_a_scene_without_turns_is_in_its_event(heading, kind, tmp_path, validators):
    # it crashed (AttributeError: 'ToolCallRecord' object has no attribute 'kind')
    f = tmp_path / "s.spmd"
    f.write_text("Title: t\nAuthor: A\n\nFADE IN:\n\nINT. SHELL 2026-01-01 09:00:00\n\n"
                 f"{heading}\n\n[[tool: read_file({{\"path\":\"a\"}}) — ok]]\n\n[[write: b.py — ok]]\n\nTHE END.\n",
                 encoding="utf-8")
    r = run("--to", "toolpath", str(f))
    assert r.exit_code == 0 and r.stderr == ""
    doc = json.loads(r.stdout)
    assert_valid(validators, doc)
    steps = doc["paths"][0]["steps"]
    assert [s["step"]["id"] for s in steps] == ["s1", "s2", "s2.write1"]
    (event,) = steps[1]["change"].values()
    assert event["structural"] == {
        "type": "conversation.event", "entry_type": kind, "event_source_id": "s2", "heading": heading,
        "notes": [{"id": "s2.tool1", "kind": "tool", "body": 'tool: read_file({"path":"a"}) — ok'}],
        "tool_uses": [{"id": "s2.tool1", "name": "read_file", "input": {"path": "a"}, "category": "file_read",
                       "actor": "tool:harvey", "result": {"content": "ok", "is_error": False}}]}
    assert steps[2]["change"] == {"b.py": {"structural": {"type": "file.write", "operation": "write",
                                                          "status": "ok"}}}
    assert steps[2]["step"]["timestamp"] == "2026-01-01T09:00:00Z" if kind in ("memory", "hand-off", "other") \
        else "2026-01-01T10:00:00Z"


def test_output_dash_is_standard_output(tmp_path, monkeypatch):
    """`-o -` wrote the document to a file named '-'."""
    monkeypatch.chdir(tmp_path)
    plain = run("--to", "toolpath", str(CLEAN))
    dash = run("--to", "toolpath", "-o", "-", str(CLEAN))
    assert (dash.exit_code, dash.stdout, dash.stderr) == (0, plain.stdout, "")
    assert json.loads(dash.stdout)["paths"][0]["meta"]["harvey"]["file"] == str(CLEAN)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("target", ["toolpath", "otlp-json"])
def test_nothing_read_writes_no_document(tmp_path, target):
    """No readable session: exit 2 with the message, and no empty document, neither on
    standard output nor in -o (an existing file there is left as it was)."""
    missing = str(tmp_path / "nope.spmd")
    r = run("--to", target, missing)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"fountain-audit: error: {missing}: no such file or directory\n"
    out = tmp_path / "x.json"
    assert run("--to", target, missing, "-o", str(out)).exit_code == 2 and not out.exists()
    out.write_text("previous\n")
    (tmp_path / "empty.spmd").write_text("")
    for args in ([missing], [str(tmp_path / "empty.spmd")]):
        r = run("--to", target, *args, "-o", str(out))
        assert r.exit_code == 2 and r.stderr.startswith("fountain-audit: error: ")
        assert out.read_text() == "previous\n"


def test_an_invalid_heading_timestamp_is_named_where_it_is(tmp_path):
    f = tmp_path / "badts.spmd"
    f.write_text("Title: A\nAuthor: ALICE\n\nFADE IN:\n\nINT. MEMORY - NOTES\n\nA note.\n\n"
                 "INT. HARVEY AND ALICE TALKING 2026-13-45 25:61:00\n\nALICE\nhi\n\nTHE END.\n", encoding="utf-8")
    r = run("--to", "toolpath", str(f))
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        f"fountain-audit: error: {f}:10:1: no scene heading has a valid timestamp (this one's, "
        "'2026-13-45 25:61:00', is no date and time), so the session has no time; "
        "pass --fallback-time TIME to export it with an explicit time"]


@pytest.mark.parametrize("target", ["toolpath", "otlp-json"])
def test_a_folder_whose_files_are_all_skipped_exits_2_and_writes_nothing(tmp_path, target):
    d = tmp_path / "plays"
    d.mkdir()
    (d / "a.fountain").write_text("INT. HOUSE - DAY\n\nAna waits.\n", encoding="utf-8")
    (d / "b.spmd").write_text("", encoding="utf-8")
    out = tmp_path / "out.json"
    r = run("--to", target, str(d), "-o", str(out))
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        f"fountain-audit: warning: {d / 'a.fountain'}: a plain screenplay (no Harvey scene or note), not a session: "
        "skipped",
        f"fountain-audit: warning: {d / 'b.spmd'}: empty: nothing to export, skipped",
        f"fountain-audit: error: no session to export in {d}: 2 files found, none a Harvey session "
        "(see the warnings above)"]
    assert not out.exists()


def test_harvey_is_no_actor_of_a_file_that_does_not_record_it(tmp_path, validators):
    """Big Fish (a plain screenplay, no HARVEY anywhere) gave every step `tool:harvey` and listed
    it in meta.actors. What has no character of its own is the file's recorder's: in a plain
    screenplay, which records no harness, its title page's Author (outside the id grammar:
    human:user, named as written)."""
    doc = export(shared_path("corpus", "fountain", "screenplain__Big-Fish.fountain"),
                 extra=("--fallback-time", "2026-01-01T00:00:00Z"))
    assert_valid(validators, doc)
    (p,) = doc["paths"]
    # one step per scene heading (192, as `dump --ast` counts them; a dialogue swallowed every
    # heading after it, as a model's reply may hold headings in a Harvey file: 15 steps)
    assert {s["step"]["actor"] for s in p["steps"]} == {"human:user"} and len(p["steps"]) == 192
    assert p["meta"]["actors"]["human:user"] == {"name": "John August"}
    assert [a for a in p["meta"]["actors"] if a.startswith("tool:")] == []
    # no Author: the name says so, nothing is made up
    f = tmp_path / "play.fountain"
    f.write_text("INT. KITCHEN - DAY\n\nMAYA\nHello.\n", encoding="utf-8")
    (p,) = export(f, extra=("--fallback-time", "2026-01-01T00:00:00Z"))["paths"]
    assert [s["step"]["actor"] for s in p["steps"]] == ["human:user"]
    # a character's lines are its author's too (MAYA was `agent:maya`: a model, which nothing says she is)
    assert p["meta"]["actors"] == {"human:user": {"name": "not recorded"}}
    speeches = [sp for s in p["steps"] for v in s["change"].values() for sp in v["structural"].get("speeches", [])]
    assert speeches == [{"actor": "human:user", "character": "MAYA", "parentheticals": [], "text": "Hello."}]
    # a Harvey file keeps the documented behaviour: the recorder's scenes and notes are tool:harvey
    (p,) = export(shared_path("corpus", "harvey", "spec", "ff-v1.3-context-recall-reference.fragment.fountain"),
                  extra=("--fallback-time", "2026-01-01T00:00:00Z"))["paths"]
    assert [(s["step"]["id"], s["step"]["actor"]) for s in p["steps"]] == [("s1", "tool:harvey")]


def test_a_hand_off_headings_rfc3339_label_is_its_time(tmp_path, validators):
    """`INT. HAND-OFF - 2026-07-01T16:04:05Z` (harvey.go WriteHandoff writes the label as an
    RFC 3339 time) was read as no time: the export failed with "no scene heading has a timestamp"
    (exit 2). The label is the scene's time, as written, with its own offset (--utc-offset is
    not applied to it)."""
    handoff = shared_path("corpus", "harvey", "other", "handoff-reconstructed.spmd")
    doc = export(handoff, extra=("--utc-offset", "+05:00"))
    assert_valid(validators, doc)
    (p,) = doc["paths"]
    assert [(s["step"]["id"], s["step"]["timestamp"], s["meta"]["timestamp_from"]) for s in p["steps"]] == [
        ("s1", "2026-07-01T16:04:05Z", "s1")]
    assert p["meta"]["harvey"]["timestamps"] == {"from": "scene headings", "utc_offset": "+05:00",
                                                 "utc_offset_recorded": True}
    f = tmp_path / "h.spmd"
    f.write_text("INT. HAND-OFF - 2026-07-01T16:04:05+02:00\n\nHARVEY\nBye.\n", encoding="utf-8")
    (p,) = export(f)["paths"]
    assert p["steps"][0]["step"]["timestamp"] == "2026-07-01T16:04:05+02:00"
    # a label that is no time (or no RFC 3339 time: no seconds) gives none; nothing is made up
    for label in ("SUMMARY", "2026-07-01T16:04Z", "2026-07-01T16:04:05"):
        f.write_text(f"INT. HAND-OFF - {label}\n\nHARVEY\nBye.\n", encoding="utf-8")
        r = run("--to", "toolpath", str(f))
        assert r.exit_code == 2 and ":1:1: no scene heading has a timestamp, so the session has no time" in r.stderr


def test_a_reply_under_harveys_cue_keeps_the_turns_model(tmp_path, validators):
    """`Model: llama3:latest` and HARVEY answering directly: OTLP named `chat llama3:latest` but
    the toolpath document named the model nowhere. It goes on the reply step's meta; the step's
    actor stays tool:harvey and no agent actor is made up."""
    f = tmp_path / "m.spmd"
    f.write_text("Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-07-01 10:00:00\n\n"
                 "Harvey and ALICE are in chat mode. Model: llama3:latest. Workspace: /tmp/ws.\n\nALICE\nHi.\n\n"
                 "HARVEY\nHello.\n\nTHE END.\n", encoding="utf-8")
    doc = export(f)
    assert_valid(validators, doc)
    (p,) = doc["paths"]
    assert p["meta"]["actors"] == {"human:alice": {"name": "ALICE"}, "tool:harvey": {"name": "HARVEY"}}
    assert [(s["step"]["id"], s["step"]["actor"], s["meta"].get("model")) for s in p["steps"]] == [
        ("t1.user", "human:alice", None), ("t1.reply", "tool:harvey", "llama3:latest")]


@pytest.mark.parametrize("heading", ["INT. HAND-OFF - 2026-13-14T10:04:05+02:00",
                                     "INT. HARVEY AND ALICE TALKING 2026-13-14 10:04:05"])
def test_an_impossible_heading_time_is_no_time_and_the_source_is_named(tmp_path, heading):
    """An impossible hand-off time is treated as an impossible chat time: the scene takes the
    previous heading's time and says whose (meta.timestamp_from), never a time of its own."""
    f = tmp_path / "h.spmd"
    f.write_text(f"INT. HARVEY AND ALICE TALKING 2026-07-01 10:00:00\n\nALICE\nHi.\n\nHARVEY\nHello.\n\n{heading}\n\n"
                 "HARVEY\nBye.\n", encoding="utf-8")
    (p,) = export(f)["paths"]
    assert [(s["step"]["timestamp"], s["meta"]["timestamp_from"]) for s in p["steps"]][-1] == (
        "2026-07-01T10:00:00Z", "s1")


def test_the_toolpath_text_is_made_step_by_step_with_the_same_bytes():
    # (user trial, as otlp-json: a 3.6 MB session's Graph was built as objects, then as one string)
    import sys
    import tracemalloc

    from fountain_audit.export import render
    from fountain_audit.export.common import SessionExport
    from fountain_audit.export.timing import Clock
    from fountain_audit.export.toolpath import graph_of, graph_text
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse
    from fountain_audit.privacy.redact import Redactor
    from tests.conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench
    text = bench.generate_session(300_000) + "\ufeff\udcff \x85 \u202e"  # (a lone surrogate, C1, bidi)
    sessions = [SessionExport("g.spmd", text, build_session(parse(text)), Clock()) for _ in range(2)]
    tracemalloc.start()
    try:
        pieces = graph_text(sessions)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    out = b"".join(pieces)
    assert out == render(graph_of(sessions))[1].encode("utf-8")
    assert len(out) > 3_000_000
    assert peak < 2.5 * len(out)  # (1.6x: the pieces and the frame; the Graph of objects and its text: 7.4x)
    red = Redactor(secrets=True, paths=True)
    red.learn(sessions[0].session, text)
    assert b"".join(graph_text(sessions[:1], red)) == render(graph_of(sessions[:1]), red)[1].encode("utf-8")


HEADER = ("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: MARGOT\n\n"
          "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n"
          "Harvey and MARGOT are in chat mode. Model: QWEN. Workspace: /w.\n\n")


def _rows(p):
    out = []
    for s in p["steps"]:
        (c,) = s["change"].values()
        out.append((s["step"]["id"], s["step"]["actor"], c["structural"].get("role"),
                    [(u["id"], u["actor"]) for u in c["structural"].get("tool_uses", [])]))
    return out


def _valid_path(f, validators, body):
    """The one Path of ``HEADER + body`` written to ``f`` and exported, checked against both schemas."""
    f.write_text(HEADER + body, encoding="utf-8")
    doc = export(f)
    assert_valid(validators, doc)
    (p,) = doc["paths"]
    return p


def test_a_tool_call_is_on_a_step_of_the_actor_the_file_records(tmp_path, validators):
    """A turn without reply gave every call to the forwarded-to model (`[[margot.tool:]]`, which
    dump calls human:margot, became agent:qwen; a `[[tool:]]` note, the harness's, too); with a
    reply, every call was in the reply step's tool_uses, and meta.actors lacked tool:shell and
    agent:unknown (adversarial trial). Each run of calls by an actor other than the reply's is
    now a step of that actor, in file order; each tool_use names its actor."""
    f = tmp_path / "tp.spmd"
    p = _valid_path(f, validators, 'MARGOT\nList files.\n\nHARVEY\nForwarding to QWEN.\n\n'
                    '[[margot.tool: run({"cmd":"rm -rf build"}) — ok]]\n\n[[tool: ls() — ok]]\n\n'
                    '[[pipeline stopped: no reply]]\n')
    assert _rows(p) == [
        ("t1.user", "human:margot", "user", []), ("t1.forwarding", "tool:harvey", "system", []),
        ("t1.tool1", "human:margot", "user", [("t1.tool1", "human:margot")]),
        ("t1.tool2", "tool:harvey", "system", [("t1.tool2", "tool:harvey")]),
        ("t1.notes", "tool:harvey", "system", [])]  # the turn's notes: the recorder's, not the model's
    assert [s["meta"] for s in p["steps"][2:]] == [
        {"timestamp_from": "s1", "character": "margot", "reply": "not recorded"},
        {"timestamp_from": "s1", "character": "HARVEY", "reply": "not recorded"},
        {"timestamp_from": "s1", "reply": "not recorded"}]
    assert p["meta"]["actors"] == {"human:margot": {"name": "MARGOT"}, "tool:harvey": {"name": "HARVEY"}}

    p = _valid_path(f, validators, 'MARGOT\nList files.\n\nHARVEY\nForwarding to QWEN.\n\n[[tool: ls() — ok]]\n\n'
                    '[[tool: cat() — ok]]\n\n[[QWEN.tool: read_file() — ok]]\n\n[[margot.tool: run() — ok]]\n\n'
                    '[[shell.tool: run() — ok]]\n\n[[foo.tool: run() — error: no]]\n\n[[ſhell.tool: run() — ok]]\n\n'
                    'QWEN\nDone.\n\nTHE END.\n')
    assert _rows(p) == [
        ("t1.user", "human:margot", "user", []), ("t1.forwarding", "tool:harvey", "system", []),
        ("t1.tool1", "tool:harvey", "system", [("t1.tool1", "tool:harvey"), ("t1.tool2", "tool:harvey")]),
        # the reply's actor's call before other actors' steps: a step of its own, in file order (it
        # was in the reply step's tool_uses, whose first line then came before the steps ahead of it)
        ("t1.tool3", "agent:qwen", "assistant", [("t1.tool3", "agent:qwen")]),
        ("t1.tool4", "human:margot", "user", [("t1.tool4", "human:margot")]),
        ("t1.tool5", "tool:shell", "tool", [("t1.tool5", "tool:shell")]),
        # foo and ſhell (U+017F, which Unicode upper-cases to S): names the file does not identify
        ("t1.tool6", "agent:unknown", "assistant", [("t1.tool6", "agent:unknown"), ("t1.tool7", "agent:unknown")]),
        ("t1.reply", "agent:qwen", "assistant", [])]
    assert p["meta"]["actors"] == {
        "agent:qwen": {"name": "QWEN"}, "agent:unknown": {"name": "FOO, ſHELL"}, "human:margot": {"name": "MARGOT"},
        "tool:harvey": {"name": "HARVEY"}, "tool:shell": {"name": "SHELL"}}
    # dump and the OTLP spans say the same of each call
    dumped = json.loads(CliRunner().invoke(main, ["dump", str(f)]).stdout)["records"]
    assert [(r["id"], r["actor_ref"]) for r in dumped] == sorted(
        u for row in _rows(p) for u in row[3])


def _first_lines(p, text):
    """The first line each step of ``p`` records: its own element's (by its id) or a tool_use's."""
    lines = {r["id"]: r["span"]["line"] for r in json.loads(
        CliRunner().invoke(main, ["dump", "--records", "all", "-"], input=text).stdout)["records"]}
    for t in json.loads(CliRunner().invoke(main, ["dump", "--turns", "-"], input=text).stdout)["records"]:
        for sp in [t["user"], t["forwarding"], t["reply"], *t["actions"]]:
            if sp:
                lines[sp["id"]] = sp["span"]["line"]
    return [min([lines[sid]] + [lines[u] for u, _ in uses]) for sid, _, _, uses in _rows(p)]


def test_steps_are_in_file_order_when_actors_alternate(tmp_path, validators):
    """New-user trial: a reply's actor's call before a harness and a shell call rode on the reply
    step (whose first line then came before theirs), and a turn's [[write:]] notes came after all
    its prompts and answers. Each step now follows the one before it in the file."""
    f = tmp_path / "tp.spmd"
    body = ('MARGOT\nGo.\n\nHARVEY\nForwarding to QWEN.\n\n[[QWEN.tool: read_file() — ok]]\n\n'
            '[[tool: ls() — ok]]\n\n[[shell.tool: run() — ok]]\n\n[[QWEN.tool: read_file() — ok]]\n\n'
            'QWEN\nDone.\n\nHARVEY\nWrite a.txt?\n\nMARGOT\nyes\n\n[[write: a.txt — ok]]\n\n'
            'HARVEY\nWrite b.txt?\n\nMARGOT\nyes\n\n[[write: b.txt — ok]]\n\nTHE END.\n')
    p = _valid_path(f, validators, body)
    assert [(i, a, u) for i, a, _, u in _rows(p)] == [
        ("t1.user", "human:margot", []), ("t1.forwarding", "tool:harvey", []),
        ("t1.tool1", "agent:qwen", [("t1.tool1", "agent:qwen")]),
        ("t1.tool2", "tool:harvey", [("t1.tool2", "tool:harvey")]),
        ("t1.tool3", "tool:shell", [("t1.tool3", "tool:shell")]),
        ("t1.reply", "agent:qwen", [("t1.tool4", "agent:qwen")]),
        ("t1.action1", "tool:harvey", []), ("t1.action2", "human:margot", []), ("t1.write1", "tool:harvey", []),
        ("t1.action3", "tool:harvey", []), ("t1.action4", "human:margot", []), ("t1.write2", "tool:harvey", [])]
    first = _first_lines(p, HEADER + body)
    assert first == sorted(first) and len(set(first)) == len(first)


def test_a_loose_tool_note_names_its_actor_in_its_event(tmp_path, validators):
    f = tmp_path / "s.spmd"
    f.write_text(HEADER.replace("INT.", "[[margot.tool: ls() — ok]]\n\nINT.") + "MARGOT\nHi.\n\nTHE END.\n",
                 encoding="utf-8")  # a note before the first scene: outside every turn
    doc = export(f)
    assert_valid(validators, doc)
    (p,) = doc["paths"]
    step = p["steps"][0]
    assert (step["step"]["id"], step["step"]["actor"]) == ("s0.tool1", "tool:harvey")  # the recorder's event
    assert next(iter(step["change"].values()))["structural"]["tool_use"]["actor"] == "human:margot"
    assert p["meta"]["actors"] == {"human:margot": {"name": "MARGOT"}, "tool:harvey": {"name": "HARVEY"}}


@pytest.mark.parametrize("workspace, uri", [
    ("/home/margot/my proj#1", "file:///home/margot/my%20proj%231"),
    ("C:\\Users\\Bob Smith\\x", "file:///C:/Users/Bob%20Smith/x"),
    ("/home/J\u00fcrgen/src", "file:///home/J%C3%BCrgen/src"),
    ("/tmp/ws", "file:///tmp/ws"),
])
def test_the_base_uri_is_a_file_uri_and_redacted_whole(tmp_path, workspace, uri):
    """`file:///home/margot/my proj#1` and `file://C:\\Users\\…` are no URIs (adversarial trial,
    stop 33); the percent-encoded spelling is still replaced whole by --redact and --redact-paths."""
    f = tmp_path / "s.spmd"
    f.write_text("Title: T\nAuthor: MARGOT\n\nFADE IN:\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n"
                 f"Harvey and MARGOT are in chat mode. Model: MISTRAL. Workspace: {workspace}.\n\nMARGOT\nq\n\n"
                 "HARVEY\nForwarding to MISTRAL.\n\nMISTRAL\nr\n\nTHE END.\n", encoding="utf-8")
    assert export(f)["paths"][0]["path"]["base"] == {"uri": uri}
    for option in ("--redact", "--redact-paths"):
        r = run("--to", "toolpath", option, str(f))
        assert json.loads(r.stdout)["paths"][0]["path"]["base"] == {"uri": "file://<workspace>"}
        assert uri[8:] not in r.stdout

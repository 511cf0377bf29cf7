"""`fountain-audit diff A B` (fountain_audit.cli.diff.diff) and the fountain_audit.diff engine:
normalisation, alignment, exact changes in every format, the RFC 6902 patch (applied with
jsonpatch), exit codes, and a hypothesis property test (random edits are recovered)."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field

import jsonpatch
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import fountain_audit.diff
from fountain_audit.diff import differ, engine
from fountain_audit.diff import (DiffError, Options, diff_texts, json_patch, make_side, render_unified, word_diff)
from fountain_audit import dump as dump_module
from fountain_audit.cli.diff import diff as diff_cmd
from fountain_audit.diff.differ import Differ
from fountain_audit.diff.normalisation import normalise
from fountain_audit.privacy.redact import Redactor

from .conftest import ROOT, SHARED, shared_files


def run(*args, input=None):
    return CliRunner().invoke(diff_cmd, [str(a) for a in args], input=input)


def patched_dump(a, b, patch, options: Options = Options()):
    """A's ``dump --turns`` document (as it is) with ``patch`` applied, checked against B: once
    normalised (both sides' workspaces replaced), it is B's normalised document, so the patch
    gave every compared field B's value."""
    out = jsonpatch.apply_patch(a.document, patch)
    ws = () if options.workspace else [*dump_module.workspaces(a.session), *dump_module.workspaces(b.session)]
    assert normalise(out, None, options, Redactor(ws, secrets=False, homes=False)) == b.normalised
    return out


# --------------------------------------------------------------------------- the session template

HEAD = """Title: Harvey Session
Credit: Recorded by Harvey
Author: RSDOIEL
Date: {date} 09:00:00
Draft date: {date}
Model: PHI-MINI (llamafile)
Backend: llamafile


FADE IN:

[[model switch: phi-mini (llamafile) at {date} 09:00:01]]


INT. CONTEXT RECALL {date} 09:00:05

[[recall: workspace_profile_250928 (workspace_profile) — score 1.00]]


"""
SCENE = """
INT. HARVEY AND RSDOIEL TALKING {date} {time}

Harvey and RSDOIEL are in chat mode. Model: PHI-MINI. Workspace: {ws}.

{exchanges}
"""
EXCHANGE = """{rag}RSDOIEL
{prompt}

HARVEY
Forwarding to PHI-MINI.

{tools}PHI-MINI
{reply}

llamafile (phi-mini) · {tokens} reply + 1840 ctx · {secs}s · 16.9 tok/s

"""
TAIL = "\nTHE END.\n"


@dataclass
class T:
    """One turn of a generated session."""

    prompt: str
    reply: str
    tools: list[tuple[str, dict, str]] = field(default_factory=list)  # (name, arguments, status text)
    rag: bool = False
    group: int | None = None  # turns of one group share a scene (None: a scene of its own)


def render(turns: list[T], date: str = "2026-07-01", ws: str = "/home/user/project", seed: int = 0) -> str:
    """A recorder-shaped session of ``turns``; ``date``, ``ws`` and ``seed`` (stats numbers,
    times) vary only what the diff ignores by default."""
    scenes: list[list[str]] = []
    for k, t in enumerate(turns):
        tools = "".join(f"[[tool: {name}({json.dumps(args, separators=(',', ':')).replace('WS', ws)}) — {status}]]\n\n"
                        for name, args, status in t.tools)
        rag = "[[rag: 3 chunks from rag_store.db, top score 0.87]]\n\n[[rag-source: design.md]]\n\n" if t.rag else ""
        ex = EXCHANGE.format(rag=rag, prompt=t.prompt, tools=tools, reply=t.reply, tokens=100 + k + seed,
                             secs=f"{1 + k + seed}.5")
        if t.group is None or k == 0 or turns[k - 1].group != t.group:
            scenes.append([])
        scenes[-1].append(ex)
    body = "".join(SCENE.format(date=date, time=f"09:{10 + k % 50:02d}:{(7 * k + seed) % 60:02d}", ws=ws,
                                exchanges="".join(exs)) for k, exs in enumerate(scenes))
    return HEAD.format(date=date) + body + TAIL


def replay_pair() -> tuple[list[T], list[T]]:
    """A and its replay: same prompts; turn 2's run_shell now fails, a turn is added after
    it, turn 3's reply is reworded."""
    a = [
        T("Summarise the design doc.", "The design has three layers: parser, model and rules.",
          [("read_file", {"path": "WS/design.md"}, "ok")], rag=True),
        T("Build the project.", "The build succeeded.",
          [("run_shell", {"cmd": "go build ./..."}, "ok"), ("read_file", {"path": "WS/go.mod"}, "ok")]),
        T("Summarise the build log.", "The log shows two warnings about unused imports."),
    ]
    b = [
        a[0],
        T(a[1].prompt, a[1].reply,
          [("run_shell", {"cmd": "go build ./..."}, "error: exit status 1"), a[1].tools[1]]),
        T("Run the tests.", "All tests pass.", [("run_shell", {"cmd": "go test ./..."}, "ok")]),
        T(a[2].prompt, "The log shows two warnings about unused variables."),
    ]
    return a, b


@pytest.fixture
def pair(tmp_path):
    a, b = replay_pair()
    pa, pb = tmp_path / "a.spmd", tmp_path / "b.spmd"
    pa.write_text(render(a), encoding="utf-8")
    pb.write_text(render(b, date="2026-07-09", ws="/srv/replay/ws", seed=3), encoding="utf-8")
    return pa, pb


EXPECTED_UNIFIED = """\
--- {a}
+++ {b}
@@ -turn 2 +turn 2 @@ scene -3 +3: INT. HARVEY AND RSDOIEL TALKING 2026-07-09 09:11:10
~ tool run_shell: status ok → error (exit status 1)
@@ +turn 3 @@ scene +4: INT. HARVEY AND RSDOIEL TALKING 2026-07-09 09:12:17
+ turn 3 added: Run the tests.
+     RSDOIEL: Run the tests.
+     tool run_shell({{"cmd":"go test ./..."}}) — ok
+     PHI-MINI: All tests pass.
@@ -turn 3 +turn 4 @@ scene -4 +5: INT. HARVEY AND RSDOIEL TALKING 2026-07-09 09:13:24
~ reply changed (PHI-MINI): The log shows two warnings about unused [-imports-]{{+variables+}}.
3 turns changed (1 added, 0 removed, 0 moved, 2 modified), tool calls +1 -0 ~1, 1 new failure, 1 reply changed
"""


# --------------------------------------------------------------------------- the replay-style pair


def test_replay_pair_unified_exact(pair):
    pa, pb = pair
    r = run("--format", "unified", pa, pb)
    assert r.exit_code == 1, r.output
    assert r.stdout == EXPECTED_UNIFIED.format(a=pa, b=pb)
    assert r.stderr == ""


def test_replay_pair_auto_is_unified_off_a_terminal(pair):
    pa, pb = pair
    r = run(pa, pb)
    assert r.exit_code == 1
    assert r.stdout == EXPECTED_UNIFIED.format(a=pa, b=pb)


def test_replay_pair_rich(pair):
    pa, pb = pair
    plain = run("--format", "rich", "--no-color", pa, pb)
    assert plain.exit_code == 1
    assert plain.stdout == EXPECTED_UNIFIED.format(a=pa, b=pb)  # same lines, markers without colour
    coloured = run("--format", "rich", "--color", pa, pb)
    assert coloured.exit_code == 1
    out = coloured.stdout
    assert "\x1b[" in out and "[-" not in out
    stripped = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert "@@ -turn 2 +turn 2 @@ scene -3 +3: INT. HARVEY AND RSDOIEL TALKING" in stripped
    assert "The log shows two warnings about unused importsvariables." in stripped
    assert "\x1b[1;9;31mimports\x1b[0m" in out and "\x1b[1;4;32mvariables\x1b[0m" in out  # words highlighted
    assert stripped.rstrip().endswith("1 new failure, 1 reply changed")


def test_replay_pair_json_exact(pair):
    pa, pb = pair
    r = run("--format", "json", pa, pb)
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    assert doc["format_version"] == "1.3"
    assert doc["a"] == {"file": str(pa), "turns": 3, "scenes": 4}
    assert doc["b"] == {"file": str(pb), "turns": 4, "scenes": 5}
    assert doc["compared"] == {"timestamps": False, "stats": False, "workspace": False}
    assert doc["summary"] == {
        "differences": True, "changes": 3, "turns_a": 3, "turns_b": 4, "turns_changed": 3, "turns_added": 1,
        "turns_removed": 0, "turns_moved": 0, "turns_modified": 2, "tool_calls_added": 1, "tool_calls_removed": 0,
        "tool_calls_changed": 1, "new_failures": 1, "user_inputs_changed": 0, "replies_changed": 1,
        "model_changes": 0, "context_changes": 0, "note_changes": 0, "scene_changes": 0, "other_changes": 0}
    got = [(c["kind"], c["turn"]["a"], c["turn"]["b"], c["pointer"]["a"], c["pointer"]["b"]) for c in doc["changes"]]
    assert got == [
        ("tool-changed", 1, 1, "/records/1/tool_calls/0", "/records/1/tool_calls/0"),
        ("turn-added", None, 2, None, "/records/2"),
        ("reply-changed", 2, 3, "/records/2/reply/text", "/records/3/reply/text"),
    ]
    tool, added, reply = doc["changes"]
    assert tool["details"] == [{"field": "status", "before": "ok", "after": "error"},
                               {"field": "error", "before": None, "after": "exit status 1"}]
    assert tool["new_failures"] == 1 and tool["scene"] == {"a": 2, "b": 2}
    assert added["categories"] == ["turns", "tools", "replies"]
    assert added["after"]["user"] == {"character": "RSDOIEL", "text": "Run the tests."}
    assert added["after"]["tool_calls"] == ['run_shell({"cmd":"go test ./..."}) — ok']
    assert reply["words"] == [["=", "The log shows two warnings about unused "], ["-", "imports"],
                              ["+", "variables"], ["=", "."]]
    assert (reply["before"], reply["after"]) == ("The log shows two warnings about unused imports.",
                                                 "The log shows two warnings about unused variables.")


def test_replay_pair_patch_turns_a_into_b(pair):
    pa, pb = pair
    doc = json.loads(run("--format", "json", pa, pb).stdout)
    opts = Options()
    side_a = engine.read_side(str(pa), opts)
    side_b = engine.read_side(str(pb), opts)
    patched_dump(side_a, side_b, doc["patch"], opts)
    # minimal: the inserted turn is one add, the two changed turns a few replaces
    ops = [(o["op"], o["path"]) for o in doc["patch"]]
    assert ops == [("replace", "/records/1/tool_calls/0/status"), ("replace", "/records/1/tool_calls/0/error"),
                   ("replace", "/records/1/tool_calls/0/body"), ("replace", "/records/1/provenance/tools/0/status"),
                   ("replace", "/records/1/provenance/tools/0/error"), ("add", "/records/2"),
                   ("replace", "/records/3/reply/text")]


def _dump_turns(path) -> dict:
    from fountain_audit.cli import main  # the real `dump --turns`

    r = CliRunner().invoke(main, ["dump", "--turns", str(path)])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _scenes(text: str) -> list[str]:
    """``text`` cut before each scene heading: [title page, scene 1, scene 2, ...]."""
    return re.split(r"(?m)^(?=(?:INT|EXT)\. )", text)


def test_patch_applied_to_a_raw_dump_writes_no_placeholder(tmp_path):
    # (new-user trial: an `add` put the normalised turn into the raw document: "file": "<file>",
    # "id": null, "heading": "INT. HARVEY AND MARGOT TALKING <timestamp>")
    parts = _scenes((ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8"))
    assert [p.splitlines()[0] for p in parts[2:6]] == [
        "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31", "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:22:10",
        "INT. CHUNK ANALYSIS — HARBOUR-LOG.MD 2026-08-03 14:23:02", "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:23:40"]
    pa, pb = tmp_path / "a.spmd", tmp_path / "b.spmd"
    pa.write_text("".join(parts), encoding="utf-8")
    # B: the 14:23:40 turn moved first, the 14:22:10 one removed
    pb.write_text("".join([parts[0], parts[1], parts[5], parts[2], parts[4], *parts[6:]]), encoding="utf-8")
    r = run("--format", "json", pa, pb)
    assert r.exit_code == 1, r.output
    patch = json.loads(r.stdout)["patch"]
    raw_a, raw_b = _dump_turns(pa), _dump_turns(pb)
    assert [(o["op"], o["path"]) for o in patch] == [("add", "/records/0"), ("remove", "/records/2"),
                                                     ("remove", "/records/2")]
    assert patch[0]["value"] == raw_b["records"][0]  # B's turn as B's dump has it
    assert (patch[0]["value"]["file"], patch[0]["value"]["id"], patch[0]["value"]["scene"]["heading"]) == (
        str(pb), "t1", "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:23:40")
    out = jsonpatch.apply_patch(raw_a, patch)
    assert out["records"][0] == raw_b["records"][0]
    assert out["records"][1:] == raw_a["records"][:1] + raw_a["records"][3:]  # the others as they were
    assert len(out["records"]) == len(raw_b["records"]) == 6
    side_a, side_b = engine.read_side(str(pa)), engine.read_side(str(pb))
    patched_dump(side_a, side_b, patch)


def test_patch_patches_a_provenance_never_removes_it(tmp_path):
    # (a remote route made local: the patch removed /records/0/provenance from the raw document;
    # the provenance is patched field by field like the rest of the turn)
    text = ("Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\nEXT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
            "Harvey routing to QWEN2.5-CODER at ollama://192.168.1.2:11434. Workspace: /tmp/ws.\n\n"
            "ALICE\nhi\n\nQWEN2.5-CODER\nhello\n\nTHE END.\n")
    local = text.replace("EXT. ", "INT. ").replace("Harvey routing to QWEN2.5-CODER at ollama://192.168.1.2:11434.",
                                                   "Harvey and ALICE are in chat mode. Model: QWEN2.5-CODER.")
    for x, y in ((text, local), (local, text)):
        r = diff_texts(x, y, "a.spmd", "b.spmd")
        assert [(o["op"], o["path"]) for o in r.patch] == [
            ("replace", "/records/0/scene/kind"), ("replace", "/records/0/scene/heading"),
            ("replace", "/records/0/model"), ("replace", "/records/0/provenance/basis_reason"),
            ("replace", "/records/0/provenance/route/kind"), ("replace", "/records/0/provenance/route/heading"),
            ("replace", "/records/0/provenance/route/endpoint"), ("replace", "/records/0/provenance/route/url"),
            ("replace", "/records/0/provenance/model/scene_model")]
        assert r.patch[1]["value"] == r.patch[5]["value"] == y.split("\n")[5]  # as written, timestamp included
        out = patched_dump(r.a, r.b, r.patch)
        assert out["records"][0]["provenance"]["route"] == r.b.document["records"][0]["provenance"]["route"]
        assert out["records"][0]["span"] == r.a.document["records"][0]["span"]  # ignored: as it was


def test_hunk_headers_number_each_side(tmp_path):
    # (new-user trial: "@@ -turn 3 +turn 2 @@ scene 3: …" gave B's scene number, A's s5, next to
    # both turn numbers; a removed turn's "scene 7" was A's)
    parts = _scenes((ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8"))
    pa, pb = tmp_path / "a.spmd", tmp_path / "b.spmd"
    pa.write_text("".join(parts), encoding="utf-8")
    # B: turns 2 and 4 and the chunk analysis scene removed, turn 3's reply and the shell scene edited
    pb.write_text("".join([parts[0], parts[1], parts[2], parts[5].replace("both at low water.", "both at low tide."),
                           parts[6].replace("c0ffee1 Add release", "c0ffee1 Add the release"), *parts[8:]]),
                  encoding="utf-8")
    expected = [
        "@@ -turn 2 @@ scene -3: INT. HARVEY AND MARGOT TALKING 2026-08-03 14:22:10",
        "@@ -scene 4 @@ INT. CHUNK ANALYSIS — HARBOUR-LOG.MD 2026-08-03 14:23:02",
        "@@ -turn 3 +turn 2 @@ scene -5 +3: INT. HARVEY AND MARGOT TALKING 2026-08-03 14:23:40",
        "@@ -scene 6 +scene 4 @@ INT. SHELL 2026-08-03 14:24:15",
        "@@ -turn 4 @@ scene -7: INT. HARVEY AND MARGOT TALKING 2026-08-03 14:25:01",
    ]
    for fmt in ("unified", "rich"):
        r = run("--format", fmt, "--no-color", pa, pb)
        assert r.exit_code == 1, r.output
        assert [ln for ln in r.stdout.splitlines() if ln.startswith("@@")] == expected
    doc = json.loads(run("--format", "json", pa, pb).stdout)
    assert [(c["turn"], c["scene"]) for c in doc["changes"]] == [
        ({"a": 1, "b": None}, {"a": 2, "b": None}), ({"a": None, "b": None}, {"a": 3, "b": None}),
        ({"a": 2, "b": 1}, {"a": 4, "b": 2}), ({"a": None, "b": None}, {"a": 5, "b": 3}),
        ({"a": 3, "b": None}, {"a": 6, "b": None})]


def test_pointers_point_into_each_dump_turns_document(pair):
    from fountain_audit.cli import main  # the real `dump --turns`

    pa, pb = pair
    dumps = {}
    for p in pair:
        r = CliRunner().invoke(main, ["dump", "--turns", str(p)])
        assert r.exit_code == 0, r.output
        dumps[p] = json.loads(r.stdout)
    assert dumps[pa] == engine.read_side(str(pa)).document
    doc = json.loads(run("--format", "json", pa, pb).stdout)
    tool, added, reply = doc["changes"]
    at = jsonpatch.JsonPointer(tool["pointer"]["a"]).resolve(dumps[pa])
    bt = jsonpatch.JsonPointer(tool["pointer"]["b"]).resolve(dumps[pb])
    assert (at["name"], at["status"], bt["name"], bt["status"]) == ("run_shell", "ok", "run_shell", "error")
    assert jsonpatch.JsonPointer(added["pointer"]["b"]).resolve(dumps[pb])["user"]["text"] == "Run the tests."
    assert jsonpatch.JsonPointer(reply["pointer"]["a"]).resolve(dumps[pa]).endswith("unused imports.")
    assert jsonpatch.JsonPointer(reply["pointer"]["b"]).resolve(dumps[pb]).endswith("unused variables.")


def test_replay_pair_stat(pair):
    pa, pb = pair
    r = run("--stat", pa, pb)
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert lines[:2] == [f"--- {pa}", f"+++ {pb}"]
    assert "3  turns changed" in lines and "1  new failures" in lines and "1  tool calls changed" in lines
    assert lines[-1] == "3  changes"
    assert not any(line.startswith("@@") for line in lines)
    js = json.loads(run("--stat", "--format", "json", pa, pb).stdout)
    assert "changes" not in js and "patch" not in js and js["summary"]["changes"] == 3


@pytest.mark.parametrize("only, kinds, code", [
    ("tools", ["tool-changed", "turn-added"], 1),  # the added turn holds a tool call
    ("replies", ["turn-added", "reply-changed"], 1),
    ("turns", ["turn-added"], 1),
    ("context", [], 0),
    ("model,user", [], 0),
])
def test_only(pair, only, kinds, code):
    pa, pb = pair
    r = run("--only", only, "--format", "json", pa, pb)
    assert r.exit_code == code, r.output
    doc = json.loads(r.stdout)
    assert [c["kind"] for c in doc["changes"]] == kinds
    assert doc["summary"]["changes"] == len(kinds)
    a, b = engine.read_side(str(pa)), engine.read_side(str(pb))
    patched_dump(a, b, doc["patch"])  # the patch stays complete
    if code == 0:
        # (what was not compared is not said to match: "no differences" alone read as the files matching)
        shown = "context" if only == "context" else "user, model"  # (in the order of CATEGORIES)
        assert run("--only", only, pa, pb).stdout.splitlines()[-1] == f"no differences (only {shown} compared)"
        stat = run("--only", only, "--stat", pa, pb).stdout.splitlines()
        assert "-  replies changed (not compared)" in stat and "-  tool calls added (not compared)" in stat


# --------------------------------------------------------------------------- normalisation, exit 0


def test_self_diff_exits_0_in_every_format(pair):
    pa, _ = pair
    for fmt in ("unified", "rich", "json"):
        r = run("--format", fmt, pa, pa)
        assert r.exit_code == 0, r.output
    doc = json.loads(run("--format", "json", pa, pa).stdout)
    assert doc["changes"] == [] and doc["patch"] == [] and doc["summary"]["differences"] is False
    assert run(pa, pa).stdout.splitlines()[-1] == "no differences"


def test_identical_texts_are_not_dumped_or_aligned(pair, monkeypatch):
    # (new-user trial: `diff --stat big.spmd big.spmd` took 22 s on a 4.7 MB session, 10x lint:
    # both sides were dumped, normalised and aligned to find nothing)
    pa, pb = pair
    expected = {fmt: run("--format", fmt, pa, pa).stdout for fmt in ("unified", "json")}
    stat = run("--stat", pa, pa).stdout
    from fountain_audit.diff import sides

    def fail(*args):
        raise AssertionError("dumped")
    monkeypatch.setattr(sides, "turns_document", fail)
    assert run("--stat", pa, pa).stdout == stat == (
        f"--- {pa}\n+++ {pa}\n3  turns in A\n3  turns in B\n" + "".join(
            f"0  {label}\n" for label in ("turns changed", "  added", "  removed", "  moved", "  modified",
                                         "tool calls added", "tool calls removed", "tool calls changed", "new failures",
                                         "user inputs changed", "replies changed", "model changes", "context changes",
                                         "note changes", "scene changes", "other changes", "changes")))
    for fmt in ("unified", "json"):
        r = run("--format", fmt, pa, pa)
        assert (r.exit_code, r.stdout) == (0, expected[fmt])
    doc = json.loads(expected["json"])
    assert (doc["a"], doc["b"]) == ({"file": str(pa), "turns": 3, "scenes": 4}, {"file": str(pa), "turns": 3, "scenes": 4})
    r = run("--format", "json", "-", pa, input=pa.read_bytes())  # standard input, same text
    assert r.exit_code == 0 and json.loads(r.stdout)["a"] == {"file": "-", "turns": 3, "scenes": 4}
    assert run(pa, pb).exit_code == 2  # other texts are dumped (here: failing)


def test_a_hand_off_time_is_a_timestamp(tmp_path):
    """A hand-off heading's RFC 3339 time (harvey.go WriteHandoff) was compared as text: a replay
    handed off at another time was "scene changed (heading)" without --compare-timestamps."""
    hand_off = CHAT.replace("THE END.\n", "INT. HAND-OFF - 2026-07-01T16:04:05Z\n\nHarvey hands the session over.\n\n"
                                        "THE END.\n")
    pa, pb = tmp_path / "a.spmd", tmp_path / "b.spmd"
    pa.write_text(hand_off, encoding="utf-8")
    pb.write_text(hand_off.replace("2026-07-01T16:04:05Z", "2026-07-02T08:00:00.5+02:00"), encoding="utf-8")
    r = run("--format", "json", pa, pb)
    assert (r.exit_code, json.loads(r.stdout)["changes"]) == (0, [])
    r = run("--compare-timestamps", "--format", "json", pa, pb)
    assert r.exit_code == 1
    assert [(c["kind"], c["before"], c["after"]) for c in json.loads(r.stdout)["changes"]] == [
        ("scene-changed", "INT. HAND-OFF - 2026-07-01T16:04:05Z", "INT. HAND-OFF - 2026-07-02T08:00:00.5+02:00")]


def test_only_timestamps_workspace_and_stats_changed_exits_0(tmp_path):
    a, _ = replay_pair()
    pa, pb = tmp_path / "a.spmd", tmp_path / "b.spmd"
    pa.write_text(render(a), encoding="utf-8")
    pb.write_text(render(a, date="2027-01-31", ws="/Users/someone/elsewhere", seed=17), encoding="utf-8")
    assert pa.read_text() != pb.read_text()
    for fmt in ("unified", "rich", "json"):
        assert run("--format", fmt, pa, pb).exit_code == 0
    doc = json.loads(run("--format", "json", pa, pb).stdout)
    assert doc["patch"] == []
    # asked for, each is a difference
    ts = json.loads(run("--compare-timestamps", "--format", "json", pa, pb).stdout)
    assert {c["kind"] for c in ts["changes"]} == {"title-page-changed", "scene-changed", "model-switch-changed"}
    assert ts["summary"]["scene_changes"] == 4  # the recall scene and three chat scenes
    assert [(c["message"], c["category"], c["pointer"], c["before"], c["after"])
            for c in ts["changes"] if c["kind"] == "title-page-changed"] == [
        ("title page Date changed: 2026-07-01 09:00:00 → 2027-01-31 09:00:00", "other", {"a": None, "b": None},
         "2026-07-01 09:00:00", "2027-01-31 09:00:00"),
        ("title page Draft date changed: 2026-07-01 → 2027-01-31", "other", {"a": None, "b": None},
         "2026-07-01", "2027-01-31")]
    st_ = json.loads(run("--compare-stats", "--format", "json", pa, pb).stdout)
    assert [c["kind"] for c in st_["changes"]] == ["stats-changed"] * 3
    ws = run("--compare-workspace", "--format", "json", pa, pb)
    assert ws.exit_code == 1
    kinds = [c["kind"] for c in json.loads(ws.stdout)["changes"]]
    assert kinds.count("scene-changed") == 3 and kinds.count("tool-changed") == 2  # paths in read_file arguments
    assert run("--compare-all", pa, pb).exit_code == 1


def test_normalised_document_keeps_pointers_valid(pair):
    side = engine.read_side(str(pair[0]))
    doc, norm = side.document, side.normalised

    def shape(v):  # (spans are nulled: the diff points at them only as a whole)
        if isinstance(v, dict):
            return {k: None if k == "span" else shape(x) for k, x in v.items()}
        if isinstance(v, list):
            return [shape(x) for x in v]
        return None

    # (provenance, derived from the turn's notes, is kept but for its positions)
    assert [(r["provenance"]["turn"], r["provenance"]["route"]) for r in norm["records"]] == [
        (None, {"kind": "local", "scene": None, "heading": "INT. HARVEY AND RSDOIEL TALKING <timestamp>",
                "endpoint": None, "url": None})] * 3
    assert shape(doc) == shape(norm)
    rec = norm["records"][0]
    assert rec["span"] is None and rec["index"] is None and rec["file"] == "<file>"
    assert rec["scene"]["heading"] == "INT. HARVEY AND RSDOIEL TALKING <timestamp>"
    assert rec["tool_calls"][0]["arguments"] == {"path": "<workspace>/design.md"}
    assert rec["stats"] is None and doc["records"][0]["stats"].startswith("llamafile (phi-mini)")
    assert rec["model_switch"]["fields"]["at"] == "<timestamp>"


# --------------------------------------------------------------------------- other changes


def test_moved_turn(tmp_path):
    a, _ = replay_pair()
    b = [a[1], a[2], a[0]]
    r = diff_texts(render(a), render(b), "a", "b")
    assert [(c.kind, c.a_turn, c.b_turn) for c in r.changes] == [("turn-moved", 0, 2)]
    assert r.summary()["turns_moved"] == 1
    patched_dump(r.a, r.b, r.patch, r.options)


def test_moved_and_reworded_turn_is_one_move_with_its_change(monkeypatch):
    """Turn 1 moved to the end and its prompt reworded: one turn-moved (1 -> 3) and the user
    input's change, not a removed turn and an added one. Past the comparison budget the pass
    is skipped (the diff stays linear) and the turns are removed and added, as before."""
    a, _ = replay_pair()
    moved = T(a[0].prompt.replace("design doc", "design document"), a[0].reply, a[0].tools, rag=True)
    b = [a[1], a[2], moved]
    r = diff_texts(render(a), render(b), "a", "b")
    assert [(c.kind, c.a_turn, c.b_turn, c.message) for c in r.changes] == [
        ("turn-moved", 0, 2, "turn moved from turn 1 to turn 3"), ("user-changed", 0, 2, "user changed (RSDOIEL)")]
    assert r.summary()["turns_moved"] == 1
    patched_dump(r.a, r.b, r.patch, r.options)
    monkeypatch.setattr(differ, "MOVE_COMPARISONS", 0)
    r = diff_texts(render(a), render(b), "a", "b")
    assert [(c.kind, c.a_turn, c.b_turn) for c in r.changes] == [("turn-removed", 0, None), ("turn-added", None, 2)]


def test_changed_user_input_is_one_changed_turn():
    a, _ = replay_pair()
    b = [a[0], T("Build the whole project.", a[1].reply, a[1].tools), a[2]]
    r = diff_texts(render(a), render(b))
    assert [(c.kind, c.a_turn, c.b_turn) for c in r.changes] == [("user-changed", 1, 1)]
    assert r.changes[0].words == [("=", "Build the "), ("+", "whole "), ("=", "project.")]
    assert "~ user changed (RSDOIEL): Build the {+whole +}project." in render_unified(r)


def test_tool_arguments_as_json_path_diff_and_added_removed_tools():
    a, _ = replay_pair()
    b = [T(a[0].prompt, a[0].reply, [("read_file", {"path": "WS/design2.md"}, "ok"),
                                     ("grep", {"q": ["a", "b"]}, "ok")], rag=True),
         T(a[1].prompt, a[1].reply, a[1].tools[1:]), a[2]]
    r = diff_texts(render(a), render(b))
    got = [(c.kind, c.a_turn, c.b_turn, c.a_pointer, c.b_pointer) for c in r.changes]
    assert got == [("tool-changed", 0, 0, "/records/0/tool_calls/0", "/records/0/tool_calls/0"),
                   ("tool-added", 0, 0, None, "/records/0/tool_calls/1"),
                   ("tool-removed", 1, 1, "/records/1/tool_calls/0", None)]
    assert r.changes[0].details[0] == {"field": "arguments", "diff": [
        {"op": "replace", "path": "$.path", "pointer": "/path", "before": "<workspace>/design.md",
         "after": "<workspace>/design2.md"}]}
    text = render_unified(r)
    assert '    arguments $.path: [-"<workspace>/design.md"-] → {+"<workspace>/design2.md"+}' in text
    assert '+ tool added: grep({"q":["a","b"]}) — ok' in text
    assert '- tool removed: run_shell({"cmd":"go build ./..."}) — ok' in text
    s = r.summary()
    assert (s["tool_calls_added"], s["tool_calls_removed"], s["tool_calls_changed"]) == (1, 1, 1)
    patched_dump(r.a, r.b, r.patch, r.options)


def test_rag_recall_model_and_actor_changes():
    a, _ = replay_pair()
    ta = render(a)
    tb = (ta.replace("[[rag-source: design.md]]", "[[rag-source: design-v2.md]]")
          .replace("score 1.00]]", "score 0.75]]")
          .replace("Model: PHI-MINI. Workspace", "Model: MISTRAL. Workspace", 1)
          .replace("PHI-MINI\nThe build succeeded.", "MISTRAL\nThe build succeeded."))
    r = diff_texts(ta, tb)
    got = [(c.kind, c.category, c.a_turn, c.b_turn) for c in r.changes]
    assert got == [("scene-changed", "scenes", None, None),  # the recall scene, in force for every turn
                   ("model-changed", "model", 0, 0), ("rag-changed", "context", 0, 0),
                   ("actor-changed", "model", 1, 1)]
    assert r.changes[0].message.startswith("scene changed (text): INT. CONTEXT RECALL")
    assert r.changes[2].details == [{"field": "fields", "diff": [
        {"op": "replace", "path": "$.source", "pointer": "/source", "before": "design.md", "after": "design-v2.md"}]}]
    assert r.changes[3].message == "reply by PHI-MINI → MISTRAL"
    patched_dump(r.a, r.b, r.patch, r.options)


def test_absent_values_read_not_recorded_never_none(tmp_path):
    """A side without a forwarding target or a model, a prose tool call (no status) and a
    malformed tool note (no name): the messages say "not recorded", in text and JSON, with
    and without --redact."""
    a, _ = replay_pair()
    ta = render(a)
    tb = (ta.replace("Model: PHI-MINI. Workspace", "Workspace", 1)
          .replace("HARVEY\nForwarding to PHI-MINI.\n\n[[tool: read_file", "[[tool: read_file", 1)
          .replace('[[tool: run_shell({"cmd":"go build ./..."}) — ok]]', 'Harvey calls run_shell: {"cmd":"go build ./..."}')
          .replace('[[tool: read_file({"path":"/home/user/project/go.mod"}) — ok]]', "[[tool: read go.mod — ok]]"))
    pa, pb = tmp_path / "a.spmd", tmp_path / "b.spmd"
    pa.write_text(ta)
    pb.write_text(tb)
    expected = [
        "~ forwarding target PHI-MINI → not recorded",
        "~ model PHI-MINI → not recorded",
        "~ tool run_shell: status ok → not recorded, form changed",
        "~ tool read_file: status ok → not recorded, name: read_file → not recorded, arguments changed, "
        "arguments_json changed, arguments_strict_json changed, valid changed, problem changed",
    ]
    for args in ((pa, pb), ("--redact", pa, pb)):
        r = run("--format", "unified", *args)
        assert r.exit_code == 1 and "None" not in r.output, r.output
        assert [ln for ln in r.output.splitlines() if ln.startswith("~ ") and "not recorded" in ln] == expected
    r = run("--format", "unified", pb, pa)
    assert "None" not in r.output
    assert "~ forwarding target not recorded → PHI-MINI" in r.output.splitlines()
    assert "~ tool run_shell: status not recorded → ok, form changed" in r.output.splitlines()
    messages = [c["message"] for c in json.loads(run("--format", "json", pa, pb).output)["changes"]]
    assert "None" not in " ".join(messages) and "model PHI-MINI → not recorded" in messages


def test_scenes_without_turns_are_compared_as_text():
    a, _ = replay_pair()
    ta = render(a)
    shell = "\nINT. SHELL 2026-07-01 09:30:00\n\nRSDOIEL\n! git status\n\nSHELL\nOn branch main\n\n" \
            "[[shell: git status — exit 0]]\n\n"
    ta2 = ta.replace(TAIL, shell + TAIL)
    r = diff_texts(ta2, ta2.replace("On branch main", "On branch dev"))
    assert [(c.kind, c.a_scene, c.b_scene, c.a_pointer) for c in r.changes] == [("scene-changed", 4, 4, None)]
    assert r.changes[0].details[0]["diff"] == ["@@ -4,3 +4,3 @@", " SHELL", "-On branch main", "+On branch dev", " "]
    assert [c.kind for c in diff_texts(ta2, ta).changes] == ["scene-removed"]
    assert [c.kind for c in diff_texts(ta, ta2).changes] == ["scene-added"]
    assert r.patch == []  # not in the --turns document


def test_word_diff_units():
    assert word_diff("a b", "a b") == [("=", "a b")]
    assert word_diff("", "x y") == [("+", "x y")]
    assert word_diff("ok, fine", "ok; fine") == [("=", "ok"), ("-", ","), ("+", ";"), ("=", " fine")]


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text("ab/~", max_size=3),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text("ab/~", max_size=2), c, max_size=3),
                    max_leaves=12),
       st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text("ab/~", max_size=3),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text("ab/~", max_size=2), c, max_size=3),
                    max_leaves=12))
def test_json_patch_is_rfc6902(a, b):
    patch = json_patch(a, b)
    assert engine.same(jsonpatch.apply_patch({"v": a}, [dict(o, path="/v" + o["path"]) for o in patch]), {"v": b})


# --------------------------------------------------------------------------- trouble: exit 2


def test_unreadable_file_exits_2(tmp_path, pair):
    pa, _ = pair
    for bad, why in ((tmp_path / "missing.spmd", "no such file or directory"), (tmp_path, "is a directory")):
        for args in ((bad, pa), (pa, bad)):
            r = run(*args)
            assert r.exit_code == 2
            assert r.stdout == ""
            assert f"fountain-audit: error: {bad}: {why}" in r.stderr


def test_non_session_exits_2(tmp_path, pair):
    pa, _ = pair
    play = tmp_path / "play.fountain"
    play.write_text("INT. BLOOM HOUSE - DAY\n\nA quiet kitchen.\n\nMARY\nHello.\n", encoding="utf-8")
    r = run(pa, play, "--format", "json")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip() == f"fountain-audit: error: {play}: not a Harvey session (a plain screenplay)"
    empty = tmp_path / "empty.spmd"
    empty.write_text("Title: Harvey Session\nAuthor: RSDOIEL\n\nFADE IN:\n\nTHE END.\n", encoding="utf-8")
    r = run(empty, pa)
    assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: {empty}: a Harvey session with no chat turns "
                                          "(no scenes): nothing to compare turn by turn\n")
    binary = tmp_path / "blob.spmd"
    binary.write_bytes(bytes(range(256)) * 4)
    assert run(pa, binary).exit_code == 2
    with pytest.raises(DiffError, match="not a Harvey session"):
        make_side("x", "just some text\n")


def test_usage_errors_exit_2(pair):
    pa, pb = pair
    assert run("--only", "bogus", pa, pb).exit_code == 2
    assert run(pa).exit_code == 2
    assert run("--format", "xml", pa, pb).exit_code == 2
    r = run("-", "-", input=pa.read_text(encoding="utf-8"))
    assert r.exit_code == 2 and "standard input can be only one side" in r.stderr


def test_stdin_side(pair):
    pa, pb = pair
    r = run("-", pb, input=pa.read_text(encoding="utf-8"))
    assert r.exit_code == 1 and r.stdout.startswith(f"--- -\n+++ {pb}\n")


def test_internal_error_is_trouble_not_a_difference(pair, monkeypatch):
    pa, pb = pair

    def boom(*a, **k):
        raise KeyError("boom")

    monkeypatch.setattr(fountain_audit.diff, "diff_sides", boom)
    r = run(pa, pb)
    assert r.exit_code == 2 and "internal error" in r.stderr and r.stdout == ""


# --------------------------------------------------------------------------- property: random edits


CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
TOOL_NAMES = ["read_file", "run_shell", "write_file"]


@st.composite
def edited_sessions(draw):
    """(A turns, B turns, expected changes): B is A with random edits (reword a reply, flip a
    tool status, reword a user input, delete a turn, insert turns). Prompts are made of distinct characters so that
    no two prompts look alike. Turns keep their A scene (``group``); an inserted turn joins
    the scene of the turn before it or starts a new one."""
    n = draw(st.integers(1, 7))
    uid = iter(range(len(CHARS)))
    groups = iter(range(1000))

    def new_turn(group: int) -> T:
        k = next(uid)
        c = CHARS[k]
        tools = [(draw(st.sampled_from(TOOL_NAMES)), {"path": f"WS/f{k}_{i}.go"},
                  draw(st.sampled_from(["ok", "error: exit status 1"]))) for i in range(draw(st.integers(0, 2)))]
        reply = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=3, max_size=6)))
        return T(f"{c * 6} {c * 4}?", reply + ".", tools, rag=draw(st.booleans()), group=group)

    a: list[T] = []
    for k in range(n):
        a.append(new_turn(a[-1].group if a and draw(st.booleans()) else next(groups)))
    ops = [draw(st.sampled_from(["keep", "keep", "reword", "flip", "both", "ask", "delete"])) for _ in a]
    inserts = draw(st.lists(st.integers(0, n), max_size=3))
    b: list[tuple[T, int | None]] = []  # (turn, its A index or None)
    edits: dict[int, list[str]] = {}

    def insert() -> None:
        join = b and draw(st.booleans())
        b.append((new_turn(b[-1][0].group if join else next(groups)), None))

    for k, (t, op) in enumerate(zip(a, ops)):
        for _ in range(inserts.count(k)):
            insert()
        if op == "delete":
            continue
        if op in ("flip", "both") and not t.tools:
            op = "reword" if op == "both" else "keep"
        t2 = T(t.prompt, t.reply, list(t.tools), t.rag, t.group)
        if op == "ask":  # the user input reworded (still similar: paired, not removed plus added)
            t2.prompt = t.prompt[:-1] + " please?"
            edits.setdefault(k, []).append("user-changed")
        if op in ("reword", "both"):
            words = t.reply[:-1].split(" ")
            w = draw(st.integers(0, len(words) - 1))
            words[w] = draw(st.sampled_from([x for x in WORDS if x != words[w]]))
            t2.reply = " ".join(words) + "."
            edits.setdefault(k, []).append("reply-changed")
        if op in ("flip", "both"):
            i = draw(st.integers(0, len(t.tools) - 1))
            name, args, status = t.tools[i]
            t2.tools[i] = (name, args, "ok" if status != "ok" else "error: exit status 1")
            edits.setdefault(k, []).append("tool-changed")
        b.append((t2, k))
    for _ in range(inserts.count(n)):
        insert()
    assume(b)
    pos = {ka: j for j, (_, ka) in enumerate(b) if ka is not None}
    expected = [("turn-removed", k, None) for k, op in enumerate(ops) if op == "delete"]
    expected += [(e, k, pos[k]) for k, es in edits.items() for e in es]
    expected += [("turn-added", None, j) for j, (_, ka) in enumerate(b) if ka is None]
    return a, [t for t, _ in b], sorted(expected, key=repr)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(edited_sessions(), st.booleans())
def test_random_edits_are_recovered(case, move_things):
    a, b, expected = case
    ta = render(a)
    tb = render(b, date="2026-08-15", ws="/srv/other", seed=5) if move_things else render(b)
    r = diff_texts(ta, tb, "a", "b")
    got = sorted(((c.kind, c.a_turn, c.b_turn) for c in r.changes), key=repr)
    assert got == expected, render_unified(r)
    for c in r.changes:
        if c.kind == "tool-changed":
            assert [d["field"] for d in c.details] == ["status", "error"]
            assert c.new_failures == (c.after["status"] == "error")
    patched_dump(r.a, r.b, r.patch, r.options)
    assert r.differences == bool(expected)


# --------------------------------------------------------------------------- the shared corpus


@pytest.mark.skipif(not SHARED.exists(), reason="reference data not present")
def test_corpus_self_diff_and_patches():
    sides = []
    for p in shared_files():
        try:
            sides.append(engine.read_side(str(p)))
        except DiffError as e:
            assert "not a Harvey session" in str(e) or "with no chat turns (" in str(e), str(e)
    assert len(sides) >= 20
    for s in sides:
        assert engine.diff_sides(s, s).changes == []
        # (diff_sides answers two identical texts without aligning: the differ itself, on the same side)
        assert Differ(s, s, s.options).run() == ([], []), s.name
        assert (s.turn_count, s.scene_count) == (len(s.records), len(s.scenes)), s.name
    for x in sides[:12]:
        for y in sides[:12]:
            r = engine.diff_sides(x, y)
            patched_dump(x, y, r.patch)
            for c in r.changes:
                if c.a_pointer:
                    jsonpatch.JsonPointer(c.a_pointer).resolve(x.document)
                if c.b_pointer:
                    jsonpatch.JsonPointer(c.b_pointer).resolve(y.document)
            render_unified(r)


def test_command_registers_in_a_group(pair):
    import click

    @click.group()
    def group():
        pass

    group.add_command(diff_cmd)  # as cli.py will: main.add_command(diff)
    pa, pb = pair
    r = CliRunner().invoke(group, ["diff", "--format", "unified", str(pa), str(pb)])
    assert r.exit_code == 1 and r.stdout == EXPECTED_UNIFIED.format(a=pa, b=pb)
    h = CliRunner().invoke(group, ["diff", "--help"])
    assert h.exit_code == 0 and "--compare-timestamps" in h.stdout and "--only" in h.stdout


# --------------------------------------------------------------------------- what a non-session file is (issue 14)


def test_empty_and_binary_files_are_named_for_what_they_are(tmp_path, pair):
    pa, _ = pair
    files = {"empty.spmd": b"", "blank.spmd": b"\n  \n\t\n", "blob.spmd": bytes(range(256)) * 4}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    said = {}
    for name in files:
        r = run(pa, tmp_path / name)
        assert r.exit_code == 2 and r.stdout == ""
        said[name] = r.stderr.strip().removeprefix(f"fountain-audit: error: {tmp_path / name}: ")
    assert said == {"empty.spmd": "not a Harvey session (an empty file: 0 bytes)",
                    "blank.spmd": "not a Harvey session (an empty file: only white space)",
                    "blob.spmd": "not a Harvey session (a binary file)"}
    with pytest.raises(DiffError, match=r"^x: not a Harvey session \(an empty file: 0 bytes\)$"):
        make_side("x", "")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_not_a_regular_file(tmp_path, pair):
    pa, _ = pair
    fifo = tmp_path / "pipe.spmd"
    os.mkfifo(fifo)
    r = run(pa, fifo)  # must not block on opening the FIFO
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip() == f"fountain-audit: error: {fifo}: not a regular file"
    with pytest.raises(DiffError, match="not a regular file"):
        engine.read_side(str(fifo))


# --------------------------------------------------------------------------- deeply nested JSON (issue 14 item 19)


def _deep_pair(depth: int) -> tuple[str, str]:
    a = render([T("Run.", "Done.", [("run_tool", {"x": 1}, "ok")])], ws="/home/user/project")
    deep = lambda leaf: "[" * depth + leaf + "]" * depth  # noqa: E731
    a = a.replace('{"x":1}', '{"x":' + deep('"/home/user/project/a"') + '}')
    return a, a.replace(deep('"/home/user/project/a"'), deep('"/home/user/project/b"'))


@pytest.mark.parametrize("depth", [330, 900])
def test_deeply_nested_tool_arguments(depth):
    a, b = _deep_pair(depth)
    result = diff_texts(a, b)
    side = make_side("a", a)
    args = side.document["records"][0]["tool_calls"][0]["arguments"]
    assert isinstance(args, dict)  # parsed as JSON, not kept as text
    [change] = result.changes
    assert change.kind == "tool-changed" and change.message == "tool run_tool: arguments changed"
    [detail] = change.details
    assert detail["field"] == "arguments"
    assert detail["diff"] == [{"op": "replace", "path": "$.x" + "[0]" * depth, "pointer": "/x" + "/0" * depth,
                               "before": "<workspace>/a", "after": "<workspace>/b"}]
    assert result.patch[0] == {"op": "replace", "path": "/records/0/tool_calls/0/arguments/x" + "/0" * depth,
                               "value": "/home/user/project/b"}  # (B's value as dumped, not normalised)
    assert [op["path"] for op in result.patch[1:]] == ["/records/0/tool_calls/0/arguments_text",
                                                       "/records/0/tool_calls/0/body",
                                                       "/records/0/provenance/tools/0/arguments/x" + "/0" * depth]
    assert render_unified(result).splitlines()[4] == \
        '    arguments $.x' + '[0]' * depth + ': [-"<workspace>/a"-] → {+"<workspace>/b"+}'


def test_deeply_nested_tool_arguments_cli(tmp_path):
    a, b = _deep_pair(900)
    (tmp_path / "a.spmd").write_text(a, encoding="utf-8")
    (tmp_path / "b.spmd").write_text(b, encoding="utf-8")
    for fmt in ("json", "unified", "rich"):
        r = run("--format", fmt, tmp_path / "a.spmd", tmp_path / "b.spmd")
        assert r.exit_code == 1, r.stderr
        assert r.stderr == ""
    doc = json.loads(run("--format", "json", tmp_path / "a.spmd", tmp_path / "b.spmd").stdout)
    assert doc["summary"]["tool_calls_changed"] == 1


# --------------------------------------------------------------------------- unified: changes with context (issue 14 item 10)


def test_unified_shows_a_changed_reply_with_context_not_whole():
    long_line = " ".join(f"word{i}" for i in range(40))
    paragraphs = [f"Paragraph {i} says nothing new." for i in range(10)]
    reply_a = "\n\n".join(paragraphs[:5] + [long_line] + paragraphs[5:])
    reply_b = reply_a.replace("word20", "WORD20").replace("Paragraph 9 says", "Paragraph 9 now says")
    one_a = " ".join(f"w{i}" for i in range(30))
    a = render([T("Write.", reply_a), T("Once more.", one_a)])
    b = render([T("Write.", reply_b), T("Once more.", one_a.replace("w15", "W15"))])
    out = render_unified(diff_texts(a, b, "a", "b"))
    assert out.splitlines()[3:] == [
        "~ reply changed (PHI-MINI):",
        "    … 9 unchanged lines",
        "    ",
        "    … word12 word13 word14 word15 word16 word17 word18 word19 [-word20-]{+WORD20+} word21 word22 word23 "
        "word24 word25 word26 word27 word28 …",
        "    ",
        "    … 7 unchanged lines",
        "    ",
        "    Paragraph 9 {+now +}says nothing new.",
        "@@ -turn 2 +turn 2 @@ scene -3 +3: INT. HARVEY AND RSDOIEL TALKING 2026-07-01 09:11:07",
        "~ reply changed (PHI-MINI): … w7 w8 w9 w10 w11 w12 w13 w14 [-w15-]{+W15+} w16 w17 w18 w19 w20 w21 w22 w23 …",
        "2 turns changed (0 added, 0 removed, 0 moved, 2 modified), tool calls +0 -0 ~0, 0 new failures, "
        "2 replies changed",
    ]
    # --format json keeps the whole word diff
    [change, _] = diff_texts(a, b).changes
    assert "".join(t for op, t in change.words if op != "+") == reply_a


# --------------------------------------------------------------------------- untrusted text (issue 10)


def test_terminal_control_sequences_in_a_reply_are_escaped(tmp_path):
    evil = "Done.\x1b]0;pwned\x07 All \x1b[2Jclear."
    a = render([T("Go.", "Done. All clear."), T("Again.", "Fine.")])
    b = render([T("Go.", evil), T("Again.", "Fine.\x1b[31m")])
    (tmp_path / "a.spmd").write_text(a, encoding="utf-8")
    (tmp_path / "b.spmd").write_text(b, encoding="utf-8")
    expected = [
        "~ reply changed (PHI-MINI): Done.{+\\x1b]0;pwned\\x07+} All [-clear-]{+\\x1b[2Jclear+}.",
        "@@ -turn 2 +turn 2 @@ scene -3 +3: INT. HARVEY AND RSDOIEL TALKING 2026-07-01 09:11:07",
        "~ reply changed (PHI-MINI): Fine.{+\\x1b[31m+}",
    ]
    r = run("--format", "unified", tmp_path / "a.spmd", tmp_path / "b.spmd")
    assert r.exit_code == 1 and r.stdout.splitlines()[3:6] == expected
    assert "\x1b" not in r.stdout and "\x07" not in r.stdout
    r = run("--format", "rich", "--no-color", tmp_path / "a.spmd", tmp_path / "b.spmd")
    assert r.exit_code == 1 and r.stdout.splitlines()[3:6] == expected
    r = run("--format", "rich", "--color", tmp_path / "a.spmd", tmp_path / "b.spmd")
    assert r.exit_code == 1 and "\x1b]" not in r.stdout and "\x1b[2J" not in r.stdout and "\x07" not in r.stdout
    plain = re.sub(r"\x1b\[[0-9;]*m", "", r.stdout)  # rich's own colour codes
    assert "\x1b" not in plain
    assert plain.splitlines()[3] == "~ reply changed (PHI-MINI): Done.\\x1b]0;pwned\\x07 All clear\\x1b[2Jclear."
    evil_name = tmp_path / "b\x1b[2J.spmd"
    evil_name.write_text(b, encoding="utf-8")
    r = run("--format", "unified", tmp_path / "a.spmd", evil_name)
    assert r.stdout.splitlines()[1] == f"+++ {tmp_path}/b\\x1b[2J.spmd"


def test_error_messages_escape_file_names(tmp_path, pair):
    pa, _ = pair
    r = run(pa, tmp_path / "gone\x1b]0;pwned\x07.spmd")
    assert r.exit_code == 2 and "\x1b" not in r.stderr and "\x07" not in r.stderr
    assert r.stderr.strip() == (f"fountain-audit: error: {tmp_path}/gone\\x1b]0;pwned\\x07.spmd: "
                                "no such file or directory")


def _scenes(text: str) -> list[str]:
    return re.split(r"(?m)^(?=INT\. |EXT\. )", text)


def test_a_scene_without_turns_that_kept_its_place_is_not_removed_and_added():
    """Two chat scenes swapped around an unchanged chunk-analysis scene: the turn is moved;
    the scene between them, the same on both sides at the same place, is not a change (the
    alignment had paired the chat scenes across it and left it as a deletion plus an insertion)."""
    text = (ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8")
    parts = _scenes(text)
    assert parts[4].startswith("INT. CHUNK ANALYSIS")
    parts[3], parts[5] = parts[5], parts[3]
    r = diff_texts(text, "".join(parts))
    assert [(c.kind, c.a_turn, c.b_turn) for c in r.changes] == [("turn-moved", 2, 1)]


def test_a_scene_without_turns_moved_elsewhere_is_reported_once_as_moved():
    text = (ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8")
    parts = _scenes(text)
    assert parts[6].startswith("INT. SHELL")
    parts.insert(4, parts.pop(6))
    r = diff_texts(text, "".join(parts))
    moved = [(c.kind, c.a_scene, c.b_scene, c.message) for c in r.changes if c.category == "scenes"]
    assert moved == [("scene-moved", 5, 3, "scene moved from scene 6 to scene 4: INT. SHELL 2026-08-03 14:24:15")]


def test_a_newline_in_a_file_name_cannot_forge_a_line(tmp_path, pair):
    """`x\\n0  changes\\ny.spmd` printed raw in the `+++` header made `0  changes` a line of its own:
    names are written on one line (as lint writes them)."""
    a, _ = pair
    b = tmp_path / "x\n0  changes\ny.spmd"
    b.write_bytes(a.read_bytes())
    r = run("--stat", a, b)
    assert r.output.splitlines()[:2] == [f"--- {a}", f"+++ {tmp_path}/x\\n0  changes\\ny.spmd"]


def test_unreadable_files_are_named_in_the_words_lint_uses(tmp_path, pair):
    a, _ = pair
    (tmp_path / "dangling.spmd").symlink_to(tmp_path / "gone")
    for other, why in (("missing.spmd", "no such file or directory"),
                       ("dangling.spmd", f"a dangling symbolic link (to {tmp_path / 'gone'})")):
        r = run(a, tmp_path / other)
        assert (r.exit_code, r.stderr.strip()) == (2, f"fountain-audit: error: {tmp_path / other}: {why}")


def test_a_route_sent_elsewhere_is_a_change(tmp_path):
    # (diff --compare-all said "no differences" when only an EXT. scene's endpoint changed: a replay
    # sent to another server; adversarial trial)
    from fountain_audit.cli import main
    text = ("Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\nEXT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
            "Harvey routing to QWEN2.5-CODER at ollama://192.168.1.2:11434. Workspace: /tmp/ws.\n\n"
            "ALICE\nhi\n\nQWEN2.5-CODER\nhello\n\nTHE END.\n")
    a, b = tmp_path / "a.spmd", tmp_path / "b.spmd"
    a.write_text(text, encoding="utf-8")
    b.write_text(text.replace("routing to QWEN2.5-CODER at", "routing to EVIL.EXAMPLE at"), encoding="utf-8")
    r = CliRunner().invoke(main, ["diff", "--format", "json", str(a), str(b)])
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    (change,) = doc["changes"]
    assert (change["kind"], change["category"], change["message"], change["pointer"]) == (
        "route-changed", "model", "route QWEN2.5-CODER at ollama://192.168.1.2:11434 → EVIL.EXAMPLE at "
        "ollama://192.168.1.2:11434", {"a": "/records/0/provenance/route", "b": "/records/0/provenance/route"})
    assert doc["patch"] == [{"op": "replace", "path": "/records/0/provenance/route/endpoint", "value": "EVIL.EXAMPLE"}]
    assert CliRunner().invoke(main, ["diff", str(a), str(a)]).exit_code == 0


def test_patch_updates_a_turns_provenance_too(tmp_path):
    # (new-user trial: a tool renamed run_shell -> run_shellx; the patch replaced tool_calls/1/name
    # but left /records/0/provenance/tools/1/name 'run_shell')
    text = (ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8")
    pa, pb = tmp_path / "a.spmd", tmp_path / "b.spmd"
    pa.write_text(text, encoding="utf-8")
    pb.write_text(text.replace("[[tool: run_shell(", "[[tool: run_shellx("), encoding="utf-8")
    r = run("--format", "json", pa, pb)
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    assert [c["kind"] for c in doc["changes"]] == ["tool-changed"]
    assert [(o["op"], o["path"], o["value"]) for o in doc["patch"]] == [
        ("replace", "/records/0/tool_calls/1/name", "run_shellx"),
        ("replace", "/records/0/tool_calls/1/body", 'tool: run_shellx({"cmd":"make test"}) — error: exit status 2'),
        ("replace", "/records/0/provenance/tools/1/name", "run_shellx")]
    out = jsonpatch.apply_patch(_dump_turns(pa), doc["patch"])
    assert out["records"][0]["provenance"]["tools"][1]["name"] == "run_shellx"
    patched_dump(engine.read_side(str(pa)), engine.read_side(str(pb)), doc["patch"])  # every compared field B's


def test_context_recall_scenes_are_compared_as_scenes(tmp_path):
    # (new-user trial: text added to the recall scene gave "no differences"; the scene removed
    # gave two "recall removed" lines under turn 1, no scene-removed, nothing with --only scenes)
    text = (ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8")
    recall = "[[recall: preference_52aa07 (preference) — score 0.81]]\n"
    pa, pb, pc = tmp_path / "a.spmd", tmp_path / "b.spmd", tmp_path / "c.spmd"
    pa.write_text(text, encoding="utf-8")
    pb.write_text(text.replace(recall, recall + "\nSome extra text.\n"), encoding="utf-8")
    i, j = text.index("INT. CONTEXT RECALL"), text.index("INT. HARVEY AND MARGOT TALKING")
    pc.write_text(text[:i] + text[j:], encoding="utf-8")
    r = run("--format", "unified", pa, pb)
    assert r.exit_code == 1
    assert r.output.splitlines()[2:8] == [
        "@@ -scene 1 +scene 1 @@ INT. CONTEXT RECALL 2026-08-03 14:20:04",
        "~ scene changed (text): INT. CONTEXT RECALL 2026-08-03 14:20:04",
        "    @@ -3 +3,3 @@", "     [[recall: preference_52aa07 (preference) — score 0.81]]", "    +", "    +Some extra text."]
    for args, tail in (((), ", tool calls +0 -0 ~0, 0 new failures, 0 replies changed, 1 scene change"),
                       (("--only", "scenes"), ", 1 scene change (only scenes compared)")):
        r = run("--format", "unified", *args, pa, pc)
        assert r.exit_code == 1
        assert r.output.splitlines()[2:] == [
            "@@ -scene 1 @@ INT. CONTEXT RECALL 2026-08-03 14:20:04",
            "- scene removed: INT. CONTEXT RECALL 2026-08-03 14:20:04",
            "0 turns changed (0 added, 0 removed, 0 moved, 0 modified)" + tail]
    doc = json.loads(run("--format", "json", pa, pc).stdout)
    assert [c["kind"] for c in doc["changes"]] == ["scene-removed"]
    # the dump repeats the scene's two notes in every turn's recall: the patch removes them there
    # (and its provenance's recall scene in force)
    assert [(o["op"], o["path"]) for o in doc["patch"]] == [
        op for t in range(7) for op in (("remove", f"/records/{t}/recall/0"), ("remove", f"/records/{t}/recall/0"),
                                        ("replace", f"/records/{t}/provenance/recall"))]
    patched_dump(engine.read_side(str(pa)), engine.read_side(str(pc)), doc["patch"])


def test_patch_gives_a_provenance_the_recall_and_model_switch_in_force(tmp_path):
    # (a recall scene or model switch removed: each later turn's provenance.recall / .model_switch
    # became null in B; the patch, which ignored them as positions, left A's ids)
    text = (ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8")
    i, j = text.index("INT. CONTEXT RECALL"), text.index("INT. HARVEY AND MARGOT TALKING")
    pa, pb = tmp_path / "a.spmd", tmp_path / "b.spmd"
    pa.write_text(text, encoding="utf-8")
    pb.write_text(text[:i] + text[j:].replace("[[model switch: devstral:24b (ollama) at 2026-08-03 14:25:00]]\n", ""),
                  encoding="utf-8")
    patch = json.loads(run("--format", "json", pa, pb).stdout)["patch"]
    out = jsonpatch.apply_patch(_dump_turns(pa), patch)
    assert [(r["provenance"]["recall"], r["provenance"]["model_switch"]) for r in out["records"]] == [(None, None)] * 7
    back = jsonpatch.apply_patch(_dump_turns(pb), json.loads(run("--format", "json", pb, pa).stdout)["patch"])
    assert [(r["provenance"]["recall"], r["provenance"]["model_switch"]) for r in back["records"]] == [
        ("s1", None)] * 3 + [("s1", "s6.model-switch1")] * 4  # (A's ids, as A's dump has them)


# --------------------------------------------------------------------------- a chat scene's content outside its turns

# (new-user trial: a boneyard and a transition added between HARVEY's forwarding line and the
# reply gave "no differences", even with --compare-all; the same in a scene without turns was a
# change: a chat scene was compared by its turns, description and heading only)
CHAT = """Title: Harvey Session
Author: ALICE

FADE IN:

INT. HARVEY AND ALICE TALKING 2026-07-01 16:00:00

Harvey and ALICE are in chat mode. Model: LLAMA3. Workspace: /srv/p.

ALICE
hi

HARVEY
Forwarding to LLAMA3.

LLAMA3
hello

THE END.
"""
HEADING = "INT. HARVEY AND ALICE TALKING 2026-07-01 16:00:00"
ADDED = "/* a boneyard comment */\n\nCUT TO:"


def _with_content(text: str = CHAT, content: str = ADDED) -> str:
    return text.replace("LLAMA3\nhello", f"{content}\n\nLLAMA3\nhello")


def test_content_added_between_forwarding_and_reply_is_a_change(tmp_path):
    pa, pb = tmp_path / "a.spmd", tmp_path / "b.spmd"
    pa.write_text(CHAT, encoding="utf-8")
    pb.write_text(_with_content(), encoding="utf-8")
    expected = [
        f"--- {pa}", f"+++ {pb}",
        f"@@ -scene 1 +scene 1 @@ {HEADING}",
        f"~ scene changed (content outside turns): {HEADING}",
        "    @@ -0,0 +1,3 @@", "    +/* a boneyard comment */", "    +", "    +CUT TO:",
        "0 turns changed (0 added, 0 removed, 0 moved, 0 modified), tool calls +0 -0 ~0, 0 new failures, "
        "0 replies changed, 1 scene change"]
    for args in (("--format", "unified"), ("--format", "unified", "--compare-all"), ("--only", "scenes"),
                 ("--format", "rich", "--no-color")):
        r = run(*args, pa, pb)
        assert r.exit_code == 1, r.output
        want = expected if "--only" not in args else expected[:-1] + [
            "0 turns changed (0 added, 0 removed, 0 moved, 0 modified), 1 scene change (only scenes compared)"]
        assert r.stdout.splitlines() == want, args
    assert run("--only", "replies", pa, pb).exit_code == 0
    coloured = run("--format", "rich", "--color", pa, pb)
    assert coloured.exit_code == 1
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured.stdout).splitlines() == expected
    r = run("--format", "json", pa, pb)
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert doc["format_version"] == "1.3" and doc["patch"] == []  # not in the dump --turns document
    assert doc["summary"]["scene_changes"] == 1 and doc["summary"]["changes"] == 1
    assert doc["changes"] == [{
        "kind": "scene-content-changed", "category": "scenes", "categories": ["scenes"],
        "message": f"scene changed (content outside turns): {HEADING}",
        "scene": {"a": 0, "b": 0}, "turn": {"a": None, "b": None}, "pointer": {"a": None, "b": None},
        "before": "", "after": ADDED, "words": None,
        "details": [{"field": "text", "before": "", "after": ADDED,
                     "diff": ["@@ -0,0 +1,3 @@", "+/* a boneyard comment */", "+", "+CUT TO:"]}],
        "new_failures": 0, "coarsened": False}]
    [c] = diff_texts(CHAT, _with_content(), options=Options(timestamps=True, stats=True, workspace=True)).changes
    assert (c.kind, c.after) == ("scene-content-changed", ADDED)


def test_content_removed_between_forwarding_and_reply_is_a_change():
    result = diff_texts(_with_content(), CHAT, "a.spmd", "b.spmd")
    [c] = result.changes
    assert (c.kind, c.category, c.message, c.a_scene, c.b_scene, c.a_turn, c.b_turn, c.a_pointer, c.b_pointer) == (
        "scene-content-changed", "scenes", f"scene changed (content outside turns): {HEADING}", 0, 0,
        None, None, None, None)
    assert (c.before, c.after) == (ADDED, "")
    assert c.details == [{"field": "text", "before": ADDED, "after": "",
                          "diff": ["@@ -1,3 +0,0 @@", "-/* a boneyard comment */", "-", "-CUT TO:"]}]
    assert result.patch == []
    assert render_unified(result).splitlines()[2:8] == [
        f"@@ -scene 1 +scene 1 @@ {HEADING}", f"~ scene changed (content outside turns): {HEADING}",
        "    @@ -1,3 +0,0 @@", "    -/* a boneyard comment */", "    -", "    -CUT TO:"]
    changed = diff_texts(_with_content(), _with_content(content=ADDED.replace("a boneyard", "one boneyard")))
    assert [(c.kind, c.details[0]["diff"]) for c in changed.changes] == [
        ("scene-content-changed", ["@@ -1,2 +1,2 @@", "-/* a boneyard comment */", "+/* one boneyard comment */",
                                   " "])]


def test_an_action_paragraph_moved_out_of_the_description_is_reported_in_both():
    desc = "Harvey and ALICE are in chat mode. Model: LLAMA3. Workspace: /srv/p."
    a = CHAT.replace(desc, desc + "\n\nThe lights are low.")
    b = _with_content(content="The lights are low.")
    result = diff_texts(a, b)
    assert [(c.kind, c.message, c.before, c.after) for c in result.changes] == [
        ("scene-description-changed", f"scene description changed: {HEADING}",
         "Harvey and ALICE are in chat mode. Model: <model>. Workspace: <workspace>.\nThe lights are low.",
         "Harvey and ALICE are in chat mode. Model: <model>. Workspace: <workspace>."),
        ("scene-content-changed", f"scene changed (content outside turns): {HEADING}", "", "The lights are low.")]
    assert result.changes[1].details[0]["diff"] == ["@@ -0,0 +1 @@", "+The lights are low."]
    assert render_unified(result).splitlines()[2:11] == [
        f"@@ description -scene 1 +scene 1 @@ {HEADING}", f"~ scene description changed: {HEADING}",
        "    @@ -1,2 +1 @@", "     Harvey and ALICE are in chat mode. Model: <model>. Workspace: <workspace>.",
        "    -The lights are low.",
        f"@@ -scene 1 +scene 1 @@ {HEADING}", f"~ scene changed (content outside turns): {HEADING}",
        "    @@ -0,0 +1 @@", "    +The lights are low."]


def test_a_boneyard_in_a_reply_is_the_replys_change_only():
    b = CHAT.replace("LLAMA3\nhello\n", "LLAMA3\nhello\n\n/* a boneyard in the reply */\n")
    result = diff_texts(CHAT, b)
    assert [(c.kind, c.message, c.before, c.after, c.a_turn, c.b_turn) for c in result.changes] == [
        ("reply-changed", "reply changed (LLAMA3)", "hello", "hello\n\n/* a boneyard in the reply */", 0, 0)]
    assert result.summary()["scene_changes"] == 0
    both = diff_texts(_with_content(), _with_content(b))
    assert [c.kind for c in both.changes] == ["reply-changed"]


def test_content_outside_turns_is_normalised_as_scene_text():
    stats = "Ollama (llama3:8b) · 31 reply + 940 ctx · 2.104s · 14.7 tok/s"
    # a second stats line of the turn (the first is its stats): compared only with --compare-stats
    a = CHAT.replace("LLAMA3\nhello\n", f"LLAMA3\nhello\n\n{stats}\n\n{stats}\n")
    b = a.replace(f"{stats}\n\n{stats}", f"{stats}\n\n{stats.replace('2.104s', '3.5s')}")
    assert diff_texts(a, b).changes == []
    assert [c.kind for c in diff_texts(a, b, options=Options(stats=True)).changes] == ["scene-content-changed"]
    # the workspace path, unless compared; line ends and blank runs
    a = _with_content(content="See /srv/p/notes.md.")
    b = a.replace("/srv/p", "/srv/q")
    assert "See /srv/q/notes.md." in b and diff_texts(a, b).changes == []
    assert [c.kind for c in diff_texts(a, b, options=Options(workspace=True)).changes] == [
        "scene-description-changed", "scene-changed", "scene-content-changed"]  # (scene-changed: its workspace)
    assert diff_texts(_with_content(), _with_content().replace("\n", "\r\n").replace("CUT TO:", "CUT TO:  \n\n")
                      ).changes == []


def test_a_multi_line_note_body_cannot_forge_a_diff_line(tmp_path):
    """A tool note's arguments over two lines were printed as two lines, the second written by
    the session: `+ tool added: FAKE) — ok` (adversarial trial, stop 33)."""
    head = "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n\nHARVEY\nForwarding to MISTRAL.\n\n"
    (tmp_path / "a.spmd").write_text(head + "MISTRAL\nr\n", encoding="utf-8")
    (tmp_path / "b.spmd").write_text(head + "[[tool: g(x\n+ tool added: FAKE) — ok]]\n\nMISTRAL\nr\n", encoding="utf-8")
    for fmt in (("--format", "unified"), ("--format", "rich", "--no-color")):
        r = run(*fmt, tmp_path / "a.spmd", tmp_path / "b.spmd")
        assert r.exit_code == 1
        assert r.stdout.splitlines()[3:5] == [
            "+ tool added: g(x\\n+ tool added: FAKE) — ok",
            "1 turn changed (0 added, 0 removed, 0 moved, 1 modified), tool calls +1 -0 ~0, 0 new failures, "
            "0 replies changed"]


def test_a_turn_written_after_the_end_changes_the_last_scene_not_removes_it(tmp_path):
    """Content after `THE END.` joins the last scene (the end marker is no longer the file's end):
    the diff pairs that scene with itself by its heading as written and reports its changed text
    and the added turn; it said "scene removed" for a scene both files hold (noted at stop 35)."""
    text = (ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8")
    a, c = tmp_path / "a.spmd", tmp_path / "c.spmd"
    a.write_text(text, encoding="utf-8")
    c.write_text(text + "\nHARVEY\nOne more line after the end.\n", encoding="utf-8")
    heading = "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:30:05"
    r = run(a, c)
    assert r.exit_code == 1
    assert r.output.splitlines()[2:] == [
        f"@@ -scene 13 +scene 13 @@ {heading}",
        f"~ scene changed (content outside turns): {heading}",
        "    @@ -2,2 +2,2 @@",
        "     ",
        "    -[[pipeline stopped at step 2/3: confidence 0.55 below threshold 0.70]]",
        "    +THE END.",
        f"@@ +turn 8 @@ scene +13: {heading}",
        "+ turn 8 added: One more line after the end.",
        "+     HARVEY: One more line after the end.",
        "1 turn changed (1 added, 0 removed, 0 moved, 0 modified), tool calls +0 -0 ~0, 0 new failures, "
        "0 replies changed, 1 scene change"]
    assert "scene removed" not in run(c, a).output


@pytest.mark.parametrize("workspace, written, same", [
    ("/srv/ivo/orchard", "/srv/ivo/ORCHARD/a.go", False),  # another directory on Linux
    ("/srv/ivo/orchard", "/srv/ivo/orchard/a.go", True),
    ("C:\\\\Users\\\\ivo\\\\orchard", "c:\\\\users\\\\ivo\\\\ORCHARD\\\\a.go", True),  # Windows ignores case
])
def test_a_workspace_path_in_other_capitals_is_another_path_but_on_windows(tmp_path, workspace, written, same):
    """diff normalises the workspace as written: a tool's path in other capitals was replaced by
    <workspace> too, so a changed path read as no difference (adversarial trial, stop 37)."""
    text = (ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8")
    ws = re.search(r"Workspace: (\S+)\.\n", text).group(1)
    a = text.replace(ws, workspace.replace("\\\\", "\\"))
    tool = '[[tool: read_file({"path":"%s"}) — ok]]' % (workspace + "/a.go" if "/" in workspace else workspace + "\\\\a.go")
    b_tool = '[[tool: read_file({"path":"%s"}) — ok]]' % written
    first = re.search(r"\[\[tool: [^\n]*\]\]", a).group()
    (tmp_path / "a.spmd").write_text(a.replace(first, tool, 1), encoding="utf-8")
    (tmp_path / "b.spmd").write_text(a.replace(first, b_tool, 1), encoding="utf-8")
    r = run(tmp_path / "a.spmd", tmp_path / "b.spmd")
    assert (r.exit_code, "arguments changed" in r.output) == ((0, False) if same else (1, True)), r.output


@pytest.mark.parametrize("value", ["", ",", " , "])
def test_only_naming_no_category_is_a_usage_error_not_everything(value):
    """`--only ''` (an empty CI variable) compared everything, silently (adversarial trial, stop 37)."""
    clean = ROOT / "samples" / "clean-session.spmd"
    r = run("--only", value, clean, clean)
    assert r.exit_code == 2 and "Error: --only names no change category (choose from turns, user, replies, model, " \
                                "tools, context, notes, scenes, other; leave --only out to compare everything)" in r.output


@pytest.mark.parametrize("bad_side", ["a", "b"])
def test_json_pointers_and_patch_address_dump_turns_of_a_file_with_undecodable_bytes(tmp_path, bad_side):
    """``dump --turns`` of a file with bytes that are not UTF-8 starts with their record, but the
    pointers counted turns from ``/records/0`` (one turn off, or pointing nowhere) and the patch
    applied to such a first side replaced the wrong turn's reply (adversarial trial, stop 38)."""
    clean = (ROOT / "samples" / "clean-session.spmd").read_bytes()
    edited = clean.replace(b"Noted: release notes go in docs/CHANGES.md.", b"Noted: release notes go in docs/NEWS.md.")
    bad = edited.replace(b"the third may be used", b"the third \xff may be used")
    assert bad != edited
    files = {"a": tmp_path / "a.spmd", "b": tmp_path / "b.spmd"}
    files["a"].write_bytes(bad if bad_side == "a" else clean)
    files["b"].write_bytes(bad if bad_side == "b" else clean)
    r = run("--format", "json", str(files["a"]), str(files["b"]))
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    dumps = {}
    from fountain_audit.cli.dump import dump_cmd
    for side, path in files.items():
        d = CliRunner().invoke(dump_cmd, ["--turns", str(path)])
        dumps[side] = json.loads(d.stdout)
    assert dumps[bad_side]["records"][0]["record"] == "undecodable_bytes"
    replies = [c for c in doc["changes"] if (c["pointer"]["a"] or "").endswith("/reply/text")]
    assert len(replies) == 2
    for c in replies:
        for side in ("a", "b"):
            pointer = c["pointer"][side].split("/")[1:]
            value = dumps[side]
            for part in pointer:
                value = value[int(part)] if isinstance(value, list) else value[part]
            assert value == c["before" if side == "a" else "after"], (side, c["pointer"])
    patched = jsonpatch.apply_patch(dumps["a"], doc["patch"])
    turns = [r for r in patched["records"] if r.get("record") != "undecodable_bytes"]
    want = [r for r in dumps["b"]["records"] if r.get("record") != "undecodable_bytes"]
    assert [t["reply"]["text"] for t in turns] == [t["reply"]["text"] for t in want]


def _like_turns(names):
    head = "Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: MARGOT\n\nFADE IN:\n"
    scene = ("\nINT. HARVEY AND MARGOT TALKING 2026-08-03 10:{m:02d}:{s:02d}\n\nHarvey and MARGOT are in chat mode. Model: "
             "QWEN. Workspace: /srv/w.\n\nMARGOT\nshow me file {n} please\n\nHARVEY\nForwarding to QWEN.\n\n"
             '[[tool: read_file({{"path":"{n}.txt"}}) — ok]]\n\nQWEN\nhere is file {n}\n\n')
    return head + "".join(scene.format(m=k // 60, s=k % 60, n=n) for k, n in enumerate(names)) + "THE END.\n"


@pytest.mark.parametrize("order", ["badc", "bacd", "dcba", "cdab", "gbjeahfdic"])
def test_like_turns_in_another_order_are_moved_not_modified(order):
    """Turns `a b c d` against `b a d c` (each `show me file X please`, so alike) were paired a
    with b: "user changed: show me file [-a-]{+b+} please", tool arguments changed, where the file
    holds the same turns (adversarial trial, stop 38). A turn whose user input the other side
    holds elsewhere is moved there; nothing is reported changed."""
    names = sorted(order)
    r = diff_texts(_like_turns(names), _like_turns(list(order)), "a.spmd", "b.spmd")
    summary = r.summary()
    assert (summary["turns_added"], summary["turns_removed"], summary["turns_modified"]) == (0, 0, 0), summary
    assert summary["turns_moved"] > 0
    assert {c.kind for c in r.changes} == {"turn-moved"}


def test_three_hundred_like_turns_shuffled_are_all_moves():
    """1,000 shuffled turns gave 388 modified, 231 added and 231 removed (adversarial trial, stop 38)."""
    import random
    names = [f"f{i}" for i in range(300)]
    shuffled = names[:]
    random.Random(3).shuffle(shuffled)
    s = diff_texts(_like_turns(names), _like_turns(shuffled), "a.spmd", "b.spmd").summary()
    assert (s["turns_added"], s["turns_removed"], s["turns_modified"], s["turns_moved"]) == (0, 0, 0, 271)

"""Stable fingerprints (issue 12): rule code + path relative to the project root + the flagged
element's normalised content + occurrence index; the same in json, json-lines, gitlab and sarif;
unchanged when a scene moves, blank lines are inserted or the project directory is renamed."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.lint.diagnostics import Diagnostic, Severity
from fountain_audit.lint.fingerprint import element_content, project_root, relative_path

from .test_cli import A03

TOOL = '[[tool: read_file({"path":"a.go"}) — ok]]'
HEAD = "Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\n"
END = "\nTHE END.\n"


def chat(heading_time: str, question: str, *, tool_first: bool = False) -> str:
    """One chat scene; ``tool_first`` puts the tool note before the forwarding line (P102)."""
    fwd = "HARVEY\nForwarding to LLAMA.\n\n"
    body = (TOOL + "\n\n" + fwd) if tool_first else (fwd + TOOL + "\n\n")
    return (f"\nINT. HARVEY AND ALICE TALKING {heading_time}\n\n"
            "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.\n\n"
            f"ALICE\n{question}\n\n{body}LLAMA\nIt declares package main.\n\n")


#: A P102 (error) in the first scene, an H102 (warning) loose heading in the second, a clean third.
SCENES = [chat("2026-06-24 10:00:00", "What is in a.go?", tool_first=True),
          chat("— 2026-06-24 10:00", "And b.go?"),
          chat("2026-06-24 10:00:00", "Thanks.")]
LOOSE_HEADING = "INT. HARVEY AND ALICE TALKING — 2026-06-24 10:00"


def session(scenes=SCENES) -> str:
    return HEAD + "".join(scenes) + END


def lint_json(*args: str) -> tuple[int, list[dict]]:
    r = CliRunner().invoke(main, ["lint", "--output-format", "json", *args], catch_exceptions=False)
    return r.exit_code, json.loads(r.stdout)["diagnostics"]


def fingerprints(*args: str) -> list[tuple[str, str]]:
    return [(d["code"], d["fingerprint"]) for d in lint_json(*args)[1]]


def recipe(code: str, path: str, content: str, index: int = 0) -> str:
    data = "\0".join(("fountain-audit-fingerprint/1", code, path, content, str(index)))
    return hashlib.sha256(data.encode()).hexdigest()[:32]


def test_fingerprint_is_the_documented_recipe_in_every_machine_format(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("s.spmd").write_text(A03, encoding="utf-8")
    expected = recipe("P102", "s.spmd", TOOL)
    assert expected == "f4ebe290d81a8ec6da6ea0b14ce88c66"
    assert fingerprints("s.spmd") == [("P102", expected)]
    run = CliRunner().invoke
    line = json.loads(run(main, ["lint", "--output-format", "json-lines", "s.spmd"]).stdout)
    assert line["fingerprint"] == expected
    gitlab = json.loads(run(main, ["lint", "--output-format", "gitlab", "s.spmd"]).stdout)
    assert [i["fingerprint"] for i in gitlab] == [expected]
    sarif = json.loads(run(main, ["lint", "--output-format", "sarif", "s.spmd"]).stdout)
    assert [r["partialFingerprints"] for r in sarif["runs"][0]["results"]] == [{"fountainAudit/v1": expected}]


def test_relative_absolute_and_dotted_paths_give_the_same_fingerprints(tmp_path, monkeypatch):
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "a.spmd").write_text(session(), encoding="utf-8")
    (tmp_path / "fountain-audit.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runs = [fingerprints("sessions/a.spmd"), fingerprints("./sessions/a.spmd"),
            fingerprints(str(tmp_path / "sessions" / "a.spmd")), fingerprints("sessions")]
    monkeypatch.chdir(tmp_path / "sessions")  # the config file's directory stays the root
    runs += [fingerprints("a.spmd"), fingerprints("../sessions/a.spmd")]
    assert runs[0] == [("P102", recipe("P102", "sessions/a.spmd", TOOL)),
                       ("H102", recipe("H102", "sessions/a.spmd", LOOSE_HEADING))]
    assert all(r == runs[0] for r in runs), runs


def test_moving_a_scene_and_blank_lines_keep_fingerprints(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = Path("a.spmd")
    path.write_text(session(), encoding="utf-8")
    before = lint_json("a.spmd")[1]
    assert [(d["code"], d["line"]) for d in before] == [("P102", 14), ("H102", 23)]
    path.write_text(session([SCENES[1], SCENES[2], SCENES[0]]), encoding="utf-8")  # P102's scene moves down
    moved = lint_json("a.spmd")[1]
    assert [(d["code"], d["line"]) for d in moved] == [("H102", 7), ("P102", 46)]
    path.write_text(session().replace("\n\n", "\n\n\n\n").replace("FADE IN:", "\n\nFADE IN:"), encoding="utf-8")
    spaced = lint_json("a.spmd")[1]
    assert [(d["code"], d["line"]) for d in spaced] == [("P102", 26), ("H102", 41)]
    path.write_bytes(session().replace("\n", "\r\n").encode("utf-8"))  # CRLF line ends (e.g. git autocrlf)
    crlf = lint_json("a.spmd")[1]
    assert [(d["code"], d["line"]) for d in crlf] == [("P102", 14), ("H102", 23)]
    key = lambda ds: sorted((d["code"], d["fingerprint"]) for d in ds)  # noqa: E731
    assert key(before) == key(moved) == key(spaced) == key(crlf)
    assert before[0]["message"] != moved[1]["message"]  # the message quotes a line number; the fingerprint does not


def test_renaming_the_project_directory_keeps_fingerprints(tmp_path, monkeypatch):
    old = tmp_path / "archive-2026"
    old.mkdir()
    (old / "a.spmd").write_text(session(), encoding="utf-8")
    monkeypatch.chdir(old)
    before = fingerprints(str(old / "a.spmd"))
    monkeypatch.chdir(tmp_path)
    new = tmp_path / "renamed"
    shutil.move(old, new)
    monkeypatch.chdir(new)
    assert fingerprints(str(new / "a.spmd")) == fingerprints("a.spmd") == before


def test_editing_the_flagged_element_changes_its_fingerprint_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.spmd").write_text(session(), encoding="utf-8")
    before = dict(fingerprints("a.spmd"))
    Path("a.spmd").write_text(session().replace(TOOL, TOOL.replace("a.go", "b.go"), 1), encoding="utf-8")
    after = dict(fingerprints("a.spmd"))
    assert after["H102"] == before["H102"] and after["P102"] != before["P102"]


def test_identical_elements_are_told_apart_by_occurrence(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    two = [SCENES[0], SCENES[0]]
    Path("a.spmd").write_text(session(two), encoding="utf-8")
    first = fingerprints("a.spmd")
    assert first == [("P102", recipe("P102", "a.spmd", TOOL, 0)), ("P102", recipe("P102", "a.spmd", TOOL, 1))]
    Path("a.spmd").write_text(session([*two, SCENES[0]]), encoding="utf-8")
    third = fingerprints("a.spmd")
    assert third[:2] == first and third[2] == ("P102", recipe("P102", "a.spmd", TOOL, 2))


def test_project_root_with_a_baseline_is_the_baseline_s_git_work_tree(tmp_path):
    (tmp_path / "proj" / "ci").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    baseline = tmp_path / "proj" / "ci" / "baseline.json"  # need not exist yet (an update creates it)
    # not in a work tree: as without a baseline (the current directory's tree, else the directory)
    assert project_root(cwd=tmp_path / "elsewhere", baseline=baseline) == (tmp_path / "elsewhere").resolve()
    (tmp_path / "proj" / ".git").mkdir()
    assert project_root(cwd=tmp_path / "elsewhere", baseline=baseline) == (tmp_path / "proj").resolve()
    (tmp_path / "elsewhere" / ".git").mkdir()  # another tree: the baseline's still
    assert project_root(cwd=tmp_path / "elsewhere", baseline=baseline) == (tmp_path / "proj").resolve()
    assert project_root(cwd=tmp_path / "elsewhere") == (tmp_path / "elsewhere").resolve()
    config = tmp_path / "elsewhere" / "pyproject.toml"  # a configuration file comes first
    assert project_root(config, cwd=tmp_path, baseline=baseline) == (tmp_path / "elsewhere").resolve()


def test_project_root_is_config_dir_else_git_work_tree_else_cwd(tmp_path):
    (tmp_path / "repo" / "sub" / "deep").mkdir(parents=True)
    assert project_root(cwd=tmp_path / "repo" / "sub") == (tmp_path / "repo" / "sub").resolve()
    (tmp_path / "repo" / ".git").mkdir()
    assert project_root(cwd=tmp_path / "repo" / "sub" / "deep") == (tmp_path / "repo").resolve()
    (tmp_path / "repo" / "sub" / "pyproject.toml").write_text("[tool.fountain-audit]\n")
    assert project_root(tmp_path / "repo" / "sub" / "pyproject.toml") == (tmp_path / "repo" / "sub").resolve()
    root = tmp_path.resolve()
    assert relative_path(str(root / "x" / "a.spmd"), root) == "x/a.spmd"
    assert relative_path("-", root) == "-"
    assert relative_path(os.path.join(str(root.parent), "b.spmd"), root) == "../b.spmd"


def test_element_content_takes_whole_lines_and_skips_file_level_rules():
    lines = ["Title: x", "  [[tool:  a()", "   — ok]]  ", "", "next"]
    d = Diagnostic("a", 2, 5, "N102", "tool-arguments-not-json", Severity.WARNING, "m", 3, 8)
    assert element_content(d, lines) == "[[tool: a() — ok]]"
    assert element_content(Diagnostic("a", 2, 1, "P102", "p", Severity.ERROR, "m"), lines) == "[[tool: a()"
    assert element_content(Diagnostic("a", 2, 1, "P102", "p", Severity.ERROR, "m", 5, 1), lines) == \
        "[[tool: a() — ok]]"  # an exclusive end at column 1 does not take line 5
    assert element_content(Diagnostic("a", 5, 1, "S104", "missing-the-end", Severity.WARNING, "m"), lines) == ""
    assert element_content(Diagnostic("a", 9, 1, "P102", "p", Severity.ERROR, "m"), lines) == ""


def test_parallel_and_standard_input_runs_give_the_same_fingerprints(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for n in range(3):
        Path(f"s{n}.spmd").write_text(session(), encoding="utf-8")
    serial = fingerprints("--jobs", "1", ".")
    assert len(serial) == 6 and len(set(serial)) == 6
    assert fingerprints("--jobs", "2", ".") == serial
    r = CliRunner().invoke(main, ["lint", "--output-format", "json", "-", "--stdin-filename", "s1.spmd"],
                           input=session().encode())
    assert [(d["code"], d["fingerprint"]) for d in json.loads(r.stdout)["diagnostics"]] == serial[2:4]


def test_excerpts_skip_the_per_line_scan_only_where_it_finds_nothing(monkeypatch):
    """In a file whose whole-text secret scan finds nothing, fingerprint.assign does not scan
    each finding's lines again (no line of the file can hold a secret then): fingerprints and
    excerpts are the same as with the scan, on every sample, every ../shared file and a file
    full of secrets."""
    from fountain_audit.lint import fingerprint
    from fountain_audit.lint.linter import lint_text
    from fountain_audit.parse.source import decode_bytes
    from fountain_audit.privacy.redact import mask

    from .conftest import SAMPLES, shared_files

    paths = sorted(p for p in SAMPLES.rglob("*") if p.is_file()) + shared_files()
    texts = [decode_bytes(p.read_bytes()) for p in paths]
    texts.append(A03 + "\nALICE\nkey=AKIAIOSFODNN7EXAMPLE ghp_" + "aB3dE6" * 6 + " password = 'Zq8#kLm2$vR9xT'\n")
    runs = [(t, lint_text(t, "f.spmd")) for t in texts]
    fast = [[(d.fingerprint, d.excerpt) for d in fingerprint.assign(found, t, "f.spmd")] for t, found in runs]
    calls = []

    def always_scanned(span, lines, shown_lines, mask_):
        calls.append(shown_lines is lines)
        first, last = span
        text = mask("\n".join(lines[first - 1:last]))
        hidden = "\n".join(shown_lines[first - 1:last])
        if hidden != text:
            text = "".join(a if a == b else "*" for a, b in zip(text, hidden))
        return fingerprint.normalise(text)

    monkeypatch.setattr(fingerprint, "_shown_content", always_scanned)
    slow = [[(d.fingerprint, d.excerpt) for d in fingerprint.assign(found, t, "f.spmd")] for t, found in runs]
    assert fast == slow
    assert True in calls and False in calls  # both kinds of file were compared

"""The baseline (issue 12): adopt the linter on an archive, report only new findings, drop stale
entries on update; durable, locked, journalled, bounded, never trusted blindly."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from fountain_audit import schemas
from fountain_audit.cli import main
from fountain_audit.lint import baseline as bl

from .test_fingerprint import LOOSE_HEADING, SCENES, TOOL, chat, recipe, session
from .test_formats import cli_env

DAY = "2026-12-01"
EPOCH = "1796083200"  # 2026-12-01T00:00:00Z
P102_LINE = ("sessions/a.spmd:14:1: P102 [tools-between-forward-and-reply] tool note before HARVEY's forwarding "
             "line (line 17); it belongs after it, before the reply")


def lint(*args: str):
    return CliRunner().invoke(main, ["lint", "--output-format", "concise", *args], env={"SOURCE_DATE_EPOCH": EPOCH},
                              catch_exceptions=False)


@pytest.fixture
def project(tmp_path, monkeypatch):
    """tmp/proj: sessions/a.spmd (a P102 error and an H102 warning), sessions/b.spmd (clean)."""
    root = tmp_path / "proj"
    (root / "sessions").mkdir(parents=True)
    (root / "sessions" / "a.spmd").write_text(session(), encoding="utf-8")
    (root / "sessions" / "b.spmd").write_text(session([SCENES[2]]), encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def entry(code: str, content: str, index: int = 0, path: str = "sessions/a.spmd") -> str:
    fp = recipe(code, path, content, index)
    return json.dumps({"fingerprint": fp, "code": code, "path": path, "excerpt": content, "added": DAY},
                      ensure_ascii=False)


def adopt() -> None:
    r = lint("--baseline", "baseline.json", "--update-baseline", "sessions")
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 2 files checked; 2 baselined.\n")
    assert r.stderr == "fountain-audit: baseline baseline.json: 2 entries (2 added, 0 removed)\n"


def test_a_baseline_in_missing_folders_is_created_with_them(project):
    r = lint("--baseline", "ci/state/baseline.json", "--update-baseline", "sessions")
    assert (r.exit_code, r.stderr) == (0, "fountain-audit: baseline ci/state/baseline.json: 2 entries (2 added, "
                                          "0 removed)\n")
    assert sorted(os.listdir("ci/state")) == ["baseline.json", "baseline.json.journal.jsonl", "baseline.json.lock"]
    assert lint("--baseline", "ci/state/baseline.json", "sessions").exit_code == 0


@pytest.mark.parametrize("name", ["ci/", "ci/.", "ci/.."])
@pytest.mark.parametrize("update", [True, False])
def test_a_folder_s_name_is_refused_before_anything_is_made(project, name, update):
    r = lint("--baseline", name, *(["--update-baseline"] if update else []), "sessions")
    assert r.exit_code == 2
    assert r.stderr == (f"fountain-audit: error: {name}: a folder's name, not a file's: name the baseline's file "
                        f"(e.g. {name}{'' if name.endswith('/') else '/'}fountain-audit-baseline.json)\n")
    assert sorted(os.listdir(".")) == ["sessions"]  # (--update-baseline made the folder `ci`, then failed)


def test_adopt_then_only_a_new_violation_is_reported(project):
    assert lint("sessions").exit_code == 1
    adopt()
    # sorted by path, code, fingerprint; one entry per line
    assert Path("baseline.json").read_text(encoding="utf-8") == (
        '{\n  "version": 1,\n  "tool": "fountain-audit",\n  "entries": [\n'
        f"    {entry('H102', LOOSE_HEADING)},\n    {entry('P102', TOOL)}\n  ]\n}}\n")
    jsonschema.Draft202012Validator(schemas.load("baseline")).validate(json.loads(Path("baseline.json").read_text()))
    journal = [json.loads(line) for line in Path("baseline.json.journal.jsonl").read_text().splitlines()]
    assert [(j["change"], j["code"], j["path"]) for j in journal] == [("added", "H102", "sessions/a.spmd"),
                                                                       ("added", "P102", "sessions/a.spmd")]
    r = lint("--baseline", "baseline.json", "sessions")
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 2 files checked; 2 baselined.\n")
    # a new violation in the file that has baselined ones: a second, different tool-first scene
    Path("sessions/a.spmd").write_text(session([*SCENES, chat("2026-06-24 10:00:00", "More?", tool_first=True)]),
                                       encoding="utf-8")
    r = lint("--baseline", "baseline.json", "sessions")
    assert r.exit_code == 1
    assert r.stdout == (P102_LINE.replace(":14:1:", ":62:1:").replace("(line 17)", "(line 65)") + "\n"
                        "Found 1 error, 0 warnings, 0 infos in 2 files checked; 2 baselined.\n")


def test_moved_scene_blank_lines_and_renamed_project_stay_baselined(project, tmp_path, monkeypatch):
    adopt()
    a = Path("sessions/a.spmd")
    a.write_text(session([SCENES[1], SCENES[2], SCENES[0]]), encoding="utf-8")
    r = lint("--baseline", "baseline.json", "sessions")
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 2 files checked; 2 baselined.\n")
    a.write_text(a.read_text().replace("\n\n", "\n\n\n"), encoding="utf-8")
    r = lint("--baseline", "baseline.json", "sessions")
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 2 files checked; 2 baselined.\n")
    monkeypatch.chdir(tmp_path)
    shutil.move(project, tmp_path / "renamed")
    monkeypatch.chdir(tmp_path / "renamed")
    r = lint("--baseline", "baseline.json", "sessions")
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 2 files checked; 2 baselined.\n")
    r = lint("--baseline", str(tmp_path / "renamed" / "baseline.json"), str(tmp_path / "renamed" / "sessions"))
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 2 files checked; 2 baselined.\n")


def test_a_baseline_in_a_git_work_tree_matches_from_outside_it_and_from_another_tree(project, tmp_path, monkeypatch):
    # (user trial: the baseline written inside proj2, a git work tree; `cd /tmp/x && lint --baseline
    # /tmp/x/proj2/... /tmp/x/proj2/sessions` reported 0 baselined: the root came from the current directory)
    (project / ".git").mkdir()
    adopt()
    baseline, sessions = str(project / "baseline.json"), str(project / "sessions")
    for cwd in (tmp_path, tmp_path / "other", project / "sessions"):
        cwd.mkdir(exist_ok=True)
        if cwd.name == "other":
            (cwd / ".git").mkdir()  # another work tree: still the baseline's own tree
        monkeypatch.chdir(cwd)
        r = lint("--baseline", baseline, sessions)
        assert (r.exit_code, r.stdout, r.stderr) == (0, "All clear: no problems in 2 files checked; 2 baselined.\n", "")
    # an update from outside keeps the paths relative to the baseline's tree
    monkeypatch.chdir(tmp_path)
    r = lint("--baseline", baseline, "--update-baseline", sessions)
    assert r.stderr == "fountain-audit: baseline proj/baseline.json: 2 entries (0 added, 0 removed)\n"
    assert [e["path"] for e in json.loads(Path(baseline).read_text())["entries"]] == ["sessions/a.spmd"] * 2


def test_a_baseline_that_matches_nothing_names_the_root_used(project, tmp_path, monkeypatch):
    # no git work tree, no configuration: the root is the current directory, and a baseline written
    # in proj names sessions/a.spmd where a run from proj's parent has proj/sessions/a.spmd
    adopt()
    monkeypatch.chdir(tmp_path)
    r = lint("--baseline", "proj/baseline.json", "proj/sessions")
    assert r.exit_code == 1
    assert r.stdout.endswith("Found 1 error, 0 warnings, 1 info in 2 files checked; 0 baselined.\n")
    root = str(tmp_path.resolve())
    assert r.stderr == (
        "fountain-audit: warning: baseline proj/baseline.json: none of its 2 entries matches a finding of this run, "
        "though its entries name sessions/a.spmd where this run has proj/sessions/a.spmd; paths and fingerprints "
        f"are relative to the project root, {root} here (the configuration file's directory, else the git work "
        "tree holding the baseline, else the one holding the current directory, else the current directory); "
        "if the files moved, --update-baseline records them under their new paths (an update that searches their old "
        "folder, or the project root, drops the old entries)\n")
    # a baseline naming the file as this run does, none of whose entries matches: said too
    monkeypatch.chdir(project)
    Path("sessions/a.spmd").write_text(session([SCENES[0]]).replace('"a.go"', '"z.go"'), encoding="utf-8")
    r = lint("--baseline", "baseline.json", "sessions")
    assert r.exit_code == 1
    assert "0 baselined, 2 stale baseline entries" in r.stdout
    assert r.stderr == (
        "fountain-audit: warning: baseline baseline.json: none of its 2 entries matches a finding of this run, "
        "though it has entries for sessions/a.spmd; paths and fingerprints are relative to the project root, "
        f"{project.resolve()} here (the configuration file's directory, else the git work tree holding the "
        "baseline, else the one holding the current directory, else the current directory)\n")
    # nothing said when the files with findings are ones the baseline has no entries for, or once one matches
    Path("sessions/a.spmd").write_text(session(), encoding="utf-8")
    Path("sessions/c.spmd").write_text(session([chat("2026-06-24 10:00:00", "More?", tool_first=True)]),
                                       encoding="utf-8")
    assert lint("--baseline", "baseline.json", "sessions").stderr == ""
    assert lint("--baseline", "baseline.json", "sessions/c.spmd").stderr == ""


def test_a_baseline_after_its_folder_was_renamed_says_so(project):
    # (noted at stop 35: `mv sessions archive` left every finding new and nothing said why)
    adopt()
    shutil.move("sessions", "archive")
    r = lint("--baseline", "baseline.json", "archive")
    assert r.exit_code == 1
    assert r.stdout.endswith("Found 1 error, 0 warnings, 1 info in 2 files checked; 0 baselined.\n")
    assert r.stderr == (
        "fountain-audit: warning: baseline baseline.json: none of its 2 entries matches a finding of this run, "
        "though its entries name sessions/a.spmd where this run has archive/a.spmd; paths and fingerprints are "
        f"relative to the project root, {project.resolve()} here (the configuration file's directory, else the git "
        "work tree holding the baseline, else the one holding the current directory, else the current directory); "
        "if the files moved, --update-baseline records them under their new paths (an update that searches their old "
        "folder, or the project root, drops the old entries)\n")
    # a file of that name still in the old folder: another file, nothing said
    Path("sessions").mkdir()
    shutil.copy("archive/a.spmd", "sessions/a.spmd")
    assert lint("--baseline", "baseline.json", "archive").stderr == ""
    shutil.rmtree("sessions")
    r = lint("--baseline", "baseline.json", "--update-baseline", "archive")  # (sessions/ not searched: kept)
    assert r.stderr == "fountain-audit: baseline baseline.json: 4 entries (2 added, 0 removed)\n"
    r = lint("--baseline", "baseline.json", "--update-baseline", ".")  # (the root: sessions/a.spmd is gone)
    assert r.stderr == "fountain-audit: baseline baseline.json: 2 entries (0 added, 2 removed)\n"
    assert lint("--baseline", "baseline.json", "archive").stdout == (
        "All clear: no problems in 2 files checked; 2 baselined.\n")


def test_fixed_finding_is_reported_stale_and_dropped_on_update(project):
    adopt()
    Path("sessions/a.spmd").write_text(session([chat("2026-06-24 10:00:00", "What is in a.go?"), *SCENES[1:]]),
                                       encoding="utf-8")
    r = lint("--baseline", "baseline.json", "sessions")
    assert r.exit_code == 0
    assert r.stdout == ('baseline.json: stale baseline entry P102 in sessions/a.spmd: "' + TOOL + '" matches '
                        "nothing now; --update-baseline drops it\n"
                        "All clear: no problems in 2 files checked; 1 baselined, 1 stale baseline entry.\n")
    r = CliRunner().invoke(main, ["lint", "--output-format", "json", "--baseline", "baseline.json", "sessions"])
    doc = json.loads(r.stdout)
    jsonschema.Draft202012Validator(schemas.load("lint")).validate(doc)
    assert doc["baseline"] == {"file": "baseline.json", "baselined": 1, "stale": [json.loads(entry("P102", TOOL))]}
    assert "stale baseline entry P102" in r.stderr
    # linting only b.spmd, or only other rules, says nothing of a.spmd's P102 entry
    assert lint("--baseline", "baseline.json", "sessions/b.spmd").stdout == \
        "All clear: no problems in 1 file checked; 0 baselined.\n"
    assert lint("--baseline", "baseline.json", "--select", "H", "sessions").stdout == \
        "All clear: no problems in 2 files checked; 1 baselined.\n"
    r = lint("--baseline", "baseline.json", "--update-baseline", "sessions")
    assert r.stderr == "fountain-audit: baseline baseline.json: 1 entry (0 added, 1 removed)\n"
    assert r.stdout == "All clear: no problems in 2 files checked; 1 baselined.\n"
    assert [e["code"] for e in json.loads(Path("baseline.json").read_text())["entries"]] == ["H102"]
    last = json.loads(Path("baseline.json.journal.jsonl").read_text().splitlines()[-1])
    assert {k: v for k, v in last.items() if k != "when"} == {
        "change": "removed", **{k: v for k, v in json.loads(entry("P102", TOOL)).items() if k != "added"}}
    assert last["when"].endswith("Z")


def test_the_entries_of_a_file_gone_from_a_searched_folder_are_stale_and_dropped(project):
    # (a new user moved a file out of the linted folder: its entry stayed, never reported stale)
    adopt()
    Path("elsewhere").mkdir()
    Path("sessions/a.spmd").rename("elsewhere/a.spmd")
    # a file named alone, or a folder other than the one it was in, judges nothing about it
    assert lint("--baseline", "baseline.json", "sessions/b.spmd").stdout == \
        "All clear: no problems in 1 file checked; 0 baselined.\n"
    assert lint("--baseline", "baseline.json", "elsewhere").exit_code == 1  # its findings are new there
    r = lint("--baseline", "baseline.json", "sessions")
    assert (r.exit_code, r.stdout.splitlines()) == (0, [
        "baseline.json: stale baseline entry H102 in sessions/a.spmd: "
        + json.loads(Path("baseline.json").read_text())["entries"][0]["excerpt"].join('""')
        + " matches nothing now; --update-baseline drops it",
        'baseline.json: stale baseline entry P102 in sessions/a.spmd: "' + TOOL + '" matches nothing now; '
        "--update-baseline drops it",
        "All clear: no problems in 1 file checked; 0 baselined, 2 stale baseline entries."])
    r = lint("--baseline", "baseline.json", "--update-baseline", "sessions")
    assert r.stderr == "fountain-audit: baseline baseline.json: 0 entries (0 added, 2 removed)\n"
    assert json.loads(Path("baseline.json").read_text())["entries"] == []


def test_gone_paths_judges_only_the_folders_searched(tmp_path):
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "here.spmd").write_text("x", encoding="utf-8")
    entries = [bl.Entry("f", "P102", path, "x", DAY) for path in
               ("s/here.spmd", "s/gone.spmd", "t/gone.spmd", "../out.spmd", "s/\\xff.spmd", "top.spmd")]
    assert bl.gone_paths(entries, ["s"], str(tmp_path)) == {"s/gone.spmd"}
    assert bl.gone_paths(entries, ["."], str(tmp_path)) == {"s/gone.spmd", "t/gone.spmd", "top.spmd"}
    assert bl.gone_paths(entries, [], str(tmp_path)) == frozenset()


def test_the_baseline_is_named_relative_to_the_current_directory_however_it_is_given(project):
    """The stale-entry line named a baseline from the configuration by its absolute path, and one
    from --baseline as typed: both are named relative to the current directory when under it
    (text and json); one above it keeps its absolute path."""
    adopt()
    Path("sessions/a.spmd").write_text(session([chat("2026-06-24 10:00:00", "What is in a.go?"), *SCENES[1:]]),
                                       encoding="utf-8")
    stale = ('baseline.json: stale baseline entry P102 in sessions/a.spmd: "' + TOOL + '" matches '
             "nothing now; --update-baseline drops it\n"
             "All clear: no problems in 2 files checked; 1 baselined, 1 stale baseline entry.\n")
    Path("fountain-audit.toml").write_text('baseline = "baseline.json"\n')
    for given in ([], ["--baseline", str(project / "baseline.json")], ["--baseline", "baseline.json"]):
        r = lint(*given, "sessions")
        assert (r.exit_code, r.stdout, r.stderr) == (0, stale, "")
        r = CliRunner().invoke(main, ["lint", "--output-format", "json", *given, "sessions"])
        assert json.loads(r.stdout)["baseline"]["file"] == "baseline.json"
    r = lint("--update-baseline", "sessions")
    assert r.stderr == "fountain-audit: baseline baseline.json: 1 entry (0 added, 1 removed)\n"
    os.chdir("sessions")  # the baseline is above the current directory: its absolute path
    r = lint(".")
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 2 files checked; 1 baselined.\n")
    Path("../baseline.json").write_text("{", encoding="utf-8")
    r = lint(".")
    assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: {project / 'baseline.json'}:1:2: not valid JSON: "
                                          "Expecting property name enclosed in double quotes\n")


def test_update_with_a_subset_keeps_other_files_entries_and_dates(project):
    adopt()
    Path("sessions/b.spmd").write_text(session([SCENES[1]]), encoding="utf-8")
    r = CliRunner().invoke(main, ["lint", "--baseline", "baseline.json", "--update-baseline", "sessions/b.spmd"],
                           env={"SOURCE_DATE_EPOCH": str(int(EPOCH) + 86400)})
    assert r.stderr == "fountain-audit: baseline baseline.json: 3 entries (1 added, 0 removed)\n"
    entries = json.loads(Path("baseline.json").read_text())["entries"]
    assert [(e["path"], e["code"], e["added"]) for e in entries] == [
        ("sessions/a.spmd", "H102", DAY), ("sessions/a.spmd", "P102", DAY), ("sessions/b.spmd", "H102", "2026-12-02")]


def test_baseline_from_the_configuration(project):
    Path("fountain-audit.toml").write_text('baseline = "ci/baseline.json"\nbaseline-max-entries = 2\n')
    Path("ci").mkdir()
    r = lint("--update-baseline", "sessions")
    assert r.exit_code == 0 and Path("ci/baseline.json").is_file()
    os.chdir("sessions")  # the path is relative to the configuration file, not the current directory
    r = lint(".")
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 2 files checked; 2 baselined.\n")
    os.chdir("..")
    Path("sessions/b.spmd").write_text(session([SCENES[1]]), encoding="utf-8")
    r = lint("--update-baseline", "sessions")
    assert r.exit_code == 2
    # named relative to the current directory, as --baseline ci/baseline.json would be (it was absolute)
    assert r.stderr == ("fountain-audit: error: ci/baseline.json: 3 entries would "
                        "exceed baseline-max-entries (2); the baseline was not written\n")
    assert len(json.loads(Path("ci/baseline.json").read_text())["entries"]) == 2
    r = lint("--update-baseline", "--isolated", "sessions")
    assert r.exit_code == 2 and "--update-baseline needs --baseline FILE" in r.stderr


@pytest.mark.parametrize("content, problem", [
    # (the position as file:line:col, as every other message gives it: it said "... at line 1 column 54")
    ('{"version": 1, "tool": "fountain-audit", "entries": [', ":1:54: not valid JSON: Expecting value"),
    ('{\n  "version": 1,\n  x', ":3:3: not valid JSON: Expecting property name enclosed in double quotes"),
    ('{"version": 2, "tool": "fountain-audit", "entries": []}',
     "unknown baseline version 2 (this fountain-audit reads version 1); upgrade fountain-audit"),
    ('{"version": 1, "tool": "fountain-audit", "entries": [{"fingerprint": "x"}]}',
     "does not match the baseline schema: entries[0] must contain ['added', 'code', 'excerpt', 'path'] "
     "properties (see 'fountain-audit schema baseline')"),
    ('{"version": 1, "tool": "fountain-audit", "entries": {}}',
     "does not match the baseline schema: entries must be array (see 'fountain-audit schema baseline')"),
    ('[]', "does not match the baseline schema: the document must be object (see 'fountain-audit schema baseline')"),
    ('{"version": 1, "tool": "fountain-audit", "entries": [' + entry("P102", TOOL) + ", " + entry("P102", TOOL) + "]}",
     f"entries[1]: fingerprint {recipe('P102', 'sessions/a.spmd', TOOL)} is listed twice"),
    (b"\xff\xfe{}", "not UTF-8 (invalid start byte at byte 0)"),
    ("1" * 5000, "not a valid baseline: a number too long to read"),  # int() refuses 4,300+ digits
    ('{"version": 1, "tool": "fountain-audit", "entries": [' + "9" * 5000 + "]}",
     "not a valid baseline: a number too long to read"),
    # (adversarial trial, stop 37: 1e400 said "upgrade fountain-audit"; a date the pattern takes was kept)
    ('{"version": 1e400, "tool": "fountain-audit", "entries": []}',
     "not a valid baseline: version Infinity is no layout version (this fountain-audit reads version 1)"),
    ('{"version": 1, "tool": "fountain-audit", "entries": [' + entry("P102", TOOL).replace(DAY, "2026-13-45") + "]}",
     'entries[0]: added "2026-13-45" is no date (YYYY-MM-DD)'),
])
def test_an_unusable_baseline_exits_2_naming_the_file(project, content, problem):
    Path("bad.json").write_bytes(content if isinstance(content, bytes) else content.encode())
    for extra in ([], ["--update-baseline"]):
        r = lint("--baseline", "bad.json", *extra, "sessions")
        where = "bad.json" + ("" if problem.startswith(":") else ": ")
        assert (r.exit_code, r.stdout, r.stderr) == (2, "", f"fountain-audit: error: {where}{problem}\n")
    assert Path("bad.json").read_bytes() == (content if isinstance(content, bytes) else content.encode())


def test_missing_and_oversized_baselines_exit_2(project):
    r = lint("--baseline", "nope.json", "sessions")
    assert (r.exit_code, r.stderr) == (2, "fountain-audit: error: nope.json: no such baseline "
                                          "(create it with --update-baseline)\n")
    adopt()
    Path("fountain-audit.toml").write_text("baseline-max-entries = 1\n")
    r = lint("--baseline", "baseline.json", "sessions")
    assert (r.exit_code, r.stderr) == (2, "fountain-audit: error: baseline.json: 2 entries, more than "
                                          "baseline-max-entries (1)\n")
    Path("huge.json").write_bytes(b" " * (bl.max_bytes(1) + 1))
    r = lint("--baseline", "huge.json", "sessions")
    assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: huge.json: larger than {bl.max_bytes(1)} bytes, "
                                          "more than baseline-max-entries (1) entries can take\n")
    Path("fountain-audit.toml").write_text("baseline-max-entries = 0\n")
    r = lint("sessions")
    assert r.exit_code == 2 and "'baseline-max-entries' must be a positive integer, not 0" in r.stderr


def test_excerpts_are_printed_with_control_characters_escaped(project):
    fp = "0" * 32
    Path("b.json").write_text(bl.render([bl.Entry(fp, "P102", "sessions/a.spmd", "\x1b]0;owned\x07 \u202e", DAY)]))
    r = lint("--baseline", "b.json", "--select", "P102", "sessions")
    assert r.stdout.splitlines()[1] == ('b.json: stale baseline entry P102 in sessions/a.spmd: '
                                        '"\\x1b]0;owned\\x07 \\u202e" matches nothing now; --update-baseline drops it')


def test_a_stale_whole_file_entry_says_its_excerpt_is_no_session_text(project):
    """S104 and the other whole-file rules have no element: their excerpt is the message, and a
    stale one was quoted as if the file held that text."""
    message = "session does not end with 'THE END.' (closed sessions end with it)"
    Path("b.json").write_text(bl.render([bl.Entry("0" * 32, "S104", "sessions/a.spmd", message, DAY)]))
    r = lint("--baseline", "b.json", "--select", "S104", "sessions")
    assert r.stdout.splitlines()[0] == (f'b.json: stale baseline entry S104 in sessions/a.spmd (about the whole file: '
                                        f'"{message}") matches nothing now; --update-baseline drops it')


def test_excerpts_are_printed_on_one_line(project):
    """A newline or CR in a stale entry's excerpt cannot forge an output line such as
    "All clear…": it is printed as \\n, \\r\\n, \\x0d, as file names are."""
    forged = "x\nAll clear: no problems in 9 files checked.\r\ny\rz\tw"
    Path("b.json").write_text(bl.render([bl.Entry("0" * 32, "P102", "sessions/a.spmd", forged, DAY)]))
    r = lint("--baseline", "b.json", "--select", "P102", "sessions")
    lines = r.stdout.splitlines()
    assert lines[1] == ('b.json: stale baseline entry P102 in sessions/a.spmd: '
                        '"x\\nAll clear: no problems in 9 files checked.\\r\\ny\\x0dz\\tw" matches nothing now; '
                        '--update-baseline drops it')
    assert not any(x.startswith("All clear") for x in lines) and "\r" not in r.stdout


def _raw_baseline(*entries: tuple[str, str, str]) -> str:
    """A baseline file written by hand: ``(fingerprint digit, path, excerpt)`` with JSON escapes as given."""
    rows = [f'{{"fingerprint": "{d * 32}", "code": "P102", "path": "{p}", "excerpt": "{x}", "added": "{DAY}"}}'
            for d, p, x in entries]
    return '{"version": 1, "tool": "fountain-audit", "entries": [\n' + ",\n".join(rows) + "\n]}\n"


def test_lone_surrogates_in_a_baseline_are_read_escaped(project):
    """JSON lets a baseline write a lone surrogate ("\\ud800"), which UTF-8 cannot encode: read as
    the escape text \\ud800, so that --update-baseline writes the baseline and its journal (was a
    UnicodeEncodeError traceback in append_journal, after the baseline was written; a path with
    \\udcff crashed in write_atomic), and lint prints the stale entry escaped."""
    Path("b.json").write_text(_raw_baseline(("0", "sessions/a.spmd", "\\ud800 \\udcff"),
                                            ("1", "other\\udcff.spmd", "x"),
                                            ("2", "sessions/b.spmd", "\\ud800" * 81)), encoding="utf-8")
    r = lint("--baseline", "b.json", "--select", "P102", "sessions")
    assert r.exit_code == 1 and ('stale baseline entry P102 in sessions/a.spmd: "\\ud800 \\udcff" matches nothing '
                                 'now') in r.stdout
    r = lint("--baseline", "b.json", "--update-baseline", "--select", "P102", "sessions")
    assert r.exit_code == 0, r.output
    kept = bl.load("b.json")
    assert [(e.path, e.excerpt) for e in kept.values() if e.code == "P102" and e.fingerprint[0] == "1"] == [
        ("other\\udcff.spmd", "x")]  # not in scope: kept, escaped
    assert "\\ud800" not in Path("b.json").read_text(encoding="utf-8").replace("\\\\ud800", "")
    journal = [json.loads(x) for x in Path("b.json.journal.jsonl").read_text(encoding="utf-8").splitlines()]
    removed = {j["fingerprint"][0]: j["excerpt"] for j in journal if j["change"] == "removed"}
    assert removed == {"0": "\\ud800 \\udcff", "2": "\\ud800" * 13 + "\\u…"}  # at most 80 code points and …


def test_a_baseline_path_too_long_once_escaped_is_refused(project):
    content = _raw_baseline(("1", "x" + "\\udcff" * 1000, "x"))
    Path("b.json").write_text(content, encoding="utf-8")
    for extra in ([], ["--update-baseline"]):
        r = lint("--baseline", "b.json", *extra, "sessions")
        assert (r.exit_code, r.stdout) == (2, "")
        assert r.stderr == ("fountain-audit: error: b.json: entries[0]: path holds lone surrogates (\\udXXX, not "
                            "text), too many to keep escaped\n")
    assert Path("b.json").read_text(encoding="utf-8") == content and not Path("b.json.journal.jsonl").exists()


def test_schema_command_prints_the_baseline_schema():
    r = CliRunner().invoke(main, ["schema", "baseline"])
    assert r.exit_code == 0 and json.loads(r.stdout) == schemas.load("baseline")
    jsonschema.Draft202012Validator.check_schema(schemas.load("baseline"))


# -- real processes: concurrent updates, the lock, kill -9 ------------------------------------------------

def cli(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "fountain_audit", "lint", *args], cwd=cwd,
                            env=cli_env(SOURCE_DATE_EPOCH=EPOCH), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_two_concurrent_updates_on_different_files_both_land(project):
    Path("sessions/b.spmd").write_text(session([SCENES[1]]), encoding="utf-8")  # one H102
    for _ in range(3):
        Path("baseline.json").unlink(missing_ok=True)
        procs = [cli("--baseline", "baseline.json", "--update-baseline", f"sessions/{n}.spmd", cwd=project)
                 for n in ("a", "b")]
        outs = [p.communicate(timeout=120) for p in procs]
        assert [p.returncode for p in procs] == [0, 0], outs
        assert sorted((e.path, e.code) for e in bl.load("baseline.json").values()) == [
            ("sessions/a.spmd", "H102"), ("sessions/a.spmd", "P102"), ("sessions/b.spmd", "H102")]
        journal = Path("baseline.json.journal.jsonl").read_text().splitlines()
        assert len(journal) % 3 == 0  # every update journals what it added


def test_an_update_waits_for_the_lock_and_reloads_inside_it(project):
    adopt()
    Path("sessions/b.spmd").write_text(session([SCENES[1]]), encoding="utf-8")
    with bl.locked(str(project / "baseline.json")):
        proc = cli("--baseline", "baseline.json", "--update-baseline", "sessions/b.spmd", cwd=project)
        time.sleep(3)
        assert proc.poll() is None  # blocked on the lock
        # another writer lands meanwhile (as a concurrent update would): the waiting one must keep it
        extra = bl.Entry("f" * 32, "S104", "sessions/c.spmd", "gone", DAY)
        bl.write_durable("baseline.json", bl.render([*bl.load("baseline.json").values(), extra]))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert err.decode() == "fountain-audit: baseline baseline.json: 4 entries (1 added, 0 removed)\n"
    assert sorted((e.path, e.code) for e in bl.load("baseline.json").values()) == [
        ("sessions/a.spmd", "H102"), ("sessions/a.spmd", "P102"), ("sessions/b.spmd", "H102"),
        ("sessions/c.spmd", "S104")]


def test_kill_9_during_updates_leaves_the_old_or_the_new_baseline(project):
    # a big baseline (entries of other files, kept by every update) makes each write take a while
    filler = [bl.Entry(f"{i:032x}", "T104", f"archive/{i % 997}.spmd", "x" * 80, DAY) for i in range(20000)]
    Path("baseline.json").write_text(bl.render(filler), encoding="utf-8")
    variants = [session(), session([SCENES[0], SCENES[0]])]  # {H102, P102 #0} / {P102 #0, P102 #1}
    wanted = [{recipe("H102", "sessions/a.spmd", LOOSE_HEADING), recipe("P102", "sessions/a.spmd", TOOL)},
              {recipe("P102", "sessions/a.spmd", TOOL), recipe("P102", "sessions/a.spmd", TOOL, 1)}]
    others = {e.fingerprint for e in filler}
    rng = random.Random(12)
    seen = []
    for i in range(6):
        old = set(bl.load("baseline.json"))
        Path("sessions/a.spmd").write_text(variants[i % 2], encoding="utf-8")
        proc = cli("--baseline", "baseline.json", "--update-baseline", "sessions/a.spmd", cwd=project)
        if i % 4 == 3:
            time.sleep(rng.uniform(0.05, 1.0))  # anywhere: start-up, linting, loading under the lock
        else:  # aim at the write: kill once the temporary file exists, at a random point of writing it
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline and \
                    not any(n.startswith(".baseline.json.") for n in os.listdir(project)):
                time.sleep(0.0005)
            time.sleep(rng.uniform(0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        now = set(bl.load("baseline.json"))  # parses and matches the schema: never a torn file
        assert now in (old, others | wanted[i % 2]), i
        seen.append("old" if now == old else "new")
    final = cli("--baseline", "baseline.json", "--update-baseline", "sessions/a.spmd", cwd=project)
    assert final.wait(timeout=120) == 0
    assert set(bl.load("baseline.json")) == others | wanted[1]
    # temporary files that killed updates left are removed by the next update (under the lock)
    assert sorted(n for n in os.listdir(project) if n.startswith("baseline.json") or n.startswith(".")
                  and n != ".fountain_audit_cache") == [
        "baseline.json", "baseline.json.journal.jsonl", "baseline.json.lock"]
    print("kill -9 outcomes:", seen)


def test_an_undecodable_file_name_is_stored_escaped_and_still_matches(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path(os.fsdecode(b"a\xff.spmd")).write_text(session(), encoding="utf-8")
    r = lint("--baseline", "b.json", "--update-baseline", ".")
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 1 file checked; 2 baselined.\n")
    assert {e.path for e in bl.load("b.json").values()} == {"a\\xff.spmd"}
    Path(os.fsdecode(b"a\xff.spmd")).write_text(session(SCENES[1:]), encoding="utf-8")  # P102 fixed
    r = lint("--baseline", "b.json", "--update-baseline", ".")
    assert r.stderr == "fountain-audit: baseline b.json: 1 entry (0 added, 1 removed)\n"


def test_the_runtime_check_agrees_with_the_published_schema():
    """The CLI validates with fastjsonschema (fast on 50,000 entries); jsonschema is the reference."""
    good = {"fingerprint": "a" * 32, "code": "P102", "path": "s.spmd", "excerpt": "x", "added": DAY}
    variants = [good, {**good, "fingerprint": "A" * 32}, {**good, "code": "p102"}, {**good, "path": ""},
                {**good, "excerpt": "x" * 81}, {**good, "excerpt": "x" * 82}, {**good, "added": "2026-12-1"},
                {**good, "extra": 1}, {k: v for k, v in good.items() if k != "added"}, {**good, "code": 102}]
    docs = [{"version": 1, "tool": "fountain-audit", "entries": [v]} for v in variants]
    docs += [{"version": 1, "tool": "other", "entries": []}, {"version": 1, "entries": []},
             {"version": 1, "tool": "fountain-audit", "entries": [], "x": 0}, {"version": 1.0, "tool": "fountain-audit",
                                                                             "entries": []}]
    reference = jsonschema.Draft202012Validator(schemas.load("baseline"))
    verdicts = []
    for doc in docs:
        try:
            bl.parse("b.json", json.dumps(doc).encode())
            ours = True
        except bl.BaselineError:
            ours = False
        assert ours == reference.is_valid(doc), doc
        verdicts.append(ours)
    assert verdicts == [True, False, False, False, True, False, False, False, False, False,
                        False, False, False, True]


def test_a_symlink_at_the_baseline_name_is_replaced_never_written_through(project):
    # (the file the link named was replaced: a committed link could point anywhere; adversarial trial)
    Path("shared").mkdir()
    os.symlink("shared/real.json", "baseline.json")
    adopt()
    assert not os.path.islink("baseline.json") and len(bl.load("baseline.json")) == 2
    assert os.listdir("shared") == []
    assert {"baseline.json.journal.jsonl", "baseline.json.lock"} <= set(os.listdir("."))


def test_baseline_fifo_and_deep_json_exit_2(tmp_path):
    import os

    from click.testing import CliRunner

    from fountain_audit.cli import main as cli_main
    sample = str(Path(__file__).parents[1] / "samples" / "clean-session.spmd")
    fifo = tmp_path / "p.json"
    os.mkfifo(fifo)
    r = CliRunner().invoke(cli_main, ["lint", "--isolated", "--baseline", str(fifo), sample])
    assert r.exit_code == 2 and f"{fifo}: not a regular file" in r.output
    deep = tmp_path / "d.json"
    deep.write_text("[" * 100_000)
    r = CliRunner().invoke(cli_main, ["lint", "--isolated", "--baseline", str(deep), sample])
    assert r.exit_code == 2 and "not a valid baseline: JSON nested too deeply" in r.output


def test_baseline_excerpt_never_holds_a_secret(tmp_path):
    from click.testing import CliRunner

    from fountain_audit.cli import main as cli_main
    token = "ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
    f = tmp_path / "s.spmd"
    f.write_text("Title: x\n\nFADE IN:\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\n"
                 f"key {token}\n")
    b = tmp_path / "b.json"
    CliRunner().invoke(cli_main, ["lint", "--isolated", "--baseline", str(b), "--update-baseline", str(f)])
    assert b.exists() and token[4:] not in b.read_text() and "key ghp_****" in b.read_text()


REPEAT_SESSION = ("Title: x\n\nFADE IN:\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\n"
                  "My password: Tr0ub4dor&3xQz\n\nMARGOT\nI typed Tr0ub4dor&3xQz into the box.\n")


@pytest.mark.parametrize("redact", [[], ["--redact"]])
def test_baseline_excerpt_masks_a_secret_found_as_a_repeat(tmp_path, monkeypatch, redact):
    """The password is found after its keyword on one line and, as a repeat, on another line
    whose own text the detectors do not call a secret: both excerpts are masked, in the
    baseline and its journal."""
    monkeypatch.chdir(tmp_path)
    Path("s.spmd").write_text(REPEAT_SESSION, encoding="utf-8")
    r = lint("--isolated", "--no-cache", *redact, "--baseline", "b.json", "--update-baseline", "s.spmd")
    assert r.exit_code == 0, r.output
    excerpts = sorted(e["excerpt"] for e in json.loads(Path("b.json").read_text())["entries"])
    assert "I typed ************** into the box." in excerpts
    assert "My password: **************" in excerpts
    assert "Tr0ub4dor" not in Path("b.json").read_text() + Path("b.json.journal.jsonl").read_text()


def test_baseline_excerpt_of_a_line_inside_a_private_key_is_masked(tmp_path):
    from fountain_audit.lint import fingerprint
    from fountain_audit.lint.diagnostics import Diagnostic, Severity

    body = ["MIIEowIBAAKCAQEAvS3cQ8h1fakefakefakefakefakefakefakefake0123",
            "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTu"]
    text = "MARGOT\n-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END RSA PRIVATE KEY-----\n"
    d = Diagnostic("s.spmd", 4, 1, "R101", "x", Severity.WARNING, "a line", 4, 10)
    [out] = fingerprint.assign([d], text, "s.spmd")
    assert out.excerpt == "*" * len(body[1])
    # the fingerprint hashes the line as the excerpt shows it (an unsalted hash of the key's line
    # would let anyone who reads the baseline test guesses offline); the unmasked hash is kept
    # as the former fingerprint only, to match a baseline written before
    assert out.fingerprint == fingerprint.digest("R101", "s.spmd", "*" * len(body[1]), 0)
    assert out.former_fingerprint == fingerprint.digest("R101", "s.spmd", body[1], 0)


def test_redact_stores_the_path_as_the_report_shows_it_and_still_matches(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    token = "ghp_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    Path(f"{token}.spmd").write_text(REPEAT_SESSION, encoding="utf-8")
    Path("clean.spmd").write_text(REPEAT_SESSION, encoding="utf-8")
    r = lint("--isolated", "--no-cache", "--redact", "--baseline", "b.json", "--update-baseline", ".")
    assert r.exit_code == 0, r.output
    stored = Path("b.json").read_text() + Path("b.json.journal.jsonl").read_text()
    assert token[4:] not in stored
    paths = sorted({e["path"] for e in json.loads(Path("b.json").read_text())["entries"]})
    assert paths == ["<redacted:github-token>.spmd", "clean.spmd"]
    again = lint("--isolated", "--no-cache", "--redact", "--baseline", "b.json", ".")
    assert (again.exit_code, again.stdout) == (0, "All clear: no problems in 2 files checked; 14 baselined.\n")
    same = lint("--isolated", "--no-cache", "--redact", "--baseline", "b.json", "--update-baseline", ".")
    assert same.stderr == "fountain-audit: baseline b.json: 14 entries (0 added, 0 removed)\n"
    Path(f"{token}.spmd").write_text(REPEAT_SESSION.replace("\nMARGOT\nI typed Tr0ub4dor&3xQz into the box.\n", ""),
                                     encoding="utf-8")
    stale = lint("--isolated", "--no-cache", "--redact", "--baseline", "b.json", ".")
    assert "stale baseline entry" in stale.output and "<redacted:github-token>.spmd" in stale.output
    assert token[4:] not in stale.output


def test_an_update_rewrites_a_kept_entrys_old_unmasked_excerpt(tmp_path, monkeypatch):
    """A baseline written before excerpts were masked this way is cleaned by the next update;
    each entry keeps its date."""
    monkeypatch.chdir(tmp_path)
    Path("s.spmd").write_text(REPEAT_SESSION, encoding="utf-8")
    assert lint("--isolated", "--no-cache", "--baseline", "b.json", "--update-baseline", "s.spmd").exit_code == 0
    masked = Path("b.json").read_text()
    old = masked.replace("I typed ************** into", "I typed Tr0ub4dor&3xQz into").replace(DAY, "2026-01-02")
    assert old.count("Tr0ub4dor") == 1
    Path("b.json").write_text(old, encoding="utf-8")
    r = lint("--isolated", "--no-cache", "--baseline", "b.json", "--update-baseline", "s.spmd")
    assert r.stderr == "fountain-audit: baseline b.json: 7 entries (0 added, 0 removed)\n"
    assert Path("b.json").read_text() == masked.replace(DAY, "2026-01-02")


def test_the_file_escapes_the_characters_a_terminal_acts_on():
    """A committed baseline is printed (``cat``, ``git diff``): C1 controls (U+009B is a CSI),
    bidi controls and line separators in an excerpt are written as ``\\uNNNN``, the same JSON
    values, as every JSON output of fountain-audit; plain non-ASCII text stays as written."""
    excerpt = "a\x9b2Jb \u202eevil\u202c é\u2028"
    text = bl.render([bl.Entry("0" * 32, "P102", "sessions/a.spmd", excerpt, DAY)])
    assert text.splitlines()[4] == ('    {"fingerprint": "00000000000000000000000000000000", "code": "P102", '
                                    '"path": "sessions/a.spmd", "excerpt": "a\\u009b2Jb \\u202eevil\\u202c é\\u2028", '
                                    f'"added": "{DAY}"}}')
    assert json.loads(text)["entries"][0]["excerpt"] == excerpt


def test_a_secret_in_a_stale_excerpt_is_masked(project):
    """A baseline written by hand, or before a detector existed, may hold a secret in an excerpt:
    a stale entry's excerpt is printed masked, in every format (--redact or not)."""
    token = "ghp_Zq3Vx9LmTt2Rk8Wp4Yh7Nb1Cd6Fg0Js5Ea2Q"
    Path("b.json").write_text(bl.render([bl.Entry("0" * 32, "P102", "sessions/a.spmd", f"key {token}", DAY)]))
    r = lint("--baseline", "b.json", "--select", "P102", "sessions")
    assert r.stdout.splitlines()[1] == ('b.json: stale baseline entry P102 in sessions/a.spmd: '
                                        f'"key ghp_{"*" * 36}" matches nothing now; --update-baseline drops it')
    r = CliRunner().invoke(main, ["lint", "--output-format", "json", "--redact", "--baseline", "b.json", "--select",
                                  "P102", "sessions"], catch_exceptions=False)
    assert token not in r.stdout
    assert json.loads(r.stdout)["baseline"]["stale"][0]["excerpt"] == f"key ghp_{'*' * 36}"


def _update_in_a_subprocess(*args: str) -> subprocess.CompletedProcess:
    """lint --baseline baseline.json --update-baseline ARGS in a subprocess (a FIFO would block it: the timeout
    ends a run that hangs, failing the test instead of hanging it)."""
    return subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "--output-format", "concise",
                           "--baseline", "baseline.json", "--update-baseline", *args],
                          capture_output=True, text=True, timeout=30, env=cli_env(SOURCE_DATE_EPOCH=EPOCH))


def test_a_symlink_or_fifo_at_the_journal_name_is_refused_and_the_baseline_left_as_it_was(project):
    """A symlink at BASELINE.journal.jsonl (to the session being linted) was followed: the journal's JSON lines were
    appended to the session; a FIFO there blocked the update forever. Both are refused (exit 2, naming the journal)
    before the baseline is written: it stays as it was (here: not created), the session untouched."""
    before = Path("sessions/a.spmd").read_bytes()
    os.symlink("sessions/a.spmd", "baseline.json.journal.jsonl")
    r = _update_in_a_subprocess("sessions")
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("fountain-audit: error: baseline.json.journal.jsonl: a symbolic link (to sessions/a.spmd), not "
                        "a regular file: refusing to use it as the baseline's journal; the baseline was not written\n")
    assert Path("sessions/a.spmd").read_bytes() == before and not os.path.exists("baseline.json")
    os.unlink("baseline.json.journal.jsonl")
    os.mkfifo("baseline.json.journal.jsonl")
    r = _update_in_a_subprocess("sessions")
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("fountain-audit: error: baseline.json.journal.jsonl: a FIFO, not a regular file: refusing to "
                        "use it as the baseline's journal; the baseline was not written\n")
    assert not os.path.exists("baseline.json")
    os.unlink("baseline.json.journal.jsonl")
    adopt()  # a regular journal (here: created) is appended to
    assert len(Path("baseline.json.journal.jsonl").read_text().splitlines()) == 2


def test_a_symlink_or_fifo_at_the_lock_name_is_refused(project):
    """The lock file was opened through a symlink (a dangling one created its target) and a FIFO there blocked."""
    for make, kind in ((lambda p: os.symlink("sessions/a.spmd", p), "a symbolic link (to sessions/a.spmd)"),
                       (lambda p: os.symlink("planted", p), "a symbolic link (to planted)"),
                       (os.mkfifo, "a FIFO")):
        make("baseline.json.lock")
        r = _update_in_a_subprocess("sessions")
        assert (r.returncode, r.stdout) == (2, "")
        assert r.stderr == (f"fountain-audit: error: baseline.json.lock: {kind}, not a regular file: refusing to use "
                            "it as the baseline's lock file\n")
        assert not os.path.exists("baseline.json") and not os.path.exists("planted")
        os.unlink("baseline.json.lock")
    adopt()


LEAK_SESSION = ("Title: x\nAuthor: MARGOT\n\nFADE IN:\n\nINT. SHELL 2026-08-03 14:24:15\n\nMARGOT\n! export DB_PASSWORD=Tidewater2026!\n\n"
                "SHELL\nok\n\n[[shell: export DB_PASSWORD=Tidewater2026! \u2014 exit 0]]\n\nTHE END.\n")


@pytest.mark.parametrize("redact", [[], ["--redact"]])
def test_a_fingerprint_hashes_the_line_with_its_secret_masked(tmp_path, monkeypatch, redact):
    """Baseline and SARIF fingerprints of a line holding a secret are the hash of the line as its
    excerpt shows it, the same with and without --redact: the unmasked line's hash let anyone
    guess the password offline from a shared baseline (adversarial trial)."""
    from fountain_audit.lint import fingerprint

    monkeypatch.chdir(tmp_path)
    Path("s.spmd").write_text(LEAK_SESSION, encoding="utf-8")
    r = lint("--isolated", "--no-cache", *redact, "--baseline", "b.json", "--update-baseline", "s.spmd")
    assert r.exit_code == 0, r.output
    entries = sorted((e["excerpt"], e["fingerprint"]) for e in json.loads(Path("b.json").read_text())["entries"])
    shown = ["! export DB_PASSWORD=**************", "[[shell: export DB_PASSWORD=************** \u2014 exit 0]]"]
    assert entries == sorted((x, fingerprint.digest("V101", "s.spmd", x, 0)) for x in shown)
    sarif = json.loads(lint("--isolated", "--no-cache", *redact, "--output-format", "sarif", "s.spmd").output)
    assert sorted(res["partialFingerprints"]["fountainAudit/v1"] for res in sarif["runs"][0]["results"]) == \
        sorted(fp for _, fp in entries)


def test_a_baseline_entry_with_a_former_fingerprint_matches_and_is_rewritten(tmp_path, monkeypatch):
    """A baseline written before fingerprints masked secrets (the unmasked line's hash) still
    accepts its findings; --update-baseline stores them under the new fingerprints, each
    keeping its date."""
    from fountain_audit.lint import fingerprint

    monkeypatch.chdir(tmp_path)
    Path("s.spmd").write_text(LEAK_SESSION, encoding="utf-8")
    plain = ["! export DB_PASSWORD=Tidewater2026!", "[[shell: export DB_PASSWORD=Tidewater2026! \u2014 exit 0]]"]
    shown = ["! export DB_PASSWORD=**************", "[[shell: export DB_PASSWORD=************** \u2014 exit 0]]"]
    old = "".join(f'    {{"fingerprint": "{fingerprint.digest("V101", "s.spmd", p, 0)}", "code": "V101", '
                  f'"path": "s.spmd", "excerpt": {json.dumps(x)}, "added": "2026-01-02"}}{"," if k == 0 else ""}\n'
                  for k, (p, x) in enumerate(zip(plain, shown)))
    Path("b.json").write_text('{\n  "version": 1,\n  "tool": "fountain-audit",\n  "entries": [\n' + old + "  ]\n}\n",
                              encoding="utf-8")
    r = lint("--isolated", "--no-cache", "--baseline", "b.json", "s.spmd")
    assert (r.exit_code, r.output) == (0, "All clear: no problems in 1 file checked; 2 baselined.\n")
    r = lint("--isolated", "--no-cache", "--baseline", "b.json", "--update-baseline", "s.spmd")
    assert r.exit_code == 0, r.output
    entries = json.loads(Path("b.json").read_text())["entries"]
    assert sorted((e["fingerprint"], e["added"]) for e in entries) == \
        sorted((fingerprint.digest("V101", "s.spmd", x, 0), "2026-01-02") for x in shown)
    r = lint("--isolated", "--no-cache", "--baseline", "b.json", "s.spmd")
    assert (r.exit_code, r.output) == (0, "All clear: no problems in 1 file checked; 2 baselined.\n")


def test_updating_a_baseline_from_standard_input_needs_its_name(project):
    """`--update-baseline -` recorded an entry for the path '-', which names no file (a later run
    of another file on standard input called it stale; adversarial trial, stop 37)."""
    text = (project / "sessions" / "a.spmd").read_text(encoding="utf-8")
    r = CliRunner().invoke(main, ["lint", "--baseline", "bl.json", "--update-baseline", "-"], input=text)
    assert r.exit_code == 2 and not (project / "bl.json").exists()
    assert r.output.splitlines()[-1] == ("Error: --update-baseline with standard input ('-') needs --stdin-filename "
                                         "PATH: the baseline keys each entry by its file's path")
    r = CliRunner().invoke(main, ["lint", "--baseline", "bl.json", "--update-baseline", "--stdin-filename",
                                  "sessions/a.spmd", "-"], input=text, env={"SOURCE_DATE_EPOCH": EPOCH})
    assert r.exit_code == 0, r.output
    assert [e["path"] for e in json.loads((project / "bl.json").read_text())["entries"]] == ["sessions/a.spmd"] * 2


def test_a_rule_a_per_file_ignore_switches_off_keeps_its_entries(project):
    """A per-file ignore of a baselined rule made its entry stale ("matches nothing now") and
    --update-baseline dropped it, so the finding came back as new once the ignore went (new-user
    trial, stop 38); --ignore and exclude kept it. The rule did not run on that file: its entries
    are out of scope, kept as they are."""
    assert lint("--baseline", "bl.json", "--update-baseline", "sessions").exit_code == 0
    before = json.loads(Path("bl.json").read_text())["entries"]
    assert [e["code"] for e in before if e["path"] == "sessions/a.spmd"] == ["H102", "P102"]
    Path("fountain-audit.toml").write_text('[per-file-ignores]\n"sessions/a.spmd" = ["P102"]\n', encoding="utf-8")
    r = lint("--baseline", "bl.json", "sessions")
    assert r.exit_code == 0 and "stale" not in r.output and "matches nothing" not in r.output, r.output
    assert lint("--baseline", "bl.json", "--update-baseline", "sessions").exit_code == 0
    assert json.loads(Path("bl.json").read_text())["entries"] == before
    Path("fountain-audit.toml").unlink()
    r = lint("--baseline", "bl.json", "sessions")
    assert r.exit_code == 0 and "1 baselined" not in r.output and "2 baselined" in r.output, r.output

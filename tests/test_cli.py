"""The command line: output format, exit codes, stdin, unreadable paths."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main

from .conftest import SAMPLES, shared_path

A03 = "Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n" \
      "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.\n\nALICE\nWhat is in a.go?\n\n" \
      "[[tool: read_file({\"path\":\"a.go\"}) — ok]]\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nIt declares package main.\n\n\nTHE END.\n"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_lint_output_format_and_exit_1(tmp_path):
    f = tmp_path / "s.spmd"
    f.write_text(A03, encoding="utf-8")
    r = run("lint", "--no-color", str(f))
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0] == (f"{f}:14:1: P102 [tools-between-forward-and-reply] tool note before HARVEY's forwarding "
                        "line (line 17); it belongs after it, before the reply")
    assert lines[-1] == "Found 1 error, 0 warnings, 0 infos in 1 file checked."


def test_clean_file_exits_0(tmp_path):
    f = tmp_path / "s.spmd"
    f.write_text(A03.replace("[[tool: read_file({\"path\":\"a.go\"}) — ok]]\n\nHARVEY\nForwarding to LLAMA.",
                             "HARVEY\nForwarding to LLAMA.\n\n[[tool: read_file({\"path\":\"a.go\"}) — ok]]"))
    r = run("lint", str(f))
    assert r.exit_code == 0, r.output
    assert r.output == "All clear: no problems in 1 file checked.\n"


def test_warnings_do_not_fail_and_exit_zero(tmp_path):
    f = tmp_path / "s.spmd"
    f.write_text(A03.replace("\n\n\nTHE END.\n", "\n"))
    assert run("lint", str(f)).exit_code == 1  # P102 error
    assert run("lint", "--exit-zero", str(f)).exit_code == 0
    r = run("lint", "--ignore", "P102", str(f))
    assert r.exit_code == 0 and "S104 [missing-the-end]" in r.output


def test_stdin_with_filename():
    r = run("lint", "-", "--stdin-filename", "x.spmd", "--format", "json", input=A03.encode())
    assert r.exit_code == 1
    doc = json.loads(r.output)
    assert doc["tool"] == "fountain-audit" and doc["files"] == ["x.spmd"]
    assert [(d["path"], d["line"], d["column"], d["code"], d["name"], d["severity"]) for d in doc["diagnostics"]] == [
        ("x.spmd", 14, 1, "P102", "tools-between-forward-and-reply", "error")]
    # --stdin-filename alone reads standard input (as ruff); beside paths without '-' it warns that it is unused
    r = run("lint", "--stdin-filename", "x.spmd", "--format", "json", input=A03.encode())
    assert r.exit_code == 1 and json.loads(r.stdout)["files"] == ["x.spmd"]
    r = run("lint", "--stdin-filename", "x.spmd", str(SAMPLES / "clean-session.spmd"), input=A03.encode())
    assert (r.exit_code, r.stderr) == (0, "fountain-audit: warning: --stdin-filename only applies when one of the "
                                          "paths is '-' (standard input); it is not used\n")


def test_missing_path_exits_2_but_lints_the_rest(tmp_path):
    f = tmp_path / "s.spmd"
    f.write_text(A03)
    r = CliRunner().invoke(main, ["lint", str(tmp_path / "nope.spmd"), str(f)])
    assert r.exit_code == 2
    assert "nope.spmd: no such file or directory" in r.output
    assert "P102" in r.output


def test_jobs_that_is_not_a_number_names_what_it_counts():
    """`--jobs x`: a usage error (exit 2) that says what --jobs counts, not click's "integer range";
    a negative count names the range."""
    r = run("lint", "--jobs", "x", str(SAMPLES / "clean-session.spmd"))
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == "Error: Invalid value for '-j' / '--jobs': 'x' is not a valid number of processes."
    r = run("lint", "--jobs", "-1", str(SAMPLES / "clean-session.spmd"))
    assert r.exit_code == 2 and r.output.splitlines()[-1].endswith("-1 is not in the range x>=0.")


def test_an_option_of_other_linters_says_why_it_is_not_one_of_ours():
    """`lint --fix` got click's guess "Did you mean '--config'?" (new-user trial)."""
    r = run("lint", "--fix", str(SAMPLES / "clean-session.spmd"))
    assert r.exit_code == 2 and r.output.splitlines()[-1] == (
        "Error: No such option '--fix': nothing is fixed: a session file is the audit trail, not rewritten to "
        "silence a finding ('redact' replaces its secrets, in a copy or --in-place).")
    assert run("lint", "--diff", "x").output.splitlines()[-1] == (
        "Error: No such option '--diff': to compare two sessions: fountain-audit diff A B.")


def test_unknown_rule_is_usage_error():
    r = run("lint", "--select", "no-such-rule", "x")
    assert r.exit_code == 2 and "unknown rule or rule prefix 'no-such-rule'" in r.output


def test_directory_walk_finds_session_files_in_order(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.spmd").write_text(A03)
    (tmp_path / "a.fountain").write_text(A03)
    (tmp_path / "notes.txt").write_text(A03)
    r = run("lint", "--format", "json", str(tmp_path))
    assert json.loads(r.output)["files"] == [str(tmp_path / "a.fountain"), str(tmp_path / "b" / "z.spmd")]


def test_rules_and_rule_commands():
    r = run("rules", "--format", "json")
    rules = json.loads(r.output)
    assert {"code": "P101", "name": "rag-before-dialogue", "severity": "error", "since": "1.2",
            "summary": "A RAG note that is not between the scene description and the user's dialogue."} in rules
    r = run("rule", "tools-between-forward-and-reply")
    assert r.exit_code == 0 and "P102" in r.output and "Use instead" in r.output
    assert run("rule", "Z999").exit_code == 2


def test_rule_says_where_its_references_live():
    """A rule's References name Harvey's documents, which a clone does not hold: the page says so
    once, after them."""
    from fountain_audit.cli.lint import REFERENCES_NOTE

    out = run("rule", "P102").output
    assert out.index("## References") < out.index(REFERENCES_NOTE) and out.count(REFERENCES_NOTE) == 1


def test_python_dash_m_and_corpus_smoke():
    corpus = shared_path("corpus")
    cases = shared_path("cases")
    p = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", str(corpus), str(cases)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode in (0, 1), p.stderr
    assert "Traceback" not in p.stderr + p.stdout


def test_every_command_is_registered():
    r = run("--help")
    for name in ("lint", "rules", "rule", "dump", "schema", "diff"):
        assert f"  {name} " in r.output, name


def test_rule_typo_suggests_the_closest_rule():
    from click.testing import CliRunner
    r = CliRunner().invoke(main, ["rule", "P1O2"])
    assert r.exit_code == 2
    assert "unknown rule 'P1O2'; did you mean P102 / tools-between-forward-and-reply?" in r.output
    r = CliRunner().invoke(main, ["rule", "P"])  # a prefix, as --select takes: named as one
    assert (r.exit_code, r.output.splitlines()[-1]) == (2, "Error: 'P' is a prefix of 4 rules (P101, P102, P103, P104); "
                                                          "'fountain-audit rule' explains one: 'fountain-audit rule P101'")


def test_rule_code_typo_suggests_a_code_of_its_own_family():
    """E107 suggested S107 (difflib scores E106 and S107 alike and broke the tie by the later
    string; L103 suggested T103, its L read as a 1): a code's own family comes first, then the
    nearest number."""
    from click.testing import CliRunner
    said = {code: CliRunner().invoke(main, ["rule", code]) for code in ("E107", "e100", "S109", "X107", "L103")}
    assert {code: (r.exit_code, r.output.splitlines()[-1]) for code, r in said.items()} == {
        "E107": (2, "Error: unknown rule 'E107'; did you mean E106 / bidi-control-character? (see 'fountain-audit rules')"),
        "e100": (2, "Error: unknown rule 'e100'; did you mean E101 / invalid-utf8? (see 'fountain-audit rules')"),
        "S109": (2, "Error: unknown rule 'S109'; did you mean S108 / session-cut-short? (see 'fountain-audit rules')"),
        "X107": (2, "Error: unknown rule 'X107'; did you mean S107 / timestamps-backwards? (see 'fountain-audit rules')"),
        "L103": (2, "Error: unknown rule 'L103'; did you mean L102 / legacy-stats-note? (see 'fountain-audit rules')")}
    r = CliRunner().invoke(main, ["lint", "--select", "E107", str(SAMPLES / "clean-session.spmd")])
    assert (r.exit_code, r.output.splitlines()[-1]) == (
        2, "Error: --select: unknown rule or rule prefix 'E107'; did you mean E106 / bidi-control-character? "
           "(see 'fountain-audit rules')")


def test_diff_only_typo_suggests_the_category(tmp_path):
    from click.testing import CliRunner
    r = CliRunner().invoke(main, ["diff", "--only", "tool", str(SAMPLES / "clean-session.spmd"),
                                  str(SAMPLES / "clean-session.spmd")])
    assert r.exit_code == 2 and r.output.splitlines()[-1] == (
        "Error: unknown --only value 'tool'; did you mean 'tools'? (choose from turns, user, replies, model, tools, "
        "context, notes, scenes, other)")


@pytest.mark.parametrize("args", [["show", "{a}", "t1.user", "t1.tool1"], ["provenance", "{a}"], ["diff", "{a}", "{b}"]],
                         ids=lambda a: a[0])
def test_force_color_and_no_color_are_honoured_when_piped(tmp_path, args):
    """As the top-level --help says: FORCE_COLOR=1 colours the default text output even when
    it is piped, NO_COLOR=1 wins over FORCE_COLOR, --color/--no-color win over both."""
    a, b = tmp_path / "a.spmd", tmp_path / "b.spmd"
    a.write_text(A03, encoding="utf-8")
    b.write_text(A03.replace("package main", "package lib"), encoding="utf-8")
    argv = [x.format(a=a, b=b) for x in args]

    def out(env, *extra):
        env = {"NO_COLOR": None, "FORCE_COLOR": None, **env}
        r = CliRunner().invoke(main, argv + list(extra), env=env)
        assert r.exit_code in (0, 1), r.output
        return r.stdout

    assert "\x1b[" not in out({})
    assert "\x1b[" in out({"FORCE_COLOR": "1"})
    assert "\x1b[" not in out({"FORCE_COLOR": "0"})
    assert "\x1b[" not in out({"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in out({"FORCE_COLOR": "1"}, "--no-color")
    assert "\x1b[" in out({"NO_COLOR": "1"}, "--color")


@pytest.mark.parametrize("args", [["lint", "{f}"], ["dump", "{f}"], ["export", "--to", "toolpath", "{f}"],
                                  ["show", "{f}", "t1"], ["provenance", "{f}"], ["diff", "{f}", "{f}"], ["redact", "{f}"],
                                  ["report", "-o", "{out}", "{f}"]], ids=lambda a: a[0])
def test_every_command_prefixes_its_errors_alike(tmp_path, args):
    """One prefix for every command's errors: 'fountain-audit: error: ' (as lint, dump and
    export always wrote; show, provenance, diff, redact and report wrote 'fountain-audit CMD: error: ')."""
    missing = str(tmp_path / "missing.spmd")
    argv = [a.format(f=missing, out=tmp_path / "pages") for a in args]
    r = CliRunner().invoke(main, argv, env={"NO_COLOR": "1"})
    assert r.exit_code == 2
    assert r.stderr.startswith(f"fountain-audit: error: {missing}: "), r.stderr


@pytest.mark.parametrize("typed, why", [("sample/", "no such file or directory"),
                                        ("s.spmd/", "cannot read: Not a directory")])
def test_an_unreadable_path_is_named_as_typed(tmp_path, monkeypatch, typed, why):
    """``lint sample/`` was reported as ``sample``; ``s.spmd/`` (a file with a slash) was read as
    the file ``s.spmd``, which the path does not name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.spmd").write_text(A03)
    r = CliRunner().invoke(main, ["lint", typed])
    assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: {typed}: {why}\n")


@pytest.mark.parametrize("args", [("lint", "--bogus"), ("schema", "bogus"), ("rule", "Z999")])
def test_a_usage_error_keeps_its_status_when_its_reader_is_gone(args):
    """``fountain-audit lint --bogus 2>&1 | head -c 5``: printing the usage error met a closed pipe
    and the status was 1 (an uncaught BrokenPipeError); it is the usage error's, 2."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    try:
        p = subprocess.run([sys.executable, "-m", "fountain_audit", *args], stdout=write, stderr=write,
                           stdin=subprocess.DEVNULL, timeout=60)
    finally:
        os.close(write)
    assert p.returncode == 2


def test_a_mistyped_command_is_answered_with_the_nearest_one():
    r = run("provenanse", str(SAMPLES / "clean-session.spmd"))
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == "Error: No such command 'provenanse'. Did you mean 'provenance'?"
    r = run("zzzzz")
    assert (r.exit_code, r.output.splitlines()[-1]) == (2, "Error: No such command 'zzzzz'.")
    # another linter's word for the command (ruff check): ours (new-user trial, stop 29)
    r = run("check", str(SAMPLES / "clean-session.spmd"))
    assert (r.exit_code, r.output.splitlines()[-1]) == (2, "Error: No such command 'check'. Did you mean 'lint'?")
    # a typo of such a word is near it, and gets ours (chek was answered 'schema'; explian nothing)
    for typed, ours in (("chek", "lint"), ("explian", "rule"), ("valdate", "lint"), ("lnt", "lint")):
        r = run(typed)
        assert (r.exit_code, r.output.splitlines()[-1]) == (2, f"Error: No such command {typed!r}. "
                                                              f"Did you mean {ours!r}?")


def test_rule_all_is_no_rule_and_gets_no_far_off_suggestion():
    """`rule ALL` suggested A101 / unused-suppression (ALL read as the code A11)."""
    r = run("rule", "ALL")
    assert (r.exit_code, r.output.splitlines()[-1]) == (2, "Error: 'ALL' selects every rule (--select ALL); "
                                                          "'fountain-audit rule' explains one: 'fountain-audit rules' "
                                                          "lists them")
    r = run("rule", "AL")
    assert (r.exit_code, r.output.splitlines()[-1]) == (2, "Error: unknown rule 'AL' (see 'fountain-audit rules')")
    from fountain_audit.lint.selection import closest_rule
    assert closest_rule("ALL") is None and closest_rule("P1O2").code == "P102"  # a code with a digit is still read


@pytest.mark.parametrize("command", [["dump", str(SAMPLES / "clean-session.spmd")], ["rules"]])
def test_every_command_with_a_format_takes_its_output_format_spelling(command):
    # (lint, diff, show and provenance took both; dump and rules only --format)
    a, b = run(*command, "--format", "json"), run(*command, "--output-format", "json")
    assert (a.exit_code, b.exit_code) == (0, 0) and a.output == b.output
    json.loads(a.output)


def test_no_session_file_names_one_found_only_under_a_hidden_folder(tmp_path, monkeypatch):
    (tmp_path / "hid" / ".sessions").mkdir(parents=True)
    (tmp_path / "hid" / ".sessions" / "a.spmd").write_text("Title: A\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    for command in (["lint"], ["dump"]):
        r = CliRunner().invoke(main, [*command, "hid"])
        assert r.exit_code == 2
        assert r.stderr.startswith("fountain-audit: error: no session file (*.spmd, *.fountain) in hid; hidden files "
                                   "and folders are skipped (hid/.sessions/a.spmd is one): name them to include them")
    r = CliRunner().invoke(main, ["lint", "empty"])
    assert (r.exit_code, r.stderr) == (2, "fountain-audit: error: no session file (*.spmd, *.fountain) in empty "
                                          "(--allow-empty accepts that)\n")
    assert CliRunner().invoke(main, ["lint", "--exit-zero", "hid/.sessions"]).exit_code == 0  # named: linted


ISOLATED_WITH_CONFIG = ("Error: --isolated cannot be used with --config: --isolated ignores every configuration "
                        "file, --config reads one; give one of them")


@pytest.mark.parametrize("command", [["lint"], ["report", "-o", "{out}"]], ids=lambda c: c[0])
def test_isolated_with_config_is_a_usage_error(tmp_path, command):
    """``--isolated --config ci.toml`` ignored ci.toml without a word (its select = ["P"] did not
    stop T101 being reported, exit 1); as ruff, the pair is refused: exit 2, both options named,
    nothing linted or written."""
    (tmp_path / "ci.toml").write_text('select = ["P"]\n', encoding="utf-8")
    sample = str(SAMPLES / "violations" / "T101-forwarding-target-mismatch.spmd")
    out = tmp_path / "page.html"
    argv = [a.format(out=out) for a in command]
    for order in (["--isolated", "--config", str(tmp_path / "ci.toml")],
                  ["--config", str(tmp_path / "ci.toml"), "--isolated"]):
        r = CliRunner().invoke(main, [*argv, *order, sample])
        assert r.exit_code == 2
        assert r.stdout == ""
        assert r.stderr.splitlines() == [f"Usage: main {command[0]} [OPTIONS] "
                                         f"{'[PATHS]...' if command[0] == 'lint' else 'FILE|DIR...'}",
                                         f"Try 'main {command[0]} --help' for help.", "", ISOLATED_WITH_CONFIG]
        assert not out.exists()
    # each alone is accepted: the config's selection applies, or none
    assert CliRunner().invoke(main, [*argv, "--config", str(tmp_path / "ci.toml"), sample]).exit_code == 0
    if command[0] == "lint":
        assert CliRunner().invoke(main, ["lint", "--isolated", sample]).exit_code == 1


def test_isolated_with_config_is_a_usage_error_on_the_fast_path(tmp_path):
    (tmp_path / "ci.toml").write_text('select = ["P"]\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "FOUNTAIN_AUDIT_CLICK"}
    p = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "--isolated", "--config", "ci.toml",
                        str(SAMPLES / "violations" / "T101-forwarding-target-mismatch.spmd")],
                       cwd=tmp_path, capture_output=True, text=True, env=env, timeout=60)
    assert (p.returncode, p.stdout) == (2, "")
    assert p.stderr.splitlines()[-1] == ISOLATED_WITH_CONFIG


def test_a_folder_1200_levels_deep_is_walked(tmp_path, monkeypatch):
    """Python 3.11's os.walk recursed once per level: `lint DIR` on a tree about 1,000 folders deep
    ended in a RecursionError traceback and exit 1 (adversarial trial); dump, export and report too."""
    monkeypatch.chdir(tmp_path)
    os.mkdir("deep")
    monkeypatch.chdir("deep")
    for _ in range(1200):  # (os.makedirs recurses too)
        os.mkdir("d")
        os.chdir("d")
    with open("s.spmd", "w", encoding="utf-8") as f:
        f.write((SAMPLES / "clean-session.spmd").read_text(encoding="utf-8"))
    os.chdir(tmp_path)
    try:
        r = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "--no-cache", "deep"],
                           capture_output=True, text=True)
        assert (r.returncode, r.stdout, r.stderr) == (0, "All clear: no problems in 1 file checked.\n", "")
        r = subprocess.run([sys.executable, "-m", "fountain_audit", "dump", "--format", "jsonl", "deep"],
                           capture_output=True, text=True)
        assert r.returncode == 0 and len(r.stdout.splitlines()) == 7 and r.stderr == ""  # (its 7 tool calls)
    finally:  # removed here, from the bottom up (shutil.rmtree, pytest's clean-up, recurses too)
        path = os.path.join(str(tmp_path), "deep", *["d"] * 1200)
        os.remove(os.path.join(path, "s.spmd"))
        for _ in range(1201):
            os.rmdir(path)
            path = os.path.dirname(path)


def test_walk_is_os_walk_without_recursion(tmp_path):
    from fountain_audit.commands.common import walk
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "x.spmd").write_text("")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "y.fountain").write_text("")
    (tmp_path / "top.spmd").write_text("")
    os.symlink(tmp_path / "a", tmp_path / "link-to-a")  # listed among the folders, never entered
    os.symlink(tmp_path, tmp_path / "c" / "loop")
    os.symlink(tmp_path / "top.spmd", tmp_path / "c" / "file-link.spmd")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o000)
    mine, theirs = [], []
    try:
        for out, fn in ((mine, walk), (theirs, os.walk)):
            errors = []
            for root, dirs, names in fn(str(tmp_path), onerror=errors.append):
                dirs.sort()
                out.append((root, list(dirs), sorted(names)))
            out.append([e.filename for e in errors])
    finally:
        locked.chmod(0o700)
    assert mine == theirs
    assert mine[0] == (str(tmp_path), ["a", "c", "link-to-a", "locked"], ["top.spmd"])


@pytest.mark.parametrize("command", [["lint"], ["export", "--to", "toolpath"], ["redact"], ["report"]])
def test_an_empty_output_path_is_a_usage_error(command):
    """`lint -o ''` exited 0 with the report on standard output (an empty -o read as none); export,
    redact and report said ": cannot write: Is a directory" (adversarial trial)."""
    r = subprocess.run([sys.executable, "-m", "fountain_audit", *command, "-o", "", str(SAMPLES / "clean-session.spmd")],
                       capture_output=True, text=True)
    assert (r.returncode, r.stdout, r.stderr.splitlines()[-1]) == (
        2, "", "Error: -o/--output: an empty path (give a file, or '-' for standard output)")

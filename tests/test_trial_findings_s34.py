"""Findings of stop 34's adversarial and new-user trials: each test fails on the code before its fix.

1. A run of 4,300+ digits (Python's int() refuses it) crashed lint (a suppression's rule code),
   ``rule``/``--select``, report (a proposal's file count), show (a recall id) and export (a
   legacy stats note) with a traceback.
2. A directive with ``=`` and no rule after it (``disable=``) switched off every rule, V101 included.
3. ``redact --in-place`` run by root made another user's file root's (every atomic write replacing a
   file now keeps its owner and group where the system allows it).
4. JSON outputs held NaN and Infinity (no JSON reader takes them): tool arguments with ``1E400``,
   ``NaN``, a score or a stats line's duration of 400 digits.
5. One mistyped code in a directive's list (``disable-file=P102,P1O3``) voided the whole directive:
   the known rules of a list now apply, and A102 names the unknown ones.
6. Paths from two folders that share no configuration, one of them configured: its configuration
   was dropped silently (the defaults applied); a warning now names it.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from fountain_audit.atomic import write_atomic
from fountain_audit.cli import main
from fountain_audit.lint.linter import Selection, lint_text

DIGITS = "1" * 4301

#: (file text, command) that crashed: the file is written to s.spmd.
HUGE_NUMBERS = {
    "suppression code": (f"/* fountain-audit: disable-next=P{DIGITS} */\n", ["lint", "--no-cache", "s.spmd"]),
    "rule": ("", ["rule", f"P{DIGITS}"]),
    "--select": ("", ["lint", "--select", f"P{DIGITS}", "s.spmd"]),
    "report proposals": (f"INT. AGENT MODE 2026-08-03 14:26:00\n\nHarvey proposes to write {DIGITS} file(s).\n",
                         ["report", "s.spmd", "-o", "-"]),
    "show recall id": (f"INT. CONTEXT RECALL 2026-08-03 14:20:04\n\n[[recall: a{DIGITS} (p) — score 1.00]]\n",
                       ["show", "s.spmd", "recall:x"]),
    "export legacy stats": (f"INT. HARVEY AND M TALKING 2026-08-03 14:20:31\n\nM\nhi\n\nX\nyo\n\n"
                            f"[[stats: {DIGITS} prompt + 1 reply tokens · 8.3s · 5.1 tok/s]]\n",
                            ["export", "--to", "toolpath", "s.spmd"]),
}


@pytest.mark.parametrize("case", list(HUGE_NUMBERS))
def test_a_number_of_4301_digits_is_no_crash(case, tmp_path, monkeypatch):
    text, args = HUGE_NUMBERS[case]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.spmd").write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    assert r.exit_code == {"suppression code": 0, "rule": 2, "--select": 2, "report proposals": 0,
                           "show recall id": 2, "export legacy stats": 0}[case]


SECRET_SESSION = ("Title: S\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\n"
                  "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.\n\n"
                  "ALICE\nmy key is AKIAQX7F3KZP2WJ5MN4T\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nok\n\nTHE END.\n")


@pytest.mark.parametrize("directive", ["disable=", "disable= ", "disable-file=", "disable-next=", "disable=,,",
                                       "enable="])
def test_an_empty_rule_list_is_invalid_not_every_rule(directive):
    text = f"/* fountain-audit: {directive} */\n\n" + SECRET_SESSION
    got = [(d.code, d.line, d.message) for d in lint_text(text, "s.spmd", Selection.build(select=["V101", "A"]))]
    assert got == [("A102", 1, "suppression comment ignored: no rule after '=': name the rules, or write the "
                                "directive without '=' for every rule"),
                   ("V101", 13, "AWS access key (aws-access-key) in the session: AKIA…(20 chars); revoke it and "
                               "share only a redacted copy")]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_replaced_file_keeps_its_owner_group_and_mode(tmp_path):
    from tests.conftest import SAMPLES
    target = tmp_path / "a.spmd"
    shutil.copy(SAMPLES / "violations" / "V101-secret-in-session.spmd", target)
    os.chown(target, 1000, 1001)
    os.chmod(target, 0o640)
    r = CliRunner().invoke(main, ["redact", "--in-place", str(target)])
    assert r.exit_code == 0 and "<redacted:" in target.read_text(encoding="utf-8")
    st = os.stat(target)
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (1000, 1001, 0o640)
    write_atomic(target, "x\n")  # (any atomic write: reports, baselines, redacted copies)
    st = os.stat(target)
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (1000, 1001, 0o640)


NINES = "9" * 400
#: A session whose numbers Python reads as NaN or Infinity.
NON_FINITE = ("Title: S\nAuthor: MARGOT\n\nFADE IN:\n\nINT. HARVEY AND MARGOT TALKING 2026-06-24 10:00:00\n\n"
              "MARGOT\nhi\n\nHARVEY\nForwarding to X.\n\n"
              '[[tool: f({"a":1E400,"b":NaN,"c":-Infinity}) — ok]]\n\n'
              '[[tool: g({"a":1.5e3,"b":[1,2.25]}) — ok]]\n\n'
              f"X\nyo\n\n[[rag: 3 chunks from s.db, top score {NINES}]]\n\n"
              f"llamafile (llama3) · 812 reply + 1840 ctx · {NINES}s · 16.9 tok/s\n\nTHE END.\n")


def _strict_json(text: str):
    def refuse(name):
        raise AssertionError(f"{name} in a JSON output")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("args", [["dump"], ["dump", "--turns"], ["provenance", "--format", "json"],
                                  ["export", "--to", "toolpath"], ["export", "--to", "otlp-json"],
                                  ["lint", "--output-format", "json"]])
def test_json_outputs_hold_no_nan_nor_infinity(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.spmd").write_text(NON_FINITE, encoding="utf-8")
    r = CliRunner().invoke(main, [*args, "s.spmd"])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    doc = _strict_json(r.stdout)
    if args == ["dump"]:
        tools = [rec for rec in doc["records"] if rec["record"] == "tool_call"]
        assert [(t["name"], t["arguments"], t["arguments_json"]) for t in tools] == [
            ("f", '{"a":1E400,"b":NaN,"c":-Infinity}', False), ("g", {"a": 1500.0, "b": [1, 2.25]}, True)]


def test_n102_says_what_python_reads_but_json_cannot_hold():
    got = [(d.code, d.line, d.message) for d in lint_text(NON_FINITE, "s.spmd", Selection.build(select=["N10"]))]
    assert got == [("N102", 14, "arguments of tool 'f' hold NaN, Infinity or a number beyond a double's range, "
                                "which no JSON reader can take back (kept as raw text)"),
                   ("N101", 21, "malformed [[rag:]] note: expected 'N chunks from STORE, top score S'")]


def test_a_list_with_an_unknown_rule_applies_the_known_ones():
    text = "/* fountain-audit: disable-file=P102,P1O3 */\n\n" + SECRET_SESSION.replace(
        "ALICE\nmy key is AKIAQX7F3KZP2WJ5MN4T\n\nHARVEY\nForwarding to LLAMA.\n\n",
        "ALICE\nhi\n\n[[tool: read_file({\"path\":\"a.go\"}) — ok]]\n\nHARVEY\nForwarding to LLAMA.\n\n")
    plain = [(d.code, d.line) for d in lint_text(text.split("\n\n", 1)[1], "s.spmd", Selection.build(select=["P", "A"]))]
    assert plain == [("P102", 13)]  # (what the directive is meant to suppress)
    got = [(d.code, d.line, d.message) for d in lint_text(text, "s.spmd", Selection.build(select=["P", "A"]))]
    assert got == [("A102", 1, "in a suppression comment: unknown rule or rule prefix 'P1O3'; did you mean P103 / "
                               "recall-before-first-turn? (see 'fountain-audit rules') (the other rules of the list "
                               "apply)")]


def test_paths_that_share_no_configuration_are_said_to(tmp_path, monkeypatch):
    (tmp_path / "proj" / "sessions").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "proj" / "pyproject.toml").write_text('[tool.fountain-audit]\nselect = ["P"]\n', encoding="utf-8")
    for f in ("proj/sessions/a.spmd", "other/b.spmd"):
        (tmp_path / f).write_text(SECRET_SESSION, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    warning = ("fountain-audit: warning: the paths share no configuration file, so the defaults apply to every file: "
               "proj/pyproject.toml configures proj/sessions/a.spmd but not the others (lint each project on its "
               "own, or name one with --config)\n")
    r = CliRunner().invoke(main, ["lint", "--no-cache", "-q", "proj/sessions/a.spmd", "other/b.spmd"])
    assert (r.exit_code, r.stderr) == (1, warning)
    r = CliRunner().invoke(main, ["lint", "--no-cache", "-q", "proj/sessions/a.spmd"])  # (one project: its own)
    assert (r.exit_code, r.stderr, r.stdout) == (0, "", "All clear: no problems in 1 file checked.\n")

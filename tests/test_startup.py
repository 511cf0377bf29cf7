"""Start-up: what a command imports (issue 9), and the plain concise output that avoids rich."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fountain_audit import lint
from fountain_audit.lint.diagnostics import Diagnostic, Severity
from fountain_audit.reporters.text import plain_text_lines, report_text
from tests.conftest import RUN_AS_CONSOLE_SCRIPT

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("rich", "lark", "tomllib", "importlib.resources", "fountain_audit.dump", "fountain_audit.diff")

PROBE = """
import json, sys
from fountain_audit.cli.main import main
try:
    main(sys.argv[1:], prog_name="fountain-audit")
except SystemExit:
    pass
heavy = sorted({m for m in sys.modules for h in %r if m == h or m.startswith(h + ".")})
print(json.dumps(heavy), file=sys.stderr)
"""


def _imported(tmp_path: Path, *args: str) -> list[str]:
    env = {**os.environ, "FOUNTAIN_AUDIT_CACHE_DIR": str(tmp_path / "cache")}  # the grammar memo: this test's
    env.pop("FOUNTAIN_AUDIT_NO_CACHE", None)
    p = subprocess.run([sys.executable, "-c", PROBE % (HEAVY,), *args], capture_output=True, text=True,
                       cwd=tmp_path, env=env)  # no fountain-audit.toml or pyproject.toml here
    return sorted({m.split(".")[0] if m.startswith(("rich", "lark")) else m
                   for m in json.loads(p.stderr.strip().splitlines()[-1])})


def test_version_imports_nothing_heavy(tmp_path):
    assert _imported(tmp_path, "--version") == []


@pytest.mark.parametrize("fmt", ["concise", "json", "sarif", "github", "json-lines"])
def test_lint_imports_nothing_heavy_once_the_grammar_memo_knows_the_shapes(tmp_path, fmt):
    # samples/clean-session.spmd has every kind of note the recorder writes (chunk and model switch
    # included) and no configuration file: the first process asks Lark and records its answers
    # (fountain_audit.parse.memo), the next needs neither Lark nor anything else heavy
    (tmp_path / "a.spmd").write_text((ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    assert _imported(tmp_path, "lint", "--output-format", fmt, "a.spmd") == ["lark"]
    assert _imported(tmp_path, "lint", "--output-format", fmt, "a.spmd") == []


def _rich(diagnostics, files, **kw) -> str:
    from rich.console import Console
    out = io.StringIO()
    report_text(diagnostics, files, Console(file=out, no_color=True, highlight=False), **kw)
    return out.getvalue()


def test_plain_concise_output_is_what_rich_prints():
    samples = sorted((ROOT / "samples").rglob("*.spmd"))
    diagnostics = [d for p in samples for d in lint(p)]
    assert len(diagnostics) > 40
    for kw in ({}, {"quiet": True}, {"unreadable": 2, "statistics": ["   3  P102  [x]"]}):
        assert plain_text_lines(diagnostics, len(samples), **kw) == _rich(diagnostics, len(samples), **kw)
    assert plain_text_lines([], 0) == _rich([], 0) == "All clear: no problems in 0 files checked.\n"


def test_tab_and_newline_stay_on_one_line_in_both_forms():
    # a diagnostic is one line: TAB and LF in a message or a file name are shown as \t and \n
    tab = Diagnostic("a\nb.spmd", 1, 1, "R101", "x", Severity.ERROR, "tab\there\nnext")
    assert plain_text_lines([tab], 1) == _rich([tab], 1)
    assert plain_text_lines([tab], 1).splitlines()[0] == "a\\nb.spmd:1:1: R101 [x] tab\\there\\nnext"


def test_control_characters_are_escaped_the_same_way_by_both():
    # (issue 10: messages may quote session text; both forms escape it with terminal_safe)
    for msg, shown in (("bell\x07", "bell\\x07"), ("cr\r", "cr\\x0d"), ("osc\x1b]0;t\x07", "osc\\x1b]0;t\\x07")):
        d = Diagnostic("a.spmd", 1, 1, "R101", "x", Severity.ERROR, msg)
        assert plain_text_lines([d], 1) == _rich([d], 1)
        assert plain_text_lines([d], 1).splitlines()[0] == f"a.spmd:1:1: R101 [x] {shown}"


#: What a run answered from the lint result cache must not import: the parser, the session model,
#: the linter, any rule module (selection reads lint/catalog.py), nor the other heavy modules.
NOT_ON_A_HIT = HEAVY + ("fountain_audit.parse.fountain", "fountain_audit.model", "fountain_audit.lint.linter",
                        "fountain_audit.lint.rules.")


@pytest.mark.parametrize("fmt", ["concise", "json"])
def test_a_cache_hit_imports_no_parser_and_no_rule(tmp_path, fmt):
    sample = ROOT / "samples" / "violations" / "P102-tools-between-forward-and-reply.spmd"
    (tmp_path / "a.spmd").write_text(sample.read_text(encoding="utf-8"), encoding="utf-8")
    code = PROBE.replace("m == h or m.startswith(h + \".\")", "m.startswith(h) and m[len(h):len(h) + 1] in ('', '.')"
                         " or h.endswith('.') and m.startswith(h)") % (NOT_ON_A_HIT,)
    runs = [subprocess.run([sys.executable, "-c", code, "lint", "--output-format", fmt, "a.spmd"], capture_output=True,
                           text=True, cwd=tmp_path) for _ in range(2)]
    first, second = (json.loads(r.stderr.strip().splitlines()[-1]) for r in runs)
    assert runs[0].stdout == runs[1].stdout and "P102" in runs[1].stdout
    assert {"fountain_audit.parse.fountain", "fountain_audit.lint.linter",
            "fountain_audit.lint.rules.tools_between_forward_and_reply"} <= \
        set(first)  # the first run parsed and linted (the probe itself can fail)
    assert second == []


def test_a_pyproject_without_our_table_is_not_parsed(tmp_path):
    # another tool's pyproject.toml (even a broken one) is not read as TOML: tomllib stays unloaded
    (tmp_path / "pyproject.toml").write_text('[tool.black]\nline-length = [\n', encoding="utf-8")
    (tmp_path / "a.spmd").write_text((ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    assert "tomllib" not in _imported(tmp_path, "lint", "a.spmd")
    # the word fountain (or an escape that could spell it) and it is parsed: broken, exit 2
    (tmp_path / "pyproject.toml").write_text('[tool.black]\n# fountain\nline-length = [\n', encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "a.spmd"], capture_output=True, text=True,
                       cwd=tmp_path)
    assert p.returncode == 2 and "pyproject.toml:4:1: invalid TOML: " in p.stderr
    (tmp_path / "pyproject.toml").write_text('[tool."\\u0066ountain-audit"]\nselect = ["H"\n', encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "a.spmd"], capture_output=True, text=True,
                       cwd=tmp_path)
    assert p.returncode == 2 and "pyproject.toml:3:1: invalid TOML: " in p.stderr


#: Standard modules a concise lint of a plain screenplay has no use for (each a fraction of a
#: millisecond of start-up, issue 9): JSON is read only in tool notes, an escaped JSON secret or a
#: machine output format; the grammar memo is marshal data.
LEAN_PROBE = RUN_AS_CONSOLE_SCRIPT + """
lean = ("json", "math") if any("__editable__" in m for m in sys.modules) else (  # (an editable install's
    "json", "math", "contextlib", "importlib", "warnings")                     # finder imports the others)
print(repr(sorted(m for m in lean if m in sys.modules)), file=sys.stderr)
"""


def test_a_plain_screenplay_lint_imports_neither_json_nor_contextlib_nor_math(tmp_path):
    screenplay = "Title: Lean\n\nFADE IN:\n\nINT. KITCHEN - DAY\n\nAna waits.\n\nANA\n\"Quoted\" words.\n\n"
    (tmp_path / "a.fountain").write_text(screenplay * 20, encoding="utf-8")
    env = {**os.environ, "FOUNTAIN_AUDIT_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("FOUNTAIN_AUDIT_NO_CACHE", None)
    for _ in range(2):  # (the first process asks Lark, which imports more, and records its answers)
        p = subprocess.run([sys.executable, "-c", LEAN_PROBE, "lint", "--no-cache", "a.fountain"], capture_output=True,
                           text=True, cwd=tmp_path, env=env)
    assert p.stdout.endswith("checked.\n")
    assert p.stderr.strip().splitlines()[-1] == "[]"

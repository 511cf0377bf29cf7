"""Issue 14 (hardening from a new-user trial): paths, configuration errors, rule typos,
the README's TOML block, empty runs, colour, diagnostics' ends, outputs over inputs,
non-regular files, file sizes, permissions and interrupted reports."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.lint.config import ConfigError, load_config

from .conftest import ROOT
from .test_cli import A03

P102_MESSAGE = "tool note before HARVEY's forwarding line (line 16); it belongs after it, before the reply"


def cli(*args, input=None, env=None):
    return CliRunner().invoke(main, list(args), input=input, env=env)


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A directory with s.spmd (A03: one P102 error at 14:1) as the current directory."""
    monkeypatch.chdir(tmp_path)
    Path("s.spmd").write_text(A03, encoding="utf-8")
    return tmp_path


# -- 1. paths without ./ ---------------------------------------------------------------------------------

def test_paths_have_no_dot_slash_in_any_format(project):
    assert cli("lint", "--output-format", "github", ".").output.splitlines()[0] == (
        "::error file=s.spmd,line=14,col=1,title=P102::" + P102_MESSAGE)
    assert cli("lint", "--output-format", "concise", "./s.spmd").output.splitlines()[0] == (
        "s.spmd:14:1: P102 [tools-between-forward-and-reply] " + P102_MESSAGE)
    doc = json.loads(cli("lint", "--output-format", "json", ".").output)
    assert (doc["files"], [d["path"] for d in doc["diagnostics"]]) == (["s.spmd"], ["s.spmd"])
    junit = cli("lint", "--output-format", "junit", ".//s.spmd").output
    assert "./" not in junit and 'file="s.spmd"' in junit
    dump = json.loads(cli("dump", ".").output)
    assert [r["file"] for r in dump["records"]] == ["s.spmd"]


# -- 2. a broken pyproject.toml ----------------------------------------------------------------------------

def test_broken_pyproject_exits_2_naming_file_and_error(project):
    (project / "pyproject.toml").write_text('[tool.fountain-audit]\nexclude = ["s.spmd"\n')
    r = cli("lint", ".")
    assert r.exit_code == 2
    assert (f"Error: {project / 'pyproject.toml'}: invalid TOML: Unclosed array (at end of document)"
            in r.output)
    with pytest.raises(ConfigError, match=r"pyproject\.toml: invalid TOML: Unclosed array"):
        load_config(start=project)


# -- 3. rule typos: blamed on their source, with a suggestion ----------------------------------------------

def test_option_typo_names_the_option_and_suggests(project):
    (project / "pyproject.toml").write_text('[tool.fountain-audit]\nignore = ["S104"]\n')
    r = cli("lint", "--select", "P1O2", ".")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == ("Error: --select: unknown rule or rule prefix 'P1O2'; did you mean "
                                         "P102 / tools-between-forward-and-reply? (see 'fountain-audit rules')")
    r = cli("lint", "--ignore", "P101,rag-befor-dialog", ".")
    assert r.output.splitlines()[-1] == ("Error: --ignore: unknown rule or rule prefix 'rag-befor-dialog'; "
                                         "did you mean P101 / rag-before-dialogue? (see 'fountain-audit rules')")
    assert cli("lint", "--extend-select", "zzzz", ".").output.splitlines()[-1] == (
        "Error: --extend-select: unknown rule or rule prefix 'zzzz' (see 'fountain-audit rules')")


def test_config_typo_names_file_and_key_and_suggests(project):
    (project / "fountain-audit.toml").write_text('[severity]\nmissing-the-edn = "info"\n')
    r = cli("lint", ".")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == (
        f"Error: {project / 'fountain-audit.toml'}: severity: unknown rule or rule prefix 'missing-the-edn'; "
        "did you mean S104 / missing-the-end? (see 'fountain-audit rules')")


def test_suppression_typo_suggests(project):
    Path("s.spmd").write_text(A03.replace("[[tool:", "/* fountain-audit: disable-next=P1O2 */\n[[tool:"))
    lines = cli("lint", "--output-format", "concise", "s.spmd").output.splitlines()
    assert lines[0] == ("s.spmd:14:1: A102 [invalid-suppression] suppression comment ignored: unknown rule or rule prefix 'P1O2'; "
                        "did you mean P102 / tools-between-forward-and-reply? (see 'fountain-audit rules')")


def test_per_file_ignores_turned_round_is_reported(project):
    (project / "fountain-audit.toml").write_text('[per-file-ignores]\n"P102" = ["s.spmd"]\n')
    r = cli("lint", ".")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == (
        f"Error: {project / 'fountain-audit.toml'}: per-file-ignores: key 'P102' is a rule, not a file glob "
        '(write "GLOB" = ["P102", ...])')


# -- 6. the README's TOML block works in fountain-audit.toml ---------------------------------------------

def readme_toml() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(\[tool\.fountain-audit\].*?)```", readme, re.S)
    assert block, "README has no [tool.fountain-audit] TOML block"
    return block.group(1)


@pytest.mark.parametrize("name", ["fountain-audit.toml", "pyproject.toml"])
def test_readme_toml_block_pasted_into_either_file(project, name):
    (project / name).write_text(readme_toml(), encoding="utf-8")
    cfg = load_config(start=project)
    assert (cfg.source.name, cfg.ignore, cfg.target_version, cfg.per_file_ignores) == (
        name, ["loose-scene-timestamp"], "1.3", {"legacy/*.spmd": ["P", "N102"]})
    assert cli("lint", ".").exit_code == 1  # the P102 error of s.spmd, not a configuration error

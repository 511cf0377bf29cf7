"""The pre-commit hook definition (.pre-commit-hooks.yaml): its entry, run as pre-commit runs
it (entry + args + the matching file names), on sample files."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter

import pytest

from fountain_audit.lint.rules import all_rules

from .conftest import ROOT, SAMPLES
from .test_cli import A03
from .test_formats import cli_env

HOOKS = ROOT / ".pre-commit-hooks.yaml"


def _scalar(text: str):
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    if text[:1] in "'\"":
        return text[1:-1]
    return text


def load_hooks() -> list[dict]:
    """The hook list: PyYAML when installed, else a reader for this file's plain subset
    (a list of mappings of scalars; ``#`` comments)."""
    try:
        import yaml
    except ImportError:
        hooks: list[dict] = []
        for line in HOOKS.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("- "):
                hooks.append({})
                line = line[2:]
            key, _, value = line.strip().partition(":")
            hooks[-1][key] = _scalar(value)
        return hooks
    return yaml.safe_load(HOOKS.read_text(encoding="utf-8"))


def hook_command(hook: dict) -> list[str]:
    """The hook's entry as a command; ``fountain-audit`` is this checkout when not installed."""
    entry = shlex.split(hook["entry"])
    assert entry[0] == "fountain-audit"
    exe = shutil.which("fountain-audit")
    head = [exe] if exe else [sys.executable, "-m", "fountain_audit"]
    return head + entry[1:] + list(hook.get("args", []))


def staged(paths) -> list[str]:
    """What pre-commit would pass: the paths (relative, POSIX) that match ``files``."""
    hook = load_hooks()[0]
    return [p for p in paths if re.search(hook["files"], p) and not re.search(hook.get("exclude", "^$"), p)]


def test_hook_definition():
    hooks = load_hooks()
    assert [h["id"] for h in hooks] == ["fountain-audit"]
    hook = hooks[0]
    assert (hook["name"], hook["entry"], hook["language"], hook["files"], hook["require_serial"]) == (
        "fountain-audit", "fountain-audit lint --force-exclude", "python", r"\.(spmd|fountain)$", True)


def test_files_pattern():
    assert staged(["a.spmd", "b.fountain", "c.spmd.bak", "d.md", "dir/e.fountain", "spmd"]) == [
        "a.spmd", "b.fountain", "dir/e.fountain"]


def test_entry_passes_a_clean_session():
    hook = load_hooks()[0]
    files = staged(["samples/clean-session.spmd", "README.md", "pyproject.toml"])
    r = subprocess.run(hook_command(hook) + files, capture_output=True, text=True, cwd=ROOT, env=cli_env())
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout == "All clear: no problems in 1 file checked.\n"


def test_entry_fails_on_violations_with_concise_output():
    hook = load_hooks()[0]
    names = sorted(p.relative_to(ROOT).as_posix() for p in (SAMPLES / "violations").iterdir())
    files = staged(names + ["samples/clean-session.spmd"])
    r = subprocess.run(hook_command(hook) + files, capture_output=True, text=True, cwd=ROOT, env=cli_env())
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    assert "samples/violations/P102-tools-between-forward-and-reply.spmd:20:1: P102 [tools-between-forward-and-reply] " \
           "tool note before HARVEY's forwarding line (line 23); it belongs after it, before the reply" in lines
    # one diagnostic per violation sample, of its rule's severity; the clean session has none
    by = Counter(str(r.severity) for r in all_rules())
    assert lines[-1] == (f"Found {by['error']} errors, {by['warning']} warnings, {by['info']} infos "
                         f"in {len(all_rules()) + 1} files checked.")


def test_force_exclude_skips_excluded_files_named_explicitly(tmp_path):
    (tmp_path / "archive").mkdir()
    (tmp_path / "archive" / "old.spmd").write_text(A03)
    (tmp_path / "new.spmd").write_text(A03)
    (tmp_path / "fountain-audit.toml").write_text('exclude = ["archive/"]\n')
    hook = load_hooks()[0]
    r = subprocess.run(hook_command(hook) + ["archive/old.spmd", "new.spmd"], capture_output=True, text=True,
                       cwd=tmp_path, env=cli_env())
    assert r.returncode == 1
    assert [line.split(":")[0] for line in r.stdout.splitlines()] == ["new.spmd", "Found 1 error, 0 warnings, 0 infos in 1 file checked."]
    r = subprocess.run(hook_command(hook) + ["archive/old.spmd"], capture_output=True, text=True, cwd=tmp_path,
                       env=cli_env())
    assert (r.returncode, r.stdout) == (0, "All clear: no problems in 0 files checked.\n")


def test_force_exclude_applies_to_standard_input_by_its_stdin_filename(tmp_path):
    """Editors pipe a buffer in with --stdin-filename: an excluded name is skipped, as ruff does."""
    (tmp_path / "fountain-audit.toml").write_text('exclude = ["archive/"]\n')
    hook = load_hooks()[0]
    for name, expected in (("archive/old.spmd", (0, "All clear: no problems in 0 files checked.")),
                           ("new.spmd", (1, "Found 1 error, 0 warnings, 0 infos in 1 file checked."))):
        r = subprocess.run(hook_command(hook) + ["--stdin-filename", name, "-"], input=A03, capture_output=True,
                           text=True, cwd=tmp_path, env=cli_env())
        assert (r.returncode, r.stdout.splitlines()[-1]) == expected, name


def git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})


def test_real_pre_commit_in_a_temporary_repository(tmp_path):
    """pre-commit itself (try-repo: this checkout, uncommitted changes included) in a new git
    repository: the hook installs, runs on the staged session files, honours the project's
    exclude and fails on an error."""
    pytest.importorskip("pre_commit")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout of fountain-audit")
    repo = tmp_path / "project"
    (repo / "sessions").mkdir(parents=True)
    (repo / "archive").mkdir()
    (repo / "sessions" / "bad.spmd").write_text(A03)
    (repo / "sessions" / "clean.spmd").write_text((SAMPLES / "clean-session.spmd").read_text(encoding="utf-8"))
    (repo / "archive" / "old.spmd").write_text(A03)
    (repo / "notes.md").write_text("not a session\n")
    (repo / "fountain-audit.toml").write_text('exclude = ["archive/"]\n')
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    env = cli_env(PRE_COMMIT_HOME=str(tmp_path / "cache"), PRE_COMMIT_COLOR="never", NO_COLOR="1")
    env.pop("PYTHONPATH")  # the hook runs from pre-commit's own environment, installed from this checkout
    r = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "fountain-audit", "--all-files",
                        "--color", "never"], capture_output=True, text=True, cwd=repo, env=env, timeout=900)
    out = r.stdout
    assert r.returncode == 1, out + r.stderr
    assert re.search(r"^fountain-audit\.+Failed$", out, re.M), out
    assert "- exit code: 1" in out
    lines = [line for line in out.splitlines() if ".spmd:" in line or line.startswith("Found")]
    assert lines == [
        "sessions/bad.spmd:14:1: P102 [tools-between-forward-and-reply] tool note before HARVEY's forwarding "
        "line (line 17); it belongs after it, before the reply",
        "Found 1 error, 0 warnings, 0 infos in 2 files checked."]

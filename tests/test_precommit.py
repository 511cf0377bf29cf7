"""The pre-commit hook definition (.pre-commit-hooks.yaml): its entry, run as pre-commit runs
it (entry + args + the matching file names), on sample files."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter

from fountain_audit.lint.rules import all_rules

from .conftest import ROOT, SAMPLES
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
        "fountain-audit", "fountain-audit lint", "python", r"\.(spmd|fountain)$", True)


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
           "tool note before HARVEY's forwarding line (line 22); it belongs after it, before the reply" in lines
    # one diagnostic per violation sample, of its rule's severity; the clean session has none
    by = Counter(str(r.severity) for r in all_rules())
    assert lines[-1] == (f"Found {by['error']} errors, {by['warning']} warnings, {by['info']} infos "
                         f"in {len(all_rules()) + 1} files checked.")

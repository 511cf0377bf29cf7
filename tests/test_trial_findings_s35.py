"""Findings left by stop 34's trials and fixed at stop 35: each test fails on the code before its fix.

1. A named file that is no session (``notes.md``, ``page.html``) passed ``lint`` as "All clear"
   without a word: it is linted as Fountain (a screenplay with no finding) and a warning says it
   is not named ``*.spmd`` or ``*.fountain``. A folder's search still takes only those names.
2. ``report DIR -o pages`` made the folder ``pages`` before finding that every file was skipped
   (exit 2, an empty folder left behind): the folder is made with its first page.

(The privacy findings of those trials, control characters inside a token and home paths spelt
otherwise, are tested in tests/test_privacy_escapes.py and tests/test_privacy_shapes.py.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fountain_audit", *args], cwd=cwd,
                          capture_output=True, text=True, encoding="utf-8")


def lint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return run("lint", "--no-cache", *args, cwd=cwd)


SESSION = "Title: T\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n"


def test_a_named_file_of_another_name_is_linted_with_a_warning(tmp_path):
    (tmp_path / "notes.md").write_text("# Notes\n\nSome *markdown* text.\n", encoding="utf-8")
    (tmp_path / "a.spmd").write_text(SESSION, encoding="utf-8")
    r = lint("notes.md", "a.spmd", cwd=tmp_path)
    assert r.stderr == "fountain-audit: warning: notes.md: not named *.spmd or *.fountain: linted as Fountain\n"
    assert r.stdout.splitlines()[-1] == "Found 0 errors, 2 warnings, 0 infos in 2 files checked."
    assert [line.split(":")[0] for line in r.stdout.splitlines()[:-1]] == ["a.spmd"] * 2
    assert r.returncode == 0


def test_session_names_and_folders_give_no_such_warning(tmp_path):
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "a.spmd").write_text(SESSION, encoding="utf-8")
    (tmp_path / "s" / "B.Fountain").write_text("INT. HOUSE - DAY\n\nA room.\n", encoding="utf-8")
    (tmp_path / "s" / "notes.md").write_text("# Notes\n", encoding="utf-8")
    r = lint("s", "s/B.Fountain", cwd=tmp_path)
    assert r.stderr == ""
    assert r.stdout.splitlines()[-1] == "Found 0 errors, 2 warnings, 0 infos in 2 files checked."


def test_report_makes_no_folder_when_every_file_is_skipped(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "play.fountain").write_text("INT. HOUSE - DAY\n\nA room.\n", encoding="utf-8")
    r = run("report", "in", "-o", "pages", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.splitlines()[-1] == ("fountain-audit: error: no session to report in in: 1 file found, none a "
                                         "Harvey session (see the warnings above)")
    assert not (tmp_path / "pages").exists()
    (tmp_path / "in" / "a.spmd").write_text(SESSION, encoding="utf-8")
    r = run("report", "in", "-o", "pages", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == ["a.spmd.html", "index.html"]

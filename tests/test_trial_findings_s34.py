"""Findings of stop 34's adversarial and new-user trials: each test fails on the code before its fix.

1. A run of 4,300+ digits (Python's int() refuses it) crashed lint (a suppression's rule code),
   ``rule``/``--select``, report (a proposal's file count), show (a recall id) and export (a
   legacy stats note) with a traceback.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main

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

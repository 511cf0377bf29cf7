"""Shared test helpers: where ../shared is, and how to read a file losslessly."""

from __future__ import annotations

from pathlib import Path

import os

import pytest
from hypothesis import settings

# Property tests check behaviour, not speed (issue 9: performance is measured in benchmarks/):
# no per-example deadline, so a loaded CI machine cannot fail them with DeadlineExceeded.
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")

ROOT = Path(__file__).resolve().parents[1]
#: The read-only reference material: ../shared, or $FOUNTAIN_AUDIT_SHARED.
SHARED = Path(os.environ.get("FOUNTAIN_AUDIT_SHARED", ROOT.parent / "shared"))
SAMPLES = ROOT / "samples"


def shared_path(*parts: str) -> Path:
    """A path under ../shared; skips the test when the reference data is absent."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"reference data {p} not present")
    return p


def shared_files() -> list[Path]:
    """Every corpus and case input file under ../shared (empty when absent)."""
    if not SHARED.exists():
        return []
    out = []
    for sub in ("corpus", "cases"):
        for p in sorted((SHARED / sub).rglob("*")):
            if p.is_file() and p.suffix in (".spmd", ".fountain"):
                out.append(p)
    return out


def or_skipped(files: list[Path]) -> list:
    """``files`` as parameters, or one parameter skipped with the reason when ../shared is absent
    (pytest's own reason for an empty list, "got empty parameter set", names no cause)."""
    return files or [pytest.param(None, marks=pytest.mark.skip(reason="../shared not present (set $FOUNTAIN_AUDIT_SHARED)"))]


def cpu_best_of_3(fn, arg) -> float:
    """The least CPU time (seconds, ``time.process_time``) of three calls ``fn(arg)``, with the
    garbage collector paused (a collection of the whole heap is not the code's cost): what the
    scaling tests compare at n and 8n, steady on a machine busy with other processes."""
    import gc
    import time

    best = float("inf")
    gc.disable()
    try:
        for _ in range(3):
            t0 = time.process_time()
            fn(arg)
            best = min(best, time.process_time() - t0)
    finally:
        gc.enable()
    return best


#: The tool arguments of line 37 of samples/clean-session.spmd (what the privacy tests replace).
#: Python source that runs the command line as the ``fountain-audit`` console script does (the
#: arguments after the script's own), then goes on: what start-up tests append their probe to.
RUN_AS_CONSOLE_SCRIPT = """
import sys
sys.argv = ["fountain-audit", *sys.argv[1:]]
from fountain_audit.__main__ import run
try:
    run()
except SystemExit:
    pass
"""
CLEAN_TOOL_ARGS = '{"query":"retro — action items","limit":5}'


def clean_session_with_tool_args(tmp_path, args: str):
    """samples/clean-session.spmd with the arguments of its line 37 tool note replaced by ``args``,
    written to ``tmp_path / "esc.spmd"`` (returned)."""
    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    assert CLEAN_TOOL_ARGS in text
    path = tmp_path / "esc.spmd"
    path.write_text(text.replace(CLEAN_TOOL_ARGS, args), encoding="utf-8")
    return path

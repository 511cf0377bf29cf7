"""Linear time on the adversarial shapes (issue 9 and issue 14 items 20 and 24): lint and
``dump --turns`` (session model, provenance, JSON) of 8× the input take at most 16× the time.

The shapes are the benchmark's (``benchmarks/bench.py`` ``SHAPES``: one long line, unclosed
``[[``, unclosed ``/*``, cues without dialogue, a long non-forwarding HARVEY reply, "Routing to
X" lines in a reply, ``THE END.`` lines each followed by content, ``disable-next`` before flagged
lines, alternating ``disable``/``enable``); ``python benchmarks/bench.py`` times them at 1× and
10×. The diff's shapes are in ``test_diff_scaling.py``. A ratio, not a time: best of 3 at n and
at 8n, one retry for a loaded machine; a quadratic shape gives about 64×.
"""

from __future__ import annotations

import gc
import importlib.util
import io
import time

import pytest

from fountain_audit import lint
from fountain_audit.dump import JsonWriter, dump_session
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import parse

from .conftest import ROOT

_spec = importlib.util.spec_from_file_location("fa_bench", ROOT / "benchmarks" / "bench.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

#: n for each shape: about 20 ms at n here, so the whole test takes a few seconds.
SIZES = {"one long line": 400_000, "unclosed [[": 800, "unclosed /*": 1_000, "cues without dialogue": 1_200,
         "long HARVEY reply (issue 14)": 1_000, "Routing to X in a reply (issue 14)": 500,
         "THE END. then content (issue 14)": 500, "disable-next before flagged notes (issue 14)": 250,
         "alternating disable/enable (issue 14)": 200}


def work(text: str) -> None:
    lint(text)
    writer = JsonWriter(io.StringIO(), "json", "turns")
    for rec in dump_session(build_session(parse(text)), "x.spmd", "turns"):
        writer.write(rec)


def best_of_3(text: str) -> float:
    best = float("inf")
    gc.disable()  # a collection of the whole heap is not the code's cost
    try:
        for _ in range(3):
            t0 = time.process_time()
            work(text)
            best = min(best, time.process_time() - t0)
    finally:
        gc.enable()
    return best


def test_every_shape_has_a_size():
    assert set(SIZES) == set(bench.SHAPES)


@pytest.mark.parametrize("shape", list(SIZES))
def test_linear_time(shape):
    make = bench.SHAPES[shape][0]
    small, large = make(SIZES[shape]), make(8 * SIZES[shape])
    work(small)  # warm up: grammar tables, caches
    ratios = []
    for _ in range(2):  # one retry
        ratios.append(best_of_3(large) / best_of_3(small))
        if ratios[-1] <= 16:
            return
    pytest.fail(f"{shape}: 8x the input took {ratios} x the time")

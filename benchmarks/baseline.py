"""How long the baseline costs at its default cap (50,000 entries).

Times, on a generated baseline of N entries (default 50,000, spread over 1,000 files):
  load    read + JSON parse + schema check (fastjsonschema) + duplicate check;
  apply   matching the diagnostics of one run (one diagnostic per entry) and finding stale entries;
  update  the locked read-modify-write of one file's entries (render, temp file, fsync, rename,
          journal), in a temporary directory.

Usage: python benchmarks/baseline.py [--entries N] [--repeat R]
Prints the median of R runs in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fountain_audit.lint import baseline as bl  # noqa: E402
from fountain_audit.lint.diagnostics import Diagnostic, Severity  # noqa: E402


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=bl.DEFAULT_MAX_ENTRIES)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    entries = [bl.Entry(f"{i:032x}", "P102", f"sessions/{i % 1000:04d}.spmd",
                        '[[tool: read_file({"path":"a.go"}) — ok]]', "2026-12-01") for i in range(args.entries)]
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "baseline.json")
        Path(path).write_text(bl.render(entries), encoding="utf-8")
        size = Path(path).stat().st_size
        loaded = bl.load(path)
        diagnostics = [Diagnostic(e.path, 1, 1, e.code, "tools-between-forward-and-reply", Severity.ERROR, "m",
                                  fingerprint=e.fingerprint, excerpt=e.excerpt) for e in entries]
        scope = bl.Scope(frozenset(e.path for e in entries), frozenset({"P102"}))
        one = bl.Scope(frozenset({"sessions/0000.spmd"}), frozenset({"P102"}))
        current = {e.fingerprint: e for e in entries if e.path == "sessions/0000.spmd"}
        print(f"{args.entries} entries, {size / 1e6:.1f} MB")
        print(f"load    {median_ms(lambda: bl.load(path), args.repeat):8.1f} ms")
        print(f"apply   {median_ms(lambda: bl.apply(loaded, diagnostics, scope), args.repeat):8.1f} ms")
        print(f"update  {median_ms(lambda: bl.update(path, current, one), args.repeat):8.1f} ms")


if __name__ == "__main__":
    main()

"""Parallel linting benchmark: a directory of generated sessions, serial vs. a process pool.

Writes N deterministic session files (default 300, each a few KB to ~40 KB, a tenth of
them broken in one of several ways) to a temporary directory, then times
``fountain-audit lint DIR --output-format json`` in fresh processes with ``--jobs 1``
and ``--jobs J`` (default: the CPUs available), checks that both print the same bytes,
and reports the speed-up. Also times the cold start with and without the parser cache.

Usage: python benchmarks/parallel.py [--files N] [--jobs J] [--repeat R] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import generate_session  # noqa: E402

#: Ways a generated file is broken (every tenth file gets one, in turn).
BREAKAGES = (
    ("drop the title", lambda t: t.replace("Title: Harvey Session\n", "", 1)),
    ("move a tool note before the forwarding line",
     lambda t: t.replace("HARVEY\nForwarding to LLAMA3.\n\n[[tool:", "[[tool:", 1)),
    ("a score out of range", lambda t: t.replace("top score 0.", "top score 1.", 1)),
    ("no THE END.", lambda t: t.replace("\n\nTHE END.\n", "\n", 1)),
    ("a lower-case cue", lambda t: t.replace("\nBENCH\nPlease", "\nBench\nPlease", 1)),
)


def generate_corpus(folder: Path, files: int, max_kb: int = 40) -> list[Path]:
    """``files`` session files under ``folder`` (in 10 sub-directories), deterministic."""
    paths = []
    for i in range(files):
        size = 2000 + (i * 7919) % (max_kb * 1000)
        text = generate_session(size)
        if i % 10 == 3:
            text = BREAKAGES[(i // 10) % len(BREAKAGES)][1](text)
        sub = folder / f"batch-{i % 10}"
        sub.mkdir(parents=True, exist_ok=True)
        path = sub / f"session-{i:04d}.spmd"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def lint_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "fountain_audit", "lint", *args]


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, bytes]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, cwd=ROOT, env=env)
    elapsed = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode()[-500:]}")
    return elapsed, p.stdout


PARSERS = ("import time; from fountain_audit.parse import fountain, notes; t = time.perf_counter(); "
           "fountain._parser(); notes._parser(); print(time.perf_counter() - t)")


def cold_start(repeat: int) -> dict[str, tuple[float, float]]:
    """Median and best wall time (s) of ``--version``, of linting one small file, and of building the two
    parsers in a fresh process, with the parser cache warm and with it off
    (``FOUNTAIN_AUDIT_NO_CACHE=1``: the parsers are built from the grammars); the file is also linted
    with the parser tables warm but no result cache (``--no-cache``), and with both warm (a result
    cache hit: nothing is parsed). The serial and parallel runs use ``--no-cache``."""
    small = str(ROOT / "samples" / "clean-session.spmd")
    with tempfile.TemporaryDirectory() as cache:
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as installed: .pyc kept
        warm = {**base, "FOUNTAIN_AUDIT_CACHE_DIR": cache}
        off = {**base, "FOUNTAIN_AUDIT_NO_CACHE": "1"}
        timed(lint_cmd(small), warm)  # fills the cache (and writes the .pyc files)
        runs: dict[str, list[float]] = {}
        for _ in range(repeat):  # interleaved, so that a busy moment hits every case alike
            for label, cmd, env in (("--version", [sys.executable, "-m", "fountain_audit", "--version"], warm),
                                    ("one file, cache off", lint_cmd(small), off),
                                    ("one file, tables warm", lint_cmd("--no-cache", small), warm),
                                    ("one file, results warm", lint_cmd(small), warm)):
                runs.setdefault(label, []).append(timed(cmd, env)[0])
            for label, env in (("parsers, cache off", off), ("parsers, cache warm", warm)):
                p = subprocess.run([sys.executable, "-c", PARSERS], capture_output=True, text=True, cwd=ROOT,
                                   env=env, check=True)
                runs.setdefault(label, []).append(float(p.stdout))
    return {label: (statistics.median(ts), min(ts)) for label, ts in runs.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=0, help="workers for the parallel run (0: all CPUs)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="generate into this directory and keep it")
    args = ap.parse_args()
    from fountain_audit.lint.runner import available_cpus
    jobs = args.jobs or available_cpus()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="fa-parallel-"))
    try:
        paths = generate_corpus(folder, args.files)
        mb = sum(p.stat().st_size for p in paths) / 1e6
        print(f"{args.files} generated session files, {mb:.1f} MB, {available_cpus()} CPUs")
        serial, parallel = [], []
        out_serial = out_parallel = b""
        for _ in range(args.repeat):
            t, out_serial = timed(lint_cmd("--no-cache", "--output-format", "json", "--jobs", "1", str(folder)))
            serial.append(t)
            t, out_parallel = timed(lint_cmd("--no-cache", "--output-format", "json", "--jobs", str(jobs), str(folder)))
            parallel.append(t)
        same = out_serial == out_parallel
        s, p = statistics.median(serial), statistics.median(parallel)
        print(f"serial (--jobs 1):      {s:6.2f} s  {mb / s:5.2f} MB/s")
        print(f"parallel (--jobs {jobs}):   {p:6.2f} s  {mb / p:5.2f} MB/s")
        print(f"speed-up: {s / p:.2f}x; output identical to the serial run: {'yes' if same else 'NO'}")
        for label, (median, best) in cold_start(max(9, args.repeat)).items():
            print(f"cold start, {label:22} median {median * 1000:5.0f} ms, best {best * 1000:5.0f} ms")
        if not same:
            raise SystemExit(1)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

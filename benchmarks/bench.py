"""Throughput and peak-memory benchmark for fountain-audit.

Times parse + session model + lint (all rules) on:
  (a) a generated, note-heavy Harvey session of about 5 MB (deterministic);
  (b) ../shared/corpus/fountain/rsdoiel__sample-07-charade.fountain (a screenplay), when present;
and compares with the reference named in issue 2: screenplain's Fountain parser
(``screenplain.parsers.fountain.parse``) on the same input, measured here when screenplain is
installed (``pip install screenplain``), otherwise its recorded figures (about 6 MB/s on a
screenplay and 2 MB/s on a note-heavy 5 MB session on these machines).

Also reports cold start: ``fountain-audit --version`` and linting one small file, in a fresh process.

Usage: python benchmarks/bench.py [--repeat N] [--size-mb MB]
Prints MB/s (MB = 10**6 bytes of UTF-8 input) and peak Python memory (tracemalloc, MiB).
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fountain_audit import build_session, parse  # noqa: E402
from fountain_audit.lint.linter import Selection, lint_text  # noqa: E402
from fountain_audit.parse.notes import _parse_cached  # noqa: E402

CHARADE = ROOT.parent / "shared" / "corpus" / "fountain" / "rsdoiel__sample-07-charade.fountain"
SCREENPLAIN_RECORDED = {"screenplay": 6.0, "session": 2.0}


def generate_session(target_bytes: int) -> str:
    """A recorder-shaped v1.2/v1.3 session of about ``target_bytes`` bytes, note-heavy."""
    out = io.StringIO()
    out.write("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: BENCH\nDate: 2026-06-24 10:00:00\n"
              "Draft date: 2026-06-24\nModel: LLAMA3 (ollama)\nBackend: ollama\n\n\nFADE IN:\n\n\n"
              "INT. CONTEXT RECALL 2026-06-24 10:00:01\n\n[[recall: workspace_profile_1 (workspace_profile) — score 1.00]]\n\n")
    i = 0
    while out.tell() < target_bytes:
        m, s = divmod(i, 60)
        ts = f"2026-06-24 {10 + (m // 60) % 14:02d}:{m % 60:02d}:{s:02d}"
        out.write(f"\n\n\nINT. HARVEY AND BENCH TALKING {ts}\n\n"
                  "Harvey and BENCH are in chat mode. Model: LLAMA3. Workspace: /home/bench/project.\n\n"
                  f"[[rag: {i % 9 + 1} chunks from rag_store.db, top score 0.{i % 90 + 10}]]\n\n"
                  f"[[rag-source: docs/design-{i % 13}.md (Design notes, doi:10.1234/d{i})]]\n\n"
                  f"BENCH\nPlease look at file {i}.go and fix the failing test — it says \"expected 3\".\n\n"
                  "HARVEY\nForwarding to LLAMA3.\n\n")
        for k in range(4):
            status = "ok" if (i + k) % 5 else "error: exit status 1"
            out.write(f"[[tool: read_file({{\"path\":\"pkg/f{i}_{k}.go\",\"note\":\"a — b ]] c\"}}) — {status}]]\n\n")
        out.write(f"LLAMA3\nThe failure in f{i}.go comes from an off-by-one.\n\n"
                  "- change the loop bound\n  - rerun `go test ./...`\n\n"
                  "# Summary\nINT. this line only looks like a heading\n\n"
                  f"llamafile (llama3) · {300 + i % 50} reply + 1840 ctx · 18.412s · 16.9 tok/s\n")
        i += 1
    out.write("\n\nTHE END.\n")
    return out.getvalue()


def _time(fn, text: str, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(text)
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def _peak_mib(fn, text: str) -> float:
    tracemalloc.start()
    fn(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def ours(text: str) -> None:
    _parse_cached.cache_clear()  # no note parsed in an earlier run may be reused
    lint_text(text, "bench", SELECTION)


def parse_only(text: str) -> None:
    _parse_cached.cache_clear()
    build_session(parse(text))


def screenplain_parse(text: str) -> None:
    from screenplain.parsers import fountain
    fountain.parse(io.StringIO(text))


def cold_start() -> tuple[float, float]:
    small = ROOT / "samples" / "clean-session.spmd"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "fountain_audit", "--version"], check=True, capture_output=True, cwd=ROOT)
    t1 = time.perf_counter()
    if small.exists():
        subprocess.run([sys.executable, "-m", "fountain_audit", "lint", str(small)], capture_output=True, cwd=ROOT)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--size-mb", type=float, default=5.0)
    args = ap.parse_args()
    inputs = [("session", f"generated note-heavy session ({args.size_mb:g} MB)",
               generate_session(int(args.size_mb * 1e6)))]
    if CHARADE.exists():
        inputs.append(("screenplay", CHARADE.name, CHARADE.read_text(encoding="utf-8")))
    else:
        print(f"(skipping {CHARADE.name}: ../shared not present)")
    try:
        import screenplain  # noqa: F401
        have_sp = True
    except ImportError:
        have_sp = False
    parse(""), lint_text("", "warm-up", SELECTION)  # build parsers once
    print(f"{'input':48} {'MB':>6} {'parse+model':>12} {'+lint MB/s':>11} {'peak MiB':>9} "
          f"{'screenplain':>12} {'ratio':>6}")
    for kind, name, text in inputs:
        mb = len(text.encode("utf-8")) / 1e6
        t_model = _time(parse_only, text, args.repeat)
        t_lint = _time(ours, text, args.repeat)
        peak = _peak_mib(ours, text)
        if have_sp:
            ref = mb / _time(screenplain_parse, text, args.repeat)
            ref_s = f"{ref:8.2f} MB/s"
        else:
            ref = SCREENPLAIN_RECORDED[kind]
            ref_s = f"{ref:6.2f} (rec.)"
        print(f"{name[:48]:48} {mb:6.2f} {mb / t_model:9.2f} MB/s {mb / t_lint:6.2f} MB/s {peak:9.1f} "
              f"{ref_s:>12} {mb / t_lint / ref:5.2f}x")
    v, one = cold_start()
    print(f"cold start: 'fountain-audit --version' {v * 1000:.0f} ms; lint one small file {one * 1000:.0f} ms")


SELECTION = Selection.build()

if __name__ == "__main__":
    main()

"""Cost of the privacy rules (V101 secret-in-session, V102 home-path-in-session) on full lint.

Times ``lint_text`` with every rule and with every rule but the ``V`` family, on:
  (a) the generated note-heavy session of ``benchmarks/bench.py`` (about 2 MB by default);
  (b) every file of samples/ and ../shared/corpus (when present), linted one after another.
Each measurement is the best of ``--repeat`` runs (the least disturbed by other processes).
Also times the same session with fake secrets and home paths spread through it (the
detectors then run on many candidate lines), and ``privacy.redact.Redactor.text`` on it.

Usage: python benchmarks/privacy.py [--repeat N] [--size-mb MB]
Prints MB/s (MB = 10**6 bytes of UTF-8 input) and the throughput drop in per cent.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench import generate_session  # noqa: E402
from fountain_audit.lint.linter import Selection, lint_text  # noqa: E402
from fountain_audit.parse.source import read_path  # noqa: E402


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def compare(label: str, texts: list[str], repeat: int) -> None:
    size = sum(len(t.encode("utf-8", "surrogateescape")) for t in texts) / 1e6
    with_v = Selection.build()
    without_v = Selection.build(ignore=["V"])
    run = lambda sel: [lint_text(t, "bench", sel) for t in texts]  # noqa: E731
    run(with_v)  # warm caches (Lark tables, note grammar)
    off, on = [], []
    for _ in range(repeat):  # interleaved, so load from other processes hits both alike
        off.append(best(lambda: run(without_v), 1))
        on.append(best(lambda: run(with_v), 1))
    t_off, t_on = min(off), min(on)
    drop = (1 - t_off / t_on) * 100
    print(f"{label}: {size:.2f} MB; without V rules {size / t_off:.2f} MB/s, with V rules {size / t_on:.2f} MB/s; "
          f"throughput drop {drop:.1f} %")


def seeded(text: str) -> str:
    """``text`` with a fake AWS key ID, a keyword password and a home path every 50 lines."""
    lines = text.split("\n")
    for i in range(0, len(lines), 50):
        lines[i] += f" AKIA{'FAKE' * 4} password=Qx7{'fake' * 2}#9 /home/bench/other/{i}.txt"
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--size-mb", type=float, default=2.0)
    args = ap.parse_args()
    session = generate_session(int(args.size_mb * 1e6))
    compare("generated session", [session], args.repeat)
    files = sorted((ROOT / "samples").rglob("*.spmd"))
    shared = ROOT.parent / "shared" / "corpus"
    if shared.is_dir():
        files += sorted(p for p in shared.rglob("*") if p.suffix in (".spmd", ".fountain"))
    compare(f"samples + corpus ({len(files)} files)", [read_path(p) for p in files], args.repeat)
    compare("generated session with a secret every 50 lines", [seeded(session)], args.repeat)
    from fountain_audit.privacy.redact import Redactor
    text = seeded(session)
    t = best(lambda: Redactor().learn(text=text).text(text), args.repeat)
    print(f"redact (Redactor.text) on it: {len(text.encode()) / 1e6 / t:.2f} MB/s")


if __name__ == "__main__":
    main()

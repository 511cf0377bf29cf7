"""Per-stage time and memory of ``lint_text`` (issue 9): parse, session model, rules.

For each input — the 230 KB screenplay ``../shared/corpus/fountain/rsdoiel__sample-07-charade.fountain``,
a generated note-heavy 5 MB session and a 5 MB prose-heavy session built from the real replies in
``../shared/corpus/harvey/real`` (both from :mod:`bench`) — prints, per stage:

* seconds: median of ``--repeat`` runs (default 5) with the garbage collector paused, as
  ``lint_text`` runs, and MB/s (MB = 10**6 bytes of UTF-8);
* MB: the ``tracemalloc`` peak while the stage runs, over what was allocated before it (one extra
  run: tracing slows it down), i.e. what the stage adds on top of the earlier stages' results.

Stages: ``parse`` (:func:`fountain_audit.parse.fountain.parse`), ``session``
(:func:`fountain_audit.model.session.build_session` on that document), ``rules``
(:func:`fountain_audit.lint.linter.lint_session` with every rule, given both), and ``total``
(``lint_text``). Usage: ``python benchmarks/stages.py [--repeat N] [--size BYTES] [--only NAME] [--root DIR]``;
``--root`` measures another checkout with the same script (``--root ../main`` for a before/after,
best run alternately with this one: the machine's load changes the figures).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path


def _load(root: Path) -> None:
    """Import the inputs (``bench``) and the pipeline from the checkout at ``root``."""
    sys.path.insert(0, str(root / "benchmarks"))
    global bench, Selection, lint_session, lint_text, build_session, memos, parse
    import bench  # the inputs; also puts its checkout first on sys.path
    from fountain_audit.lint.linter import Selection, lint_session, lint_text
    from fountain_audit.model.session import build_session
    try:
        from fountain_audit import memos
    except ImportError:  # a checkout from before fountain_audit.memos (--root): its one memo of notes
        from types import SimpleNamespace

        from fountain_audit.parse.notes import _parse_cached
        memos = SimpleNamespace(forget=_parse_cached.cache_clear)
    from fountain_audit.parse.fountain import parse


def _timed(fn, repeat: int) -> tuple[float, float]:
    """``(median, min)`` seconds of ``repeat`` runs of ``fn()``, the collector paused."""
    times = []
    for _ in range(repeat):
        memos.forget()  # (each run reads the text afresh: see fountain_audit.memos)
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        finally:
            gc.enable()
    return statistics.median(times), min(times)


def _peak(fn) -> tuple[object, float]:
    """``(result, MB)``: the traced peak of ``fn()`` over the memory in use before it."""
    memos.forget()  # (each run reads the text afresh: see fountain_audit.memos)
    gc.collect()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    result = fn()
    return result, (tracemalloc.get_traced_memory()[1] - before) / 1e6


def measure(name: str, text: str, repeat: int, selection: Selection) -> None:
    size = len(text.encode("utf-8", "surrogateescape")) / 1e6
    doc = parse(text)
    session = build_session(doc)
    stages = {
        "parse": lambda: parse(text),
        "session": lambda: build_session(doc),
        "rules": lambda: lint_session(text, doc, session, "bench", selection),
        "total": lambda: lint_text(text, "bench", selection),
    }
    seconds = {k: _timed(fn, repeat) for k, fn in stages.items()}
    del session, doc
    tracemalloc.start()
    try:
        doc, parse_mb = _peak(lambda: parse(text))
        session, session_mb = _peak(lambda: build_session(doc))
        _, rules_mb = _peak(lambda: lint_session(text, doc, session, "bench", selection))
        del session, doc
        _, total_mb = _peak(lambda: lint_text(text, "bench", selection))
    finally:
        tracemalloc.stop()
    mbs = {"parse": parse_mb, "session": session_mb, "rules": rules_mb, "total": total_mb}
    print(f"{name} ({size:.2f} MB)")
    for k in stages:
        median, least = seconds[k]
        print(f"  {k:<8} {median:7.3f} s (min {least:6.3f})  {size / median:7.1f} MB/s  peak +{mbs[k]:7.1f} MB")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--size", type=int, default=5_000_000, help="bytes of each generated session")
    ap.add_argument("--only", choices=("screenplay", "notes", "prose"), action="append")
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                    help="the checkout to measure (default: this one), e.g. ../main for a before/after")
    args = ap.parse_args()
    _load(args.root.resolve())
    import fountain_audit
    print(f"fountain_audit from {Path(fountain_audit.__file__).parent}, {args.repeat} runs, medians (and minimum)")
    selection = Selection.build()
    inputs = {"screenplay": lambda: bench.CHARADE.read_text(encoding="utf-8"),
              "notes": lambda: bench.generate_session(args.size),
              "prose": lambda: bench.generate_prose(args.size)}
    for name, make in inputs.items():
        if args.only and name not in args.only:
            continue
        if name == "screenplay" and not bench.CHARADE.is_file():
            print("screenplay: ../shared not present, skipped")
            continue
        measure(name, make(), args.repeat, selection)


if __name__ == "__main__":
    main()

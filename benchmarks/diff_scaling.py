"""Scaling of ``fountain-audit diff`` on the shapes that used to be quadratic (issue 14 item 20).

Each shape is a pair of generated sessions (deterministic) at a base size and at 10× it; the
diff is run in-process (:func:`fountain_audit.diff.diff_texts`, then the unified text and the
JSON document) and timed. Linear work gives a ratio near 10; the check is ratio ≤ 11 (the
issue's bar), printed per shape. Shapes:

- ``long-reply``: one changed word in a reply of N words (issue: 8k words took 5.4 s);
- ``repeated-words``: a reply of one word repeated, one occurrence changed (12 KB took 5.4 s);
- ``tool-note``: a tool note whose JSON arguments hold N/20 keys, one value changed (12 KB, 30 s);
- ``reworded-reply``: a reply of N words in which every 5th word changed (coarsened when long);
- ``many-turns``: N/100 turns with the same user input, one reply changed (turn alignment);
- ``reworded-prompts``: N/450 turns, every user input changed (one word added): one replace
  block of turns paired by similarity (100 turns took 6 s, 200 turns 19 s);
- ``changed-lines``: a reply of N/7 short lines, every 3rd line changed (the text formats'
  context lines: 20k lines took 5 s, 100k lines 121 s);
- ``boneyards``: N/120 turns in one scene, each with a boneyard between HARVEY's forwarding line
  and the reply, one boneyard changed (the scene's content outside its turns, as a line diff).

Usage: python benchmarks/diff_scaling.py [--base-kb KB] [--repeat N]
Prints, per shape: input bytes at 1× and 10×, median seconds (of ``--repeat`` runs), the
ratio, and whether a diff was coarsened. Sizes are UTF-8 bytes of side A.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fountain_audit.diff import diff_texts, render_unified  # noqa: E402

HEAD = """Title: Harvey Session
Credit: Recorded by Harvey
Author: RSDOIEL
Date: 2026-07-01 09:00:00
Model: PHI-MINI (llamafile)

FADE IN:

INT. HARVEY AND RSDOIEL TALKING 2026-07-01 09:10:00

Harvey and RSDOIEL are in chat mode. Model: PHI-MINI. Workspace: /home/user/project.

"""
TURN = """RSDOIEL
{prompt}

HARVEY
Forwarding to PHI-MINI.

{tool}PHI-MINI
{reply}

"""
TAIL = "THE END.\n"
VOCAB = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]


def session(turns: list[tuple[str, str, dict | None]]) -> str:
    """A session of ``(prompt, reply, tool arguments or None)`` turns in one scene."""
    body = "".join(TURN.format(prompt=p, reply=r, tool="" if args is None else
                               f"[[tool: run_tool({json.dumps(args, separators=(',', ':'))}) — ok]]\n\n")
                   for p, r, args in turns)
    return HEAD + body + TAIL


def words(n: int) -> list[str]:
    return [f"{VOCAB[(i * 7 + i // 13) % len(VOCAB)]}{i % 97}" for i in range(n)]


def long_reply(nbytes: int) -> tuple[str, str]:
    w = words(nbytes // 8)
    b = list(w)
    b[len(b) // 2] = "CHANGED"
    return session([("Write it.", " ".join(w), None)]), session([("Write it.", " ".join(b), None)])


def repeated_words(nbytes: int) -> tuple[str, str]:
    w = ["word"] * (nbytes // 5)
    b = list(w)
    b[len(b) // 2] = "ward"
    return session([("Repeat.", " ".join(w), None)]), session([("Repeat.", " ".join(b), None)])


def tool_note(nbytes: int) -> tuple[str, str]:
    args = {f"key{i}": f"value {i}" for i in range(nbytes // 20)}
    b = dict(args, **{f"key{len(args) // 2}": "changed"})
    return session([("Run.", "Done.", args)]), session([("Run.", "Done.", b)])


def reworded_reply(nbytes: int) -> tuple[str, str]:
    w = words(nbytes // 8)
    b = [f"x{x}" if i % 5 == 0 else x for i, x in enumerate(w)]
    return session([("Write it.", " ".join(w), None)]), session([("Write it.", " ".join(b), None)])


def many_turns(nbytes: int) -> tuple[str, str]:
    turns = [("continue", f"Step {i} done.", None) for i in range(nbytes // 100)]
    b = list(turns)
    b[len(b) // 2] = ("continue", "Step changed.", None)
    return session(turns), session(b)


def reworded_prompts(nbytes: int) -> tuple[str, str]:
    turns = [(" ".join(f"p{i}x{k}" for k in range(50)), f"Reply {i}.", None) for i in range(nbytes // 450)]
    return session(turns), session([(p + " please", r, None) for p, r, _ in turns])


def lines(n: int, changed: bool = False) -> str:
    """``n`` short lines ``w0``, ``w1`` ...; ``changed``: every 3rd one ``v…`` instead."""
    return "\n".join(f"v{i}" if changed and i % 3 == 0 else f"w{i}" for i in range(n))


def changed_lines(nbytes: int) -> tuple[str, str]:
    n = nbytes // 7
    return session([("Write it.", lines(n), None)]), session([("Write it.", lines(n, True), None)])

def boneyards(nbytes: int) -> tuple[str, str]:
    n = nbytes // 120
    turns = [(f"next {i}", f"Reply {i}.", f"/* reviewer note {i}: fine */\n\n") for i in range(n)]
    changed = [(p, r, c.replace("fine", "wrong") if i == n // 2 else c) for i, (p, r, c) in enumerate(turns)]
    return tuple(HEAD + "".join(TURN.format(prompt=p, reply=r, tool=c) for p, r, c in t) + TAIL  # type: ignore[return-value]
                 for t in (turns, changed))


SHAPES: dict[str, Callable[[int], tuple[str, str]]] = {
    "long-reply": long_reply, "repeated-words": repeated_words, "tool-note": tool_note,
    "reworded-reply": reworded_reply, "many-turns": many_turns, "reworded-prompts": reworded_prompts,
    "changed-lines": changed_lines, "boneyards": boneyards,
}


def run(a: str, b: str) -> bool:
    """One diff with its text and JSON outputs; returns whether anything was coarsened."""
    result = diff_texts(a, b, "a.spmd", "b.spmd")
    render_unified(result)
    json.dumps(result.to_json())
    return any(c.coarsened for c in result.changes)


def seconds(a: str, b: str, repeat: int) -> float:
    """Median wall-clock seconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        run(a, b)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base-kb", type=float, default=12.0, help="size of side A at 1×, KB (default 12)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per measurement (median)")
    args = ap.parse_args()
    base = int(args.base_kb * 1000)
    print(f"{'shape':16} {'1× bytes':>10} {'10× bytes':>10} {'1× s':>8} {'10× s':>8} {'ratio':>6}  coarsened  ≤ 11×")
    for name, make in SHAPES.items():
        small, large = make(base), make(base * 10)
        t1, t10 = seconds(*small, args.repeat), seconds(*large, args.repeat)
        coarse = run(*small), run(*large)
        ratio = t10 / t1
        print(f"{name:16} {len(small[0].encode()):>10} {len(large[0].encode()):>10} {t1:>8.3f} {t10:>8.3f} "
              f"{ratio:>6.1f}  {'/'.join('yes' if c else 'no' for c in coarse):9}  {'ok' if ratio <= 11 else 'NO'}")


if __name__ == "__main__":
    main()

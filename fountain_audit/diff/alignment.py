"""Alignment of two sequences (scenes, turns, notes): equal keys are paired, and the items of
each replace block are paired by similarity (:func:`align`, :func:`pair_block`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from typing import Any

from fountain_audit.diff.sequences import opcodes

_PAIR_LIMIT = 2_500  # cells of the optimal-pairing table before falling back to a greedy pairing (≤ 10 sims an item)

Step = tuple[str, "int | None", "int | None"]


def pair_block(n: int, m: int, sim: Callable[[int, int], float | None]) -> list[Step]:
    """Pair the items of a replace block (``n`` items of A, ``m`` of B) in order, maximising
    the total similarity; ``sim(i, j)`` is ``None`` when ``i`` and ``j`` may not be paired.
    Returns steps ``("pair", i, j)``, ``("del", i, None)``, ``("ins", None, j)`` in order."""
    steps: list[Step] = []
    if n * m > _PAIR_LIMIT:  # greedy: each A item takes the first pairable B item nearby
        j = 0
        for i in range(n):
            for jj in range(j, min(m, j + 10)):
                if sim(i, jj) is not None:
                    steps.extend(("ins", None, k) for k in range(j, jj))
                    steps.append(("pair", i, jj))
                    j = jj + 1
                    break
            else:
                steps.append(("del", i, None))
        steps.extend(("ins", None, k) for k in range(j, m))
        return steps
    w = [[sim(i, j) for j in range(m)] for i in range(n)]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            v = max(best[i + 1][j], best[i][j + 1])
            if w[i][j] is not None:
                v = max(v, w[i][j] + best[i + 1][j + 1])
            best[i][j] = v
    i = j = 0
    while i < n and j < m:
        if w[i][j] is not None and best[i][j] == w[i][j] + best[i + 1][j + 1]:
            steps.append(("pair", i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            steps.append(("del", i, None))
            i += 1
        else:
            steps.append(("ins", None, j))
            j += 1
    steps.extend(("del", k, None) for k in range(i, n))
    steps.extend(("ins", None, k) for k in range(j, m))
    return steps


def align(a_keys: Sequence[Any], b_keys: Sequence[Any], sim: Callable[[int, int], float | None], *,
          loose_a: Set[Any] = frozenset(), loose_b: Set[Any] = frozenset()) -> list[Step]:
    """Align two sequences: :func:`fountain_audit.diff.sequences.opcodes` (SequenceMatcher,
    bounded) on the hashable ``keys``; equal items are paired, and the items of each replace block are paired by
    :func:`pair_block` with ``sim(i, j)`` (indexes into the whole sequences), but for an item whose
    key the other side holds outside its equal blocks (a moved item: left unpaired for the caller's
    moves) and a different-key item. ``loose_a``/``loose_b``: keys each side also leaves unmatched
    outside these sequences (the caller aligns part of a longer one)."""
    steps: list[Step] = []
    ops = opcodes(list(a_keys), list(b_keys))[0]
    # the keys of the items left unmatched on each side: an item whose key the other side leaves
    # unmatched is moved there, not a modification of a like item (turns `a b c d` against
    # `b a d c` paired a with b, "user changed: show me file [-a-]{+b+}"; adversarial trial, stop 38)
    loose_a = {a_keys[i] for tag, i1, i2, _, _ in ops if tag != "equal" for i in range(i1, i2)} | loose_a
    loose_b = {b_keys[j] for tag, _, _, j1, j2 in ops if tag != "equal" for j in range(j1, j2)} | loose_b

    def pairable(i: int, j: int) -> float | None:
        ka, kb = a_keys[i], b_keys[j]
        if ka != kb and (ka in loose_b or kb in loose_a):
            return None
        return sim(i, j)

    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            steps.extend(("pair", i1 + k, j1 + k) for k in range(i2 - i1))
        elif tag == "delete":
            steps.extend(("del", i, None) for i in range(i1, i2))
        elif tag == "insert":
            steps.extend(("ins", None, j) for j in range(j1, j2))
        else:
            for op, i, j in pair_block(i2 - i1, j2 - j1, lambda x, y: pairable(i1 + x, j1 + y)):
                steps.append((op, None if i is None else i1 + i, None if j is None else j1 + j))
    return steps


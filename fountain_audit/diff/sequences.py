"""Bounded matching of two sequences (tokens of a text, turn keys, canonical JSON items).

:class:`difflib.SequenceMatcher` with ``autojunk=False`` gives the diffs people expect, but its
work grows with the product of the lengths, and faster still when tokens repeat (white space,
one word over and over): one changed word in an 8,000-word reply took 5 s. :func:`opcodes`
keeps SequenceMatcher's exact answer for small inputs and bounds the work on large ones:

1. inputs with at most :data:`CELL_LIMIT` cells (``len(a) * len(b)``) go to SequenceMatcher
   as they are (so small diffs are exactly what they always were);
2. otherwise the common prefix and suffix are matched first (linear), and a middle within the
   limit goes to SequenceMatcher;
3. a larger middle is cut at *anchors*, tokens that occur exactly once in each side's middle,
   taken in the longest run that keeps their order (as patience diff does, O(n log n)); each
   stretch between anchors is matched the same way, at most :data:`MAX_DEPTH` levels deep;
4. a stretch still too large, or without anchors, is **coarsened**: reported as one block,
   removed from A and inserted in B, without looking inside it.

The work is then at most linear in the input (each level is a linear pass, and every
SequenceMatcher call has at most :data:`CELL_LIMIT` cells), and the result says whether
anything was coarsened, so the report can say so.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Hashable, Sequence
from difflib import SequenceMatcher

#: Cells (``len(a) * len(b)``) of the largest stretch given to SequenceMatcher.
CELL_LIMIT = 40_000
#: Levels of anchor cutting before a stretch is coarsened.
MAX_DEPTH = 4

#: ``(tag, i1, i2, j1, j2)`` as :meth:`difflib.SequenceMatcher.get_opcodes` yields them.
Opcode = tuple[str, int, int, int, int]


def opcodes(a: Sequence[Hashable], b: Sequence[Hashable], limit: int = CELL_LIMIT) -> tuple[list[Opcode], bool]:
    """Opcodes turning ``a`` into ``b`` (``equal``/``replace``/``delete``/``insert``, 0-based
    half-open index ranges, as :meth:`~difflib.SequenceMatcher.get_opcodes`) and whether a
    stretch was coarsened (reported as one ``replace`` without looking inside it). Identical
    to SequenceMatcher (``autojunk=False``) when ``len(a) * len(b) <= limit``."""
    if len(a) * len(b) <= limit:
        return SequenceMatcher(None, a, b, autojunk=False).get_opcodes(), False
    raw: list[Opcode] = []
    coarse = _match(a, b, 0, len(a), 0, len(b), 0, raw, limit)
    return _merged(raw), coarse


def ratio(a: Sequence[Hashable], b: Sequence[Hashable], limit: int = CELL_LIMIT) -> float:
    """Similarity ``2 * M / (len(a) + len(b))`` (0–1), ``M`` the tokens matched by
    :func:`opcodes` (SequenceMatcher's ratio within the limit; a lower bound beyond it)."""
    if not a and not b:
        return 1.0
    if len(a) * len(b) <= limit:
        return SequenceMatcher(None, a, b, autojunk=False).ratio()
    ops, _ = opcodes(a, b, limit)
    matched = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag == "equal")
    return 2.0 * matched / (len(a) + len(b))


def _match(a: Sequence[Hashable], b: Sequence[Hashable], alo: int, ahi: int, blo: int, bhi: int, depth: int,
           out: list[Opcode], limit: int) -> bool:
    """Append opcodes for ``a[alo:ahi]`` → ``b[blo:bhi]`` to ``out``; True if coarsened."""
    p = 0
    while alo + p < ahi and blo + p < bhi and a[alo + p] == b[blo + p]:
        p += 1
    s = 0
    while ahi - s > alo + p and bhi - s > blo + p and a[ahi - s - 1] == b[bhi - s - 1]:
        s += 1
    if p:
        out.append(("equal", alo, alo + p, blo, blo + p))
    a0, a1, b0, b1 = alo + p, ahi - s, blo + p, bhi - s
    coarse = False
    if a0 == a1 or b0 == b1:
        if a0 < a1 or b0 < b1:
            out.append(("delete" if b0 == b1 else "insert", a0, a1, b0, b1))
    elif (a1 - a0) * (b1 - b0) <= limit:
        sm = SequenceMatcher(None, a[a0:a1], b[b0:b1], autojunk=False)
        out.extend((tag, a0 + i1, a0 + i2, b0 + j1, b0 + j2) for tag, i1, i2, j1, j2 in sm.get_opcodes())
    else:
        anchors = _anchors(a, b, a0, a1, b0, b1) if depth < MAX_DEPTH else []
        if not anchors:
            out.append(("replace", a0, a1, b0, b1))
            coarse = True
        else:
            i0, j0 = a0, b0
            for i, j in anchors:
                coarse |= _match(a, b, i0, i, j0, j, depth + 1, out, limit)
                out.append(("equal", i, i + 1, j, j + 1))
                i0, j0 = i + 1, j + 1
            coarse |= _match(a, b, i0, a1, j0, b1, depth + 1, out, limit)
    if s:
        out.append(("equal", ahi - s, ahi, bhi - s, bhi))
    return coarse


def _anchors(a: Sequence[Hashable], b: Sequence[Hashable], a0: int, a1: int, b0: int,
             b1: int) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` of tokens occurring once in ``a[a0:a1]`` and once in ``b[b0:b1]``,
    the longest run increasing in both (patience sorting)."""
    ca = Counter(a[a0:a1])
    cb = Counter(b[b0:b1])
    where_b = {b[j]: j for j in range(b0, b1) if cb[b[j]] == 1 and ca.get(b[j]) == 1}
    pairs = [(i, where_b[a[i]]) for i in range(a0, a1) if a[i] in where_b]
    # Longest increasing subsequence of the j's, O(k log k).
    tails: list[int] = []  # smallest j ending a run of each length
    tail_at: list[int] = []  # index into pairs of that run's end
    back: list[int] = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        n = bisect_left(tails, j)
        if n == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[n] = j
            tail_at[n] = k
        back[k] = tail_at[n - 1] if n else -1
    run: list[tuple[int, int]] = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        run.append(pairs[k])
        k = back[k]
    return run[::-1]


def _merged(raw: list[Opcode]) -> list[Opcode]:
    """Adjacent equal blocks joined, adjacent changes joined into one ``replace`` (or
    ``delete``/``insert`` when one side is empty), as SequenceMatcher reports them."""
    out: list[Opcode] = []
    for tag, i1, i2, j1, j2 in raw:
        if i1 == i2 and j1 == j2:
            continue
        change = tag != "equal"
        if out and (out[-1][0] != "equal") == change:
            _, pi1, _, pj1, _ = out[-1]
            i1, j1 = pi1, pj1
            out.pop()
        if change:
            tag = "replace" if i1 < i2 and j1 < j2 else "delete" if i1 < i2 else "insert"
        out.append((tag, i1, i2, j1, j2))
    return out

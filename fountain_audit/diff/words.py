"""Texts as the diff compares them: a word diff (:func:`word_diff`) and a similarity ratio
(:func:`ratio`)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from fountain_audit.diff.sequences import CELL_LIMIT, opcodes
from fountain_audit.diff.sequences import ratio as sequence_ratio

#: Pairing threshold for the items of a replace block (SequenceMatcher ratio).
THRESHOLD = 0.5

_WORD_RE = re.compile(r"\s+|\w+|[^\w\s]")
_TOKEN_RE = re.compile(r"\w+|[^\w\s]")  # words and punctuation: what :func:`ratio` compares in long texts


def diff_words(a: str, b: str) -> tuple[list[tuple[str, str]], bool]:
    """:func:`word_diff` and whether it was coarsened (a long stretch with many changes
    reported as removed and added whole, see :mod:`fountain_audit.diff.sequences`)."""
    ta, tb = _WORD_RE.findall(a), _WORD_RE.findall(b)
    out: list[tuple[str, str]] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + text)
        else:
            out.append((op, text))

    ops, coarse = opcodes(ta, tb)
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            add("=", "".join(ta[i1:i2]))
        else:
            add("-", "".join(ta[i1:i2]))
            add("+", "".join(tb[j1:j2]))
    return out, coarse


def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """Word-level diff: ``[(op, text), ...]`` with ``op`` ``"="`` (kept), ``"-"`` (only in
    ``a``) or ``"+"`` (only in ``b``). Words, runs of white space and single punctuation
    characters are the units; the ``"="`` and ``"-"`` texts join to ``a``, ``"="`` and ``"+"`` to ``b``.
    The work is bounded (linear in the texts); see :func:`diff_words` for whether it was coarsened."""
    return diff_words(a, b)[0]


def ratio(a: str, b: str, threshold: float = THRESHOLD) -> float:
    """Similarity of two texts (0–1, :meth:`SequenceMatcher.ratio`); texts too long to compare
    character by character (:data:`~fountain_audit.diff.sequences.CELL_LIMIT`) are compared
    word by word (words and punctuation, white space left out), and long ones with bounded work (:func:`fountain_audit.diff.sequences.ratio`).
    Below ``threshold`` the value is only an upper bound."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    x: Sequence[str] = a
    y: Sequence[str] = b
    if len(a) + len(b) > 4000 or len(a) * len(b) > CELL_LIMIT:
        x, y = _TOKEN_RE.findall(a), _TOKEN_RE.findall(b)
    sm = SequenceMatcher(None, x, y, autojunk=False)
    if sm.real_quick_ratio() < threshold or sm.quick_ratio() < threshold:
        return min(sm.quick_ratio(), threshold - 1e-9)
    return sm.ratio() if len(x) * len(y) <= CELL_LIMIT else sequence_ratio(x, y)


def line_diff(a: str, b: str, context: int = 1) -> tuple[list[str], bool]:
    """Unified-diff hunks of two texts, line by line, without the ``---``/``+++`` header:
    ``@@ -l,n +l,n @@`` then `` ``/``-``/``+`` lines with ``context`` lines around each change
    (as :func:`difflib.unified_diff`, which it is when the texts are small), and whether a
    stretch was coarsened (bounded work, see :mod:`fountain_audit.diff.sequences`)."""
    la, lb = a.split("\n"), b.split("\n")
    if len(la) * len(lb) <= CELL_LIMIT:
        return list(difflib.unified_diff(la, lb, lineterm="", n=context))[2:], False
    ops, coarse = opcodes(la, lb)
    out: list[str] = []
    for group in _groups(ops, context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@")
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                out.extend(" " + ln for ln in la[x1:x2])
                continue
            out.extend("-" + ln for ln in la[x1:x2])
            out.extend("+" + ln for ln in lb[y1:y2])
    return out, coarse


def _range(start: int, stop: int) -> str:
    """A unified-diff range: 1-based first line and count (``l`` alone for one line)."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if not length else start + 1},{length}"


def _groups(ops: list[tuple[str, int, int, int, int]], n: int) -> list[list[tuple[str, int, int, int, int]]]:
    """The opcodes in hunks with at most ``n`` lines of context (unified-diff grouping)."""
    codes = list(ops) or [("equal", 0, 1, 0, 1)]
    if codes[0][0] == "equal":
        tag, i1, i2, j1, j2 = codes[0]
        codes[0] = (tag, max(i1, i2 - n), i2, max(j1, j2 - n), j2)
    if codes[-1][0] == "equal":
        tag, i1, i2, j1, j2 = codes[-1]
        codes[-1] = (tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n))
    groups: list[list[tuple[str, int, int, int, int]]] = []
    group: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > 2 * n:
            group.append((tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)))
            groups.append(group)
            group = []
            i1, j1 = max(i1, i2 - n), max(j1, j2 - n)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        groups.append(group)
    return groups

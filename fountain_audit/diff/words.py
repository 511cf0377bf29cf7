"""Texts as the diff compares them: a word diff (:func:`word_diff`) and a similarity ratio
(:func:`ratio`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

#: Pairing threshold for the items of a replace block (SequenceMatcher ratio).
THRESHOLD = 0.5

_WORD_RE = re.compile(r"\s+|\w+|[^\w\s]")


def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """Word-level diff: ``[(op, text), ...]`` with ``op`` ``"="`` (kept), ``"-"`` (only in
    ``a``) or ``"+"`` (only in ``b``). Words, runs of white space and single punctuation
    characters are the units; the ``"="`` and ``"-"`` texts join to ``a``, ``"="`` and ``"+"`` to ``b``."""
    ta, tb = _WORD_RE.findall(a), _WORD_RE.findall(b)
    out: list[tuple[str, str]] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + text)
        else:
            out.append((op, text))

    for tag, i1, i2, j1, j2 in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag == "equal":
            add("=", "".join(ta[i1:i2]))
        else:
            add("-", "".join(ta[i1:i2]))
            add("+", "".join(tb[j1:j2]))
    return out


def ratio(a: str, b: str, threshold: float = THRESHOLD) -> float:
    """Similarity of two texts (0–1, :meth:`SequenceMatcher.ratio`); long texts are compared
    word by word. Below ``threshold`` the value is only an upper bound."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    x: Sequence[str] = a
    y: Sequence[str] = b
    if len(a) + len(b) > 4000:
        x, y = _WORD_RE.findall(a), _WORD_RE.findall(b)
    sm = SequenceMatcher(None, x, y, autojunk=False)
    if sm.real_quick_ratio() < threshold or sm.quick_ratio() < threshold:
        return min(sm.quick_ratio(), threshold - 1e-9)
    return sm.ratio()


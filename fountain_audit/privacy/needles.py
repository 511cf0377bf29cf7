"""Where the secret detectors' needles occur in a text: one Aho-Corasick pass over each form of
the text instead of one substring search per needle (issue 9).

:func:`fountain_audit.privacy.detect.find_secrets` runs a detector only on a text that holds one of
its needles (``AKIA``, ``eyJ``, ``sk-ant-``, ``key``, ``token``, …; about forty). Asked one by one,
an absent needle costs a scan of the whole text each: forty scans of every file linted, a quarter of
the lint of a screenplay. :class:`Needles` finds every occurrence of every needle of one form of the
text (its ASCII bytes, or its folded bytes for the case-insensitive needles) in one pass of a
deterministic automaton (the ``ahocorasick_rs`` library, Rust's ``aho-corasick``), overlapping
matches included, so the answers are those of ``needle in hay`` and of repeated ``hay.find``.
"""

from __future__ import annotations

from collections.abc import Sequence

#: (words, lower) -> (automaton, words as str), each compiled once (about a millisecond).
_AUTOMATA: dict[tuple[tuple[str, ...], bool], tuple[object, tuple[str, ...]]] = {}


def _automaton(words: tuple[str, ...], lower: bool):
    """The automaton of ``words`` (ASCII, two characters or more) and the words it numbers."""
    key = (words, lower)
    known = _AUTOMATA.get(key)
    if known is None:
        from ahocorasick_rs import BytesAhoCorasick, Implementation
        known = _AUTOMATA[key] = (BytesAhoCorasick([w.encode("ascii") for w in words],
                                                   implementation=Implementation.DFA), words)
    return known


class Needles:
    """The occurrences of ``words`` (each ``(needle, lower)``: ASCII needles; ``lower``, looked for
    in the folded form) in one text, given as ``raw`` (one byte per code point, see
    :func:`fountain_audit.privacy.detect._one_byte_form`) and ``low`` (its folded form: bytes, or a
    ``str`` when folding changed the text's length, see :func:`fountain_audit.privacy.detect._folded`).
    Each form is scanned once, when a needle of that form is first asked for; a ``str`` form and
    one-character needles are answered by ``in`` and ``find``. Offsets are code points of the
    form (those of the text for ``raw`` and for a ``bytes`` ``low``)."""

    __slots__ = ("_forms", "_words", "_at", "_known")

    def __init__(self, raw: bytes, low: str | bytes, words: Sequence[tuple[str, bool]]) -> None:
        self._forms = {False: raw, True: low}
        self._words = {lower: tuple(sorted({n for n, lo in words if lo is lower and len(n) > 1}))
                       for lower in (False, True)}
        self._at: dict[bool, dict[str, list[int]]] = {}
        self._known: dict[tuple[str, bool], bool] = {}

    def present(self, needle: str, lower: bool) -> bool:
        """Does ``needle`` occur in the form ``lower`` names?"""
        key = (needle, lower)
        hit = self._known.get(key)
        if hit is None:
            at = self._occurrences(lower)
            if at is None or needle not in self._words[lower]:
                hay = self._forms[lower]
                hit = (needle.encode("ascii") if type(hay) is bytes else needle) in hay
            else:
                hit = needle in at
            self._known[key] = hit
        return hit

    def starts(self, needle: str, lower: bool) -> list[int]:
        """The start offset of each occurrence of ``needle`` (overlapping ones too), in order."""
        at = self._occurrences(lower)
        if at is not None and needle in self._words[lower]:
            return at.get(needle, [])
        hay = self._forms[lower]
        word = needle.encode("ascii") if type(hay) is bytes else needle
        out = []
        i = hay.find(word)
        while i >= 0:
            out.append(i)
            i = hay.find(word, i + 1)
        return out

    def _occurrences(self, lower: bool) -> dict[str, list[int]] | None:
        """needle -> its starts, for the needles of the automaton of form ``lower`` (``None``:
        that form is a ``str``, searched needle by needle)."""
        at = self._at.get(lower)
        if at is None:
            hay = self._forms[lower]
            words = self._words[lower]
            if type(hay) is not bytes or not words:
                return None
            automaton, names = _automaton(words, lower)
            at = self._at[lower] = {}
            for i, start, _ in automaton.find_matches_as_indexes(hay, overlapping=True):
                found = at.get(names[i])
                if found is None:
                    at[names[i]] = [start]
                else:
                    found.append(start)
        return at

"""Where the secret detectors' needles occur in a text: one Aho-Corasick pass over each form of
the text instead of one substring search per needle (issue 9).

:func:`fountain_audit.privacy.detect.find_secrets` runs a detector only on a text that holds one of
its needles (``AKIA``, ``eyJ``, ``sk-ant-``, ``key``, ``token``, …; about forty). Asked one by one,
an absent needle costs a scan of the whole text each: forty scans of every file linted, a quarter of
the lint of a screenplay. :class:`Needles` finds every occurrence of every needle of one form of the
text (its ASCII bytes, or its folded bytes for the case-insensitive needles) in one pass of a
deterministic automaton (the ``ahocorasick_rs`` library, Rust's ``aho-corasick``), overlapping
matches included, so the answers are those of ``needle in hay``.
"""

from __future__ import annotations

from collections.abc import Sequence

#: (words, lower) -> automaton, each compiled once (about a millisecond).
_AUTOMATA: dict[tuple[tuple[str, ...], bool], object] = {}


def _automaton(words: tuple[str, ...], lower: bool):
    """The automaton of ``words`` (ASCII, two characters or more), which gives back the words
    themselves for its matches (no object made per match)."""
    key = (words, lower)
    automaton = _AUTOMATA.get(key)
    if automaton is None:
        from ahocorasick_rs import AhoCorasick, Implementation
        automaton = _AUTOMATA[key] = AhoCorasick(list(words), implementation=Implementation.DFA,
                                                 store_patterns=True)
    return automaton


#: The size from which a form of the text is scanned by the automaton: below it the needles are
#: looked for one by one (at most about forty scans of 64 KB, under a millisecond), which costs
#: less than loading the automaton's library and building it (about 3 ms, once a process: a
#: ``lint`` of one small file pays it; issue 9's start-up figures).
AUTOMATON_MIN = 1 << 16

#: Each byte from 0x80 to ``?``: a form of the text read as an ASCII ``str`` (which the automaton
#: reads in place, without an encoded copy); no needle holds ``?`` nor a byte from 0x80.
_TO_ASCII = bytes(range(128)) + b"?" * 128


#: words -> {lower: the automaton's words of that form}, split once per needle list (find_secrets
#: makes a Needles per text, thousands of short ones in a dump).
_WORDS: dict[Sequence[tuple[str, bool]], dict[bool, tuple[str, ...]]] = {}


def _split(words: Sequence[tuple[str, bool]]) -> dict[bool, tuple[str, ...]]:
    """The needles of ``words`` the automaton of each form reads (two characters or more), sorted."""
    split = _WORDS[words] = {lower: tuple(sorted({n for n, lo in words if lo is lower and len(n) > 1}))
                             for lower in (False, True)}
    return split


class Needles:
    """Which of ``words`` (each ``(needle, lower)``: ASCII needles; ``lower``, looked for in the
    folded form) occur in one text, given as ``raw`` (one byte per code point, see
    :func:`fountain_audit.privacy.detect._one_byte_form`) and ``low`` (its folded form: bytes, or a
    ``str`` when folding changed the text's length, see :func:`fountain_audit.privacy.detect._folded`).
    Each form is scanned once, when a needle of that form is first asked for; a ``str`` form, a
    form under :data:`AUTOMATON_MIN` and one-character needles are answered by ``in``. The
    automaton gives back its stored needles, gathered in C into a set: a text holding a needle
    many times costs no Python step and no object per occurrence."""

    __slots__ = ("_forms", "_words", "_found", "_known")

    def __init__(self, raw: bytes, low: str | bytes, words: Sequence[tuple[str, bool]]) -> None:
        self._forms = {False: raw, True: low}
        self._words = _WORDS.get(words) or _split(words)
        self._found: dict[bool, frozenset[str] | None] = {}
        self._known: dict[tuple[str, bool], bool] = {}

    def present(self, needle: str, lower: bool) -> bool:
        """Does ``needle`` occur in the form ``lower`` names?"""
        key = (needle, lower)
        hit = self._known.get(key)
        if hit is None:
            found = self._found[lower] if lower in self._found else self._scan(lower)
            if found is None or needle not in self._words[lower]:
                hay = self._forms[lower]
                hit = (needle.encode("ascii") if type(hay) is bytes else needle) in hay
            else:
                hit = needle in found
            self._known[key] = hit
        return hit

    def _scan(self, lower: bool) -> frozenset[str] | None:
        """The needles of the automaton of form ``lower`` that occur there (``None``: that form is
        a ``str`` or short, searched needle by needle)."""
        hay = self._forms[lower]
        words = self._words[lower]
        found = None
        if type(hay) is bytes and words and len(hay) >= AUTOMATON_MIN:
            text = (hay if hay.isascii() else hay.translate(_TO_ASCII)).decode("ascii")
            found = frozenset(_automaton(words, lower).find_matches_as_strings(text, overlapping=True))
        self._found[lower] = found
        return found

"""``did you mean …?``: the known value closest to a mistyped one, for usage messages (rule
codes and names, ``dump --status``, ``--scene-kind``, ``--records``)."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing
if TYPE_CHECKING:
    from typing import Iterable


def closest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The choice closest to ``word``, compared case-insensitively
    (:func:`difflib.get_close_matches`, ratio at least ``cutoff``), as spelt in ``choices``;
    ``None`` when nothing is that close. ``closest("eror", ["ok", "error"])`` → ``"error"``."""
    import difflib

    by_folded: dict[str, str] = {}
    for c in choices:
        by_folded.setdefault(c.lower(), c)
    best = difflib.get_close_matches(word.strip().lower(), list(by_folded), n=1, cutoff=cutoff)
    return by_folded[best[0]] if best else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'error'?"`` for a mistyped ``word``, or ``""`` when nothing is close."""
    guess = closest(word, choices)
    return f"; did you mean {guess!r}?" if guess is not None else ""

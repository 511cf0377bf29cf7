"""Process-wide memos of answers read from session text, and :func:`forget` to empty them.

Some answers are kept across files and calls because a session repeats their question
thousands of times (a heading's place, a timestamp, a scene description, a note's payload, a
tool call's status: issue 9). Each such table is made by :func:`content_table` (or, for a
``functools`` cache, registered with :func:`forgettable`), so :func:`forget` can empty them all,
as a new process starts: what a benchmark does between runs over the same text, so that each
run pays for its own first reading rather than being answered from the run before.
Tables of the grammar and of compiled patterns (what the code is, not what a file says) are
not among them.
"""

from __future__ import annotations

_FORGET: list = []


def content_table() -> dict:
    """A new ``dict`` for answers keyed by session text, emptied by :func:`forget`."""
    table: dict = {}
    _FORGET.append(table.clear)
    return table


def remember(table: dict, key, value, limit: int = 4096):
    """``table[key] = value``, the table emptied first when it holds ``limit`` entries (a memo
    never keeps an unbounded set of a file's texts alive); returns ``value``."""
    if len(table) >= limit:
        table.clear()
    table[key] = value
    return value


def forgettable(cached):
    """Register a ``functools.lru_cache``/``cache`` function (its ``cache_clear``) with
    :func:`forget`; returns it, so it can be used as a decorator above the cache's."""
    _FORGET.append(cached.cache_clear)
    return cached


def on_forget(clear):
    """Register ``clear()`` (a function that empties a memo kept otherwise) with :func:`forget`."""
    _FORGET.append(clear)
    return clear


def forget() -> None:
    """Empty every memo of answers read from session text (see the module docstring)."""
    for clear in _FORGET:
        clear()

"""Regular expressions compiled on first use (issue 9, start-up).

``re`` compiles a pattern in pure Python (its parser and compiler): about a tenth of a
millisecond each, and the lint path's modules declare over a hundred module-level patterns, most
of which a given file never needs (a secret detector's, a legacy note form's, an error
message's). :func:`lazy` declares one without compiling it: the first attribute read compiles it
and keeps the compiled pattern's methods and attributes on the object itself, so every later read
(``PATTERN.match``) is a plain attribute read, as fast as on the pattern (no ``__getattr__``
call, no property). Use it for a module-level pattern that not every run reads; a pattern read
on every run gains nothing from it.
"""

from __future__ import annotations

import re

#: What a compiled pattern offers (read through to it; each kept on the object once compiled).
_ATTRIBUTES = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
               "pattern", "flags", "groups", "groupindex")


class LazyPattern:
    """A pattern compiled when first read (see the module docstring); reads as the
    :class:`re.Pattern` it stands for (``pattern``, ``flags``, ``groups``, ``groupindex`` and the
    matching methods); not an instance of it (``re.search(PATTERN, ...)`` needs a real one)."""

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str):  # (only for names the object does not hold yet)
        if name not in _ATTRIBUTES:
            raise AttributeError(name)
        rx = re.compile(*self._source)
        for attr in _ATTRIBUTES:
            setattr(self, attr, getattr(rx, attr))
        return getattr(self, name)

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r}, {self._source[1]!r})"


def lazy(pattern: str | bytes, flags: int = 0) -> LazyPattern:
    """``re.compile(pattern, flags)``, done when the pattern is first used."""
    return LazyPattern(pattern, flags)

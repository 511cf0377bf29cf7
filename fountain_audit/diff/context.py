"""A word diff shown with context, as the text formats print a changed text: the lines that
hold a change, :data:`CONTEXT_LINES` unchanged lines around them, and within those lines at
most :data:`CONTEXT_WORDS` unchanged words on each side of a change. What is left out is
marked: ``…`` inside a line, ``… N unchanged lines`` for whole lines. (``--format json`` keeps
the complete word diff.)

>>> in_context([("=", "one two three four five six seven eight nine ten "), ("-", "x"), ("+", "y")], 3)
[[('… eight nine ten ', None), ('x', 'del'), ('y', 'ins')]]
"""

from __future__ import annotations

import re

#: Unchanged words kept on each side of a change, within a line.
CONTEXT_WORDS = 8
#: Unchanged lines kept before and after a line with a change.
CONTEXT_LINES = 1

#: A line of segments ``(text, style)``: style ``None`` (kept), ``"del"``, ``"ins"`` or ``"meta"``.
Segments = list[tuple[str, "str | None"]]

_WORD = re.compile(r"\w+")
_STYLE = {"=": None, "-": "del", "+": "ins"}


def in_context(words: list[tuple[str, str]], context_words: int = CONTEXT_WORDS,
               context_lines: int = CONTEXT_LINES) -> list[Segments]:
    """The lines of a word diff (``[(op, text)]``, op ``=``/``-``/``+``) to print, with the
    unchanged stretches far from any change left out (see the module docstring). A line that
    is only ``… N unchanged lines`` has the style ``"meta"``."""
    lines: list[Segments] = [[]]
    for op, text in words:
        for k, part in enumerate(text.split("\n")):
            if k:
                lines.append([])
            if part:
                lines[-1].append((part, _STYLE[op]))
    changed = [i for i, ln in enumerate(lines) if any(st is not None for _, st in ln)]
    if not changed:
        return lines
    # One pass over the lines, a second index walking ``changed`` beside it: linear (a search
    # of ``changed`` per line was quadratic in a text with many changed lines). At line i,
    # changed[p] is the first changed line at or after i, changed[p - 1] the last one before it.
    out: list[Segments] = []
    skipped = 0
    p, n = 0, len(changed)
    for i, line in enumerate(lines):
        while p < n and changed[p] < i:
            p += 1
        above = p > 0 and i - changed[p - 1] <= context_lines  # a change at most context_lines above
        if p < n and changed[p] == i and context_lines >= 0:
            if skipped:
                out.append([(_lines_note(skipped), "meta")])
                skipped = 0
            out.append(_trim_changed(line, context_words))
            continue
        below = p < n and changed[p] - i <= context_lines  # a change at most context_lines below
        if not (above or below):
            skipped += 1
            continue
        if skipped:
            out.append([(_lines_note(skipped), "meta")])
            skipped = 0
        # a context line: the end near the change below, the start near the change above
        text = "".join(t for t, _ in line)
        out.append([(_trim(text, context_words, head=above, tail=below), None)] if text else [])
    if skipped:
        out.append([(_lines_note(skipped), "meta")])
    return out


def _lines_note(n: int) -> str:
    return f"… {n} unchanged line{'s' * (n != 1)}"


def _trim_changed(line: Segments, k: int) -> Segments:
    """A line with changes: each unchanged segment cut to ``k`` words next to its changes."""
    out: Segments = []
    for n, (text, style) in enumerate(line):
        if style is not None:
            out.append((text, style))
            continue
        after_change = n > 0
        before_change = n < len(line) - 1
        text = _trim(text, k, head=after_change, tail=before_change)
        if text:
            out.append((text, None))
    return out


def _trim(text: str, k: int, head: bool, tail: bool) -> str:
    """``text`` keeping its first ``k`` words (``head``) and/or its last ``k`` words
    (``tail``), the rest replaced by ``…``; unchanged if nothing would be left out."""
    ws = list(_WORD.finditer(text))
    keep = (k if head else 0) + (k if tail else 0)
    if len(ws) <= keep:
        return text
    start = text[:ws[k - 1].end()] if head and k else ""
    end = text[ws[-k].start():] if tail and k else ""
    if head and tail:
        return f"{start} … {end}"
    if head:
        return f"{start} …"
    if tail:
        return f"… {end}"
    return "…"

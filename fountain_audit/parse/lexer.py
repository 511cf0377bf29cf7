"""Line lexer: classifies the physical lines of a Fountain file into tokens.

Fountain is line-oriented and context-sensitive (a character cue is an upper-case
line *after a blank line and before a non-blank one*), which a regular-expression
tokenizer cannot express. This module walks the lines once, classifies each with
compiled regular expressions and the blank-line context, and yields one Lark
``Token`` per line (a run of blank lines, a multi-line note and a boneyard are one
token each). ``grammar/fountain.lark`` then assembles the tokens into elements.

Invariants (relied on by the lossless AST):

* every character of the input is in exactly one token, in order;
* a token's value includes its line terminators (``\\n``, ``\\r\\n`` or ``\\r``);
* ``line``/``column`` are 1-based, columns count code points.

Spec: Fountain 1.1 (https://fountain.io/syntax); Harvey's
FOUNTAIN_FORMAT.md v1.3 and the recorder's byte layout
(harvey-recorder-inventory.md §1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from lark import Token
from lark.lexer import Lexer

# A physical line: content, then its terminator (possibly none at end of file).
_LINE_RE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|)")

# --- line patterns (Fountain 1.1) -------------------------------------------------

#: Scene heading prefixes (§Scene Headings), case-insensitive, then `.` or space.
SCENE_HEADING_RE = re.compile(r"(?:INT\.?\s*/\s*EXT|EXT\.?\s*/\s*INT|I\.?/E|INT|EXT|EST)[.\s]", re.I)
#: Forced scene heading: one `.` then a letter or digit (`...` is not one; case B08).
FORCED_HEADING_RE = re.compile(r"\.[^\W_]")
#: Title page key (§Title Page): `Key:` at the start of the line.
TITLE_KEY_RE = re.compile(r"[A-Za-z][A-Za-z0-9 _.'-]{0,39}:")
PAGE_BREAK_RE = re.compile(r"\s*={3,}\s*$")
CENTERED_RE = re.compile(r"\s*>.*<\s*$")


@dataclass(frozen=True, slots=True)
class Problem:
    """A syntax problem the lexer found; the linter turns it into a diagnostic.

    ``kind`` is one of ``"unclosed-note"``, ``"unclosed-boneyard"``.
    ``line``/``column`` are 1-based; ``offset`` is a 0-based code-point offset.
    """

    kind: str
    message: str
    line: int
    column: int
    offset: int


def split_lines(text: str) -> list[tuple[str, str]]:
    """Split ``text`` into ``(content, terminator)`` pairs, losing nothing.

    ``"".join(c + t for c, t in split_lines(s)) == s`` for every string ``s``.
    Only ``\\n``, ``\\r\\n`` and ``\\r`` end lines (not U+2028 etc.).
    """
    if not text:
        return []
    if "\r" not in text:
        parts = text.split("\n")
        last = parts.pop()
        out = [(p, "\n") for p in parts]
        if last:
            out.append((last, ""))
        return out
    out = []
    for m in _LINE_RE.finditer(text):
        content, eol = m.group(1), m.group(2)
        if not content and not eol:
            break
        out.append((content, eol))
    return out


def _is_character_cue(content: str) -> bool:
    """True when ``content`` reads as a character cue (§Character).

    A cue is ``@`` plus anything (forced), or a name with no lower-case letter,
    starting with a letter, optionally followed by extensions in parentheses
    (which may be lower case, Fountain 1.1) and ``^`` for dual dialogue.
    """
    s = content.strip()
    if not s:
        return False
    if s[0] == "@":
        return len(s) > 1
    if s.endswith("^"):
        s = s[:-1].rstrip()
    paren = s.find("(")
    name = (s if paren < 0 else s[:paren]).rstrip()
    # Fountain 1.1: "at least one alphabetical character" (R2D2 works, 23 does not).
    if not name or name != name.upper() or not any(c.isalpha() for c in name):
        return False
    if "^" in name or name.endswith(":"):
        return False
    if paren >= 0 and not s.endswith(")"):
        return False
    return True


def _is_transition(content: str) -> bool:
    """Upper-case line ending in ``TO:`` (§Transition), or ``FADE IN:``."""
    s = content.strip()
    return s == s.upper() and (s.endswith("TO:") or s == "FADE IN:") and any(c.isalpha() for c in s)


class LineLexer(Lexer):
    """Lark custom lexer (interface 0): ``lex(text)`` yields line tokens.

    After ``lex`` has been consumed, ``problems`` lists the unclosed notes and
    boneyards found (each is also lexed as ordinary lines, so nothing is lost).
    """

    def __init__(self, lexer_conf=None):
        self.problems: list[Problem] = []

    # The parser calls this; we produce all tokens from the whole text.
    def lex(self, text: str) -> Iterator[Token]:  # type: ignore[override]
        self.problems = []
        return iter(tokenize(text, self.problems))


def tokenize(text: str, problems: list[Problem] | None = None) -> list[Token]:
    """Classify ``text`` into a list of line tokens (see module docstring).

    Never raises on any string. Unclosed ``[[`` and ``/*`` are appended to
    ``problems`` and their lines are lexed as ordinary text.
    """
    if problems is None:
        problems = []
    tokens: list[Token] = []
    append = tokens.append
    new_token = Token._future_new  # Token(...) without its argument shuffling
    pos = 0
    lineno = 1
    col0 = 1
    if text.startswith("\ufeff"):
        append(new_token("BOM", "\ufeff", 0, 1, 1, 1, 2, 1))
        pos = 1
        col0 = 2
    pairs = split_lines(text[pos:])
    lines = [c for c, _ in pairs]
    eols = [e for _, e in pairs]
    n = len(lines)
    i = 0

    def emit(ttype: str, start: int, stop: int) -> None:
        # Emit lines[start:stop] as one token.
        nonlocal pos, lineno, col0
        if stop - start == 1:
            c = lines[start]
            value = c + eols[start]
            end_line, end_col = lineno, col0 + len(c)
        else:
            value = "".join([lines[k] + eols[k] for k in range(start, stop)])
            end_line = lineno + stop - start - 1
            end_col = 1 + len(lines[stop - 1])
        end = pos + len(value)
        append(new_token(ttype, value, pos, lineno, col0, end_line, end_col, end))
        pos = end
        lineno += stop - start
        col0 = 1

    # --- title page (§Title Page): only at the very start of the file --------
    if n and TITLE_KEY_RE.match(lines[0]) and not _is_transition(lines[0]) \
            and not SCENE_HEADING_RE.match(lines[0]):
        while i < n:
            c = lines[i]
            if not c.strip():
                break
            if TITLE_KEY_RE.match(c):
                emit("TITLE_KEY", i, i + 1)
            elif c[0] in " \t" and tokens[-1].type in ("TITLE_KEY", "TITLE_CONT"):
                emit("TITLE_CONT", i, i + 1)
            else:
                break
            i += 1

    def ends_block(idx: int) -> bool:
        # Inside a paragraph, a whitespace-only line of 2+ spaces continues it (B21);
        # a line opening a boneyard ends it (the boneyard may sit anywhere, §Boneyard).
        if idx >= n:
            return True
        c = lines[idx]
        if not c:
            return True
        if c[0].isspace():
            st = c.strip()
            return not c.startswith("  ") if not st else st.startswith("/*")
        return c[0] == "/" and c.startswith("/*")

    last_close: int | None = None

    # --- body: one iteration per block start -------------------------------------
    while i < n:
        content = lines[i]
        s = content.strip()
        if not s:
            j = i + 1
            while j < n and not lines[j].strip():
                j += 1
            emit("BLANK", i, j)
            i = j
            continue
        first = s[0]

        # Boneyard /* ... */ (may span blank lines).
        if first == "/" and s.startswith("/*"):
            j = i
            k = content.find("/*") + 2
            if last_close is None:  # the last line holding "*/": past it, nothing closes
                last_close = max((x for x in range(n - 1, -1, -1) if "*/" in lines[x]), default=-1)
            while j <= last_close and "*/" not in lines[j][k:]:
                j += 1
                k = 0
            if j <= last_close:
                emit("BONEYARD", i, j + 1)
                i = j + 1
                continue
            problems.append(Problem("unclosed-boneyard", "boneyard '/*' is never closed with '*/'",
                                    lineno, col0 + content.find("/*"), pos + content.find("/*")))

        # Standalone note [[ ... ]], possibly over several lines, no blank line inside.
        elif first == "[" and s.startswith("[["):
            if s.endswith("]]") and len(s) >= 4:
                emit("NOTE", i, i + 1)
                i += 1
                continue
            j = i + 1
            while not ends_block(j) and not lines[j].rstrip().endswith("]]"):
                j += 1
            if not ends_block(j):
                emit("NOTE", i, j + 1)
                i = j + 1
                continue
            problems.append(Problem("unclosed-note", "note '[[' is not closed with ']]' before a blank line",
                                    lineno, col0 + content.find("[["), pos + content.find("[[")))

        if first == "=":
            emit("PAGE_BREAK" if PAGE_BREAK_RE.match(content) else "SYNOPSIS", i, i + 1)
            i += 1
            continue
        if first == "#":
            emit("SECTION", i, i + 1)
            i += 1
            continue
        if first == "~":
            i = _run(emit, lines, i, ends_block, "LYRIC", lambda t: t.lstrip()[:1] == "~")
            if not ends_block(i):
                i = _paragraph(emit, lines, i, ends_block, "ACTION")
            continue
        if first == "." and content[0] == "." and FORCED_HEADING_RE.match(content) or \
                first in "IEie" and SCENE_HEADING_RE.match(s):
            emit("SCENE_HEADING", i, i + 1)
            i += 1
            continue
        if first == ">":
            if CENTERED_RE.match(content):
                i = _run(emit, lines, i, ends_block, "CENTERED", CENTERED_RE.match)
            else:
                emit("TRANSITION", i, i + 1)
                i += 1
            continue
        if first == "!":
            i = _paragraph(emit, lines, i, ends_block, "ACTION")
            continue
        nxt_blank = i + 1 >= n or not lines[i + 1].strip()
        if nxt_blank and _is_transition(content):
            emit("TRANSITION", i, i + 1)
            i += 1
            continue
        if not nxt_blank and not ends_block(i + 1) and _is_character_cue(content):
            emit("CHARACTER", i, i + 1)
            i += 1
            run = i  # start of the current run of plain dialogue lines
            while not ends_block(i):
                t = lines[i].strip()
                if t[:1] in ("(", "~") and (t[0] == "~" or t.endswith(")")):
                    if run < i:
                        emit("DIALOGUE", run, i)
                    emit("PARENTHETICAL" if t[0] == "(" else "DIALOGUE_LYRIC", i, i + 1)
                    run = i + 1
                i += 1
            if run < i:
                emit("DIALOGUE", run, i)
            continue
        i = _paragraph(emit, lines, i, ends_block, "ACTION")
    return tokens


def _run(emit, lines, i: int, ends_block, ttype: str, member) -> int:
    """Emit the consecutive lines from ``i`` that satisfy ``member`` as one token."""
    j = i + 1
    while not ends_block(j) and member(lines[j]):
        j += 1
    emit(ttype, i, j)
    return j


def _paragraph(emit, lines, i: int, ends_block, ttype: str) -> int:
    """Emit lines from ``i`` to the end of the paragraph as one ``ttype`` token; return next index.

    A ``~`` line (a lyric, always forced, §Lyrics) ends the paragraph too.
    """
    j = i + 1
    while not ends_block(j) and lines[j].lstrip()[:1] != "~":
        j += 1
    emit(ttype, i, j)
    return j

"""The lossless Fountain AST and the Lark parser that builds it.

``parse(text)`` runs the LALR parser from ``grammar/fountain.lark`` over the
tokens of :mod:`fountain_audit.parse.lexer` (one element at a time, memoised by
shape; see :func:`parse`) and builds nodes with :class:`AstBuilder`. Each AST node
keeps only its offsets, its token types (and token start offsets when it has several)
and the document's shared :class:`Lines` (where each line starts, 4 bytes a line): its
text is a slice taken when asked for, its lines and columns are found by bisection, and
``Document.render()`` returns the input exactly.

Positions: ``line``/``column`` and ``end_line``/``end_column`` are 1-based and
count code points; the end is exclusive (the column after the last character,
line terminator excluded), as in SARIF regions. ``offset``/``end_offset`` are
0-based code-point offsets into the text (terminator included in the end).
"""

from __future__ import annotations

import functools
import gc
import os
from array import array
from bisect import bisect_right
from operator import itemgetter
from sys import intern
from dataclasses import field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from lark import Lark

from fountain_audit.records import record
from fountain_audit.lazyre import lazy
from fountain_audit.memos import content_table, remember
from fountain_audit.parse.lexer import Problem, lex, lex_nodes, split_lines, strip_inline_notes


_SCENE_NUMBER_RE = lazy(r"\s*#([^#\s]+)#\s*$")


def _content(tok: str) -> str:
    """A token's text without its last line terminator (CR, LF or CRLF)."""
    if tok[-1:] == "\n":
        return tok[:-2] if tok[-2:-1] == "\r" else tok[:-1]
    return tok[:-1] if tok[-1:] == "\r" else tok


class LineToken(str):
    """One token of a node as a ``str`` (its raw text, line terminators included) with the
    position attributes of a ``lark.Token``: ``type`` (``ACTION``, ``CHARACTER``, ...),
    ``start_pos``/``end_pos`` (0-based code-point offsets, end exclusive), ``line``/``column``
    and ``end_line``/``end_column`` (1-based; the end is exclusive, terminator excluded).
    Made on demand by :attr:`Node.tokens`; the AST itself keeps token tuples."""

    __slots__ = ("type", "start_pos", "end_pos", "line", "column", "end_line", "end_column")

    @classmethod
    def of(cls, src: str, part: tuple) -> "LineToken":
        """The token for ``part`` (a lexer tuple, see :mod:`fountain_audit.parse.lexer`)."""
        tok = str.__new__(cls, src[part[1]:part[2]])
        tok.type, tok.start_pos, tok.end_pos, tok.line, tok.column, tok.end_line, tok.end_column = part
        return tok

    @property
    def value(self) -> str:
        """The token's text as a plain ``str`` (``lark.Token.value``'s name)."""
        return str(self)


class Lines:
    """Where the lines of one text start, to turn code-point offsets into 1-based lines and
    columns in O(log n) (shared by every node of a :class:`Document`; 4 or 8 bytes a line).

    ``text`` is the document text; ``starts[k]`` is the 0-based offset where line ``k + 1``
    starts (``starts[0]`` is 0: a byte-order mark is in line 1, column 1). Only CR, LF and
    CRLF end lines.
    """

    __slots__ = ("text", "starts")

    def __init__(self, text: str, starts: list[int]):
        self.text = text
        self.starts = array("I" if len(text) < 1 << 32 else "q", starts)

    def line(self, offset: int) -> int:
        """1-based line of code point ``offset``."""
        return bisect_right(self.starts, offset)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based ``(line, column)`` of code point ``offset`` (columns count code points)."""
        k = bisect_right(self.starts, offset)
        return k, offset - self.starts[k - 1] + 1

    def end_position(self, start: int, end: int) -> tuple[int, int]:
        """1-based ``(line, column)`` just past the last character of ``text[start:end]``
        on its last line, its line terminator excluded (exclusive, as in SARIF regions)."""
        text = self.text
        if end > start:
            c = text[end - 1]
            if c == "\n":
                end -= 2 if end - 2 >= start and text[end - 2] == "\r" else 1
            elif c == "\r":
                end -= 1
        return self.position(end)


class Node:
    """An element of the Fountain AST: a span of the document's text made of tokens.

    A node keeps only its offsets (``offset``, ``end_offset``: 0-based code points, the
    end exclusive and past the last line terminator), its token types and the offsets
    where its tokens start (for a node of several tokens), and the document's shared
    :class:`Lines`. Its text (``render()``), its tokens (:attr:`tokens`, :attr:`parts`)
    and its lines and columns are computed from these when asked for.
    ``inline_notes`` are the :class:`InlineNote` nodes inside the node's text
    (``MAYA [[she whispers]]``), in order; their text stays in the node's span too.
    """

    # _lines: the document's Lines; _p: None (one token, of type _PART), a str (one token of
    # that type) or (type0, start1, type1, start2, type2, ...) for several tokens, each start
    # relative to the node's offset (small: such tuples are shared between nodes, see _node).
    __slots__ = ("_lines", "offset", "end_offset", "_p")

    #: Fountain element name used in dumps (``scene_heading``, ``action``...).
    type = "node"
    #: The type of a node's only token, unless the node says otherwise.
    _PART = "ACTION"

    #: (Only scene headings, action, dialogue and transitions can carry inline notes.)
    inline_notes: tuple = ()

    def __init__(self, lines: Lines, start: int, end: int, p=None):
        self._lines = lines
        self.offset = start
        self.end_offset = end
        self._p = p

    @property
    def src(self) -> str:
        """The whole document text (shared, not copied)."""
        return self._lines.text

    def render(self) -> str:
        """The exact source text of this node (``str``)."""
        return self._lines.text[self.offset:self.end_offset]

    def spans(self) -> list[tuple[str, int, int]]:
        """``(type, start, end)`` of each of the node's tokens, in order (0-based offsets)."""
        p = self._p
        if p is None:
            return [(self._PART, self.offset, self.end_offset)]
        if type(p) is str:
            return [(p, self.offset, self.end_offset)]
        out = []
        ty, a = p[0], self.offset
        at = a
        for k in range(1, len(p), 2):
            b = at + p[k]
            out.append((ty, a, b))
            ty, a = p[k + 1], b
        out.append((ty, a, self.end_offset))
        return out

    @property
    def part_count(self) -> int:
        """The number of the node's tokens."""
        p = self._p
        return 1 if p is None or type(p) is str else (len(p) >> 1) + 1

    def _index(self, i: int) -> int:
        """Token index ``i`` (negative from the end) as 0-based; ``IndexError`` when out of range."""
        n = self.part_count
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return i

    def part_type(self, i: int) -> str:
        """The type of token ``i`` (``CHARACTER``, ``DIALOGUE``, ...)."""
        p = self._p
        if p is None or type(p) is str:
            if i != 0 and i != -1:
                raise IndexError(i)
            return self._PART if p is None else p
        return p[2 * self._index(i)]

    def part_span(self, i: int) -> tuple[int, int]:
        """``(start, end)``: 0-based offsets of token ``i`` (the end past its terminator)."""
        p = self._p
        if p is None or type(p) is str:
            if i != 0 and i != -1:
                raise IndexError(i)
            return self.offset, self.end_offset
        last = len(p) >> 1
        if i < 0:
            i += last + 1
        if not 0 <= i <= last:
            raise IndexError(i)
        at = self.offset
        return (at if i == 0 else at + p[2 * i - 1], self.end_offset if i == last else at + p[2 * i + 1])

    @property
    def parts(self) -> list[tuple]:
        """The node's tokens as tuples ``(type, start, end, line, column, end_line, end_column)``
        (offsets 0-based; lines, columns 1-based, the end exclusive and its terminator
        excluded), computed on each access."""
        lines = self._lines
        return [(ty, a, b, *lines.position(a), *lines.end_position(a, b)) for ty, a, b in self.spans()]

    @property
    def tokens(self) -> list[LineToken]:
        """The node's tokens as :class:`LineToken` strings (made on each access)."""
        src = self._lines.text
        return [LineToken.of(src, p) for p in self.parts]

    def part_text(self, i: int) -> str:
        """The raw text of token ``i`` (terminators included)."""
        p = self._p
        if (i == 0 or i == -1) and (p is None or type(p) is str):
            return self._lines.text[self.offset:self.end_offset]
        a, b = self.part_span(i)
        return self._lines.text[a:b]

    @property
    def line(self) -> int:
        """1-based line of the node's first character."""
        return bisect_right(self._lines.starts, self.offset)

    @property
    def column(self) -> int:
        """1-based column (code points) of the node's first character."""
        return self._lines.position(self.offset)[1]

    @property
    def end_line(self) -> int:
        """1-based line of the node's last line."""
        return self._lines.end_position(self.offset, self.end_offset)[0]

    @property
    def end_column(self) -> int:
        """Exclusive 1-based end column on ``end_line`` (terminator excluded)."""
        return self._lines.end_position(self.offset, self.end_offset)[1]

    @property
    def ends_line(self) -> bool:
        """True when the node's text ends with a line terminator (not at a file end cut short)."""
        return self._lines.text[self.end_offset - 1:self.end_offset] in ("\n", "\r")

    @property
    def lines(self) -> list[str]:
        """The node's physical lines, without terminators (only CR, LF, CRLF end lines)."""
        raw = self.render()
        c = _content(raw)
        if "\n" not in c and "\r" not in c:  # the common case: one line
            return [c]
        return [c for c, _ in split_lines(raw)]

    @property
    def text(self) -> str:
        """The node's lines joined with ``\\n`` (terminators normalised)."""
        raw = self._lines.text[self.offset:self.end_offset]
        c = _content(raw)
        if "\n" not in c and "\r" not in c:  # the common case: one line, itself the text
            return c
        return "\n".join([c for c, _ in split_lines(raw)])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.line}:{self.column}, {self.text[:40]!r})"


class ByteOrderMark(Node):
    """The U+FEFF at the very start of a file (kept so the text prints back identically)."""

    __slots__ = ()
    type = "byte_order_mark"
    _PART = "BOM"


class TitleEntry(Node):
    """``Key: value`` with optional indented continuation lines (§Title Page)."""

    __slots__ = ()
    type = "title_entry"
    _PART = "TITLE_KEY"

    @property
    def key(self) -> str:
        return _content(self.part_text(0)).split(":", 1)[0].strip()

    @property
    def value(self) -> str:
        """The value; continuation lines are joined with ``\\n``, indentation removed."""
        first = _content(self.part_text(0)).split(":", 1)[1].strip()
        rest = [_content(self.part_text(i)).strip() for i in range(1, self.part_count)]
        return "\n".join([first] + rest if first else rest)


class TitlePage(Node):
    """The title page (§Title Page): ``Key: value`` entries up to the first blank line
    (``entries``); its tokens are theirs."""

    __slots__ = ("entries",)
    type = "title_page"

    def __init__(self, lines: Lines, entries: list[TitleEntry]):
        super().__init__(lines, entries[0].offset, entries[-1].end_offset)
        self.entries = entries

    def spans(self) -> list[tuple[str, int, int]]:
        return [s for e in self.entries for s in e.spans()]

    @property
    def part_count(self) -> int:
        return sum(e.part_count for e in self.entries)

    def part_type(self, i: int) -> str:
        return self.spans()[self._index(i)][0]

    def part_span(self, i: int) -> tuple[int, int]:
        return self.spans()[self._index(i)][1:]

    def part_text(self, i: int) -> str:
        a, b = self.part_span(i)
        return self._lines.text[a:b]

    def get(self, key: str) -> TitleEntry | None:
        """The first entry whose key equals ``key`` (case-insensitive), or ``None``."""
        k = key.lower()
        for e in self.entries:
            if e.key.lower() == k:
                return e
        return None


class Blank(Node):
    """One or more empty (whitespace-only) lines."""

    __slots__ = ()
    type = "blank"
    _PART = "BLANK"

    @property
    def count(self) -> int:
        return self.end_line - self.line + 1


class _WithInline(Node):
    """A node that may carry inline notes (grammar ``_inline``): ``inline_notes`` is kept."""

    __slots__ = ("inline_notes",)

    def __init__(self, lines: Lines, start: int, end: int, p=None, inline_notes: tuple = ()):
        self._lines = lines  # (Node.__init__, inlined: hundreds of thousands are made)
        self.offset = start
        self.end_offset = end
        self._p = p
        self.inline_notes = inline_notes


class SceneHeading(_WithInline):
    """A scene heading line (§Scene Headings): INT/EXT/EST/INT./EXT./I/E or forced ``.``.

    A *glued* heading starts inside a line, after the text of a dialogue or action
    line whose line break was dropped (``…done.INT. HARVEY AND ALICE TALKING 2026-…``);
    its ``column`` is where it starts.
    """

    __slots__ = ()
    type = "scene_heading"
    _PART = "SCENE_HEADING"

    @property
    def glued(self) -> bool:
        """True for a heading glued to the end of the previous element's line."""
        return self._p == "GLUED_SCENE_HEADING"

    @property
    def forced(self) -> bool:
        """True for a heading forced with a leading ``.``."""
        return self.part_text(0).lstrip().startswith(".")

    @property
    def scene_number(self) -> str | None:
        """The scene number of ``INT. HOUSE - DAY #1A#``, i.e. ``"1A"``, or ``None``."""
        m = _SCENE_NUMBER_RE.search(_content(self.part_text(0)))
        return m.group(1) if m else None

    @property
    def heading(self) -> str:
        """The heading text without a forcing ``.`` or a scene number."""
        s = _content(self.part_text(0)).strip()
        m = _SCENE_NUMBER_RE.search(s)
        if m:
            s = s[:m.start()].rstrip()
        return s[1:] if s.startswith(".") else s


class Action(_WithInline):
    """An action paragraph (§Action); one token holds all its lines."""

    __slots__ = ()
    type = "action"


class Dialogue(_WithInline):
    """A character cue and what follows it until a blank line (§Dialogue).

    ``body`` holds the parenthetical, dialogue and lyric line tokens after the cue.
    """

    __slots__ = ("_character",)
    type = "dialogue"
    _PART = "CHARACTER"

    def __init__(self, lines: Lines, start: int, end: int, p=None, inline_notes: tuple = ()):
        self._lines = lines  # (_WithInline.__init__, inlined)
        self.offset = start
        self.end_offset = end
        self._p = p
        self.inline_notes = inline_notes
        self._character = None

    @property
    def cue(self) -> str:
        """The cue line's raw text (terminator included): a :class:`LineToken`."""
        lines = self._lines
        a, b = self.part_span(0)
        return LineToken.of(lines.text, (self.part_type(0), a, b, *lines.position(a), *lines.end_position(a, b)))

    @property
    def character(self) -> str:
        """The character name: no ``@``, extensions or ``^`` (e.g. ``"HARVEY"``)."""
        if self._character is None:
            if self.inline_notes:
                self._character = intern(self._read_character(self._cue_text()))
            else:  # the cue line sliced from the text (its terminator is whitespace: the reading strips it)
                p = self._p
                end = self.end_offset if p is None or type(p) is str else self.offset + p[1]
                cue = self._lines.text[self.offset:end]
                name = _CHARACTERS.get(cue)  # (a session has a few cues, each read once and its name held once)
                if name is None:
                    name = remember(_CHARACTERS, cue, intern(self._read_character(cue))) if len(cue) <= 200 else \
                        intern(self._read_character(cue))
                self._character = name
        return self._character

    def _cue_text(self) -> str:
        """The cue line without its terminator and without inline notes."""
        s = _content(self.part_text(0))
        return strip_inline_notes(s) if self.inline_notes and "[[" in s else s

    @staticmethod
    def _read_character(cue: str) -> str:
        """The character name in a cue line's text (see :attr:`character`)."""
        s = cue.strip()
        if s.startswith("@"):
            s = s[1:]
        if s.endswith("^"):
            s = s[:-1]
        p = s.find("(")
        return (s if p < 0 else s[:p]).strip()

    @property
    def extensions(self) -> str:
        """The cue's extension text, e.g. ``"(V.O.)"``, or ``""``."""
        s = self._cue_text().strip().rstrip("^").rstrip()
        p = s.find("(")
        return "" if p < 0 else s[p:]

    @property
    def dual(self) -> bool:
        return self._cue_text().rstrip().endswith("^")

    @property
    def forced(self) -> bool:
        return self._cue_text().lstrip().startswith("@")

    @property
    def body(self) -> list[LineToken]:
        """The parenthetical, dialogue and lyric tokens after the cue."""
        return self.tokens[1:]

    @property
    def parentheticals(self) -> list[str]:
        src = self._lines.text
        return [_content(src[a:b]).strip() for t, a, b in self.spans()[1:] if t == "PARENTHETICAL"]

    @property
    def speech(self) -> str:
        """Dialogue lines (not parentheticals) joined with ``\\n``, exactly as written."""
        src = self._lines.text
        return "\n".join(_content(src[a:b]) for t, a, b in self.spans()[1:] if t != "PARENTHETICAL")


#: A cue line's text (terminator included) -> its character name (see :attr:`Dialogue.character`).
_CHARACTERS: dict[str, str] = content_table()


class Transition(_WithInline):
    """A transition (§Transition): upper case ending in ``TO:`` (or ``FADE IN:``), or forced ``>``."""

    __slots__ = ()
    type = "transition"
    _PART = "TRANSITION"


class Centered(Node):
    """Centered text (§Centered): ``> text <`` lines."""

    __slots__ = ()
    type = "centered"
    _PART = "CENTERED"


class Lyrics(Node):
    """Lyric lines (§Lyrics), each starting with ``~``."""

    __slots__ = ()
    type = "lyrics"
    _PART = "LYRIC"


class Note(Node):
    """A standalone ``[[ ... ]]`` note, possibly over several lines (§Notes)."""

    __slots__ = ()
    type = "note"
    _PART = "NOTE"

    @property
    def body(self) -> str:
        """Text between the first ``[[`` and the last ``]]``, stripped."""
        raw = self._lines.text[self.offset:self.end_offset]
        return raw[raw.find("[[") + 2: raw.rfind("]]")].strip()


class InlineNote(Note):
    """A ``[[ ... ]]`` note inside a line or paragraph of another element (§Notes):
    ``MAYA [[she whispers]]``, ``The bus stops. [[can a bus do that?]] It leaves.``.
    One ``INLINE_NOTE`` token, at its exact line and column; found in
    :attr:`Node.inline_notes` of the element that carries it, never among
    :attr:`Document.children`."""

    __slots__ = ()
    type = "inline_note"
    _PART = "INLINE_NOTE"


class Boneyard(Node):
    """``/* ... */`` text, hidden from renderers (§Boneyard)."""

    __slots__ = ()
    type = "boneyard"
    _PART = "BONEYARD"


class Section(Node):
    """A section line (§Sections): ``#``, ``##`` ... (``depth`` is the number of ``#``)."""

    __slots__ = ()
    type = "section"
    _PART = "SECTION"

    @property
    def depth(self) -> int:
        s = _content(self.part_text(0)).lstrip()
        return len(s) - len(s.lstrip("#"))


class Synopsis(Node):
    """A synopsis line (§Synopses): ``= text``."""

    __slots__ = ()
    type = "synopsis"
    _PART = "SYNOPSIS"


class PageBreak(Node):
    """A page break (§Page Breaks): a line of three or more ``=``."""

    __slots__ = ()
    type = "page_break"
    _PART = "PAGE_BREAK"


@record(eq=False, slots=True)
class Document:
    """A parsed Fountain file.

    ``children`` are top-level nodes in source order (a :class:`ByteOrderMark`,
    a :class:`TitlePage`, then body elements and :class:`Blank` runs); their
    concatenated text is ``text``. ``problems`` lists syntax problems (unclosed
    notes and boneyards) found while lexing.
    """

    text: str
    children: list[Node]
    problems: list[Problem]
    _body: list[Node] | None = field(default=None, repr=False)
    #: The text's line starts (:class:`Lines`), shared by the nodes; ``None`` for an empty text.
    line_index: Lines | None = field(default=None, repr=False)
    #: Whether a node carries an inline note, when known (see :meth:`has_inline_notes`).
    _inline: bool | None = field(default=None, repr=False)

    def __init__(self, text: str, children: list[Node], problems: list[Problem], _body: list[Node] | None = None,
                 line_index: Lines | None = None, _inline: bool | None = None) -> None:
        # (written out, not generated: see fountain_audit.records)
        self.text = text
        self.children = children
        self.problems = problems
        self._body = _body
        self.line_index = line_index
        self._inline = _inline

    def has_inline_notes(self) -> bool:
        """Whether any node carries an inline note (``MAYA [[she whispers]]``): known from
        :func:`parse` (the grammar builds such elements), else looked for once, over the children."""
        if self._inline is None:
            self._inline = any(c.inline_notes for c in self.children)
        return self._inline

    def render(self) -> str:
        """The identical source text, rebuilt from the nodes."""
        return "".join(c.render() for c in self.children)

    @property
    def title_page(self) -> TitlePage | None:
        """The title page: first in the file, or after a byte-order mark and leading notes,
        boneyards and blank lines; ``None`` if there is none."""
        for c in self.children:
            if isinstance(c, TitlePage):
                return c
            if not isinstance(c, (ByteOrderMark, Note, Boneyard, Blank)):
                return None
        return None

    def inline_notes(self) -> list[InlineNote]:
        """Every inline note of the document, in source order."""
        return [n for c in self.children for n in c.inline_notes]

    @property
    def body(self) -> list[Node]:
        """Children after the byte-order mark and title page (computed once; do not modify)."""
        if self._body is None:
            children = self.children
            k = 0  # a byte-order mark and the title page are in the head: leading notes, boneyards, blanks
            for k, c in enumerate(children):
                if isinstance(c, TitlePage) or not isinstance(c, (ByteOrderMark, Note, Boneyard, Blank)):
                    break
            else:
                k = len(children)
            self._body = [c for c in children[:k + 1] if not isinstance(c, (ByteOrderMark, TitlePage))] + \
                children[k + 1:]
        return self._body


class AstBuilder:
    """Turns grammar rules into AST nodes; one method per rule of fountain.lark, each taking
    the document's :class:`Lines` and the rule's token tuples ``(type, start, end)`` in order
    (:func:`parse` calls them)."""

    def title_page(self, lines, entries):
        return TitlePage(lines, entries)

    def title_entry(self, lines, parts):
        return _node(TitleEntry, lines, parts)

    def scene_heading(self, lines, parts):
        return _with_inline(SceneHeading, lines, parts)

    def action(self, lines, parts):
        return _with_inline(Action, lines, parts)

    def dialogue(self, lines, parts):
        return _with_inline(Dialogue, lines, parts)

    def transition(self, lines, parts):
        return _with_inline(Transition, lines, parts)

    def centered(self, lines, parts):
        return _node(Centered, lines, parts)

    def lyrics(self, lines, parts):
        return _node(Lyrics, lines, parts)

    def note(self, lines, parts):
        return _node(Note, lines, parts)

    def boneyard(self, lines, parts):
        return _node(Boneyard, lines, parts)

    def section(self, lines, parts):
        return _node(Section, lines, parts)

    def synopsis(self, lines, parts):
        return _node(Synopsis, lines, parts)

    def page_break(self, lines, parts):
        return _node(PageBreak, lines, parts)


def _node(cls, lines: Lines, parts: list[tuple], inline_notes: tuple = ()) -> Node:
    """A ``cls`` node spanning ``parts`` (adjacent token tuples, in order); only the types
    and start offsets of its tokens are kept (see :class:`Node`)."""
    if len(parts) == 1:
        ty, a, b = parts[0]
        p = None if ty == cls._PART else ty
    else:
        a, b = parts[0][1], parts[-1][2]
        p = _layout(parts)
    return cls(lines, a, b, p, inline_notes) if inline_notes else cls(lines, a, b, p)


def _layout(parts: list[tuple]) -> tuple:
    """The ``_p`` of a node of several tokens (see :class:`Node`): ``(type0, start1, type1, ...)``,
    each start relative to the first token's, held once in ``_SHAPES``."""
    a = parts[0][1]
    p = [parts[0][0]]
    for t in parts[1:]:
        p.append(t[1] - a)
        p.append(t[0])
    p = tuple(p)
    return _SHAPES.get(p) or _shape(p)


_SHAPES: dict[tuple, tuple] = {}  # token layouts of multi-token nodes, each kept once (immutable)


def _shape(p: tuple) -> tuple:
    """``p``, a token layout (see :class:`Node`) not in ``_SHAPES``, recorded there: a session
    repeats a few shapes (``HARVEY`` + one dialogue run of 1 line ...), each then held once."""
    if len(_SHAPES) >= 4096:
        _SHAPES.clear()
    _SHAPES[p] = p
    return p


_PIECES = frozenset({"INLINE_NOTE", "INLINE_TEXT"})
_TYPE_OF = itemgetter(0)  # a token tuple's type


def _with_inline(cls, lines: Lines, parts: list[tuple]) -> Node:
    """A ``cls`` node from its tokens; the pieces of a line split at inline notes
    (grammar ``_inline``) are joined back into whole-line tokens, the notes kept as
    :class:`InlineNote` nodes."""
    if len(parts) == 1 or not any(p[0] in _PIECES for p in parts):
        return _node(cls, lines, parts)
    merged: list[tuple] = []
    notes: list[InlineNote] = []
    group: list[tuple] = []
    for p in parts:
        if p[0] in _PIECES:
            if p[0] == "INLINE_NOTE":
                notes.append(InlineNote(lines, p[1], p[2]))
            group.append(p)
            continue
        if group:
            merged.append((group[0][0], group[0][1], group[-1][2]))
        group = [p]
    merged.append((group[0][0], group[0][1], group[-1][2]))
    return _node(cls, lines, merged, tuple(notes))


class gc_paused:  # noqa: N801 - used as a function: ``with gc_paused():``
    """Pause the cyclic garbage collector while building many small objects:
    ``with gc_paused(): ...``.

    Parsing allocates hundreds of thousands of nodes and tokens and no garbage
    cycles; generational collections triggered by those allocations cost a third
    of the run time. Re-entrant: only the outermost use re-enables the collector.
    (A class rather than :func:`contextlib.contextmanager`: importing :mod:`contextlib`
    was half a millisecond of a lint's start-up, issue 9.)
    """

    __slots__ = ("_resume",)

    def __enter__(self) -> None:
        self._resume = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info) -> None:
        if self._resume:
            gc.enable()


def grammar_path(name: str) -> Path:
    """Path of a grammar file shipped in ``grammar/`` (installed as ``fountain_audit.grammar``).

    Looks beside the package first (an installed package, a source checkout), then asks
    ``importlib.resources`` (imported only then: it costs start-up time on every command).
    Raises ``FileNotFoundError`` if no location holds it.
    """
    from pathlib import Path
    return Path(_grammar_file(name))


def _grammar_file(name: str) -> str:
    """:func:`grammar_path` as a ``str``, without importing :mod:`pathlib`."""
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    for p in (os.path.join(here, "grammar", name), os.path.join(os.path.dirname(here), "grammar", name)):
        if os.path.isfile(p):
            return p
    try:
        from importlib import resources
        p = str(resources.files("fountain_audit.grammar").joinpath(name))
        if os.path.isfile(p):
            return p
    except (ModuleNotFoundError, TypeError):
        pass
    raise FileNotFoundError(f"grammar file {name!r} not found")


class GrammarRejected(ValueError):
    """The grammar rejects a token sequence (the lexer only emits sequences it accepts)."""


@functools.cache
def _parser() -> Lark:
    """The LALR parser of ``grammar/fountain.lark`` (see
    :func:`fountain_audit.parse.lark_parsers.fountain_parser`); imports Lark."""
    from fountain_audit.parse.lark_parsers import fountain_parser
    return fountain_parser()


@functools.cache
def _memo():
    """What the grammar decided in earlier processes (:class:`~fountain_audit.parse.memo.GrammarMemo`):
    table ``element`` maps a body element's token types (joined by spaces) to its grammar rule,
    table ``head`` a head's token types to :func:`~fountain_audit.parse.lark_parsers.head_structure`."""
    from fountain_audit.parse.memo import GrammarMemo
    return GrammarMemo("fountain", read_grammar("fountain.lark"))


def read_grammar(name: str) -> str | None:
    """The text of grammar file ``name`` (see :func:`grammar_path`), or ``None`` if it cannot
    be found or read."""
    try:
        with open(_grammar_file(name), encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


#: Token types that only occur before the body: a byte-order mark, notes and boneyards before a
#: title page, the title page's lines (grammar ``start``, before ``_element*``).
_HEAD = frozenset({"BOM", "LEADING_NOTE", "LEADING_BONEYARD", "TITLE_KEY", "TITLE_CONT"})
#: Token types that continue the element a previous token started (grammar ``dialogue`` and
#: ``_inline``); every other body token starts an element.
_CONTINUES = frozenset({"PARENTHETICAL", "DIALOGUE", "DIALOGUE_LYRIC", "INLINE_NOTE", "INLINE_TEXT"})
#: Longest element (in tokens) whose parse is memoised by :func:`_element_builder`.
_MEMO_MAX = 64
_BUILDER = AstBuilder()
_ELEMENT_RULES: dict = {}  # token-type sequence (a str for one token) -> AstBuilder method
#: The node class of each AstBuilder rule whose one-token form is ``cls(lines, start, end, _p)``
#: (``_node`` / ``_with_inline`` of a single token).
_RULE_CLASS = {"scene_heading": SceneHeading, "action": Action, "dialogue": Dialogue, "transition": Transition,
               "centered": Centered, "lyrics": Lyrics, "note": Note, "boneyard": Boneyard, "section": Section,
               "synopsis": Synopsis, "page_break": PageBreak}
#: Token type of a one-token element -> ``(node class, its _p, inline)``: what the grammar makes of the
#: token alone (its AstBuilder rule's node). The node is made without a call of its ``__init__``
#: when that is :class:`Node`'s (``inline`` False) or :class:`_WithInline`'s (``inline`` True, the
#: node's ``inline_notes`` set to ``()``); ``inline`` is ``None`` for any other class (it is called).
_SINGLES: dict = {}
#: Token-type sequence of a multi-token element without inline notes -> its node class, made
#: as ``cls(lines, start, end, layout)`` (what its AstBuilder rule's ``_node`` / ``_with_inline`` makes).
_PLAIN_ELEMENTS: dict = {}


def _element_builder(key, parts: list[tuple]):
    """The :class:`AstBuilder` method for the element made of ``parts``: the grammar rule the
    LALR parser reaches from the ``element`` start symbol over their token types, as recorded
    in :func:`_memo` (else asked of the parser, then recorded). The result depends only on the
    sequence of token types (``key``), so it is also memoised in-process for sequences up to
    ``_MEMO_MAX`` tokens: a session repeats a few dozen element shapes thousands of times.
    Raises :class:`GrammarRejected` when the grammar rejects the sequence."""
    memo = _memo()
    text_key = key if isinstance(key, str) else " ".join(key)
    rule = memo.get("element", text_key)
    if rule not in _RULE_CLASS:  # not recorded (or not a rule name: a damaged memo is not trusted)
        from fountain_audit.parse.lark_parsers import element_rule
        rule = element_rule(parts)
        memo.put("element", text_key, rule)
    build = getattr(_BUILDER, rule)
    if len(parts) <= _MEMO_MAX:
        _ELEMENT_RULES[key] = build
    return build


def parse(text: str) -> Document:
    """Parse Fountain ``text`` into a lossless :class:`Document`.

    Never raises on any ``str``: ``parse(t).render() == t`` always holds.
    Unclosed notes and boneyards are recorded in ``Document.problems``.

    The lexer (:func:`~fountain_audit.parse.lexer.tokenize`) yields one token per element,
    dialogue line run or blank run. The grammar's ``start`` rule is a head (byte-order mark,
    leading notes and boneyards, title page) followed by ``_element*``, and no body token
    can both end one element and start the next: the head is parsed from ``start`` and each
    body element from ``element``, with the rule for each element shape memoised
    (:func:`_element_builder`). Blank runs are not grammar symbols; they become
    :class:`Blank` nodes in place.
    """
    problems: list[Problem] = []
    if not text:
        return Document(text, [], problems, _inline=False)
    with gc_paused():
        try:
            if "*" in text and "*/" in text:  # (a stray "*/" is looked for over all the tokens: lexed first)
                tokens, starts = lex(text, problems)
                lines = Lines(text, starts)
                del starts
                children, inline = _build(lines, tokens)
            else:  # the body's nodes made as the lexer finds its elements
                lines = Lines(text, [])
                body = _BodyNodes(lines)
                tokens, starts = lex_nodes(text, problems, body)
                lines.starts.extend(starts)
                del starts
                children, inline = _build(lines, tokens)  # (the head, and what came before the body's nodes)
                children += body.out
                inline = inline or body.inline
        except GrammarRejected:  # pragma: no cover - the lexer only emits sequences the grammar accepts
            problems.clear()
            tokens, starts = lex(text, problems)
            lines = Lines(text, starts)
            children = [Blank(lines, t[1], t[2]) if t[0] == "BLANK" else Action(lines, t[1], t[2]) for t in tokens]
            inline = False
        _memo().save()  # (writes only when a shape was learned)
    return Document(text, children, problems, line_index=lines, _inline=inline)


def _head(lines: Lines, parts: list[tuple]) -> list[Node]:
    """The nodes of the head (no blank runs among ``parts``), parsed from ``start`` (the
    structure recorded in :func:`_memo`, else asked of the parser, then recorded)."""
    memo = _memo()
    key = " ".join([p[0] for p in parts])
    structure = memo.get("head", key)
    if not _is_head_structure(structure, len(parts)):  # not recorded, or damaged: not trusted
        from fountain_audit.parse.lark_parsers import head_structure
        structure = head_structure(parts)
        memo.put("head", key, structure)
    out: list[Node] = []
    for kind, at in structure:
        if kind == "BOM":
            out.append(_node(ByteOrderMark, lines, [parts[at]]))
        elif kind == "title_page":
            entries = [_BUILDER.title_entry(lines, [parts[i] for i in entry]) for entry in at]
            out.append(_BUILDER.title_page(lines, entries))
        else:
            out.append(getattr(_BUILDER, kind)(lines, [parts[i] for i in at]))
    return out


def _is_head_structure(value, n: int) -> bool:
    """Whether ``value`` is a head structure (see :func:`_head`) that uses the indices
    ``0 .. n - 1`` once each, in order: the shape a memo entry must have to be used."""
    if not isinstance(value, list):
        return False
    seen: list = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2):
            return False
        kind, at = item
        if kind == "BOM":
            seen.append(at)
        elif kind in ("note", "boneyard") and isinstance(at, list):
            seen.extend(at)
        elif kind == "title_page" and isinstance(at, list) and at and all(isinstance(e, list) and e for e in at):
            for entry in at:
                seen.extend(entry)
        else:
            return False
    return seen == list(range(n))


def _build(lines: Lines, tokens: list[tuple]) -> tuple[list[Node], bool]:
    """``(nodes, inline)``: AST nodes for the lexer's ``tokens`` of ``lines.text`` (see
    :func:`parse`), and whether one carries an inline note (an ``INLINE_NOTE`` token, always after
    its element's first token: never a head token, never a one-token element). The body's
    tokens are consumed: each entry of ``tokens`` is set to ``None`` once its node is made."""
    head_end = 0  # one past the last head token
    for k, t in enumerate(tokens):
        if t[0] in _HEAD:
            head_end = k + 1
        elif t[0] != "BLANK":
            break
    out: list[Node] = []
    if head_end:
        head = tokens[:head_end]
        out = _with_blanks(_head(lines, [t for t in head if t[0] != "BLANK"]),
                           [Blank(lines, t[1], t[2]) for t in head if t[0] == "BLANK"])
    return out, _body(lines, tokens, head_end, out)


def _body(lines: Lines, tokens: list[tuple], j: int, out: list[Node]) -> bool:
    """Append to ``out`` the nodes of the body elements and blank runs made of ``tokens[j:]``
    (each element a token and the tokens that continue it, see :data:`_CONTINUES`), consuming
    them (each entry set to ``None`` once its node is made); whether one carries an inline note."""
    n = len(tokens)
    append = out.append
    inline = False
    rules = _ELEMENT_RULES
    plains = _PLAIN_ELEMENTS
    singles = _SINGLES
    continues = _CONTINUES
    new = object.__new__
    while j < n:
        t = tokens[j]
        tokens[j] = None  # (consumed: each token is freed as its node is made, for a lower peak)
        j += 1
        ty = t[0]
        if ty == "BLANK":  # Blank(lines, start, end), without the call of Node.__init__ (see _SINGLES)
            node = new(Blank)
            node._lines = lines
            node.offset = t[1]
            node.end_offset = t[2]
            node._p = None
            append(node)
            continue
        if j < n and tokens[j][0] in continues:  # an element of several tokens
            k = j + 1
            while k < n and tokens[k][0] in continues:
                k += 1
            parts = [t, *tokens[j:k]]
            key = tuple(map(_TYPE_OF, parts))
            plain = plains.get(key)
            if plain is not None:  # a known shape without inline notes: the node made here
                append(plain(lines, t[1], parts[-1][2], _layout(parts)))
            else:
                build = rules.get(key) or _element_builder(key, parts)
                append(build(lines, parts))
                inline = inline or "INLINE_NOTE" in key
                if key in rules and not _PIECES.intersection(key) and build.__name__ in _RULE_CLASS:
                    plains[key] = _RULE_CLASS[build.__name__]
            j = k
            continue
        cls, p, with_inline = singles.get(ty) or _single(ty, t)
        if with_inline is None:
            append(cls(lines, t[1], t[2], p))
            continue
        node = new(cls)  # cls(lines, start, end, p), without the call of its __init__ (see _SINGLES)
        node._lines = lines
        node.offset = t[1]
        node.end_offset = t[2]
        node._p = p
        if with_inline:
            node.inline_notes = ()
        append(node)
    return inline


class _BodyNodes:
    """What :func:`~fountain_audit.parse.lexer.lex_nodes` makes the body's nodes with, as it finds
    its elements: the same nodes :func:`_build` makes of the same tokens (the grammar decides each
    element's node, through :data:`_SINGLES` and :func:`_element_builder`). ``out`` is the list
    of nodes made, in order; ``inline`` whether one carries an inline note."""

    __slots__ = ("lines", "out", "inline")
    #: The class of a blank run's node, made without a call of its ``__init__`` (see :data:`_SINGLES`):
    #: ``node = object.__new__(Blank)``, then ``_lines`` (``lines``), ``offset``, ``end_offset`` and ``_p``
    #: (``None``) set.
    Blank = Blank

    def __init__(self, lines: Lines):
        self.lines = lines
        self.out: list[Node] = []
        self.inline = False

    def one(self, ty: str, start: int, end: int) -> Node:
        """The node of the element made of one token ``(ty, start, end)`` (0-based offsets)."""
        cls, p, with_inline = _SINGLES.get(ty) or _single(ty, (ty, start, end))
        if with_inline is None:
            return cls(self.lines, start, end, p)
        node = object.__new__(cls)  # cls(lines, start, end, p), without the call of its __init__ (see _SINGLES)
        node._lines = self.lines
        node.offset = start
        node.end_offset = end
        node._p = p
        if with_inline:
            node.inline_notes = ()
        return node

    def two(self, first: tuple, second: tuple) -> Node:
        """The node of the element made of the adjacent tokens ``first`` and ``second`` (a cue
        and its dialogue line...), tuples ``(type, start, end)``."""
        cls = _PLAIN_ELEMENTS.get((first[0], second[0]))
        if cls is None:  # (a shape not met yet, or with inline notes: the general way)
            out = self.out
            self.tokens([first, second])
            return out.pop()
        p = (first[0], second[1] - first[1], second[0])
        return cls(self.lines, first[1], second[2], _SHAPES.get(p) or _shape(p))

    def tokens(self, tokens: list[tuple]) -> None:
        """Append the nodes of the body elements made of ``tokens`` (whole elements, see
        :func:`_body`) to ``out``, consuming them."""
        if _body(self.lines, tokens, 0, self.out):
            self.inline = True


def _single(ty: str, token: tuple) -> tuple:
    """The entry of :data:`_SINGLES` for token type ``ty`` (``token`` is one of that type), made
    from what the grammar makes of the token alone, and recorded."""
    cls = _RULE_CLASS[(_ELEMENT_RULES.get(ty) or _element_builder(ty, [token])).__name__]
    init = cls.__init__
    with_inline = False if init is Node.__init__ else True if init is _WithInline.__init__ else None
    _SINGLES[ty] = entry = (cls, None if ty == cls._PART else ty, with_inline)
    return entry


def _with_blanks(children: list[Node], blanks: list[Node]) -> list[Node]:
    """Merge blank runs into ``children`` by offset."""
    if not blanks:
        return children
    out: list[Node] = []
    k = 0
    nb = len(blanks)
    for node in children:
        start = node.offset
        while k < nb and blanks[k].offset < start:
            out.append(blanks[k])
            k += 1
        out.append(node)
    out.extend(blanks[k:])
    return out

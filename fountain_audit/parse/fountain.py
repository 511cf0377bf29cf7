"""The lossless Fountain AST and the Lark parser that builds it.

``parse(text)`` runs the LALR parser from ``grammar/fountain.lark`` over the line
tokens of :mod:`fountain_audit.parse.lexer`, with :class:`AstBuilder` applied inline
(no intermediate parse tree). Each AST node keeps the line tokens it was built
from, so ``Document.render()`` returns the input text exactly.

Positions: ``line``/``column`` and ``end_line``/``end_column`` are 1-based and
count code points; the end is exclusive (the column after the last character,
line terminator excluded), as in SARIF regions. ``offset``/``end_offset`` are
0-based code-point offsets into the text (terminator included in the end).
"""

from __future__ import annotations

import contextlib
import functools
import re
import gc
import threading
from dataclasses import dataclass, field
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput

from fountain_audit.parse.lexer import LineLexer, Problem, split_lines, strip_inline_notes, tokenize


_SCENE_NUMBER_RE = re.compile(r"\s*#([^#\s]+)#\s*$")


def _content(tok: Token) -> str:
    """A line token's text without its line terminator."""
    return tok.value.rstrip("\r\n") if tok.value[-1:] in ("\n", "\r") else tok.value


@dataclass(eq=False, slots=True)
class Node:
    """An element of the Fountain AST: the line tokens it covers, in order.

    ``tokens`` are ``lark.Token`` objects (``str`` subclasses): ``.type`` is the
    line class (``ACTION``, ``CHARACTER``, ...), the value is the raw line text
    including its terminator, ``.line``/``.column`` are 1-based.
    ``inline_notes`` are the :class:`InlineNote` nodes inside the node's text
    (``MAYA [[she whispers]]``), in order; their text stays in ``tokens`` too.
    """

    tokens: list[Token]
    inline_notes: tuple["InlineNote", ...] = ()

    #: Fountain element name used in dumps (``scene_heading``, ``action``...).
    type = "node"

    def render(self) -> str:
        """The exact source text of this node (``str``)."""
        return "".join(self.tokens)

    @property
    def line(self) -> int:
        """1-based line of the node's first character."""
        return self.tokens[0].line

    @property
    def column(self) -> int:
        """1-based column (code points) of the node's first character."""
        return self.tokens[0].column

    @property
    def end_line(self) -> int:
        """1-based line of the node's last line."""
        return self.tokens[-1].end_line

    @property
    def end_column(self) -> int:
        """Exclusive 1-based end column on ``end_line`` (terminator excluded)."""
        return self.tokens[-1].end_column

    @property
    def offset(self) -> int:
        """0-based code-point offset of the first character."""
        return self.tokens[0].start_pos

    @property
    def end_offset(self) -> int:
        """0-based code-point offset just past the node, its last line terminator included."""
        return self.tokens[-1].end_pos

    @property
    def lines(self) -> list[str]:
        """The node's physical lines, without terminators (only CR, LF, CRLF end lines)."""
        toks = self.tokens
        if len(toks) == 1 and toks[0].line == toks[0].end_line:  # the common case: one line
            return [_content(toks[0])]
        return [c for t in toks for c, _ in split_lines(t.value)]

    @property
    def text(self) -> str:
        """The node's lines joined with ``\\n`` (terminators normalised)."""
        return "\n".join(self.lines)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.line}:{self.column}, {self.text[:40]!r})"


class ByteOrderMark(Node):
    """The U+FEFF at the very start of a file (kept so the text prints back identically)."""

    type = "byte_order_mark"


class TitleEntry(Node):
    """``Key: value`` with optional indented continuation lines (§Title Page)."""

    type = "title_entry"

    @property
    def key(self) -> str:
        return _content(self.tokens[0]).split(":", 1)[0].strip()

    @property
    def value(self) -> str:
        """The value; continuation lines are joined with ``\\n``, indentation removed."""
        first = _content(self.tokens[0]).split(":", 1)[1].strip()
        rest = [_content(t).strip() for t in self.tokens[1:]]
        return "\n".join([first] + rest if first else rest)


@dataclass(eq=False, slots=True)
class TitlePage(Node):
    """The title page (§Title Page): ``Key: value`` entries up to the first blank line."""

    entries: list[TitleEntry] = field(default_factory=list)
    type = "title_page"

    def get(self, key: str) -> TitleEntry | None:
        """The first entry whose key equals ``key`` (case-insensitive), or ``None``."""
        k = key.lower()
        for e in self.entries:
            if e.key.lower() == k:
                return e
        return None


class Blank(Node):
    """One or more empty (whitespace-only) lines."""

    type = "blank"

    @property
    def count(self) -> int:
        return self.end_line - self.line + 1


class SceneHeading(Node):
    """A scene heading line (§Scene Headings): INT/EXT/EST/INT./EXT./I/E or forced ``.``.

    A *glued* heading starts inside a line, after the text of a dialogue or action
    line whose line break was dropped (``…done.INT. HARVEY AND ALICE TALKING 2026-…``);
    its ``column`` is where it starts.
    """

    type = "scene_heading"

    @property
    def glued(self) -> bool:
        """True for a heading glued to the end of the previous element's line."""
        return self.tokens[0].type == "GLUED_SCENE_HEADING"

    @property
    def forced(self) -> bool:
        """True for a heading forced with a leading ``.``."""
        return self.tokens[0].lstrip().startswith(".")

    @property
    def scene_number(self) -> str | None:
        """The scene number of ``INT. HOUSE - DAY #1A#``, i.e. ``"1A"``, or ``None``."""
        m = _SCENE_NUMBER_RE.search(_content(self.tokens[0]))
        return m.group(1) if m else None

    @property
    def heading(self) -> str:
        """The heading text without a forcing ``.`` or a scene number."""
        s = _content(self.tokens[0]).strip()
        m = _SCENE_NUMBER_RE.search(s)
        if m:
            s = s[:m.start()].rstrip()
        return s[1:] if s.startswith(".") else s


class Action(Node):
    """An action paragraph (§Action); one token holds all its lines."""

    type = "action"


@dataclass(eq=False, slots=True)
class Dialogue(Node):
    """A character cue and what follows it until a blank line (§Dialogue).

    ``body`` holds the parenthetical, dialogue and lyric line tokens after the cue.
    """

    type = "dialogue"
    _character: str | None = field(default=None, repr=False)

    @property
    def cue(self) -> Token:
        return self.tokens[0]

    @property
    def character(self) -> str:
        """The character name: no ``@``, extensions or ``^`` (e.g. ``"HARVEY"``)."""
        if self._character is None:
            self._character = self._read_character()
        return self._character

    def _cue_text(self) -> str:
        """The cue line without its terminator and without inline notes."""
        s = _content(self.tokens[0])
        return strip_inline_notes(s) if self.inline_notes and "[[" in s else s

    def _read_character(self) -> str:
        s = self._cue_text().strip()
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
    def body(self) -> list[Token]:
        return self.tokens[1:]

    @property
    def parentheticals(self) -> list[str]:
        return [_content(t).strip() for t in self.tokens[1:] if t.type == "PARENTHETICAL"]

    @property
    def speech(self) -> str:
        """Dialogue lines (not parentheticals) joined with ``\\n``, exactly as written."""
        return "\n".join(_content(t) for t in self.tokens[1:] if t.type != "PARENTHETICAL")


class Transition(Node):
    """A transition (§Transition): upper case ending in ``TO:`` (or ``FADE IN:``), or forced ``>``."""

    type = "transition"


class Centered(Node):
    """Centered text (§Centered): ``> text <`` lines."""

    type = "centered"


class Lyrics(Node):
    """Lyric lines (§Lyrics), each starting with ``~``."""

    type = "lyrics"


class Note(Node):
    """A standalone ``[[ ... ]]`` note, possibly over several lines (§Notes)."""

    type = "note"

    @property
    def body(self) -> str:
        """Text between the first ``[[`` and the last ``]]``, stripped."""
        raw = self.render()
        return raw[raw.find("[[") + 2: raw.rfind("]]")].strip()


class InlineNote(Note):
    """A ``[[ ... ]]`` note inside a line or paragraph of another element (§Notes):
    ``MAYA [[she whispers]]``, ``The bus stops. [[can a bus do that?]] It leaves.``.
    One ``INLINE_NOTE`` token, at its exact line and column; found in
    :attr:`Node.inline_notes` of the element that carries it, never among
    :attr:`Document.children`."""

    type = "inline_note"


class Boneyard(Node):
    """``/* ... */`` text, hidden from renderers (§Boneyard)."""

    type = "boneyard"


class Section(Node):
    """A section line (§Sections): ``#``, ``##`` ... (``depth`` is the number of ``#``)."""

    type = "section"

    @property
    def depth(self) -> int:
        s = _content(self.tokens[0]).lstrip()
        return len(s) - len(s.lstrip("#"))


class Synopsis(Node):
    """A synopsis line (§Synopses): ``= text``."""

    type = "synopsis"


class PageBreak(Node):
    """A page break (§Page Breaks): a line of three or more ``=``."""

    type = "page_break"


@dataclass(eq=False, slots=True)
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
            self._body = [c for c in self.children if not isinstance(c, (ByteOrderMark, TitlePage))]
        return self._body


class AstBuilder(Transformer):
    """Turns grammar rules into AST nodes; one method per rule of fountain.lark."""

    def start(self, items):
        out = []
        for it in items:
            if isinstance(it, Token):  # BOM
                out.append(ByteOrderMark([it]))
            else:
                out.append(it)
        return out

    def title_page(self, entries):
        return TitlePage([t for e in entries for t in e.tokens], entries=entries)

    def title_entry(self, toks):
        return TitleEntry(toks)

    def scene_heading(self, toks):
        return _with_inline(SceneHeading, toks)

    def action(self, toks):
        return _with_inline(Action, toks)

    def dialogue(self, toks):
        return _with_inline(Dialogue, toks)

    def transition(self, toks):
        return _with_inline(Transition, toks)

    def centered(self, toks):
        return Centered(toks)

    def lyrics(self, toks):
        return Lyrics(toks)

    def note(self, toks):
        return Note(toks)

    def boneyard(self, toks):
        return Boneyard(toks)

    def section(self, toks):
        return Section(toks)

    def synopsis(self, toks):
        return Synopsis(toks)

    def page_break(self, toks):
        return PageBreak(toks)


_PIECES = frozenset({"INLINE_NOTE", "INLINE_TEXT"})


def _with_inline(cls, toks: list[Token]) -> Node:
    """A ``cls`` node from its tokens; the pieces of a line split at inline notes
    (grammar ``_inline``) are joined back into whole-line tokens, the notes kept as
    :class:`InlineNote` nodes."""
    if len(toks) == 1 or not any(t.type in _PIECES for t in toks):
        return cls(toks)
    merged: list[Token] = []
    notes: list[InlineNote] = []
    group: list[Token] = []
    for t in toks:
        if t.type in _PIECES:
            if t.type == "INLINE_NOTE":
                notes.append(InlineNote([t]))
            group.append(t)
            continue
        if group:
            merged.append(_join(group))
        group = [t]
    merged.append(_join(group))
    return cls(merged, inline_notes=tuple(notes))


def _join(group: list[Token]) -> Token:
    if len(group) == 1:
        return group[0]
    a, z = group[0], group[-1]
    return Token._future_new(a.type, "".join(group), a.start_pos, a.line, a.column, z.end_line, z.end_column,
                             z.end_pos)


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building many small objects.

    Parsing allocates hundreds of thousands of nodes and tokens and no garbage
    cycles; generational collections triggered by those allocations cost a third
    of the run time. Re-entrant: only the outermost use re-enables the collector.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def grammar_path(name: str) -> Path:
    """Path of a grammar file shipped in ``grammar/`` (installed as ``fountain_audit.grammar``).

    Looks beside the package first (an installed package, a source checkout), then asks
    ``importlib.resources`` (imported only then: it costs start-up time on every command).
    Raises ``FileNotFoundError`` if no location holds it.
    """
    here = Path(__file__).resolve().parents[1]
    for p in (here / "grammar" / name, here.parent / "grammar" / name):
        if p.is_file():
            return p
    try:
        from importlib import resources
        p = Path(str(resources.files("fountain_audit.grammar").joinpath(name)))
        if p.is_file():
            return p
    except (ModuleNotFoundError, TypeError):
        pass
    raise FileNotFoundError(f"grammar file {name!r} not found")


class _SessionLexer(LineLexer):
    """LineLexer that hands the parser every token but BLANK runs, which it keeps
    (with the lexer's problems) for the current ``parse`` call."""

    def lex(self, text: str):  # type: ignore[override]
        tokens = tokenize(text, _LEXED.problems)
        _LEXED.blanks = [t for t in tokens if t.type == "BLANK"]
        return (t for t in tokens if t.type != "BLANK")


_LEXED = threading.local()


@functools.cache
def _parser() -> Lark:
    from fountain_audit.parse.cache import cached_lark  # tables from the user cache: no rebuild on a cold start
    return cached_lark("fountain", grammar_path("fountain.lark").read_text(encoding="utf-8"), parser="lalr",
                       lexer=_SessionLexer, transformer=AstBuilder(), maybe_placeholders=False)


def parse(text: str) -> Document:
    """Parse Fountain ``text`` into a lossless :class:`Document`.

    Never raises on any ``str``: ``parse(t).render() == t`` always holds.
    Unclosed notes and boneyards are recorded in ``Document.problems``.
    """
    problems: list[Problem] = []
    if not text:
        return Document(text, [], problems)
    _LEXED.problems = problems
    with gc_paused():
        try:
            children = _with_blanks(_parser().parse(text), _LEXED.blanks)
        except UnexpectedInput:  # pragma: no cover - the lexer only emits sequences the grammar accepts
            problems.clear()
            children = [Blank([t]) if t.type == "BLANK" else Action([t]) for t in tokenize(text, problems)]
        _LEXED.blanks = []
    return Document(text, children, problems)


def _with_blanks(children: list[Node], blanks: list[Token]) -> list[Node]:
    """Merge the BLANK runs the parser did not see back into ``children`` by offset."""
    if not blanks:
        return children
    out: list[Node] = []
    k = 0
    nb = len(blanks)
    for node in children:
        start = node.tokens[0].start_pos
        while k < nb and blanks[k].start_pos < start:
            out.append(Blank([blanks[k]]))
            k += 1
        out.append(node)
    out.extend(Blank([b]) for b in blanks[k:])
    return out

"""The Lark side of parsing: the LALR parsers built from ``grammar/fountain.lark`` and
``grammar/notes.lark``, and the questions the rest of :mod:`fountain_audit.parse` asks them.

Imported only when :class:`fountain_audit.parse.memo.GrammarMemo` does not already hold the
answer (a shape of element or head never met before, a note kind without a fast reader, the
first process after the grammar or Lark changed): a process that meets only known shapes never
imports Lark (about 25 ms of start-up, issue 9). The tables come from
:func:`fountain_audit.parse.cache.cached_lark`.
"""

from __future__ import annotations

import functools

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from fountain_audit.parse.fountain import GrammarRejected, grammar_path
from fountain_audit.parse.notes import KINDS, NoteFields


class TokenFeed(Lexer):
    """Lark custom lexer that hands the parser a list of ``lark.Token`` already made from the
    lexer's tuples (:func:`lark_tokens`): one element (or the head) at a time."""

    def __init__(self, lexer_conf=None):
        pass

    def lex(self, tokens):  # type: ignore[override]
        return iter(tokens)


class NoteTransformer(NoteFields, Transformer):
    """:class:`~fountain_audit.parse.notes.NoteFields` as the Lark transformer of the notes parser."""


@functools.cache
def fountain_parser() -> Lark:
    """The LALR parser of ``grammar/fountain.lark`` with two start symbols: ``start`` (a whole
    file) and ``element`` (one body element). It builds Lark trees whose leaves are
    :func:`lark_tokens`."""
    from fountain_audit.parse.cache import cached_lark  # tables from the user cache: no rebuild on a cold start
    return cached_lark("fountain", grammar_path("fountain.lark").read_text(encoding="utf-8"), parser="lalr",
                       lexer=TokenFeed, start=["start", "element"], maybe_placeholders=False)


@functools.cache
def notes_parser() -> Lark:
    """The LALR parser of ``grammar/notes.lark``: one start rule per note kind (and
    ``pipeline_stop``), each parse transformed to a ``fields`` dict by :class:`NoteTransformer`."""
    from fountain_audit.parse.cache import cached_lark
    return cached_lark("notes", grammar_path("notes.lark").read_text(encoding="utf-8"), parser="lalr",
                       start=sorted(set(v for v in KINDS.values() if v)) + ["pipeline_stop"],
                       transformer=NoteTransformer(), maybe_placeholders=True)


def lark_tokens(parts: list[tuple], first: int = 0) -> list[Token]:
    """``lark.Token`` objects for the parser, typed as ``parts``; each token's ``start_pos`` is
    its index in the caller's list (from ``first``), so a tree leaf leads back to its tuple."""
    return [Token(p[0], "", start_pos=first + i, end_pos=first + i) for i, p in enumerate(parts)]


def element_rule(parts: list[tuple]) -> str:
    """The grammar rule (``dialogue``, ``action`` ...) of the body element made of ``parts``
    (lexer tuples; only their types are read), parsed from the ``element`` start symbol.
    Raises :class:`~fountain_audit.parse.fountain.GrammarRejected` when the grammar rejects it."""
    try:
        tree = fountain_parser().parse(lark_tokens(parts), start="element")
    except UnexpectedInput as e:
        raise GrammarRejected(str(e)) from None
    return tree.children[0].data


def head_structure(parts: list[tuple]) -> list[list]:
    """The head (byte-order mark, leading notes and boneyards, title page; no blank runs) made of
    ``parts``, parsed from ``start``, as indices into ``parts``: ``["BOM", i]``,
    ``["note" | "boneyard", [i]]`` and ``["title_page", [[i, ...], ...]]`` (one list per entry).
    Raises :class:`~fountain_audit.parse.fountain.GrammarRejected` when the grammar rejects it."""
    try:
        tree = fountain_parser().parse(lark_tokens(parts), start="start")
    except UnexpectedInput as e:
        raise GrammarRejected(str(e)) from None
    out: list[list] = []
    for child in tree.children:
        if isinstance(child, Token):  # BOM
            out.append(["BOM", child.start_pos])
        elif child.data == "title_page":
            out.append(["title_page", [[t.start_pos for t in e.children] for e in child.children]])
        else:
            out.append([str(child.data), [t.start_pos for t in child.children]])
    return out

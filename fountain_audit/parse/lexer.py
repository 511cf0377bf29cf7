"""Line lexer: classifies the physical lines of a Fountain file into tokens.

Fountain is line-oriented and context-sensitive (a character cue is an upper-case
line *after a blank line and before a non-blank one*), which a regular-expression
tokenizer cannot express. This module walks the lines once, classifies each with
compiled regular expressions and the blank-line context, and yields one token per
element (an action paragraph, a run of dialogue lines, a multi-line note, a boneyard
and a run of blank lines are one token each). ``grammar/fountain.lark`` then assembles
the tokens into elements.

A token is a plain tuple ``(type, start, end)`` (indices ``T_TYPE``, ``T_START``,
``T_END``): no text is copied, a token's text is ``text[start:end]``; lines and
columns are computed from offsets when asked for (:class:`Lines`). Invariants (relied
on by the lossless AST):

* the tokens cover every character of the input exactly once, in order;
* a token's text includes its line terminators (``\\n``, ``\\r\\n`` or ``\\r``);
* ``start``/``end`` are 0-based code-point offsets (``end`` exclusive, past the
  terminator).

Spec: Fountain 1.1 (https://fountain.io/syntax); Harvey's
FOUNTAIN_FORMAT.md v1.3 and the recorder's byte layout
(harvey-recorder-inventory.md §1).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, repeat
from operator import add

from fountain_audit.records import record
from fountain_audit.lazyre import lazy

#: Indices into a token tuple.
T_TYPE, T_START, T_END = range(3)

# A physical line: content, then its terminator (possibly none at end of file).
_LINE_RE = lazy(r"([^\r\n]*)(\r\n|\r|\n|)")

# --- line patterns (Fountain 1.1) -------------------------------------------------

#: Scene heading prefixes (§Scene Headings), case-insensitive, then `.` or space.
SCENE_HEADING_RE = lazy(r"(?:INT\.?\s*/\s*EXT|EXT\.?\s*/\s*INT|I\.?/E|INT|EXT|EST)[.\s]", re.I)
#: Forced scene heading: one `.` then a letter or digit (`...` is not one; case B08).
FORCED_HEADING_RE = lazy(r"\.[^\W_]")
#: Title page key (§Title Page): `Key:` at the start of the line.
TITLE_KEY_RE = lazy(r"[A-Za-z][A-Za-z0-9 _.'-]{0,39}:")
PAGE_BREAK_RE = lazy(r"\s*={3,}\s*$")
#: An inline note (§Notes): ``[[ ... ]]`` inside a line or paragraph (never across an empty line,
#: which cannot occur inside one token).
INLINE_NOTE_RE = lazy(r"\[\[.*?\]\]", re.S)  # the syntax; matched by inline_notes() below


def inline_notes(text: str, start: int = 0, stop: int | None = None):
    """The ``(start, end)`` offsets of the inline notes in ``text[start:stop]`` (offsets in
    ``text``), as ``INLINE_NOTE_RE.finditer`` finds them (each ``[[`` to the first ``]]`` after it),
    in linear time: the regular expression rescans to the end of the text from every ``[[`` that
    no ``]]`` closes (quadratic on a line of unclosed brackets)."""
    if stop is None:
        stop = len(text)
    i = text.find("[[", start, stop)
    while i >= 0:
        j = text.find("]]", i + 2, stop)
        if j < 0:
            return
        yield i, j + 2
        i = text.find("[[", j + 2, stop)


def strip_inline_notes(text: str) -> str:
    """``INLINE_NOTE_RE.sub("", text)`` in linear time (see :func:`inline_notes`)."""
    out, last = [], 0
    for a, b in inline_notes(text):
        out.append(text[last:a])
        last = b
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)
#: Line tokens whose text may carry inline notes (split into INLINE_NOTE / INLINE_TEXT pieces).
INLINE_TYPES = frozenset({"ACTION", "CHARACTER", "PARENTHETICAL", "DIALOGUE", "DIALOGUE_LYRIC",
                          "SCENE_HEADING", "TRANSITION"})
#: A timestamped Harvey scene heading glued to the end of a line (a dropped line break):
#: ``…done.INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00`` (exact or loose timestamp).
#: The specification of the form; :func:`glued_heading_start` finds its match in linear time.
GLUED_HEADING_RE = lazy(
    r"(?<=[^\sA-Z])(?:INT|EXT)\. [^\r\n]*?(?: | — )[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}(?::[0-9]{2})?[ \t]*$")
_GLUE_HINT_RE = lazy(r"[^\sA-Z](?:INT|EXT)\. ")
#: The timestamp that ends a glued heading's line (its separator, `` `` or `` — ``, ends in a blank).
_GLUED_TAIL_RE = lazy(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}(?::[0-9]{2})?[ \t]*$")


def glued_heading_start(line: str) -> int:
    """``GLUED_HEADING_RE.search(line).start()``, or -1 when it does not match, in time linear
    in the line: the expression, tried from each ``INT. ``/``EXT. `` of the line, read the rest
    of the line with its lazy ``[^\\r\\n]*?`` (``'aINT. ' * 20000``: 21 s of lint, adversarial
    trial). The timestamp must end the line, so it is found first; the heading is the first
    ``INT. ``/``EXT. `` after a character that is neither blank nor a capital, ending before the
    blank that precedes the timestamp, with no line break between (tests/test_lexer_hints.py
    compares the two on random lines)."""
    t = _GLUED_TAIL_RE.search(line)
    if t is None:
        return -1
    d = t.start()
    if d < 1 or line[d - 1] != " ":
        return -1
    # the heading and what follows it up to the timestamp hold no line break ([^\r\n]*?)
    start = max(line.rfind("\r", 0, d), line.rfind("\n", 0, d)) + 1
    m = _GLUE_HINT_RE.search(line, start, d - 1)
    return -1 if m is None else m.start() + 1
#: A boneyard close ``*/`` (a glob's ``**/`` is not one) with only blanks after it on its line.
_CLOSE_AT_EOL_RE = lazy(r"(?<![*/])\*/(?=[ \t]*(?:\r\n|\r|\n|$))")
CENTERED_RE = lazy(r"\s*>.*<\s*$")


@record(frozen=True, slots=True)
class Problem:
    """A syntax problem the lexer found; the linter turns it into a diagnostic.

    ``kind`` is one of ``"unclosed-note"``, ``"unclosed-boneyard"``, ``"stray-boneyard-close"``.
    ``line``/``column`` are 1-based; ``offset`` is a 0-based code-point offset.
    ``related_line``/``related_column`` (1-based, or ``None``) locate a related element: for
    a stray ``*/``, the boneyard it probably belonged to.
    """

    kind: str
    message: str
    line: int
    column: int
    offset: int
    related_line: int | None = None
    related_column: int | None = None

    def __init__(self, kind: str, message: str, line: int, column: int, offset: int, related_line: int | None = None,
                 related_column: int | None = None) -> None:
        put = object.__setattr__  # (a frozen record: see fountain_audit.records)
        put(self, "kind", kind)
        put(self, "message", message)
        put(self, "line", line)
        put(self, "column", column)
        put(self, "offset", offset)
        put(self, "related_line", related_line)
        put(self, "related_column", related_column)


def _glue_possible(text: str) -> bool:
    """``_GLUE_HINT_RE.search(text) is not None``, at the speed of ``str.find``: the regular
    expression, with no literal to start from, costs a step per character of the file."""
    for word in ("INT. ", "EXT. "):
        i = text.find(word, 1)
        while i > 0:
            c = text[i - 1]
            if not c.isspace() and not "A" <= c <= "Z":
                return True
            i = text.find(word, i + 1)
    return False


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


#: The first characters (after indentation) of the lines that may start something other than
#: action, a transition or a character cue: most lines start with none of them.
_SPECIAL_FIRST = frozenset("/[=#~.IEie>!")


def _is_character_cue(content: str, s: str | None = None) -> bool:
    """True when ``content`` reads as a character cue (§Character); ``s``, if given, is
    ``content.strip()``.

    A cue is ``@`` plus anything (forced), or a name with no lower-case letter,
    starting with a letter, optionally followed by extensions in parentheses
    (which may be lower case, Fountain 1.1) and ``^`` for dual dialogue.
    """
    if "[[" in content:  # `MAYA [[she whispers]]`: a cue carrying an inline note
        s = strip_inline_notes(content).strip()
    elif s is None:
        s = content.strip()
    if not s:
        return False
    if s[0] == "@":
        return len(s) > 1
    if s[-1] == "^":
        s = s[:-1].rstrip()
    paren = s.find("(")
    name = s if paren < 0 else s[:paren].rstrip()
    # Fountain 1.1: "at least one alphabetical character" (R2D2 works, 23 does not).
    if not name or name != name.upper() or not (name.isalpha() or any(map(str.isalpha, name))):
        return False
    if "^" in name or name[-1] == ":":
        return False
    return paren < 0 or s[-1] == ")"


def _closes_on_its_line(line: str) -> bool:
    """Whether the boneyard ``line`` opens (its first ``/*``) closes on the same line."""
    return line.find("*/", line.find("/*") + 2) >= 0


def _is_transition(content: str) -> bool:
    """Upper-case line ending in ``TO:`` (§Transition), or ``FADE IN:``."""
    s = content.strip()
    return s == s.upper() and (s.endswith("TO:") or s == "FADE IN:") and any(map(str.isalpha, s))


def tokenize(text: str, problems: list[Problem] | None = None) -> list[tuple]:
    """Classify ``text`` into a list of token tuples (see module docstring and :func:`lex`)."""
    return lex(text, problems)[0]


def lex(text: str, problems: list[Problem] | None = None) -> tuple[list[tuple], list[int]]:
    """``(tokens, line_starts)``: ``text`` classified into a list of token tuples (see module
    docstring), and the 0-based offset where each line starts (line ``k + 1`` starts at
    ``line_starts[k]``; ``line_starts[0]`` is 0, a byte-order mark being in line 1).

    Never raises on any string. Unclosed ``[[`` and ``/*`` are appended to
    ``problems`` and their lines are lexed as ordinary text; so is a stray ``*/``.

    Beyond whole lines:

    * an element line holding an inline note (``MAYA [[she whispers]]``) is split into
      its own token (the text before the note, possibly empty), ``INLINE_NOTE`` and
      ``INLINE_TEXT`` (the text after it) pieces: see :data:`INLINE_TYPES`;
    * a timestamped scene heading glued to the end of a dialogue or action line ends
      that element: the line is split into the element's text (no terminator) and a
      ``GLUED_SCENE_HEADING`` token starting at the heading's column;
    * notes and boneyards before a title page are ``LEADING_NOTE`` / ``LEADING_BONEYARD``.

    One pass over the lines, one step per token: the block's first line decides its kind, and
    only blank runs, paragraphs, dialogue, multi-line notes and boneyards look further.
    """
    return _scan(text, [] if problems is None else problems, None)


def lex_nodes(text: str, problems: list[Problem], body) -> tuple[list[tuple], list[int]]:
    """:func:`lex`, making the body's nodes as its elements are found, without their tokens:
    ``(head_tokens, line_starts)``, ``head_tokens`` being the tokens up to where the body's nodes
    start (a byte-order mark, a title page, leading notes, boneyards and blank runs: the head,
    and the body's first elements when a title page might still have followed them), the nodes
    after them appended to ``body.out`` in order.

    ``body`` makes the nodes (:class:`fountain_audit.parse.fountain._BodyNodes`): ``body.Blank``
    a blank run's (the class, its node made here as ``body.Blank`` says, for ``body.lines``),
    ``body.one(type, start, end)`` an element's of one token, ``body.two(token, token)`` an
    element's of two, ``body.tokens(tokens)`` (appended to ``body.out``) those of whole elements
    of any tokens (a dialogue, a line split at its inline notes...); offsets 0-based. ``text``
    must hold no ``*/``: a stray ``*/`` is looked for over all the tokens (:func:`lex` then)."""
    return _scan(text, problems, body)


def _scan(text: str, problems: list[Problem], body) -> tuple[list[tuple], list[int]]:
    """:func:`lex` when ``body`` is ``None``, else :func:`lex_nodes`.

    Making nodes, the lexer starts as :func:`lex` does (the head's tokens are decided together:
    notes and boneyards become leading ones when a title page follows them); at the first block
    once nothing can be head any more, it switches to making nodes: the common one-token
    elements (blank runs, one-line action, scene headings, notes, sections, a cue and its one
    dialogue line) are made as found, the others' tokens gathered during their block and made
    into nodes at the start of the next (``flush``)."""
    tokens: list[tuple] = []
    append = tokens.append
    base = 0  # offset of line 0: 1 after a byte-order mark, which is a token of its own
    if text.startswith("\ufeff"):
        append(("BOM", 0, 1))
        base = 1
    lines, starts = _line_table(text, base)
    n = len(lines)
    col_first = 1 + base  # columns are 1-based, but line 0 starts at column 2 after a BOM
    i = 0
    inline_possible = "[[" in text
    glue_possible = _glue_possible(text)

    def emit(ttype: str, start: int, stop: int) -> None:
        # Emit lines[start:stop] as one token (split at its inline notes, if it has any).
        a, b = starts[start], starts[stop]
        if inline_possible and ttype in INLINE_TYPES and (
                "[[" in lines[start] if stop - start == 1 else text.find("[[", a, b) >= 0):
            tokens.extend(_split_inline((ttype, a, b), text))
        else:
            append((ttype, a, b))

    def emit_glued(ttype: str, start: int, g: int, cut: int) -> None:
        # Emit lines[start:g] plus lines[g][:cut] as one ``ttype`` token (no terminator),
        # then the rest of line g as a GLUED_SCENE_HEADING token.
        pos = starts[start]
        end = starts[g] + cut
        tok = (ttype, pos, end)
        if inline_possible and "[[" in text[pos:end]:
            tokens.extend(_split_inline(tok, text))
        else:
            append(tok)
        append(("GLUED_SCENE_HEADING", end, starts[g + 1]))

    paragraph_at = (0, 0)  # (first line, end) of the paragraph last found (see paragraph)

    def paragraph(ttype: str, i: int) -> int:
        # Emit the paragraph from line i as one ``ttype`` token (up to the end of a line holding a
        # glued scene heading, if one does, see emit_glued); return the index of the next line.
        nonlocal paragraph_at
        if glue_possible and paragraph_at[0] <= i < paragraph_at[1]:
            # the rest of a paragraph cut short at a glued heading: its end is known (found again
            # from each such line, 16,000 of them took 20 s; adversarial trial)
            j = paragraph_at[1]
        else:
            j = _paragraph_end(lines, i + 1)
            paragraph_at = (i, j)
        if glue_possible:
            for g in range(i, j):
                cut = glued_heading_start(lines[g])
                if cut >= 0:
                    emit_glued(ttype, i, g, cut)
                    return g + 1
        element(ttype, i, j)
        return j

    def title_page(i: int) -> int:
        # §Title Page: `Key: value` lines (values may continue on indented lines).
        while i < n:
            c = lines[i]
            if not c.strip():
                break
            if TITLE_KEY_RE.match(c):
                emit("TITLE_KEY", i, i + 1)
            elif c[0] in " \t" and tokens[-1][T_TYPE] in ("TITLE_KEY", "TITLE_CONT"):
                emit("TITLE_CONT", i, i + 1)
            else:
                break
            i += 1
        return i

    def opens_title_page(c: str) -> bool:
        return bool(TITLE_KEY_RE.match(c)) and not _is_transition(c) and not SCENE_HEADING_RE.match(c)

    # --- title page (§Title Page): at the start of the file, or after notes and boneyards
    if n and opens_title_page(lines[0]):
        i = title_page(0)
    # Until something else is seen, a title page may still follow leading notes/boneyards.
    leading = n > 0 and i == 0

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

    def unclosed(kind: str, message: str, idx: int, opener: str) -> None:
        # A problem at the opener on line idx (its lines are lexed as ordinary text).
        at = lines[idx].find(opener)
        problems.append(Problem(kind, message, idx + 1, (col_first if idx == 0 else 1) + at, starts[idx] + at))

    no_close_from = len(text) + 1  # no "*/" at or after this offset (known once a search failed)
    cues: dict[str, bool] = {}  # a line's content -> whether it reads as a cue (a session repeats a few)

    # Making nodes (body given): put appends a node to body.out once the head is over (None before).
    put = None
    head_tokens = tokens
    if body is not None:
        one, two = body.one, body.two
        Blank, doc_lines, new = body.Blank, body.lines, object.__new__

    def flush() -> None:
        # The nodes of the whole elements whose tokens are gathered in tokens (node making).
        body.tokens(tokens)
        tokens.clear()

    def element(ttype: str, start: int, stop: int) -> None:
        # Emit lines[start:stop] as an element of one token (see emit); its node once put is set.
        if put is None:
            emit(ttype, start, stop)
            return
        a, b = starts[start], starts[stop]
        if inline_possible and ttype in INLINE_TYPES and text.find("[[", a, b) >= 0:
            tokens.extend(_split_inline((ttype, a, b), text))  # (made into nodes by flush)
            return
        if tokens:
            flush()
        put(one(ttype, a, b))

    # --- body: one iteration per block start -------------------------------------
    while i < n:
        if put is None:
            if body is not None and not leading:  # the head is over: nodes from here on
                tokens = []
                append = tokens.append
                put = body.out.append
        elif tokens:
            flush()
        content = lines[i]
        if not content or content.isspace():  # (isspace: what strip() removes)
            j = i + 1
            while j < n and (not (content := lines[j]) or content.isspace()):
                j += 1
            if put is None:
                append(("BLANK", starts[i], starts[j]))  # (not an INLINE_TYPE: no emit needed)
            else:  # (a blank run for every other element: its Blank node made here, see body.Blank)
                node = new(Blank)
                node._lines = doc_lines
                node.offset = starts[i]
                node.end_offset = starts[j]
                node._p = None
                put(node)
            if j == n:
                break
            i = j  # (and content is line j, not blank: on to it)
        s = content.strip()
        first = s[0]
        if leading and first not in "/[":
            if opens_title_page(content) and any(t[T_TYPE] in ("NOTE", "BONEYARD") for t in tokens):
                for k, t in enumerate(tokens):  # notes and boneyards before the title page
                    if t[T_TYPE] in ("NOTE", "BONEYARD"):
                        tokens[k] = ("LEADING_" + t[T_TYPE],) + t[1:]
                i = title_page(i)
                leading = False
                continue
            leading = False

        if first in _SPECIAL_FIRST:  # (most lines start with none of these: one test)
            # Standalone note [[ ... ]], possibly over several lines, no blank line inside.
            # (`[[draft]] Ana waits.` is a line carrying an inline note: text, below.)
            if first == "[" and s[1:2] == "[":  # (s.startswith("[["), without a method call's cost)
                if s[-1] == "]" and s[-2] == "]":  # (s.endswith("]]"): then it has 4 characters or more)
                    if put is None:
                        append(("NOTE", starts[i], starts[i + 1]))
                    else:
                        put(one("NOTE", starts[i], starts[i + 1]))
                    i += 1
                    continue
                if "]]" not in s:
                    j = i + 1
                    while not ends_block(j) and not lines[j].rstrip().endswith("]]"):
                        j += 1
                    if not ends_block(j):
                        element("NOTE", i, j + 1)
                        i = j + 1
                        continue
                    unclosed("unclosed-note", "note '[[' is not closed with ']]' before a blank line", i, "[[")

            # Boneyard /* ... */ (may span blank lines): up to the end of the line of the first
            # "*/" after the "/*" (none: unclosed).
            elif first == "/" and s.startswith("/*"):
                at = starts[i] + content.find("/*") + 2
                # (once a search finds no "*/", none from further on can: 100k unclosed "/*" did
                # 100k searches to the end of the text, quadratic)
                close = text.find("*/", at) if at < no_close_from else -1
                if close < 0:
                    no_close_from = min(no_close_from, at)
                if close >= 0:
                    j = bisect_right(starts, close, i)  # (the index of the line after it)
                    element("BONEYARD", i, j)
                    i = j
                    continue
                unclosed("unclosed-boneyard", "boneyard '/*' is never closed with '*/'", i, "/*")
            leading = False

            if first == "=":
                element("PAGE_BREAK" if PAGE_BREAK_RE.match(content) else "SYNOPSIS", i, i + 1)
                i += 1
                continue
            if first == "#":
                if put is None:
                    append(("SECTION", starts[i], starts[i + 1]))  # (not an INLINE_TYPE: no emit needed)
                else:
                    put(one("SECTION", starts[i], starts[i + 1]))
                i += 1
                continue
            if first == "~":
                i = _run(element, lines, i, ends_block, "LYRIC", lambda t: t.lstrip()[:1] == "~")
                if not ends_block(i):
                    i = paragraph("ACTION", i)
                continue
            if first == "." and content[0] == "." and FORCED_HEADING_RE.match(content) or \
                    first in "IEie" and SCENE_HEADING_RE.match(s):
                tok = ("SCENE_HEADING", starts[i], starts[i + 1])  # (element, inlined for one line)
                if inline_possible and "[[" in content:
                    tokens.extend(_split_inline(tok, text))
                elif put is None:
                    append(tok)
                else:
                    put(one(*tok))
                i += 1
                continue
            if first == ">":
                if CENTERED_RE.match(content):
                    i = _run(element, lines, i, ends_block, "CENTERED", CENTERED_RE.match)
                else:
                    element("TRANSITION", i, i + 1)
                    i += 1
                continue
            if first == "!":
                i = paragraph("ACTION", i)
                continue
        leading = False
        nxt = lines[i + 1] if i + 1 < n else ""
        if not nxt or nxt.isspace():  # the next line is blank (isspace: what strip() removes)
            if s[-1] == ":" and _is_transition(content):  # (a transition ends in "TO:" or is "FADE IN:")
                element("TRANSITION", i, i + 1)
                i += 1
                continue
        # (ends_block(i + 1) for a line that is not blank: it opens a boneyard, unless the boneyard
        # closes on that line: a model's reply that starts with `/* hello.c */` is the cue's dialogue)
        elif ("/*" not in nxt or not nxt.lstrip().startswith("/*") or _closes_on_its_line(nxt)) and (
                cue if (cue := cues.get(content)) is not None
                else cues.setdefault(content, _is_character_cue(content, s))):
            tok = ("CHARACTER", starts[i], starts[i + 1])  # (emit, inlined for one line)
            if inline_possible and "[[" in content:
                tokens.extend(_split_inline(tok, text))
            else:
                append(tok)
            i += 1
            j = i + 1
            if (j == n or not lines[j]) and nxt.lstrip()[0] not in "(~" and not glue_possible:
                # (the loop below for the most common dialogue: one plain line, then an empty line)
                tok = ("DIALOGUE", starts[i], starts[j])
                if inline_possible and "[[" in nxt:
                    tokens.extend(_split_inline(tok, text))
                elif put is None or len(tokens) != 1:  # (made into nodes by flush, when put is set)
                    append(tok)
                else:  # (a cue of one token, alone in tokens, and its line: their node now)
                    put(two(tokens.pop(), tok))
                i = j
                continue
            run = first = i  # start of the current run of plain dialogue lines; the dialogue's first line
            while i < n:  # until ends_block(i), inlined
                c = lines[i]
                if not c:
                    break
                c0 = c[0]  # then the first character after the indentation ("" for a blank line)
                if c0.isspace():
                    t = c.strip()
                    if (not c.startswith("  ")) if not t else t.startswith("/*") and (
                            i != first or not _closes_on_its_line(t)):
                        break
                    c0 = t[:1]
                elif c0 == "/" and c.startswith("/*") and (i != first or not _closes_on_its_line(c)):
                    break
                if (c0 == "(" or c0 == "~") and (c0 == "~" or c.rstrip().endswith(")")):
                    if run < i:
                        emit("DIALOGUE", run, i)
                    emit("PARENTHETICAL" if c0 == "(" else "DIALOGUE_LYRIC", i, i + 1)
                    run = i + 1
                elif glue_possible:
                    cut = glued_heading_start(lines[i])
                    if cut >= 0:  # `…done.INT. HARVEY AND ALICE TALKING …`: the dialogue ends here
                        emit_glued("DIALOGUE", run, i, cut)
                        run = i = i + 1
                        break
                i += 1
            if run < i:
                emit("DIALOGUE", run, i)
            continue
        if nxt or glue_possible:
            i = paragraph("ACTION", i)
            continue
        # (paragraph("ACTION", i) for a paragraph of one line, inlined: the common case)
        tok = ("ACTION", starts[i], starts[i + 1])
        if inline_possible and "[[" in content:
            tokens.extend(_split_inline(tok, text))
        elif put is None:
            append(tok)
        else:
            put(one(*tok))
        i += 1
    if put is not None:
        if tokens:
            flush()
        tokens = head_tokens
    if "*" in text and "*/" in text:  # (a one-character test is far cheaper: most texts have no "*")
        _stray_closes(tokens, problems, text, starts)
    starts.pop()  # the end of the text: not a line start
    if starts:
        starts[0] = 0
    else:
        starts.append(0)
    return tokens, starts


def _line_table(text: str, base: int) -> tuple[list[str], list[int]]:
    """``(lines, starts)``: the lines of ``text[base:]`` without their terminators (see
    :func:`split_lines`), and the offset in ``text`` where each starts; ``starts`` has one more
    entry, ``len(text)``, where the line after the last would start."""
    if "\r" in text:
        pairs = split_lines(text[base:])
        lines = [c for c, _ in pairs]
        starts = list(accumulate([len(c) + len(e) for c, e in pairs], initial=base))
        return lines, starts
    # every line but perhaps the last ends with one "\n" (split_lines, without its pairs)
    lines = (text[base:] if base else text).split("\n")
    if not lines[-1]:
        lines.pop()
    starts = list(accumulate(map(add, map(len, lines), repeat(1)), initial=base))
    starts[-1] = len(text)
    return lines, starts


def _position(starts: list[int], offset: int) -> tuple[int, int]:
    """1-based line and column of code point ``offset``, given the lines' start offsets."""
    k = max(bisect_right(starts, offset) - 1, 0)
    return k + 1, offset - (starts[k] if k else 0) + 1  # line 1 starts at 0 (a BOM is in column 1)


def _split_inline(tok: tuple, text: str) -> list[tuple]:
    """Split a token at its inline notes (§Notes): the token's own type for the text
    before the first note (possibly empty), then ``INLINE_NOTE`` and ``INLINE_TEXT`` (the
    text up to the next note or the token's end, when not empty) pieces. The pieces
    cover the token's text exactly."""
    ttype, start, stop = tok
    out: list[tuple] = []
    last = start
    for a, b in inline_notes(text[start:stop]):
        a += start
        b += start
        out.append((ttype, last, a))
        out.append(("INLINE_NOTE", a, b))
        ttype = "INLINE_TEXT"
        last = b
    if not out:
        return [tok]
    if last < stop:
        out.append(("INLINE_TEXT", last, stop))
    return out


def _stray_closes(tokens: list[tuple], problems: list[Problem], text: str, starts: list[int]) -> None:
    """Report each ``*/`` at the end of a line that closes no boneyard (§Boneyard has no
    nesting: in ``/* a /* b */ c */`` the first ``*/`` ends the boneyard), with the boneyard
    it probably belonged to: the last one before it. Notes (audit data) are not searched.
    ``starts`` are the offsets of the lines' starts (line ``k + 1`` starts at ``starts[k]``)."""
    boneyard: tuple | None = None
    for tok in tokens:
        ttype, tstart, tend = tok
        if ttype in ("NOTE", "LEADING_NOTE", "INLINE_NOTE", "BLANK", "TITLE_KEY", "TITLE_CONT", "BOM"):
            continue
        value = text[tstart:tend]
        start = 0
        if ttype in ("BONEYARD", "LEADING_BONEYARD"):
            boneyard = tok
            opened = value.find("/*")
            start = value.find("*/", opened + 2) + 2  # past the close that ends it
        if "*/" not in value[start:]:
            continue
        depth = 0  # inline /* ... */ pairs in running text are boneyards too
        k = start
        o = -2  # the next "/*" at or after k (-1: none left); found again only once k passes it
        while True:
            if o != -1 and o < k:
                o = value.find("/*", k)
            c = value.find("*/", k)
            if c < 0:
                break
            if 0 <= o < c:
                depth += 1
                k = o + 2
                continue
            k = c + 2
            if depth:
                depth -= 1
                continue
            if not _CLOSE_AT_EOL_RE.match(value, c):
                continue
            line, col = _position(starts, tstart + c)
            if boneyard is not None:
                bline, bcol = _position(starts, boneyard[T_START])
                where = f"the boneyard at line {bline} column {bcol}"
                msg = (f"stray '*/' closes no boneyard: {where} already ended at its first '*/' "
                       "(boneyards do not nest)")
                problems.append(Problem("stray-boneyard-close", msg, line, col, tstart + c, bline, bcol))
            else:
                problems.append(Problem("stray-boneyard-close", "stray '*/' closes no boneyard (no '/*' before it)",
                                        line, col, tstart + c))
            break  # one report per element


def _run(emit, lines, i: int, ends_block, ttype: str, member) -> int:
    """Emit the consecutive lines from ``i`` that satisfy ``member`` as one token (``emit(ttype,
    first line, line after the last)``); the index of the line after them."""
    j = i + 1
    while not ends_block(j) and member(lines[j]):
        j += 1
    emit(ttype, i, j)
    return j


def _paragraph_end(lines: list[str], j: int) -> int:
    """The index of the first line from ``j`` that does not continue a paragraph (``len(lines)``
    if none): an empty line, a whitespace-only line of fewer than two leading spaces (one of 2+
    spaces continues it, B21), a line opening a boneyard (§Boneyard) or a ``~`` lyric line (a
    lyric is always forced, §Lyrics)."""
    n = len(lines)
    while j < n:
        c = lines[j]
        if not c:
            break
        c0 = c[0]
        if c0.isspace():
            st = c.strip()
            if (not c.startswith("  ")) if not st else (st[0] == "~" or st.startswith("/*")):
                break
        elif c0 == "~" or c0 == "/" and c.startswith("/*"):
            break
        j += 1
    return j

"""Reopen any element of a session by its id: the exact recorded text, sliced by lines.

:class:`Elements` resolves ids (:mod:`fountain_audit.model.ids`) against one session and
returns :class:`Element` objects: the element's dump record (as ``dump`` prints it, or a small
``scene`` / ``speech`` / ``stats`` / ``region`` / ``line`` record for what ``dump`` has no record
of), its code-point ``offset``/``end_offset`` into the decoded text and the source lines
between them. :func:`show_document` builds the JSON-ready ``show`` document (schema
``fountain_audit/schemas/show.schema.json``); :func:`render_text` prints it with a line-number
gutter, every line of session text passed through
:func:`fountain_audit.untrusted.terminal_safe`.

``--lines A:B`` (:func:`select_lines`) is 1-based, inclusive and relative to the element; an
end past the element is clamped (``Selection.clamped``), while ``0``, ``A > B``, a start past
the element or a malformed range raise :class:`ShowError` naming the valid range.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from fountain_audit.dump import (Span, SceneRef, ast_records, note_records, record_kinds, turn_records)
from fountain_audit.model.ids import ids_of
from fountain_audit.model.session import Session
from fountain_audit.parse.fountain import Blank, Node
from fountain_audit.parse.source import undecodable_bytes
from fountain_audit.untrusted import terminal_safe

#: Version of the ``show --format json`` document (``MAJOR.MINOR``; a minor change only adds fields).
#: 1.1: text is well-formed Unicode (an undecodable byte is U+FFFD); ``undecodable_bytes``.
#: 1.2: a scene's ``timestamp_form`` may be ``rfc3339`` (a hand-off heading's label, its time as
#: written), as in ``dump`` 1.5.
FORMAT_VERSION = "1.2"

_EOL_RE = re.compile(r"\r\n|\r|\n")
#: The ids of AST records (``dump --ast``): ``n4``, ``n1.2``, and ``doc``.
_AST_ID_RE = re.compile(r"n[0-9]+(?:\.[0-9]+)?|doc")
#: A turn's id or the id of one of its parts or notes (``t3``, ``t3.reply``, ``t3.tool2``): group 1 the turn.
_TURN_ID_RE = re.compile(r"(t[1-9][0-9]*)(?:\.[a-z][a-z-]*[0-9]*)?")
_LINES_RE = re.compile(r"(?P<a>[0-9]*):(?P<b>[0-9]*)|(?P<n>[0-9]+)")  # used with fullmatch: ASCII digits only
_ALL = record_kinds(["all"])


class ShowError(Exception):
    """A usage error of ``show`` (unknown id, bad ``--lines``): exit status 2, with a message
    that names the valid ids or the valid range."""


@dataclass(frozen=True, slots=True)
class Selection:
    """The lines of an element that are shown: ``start``..``end`` (1-based, inclusive, relative
    to the element) of ``total``; ``clamped`` when the requested end ran past the element."""

    start: int
    end: int
    total: int
    clamped: bool = False
    requested: str | None = None


@dataclass(slots=True)
class Element:
    """One addressable element: ``record`` (JSON-ready), ``offset``/``end_offset`` (0-based
    code points into the decoded text; end exclusive) and its first source ``line`` (1-based)."""

    id: str
    record: dict[str, Any]
    offset: int
    end_offset: int
    line: int


def source_lines(text: str) -> list[str]:
    """``text`` cut after each line terminator (CR, LF, CRLF), terminators kept; a last line
    without terminator is a line too. ``"a\\nb"`` → ``["a\\n", "b"]``; ``""`` → ``[]``."""
    out, start = [], 0
    for m in _EOL_RE.finditer(text):
        out.append(text[start:m.end()])
        start = m.end()
    if start < len(text):
        out.append(text[start:])
    return out


def select_lines(spec: str | None, total: int, ident: str) -> Selection:
    """Parse ``--lines`` (``A:B``, ``A:``, ``:B``, or ``N`` for ``N:N``) against an element of ``total`` lines.

    Returns the :class:`Selection` (all lines when ``spec`` is ``None``); an end past the
    element is clamped. Raises :class:`ShowError` for a malformed range, ``0``, ``A > B`` or a
    start past the element, with a message that names the valid range.
    """
    valid = f"valid: 1:{total} ({ident} has {total} line{'' if total == 1 else 's'})" if total \
        else f"{ident} is empty: no lines to select"
    if spec is None:
        return Selection(1, total, total)
    m = _LINES_RE.fullmatch(spec.strip())
    if not m:
        raise ShowError(f"--lines {spec!r} is not A:B (1-based, inclusive; A:, :B and N are accepted); {valid}")
    if m.group("n"):  # N: line N alone (N:N)
        a = b = _number(m.group("n"))
    else:
        a = _number(m.group("a")) if m.group("a") else 1
        b = _number(m.group("b")) if m.group("b") else max(total, a)
    if a == 0 or b == 0:
        raise ShowError(f"--lines {spec}: lines count from 1; {valid}")
    if a > b:
        raise ShowError(f"--lines {spec}: the start is after the end; {valid}")
    if a > total:
        raise ShowError(f"--lines {spec}: starts after the last line; {valid}")
    if b > total:
        return Selection(a, total, total, True, spec)
    return Selection(a, b, total, False, spec)


def _span_of_nodes(nodes: Iterable[Node]) -> Span | None:
    kept = [n for n in nodes if not isinstance(n, Blank)]
    return Span.of(kept[0], kept[-1]) if kept else None


class Elements:
    """The addressable elements of one session file (built on first lookup)."""

    def __init__(self, session: Session, file: str):
        self.session = session
        self.file = file
        self.text = session.document.text
        self.starts = [0] + [m.end() for m in _EOL_RE.finditer(self.text)]
        if self.starts[-1] == len(self.text) and len(self.starts) > 1:
            self.starts.pop()  # the text ends with a terminator: no empty last line
        self._records: dict[str, dict[str, Any]] | None = None
        self._ast: dict[str, dict[str, Any]] | None = None  # (see _ast_records, _session_records)
        self._sess: dict[str, dict[str, Any]] | None = None

    @property
    def line_count(self) -> int:
        """How many source lines the element spans (0 for an empty element)."""
        return 0 if not self.text else len(self.starts)

    def records(self) -> dict[str, dict[str, Any]]:
        """id → JSON-ready record, for every id but lines (in file order per kind): the session's
        (scenes, regions, turns and their parts, notes), then the AST's (``n…``, ``doc``); the
        two share no id."""
        if self._records is None:
            self._records = {**self._session_records(), **self._ast_records()}
        return self._records

    def _family(self, ident: str) -> dict[str, dict[str, Any]]:
        """The records among which ``ident`` is, if anywhere: the AST's for ``n…`` and ``doc``,
        else the session's (only those of its turn for a turn's id, ``t3`` or ``t3.…``). Each is
        built only when asked for (the AST's records are about half the time of reading every
        record of a large file, and a turn's id does not need them; the records of one turn are a
        fraction of the memory of all of them)."""
        if _AST_ID_RE.fullmatch(ident):
            return self._ast_records()
        m = _TURN_ID_RE.fullmatch(ident)
        if m is not None and self._sess is None and len(ident) <= 24:  # (int() of a typed turn number: short)
            return self._read_session_records(m.group(1))
        return self._session_records()

    def _ast_ids(self) -> list[str]:
        """The AST's ids, as :meth:`_ast_records` names them (``doc``, ``n…``, ``n….…`` for a
        title page's entries and an element's inline notes), without building its records."""
        from fountain_audit.model.ids import node_id
        from fountain_audit.parse.fountain import TitlePage
        out = ["doc"]
        for i, node in enumerate(self.session.document.children):
            out.append(node_id(i))
            kids = node.entries if isinstance(node, TitlePage) else node.inline_notes
            out.extend(node_id(i, j) for j in range(len(kids)))
        return out

    def _ast_records(self) -> dict[str, dict[str, Any]]:
        if self._ast is None:
            self._ast = self._read_ast_records()
        return self._ast

    def _session_records(self) -> dict[str, dict[str, Any]]:
        if self._sess is None:
            self._sess = self._read_session_records()
        return self._sess

    def _read_ast_records(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for rec in ast_records(self.session.document, self.file):
            j = rec.to_json()
            out[j["id"]] = j  # (an empty file's document has no span: it shows as no lines)
            for c in j.get("children", []):
                out[c["id"]] = c
        return out

    def _read_session_records(self, turn: str | None = None) -> dict[str, dict[str, Any]]:
        """id → record of the session's elements (see :meth:`records`); with ``turn`` (``"t3"``),
        only the records of that turn, its parts and notes, with the scenes and regions."""
        s, f = self.session, self.file
        out: dict[str, dict[str, Any]] = {}
        head = s.scenes[0].heading.offset if s.scenes else None
        pro = [n for n in s.document.children if head is None or n.offset < head]
        if s.epilogue:
            pro = [n for n in pro if n.offset < s.epilogue[0].offset]
        span = _span_of_nodes(pro)
        if span is not None:
            out["s0"] = {"record": "region", "id": "s0", "span": span.to_json()}
        for scene in s.scenes:
            ref = SceneRef.of(scene).to_json()
            span = _span_of_nodes([scene.heading, *scene.nodes])
            out[ref["id"]] = {"record": "scene", **ref, "span": span.to_json()}
        span = _span_of_nodes(s.epilogue)
        if span is not None:
            out["end"] = {"record": "region", "id": "end", "span": span.to_json()}
        ids = ids_of(s)
        wanted = only = None
        turns = s.turns
        if turn is not None:  # ("t3": index 2)
            wanted, only = turn + ".", int(turn[1:]) - 1
            turns = turns[only:only + 1]
        for turn_, rec in zip(turns, turn_records(s, f, only)):
            j = rec.to_json()
            out[j["id"]] = j
            for part in ("user", "forwarding", "reply"):
                if j[part] is not None:
                    out[j[part]["id"]] = {"record": "speech", **j[part]}
            for a in j["actions"]:
                out[a["id"]] = {"record": "speech", **a}
            if turn_.stats is not None:
                out[ids.of(turn_.stats)] = {"record": "stats", "id": ids.of(turn_.stats),
                                            "span": Span.of(turn_.stats).to_json()}
        for rec in note_records(s, f, _ALL, turn=only):
            if wanted is not None and not (rec.id or "").startswith(wanted):
                continue  # (a recall note of the turn: recall:ID, not one of the turn's ids)
            j = rec.to_json()
            out[j["id"]] = j
        return out

    def get(self, ident: str) -> Element:
        """The element called ``ident`` (read without the blanks and line ends around it: `` t1.user``
        is ``t1.user``). Raises :class:`ShowError` for an unknown id, with the nearest valid ids."""
        ident = ident.strip(" \t\r\n")  # (a pasted id may bring its line end)
        m = re.fullmatch(r"L([0-9]+)", ident)
        if m:
            n = _number(m.group(1))
            if not 1 <= n <= self.line_count:
                raise ShowError(f"unknown id {ident!r}: {self._lines_hint()}")
            start = self.starts[n - 1]
            end = self.starts[n] if n < len(self.starts) else len(self.text)
            span = self._span(start, end)
            return Element(ident, {"record": "line", "id": ident, "span": span.to_json()}, start, end, n)
        node = _NODE_ID_RE.fullmatch(ident) if self._ast is None else None
        if node is not None:  # one AST node's record, not every node's (2.8 s for 80,000 nodes)
            rec = _one_node(self.session.document, self.file, ident, int(node.group(1)) - 1)
        else:
            rec = self._family(ident).get(ident)
        if rec is None and ident == "end":  # a valid id, in a file that ends with THE END.
            raise ShowError("no element 'end': the file does not end with an end marker (THE END. as its last "
                            "element; one that more content follows is part of its scene: lint S106 reports it)")
        if rec is None:
            raise ShowError(f"unknown id {ident!r}: {self.nearest(ident)}")
        span = rec.get("span")
        if span is None:
            return Element(ident, rec, 0, 0, 1)
        return Element(ident, rec, span["offset"], span["end_offset"], span["line"])

    def _span(self, start: int, end: int) -> Span:
        import bisect
        line = bisect.bisect_right(self.starts, start)
        last = bisect.bisect_right(self.starts, max(start, end - 1))
        body = self.text[self.starts[last - 1]:end].rstrip("\r\n")
        return Span(line, start - self.starts[line - 1] + 1, last, len(body) + 1, start, end)

    def _lines_hint(self) -> str:
        n = self.line_count
        return f"the file has lines L1–L{n}" if n else "the file is empty"

    def nearest(self, ident: str) -> str:
        """A hint naming the valid ids nearest to the unknown ``ident`` (read without the blanks
        around it: `` 39`` is a line number, as ``39``)."""
        ident = ident.strip()
        # the session's records, and the AST's ids only (its records, built for a hint, took 3.7 s of
        # a 4.4 s hint on 80,000 nodes: adversarial trial, stop 37)
        recs = self._records if self._records is not None else {**self._session_records(),
                                                                **dict.fromkeys(self._ast_ids())}
        if ident.startswith("recall:"):
            recalls = [i for i in recs if i.startswith("recall:")]
            if not recalls:
                return "the file has no recall note with a recorded id"
            close = difflib.get_close_matches(ident, recalls, 3, 0.5)
            return "did you mean " + ", ".join(close) + "?" if close else \
                "the file's recall notes are " + _compress(recalls)
        head = re.match(r"(s|t|n)(\d+)", ident)
        if head and "." in ident:
            owner, part = ident.split(".", 1)
            if owner in recs:
                folded = [i for i in recs if i.lower() == ident.lower()]  # (ids are lower case: t1.Reply is t1.reply)
                if folded:
                    return "did you mean " + folded[0] + "?"
                inner = [i for i, r in recs.items() if i.startswith(owner + ".") or (
                    r is not None and i.startswith("recall:") and (r.get("scene") or {}).get("id") == owner
                    and r.get("turn") is None)]
                return f"{owner} has " + (_compress(inner) if inner else "no notes or parts")
            # the same part of another owner (t1.rag1 in a file whose note before any turn is s0.rag1)
            same = [i for i in recs if i.partition(".")[2] == part and i.partition(".")[0] != owner]
            if same:
                return "did you mean " + ", ".join(same[:3]) + "? " + self._owners(head.group(1), recs)
        if head:
            return self._owners(head.group(1), recs)
        return self._other(ident, recs)

    def _owners(self, letter: str, recs: dict) -> str:
        """The hint for an unknown id that starts with ``letter`` (``s``, ``t``, ``n``) and a
        number: the file's scenes, turns or AST nodes (or that it has none)."""
        word = {"s": "scenes", "t": "turns", "n": "AST nodes"}[letter]
        top = [i for i in recs if re.fullmatch(rf"{letter}\d+", i) and i != "s0"]  # (s0: text before any scene)
        if top:
            return f"the file has {word} {_compress(top)}"
        scenes = [i for i in recs if re.fullmatch(r"s\d+", i) and i != "s0"]
        if letter == "t" and scenes:  # a screenplay, or scenes without turns: its scenes can be shown
            return f"the file has no turns; its scenes are {_compress(scenes)}"
        if letter == "s" and "s0" in recs:  # no scene heading: all its text before any end marker is s0
            return "the file has no scenes; s0 is its text" + (" before the end marker (end)" if "end" in recs
                                                                else "")
        return f"the file has no {word}"

    def _other(self, ident: str, recs: dict) -> str:
        """The hint for an unknown id that names no scene, turn or node: a line, a case slip, a
        close id."""
        line = re.fullmatch(r"[Ll][ \t]*([0-9]+)", ident)  # (`l39`, `L 39`: the line id L39)
        if line and self.line_count:
            n = _number(line.group(1))
            return (f"did you mean L{n}? " if 1 <= n <= self.line_count else "") + self._lines_hint()
        if ident.startswith("L"):
            return self._lines_hint()
        if ident.isascii() and ident.isdigit() and self.line_count:  # a bare number: a line, as `show F 39`
            # meant L39 (ASCII digits: '²' is a digit to str.isdigit, not to int())
            n = _number(ident)
            return (f"did you mean L{n}? " if 1 <= n <= self.line_count else "") + self._lines_hint()
        folded = [i for i in recs if i.lower() == ident.lower()]  # ids are lower case: T1 is t1
        close = folded or difflib.get_close_matches(ident, list(recs), 3, 0.6)
        hint = "ids look like s3, t3, t3.reply, t3.tool2, recall:ID, n4, doc, L120 (README: Ids)"
        return ("did you mean " + ", ".join(close) + "? " if close else "") + hint


#: An AST node's id (``n4``, ``n1.2``: a title page's entry or an inline note), its node's number.
_NODE_ID_RE = re.compile(r"n([1-9][0-9]{0,17})(?:\.[1-9][0-9]{0,17})?")


def _one_node(document, file: str, ident: str, index: int) -> dict[str, Any] | None:
    """The record called ``ident`` among those of ``document``'s top-level node ``index`` (the
    node's, or one of its children's), or ``None``."""
    from fountain_audit.dump import ast_node_record
    rec = ast_node_record(document, file, index)
    if rec is None:
        return None
    j = rec.to_json()
    return j if j["id"] == ident else next((c for c in j.get("children", []) if c["id"] == ident), None)


def _number(digits: str) -> int:
    """A line number typed by the user: ``int(digits)``, or 10**18 (past any file) for more
    than 18 digits (Python refuses to convert 4,300+ digits; nothing that long is a line)."""
    return int(digits) if len(digits) <= 18 else 10**18


def _compress(ids: list[str]) -> str:
    """``["t1", "t2", "t3", "t5"]`` → ``"t1–t3, t5"``; ``t3.tool1..3`` → ``t3.tool1–t3.tool3``."""
    runs: list[list[tuple[str, int, str]]] = []
    for i in ids:
        m = re.fullmatch(r"(.*?)(\d{1,18})", i)  # (a longer number: no run; int() refuses 4,300+ digits)
        if not m:
            runs.append([(i, -1, i)])
            continue
        prefix, k = m.group(1), int(m.group(2))
        last = runs[-1][-1] if runs else None
        if last is not None and last[0] == prefix and last[1] == k - 1:
            runs[-1].append((prefix, k, i))
        else:
            runs.append([(prefix, k, i)])
    parts = [r[0][2] if len(r) == 1 else f"{r[0][2]}–{r[-1][2]}" for r in runs]
    if len(parts) > 12:
        parts = parts[:12] + [f"… ({len(parts) - 12} more)"]
    return ", ".join(parts)


# --------------------------------------------------------------------------- the show document


def element_entry(elements: Elements, ident: str, lines: str | None,
                  cut: Callable[[str, int, int], str] | None = None) -> tuple[dict[str, Any], Selection]:
    """The JSON-ready entry of one element: its record plus ``text`` (the exact source of
    the selected lines) and ``lines`` (the :class:`Selection`, with absolute ``first_line``
    and ``last_line``). ``cut(text, start, end)``, if given, gives the shown ``text`` from the
    whole file's text and the selection's 0-based span (``--redact``: secrets found in the whole
    file, masked in the slice). Raises :class:`ShowError`."""
    el = elements.get(ident)
    chunk = source_lines(elements.text[el.offset:el.end_offset])
    sel = select_lines(lines, len(chunk), ident)
    text = "".join(chunk[sel.start - 1:sel.end]) if sel.total else ""
    if cut is not None and text:
        start = el.offset + sum(len(line) for line in chunk[:sel.start - 1])
        text = cut(elements.text, start, start + len(text))
    entry = {**el.record, "text": text,
             "lines": {"start": sel.start, "end": sel.end, "total": sel.total, "clamped": sel.clamped,
                       "first_line": el.line + sel.start - 1, "last_line": el.line + sel.end - 1}}
    return entry, sel


def show_document(session: Session, file: str, ids: list[str], lines: str | None = None,
                  cut: Callable[[str, int, int], str] | None = None) -> tuple[dict[str, Any], list[str]]:
    """The ``show`` document ``{"format_version", "file", "elements": [...]}`` for ``ids`` in
    order, and the notes to print on standard error (clamped ranges). Every id is checked
    before anything is returned. Raises :class:`ShowError` naming each id that fails (``; ``
    between them).

    When the file has bytes that are not UTF-8 the document also has ``undecodable_bytes``
    (:func:`fountain_audit.parse.source.undecodable_bytes`: where they are; its JSON text
    fields carry U+FFFD for them). ``cut``: see :func:`element_entry`."""
    elements = Elements(session, file)
    out, notes, errors = [], [], []
    for ident in ids:
        try:
            entry, sel = element_entry(elements, ident, lines, cut)
        except ShowError as e:  # (each bad id said, not only the first: new-user trial, stop 38)
            if str(e) not in errors:
                errors.append(str(e))
            continue
        if sel.clamped:
            notes.append(f"--lines {sel.requested} clamped to {sel.start}:{sel.end} "
                         f"({ident} has {sel.total} line{'' if sel.total == 1 else 's'})")
        out.append(entry)
    if errors:
        raise ShowError("; ".join(errors))
    doc: dict[str, Any] = {"format_version": FORMAT_VERSION, "file": file, "elements": out}
    runs = undecodable_bytes(session.document.text)
    if runs:
        doc["undecodable_bytes"] = runs
    return doc, notes


#: Styles (click.style keyword arguments) of the line classes of the lexer, for a terminal.
STYLES: dict[str, dict[str, Any]] = {
    "SCENE_HEADING": {"bold": True, "fg": "yellow"}, "CHARACTER": {"bold": True, "fg": "cyan"},
    "PARENTHETICAL": {"fg": "cyan"}, "NOTE": {"fg": "magenta"}, "BONEYARD": {"dim": True},
    "TRANSITION": {"fg": "yellow"}, "TITLE_KEY": {"fg": "green"}, "TITLE_CONT": {"fg": "green"},
    "SECTION": {"fg": "blue"}, "SYNOPSIS": {"fg": "blue"},
}


def line_classes(session: Session) -> dict[int, str]:
    """1-based line → the lexer's line class of the token on it (``NOTE``, ``DIALOGUE`` ...)."""
    out: dict[int, str] = {}
    for node in session.document.children:
        kids = getattr(node, "entries", None) or [node]
        for n in kids:
            for t in n.tokens:
                for k in range(t.line, t.end_line + 1):
                    out.setdefault(k, t.type)
    return out


def render_text(document: dict[str, Any], classes: dict[int, str] | None = None,
                style: Callable[..., str] | None = None) -> str:
    """The ``show`` document as text: for each element its selected lines, each as
    ``NUMBER | TEXT`` (right-aligned numbers); with several elements, each starts with a
    ``==> ID <==`` line and a blank line separates them. Session text is passed through
    :func:`terminal_safe`. ``style(text, **STYLES[cls])`` colours a line by its line class
    (``classes``); without ``style`` the output is plain."""
    out: list[str] = []
    many = len(document["elements"]) > 1
    for k, el in enumerate(document["elements"]):
        if many:
            if k:
                out.append("\n")
            out.append(f"==> {terminal_safe(el['id'])} <==\n")
        first = el["lines"]["first_line"]
        chunk = source_lines(el["text"])
        width = len(str(first + max(len(chunk), 1) - 1))
        for j, raw in enumerate(chunk):
            n = first + j
            body = terminal_safe(raw.rstrip("\r\n"))  # (one terminator per line at most)
            gutter = f"{n:>{width}} |"
            if style is not None:
                gutter = style(gutter, fg="blue")
                cls = (classes or {}).get(n)
                if body and cls in STYLES:
                    body = style(body, **STYLES[cls])
            out.append(gutter + (" " + body if body else "") + "\n")
    return "".join(out)

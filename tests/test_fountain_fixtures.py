"""How far our Fountain classification agrees with other parsers' golden outputs.

Three third-party references, read from ``../shared`` (never copied into the repo):

* **fountain-tools** (wildwinter): ``expected/fountaintools__X__expected__X.txt`` is
  ``Script.dump()`` of ``fountaintools__X.fountain``, one ``TYPE:"text"`` element per line.
  We render our AST the same way and compare the element sequences.
* **CASES.md** (``shared/cases``): the expected element type of every line of each
  ``B*.fountain`` case. We compare per line.
* **rsdoiel** (``sample-07``, *Charade*): every character cue's name must be in
  ``sample-07-characters.txt``.

The agreement rates are regression floors: they were measured on the lexer as it is now
and rounded down to three decimals. Raise them when the lexer improves; a drop means a
classification changed for the worse (run ``pytest -s`` for the table and the diffs).
"""

from __future__ import annotations

import difflib
import functools
import re


import pytest

from fountain_audit import parse
from fountain_audit.parse.fountain import Dialogue, Document

from .conftest import SHARED  # noqa: E402
CORPUS = SHARED / "corpus" / "fountain"
CASES = SHARED / "cases"

if not CORPUS.is_dir() or not CASES.is_dir():
    pytest.skip(f"third-party reference data not found at {SHARED}", allow_module_level=True)

# --- regression floors (measured values, rounded down to 3 decimals) -----------------

FOUNTAINTOOLS_FLOOR = {
    "Boneyards": 1.0,
    "Character": 0.97,  # deliberate: `3CPO` is a cue per Fountain 1.1 ("at least one letter")
    "LineBreaks": 1.0,
    "Lyrics": 1.0,
    "Notes": 0.8,  # their note extraction drops the blank line that ends the dialogue
    "SceneHeading": 1.0,
    "TitlePage": 1.0,
}
FOUNTAINTOOLS_TOTAL_FLOOR = 0.978
CASES_FLOOR = {
    "B02": 1.0,
    "B03": 1.0,
    "B08": 1.0,
    "B10": 1.0,
    "B11": 1.0,
    "B12": 1.0,
    "B14": 1.0,
    "B18": 1.0,
    "B21": 1.0,
    "B24": 1.0,
}
CASES_TOTAL_FLOOR = 1.0
# The list names speakers, not written cues: `REGGIE'S VOICE` and `"BARTHOLOMEW"` are cues.
RSDOIEL_CHARACTER_FLOOR = 0.951
RSDOIEL_SPEAKER_FLOOR = 0.994
RSDOIEL_LIST_COVERAGE_FLOOR = 1.0

_EPS = 1e-9


def _norm(text: str) -> str:
    """Collapse all whitespace runs to one space and strip."""
    return " ".join(text.split())


def _rate(matches: int, total: int) -> float:
    return matches / total if total else 1.0


# --- fountain-tools element dumps -----------------------------------------------------

_FT_TYPES = ("TITLEENTRY|HEADING|ACTION|CHARACTER|DIALOGUE|PARENTHETICAL|LYRIC|TRANSITION"
             "|PAGEBREAK|NOTE|BONEYARD|SECTION|SYNOPSIS")
_FT_RECORD_RE = re.compile(rf"^(\[\[\d+\]\]|/\*\d+\*/)?({_FT_TYPES}):", re.M)
_FT_ANCHOR_RE = re.compile(r"\[\[\d+\]\]|/\*\d+\*/")
_FT_BODY_RE = {
    "TITLEENTRY": re.compile(r'"(.*?)":"(.*)"', re.S),
    "HEADING": re.compile(r'"(.*)"(?: \(([^()"]*)\))?', re.S),
    "CHARACTER": re.compile(r'"(.*?)"(?: "\((.*)\)")?( \(Dual\))?', re.S),
    "SECTION": re.compile(r'"(.*)" \((\d+)\)', re.S),
    "ACTION": re.compile(r'"(.*)"( \(centered\))?', re.S),
}
_FT_PLAIN_RE = re.compile(r'"(.*)"', re.S)
_CONTD_RE = re.compile(r"\(\s*CONT[’']D\s*\)", re.I)
_SCENE_NUMBER_RE = re.compile(r"^(.*?)(?:\s*#([a-zA-Z0-9\-.]+)#)?$", re.S)
_INLINE_NOTE_RE = re.compile(r"\[\[.*?\]\]", re.S)
_INLINE_BONEYARD_RE = re.compile(r"/\*.*?\*/", re.S)


def _character_text(name: str, ext: str | None, dual: bool) -> str:
    return _norm(name + (f" ({ext})" if ext else "") + (" ^" if dual else ""))


def parse_fountaintools_dump(dump: str) -> list[tuple[str, str]]:
    """The (TYPE, normalised text) elements of a fountain-tools ``Script.dump()``.

    Notes and boneyards (the records after the elements) are dropped and their
    ``[[n]]`` / ``/*n*/`` anchors removed from the element texts.
    """
    starts = list(_FT_RECORD_RE.finditer(dump))
    out = []
    for k, m in enumerate(starts):
        anchor, etype = m.group(1), m.group(2)
        stop = starts[k + 1].start() if k + 1 < len(starts) else len(dump)
        body = dump[m.end():stop].rstrip("\n")
        if anchor or etype in ("NOTE", "BONEYARD"):
            continue
        body = _FT_ANCHOR_RE.sub("", body)
        bm = _FT_BODY_RE.get(etype, _FT_PLAIN_RE).fullmatch(body)
        assert bm, f"unparsable fountain-tools record {etype}:{body!r}"
        if etype == "TITLEENTRY":
            text = f"{bm.group(1)}: {_norm(bm.group(2))}"
        elif etype == "HEADING":
            text = bm.group(1) + (f" ({bm.group(2)})" if bm.group(2) else "")
        elif etype == "CHARACTER":
            text = _character_text(bm.group(1), bm.group(2), bool(bm.group(3)))
        elif etype == "SECTION":
            text = f"{bm.group(1)} ({bm.group(2)})"
        elif etype == "ACTION":
            text = bm.group(1) + (" (centered)" if bm.group(2) else "")
        else:
            text = bm.group(1)
        out.append((etype, _norm(text)))
    return out


def _strip_inline(text: str) -> str:
    """Our element text without inline notes and boneyards (fountain-tools hoists them out)."""
    return _INLINE_BONEYARD_RE.sub("", _INLINE_NOTE_RE.sub("", text))


def _content(tok) -> str:
    return tok.value.rstrip("\r\n")


def to_fountaintools_elements(doc: Document) -> list[tuple[str, str]]:
    """Our AST as fountain-tools would dump it: (TYPE, normalised text) pairs.

    Forcing marks (``!``, ``@``, ``.``, ``>``), ``~``, parentheses around
    parentheticals, ``(CONT'D)`` and scene numbers ``#..#`` are rendered the way
    fountain-tools renders them; consecutive ACTION elements are merged (also
    across blank lines, notes and boneyards), as fountain-tools does.
    """
    out: list[tuple[str, str]] = []

    def add(etype: str, text: str) -> None:
        text = _norm(_strip_inline(text))
        if etype == "ACTION" and out and out[-1][0] == "ACTION" and not out[-1][1].endswith("(centered)"):
            out[-1] = ("ACTION", _norm(out[-1][1] + " " + text))
        elif etype == "DIALOGUE" and out and out[-1][0] == "DIALOGUE":
            out[-1] = ("DIALOGUE", _norm(out[-1][1] + " " + text))
        else:
            out.append((etype, text))

    for node in doc.children:
        t = node.type
        if t == "title_page":
            for e in node.entries:
                add("TITLEENTRY", f"{e.key}: {_norm(e.value)}")
        elif t == "scene_heading":
            s = node.text.strip()
            if s.startswith("."):
                s = s[1:]
            m = _SCENE_NUMBER_RE.match(s)
            add("HEADING", m.group(1).strip() + (f" ({m.group(2)})" if m.group(2) else ""))
        elif t == "action":
            s = node.text.lstrip()
            add("ACTION", s[1:] if s.startswith("!") else s)
        elif t == "dialogue":
            assert isinstance(node, Dialogue)
            ext = _CONTD_RE.sub("", node.extensions).strip()
            ext = ext[1:-1].strip() if ext.startswith("(") and ext.endswith(")") else (ext or None)
            out.append(("CHARACTER", _character_text(node.character, ext, node.dual)))
            for tok in node.tokens[1:]:
                s = _content(tok).strip()
                if tok.type == "PARENTHETICAL":
                    add("PARENTHETICAL", s.strip("()"))
                elif tok.type == "DIALOGUE_LYRIC":
                    add("LYRIC", s[1:])
                else:
                    add("DIALOGUE", tok.value)
        elif t == "transition":
            s = node.text.strip()
            add("TRANSITION", s[1:] if s.startswith(">") else s)
        elif t == "centered":
            for line in node.lines:
                s = line.strip()
                out.append(("ACTION", _norm(s[1:-1]) + " (centered)"))
        elif t == "lyrics":
            for line in node.lines:
                add("LYRIC", line.strip()[1:])
        elif t == "section":
            s = node.text.strip()
            depth = len(s) - len(s.lstrip("#"))
            add("SECTION", f"{s[depth:].strip()} ({depth})")
        elif t == "synopsis":
            add("SYNOPSIS", node.text.strip()[1:])
        elif t == "page_break":
            add("PAGEBREAK", "")
        # blank, note, boneyard, byte_order_mark: not elements in the comparison
    return out


def _fountaintools_fixtures() -> list[str]:
    names = []
    for p in sorted(CORPUS.glob("expected/fountaintools__*__expected__*.txt")):
        name = p.name.split("__")[1]
        if name != "Formatted":  # an HTML rendering, not a parser dump
            names.append(name)
    return names


@functools.cache
def fountaintools_comparison(name: str):
    """(matches, expected count, their elements, our elements) for one fixture."""
    src = (CORPUS / f"fountaintools__{name}.fountain").read_text(encoding="utf-8")
    dump = (CORPUS / "expected" / f"fountaintools__{name}__expected__{name}.txt").read_text(encoding="utf-8")
    theirs = parse_fountaintools_dump(dump)
    ours = to_fountaintools_elements(parse(src))
    sm = difflib.SequenceMatcher(None, theirs, ours, autojunk=False)
    matches = sum(b.size for b in sm.get_matching_blocks())
    return matches, len(theirs), theirs, ours


# --- CASES.md per-line types ---------------------------------------------------------

_NODE_LINE_TYPE = {"title_page": "title_page", "lyrics": "lyric", "centered": "centered"}
_TOKEN_LINE_TYPE = {"CHARACTER": "character", "PARENTHETICAL": "parenthetical",
                    "DIALOGUE": "dialogue", "DIALOGUE_LYRIC": "lyric"}


def line_types(doc: Document) -> dict[int, str]:
    """Our element type for each physical line (1-based), in CASES.md vocabulary."""
    out: dict[int, str] = {}
    for node in doc.children:
        if node.type == "byte_order_mark":
            continue
        for tok in node.tokens:
            if node.type == "dialogue":
                kind = _TOKEN_LINE_TYPE[tok.type]
            else:
                kind = _NODE_LINE_TYPE.get(node.type, node.type)
            for ln in range(tok.line, tok.end_line + 1):
                out[ln] = kind
    return out


@functools.cache
def case_tables() -> dict[str, list[tuple[int, str, str]]]:
    """For each ``B*.fountain`` case with a table: (line, expected type, raw cell) rows."""
    text = (CASES / "CASES.md").read_text(encoding="utf-8")
    tables = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        m = re.search(r"\*\*File:\*\* `cases/(B\d+)\.fountain`", section)
        if not m:
            continue
        rows = []
        for row in re.findall(r"^\|.*\|\s*$", section, flags=re.M):
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            if not cells[0].isdigit():
                continue  # header, separator, or the "(no lines)" row of B20
            tm = re.match(r"[a-z_]+", cells[-1])
            rows.append((int(cells[0]), tm.group(0) if tm else cells[-1], cells[-1]))
        tables[m.group(1)] = rows
    return tables


def _case_ok(expected: str, cell: str, ours: str | None) -> bool:
    # "†": FADE IN: may be a transition or action (CASES.md); never a character.
    if "†" in cell:
        return ours in ("transition", "action")
    return ours == expected


@functools.cache
def case_comparison(case: str):
    """(matches, rows, [(line, expected, ours)] disagreements) for one case."""
    src = (CASES / f"{case}.fountain").read_bytes().decode("utf-8")
    ours = line_types(parse(src))
    rows = case_tables()[case]
    bad = [(ln, exp, ours.get(ln)) for ln, exp, cell in rows if not _case_ok(exp, cell, ours.get(ln))]
    return len(rows) - len(bad), len(rows), bad


# --- rsdoiel character names -----------------------------------------------------------

_POSSESSIVE_VOICE_RE = re.compile(r"(.+?)['’]S VOICE")


@functools.cache
def rsdoiel_comparison():
    """Our cue names against ``sample-07-characters.txt``.

    Returns (cues in list, cues in list once ``X'S VOICE`` is read as ``X``, total cues,
    list names we produce at least once, list size, Counter of cue names not in the list,
    list names we never produce).
    The list names the speaker of ``REGGIE'S VOICE (O.S.)`` cues ``REGGIE`` (``WOMAN`` is
    in it only through ``WOMAN'S VOICE``), so the second count tells naming apart from
    classification.
    """
    from collections import Counter

    names = {ln.strip() for ln in (CORPUS / "expected" / "rsdoiel__sample-07-charade__expected__"
                                   "sample-07-characters.txt").read_text(encoding="utf-8").splitlines()
             if ln.strip()}
    doc = parse((CORPUS / "rsdoiel__sample-07-charade.fountain").read_text(encoding="utf-8"))
    cues = [c.character for c in doc.children if isinstance(c, Dialogue)]
    speakers = [m.group(1) if (m := _POSSESSIVE_VOICE_RE.fullmatch(c)) else c for c in cues]
    missing = Counter(c for c in cues if c not in names)
    in_list = len(cues) - sum(missing.values())
    in_list_speakers = sum(s in names for s in speakers)
    unseen = sorted(names - set(cues) - set(speakers))
    return in_list, in_list_speakers, len(cues), len(names) - len(unseen), len(names), missing, unseen


# --- tests -----------------------------------------------------------------------------

def test_reference_inventory():
    """The references we measure against are all there and readable."""
    assert sorted(_fountaintools_fixtures()) == sorted(FOUNTAINTOOLS_FLOOR)
    assert sorted(case_tables()) == sorted([*CASES_FLOOR, "B20"])
    assert case_tables()["B20"] == []


def test_agreement_table():
    """Print every agreement rate (``pytest -s``) and check each against its floor."""
    lines = ["", "fountain-audit vs. reference parsers (agreement = matching / expected)",
             f"{'source':<40} {'match':>6} {'total':>6} {'rate':>7} {'floor':>7}"]
    failures = []

    def row(label, m, n, floor):
        r = _rate(m, n)
        lines.append(f"{label:<40} {m:>6} {n:>6} {r:>7.3f} {floor:>7.3f}")
        if r + _EPS < floor:
            failures.append(f"{label}: {r:.4f} < floor {floor}")

    diffs = []
    tm = tn = 0
    for name in _fountaintools_fixtures():
        m, n, theirs, ours = fountaintools_comparison(name)
        tm, tn = tm + m, tn + n
        row(f"fountain-tools {name}", m, n, FOUNTAINTOOLS_FLOOR[name])
        sm = difflib.SequenceMatcher(None, theirs, ours, autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op != "equal":
                diffs.append(f"  {name}: {op} theirs={theirs[i1:i2]} ours={ours[j1:j2]}")
    row("fountain-tools (all elements)", tm, tn, FOUNTAINTOOLS_TOTAL_FLOOR)

    cm = cn = 0
    for case in sorted(CASES_FLOOR):
        m, n, bad = case_comparison(case)
        cm, cn = cm + m, cn + n
        row(f"CASES.md {case}", m, n, CASES_FLOOR[case])
        diffs += [f"  {case}:{ln}: theirs={exp} ours={got}" for ln, exp, got in bad]
    row("CASES.md (all lines)", cm, cn, CASES_TOTAL_FLOOR)

    m, ms, n, seen, size, missing, unseen = rsdoiel_comparison()
    row("rsdoiel sample-07 cue names in list", m, n, RSDOIEL_CHARACTER_FLOOR)
    row("rsdoiel ... with X'S VOICE read as X", ms, n, RSDOIEL_SPEAKER_FLOOR)
    row("rsdoiel list names we produce", seen, size, RSDOIEL_LIST_COVERAGE_FLOOR)
    if missing:
        diffs.append(f"  rsdoiel: cue names not in list: {dict(missing.most_common())}")
    if unseen:
        diffs.append(f"  rsdoiel: list names never a cue of ours: {unseen}")

    print("\n".join(lines + ["disagreements:"] + diffs))
    assert not failures, failures


@pytest.mark.parametrize("name", sorted(FOUNTAINTOOLS_FLOOR))
def test_fountaintools_floor(name):
    m, n, _, _ = fountaintools_comparison(name)
    assert _rate(m, n) + _EPS >= FOUNTAINTOOLS_FLOOR[name]


@pytest.mark.parametrize("case", sorted(CASES_FLOOR))
def test_cases_floor(case):
    m, n, bad = case_comparison(case)
    assert _rate(m, n) + _EPS >= CASES_FLOOR[case], bad


def test_rsdoiel_character_floor():
    m, ms, n, seen, size, missing, unseen = rsdoiel_comparison()
    assert n > 1000  # sanity: the screenplay is parsed into dialogue at all
    assert _rate(m, n) + _EPS >= RSDOIEL_CHARACTER_FLOOR, missing.most_common(10)
    assert _rate(ms, n) + _EPS >= RSDOIEL_SPEAKER_FLOOR
    assert _rate(seen, size) + _EPS >= RSDOIEL_LIST_COVERAGE_FLOOR, unseen


def test_dump_parser_reads_suffixes():
    """Scene numbers, extensions and dual marks in fountain-tools dumps are understood."""
    dump = ('HEADING:"INT./EXT. HEADER" (3)\nCHARACTER:"BUT" "(Dual)" (Dual)\n'
            'ACTION:"a[[0]]\n\nb"\nTITLEENTRY:"Title":"\n    X\n    Y"\n[[0]]NOTE:"n"')
    assert parse_fountaintools_dump(dump) == [
        ("HEADING", "INT./EXT. HEADER (3)"), ("CHARACTER", "BUT (Dual) ^"),
        ("ACTION", "a b"), ("TITLEENTRY", "Title: X Y")]


# Exact classifications on which the references (CASES.md, fountain-tools) and we agree.
_CASE_LINES = [
    ("B08", 5, "action"),          # "...but misses" is no forced heading
    ("B10", 5, "action"),          # caps line without a blank line before it
    ("B11", 3, "action"),          # caps line followed by a blank line
    ("B11", 7, "character"),       # caps line, blank before, text after
    ("B11", 8, "dialogue"),
    ("B11", 10, "action"),         # !OUT BACK
    ("B11", 13, "action"),         # THE END. at end of file
    ("B12", 9, "character"),       # HANS (on the radio)
    ("B14", 8, "character"),       # @Ana
    ("B18", 7, "scene_heading"),   # int. kitchen - night
    ("B18", 11, "scene_heading"),  # INT HALLWAY
    ("B18", 13, "action"),         # INTERIOR DESIGN ...
    ("B21", 7, "dialogue"),        # two-space line keeps the block
    ("B21", 8, "dialogue"),
    ("B24", 7, "transition"),
    ("B24", 9, "transition"),      # > FADE TO BLACK.
    ("B02", 6, "note"),            # multi-line note
]


@pytest.mark.parametrize("case,line,expected", _CASE_LINES)
def test_case_line(case, line, expected):
    assert (line, expected) in {(ln, e) for ln, e, _ in case_tables()[case]}, "CASES.md changed"
    src = (CASES / f"{case}.fountain").read_bytes().decode("utf-8")
    assert line_types(parse(src))[line] == expected


def test_b24_has_no_character():
    doc = parse((CASES / "B24.fountain").read_text(encoding="utf-8"))
    assert "character" not in line_types(doc).values()
    assert not [c for c in doc.children if isinstance(c, Dialogue)]


def test_b20_empty_document():
    assert parse((CASES / "B20.fountain").read_text(encoding="utf-8")).children == []


_FIXTURE_LINES = [
    # fountaintools__SceneHeading.fountain (dump: HEADING / ACTION / TRANSITION)
    ("fountaintools__SceneHeading.fountain", 8, "transition"),      # indented CUT TO:
    ("fountaintools__SceneHeading.fountain", 10, "scene_heading"),  # ext. lower case
    ("fountaintools__SceneHeading.fountain", 12, "action"),         # ...where
    ("fountaintools__SceneHeading.fountain", 14, "scene_heading"),  # .FORCED HEADER
    ("fountaintools__SceneHeading.fountain", 21, "scene_heading"),  # EST ... #A3-1#
    ("fountaintools__SceneHeading.fountain", 23, "action"),         # . NOT A HEADER
    # fountaintools__Character.fountain
    ("fountaintools__Character.fountain", 13, "action"),     # BOB then a blank line
    ("fountaintools__Character.fountain", 20, "action"),     # Han (O. S.) lower case
    ("fountaintools__Character.fountain", 23, "character"),  # @Han (O.S.)
    ("fountaintools__Character.fountain", 32, "character"),  # 3CPO: Fountain 1.1 needs one letter (fountain-tools says action)
    ("fountaintools__Character.fountain", 38, "character"),  # @3CPO
    ("fountaintools__Character.fountain", 50, "action"),     # AND ^ (Dual)
    # fountaintools__LineBreaks.fountain
    ("fountaintools__LineBreaks.fountain", 27, "action"),     # !SCANNING THE AISLES
    ("fountaintools__LineBreaks.fountain", 39, "action"),     # after a truly empty line
    ("fountaintools__LineBreaks.fountain", 51, "dialogue"),   # after a two-space line
    # fountaintools__TitlePage.fountain
    ("fountaintools__TitlePage.fountain", 11, "title_page"),
    ("fountaintools__TitlePage.fountain", 12, "action"),      # Not a title entry.
]


@pytest.mark.parametrize("fixture,line,expected", _FIXTURE_LINES)
def test_fixture_line(fixture, line, expected):
    doc = parse((CORPUS / fixture).read_text(encoding="utf-8"))
    assert line_types(doc)[line] == expected

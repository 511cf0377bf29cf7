"""The public Python API: parse, parse_file, lint, lint_file, node properties and spans."""

from __future__ import annotations

from fountain_audit import lint, lint_file, parse, parse_file
from fountain_audit.parse.fountain import Dialogue, SceneHeading, TitlePage


def test_nodes_spans_and_properties():
    text = ("Title:\n    _BIG_\nAuthor: ALICE\n\nEXT. BRICK'S PATIO - DAY #1A#\n\n"
            "STEEL (V.O.) ^\n(beat)\nHello.\n  \nStill me.\n")
    doc = parse(text)
    tp, _, heading, _, dlg = doc.children
    assert isinstance(tp, TitlePage) and tp.get("title").value == "_BIG_" and tp.get("Author").value == "ALICE"
    assert isinstance(heading, SceneHeading)
    assert (heading.scene_number, heading.heading) == ("1A", "EXT. BRICK'S PATIO - DAY")
    assert (heading.line, heading.column, heading.end_line, heading.end_column) == (5, 1, 5, 30)
    assert isinstance(dlg, Dialogue)
    assert (dlg.character, dlg.extensions, dlg.dual) == ("STEEL", "(V.O.)", True)
    assert dlg.parentheticals == ["(beat)"] and dlg.speech == "Hello.\n  \nStill me."
    assert (dlg.line, dlg.end_line, dlg.end_column) == (7, 11, 10)  # end is exclusive
    assert doc.render() == text


def test_parse_file_and_lint_file_accept_str_paths(tmp_path):
    f = tmp_path / "x.spmd"
    data = b"INT. SHELL 2026-06-24 10:02:30\n\nALICE\ncaf\xe9\n"
    f.write_bytes(data)
    assert parse_file(str(f)).render().encode("utf-8", "surrogateescape") == data
    (d,) = lint_file(str(f))
    assert (d.path, d.line, d.column, d.code, d.message) == (
        str(f), 4, 4, "E101", "1 byte(s) not valid UTF-8 at byte offset 41")
    assert lint(data) == [type(d)("<string>", *[getattr(d, k) for k in (
        "line", "column", "code", "name", "severity", "message", "end_line", "end_column")])]

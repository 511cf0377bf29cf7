"""Memory: what the linter and the dump hold while they run (issue 9). The figures are
measured with ``tracemalloc`` on generated sessions and checked with wide margins; the
equivalences (a chunked scan finds what a whole-text scan finds) are exact."""

from __future__ import annotations

import pytest

from fountain_audit import lint
from fountain_audit.lint.rules import invalid_utf8


@pytest.mark.parametrize("at", [0, 5, 6, 7, 8, 13, 14, 20])
def test_invalid_utf8_found_in_any_chunk(monkeypatch, at):
    # A lone surrogate (an undecodable byte) before, on and after the chunk boundaries.
    text = "é" * 21
    text = text[:at] + "\udce9" + text[at + 1:]
    whole = [(d.line, d.column, d.message) for d in lint(text, select=["E101"])]
    assert whole == [(1, at + 1, f"1 byte(s) not valid UTF-8 at byte offset {2 * at}")]
    monkeypatch.setattr(invalid_utf8, "_CHUNK", 7)
    assert [(d.line, d.column, d.message) for d in lint(text, select=["E101"])] == whole
    assert invalid_utf8._encodable("é" * 20) and invalid_utf8._encodable("ascii only")
    assert not invalid_utf8._encodable(text)


# --- placements made as the linter walks the notes (model.session.iter_placements) ----------------

from pathlib import Path  # noqa: E402

from fountain_audit.lint.linter import lint_session, lint_text  # noqa: E402
from fountain_audit.model.session import Placement, build_session, iter_placements, placements  # noqa: E402
from fountain_audit.parse.fountain import parse  # noqa: E402
from fountain_audit.parse.source import read_path  # noqa: E402

SAMPLES = sorted(Path(__file__).resolve().parent.parent.joinpath("samples").rglob("*.spmd"))


def _placed(session):
    """Where each note is, by the builder's own structures (turn notes with their phases)."""
    where = {id(r): (s, t, ph) for s in session.scenes for t in s.turns for ph, r in t.notes}
    scene_of = {id(r): s for s in session.scenes for r in s.notes}
    return [Placement(r, *where.get(id(r), (scene_of.get(id(r)), None, None))) for r in session.notes]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_placements_made_on_demand(path):
    session = build_session(parse(read_path(path)))
    assert session._placements is None  # the builder keeps none
    walked = list(iter_placements(session))
    assert session._placements is None  # nor does a walk
    assert walked == placements(session) == _placed(session)
    assert [p.note for p in walked] == session.notes
    assert list(iter_placements(session)) == walked  # (now from the kept list)


def test_placements_of_a_hand_made_session():
    session = build_session(parse(read_path(SAMPLES[0])))
    assert session.notes
    session.notes = list(reversed(session.notes))  # not in scene order: placed note by note
    assert [p.note for p in iter_placements(session)] == session.notes


# --- rules' text-only work done before the model is built (Rule.prepare) -----------------------------

def test_prepared_rules_find_what_their_checks_find():
    from tests.privacy_session import build
    text, _ = build()
    text += "\nALICE\nsee /home/alice/x and /Users/bob/y\x07 in /home/bench/project\n"
    doc = parse(text)
    prepared = lint_text(text, "p.spmd")
    assert {"V101", "V102", "E102"} <= {d.code for d in prepared}
    assert prepared == lint_session(text, doc, build_session(doc), "p.spmd")  # (no prepare step there)


def test_home_paths_skipped_after_the_scan():
    import re

    from fountain_audit.privacy.detect import find_home_paths, skip_home_paths
    text = "a /home/alice/w b C:\\Users\\bob c /home/alice/other \\/home\\/carol"
    skip = re.compile(r"(?:/home/alice/w)", re.I)
    found = find_home_paths(text)
    assert [h.user for h in found] == ["alice", "bob", "alice", "carol"]
    assert skip_home_paths(text, found, skip) == find_home_paths(text, skip) == found[1:]
    assert skip_home_paths(text, found, None) == found


# --- ids named scene by scene (model.ids.SessionIds) ---------------------------------------------------

def _objects(session):
    from fountain_audit.model.session import inline_placements
    out = [*session.scenes, *session.turns, *session.notes, *(p.note for p in inline_placements(session))]
    for t in session.turns:
        out += [sp for sp in (t.user, t.forwarding, t.reply, t.stats, *t.actions, *t.prose_tool_calls) if sp is not None]
    for s in session.scenes:
        out += [*s.speeches, *s.nodes, s.heading]
    return out + list(session.prologue) + list(session.epilogue)


def _session_texts():
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import bench
    yield "generated", bench.generate_session(200_000)
    for p in SAMPLES:
        yield p.name, read_path(p)
    shared = Path(__file__).resolve().parent.parent.parent / "shared"
    if shared.is_dir():
        for p in sorted([*shared.rglob("*.spmd"), *shared.rglob("*.fountain")]):
            yield p.name, read_path(p)


def test_ids_named_scene_by_scene_are_the_ids_named_at_once():
    from fountain_audit.model.ids import SessionIds, _all_ids
    seen = 0
    for name, text in _session_texts():
        session = build_session(parse(text))
        ids = SessionIds(session)
        assert ids._by_scene, name
        every, recalls = _all_ids(session)
        objects = _objects(session)
        for obj in objects + list(reversed(objects)):  # (in any order: scenes named again when asked)
            assert ids.of(obj) == every.get(id(obj)), (name, obj)
        assert ids.recall_notes == recalls
        assert len(ids._tables) >= len(session.scenes)  # all kept (each scene's heading was asked)
        ids.keep_last(3)
        assert len(ids._tables) <= 3
        for obj in objects:
            assert ids.of(obj) == every.get(id(obj)), (name, obj)
        assert len(ids._tables) <= 3
        other = build_session(parse(text))  # the same text, another model: none of its objects
        assert ids.of(object()) is None and all(ids.of(o) is None for o in _objects(other))
        seen += len(every)
    assert seen > 3000


def test_ids_of_a_session_not_in_scene_order():
    from fountain_audit.model.ids import SessionIds, _all_ids
    session = build_session(parse(read_path(SAMPLES[0])))
    session.notes = list(reversed(session.notes))
    ids = SessionIds(session)
    assert not ids._by_scene and ids._ids == _all_ids(session)[0]


# --- what the model and the diagnostics hold ----------------------------------------------------------

def _generated(size: int) -> str:
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import bench
    return bench.generate_session(size)


def test_model_of_a_recorder_session_holds_under_10x_its_text():
    import tracemalloc
    text = _generated(1_000_000)
    build_session(parse(text[:20_000]))  # (the parsers and memo tables are loaded before measuring)
    tracemalloc.start()
    try:
        session = build_session(parse(text))
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(session.notes) > 6000
    # 11.9x before issue 9's work (a Placement and 7-key fields dict per note, copies of tool
    # arguments, names and kinds), 8.7x after it: objects per line and per note remain.
    assert held < 10 * len(text), held / len(text)


def test_repeated_strings_held_once():
    text = _generated(200_000)
    found = [d for d in lint_text(text, "g.spmd") if d.code == "R101"]
    assert len(found) > 100 and len({id(d.message) for d in found}) == len({d.message for d in found})
    session = build_session(parse(text))
    speakers = [sp.character for s in session.scenes for sp in s.speeches]
    assert len({id(c) for c in speakers}) == len(set(speakers))
    # a heading's place and groups, a forwarding target, a rag-source's values: held once each
    places = [s.info.place for s in session.scenes]
    users = [s.info.groups["b"] for s in session.scenes if s.kind == "chat"]
    targets = [t.target for t in session.turns if t.target]
    sources = [r.fields[k] for r in session.notes if r.kind == "rag-source" for k in ("source", "title", "doi")]
    for values in (places, users, targets, sources):
        assert len(values) > 100 and len({id(v) for v in values}) == len(set(values))
    # a tool call's fields tuple (name, status, layout) is shared by the records that repeat it
    calls = [r._fields for r in session.notes if r.kind == "tool"]
    assert len(calls) > 100 and all(c.__class__ is tuple for c in calls)
    assert len({id(c) for c in calls}) == len(set(calls)) < 10


def test_note_record_keeps_rare_values_apart():
    import copy
    import pickle

    from fountain_audit.parse.notes import NoteRecord, parse_note
    doc = parse("[[rag: nothing like a rag note]]\n\n[[rag: 2 chunks from s.db, top score 0.5]]\n")
    bad, good = (parse_note(n) for n in doc.children if n.type == "note")
    assert (bad.valid, bad.error_line, bad.error_column) == (False, 1, 8) and bad.error.startswith("malformed [[rag:]]")
    assert good._rare is None and (good.error, good.error_line, good.error_column) == (None, None, None)
    assert good.body == "rag: 2 chunks from s.db, top score 0.5"
    inline = NoteRecord("inline", good.node, "given body", fields={"element": "action"})
    assert inline.body == "given body" and inline.error is None
    twin = copy.copy(bad)
    twin.error = "changed"
    assert bad.error.startswith("malformed") and twin.error_line == 1
    again = pickle.loads(pickle.dumps(bad))
    assert (again.error, again.error_line, again.error_column, again.body) == \
        (bad.error, 1, 8, "rag: nothing like a rag note")


def test_invalid_utf8_found_after_a_wide_chunk(monkeypatch):
    # A chunk that is not Latin-1 (an em dash), then a lone surrogate in a later chunk.
    monkeypatch.setattr(invalid_utf8, "_CHUNK", 7)
    assert invalid_utf8._encodable("é" * 8 + "—" + "é" * 20)
    assert not invalid_utf8._encodable("é" * 8 + "—" + "é" * 10 + "\udce9" + "é" * 5)


def test_latin1_byte_form_finds_what_the_ascii_form_finds(monkeypatch):
    """RuleContext.ascii_bytes is the Latin-1 copy for a text below U+0100: every rule that reads
    it (E102, V101, V102) finds the same as with ``encode("ascii", "replace")``."""
    from fountain_audit.lint.rules import RuleContext
    from fountain_audit.privacy import detect

    text = ("Title: Séance\nAuthor: ÉLODIE\n\nINT. CAFÉ – NIGHT\n\nÉLODIE\nMon café: /home/élodie/x et /home/bob/y.\n"
            "password = 'Zq8#kLm2$vR9xT'\nAKIAIOSFODNN7EXAMPLE ghp_" + "aB3" * 12 + "\n\x07 ß ÿ key=\"Qw3rTy9!Lp0@Zx\"\n")
    text = text.replace("–", "-")  # (keep every code point below U+0100)
    assert text.encode("latin-1") and not text.isascii()
    latin = [(d.code, d.line, d.column, d.message) for d in lint_text(text, "x")]
    assert {"E102", "V101", "V102"} <= {c for c, *_ in latin}
    detect._LAST_FOUND = None
    monkeypatch.setattr(RuleContext, "ascii_bytes", lambda self: self.text.encode("ascii", "replace"))
    assert [(d.code, d.line, d.column, d.message) for d in lint_text(text, "x")] == latin

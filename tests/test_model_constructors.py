"""The model's hot paths make some objects without calling their ``__init__`` (one object a
scene, turn, speech, note or placement of a large session: issue 9). Each such maker must give
exactly what the constructor gives: every slot set, to an equal value. These tests fail when a
field is added to a class and not to its maker."""

from __future__ import annotations

from fountain_audit.model import session as sm
from fountain_audit.parse import notes as nm
from fountain_audit.parse.fountain import parse

TEXT = ("Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\n"
        "ALICE\nhi\n\nHARVEY\nForwarding to LLAMA.\n\n[[tool: read_file({\"path\":\"a\"}) — ok]]\n\n"
        "[[rag: 2 chunks from s.db, top score 0.80]]\n\nLLAMA\ndone\n")


def _slots(cls) -> list[str]:
    names = []
    for klass in cls.__mro__:
        names += [s for s in getattr(klass, "__slots__", ()) if s not in ("__dict__", "__weakref__")]
    return names


def _state(obj) -> dict:
    """Every slot's value (``<unset>`` for one never set), lists compared by content."""
    return {s: getattr(obj, s, "<unset>") for s in _slots(type(obj))}


def test_scene_turn_and_speech_makers_equal_their_constructors():
    doc = parse(TEXT)
    heading = next(n for n in doc.children if type(n).__name__ == "SceneHeading")
    dialogue = next(n for n in doc.children if type(n).__name__ == "Dialogue")
    info = sm.read_heading(heading.text)
    assert _state(sm._new_scene(3, heading, info)) == _state(sm.Scene(3, heading, info))
    assert _state(sm._new_turn(4, 3)) == _state(sm.Turn(4, 3, 0))
    assert _state(sm._new_speech(dialogue)) == _state(sm.Speech(dialogue))
    assert "<unset>" not in _state(sm.Scene(3, heading, info)).values()


def test_heading_info_as_read_equals_its_constructor():
    info = sm.read_heading("INT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00")
    again = sm.HeadingInfo(info.kind, info.place, info.timestamp, info.timestamp_form, info.annotation,
                           dict(info.groups))
    assert _state(info) == _state(again) and "<unset>" not in _state(info).values()


def test_note_records_made_in_place_equal_the_constructor_and_placements_equal_the_namedtuple():
    doc = parse(TEXT)
    for node in [n for n in doc.children if type(n).__name__ == "Note"]:
        nm._CONTEXT_FIELDS["rag"].clear()
        first, second = nm.parse_note(node), nm.parse_note(node)  # (the second from the rag table)
        for rec in (first, second):
            made = nm.NoteRecord(rec.kind, node, actor=rec.actor, fields=rec._fields, valid=rec.valid)
            assert _state(rec) == _state(made), rec.kind
    rec = nm.parse_note(next(n for n in doc.children if type(n).__name__ == "Note"))
    assert nm._valid_record("tool", rec.node, None, rec._fields).__class__ is nm.NoteRecord
    session = sm.build_session(doc)
    for p in sm.iter_placements(session):
        assert type(p) is sm.Placement and p == sm.Placement(p.note, p.scene, p.turn, p.phase)

"""Stable ids (fountain_audit.model.ids): exact ids on our sample, the grammar, uniqueness on
every sample and corpus file, and what does and does not change them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from fountain_audit.dump import dump_session, dump_text, record_kinds
from fountain_audit.model.ids import ID_RE, ids_of, note_group
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import parse
from fountain_audit.parse.source import read_path

from .conftest import SAMPLES, shared_files

ALL = record_kinds(["all"])
CLEAN = SAMPLES / "clean-session.spmd"


def record_ids(text: str, shape: str) -> list[str]:
    return [r.to_json()["id"] for r in dump_text(text, "x.spmd", shape, ALL)]


def all_ids(path) -> list[str]:
    """Every id dump prints for ``path``: records of all three shapes, the speeches of turns,
    the scenes records point at and title-page entries."""
    session = build_session(parse(read_path(path)))
    out: list[str] = []
    scenes: set[str] = set()
    for shape in ("dump", "turns", "ast"):
        for rec in dump_session(session, str(path), shape, ALL):
            j = rec.to_json()
            out.append(j["id"])
            if j.get("scene"):
                scenes.add(j["scene"]["id"])
            out += [j[k]["id"] for k in ("user", "forwarding", "reply") if j.get(k)]
            out += [a["id"] for a in j.get("actions", [])]
            out += [c["id"] for c in j.get("children", [])]
    return out + sorted(scenes)


def test_clean_session_note_ids_exact():
    assert record_ids(CLEAN.read_text(encoding="utf-8"), "dump") == [
        "recall:workspace_profile_8c41d2", "recall:preference_52aa07", "t1.rag1", "t1.rag-source1",
        "t1.rag-source2", "t1.tool1", "t1.tool2", "t1.tool3", "t1.memory-tool1", "t2.tool1", "s4.chunk1",
        "s4.chunk-result1", "s4.chunk-result2", "s4.synthesis1", "t3.tool1", "s6.shell1", "s6.model-switch1",
        "t4.tool1", "t4.tool2", "s9.write1", "s9.write2", "s9.write3", "t6.pipeline1", "t6.confidence1",
        "t7.pipeline1", "t7.confidence1", "s13.pipeline1"]


def test_clean_session_turn_and_speech_ids_exact():
    recs = [r.to_json() for r in dump_text(CLEAN.read_text(encoding="utf-8"), "x.spmd", "turns")]
    assert [(r["id"], r["scene"]["id"], r["reply"] and r["reply"]["id"], [a["id"] for a in r["actions"]])
            for r in recs] == [
        ("t1", "s2", "t1.reply", ["t1.action1", "t1.action2"]), ("t2", "s3", "t2.reply", []),
        ("t3", "s5", "t3.reply", []), ("t4", "s7", "t4.reply", []), ("t5", "s8", "t5.reply", []),
        ("t6", "s11", "t6.reply", []), ("t7", "s12", "t7.reply", [])]


def test_ast_ids_are_node_positions():
    recs = [r.to_json() for r in dump_text("Title: T\nAuthor: A\n\nFADE IN:\n", "x", "ast")]
    assert [r["id"] for r in recs] == ["doc", "n1", "n2", "n3"]
    assert [c["id"] for c in recs[1]["children"]] == ["n1.1", "n1.2"]


def test_prose_tool_calls_share_the_tool_group():
    text = (SAMPLES / "violations" / "L101-legacy-prose-tool-call.spmd").read_text(encoding="utf-8")
    assert record_ids(text, "dump") == ["t1.tool1"]


def test_repeated_recall_id_gets_an_occurrence_suffix():
    text = ("INT. CONTEXT RECALL 2026-01-01 10:00:00\n\n[[recall: p1 (preference) — score 0.90]]\n\n"
            "[[recall: p1 (preference) — score 0.80]]\n\n[[recall: x — score 2]]\n")
    # (a recall note whose id cannot be read is named by its position among the scene's recall notes)
    assert record_ids(text, "dump") == ["recall:p1", "recall:p1#2", "s1.recall3"]


@pytest.mark.parametrize("order, expected", [
    ((0.81, 0.50, "dup#2"), ["recall:dup", "recall:dup#2", "recall:dup#2#2"]),   # the written dup#2 after
    (("dup#2", 0.81, 0.50), ["recall:dup#2", "recall:dup", "recall:dup#3"]),     # ... and before
    ((0.81, "dup#2", 0.50, "dup#3", 0.40), ["recall:dup", "recall:dup#2", "recall:dup#3", "recall:dup#3#2",
                                            "recall:dup#4"]),
    ((0.81, "dup#2", "dup#2"), ["recall:dup", "recall:dup#2", "recall:dup#2#2"]),
])
def test_a_duplicate_suffix_never_takes_an_id_an_earlier_note_has(order, expected):
    """Named in file order: a note's recorded id, else (an earlier note has it) that id and the
    next free `#k`; ids are unique, and show reopens each note by its id."""
    from fountain_audit.audit.show import show_document

    notes = [f"[[recall: dup ({x}) — score {x}]]" if isinstance(x, float) else f"[[recall: {x} (p) — score 0.10]]"
             for x in order]
    text = "INT. CONTEXT RECALL 2026-06-24 10:00:00\n\n" + "\n\n".join(notes) + "\n"
    ids = record_ids(text, "dump")
    assert ids == expected and len(set(ids)) == len(ids)
    doc, _ = show_document(build_session(parse(text)), "x.spmd", ids)
    assert [e["span"]["line"] for e in doc["elements"]] == [3 + 2 * k for k in range(len(order))]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["dup", "dup#2", "dup#3", "dup#2#2", "x"]), min_size=1, max_size=8),
       st.sampled_from(["dup", "dup#2", "dup#3", "dup#2#2", "x"]))
def test_a_recall_note_added_at_the_end_renames_no_earlier_one(recorded, added):
    # (appending [[recall: a#2 …]] renamed an earlier recall:a#2 to recall:a#3, and `show recall:a#2`
    # then gave the new note; adversarial trial)
    def ids(names):
        notes = "\n\n".join(f"[[recall: {n} (p) — score 0.{k + 10}]]" for k, n in enumerate(names))
        return record_ids("INT. CONTEXT RECALL 2026-06-24 10:00:00\n\n" + notes + "\n", "dump")
    before, after = ids(recorded), ids([*recorded, added])
    assert after[:-1] == before and len(set(after)) == len(after)


def test_notes_before_the_first_scene():
    text = ("FADE IN:\n\n[[model switch: a (ollama) at 2026-01-01 10:00:00]]\n\n\n"
            "INT. HARVEY AND A TALKING 2026-01-01 10:00:01\n\nA\nhi\n\n[[stats: x]]\n\n\nTHE END.\n")
    assert record_ids(text, "dump") == ["s0.model-switch1", "t1.stats1"]


@pytest.mark.parametrize("kind, group", [("tool", "tool"), ("model switch", "model-switch"),
                                         ("add_memory", "memory-tool"), ("pipeline-stop", "pipeline"),
                                         ("rag-source", "rag-source")])
def test_note_groups_are_the_records_names(kind, group):
    assert note_group(kind) == group
    assert kind in record_kinds([group])


TURN = """INT. HARVEY AND A TALKING 2026-01-01 10:0{n}:00

A
question {n}

HARVEY
Forwarding to M.

[[tool: read_file({{"path":"a{n}"}}) — ok]]

[[tool: list_files() — ok]]

M
answer {n}


"""


def _ids_by_body(text: str) -> dict[str, str]:
    return {r.to_json()["body"]: r.to_json()["id"] for r in dump_text(text, "x", "dump", ALL)}


def test_ids_survive_edits_elsewhere_and_shift_only_on_insertions_before():
    base = "".join(TURN.format(n=n) for n in range(1, 4))
    before = _ids_by_body(base)
    assert before['tool: read_file({"path":"a3"}) — ok'] == "t3.tool1"
    # Editing reply text and arguments of other turns changes nothing else.
    edited = base.replace("answer 1", "a much longer answer\n\nover two paragraphs").replace('"a2"', '"b2"')
    after = _ids_by_body(edited)
    assert {k: v for k, v in after.items() if "a2" not in k and "b2" not in k} == \
        {k: v for k, v in before.items() if "a2" not in k}
    # A note of another group inserted before a tool call does not renumber it.
    rag = base.replace("A\nquestion 3", "[[rag: 2 chunks from d.db, top score 0.50]]\n\nA\nquestion 3")
    assert _ids_by_body(rag)['tool: list_files() — ok'] != "t3.tool1"
    assert _ids_by_body(rag)['tool: read_file({"path":"a3"}) — ok'] == "t3.tool1"
    # A tool call inserted before it in the same turn does.
    more = base.replace('[[tool: read_file({"path":"a3"}) — ok]]',
                        '[[tool: grep() — ok]]\n\n[[tool: read_file({"path":"a3"}) — ok]]')
    assert _ids_by_body(more)['tool: read_file({"path":"a3"}) — ok'] == "t3.tool2"


INPUTS = sorted(SAMPLES.rglob("*.spmd")) + shared_files()


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_every_dumped_id_is_unique_and_follows_the_grammar(path):
    ids = all_ids(path)
    assert all(ID_RE.match(i) for i in ids), [i for i in ids if not ID_RE.match(i)][:5]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})[:5]


def test_ids_are_computed_once_per_session():
    session = build_session(parse(CLEAN.read_text(encoding="utf-8")))
    assert ids_of(session) is ids_of(session)
    assert ids_of(session).of(session.scenes[0]) == "s1"
    assert ids_of(session).of(object()) is None

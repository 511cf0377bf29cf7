"""Each rule's documentation examples: the bad one triggers exactly that rule, the good one nothing."""

from __future__ import annotations

import re

import pytest

from fountain_audit.lint.linter import RuleSelectionError, Selection, lint_text, resolve_rules
from fountain_audit.lint.rules import all_rules

RULES = all_rules()


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_bad_example_triggers_exactly_this_rule(rule):
    assert rule.bad_example, f"{rule.code} has no '## Example' block"
    found = {d.code for d in lint_text(rule.bad_example, "bad", Selection.build())}
    assert found == {rule.code}


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_good_example_is_clean(rule):
    assert rule.good_example, f"{rule.code} has no '## Use instead' block"
    assert lint_text(rule.good_example, "good", Selection.build()) == []


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_rule_metadata(rule):
    assert re.fullmatch(r"[AEFHLNPRSTV]\d{3}", rule.code)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)
    assert rule.since in ("1.0", "1.1", "1.2", "1.3")
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## References"):
        assert section in rule.doc, (rule.code, section)


def test_codes_and_names_are_unique():
    assert len({r.code for r in RULES}) == len(RULES)
    assert len({r.name for r in RULES}) == len(RULES)


def test_selection_by_code_prefix_and_name():
    assert [r.code for r in resolve_rules(["P10"])] == ["P101", "P102", "P103", "P104"]
    assert [r.code for r in resolve_rules(["rag-before-dialogue", "S101"])] == ["P101", "S101"]
    sel = Selection.build(select=["P"], ignore=["P103"])
    assert [r.code for r in sel.rules] == ["P101", "P102", "P104"]
    with pytest.raises(RuleSelectionError, match="'rag-befor-dialogue'"):
        resolve_rules(["rag-befor-dialogue"])


def test_readme_rule_table_matches_the_registry():
    from pathlib import Path
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    rows = [f"| {r.code} | {r.name} | {r.severity} | {r.since} | {r.summary} |" for r in RULES]
    assert "\n".join(rows) in readme


_NO_DESCRIPTION = """Title: T
Author: ALICE

FADE IN:

INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

[[rag: 1 chunks from notes.db, top score 0.5]]

ALICE
Summarise the design doc.

HARVEY
Forwarding to LLAMA.

LLAMA
It proposes three services.

THE END.
"""


def test_rag_note_in_a_scene_without_description_is_in_place():
    """P101 judges a RAG note against the scene description only when there is one: with none,
    before the user's dialogue is the right place (it said "before the scene description")."""
    assert [(d.code, d.line) for d in lint_text(_NO_DESCRIPTION, "s.spmd", Selection.build(["P101"]))] == []
    moved = _NO_DESCRIPTION.replace("[[rag: 1 chunks from notes.db, top score 0.5]]\n\n", "").replace(
        "Summarise the design doc.\n", "Summarise the design doc.\n\n[[rag: 1 chunks from notes.db, top score 0.5]]\n")
    assert [(d.code, d.line, d.message) for d in lint_text(moved, "s.spmd", Selection.build(["P101"]))] == [
        ("P101", 11, "[[rag:]] note after the user's dialogue (line 8); it belongs before the user's dialogue")]


def test_chat_scene_without_description_in_a_whole_session():
    """H106: a whole session's chat scene with no description at all records no model and no
    workspace: reported at its heading; a fragment (a spec excerpt, no title page) is not."""
    found = [(d.code, d.line, d.column, d.end_column, d.message)
             for d in lint_text(_NO_DESCRIPTION, "s.spmd", Selection.build(["H106"]))]
    assert found == [("H106", 6, 1, 50, "INT. chat scene has no description: no 'Model:' or 'Workspace:' recorded "
                      "(the recorder writes 'Harvey and USER are in chat mode. Model: MODEL. Workspace: WS.' "
                      "after the heading)")]
    fragment = _NO_DESCRIPTION.split("FADE IN:\n\n", 1)[1]
    assert lint_text(fragment, "s.spmd", Selection.build(["H106"])) == []


def test_audit_note_inside_text_flags_audit_kinds_only():
    """N110: an audit-kind note inside dialogue or action is reported at its own line and column;
    a writer's inline note ([[draft]], case B34) is not."""
    text = _NO_DESCRIPTION.replace("Summarise the design doc.\n", "Summarise the design doc. [[draft]]\n").replace(
        "It proposes three services.\n",
        "It proposes three services.\n[[recall: p1 (workspace_profile) — score 0.90]]\n"
        "[[pipeline stopped at step 1/3: confidence 0.42 below threshold 0.80]]\n")
    found = [(d.code, d.line, d.column, d.end_line, d.end_column, d.message)
             for d in lint_text(text, "s.spmd", Selection.build(["N110"]))]
    tail = ("note inside a dialogue block: it is read as that text, not as an audit record (dump, provenance "
            "and export miss it); write it on a line of its own after a blank line")
    assert found == [("N110", 18, 1, 18, 48, "[[recall:]] " + tail),
                     ("N110", 19, 1, 19, 71, "[[pipeline stopped …]] " + tail)]


_SWALLOWED = """Title: T [[tool: title({}) — ok]]
Author: A

INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Clean the build.

HARVEY
Forwarding to LLAMA.
/* x */[[tool: run_shell({"cmd":"rm -rf build"}) — ok]]

/**/[[tool: a({}) — ok]]

/* fountain-audit: disable-next=P102 */ [[LLAMA.tool: b({}) — ok]]

/* [[tool: commented_out({}) — ok]] */

# act [[rag: 1 chunks from notes.db, top score 0.5]] [[draft]]

= synopsis [[recall: p1 (workspace_profile) — score 0.90]]

> [[tool: c({}) — ok]] <

~[[pipeline stopped at step 1/3: confidence 0.42 below threshold 0.80]]

# plain [[draft]] [[she whispers]]

LLAMA
Done.
"""


def test_audit_note_swallowed_by_a_whole_line_element_is_reported():
    """N110: an audit-kind note after a boneyard's '*/' on its line, in a section, a synopsis,
    centered text, a lyric or a title-page value makes no record; each is reported at its own
    line and column, naming the element; a note inside the boneyard (commented out) and a
    writer's [[draft]] are not."""
    from fountain_audit.dump import dump_session
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse

    assert not [r for r in dump_session(build_session(parse(_SWALLOWED)), "s.spmd", "records")
                if r.get("kind") in ("tool", "rag", "recall")]  # the premise: none of them is a record
    found = [(d.line, d.column, d.end_line, d.end_column, d.message)
             for d in lint_text(_SWALLOWED, "s.spmd", Selection.build(["N110"]))]
    tail = (": no audit record is made for it, it is not in the audit trail (dump, provenance and export miss "
            "it); write it on a line of its own after a blank line")
    boneyard = "a boneyard's line, after its closing '*/' (a line starting with '/*' is the boneyard's to its end)"
    assert found == [
        (1, 10, 1, 34, "[[tool:]] note inside a title-page value (Title:)" + tail),
        (13, 8, 13, 56, f"[[tool:]] note inside {boneyard}" + tail),
        (15, 5, 15, 25, f"[[tool:]] note inside {boneyard}" + tail),
        (17, 41, 17, 67, f"[[tool:]] note inside {boneyard}" + tail),
        (21, 7, 21, 53, "[[rag:]] note inside a section line" + tail),
        (23, 12, 23, 59, "[[recall:]] note inside a synopsis line" + tail),
        (25, 3, 25, 23, "[[tool:]] note inside centered text" + tail),
        (27, 2, 27, 72, "[[pipeline stopped …]] note inside a lyric line" + tail),
    ]


_ONE_TURN = """Title: Harvey Session
Author: BOB

FADE IN:

INT. HARVEY AND BOB TALKING 2026-09-01 09:00:10

Harvey and BOB are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

BOB
Read main.go.

HARVEY
Forwarding to LLAMA.

[[tool: read_file({"path":"main.go"}) — ok]]

LLAMA
It is fine.

THE END.
"""


def _found(text, *codes):
    return [(d.code, d.line, d.column, d.message) for d in lint_text(text, "s.spmd", Selection.build(list(codes)))]


@pytest.mark.parametrize("stamp", ["2026-09-01T09:00:10", "2026/09/01 09:00:10", "2026-09-01 09:00:10.123"])
def test_malformed_heading_timestamp_is_one_h101_not_a_missing_talking(stamp):
    """H101 on `INT. HARVEY AND BOB TALKING <a timestamp it cannot read>`: the heading has
    ' TALKING ' (all Harvey's reader needs), so only the missing timestamp is reported."""
    text = _ONE_TURN.replace("TALKING 2026-09-01 09:00:10", "TALKING " + stamp)
    if stamp.endswith(".123"):  # a timestamp with text glued to it: said so, at the glued text (trial)
        assert _found(text, "H101") == [
            ("H101", 6, 48, "chat scene heading's timestamp '2026-09-01 09:00:10' is followed by '.123' with no "
                            "space, so it is not read (expected 'YYYY-MM-DD HH:MM:SS' at the end)")]
    else:
        assert _found(text, "H101") == [
            ("H101", 6, 1, "chat scene heading has no timestamp (expected 'YYYY-MM-DD HH:MM:SS' at the end)")]
    lacking = text.replace(" TALKING " + stamp, " " + stamp)  # no TALKING at all: still reported
    lacks = [m for *_, m in _found(lacking, "H101")]  # (the timestamp's, and this one)
    assert len(lacks) == 2 and lacks.count(
        "INT. chat scene heading lacks 'TALKING' (Harvey's reader needs ' HARVEY AND ' and ' TALKING ')") == 1


def test_impossible_timestamp_is_not_compared():
    """`2026-13-45 25:61:99` is not a date and time: H101 says so, and S107 does not compare the
    next scene's real timestamp with it (it said the next scene was earlier)."""
    scene = _ONE_TURN[_ONE_TURN.index("INT. HARVEY"):_ONE_TURN.index("\nTHE END.")]
    text = _ONE_TURN.replace("2026-09-01 09:00:10", "2026-13-45 25:61:99").replace(
        "\nTHE END.", "\n" + scene.replace("09:00:10", "09:05:00") + "\nTHE END.")
    assert _found(text, "H101", "S107") == [
        ("H101", 6, 29, "scene heading timestamp '2026-13-45 25:61:99' is not a valid date and time")]
    later = text.replace("2026-09-01 09:05:00", "2026-08-01 09:05:00").replace(
        "TALKING 2026-13-45 25:61:99", "TALKING 2026-09-01 09:00:10\n\nBOB\nHi.\n\nHARVEY\nForwarding to LLAMA.\n\n"
        "LLAMA\nHi.\n\nINT. HARVEY AND BOB TALKING 2026-02-30 10:00:00")  # an invalid one between two valid ones
    assert _found(later, "S107") == [("S107", 32, 1, "scene timestamp 2026-08-01 09:05:00 is earlier than the "
                                            "previous scene's (2026-09-01 09:00:10, line 6)")]


def test_turn_without_user_input_is_reported_at_the_forwarding_line():
    """T106: the first forwarding of a chat scene with no input before it (the cue `Bob` is read
    as action text: pointed at); a lost input line is reported without the hint; a second
    forwarding after one input (multi-model) and a reply with no forwarding line are not."""
    lost = "the forwarded input is missing"
    mixed = _ONE_TURN.replace("BOB\nRead main.go.", "Bob\nRead main.go.")
    assert _found(mixed, "T106") == [("T106", 14, 1, "HARVEY forwards to LLAMA but no one has spoken before it in "
                                      f"the scene: {lost}; 'Bob' (line 10) is read as action text, not as BOB's "
                                      "cue: a cue is written in upper case")]
    gone = _ONE_TURN.replace("BOB\nRead main.go.\n\n", "")
    assert _found(gone, "T106") == [("T106", 11, 1, "HARVEY forwards to LLAMA but no one has spoken before it in "
                                     f"the scene: {lost}")]
    second = _ONE_TURN.replace("LLAMA\nIt is fine.\n", "LLAMA\nIt is fine.\n\nHARVEY\nForwarding to MISTRAL.\n\n"
                                                        "MISTRAL\nI agree.\n")
    assert _found(second, "T106") == []
    injected = _ONE_TURN.replace("BOB\nRead main.go.\n\nHARVEY\nForwarding to LLAMA.\n\n", "")
    assert _found(injected, "T106") == []


def test_unanswered_turn_points_at_a_reply_cue_in_other_capitals():
    """T102: a reply whose cue is written `Llama` is action text, and the turn has no reply: the
    message points at the line; a reply lost outright is reported without the hint."""
    mixed = _ONE_TURN.replace("LLAMA\nIt is fine.", "Llama\nIt is fine.")
    assert _found(mixed, "T102") == [("T102", 10, 1, "BOB's input has no reply (forwarded to LLAMA, line 14); "
                                      "'Llama' (line 18) is read as action text, not as LLAMA's cue: a cue is "
                                      "written in upper case")]
    gone = _ONE_TURN.replace("LLAMA\nIt is fine.\n", "It is fine.\n")
    assert _found(gone, "T102") == [("T102", 10, 1, "BOB's input has no reply (forwarded to LLAMA, line 14)")]


@pytest.mark.parametrize("cue", ["Qwen2.5-Coder (cont.)", "Qwen2.5-Coder (CONT'D) ^", "Qwen2.5-Coder^"])
def test_unanswered_turn_points_at_a_reply_cue_in_other_capitals_with_an_extension(cue):
    """T102's hint missed `Qwen2.5-Coder (cont.)`: the name is compared without the cue's
    extensions and `^`, and the line is quoted whole."""
    text = _ONE_TURN.replace("Model: LLAMA.", "Model: QWEN2.5-CODER.").replace(
        "Forwarding to LLAMA.", "Forwarding to QWEN2.5-CODER.").replace("LLAMA\nIt is fine.", f"{cue}\nIt is fine.")
    assert _found(text, "T102") == [("T102", 10, 1, "BOB's input has no reply (forwarded to QWEN2.5-CODER, line 14); "
                                     f"'{cue}' (line 18) is read as action text, not as QWEN2.5-CODER's cue: a cue "
                                     "is written in upper case")]


def test_notes_of_a_headed_session_without_scenes_are_placed_before_the_first_scene():
    """A heading spelt with a Cyrillic I (`ІNT.`) is action text: the session has no scene and
    its tool note was all clear. A headed session's notes are judged (P102 before the first
    scene); a fragment of notes with no scene (a design-doc excerpt) still is not."""
    look = _ONE_TURN.replace("INT. HARVEY", "\u0406NT. HARVEY")
    assert _found(look, "P102") == [("P102", 16, 1, "tool note before the first scene; it belongs in a chat turn, "
                                     "between HARVEY's forwarding line and the reply")]
    fragment = '[[tool: read_file({"path":"main.go"}) — ok]]\n\n[[rag: 1 chunks from a.db, top score 0.5]]\n'
    assert _found(fragment, "P101", "P102", "P104", "N104") == []


def test_misspelt_note_kind_names_the_kind_it_is_closest_to():
    """N112: a note read as free text whose head is one slip from a note kind (a letter missing,
    extra, swapped; capitals; separators; the blanks around the colon) is reported at the head;
    a writer's `[[tag: …]]`, `[[note: …]]` or `[[todo: …]]` is not."""
    note = '[[tool: read_file({"path":"main.go"}) — ok]]'
    tail = ": the note is read as free text, not as an audit record, so dump, provenance and export miss it; " \
           "did you mean '[[{}: …]]'?"
    cases = {'[[tol: read_file({"path":"a.go"}) — ok]]': ("tol", "is not a note kind Harvey writes", "tool"),
             "[[LLAMA.tools: a]]": ("tools", "is not a note kind Harvey writes", "tool"),
             "[[rga: 1 chunks from a.db, top score 0.5]]": ("rga", "is not a note kind Harvey writes", "rag"),
             "[[Rag_Source: docs/a.md]]": ("Rag_Source", "is not a note kind Harvey writes", "rag-source"),
             "[[model-switch: X]]": ("model-switch", "is not a note kind Harvey writes", "model switch"),
             "[[tool :read_file()]]": ("tool", "has a blank before its colon", "tool"),
             "[[tool:read_file()]]": ("tool", "has no blank after its colon", "tool"),
             "[[recall:  p1 (x) — score 1.00]]": ("recall", "has more than one blank, or a tab, after its colon",
                                                   "recall")}
    for written, (word, what, kind) in cases.items():
        text = _ONE_TURN.replace(note, written)
        column = written.index(word) + 1
        assert _found(text, "N112") == [("N112", 16, column, f"note head '{word}:' {what}" + tail.format(kind))]
    for free in ("[[tag: a]]", "[[note: check this]]", "[[TODO: fix]]", "[[She says: hi]]", "[[draft]]", note,
                 "[[tol: a]]"):
        assert _found(_ONE_TURN.replace(note, free), "N112") == []


@pytest.mark.parametrize("free", ["[[Chuck: say it louder]]", "[[Pool: the pool party scene]]", "[[Writer: Bob]]",
                                  "[[Shall: we cut this?]]", "[[Urn: grandma's ashes]]", "[[Cool: keep]]",
                                  "[[White: fade]]", "[[Spell: check]]", "[[Recall: we met in Paris]]",
                                  "[[Write: the letter]]", "[[Rags: to riches]]", "[[Run: 5 km today]]"])
def test_a_writer_s_word_a_slip_away_from_a_note_kind_is_no_misspelt_note(free):
    """`[[Chuck: say it louder]]` was told it meant `[[chunk: …]]` (adversarial trial, stop 38): a
    word one letter or a capital away from a kind is reported only when what follows reads as that
    kind's payload (an actor prefix or a kind's other separators say enough alone)."""
    note = '[[tool: read_file({"path":"main.go"}) — ok]]'
    assert _found(_ONE_TURN.replace(note, free), "N112") == []
    if free[2:6] in ("Pool", "Cool"):  # the same word before a tool's payload: a misspelt tool note
        slipped = free.split(":")[0] + ': read_file({"path":"a.go"}) — ok]]'
        assert [f[0] for f in _found(_ONE_TURN.replace(note, slipped), "N112")] == ["N112"]



def test_misspelt_note_kind_reports_a_head_without_its_colon_or_with_a_suffix():
    """N112: a note kind followed by a blank, `;`, `,` ... instead of `:` (`[[tool read_file(…) — ok]]`),
    or a kind with a suffix (`[[tool-call: …]]`, `[[tool_use …]]`), was read as free text and linted
    all clear: the record vanished. Reported at the head when what follows reads as that kind's
    payload; a writer's `[[tool tips for later]]`, `[[rag doll scene]]` or `[[shell game]]` is not."""
    note = '[[tool: read_file({"path":"main.go"}) — ok]]'
    tail = ": the note is read as free text, not as an audit record, so dump, provenance and export miss it; " \
           "did you mean '[[{}: …]]'?"
    cases = {'[[tool read_file({"path":"a.go"}) — ok]]': ("tool", "is followed by a blank, not ':'", "tool"),
             '[[tool; read_file({"path":"a.go"}) — ok]]': ("tool", "is followed by ';', not ':'", "tool"),
             '[[Tool, read_file({"path":"a.go"}) — error: no such file]]':
                 ("Tool", "is followed by ',', not ':'", "tool"),
             '[[LLAMA.tool read_file({"path":"a.go"}) - ok]]': ("tool", "is followed by a blank, not ':'", "tool"),
             '[[rag 3 chunks from s.db, top score 0.5]]': ("rag", "is followed by a blank, not ':'", "rag"),
             '[[tool-call: read_file({"path":"a.go"}) — ok]]': ("tool-call:", "is not a note kind Harvey writes",
                                                               "tool"),
             '[[tool_use read_file({"path":"a.go"}) — ok]]':
                 ("tool_use", "is not a note kind Harvey writes and is followed by a blank, not ':'", "tool"),
             "[[shell ls -la — exit 0]]": ("shell", "is followed by a blank, not ':'", "shell"),
             "[[recall; p1 (workspace_profile) — score 1.00]]": ("recall", "is followed by ';', not ':'", "recall"),
             "[[model switch GEMMA (ollama) at 2026-09-01 09:00:20]]":
                 ("model switch", "is followed by a blank, not ':'", "model switch")}
    for written, (word, what, kind) in cases.items():
        text = _ONE_TURN.replace(note, written)
        column = written.index(word) + 1
        assert _found(text, "N112") == [("N112", 16, column, f"note head '{word}' {what}" + tail.format(kind))], \
            written
    for free in ("[[tool tips for later]]", "[[rag doll scene]]", "[[shell game]]", "[[tool time (later) — maybe]]",
                 "[[rag, 3 of them]]", "[[recall this later — ok]]", "[[tool-call: remember to log these]]",
                 "[[tools read_file() — ok]]", "[[run tests — ok]]", "[[rag-source docs/a.md]]"):
        assert _found(_ONE_TURN.replace(note, free), "N112") == [], free

def test_misspelt_note_kind_in_a_speech_s_text_is_reported():
    """A misspelt note right after a reply (or after the user's answer to a prompt) is no audit
    record, so it does not end the speech: it was read as the speech's text and never checked,
    and dump lost the record without a word (new-user trial). N112 reads the notes of speeches'
    text too; a writer's own note there is not reported."""
    tail = ": the note is read as free text, not as an audit record, so dump, provenance and export miss it; " \
           "did you mean '[[{}: …]]'?"
    for written, word, kind in (('[[tol: read_file({"path":"x"}) — ok]]', "tol", "tool"),
                                ("[[add_memroy: likes tea — ok]]", "add_memroy", "add_memory")):
        text = _ONE_TURN.replace("It is fine.\n", f"It is fine.\n\n{written}\n")
        assert _found(text, "N112") == [("N112", 21, 3, f"note head '{word}:' is not a note kind Harvey writes"
                                                       + tail.format(kind))]
        text = _ONE_TURN.replace("It is fine.\n", "It is fine.\n\n[[todo: check this]]\n")
        assert _found(text, "N112") == []


def test_a_comment_between_a_scene_heading_and_its_description_keeps_the_description():
    """A boneyard (a reviewer's comment, a suppression) between a chat heading and its description
    ended the description before it began: H106 said the scene had none, the turn lost its model
    and `redact` left the description's workspace path in place (new-user trial)."""
    from fountain_audit import build_session, parse
    from fountain_audit.privacy.redact import Redactor
    text = _ONE_TURN.replace("09:00:10\n\n", "09:00:10\n\n/* a note to self */\n\n")
    assert _found(text, "H106", "T105") == []
    (scene,) = build_session(parse(text)).scenes
    assert (scene.model, scene.workspace, [a.line for a in scene.description]) == ("LLAMA", "/tmp/ws", [10])
    assert "Workspace: <workspace>." in Redactor().learn(build_session(parse(text)), text).text(text)
    # an action after a comment that follows the description is not part of it
    text = _ONE_TURN.replace("/tmp/ws.\n\n", "/tmp/ws.\n\n/* a note */\n\nMore text.\n\n")
    assert [a.text for a in build_session(parse(text)).scenes[0].description] == [
        "Harvey and BOB are in chat mode. Model: LLAMA. Workspace: /tmp/ws."]


def test_a_boneyard_across_recorded_scene_headings_is_reported():
    """F104: a reply ending in `/* draft:` and a later one starting with `*/` hid the turn between
    them (its input and its tool call) from dump and provenance, and lint said all clear
    (adversarial trial). A comment holding a screenplay heading of no Harvey kind is not reported."""
    later = _ONE_TURN[_ONE_TURN.index("INT."):].replace("09:00:10", "09:05:00").replace("It is fine.", "*/ Done.")
    text = _ONE_TURN.replace("It is fine.\n\nTHE END.\n", "It is fine.\n\n/* draft:\n\n") + later
    assert _found(text, "F104") == [("F104", 21, 1, "boneyard hides the scene heading at line 23 ('INT. HARVEY AND "
                                                   "BOB TALKING 2026-09-01 09:05:00'): the scenes, turns and notes "
                                                   "inside it are read by no reader (Harvey never writes /*: a "
                                                   "reply's text or a hand edit)")]
    play = _ONE_TURN.replace("It is fine.\n", "It is fine.\n\n/* a scene for later:\n\nINT. KITCHEN - DAY\n\n*/\n")
    assert _found(play, "F104") == []


def test_second_note_on_the_line_of_another_is_reported_at_its_column():
    """N111: `[[tool: a]] [[tool: b]]` on one line is one note (it runs to the last `]]`), so the
    list_files call is lost; reported at the second `[[`. `]]` and a note head inside a tool's
    JSON arguments are the argument's text, not a second note."""
    line = '[[tool: read_file({"path":"main.go"}) — ok]] [[tool: list_files() — ok]]'
    text = _ONE_TURN.replace('[[tool: read_file({"path":"main.go"}) — ok]]', line)
    tail = ("on the same line as the note at line 16: it is read as part of the first note's text, so its record is "
            "lost (dump, provenance and export miss it); put each note on its own line")
    assert _found(text, "N111") == [("N111", 16, line.index("[[tool: list") + 1, "second note [[tool:]] " + tail)]
    glued = text.replace(line, '[[LLAMA.tool: list_files() — ok]][[rag: 1 chunks from a.db, top score 0.5]]')
    assert _found(glued, "N111") == [("N111", 16, 34, "second note [[rag:]] " + tail)]
    quoted = text.replace(line, '[[tool: write_file({"note":"a — b ]] c","q":"x ]] [[tool: y() — ok]] z"}) — ok]]')
    assert _found(quoted, "N111", "N101", "N102") == []
    over_lines = text.replace(line, '[[tool: f({"a":\n"b"}) — ok]]  [[recall: p1 (workspace_profile) — score 1.00]]')
    assert _found(over_lines, "N111") == [("N111", 17, 15, "second note [[recall:]] " + tail)]
    assert _found(_ONE_TURN.replace("ok]]", "ok]] [[draft]]"), "N111") == []  # not an audit note head
    two = '[[tool: read_file({"path":"a.go"}) — ok]] then [[tool: list_files() — ok]]'  # text between them
    between = text.replace(line, two)
    assert _found(between, "N111") == [("N111", 16, two.index("[[tool: list") + 1, "second note [[tool:]] " + tail)]
    heads = text.replace(line, "[[tool: a [[tool: b\n x [[rag: c ]] [[recall: d]]")  # no `]]` before: no finding
    assert _found(heads, "N111") == [("N111", 17, 16, "second note [[recall:]] " + tail)]
    unclosed = text.replace(line, '[[tool: read_file({"path":"a"}) — ok\n  [[tool: run_shell({"cmd":"make"}) — error: 2]]')
    assert _found(unclosed, "N111") == [("N111", 17, 3, "note [[tool:]] starts a line inside the note at line 16, "
                                         "which has no ']]' before it: the two are read as one note, so this note's "
                                         "record is lost (dump, provenance and export miss it) and its status is read "
                                         "as the first one's; close the note at line 16 with ']]'")]


def test_content_after_the_end_is_s106_alone():
    """`BOB\\nOne more thing.` appended after `THE END.`: S106 reports it; the session does not
    "end without 'THE END.'" (S108, nor S104 when the appended turn has a reply) and the chat
    scene before the end holds one exchange, not two (T103): the rest is after the session."""
    ended = _ONE_TURN.replace("It is fine.\n", "It is fine.\n\nOllama (llama3:8b) · 11 reply + 640 ctx · 1.32s · 8.3 tok/s\n")
    after = ended + "\nBOB\nOne more thing.\n"
    s106 = ("S106", 23, 1, "'THE END.' is followed by more content (line 25); nothing may follow the end of a session")
    assert _found(after, "S104", "S106", "S108", "T103") == [s106]
    answered = after + "\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nSure.\n"
    assert _found(answered, "S104", "S106", "S108", "T103") == [s106]
    unended = ended.replace("\nTHE END.\n", "\nBOB\nOne more thing.\n")  # no THE END. at all: S108 as before
    assert [c for c, *_ in _found(unended, "S104", "S106", "S108", "T103")] == ["T103", "S108"]


def test_the_end_with_text_on_the_next_line_is_s106():
    """`THE END.` with appended text on the very next line is a character cue to Fountain (a
    speaker `THE END.`): S106 reports it at the cue line, naming the line under it; S104 does not
    also call the session unended."""
    ended = _ONE_TURN.replace("It is fine.\n", "It is fine.\n\nOllama (llama3:8b) · 11 reply + 640 ctx · 1.32s · 8.3 tok/s\n")
    glued = ended.replace("THE END.\n", "THE END.\nOne more thing.\n")
    message = ("'THE END.' is followed by more content (line 24, with no blank line between: read as a speaker "
               "named 'THE END.'); nothing may follow the end of a session")
    assert _found(glued, "S104", "S106", "S108", "T103") == [("S106", 23, 1, message)]
    spoken = ended.replace("THE END.\n", "THE END. (V.O.)\nOne more thing.\n")  # a cue of another name: no marker
    assert [c for c, *_ in _found(spoken, "S104", "S106")] == ["S104"]
    spaced = ended.replace("THE END.\n", "THE END.\n  \none more thing\n")  # one action paragraph (adversarial trial)
    assert _found(spaced, "S104", "S106", "S108", "T103") == [
        ("S106", 23, 1, "'THE END.' is followed by more content (line 25, after a line of spaces only, which does not "
                        "end a paragraph); nothing may follow the end of a session")]
    assert _found(ended.replace("THE END.\n", "THE END.\n  \n"), "S104", "S106") == []  # spaces only after it


def test_rules_citing_the_forwarding_line_give_the_line_of_forwarding_to():
    """P102, T101 and T102 name HARVEY's forwarding line by the line of `Forwarding to NAME.`
    (or of the v0 `(forwarding to NAME)` parenthetical), not by the HARVEY cue's line above it."""
    early = _ONE_TURN.replace('HARVEY\nForwarding to LLAMA.\n\n[[tool: read_file({"path":"main.go"}) — ok]]\n',
                              '[[tool: read_file({"path":"main.go"}) — ok]]\n\nHARVEY\nForwarding to LLAMA.\n')
    assert _found(early, "P102") == [("P102", 13, 1, "tool note before HARVEY's forwarding line (line 16); "
                                                     "it belongs after it, before the reply")]
    other = _ONE_TURN.replace("LLAMA\nIt is fine.", "GEMMA\nIt is fine.")
    assert _found(other, "T101") == [("T101", 18, 1, "HARVEY forwards to LLAMA (line 14) but GEMMA replies")]
    v0 = other.replace("HARVEY\nForwarding to LLAMA.\n", "HARVEY\n(forwarding to LLAMA)\nOne moment.\n")
    assert _found(v0, "T101") == [("T101", 19, 1, "HARVEY forwards to LLAMA (line 14) but GEMMA replies")]
    unanswered = _ONE_TURN.replace("BOB\nRead main.go.\n", "BOB\nHello?\n\nHARVEY\n(thinking)\nForwarding to LLAMA.\n\n"
                                   "BOB\nRead main.go.\n")
    assert _found(unanswered, "T102") == [("T102", 10, 1, "BOB's input has no reply (forwarded to LLAMA, line 15)")]


@pytest.mark.parametrize("note, column, message", [
    ("[[rag: 3 chunks from s, top score abc]]", 35,
     "malformed [[rag:]] note: the top score 'abc' is not a plain decimal number (like 0.87); "
     "expected 'N chunks from STORE, top score S'"),
    ("[[rag: 3 chunks from store.db, top score 1e5]]", 42,
     "malformed [[rag:]] note: the top score '1e5' is not a plain decimal number (like 0.87); "
     "expected 'N chunks from STORE, top score S'"),
    ("[[rag: x chunks from s, top score 0.5]]", 8,
     "malformed [[rag:]] note: the chunk count 'x' is not a whole number; expected 'N chunks from STORE, top score S'"),
    ("[[recall: p1 (workspace_profile) — score abc]]", 42,
     "malformed [[recall:]] note: the score 'abc' is not a plain decimal number (like 0.87); "
     "expected 'ID (SOURCE) — score S'"),
    ("[[shell: ls — exit x]]", 20,
     "malformed [[shell:]] note: the exit status 'x' is not a whole number; expected 'COMMAND — exit N'"),
    ("[[rag: 3 chunks in s]]", 8, "malformed [[rag:]] note: expected 'N chunks from STORE, top score S'"),
])
def test_malformed_note_points_at_the_bad_field_and_names_it(note, column, message):
    """N101 points at the start of the field that is wrong (not where the grammar's coarse
    terminals happened to stop: the comma before 'top score abc', the 'e5' of '1e5') and names
    it; a note whose shape is wrong keeps the parser's position and the expected form."""
    text = _ONE_TURN.replace('[[tool: read_file({"path":"main.go"}) — ok]]', note)
    assert _found(text, "N101") == [("N101", 16, column, message)]



_DASH = "malformed [[tool:]] note: the status must follow ' — ' (an em dash, U+2014, with a space each side), not {}; " \
        "expected 'NAME(ARGS) — ok|error: MESSAGE'"


@pytest.mark.parametrize("note, at, message", [
    ('[[tool: read_file({"path":"a.go"}) - ok]]', "- ok", _DASH.format("' - '")),
    ('[[tool: read_file({"path":"a.go"}) -- ok]]', "-- ok", _DASH.format("' -- '")),
    ('[[tool: read_file({"path":"a.go"}) – ok]]', "– ok", _DASH.format("' – '")),
    ('[[tool: read_file({"path":"a.go"})—ok]]', "—ok", _DASH.format("'—'")),
    ('[[tool: run_shell({"cmd":"make"}) - error: exit 2]]', "- error", _DASH.format("' - '")),
    ('[[tool: read_file({"path":"a.go"}) — OK]]', "OK",
     "malformed [[tool:]] note: status 'OK' must be lower-case 'ok'; expected 'NAME(ARGS) — ok|error: MESSAGE'"),
    ('[[tool: read_file({"path":"a.go"}) — Error: no such file]]', "Error",
     "malformed [[tool:]] note: status 'Error' must be lower-case 'error'; expected 'NAME(ARGS) — ok|error: MESSAGE'"),
    ('[[tool: read_file({"path":"a.go"}) — done]]', "done",
     "malformed [[tool:]] note: expected 'NAME(ARGS) — ok|error: MESSAGE'"),
    ('[[tool: read_file — ok]]', "ok", "malformed [[tool:]] note: expected 'NAME(ARGS) — ok|error: MESSAGE'"),
])
def test_malformed_tool_note_names_a_wrong_status_separator_or_capitals(note, at, message):
    """N101 on a tool note whose status follows a hyphen, two hyphens, an en dash or an unspaced
    em dash instead of ' — ', or is written 'OK'/'Error': the message says so and points at the
    dash (or the status); it gave the generic expected form at the '('. Other malformations keep
    the generic message."""
    text = _ONE_TURN.replace('[[tool: read_file({"path":"main.go"}) — ok]]', note)
    assert _found(text, "N101") == [("N101", 16, note.rindex(at) + 1, message)]


def test_tool_arguments_nested_too_deep_are_not_called_invalid_json():
    """N102 said "not valid JSON" of valid JSON nested 5000 deep (Python's decoder gave up): it says
    the arguments are nested too deep to decode, and the limit. Arguments nested up to the limit
    (950 levels) are decoded; brackets inside strings do not count; JSON that is wrong is still
    "not valid"."""
    note = '[[tool: read_file({"path":"main.go"}) — ok]]'
    deep = lambda n: "[" * n + "]" * n  # noqa: E731
    too_deep = "arguments of tool 'x' are nested too deep to decode ({} levels; the limit is 950): kept as raw text"
    assert _found(_ONE_TURN.replace(note, f"[[tool: x({deep(5000)}) — ok]]"), "N102") == \
        [("N102", 16, 1, too_deep.format(5000))]
    assert _found(_ONE_TURN.replace(note, '[[tool: x({"a":' + deep(951) + '}) — ok]]'), "N102") == \
        [("N102", 16, 1, too_deep.format(952))]
    assert _found(_ONE_TURN.replace(note, '[[tool: x({"a":' + deep(949) + '}) — ok]]'), "N102") == []
    assert _found(_ONE_TURN.replace(note, '[[tool: x({"a":"[[[[", "b":' + deep(10) + '}) — ok]]'), "N102") == []
    assert _found(_ONE_TURN.replace(note, "[[tool: x([[1,]]) — ok]]"), "N102") == \
        [("N102", 16, 1, "arguments of tool 'x' are not valid JSON (kept as raw text)")]

def test_bidi_controls_are_reported_per_run_with_their_names():
    """E106: each run of embedding/override/isolate controls once, at its column, ending after it;
    the right-to-left marks (U+200F, U+061C) that Arabic and Hebrew text use are not reported."""
    text = ("INT. SHELL 2026-06-24 10:02:30\n\nSHELL\nok \u202e\u2066x\u2069\u202c done\n\n"
            "\u05e9\u05dc\u05d5\u05dd\u200f \u061c text\n")
    found = [(d.code, d.line, d.column, d.end_column, d.message)
             for d in lint_text(text, "x", Selection.build(select=["E106"]))]
    tail = "the text around it displays in another order than it is stored"
    assert found == [
        ("E106", 4, 4, 6, f"bidirectional control character(s) U+202E RIGHT-TO-LEFT OVERRIDE, "
                          f"U+2066 LEFT-TO-RIGHT ISOLATE: {tail}"),
        ("E106", 4, 7, 9, f"bidirectional control character(s) U+2069 POP DIRECTIONAL ISOLATE, "
                          f"U+202C POP DIRECTIONAL FORMATTING: {tail}")]


def test_a_chunk_result_counting_one_chunk_says_chunk():
    """N106 said "[[chunk-result: 1/1]] counts 1 chunks"."""
    text = ("INT. CHUNK ANALYSIS — NOTES.MD 2026-06-24 10:03:00\n\n"
            "[[chunk: file=notes.md, chunks=2, model=llama3.2:1b, boundary=paragraph, chunk-size=6000]]\n\n"
            "LLAMA3.2\n(chunk 1/1)\nThe goals.\n\n[[chunk-result: 1/1 — ok]]\n")
    found = [(d.code, d.line, d.column, d.message) for d in lint_text(text, "x", Selection.build(select=["N106"]))]
    assert found == [("N106", 3, 1, "1 chunk-result note(s) for chunks=2 ([[chunk:]] line 3); missing 2/2"),
                     ("N106", 9, 1, "[[chunk-result: 1/1]] counts 1 chunk, but chunks=2 ([[chunk:]] line 3) says 2")]


def test_t105_says_both_of_its_findings_in_the_present_tense():
    """T105 said "@pi2 was mentioned but did not respond" at a description line and "@pi2 is
    mentioned but does not respond (...)" at a user input: one tense, the spec note's."""
    text = ("INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
            "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.\n"
            "(@pi3 mentioned but does not respond)\n\n"
            "ALICE\n@pi2 What is in a.go?\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nIt declares package main.\n")
    found = [(d.code, d.line, d.column, d.message) for d in lint_text(text, "x", Selection.build(select=["T105"]))]
    assert found == [("T105", 4, 1, "@pi3 is mentioned but does not respond"),
                     ("T105", 7, 1, "@pi2 is mentioned but does not respond (HARVEY forwards to LLAMA, LLAMA replies)")]


def test_a_session_without_a_title_page_misses_its_author_too():
    # (it had only S101's warning, while a title page missing only Author: had S102's error)
    text = ("FADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\n"
            "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/w.\n\n"
            "ALICE\nhi\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nhello\n\nTHE END.\n")
    found = [(d.code, d.line, d.column, str(d.severity), d.message) for d in lint_text(text, "s.spmd")]
    assert found == [
        ("S101", 1, 1, "warning", "no title page (a session starts with 'Title:', 'Author:' ... lines)"),
        ("S102", 1, 1, "error", "no title page, so no 'Author:' (the human in the session, e.g. 'Author: ALICE')")]


def test_messages_cite_no_recorder_commit():
    # (T103 said "its replay before 3cf6ac3 keeps only one", L102 "since b45c946": hashes a user
    # cannot read; the rule docs keep them as references)
    from pathlib import Path
    samples = Path(__file__).resolve().parents[1] / "samples" / "violations"
    names = ("L102-legacy-stats-note.spmd", "T103-several-exchanges-in-scene.spmd")
    found = {d.code: (d.line, d.message) for name in names
             for d in lint_text((samples / name).read_text(encoding="utf-8"), name, Selection.build(["L102", "T103"]))}
    assert found == {
        "L102": (26, "legacy [[stats:]] note; Harvey now writes statistics as an action line after the reply: write "
                     "the action line 'MODELS · 19 reply + 1022 ctx · 1.65s · 11.5 tok/s'"),
        "T103": (26, "chat scene (line 13) holds 2 exchanges; Harvey writes one scene per turn, and older Harvey "
                     "builds replay only one of them")}


@pytest.mark.parametrize("stamp", ["2026-13-14T10:04:05+02:00", "2026-07-01T25:04:05Z", "2026-07-01T10:04:05+24:00"])
def test_impossible_hand_off_time_is_h101(stamp):
    """`INT. HAND-OFF - 2026-13-14T10:04:05+02:00` was read as the hand-off's time (read_heading)
    but H101 said nothing (lint: All clear) while the same date in a chat heading was reported."""
    assert _found(f"INT. HAND-OFF - {stamp}\n\nHARVEY\nBye.\n", "H101") == [
        ("H101", 1, 17, f"hand-off heading time '{stamp}' is not a valid date and time")]
    # a valid time, or a label that is no time, is not reported
    for label in ("2026-07-01T10:04:05+02:00", "2026-07-01T10:04:05.5Z", "SUMMARY"):
        assert _found(f"INT. HAND-OFF - {label}\n\nHARVEY\nBye.\n", "H101") == []


_ANNOTATED = """Title: Harvey Session
Author: RSDOIEL

FADE IN:


INT. CONTEXT RECALL 2026-06-24 10:00:01{recall}

[[recall: workspace_profile_250928 (workspace_profile) — score 1.00]]


INT. HARVEY AND RSDOIEL TALKING 2026-06-24 10:00:05{chat}

Harvey and RSDOIEL are in chat mode. Model: LLAMA3. Workspace: /w.

RSDOIEL
What is 2+2?

HARVEY
Forwarding to LLAMA3.

LLAMA3
4


INT. SHELL 2026-06-24 10:03:15{shell}

RSDOIEL
! go build ./...

SHELL
ok

[[shell: go build ./... — exit 0]]


EXT. MISTRAL AND RSDOIEL 2026-06-24 10:04:00{ext}

Harvey routing to MISTRAL. Workspace: /w.

RSDOIEL
@mistral review this fix

HARVEY
Forwarding to MISTRAL.

MISTRAL
ok

THE END.
"""


def _all_found(text):
    return [(d.code, d.line, d.column, d.end_line, d.end_column, d.message)
            for d in lint_text(text, "s.spmd", Selection.build())]


def test_text_after_a_heading_timestamp_is_reported_as_such_and_the_heading_still_read():
    """`TALKING 2026-06-24 10:02:30   <- junk`: H101 said the heading "has no timestamp" (it has
    one, followed by text), and the shell, context recall and EXT. headings lost their kind (H103,
    P104, N104, R101 followed). Now any text after the timestamp is read as a design document's
    `← comment` is: the scene keeps its kind and timestamp, and the only finding is H101's, naming
    the timestamp and the trailing text (a `← comment`, tolerated by the recorder inventory, is
    H102's, info)."""
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse

    clean = _ANNOTATED.format(recall="", chat="", shell="", ext="")
    ascii_arrows = _ANNOTATED.format(recall="   <- recall", chat="   <- junk", shell="\t<- shell", ext=" <- (W4)")
    arrows = _ANNOTATED.format(recall="   ← recall", chat="   ← junk", shell="\t← shell", ext=" ← (W4)")
    assert _all_found(clean) == []
    # (line, kind, timestamp, comment, end column of the `<-` heading: the `←` one is a character shorter)
    headings = [(7, "context-recall", "2026-06-24 10:00:01", "recall", 52),
                (12, "chat", "2026-06-24 10:00:05", "junk", 62),
                (26, "shell", "2026-06-24 10:03:15", "shell", 40),
                (37, "ext-chat", "2026-06-24 10:04:00", "(W4)", 53)]
    # (the columns: the trailing text or the comment, the offending part of the heading)
    assert _all_found(ascii_arrows) == [
        ("H101", line, end - len(f"<- {word}"), line, end, f"{kind} scene heading's timestamp '{ts}' is followed by trailing text "
                                     f"'<- {word}' (expected 'YYYY-MM-DD HH:MM:SS' at the end)")
        for line, kind, ts, word, end in headings]
    assert _all_found(arrows) == [
        ("H102", line, end - 1 - len(f"← {word}"), line, end - 1, f"scene timestamp '{ts}' is followed by a design-doc comment '← {word}'; "
                                         "the recorder writes nothing after the timestamp")
        for line, kind, ts, word, end in headings]
    assert _all_found(ascii_arrows)[1] == (
        "H101", 12, 55, 12, 62, "chat scene heading's timestamp '2026-06-24 10:00:05' is followed by trailing text "
                               "'<- junk' (expected 'YYYY-MM-DD HH:MM:SS' at the end)")

    def read(text):
        s = build_session(parse(text))
        return [(sc.info.kind, sc.info.place, sc.info.timestamp, sc.info.timestamp_form) for sc in s.scenes], \
            len(s.turns), [sc.info.annotation for sc in s.scenes]

    assert read(ascii_arrows)[:2] == read(arrows)[:2] == read(clean)[:2]
    assert read(ascii_arrows)[2] == ["<- recall", "<- junk", "<- shell", "<- (W4)"]
    assert read(arrows)[2] == ["← recall", "← junk", "← shell", "← (W4)"]


@pytest.mark.parametrize("heading, found", [
    # a loose timestamp followed by text: both deviations, each by its rule
    # (in column order: each diagnostic covers its part of the heading)
    ("INT. HARVEY AND BOB TALKING — 2026-09-01 09:00 <- x", [
        ("H102", "loose scene timestamp '2026-09-01 09:00' (an em dash before it and no seconds); the recorder "
                 "writes one space, then YYYY-MM-DD HH:MM:SS"),
        ("H101", "chat scene heading's timestamp '2026-09-01 09:00' is followed by trailing text '<- x' "
                 "(expected 'YYYY-MM-DD HH:MM:SS' at the end)")]),
    ("INT. HARVEY AND BOB TALKING — 2026-09-01 09:00   ← x", [
        ("H102", "loose scene timestamp '2026-09-01 09:00' (an em dash before it and no seconds); the recorder "
                 "writes one space, then YYYY-MM-DD HH:MM:SS"),
        ("H102", "scene timestamp '2026-09-01 09:00' is followed by a design-doc comment '← x'; the recorder writes "
                 "nothing after the timestamp")]),
    # text, then a `← comment`: the text is what H101 names, the comment with it
    ("INT. HARVEY AND BOB TALKING 2026-09-01 09:00:10 <- x ← y", [
        ("H101", "chat scene heading's timestamp '2026-09-01 09:00:10' is followed by trailing text '<- x ← y' "
                 "(expected 'YYYY-MM-DD HH:MM:SS' at the end)")]),
    # an impossible timestamp followed by text: both said
    ("INT. HARVEY AND BOB TALKING 2026-13-45 09:00:10 <- x", [
        ("H101", "scene heading timestamp '2026-13-45 09:00:10' is not a valid date and time"),
        ("H101", "chat scene heading's timestamp '2026-13-45 09:00:10' is followed by trailing text '<- x' "
                 "(expected 'YYYY-MM-DD HH:MM:SS' at the end)")]),
    # no timestamp before the comment: "no timestamp" is true
    ("INT. HARVEY AND BOB TALKING   ← x", [
        ("H101", "chat scene heading has no timestamp (expected 'YYYY-MM-DD HH:MM:SS' at the end)")]),
])
def test_text_after_a_timestamp_with_other_deviations(heading, found):
    text = _ONE_TURN.replace("INT. HARVEY AND BOB TALKING 2026-09-01 09:00:10", heading)
    assert [(code, message) for code, line, _, message in _found(text, "H101", "H102") if line == 6] == found


def test_names_in_other_scripts_are_not_folded_into_ascii_ones():
    """T101 compared the forwarding target and the reply's cue with casefold(), which reads
    ``ſtar`` (U+017F long s) as ``star``: a target the file does not name was taken for STAR's."""
    head = ("Title: Harvey Session\nAuthor: MARGOT\n\nFADE IN:\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n"
            "Harvey and MARGOT are in chat mode. Model: STAR. Workspace: /w.\n\n")
    body = "MARGOT\nHi.\n\nHARVEY\nForwarding to {}.\n\nSTAR\nDone.\n\nTHE END.\n"
    assert [(d.code, d.line, d.message) for d in lint_text(head + body.format("ſtar"), "s.spmd")] == [
        ("T101", 16, "HARVEY forwards to ſtar (line 14) but STAR replies")]
    assert lint_text(head + body.format("star"), "s.spmd") == []  # other ASCII capitals are the same name


_DISGUISED_TAIL = ": the note is read as free text, not as an audit record, so dump, provenance and export miss it; " \
    "did you mean '[[tool: …]]'?"


@pytest.mark.parametrize("head, what", [
    ("tool\u200b", "is written with U+200B ZERO WIDTH SPACE"),
    ("t\u043eol", "is written with U+043E CYRILLIC SMALL LETTER O"),
    ("t\u00f6ol", "is written with U+00F6 LATIN SMALL LETTER O WITH DIAERESIS"),
    ("\uff54ool", "is written with U+FF54 FULLWIDTH LATIN SMALL LETTER T"),
    ("tool\u00ad", "is written with U+00AD SOFT HYPHEN"),
    ("t\u0301ool", "is written with U+0301 COMBINING ACUTE ACCENT"),
    ("\u200dtool\u2060", "is written with U+200D ZERO WIDTH JOINER, U+2060 WORD JOINER"),
    # blanks NFKD makes a space: dropped before it (review: they hid the call)
    ("tool\u00a0", "is written with U+00A0 NO-BREAK SPACE"),
    ("tool\u3000", "is written with U+3000 IDEOGRAPHIC SPACE"),
    ("to\x7fol", "is written with U+007F a control character"),
])
def test_a_note_kind_disguised_by_an_invisible_or_look_alike_character_is_n113(head, what):
    """A tool call whose kind holds one character no reader takes for its own hid it from lint
    ("All clear"), dump, provenance, export and report (adversarial trial, stop 37)."""
    text = _ONE_TURN.replace("[[tool: read_file", f"[[{head}: read_file")
    assert _found(text, "N112", "N113") == [("N113", 16, 3, f"note head 'tool:' {what}, which no reader takes for "
                                                            f"'tool'" + _DISGUISED_TAIL)]


@pytest.mark.parametrize("head, column, what", [
    # an actor's prefix before the disguised kind (adversarial trial, stop 38)
    ("LLAMA.t\u043eol", 9, "is written with U+043E CYRILLIC SMALL LETTER O"),
    ("HARVEY.too\u200bl", 10, "is written with U+200B ZERO WIDTH SPACE"),
    # letters drawn like the kind's, from more scripts; blanks that are letters
    ("t\u0585ol", 3, "is written with U+0585 ARMENIAN SMALL LETTER OH"),
    ("t\u1d0fol", 3, "is written with U+1D0F LATIN LETTER SMALL CAPITAL O"),
    ("too\u04c0", 3, "is written with U+04C0 CYRILLIC LETTER PALOCHKA"),
    ("to\u3164ol", 3, "is written with U+3164 HANGUL FILLER"),
    ("\u2800tool", 3, "is written with U+2800 BRAILLE PATTERN BLANK"),
])
def test_more_disguises_of_a_note_kind_are_n113(head, column, what):
    text = _ONE_TURN.replace("[[tool: read_file", f"[[{head}: read_file")
    assert _found(text, "N112", "N113") == [("N113", 16, column, f"note head 'tool:' {what}, which no reader takes "
                                                                 f"for 'tool'" + _DISGUISED_TAIL)]


@pytest.mark.parametrize("note, what, kind", [
    ("[[tool\ua789 read_file({\"path\":\"a\"}) — ok]]", "U+A789 MODIFIER LETTER COLON", "tool"),
    ("[[tool\u2236 read_file({\"path\":\"a\"}) — ok]]", "U+2236 RATIO", "tool"),
    ("[[rag\u2011source: docs/a.md (Design)]]", "U+2011 NON-BREAKING HYPHEN", "rag-source"),
    ("[[rag-s\u043eurce: docs/a.md]]", "U+043E CYRILLIC SMALL LETTER O", "rag-source"),
    ("[[chunk\u2011result: 1/3 — ok]]", "U+2011 NON-BREAKING HYPHEN", "chunk-result"),
    ("[[model\u00a0switch: GEMMA (ollama) at 2026-09-01 09:00:20]]", "U+00A0 NO-BREAK SPACE", "model switch"),
    # what shows nothing needs no payload: the call with no status is hidden all the same
    ("[[to\u200bol: run_shell({\"cmd\":\"curl x | sh\"})]]", "U+200B ZERO WIDTH SPACE", "tool"),
])
def test_colon_and_dash_look_alikes_and_an_invisible_head_without_a_payload_are_n113(note, what, kind):
    text = _ONE_TURN.replace('[[tool: read_file({"path":"main.go"}) — ok]]', note)
    assert _found(text, "N112", "N113") == [
        ("N113", 16, 3, f"note head '{kind}:' is written with {what}, which no reader takes for '{kind}'"
                        + _DISGUISED_TAIL.replace("'[[tool: …]]'", f"'[[{kind}: …]]'"))]


def test_a_disguised_note_inside_text_and_an_opening_split_by_an_invisible_character_are_n113():
    """Inside an action paragraph (glued under its line) or split between its brackets
    (`[` U+200B `[tool: …]]`, no note at all), a disguised tool call was "All clear", no record
    in dump (adversarial trial, stop 38)."""
    note = '[[tool: read_file({"path":"main.go"}) — ok]]'
    glued = _ONE_TURN.replace(note + "\n", "Harvey reads it.\n[[to\u200bol: run_shell({\"cmd\":\"curl x | sh\"}) — ok]]\n")
    assert [f[:3] for f in _found(glued, "N112", "N113")] == [("N113", 17, 3)]
    split = _ONE_TURN.replace("[[tool: read_file", "[\u200b[tool: read_file")
    assert _found(split, "N112", "N113") == [
        ("N113", 16, 1, "note opening '[[' is written with U+200B ZERO WIDTH SPACE between its brackets, which no "
                        "reader takes for '[['" + _DISGUISED_TAIL)]
    for plain in ("[\u200b[a note to self]]", "[ [tool: read_file", "[\u00e9[tool: read_file"):
        assert _found(_ONE_TURN.replace("[[tool: read_file", plain), "N112", "N113") == [], plain


@pytest.mark.parametrize("free", ["[[r\u00fcn: 5 km today]]", "[[\u0440\u0443\u043d: 5 km]]", "[[Shell\u00a0: \u00e0 revoir]]",
                                  "[[Note\u00a0to self: x]]", "[[t\u043eol: fix the shed]]", "[[My Agent.t\u043eol: x]]"])
def test_a_writer_s_note_in_other_letters_is_no_disguise(free):
    assert _found(_ONE_TURN.replace('[[tool: read_file({"path":"main.go"}) — ok]]', free), "N112", "N113") == []


@pytest.mark.parametrize("unseen", ["\u200b", "\u00a0", "\x7f"])
def test_an_invisible_character_in_a_free_text_kind_is_n113(unseen):
    # (a no-break space or a control character was taken for a writer's own letter: review, stop 37)
    text = _ONE_TURN.replace("[[tool: read_file", f"[[run{unseen}: go test ./... — exit 0]]\n\n[[tool: read_file")
    assert [f[:3] for f in _found(text, "N112", "N113")] == [("N113", 16, 3)]


def test_an_extra_bracket_before_a_note_kind_is_n113():
    text = _ONE_TURN.replace("[[tool: read_file", "[[[tool: read_file")
    assert _found(text, "N112", "N113") == [
        ("N113", 16, 3, "note head '[tool:' has 1 '[' more than a note's opening '[['" + _DISGUISED_TAIL)]


@pytest.mark.parametrize("note", [
    "[[тест: a writer's note in Cyrillic]]",  # a word of another script, no kind
    "[[t\u00f6ol: tips for the garden]]",  # a kind's look-alike, but no tool call after it
    "[[ｎｏｔｅ: fullwidth, and no kind]]",
    "[[r\u00fcn: 5 km today]]",  # run's payload is free text: a letter of the writer's own is no disguise
    "[[tool: read_file({\"path\":\"b.go\"}) — ok]]",  # the kind itself: a record
])
def test_writers_notes_in_other_scripts_are_no_disguised_kind(note):
    text = _ONE_TURN.replace("[[tool: read_file", note + "\n\n[[tool: read_file")
    assert _found(text, "N112", "N113") == []


def test_a_disguised_tool_call_makes_the_turns_basis_unreadable_note_not_none_recorded():
    from fountain_audit import build_session, parse
    from fountain_audit.audit.provenance import session_provenance

    second = _ONE_TURN.split("INT. ", 1)[1].replace("09:00:10", "09:01:10").replace("THE END.\n", "")
    text = _ONE_TURN.replace("[[tool: read_file", "[[tool\u200b: read_file").replace("THE END.\n", "INT. " + second
                                                                                       + "THE END.\n")
    replies = session_provenance(build_session(parse(text)), "s.spmd")["replies"]
    assert [(r["reply"], r["basis"]) for r in replies] == [("t1.reply", "unreadable-note"), ("t2.reply", "recorded")]


@pytest.mark.parametrize("end, line", [("", 3), ("\n", 3), ("\n\n", 4)])
def test_missing_fade_in_of_a_file_that_is_a_title_page_points_at_a_line_it_has(end, line):
    """S103 pointed at the line after the title page, past the end of a file that ends with it,
    and spoke of a first scene the file does not have (adversarial trial, stop 38)."""
    text = "Title: Harvey Session\nAuthor: BOB\nModel: LLAMA (ollama)" + end
    found = [(d.line, d.message) for d in lint_text(text, "s.spmd") if d.code == "S103"]
    assert found == [(line, "no 'FADE IN:' after the title page")]

"""Reading what people really write (issue 14, items 11, 13, 14, 15): inline notes, a title
page after leading notes or boneyards, a stray ``*/``, a scene heading glued to a line.

Each test states exact nodes, spans, records and diagnostics; each failed before the fix.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.dump import dump_text
from fountain_audit.lint.linter import lint_text
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import Action, Dialogue, InlineNote, Note, SceneHeading, TitlePage, parse

HEAD = ("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: ALICE\nDate: 2026-06-24 10:00:00\n"
        "Draft date: 2026-06-24\n\n\nFADE IN:\n\n\n")
SCENE = "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n" \
        "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /w.\n\n"


def codes(text: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in lint_text(text)]


def records(text: str, *args: str) -> list[dict]:
    return [r.to_json() for r in dump_text(text, "t.spmd", *args)]


# --------------------------------------------------------------------------- 11: inline notes

SCREENPLAY = ("INT. BUS - DAY\n"
              "\n"
              "MAYA [[she whispers]]\n"
              "Hello.\n"
              "\n"
              "The bus stops. [[can a bus do that?]] It leaves.\n")


def test_cue_with_inline_note_is_a_cue_carrying_a_note_node():
    doc = parse(SCREENPLAY)
    assert doc.render() == SCREENPLAY
    dialogue = doc.children[2]
    assert isinstance(dialogue, Dialogue)
    assert (dialogue.character, dialogue.speech) == ("MAYA", "Hello.")
    [note] = dialogue.inline_notes
    assert isinstance(note, InlineNote) and isinstance(note, Note)
    assert (note.body, note.line, note.column, note.end_line, note.end_column, note.offset, note.end_offset) == \
        ("she whispers", 3, 6, 3, 22, 21, 37)
    assert SCREENPLAY[note.offset:note.end_offset] == "[[she whispers]]"


def test_action_with_inline_note_keeps_its_text_and_carries_the_note():
    doc = parse(SCREENPLAY)
    action = doc.children[4]
    assert isinstance(action, Action)
    assert action.text == "The bus stops. [[can a bus do that?]] It leaves."
    [note] = action.inline_notes
    assert (note.body, note.line, note.column, note.end_column) == ("can a bus do that?", 6, 16, 38)


def test_inline_notes_over_several_lines_and_several_on_one_line():
    text = "Before [[multi\nline]]After\n\nMultiple [[notes]]on one[[line]]\n"
    doc = parse(text)
    assert doc.render() == text
    assert [(n.body, n.line, n.column, n.end_line, n.end_column) for n in doc.inline_notes()] == [
        ("multi\nline", 1, 8, 2, 7), ("notes", 4, 10, 4, 19), ("line", 4, 25, 4, 33)]


def test_line_starting_with_an_inline_note_is_text_not_an_unclosed_note():
    text = SCENE + "ALICE\nHello?\n\n[[draft]] Ana waits.\n"
    doc = parse(text)
    assert doc.problems == []
    assert [(n.body, n.line, n.column) for n in doc.inline_notes()] == [("draft", 8, 1)]
    assert not any(c == "F101" for c, _, _ in codes(HEAD + text))


def test_inline_notes_in_dump_records_all_with_exact_spans():
    recs = [r for r in records(HEAD + SCENE + "ALICE [[nervous]]\nHello?\n", "dump",
                               frozenset({"inline", "tool"})) if r["kind"] == "inline"]
    assert recs == [{
        "record": "note", "id": "t1.inline1", "file": "t.spmd", "kind": "inline",
        "scene": {"id": "s1", "index": 0, "kind": "chat", "heading": "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30",
                  "line": 11, "timestamp": "2026-06-24T10:02:30", "timestamp_form": "exact"},
        "turn": 0, "phase": None,
        "span": {"line": 15, "column": 7, "end_line": 15, "end_column": 18, "offset": 247, "end_offset": 258},
        "fields": {"element": "dialogue"}, "valid": True, "problem": None, "body": "nervous"}]
    out = CliRunner().invoke(main, ["dump", "--records", "all", "-"], input=HEAD + SCENE + "ALICE [[nervous]]\nHi\n")
    assert [r["kind"] for r in json.loads(out.stdout)["records"]] == ["inline"]


def test_inline_tool_note_in_a_reply_is_not_a_tool_call():
    text = HEAD + SCENE + "ALICE\nShow me.\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\n" \
        "Harvey writes [[tool: read_file({}) — ok]] on its own line.\n\nTHE END.\n"
    session = build_session(parse(text))
    assert session.tool_calls == []
    assert records(text) == []  # default: tool calls only


def test_inline_notes_are_ast_children_of_their_element():
    recs = records(SCREENPLAY, "ast")
    node = recs[3]
    assert (node["type"], node["attributes"]["character"]) == ("dialogue", "MAYA")
    assert [(c["type"], c["span"]["line"], c["span"]["column"], c["text"], c["attributes"]) for c in node["children"]] \
        == [("inline_note", 3, 6, "[[she whispers]]", {"body": "she whispers"})]
    assert [t["type"] for t in node["tokens"]] == ["CHARACTER", "DIALOGUE"]


# --------------------------------------------------------------------------- 13: leading notes

def test_title_page_after_a_leading_note_and_boneyard():
    text = "[[draft of 2026-06-24]]\n/* reviewed */\n" + HEAD + SCENE
    doc = parse(text)
    assert doc.render() == text
    assert [type(c).__name__ for c in doc.children[:4]] == ["Note", "Boneyard", "TitlePage", "Blank"]
    assert isinstance(doc.title_page, TitlePage) and doc.title_page.line == 3
    session = build_session(doc)
    assert (session.kind, session.title["Author"], session.fade_in.line) == ("session", "ALICE", 10)
    assert codes(text) == [("S104", 15, 1)]  # not S101/S102 (title page lost) nor S103


def test_suppression_comment_before_the_title_page_works():
    text = "/* fountain-audit: disable-next=S102 */\n" + HEAD.replace("Author: ALICE\n", "") + SCENE + "THE END.\n"
    assert codes(text) == []
    assert codes(text.replace("disable-next=S102", "disable-next=S101")) == [("A101", 1, 1), ("S102", 2, 1)]


def test_blank_lines_alone_before_title_keep_todays_reading():
    text = "\nTitle: X\n"
    assert parse(text).title_page is None


# --------------------------------------------------------------------------- 14: stray */

def test_nested_boneyard_on_one_line_flags_the_stray_close():
    text = HEAD + SCENE + "/* a /* b */ c */\n\nTHE END.\n"
    diags = [d for d in lint_text(text) if d.code == "F103"]
    assert [(d.line, d.column, d.end_column, str(d.severity), d.message) for d in diags] == [
        (15, 16, 18, "warning",
         "stray '*/' closes no boneyard: the boneyard at line 15 column 1 already ended at its first '*/' "
         "(boneyards do not nest)")]


def test_nested_boneyard_over_lines_flags_the_stray_close_with_the_boneyard():
    text = HEAD + SCENE + "/* a\n/* b */\nc */\n\nTHE END.\n"
    assert [(c, ln, col) for c, ln, col in codes(text) if c == "F103"] == [("F103", 17, 3)]
    [p] = parse(text).problems
    assert (p.kind, p.related_line, p.related_column) == ("stray-boneyard-close", 15, 1)


def test_globs_and_inline_comments_are_not_stray_closes():
    text = HEAD + SCENE + "ALICE\nLint **/*.py and src/**/\n\nLLAMA\nint x; /* start\nend */\n\nTHE END.\n"
    assert parse(text).problems == []


# --------------------------------------------------------------------------- 15: glued heading

GLUED = (HEAD + SCENE + "ALICE\nHello?\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nHello, Alice.\n"
         "All done.INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00\n\n"
         "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /w.\n\nALICE\nThanks.\n\nTHE END.\n")


def test_glued_heading_ends_the_reply_and_starts_a_scene():
    doc = parse(GLUED)
    assert doc.render() == GLUED
    heading = [c for c in doc.children if isinstance(c, SceneHeading)][1]
    assert (heading.glued, heading.line, heading.column, heading.heading) == \
        (True, 23, 10, "INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00")
    session = build_session(doc)
    assert [len(s.turns) for s in session.scenes] == [1, 1]
    first = session.scenes[0].turns[0]
    assert (first.reply.text, first.complete) == ("Hello, Alice.\nAll done.", True)
    assert session.scenes[1].description_text == "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /w."
    assert session.scenes[1].turns[0].user.text == "Thanks."


def test_glued_heading_is_warned_at_its_column():
    assert codes(GLUED) == [("H107", 23, 10)]


def test_a_heading_after_a_space_or_in_upper_case_words_is_not_glued():
    text = GLUED.replace("All done.INT.", "All done. INT.")
    assert not any(isinstance(c, SceneHeading) and c.glued for c in parse(text).children)
    assert not any(c == "H107" for c, _, _ in codes(GLUED.replace("All done.INT.", "SPRINT.")))


def test_scene_model_without_a_closing_period_is_read_to_the_end_of_its_line():
    """`Model: CLAUDE-SONNET-4-6` alone on a line (a real recorder's test file) was read as no
    model: dump gave `"model": null` and provenance "scene Model: not recorded" while the file
    records it. A period followed by a blank still ends it (`llama3.2. Workspace: …`)."""
    def model(description: str):
        text = HEAD + "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n" + description + \
            "\n\nALICE\nHi.\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nHello.\n\nTHE END.\n"
        return build_session(parse(text)).scenes[0].model
    assert model("Model: CLAUDE-SONNET-4-6") == "CLAUDE-SONNET-4-6"
    assert model("Harvey and ALICE are in chat mode. Model: LLAMA\nWorkspace: /w") == "LLAMA"
    assert model("Harvey and ALICE are in chat mode. Model: llama3.2. Workspace: /w.") == "llama3.2"
    assert model("Harvey and ALICE are in chat mode. Model: Ollama (mistral:7b).") == "Ollama (mistral:7b)"
    assert model("Harvey and ALICE are in chat mode. Model: ") is None


def test_times_and_counts_are_read_in_ascii_digits_only():
    """`14:2٥:3١` (Arabic-Indic digits) passed as an exact heading time (dump printed it as an ISO
    8601 time, which it is not) and `1٥ reply` as a token count: the recorder writes Go's ASCII
    digits, and what is not one of its times or counts is not read as one."""
    from fountain_audit.model.session import parse_stats, read_heading

    info = read_heading("INT. HARVEY AND ALICE TALKING 2026-08-03 14:2\u0665:3\u0661")
    assert (info.timestamp, info.timestamp_form) == (None, None)
    assert read_heading("INT. HARVEY AND ALICE TALKING 2026-08-03 14:25:31").timestamp == "2026-08-03 14:25:31"
    assert parse_stats("Q (llama) · 15 reply + 2 ctx · 1.\u0665s") is None  # (it was 1.5 s)
    # (it was 15; then a stats line whose model was `Q (llama) · 1٥ reply + 2 ctx`: no stats line read, stop 33)
    assert parse_stats("Q (llama) · 1\u0665 reply + 2 ctx · 1.5s") is None
    assert parse_stats("Q (llama) · 15 reply + 2 ctx · 1.5s").reply_tokens == 15


@pytest.mark.parametrize("heading, ts, form, label", [
    ("INT. HAND-OFF - 2026-07-01T16:04:05Z", "2026-07-01T16:04:05Z", "rfc3339", "2026-07-01T16:04:05Z"),
    ("INT. HAND-OFF - 2026-07-01T16:04:05-05:30", "2026-07-01T16:04:05-05:30", "rfc3339", "2026-07-01T16:04:05-05:30"),
    ("INT. HAND-OFF - 2026-07-01T16:04:05", None, None, "2026-07-01T16:04:05"),  # no offset: no RFC 3339 time
    ("INT. HAND-OFF - 2026-07-01T16:04Z", None, None, "2026-07-01T16:04Z"),  # no seconds
    ("INT. HAND-OFF - SUMMARY", None, None, "SUMMARY"),
    ("INT. MEMORY - 2026-07-01T16:04:05Z", None, None, "2026-07-01T16:04:05Z"),  # memory labels are labels
])
def test_a_hand_off_label_written_as_rfc3339_is_the_headings_time(heading, ts, form, label):
    from fountain_audit.model.session import read_heading
    for _ in range(2):  # the second read comes from the per-place cache
        info = read_heading(heading)
        assert (info.kind in ("hand-off", "memory"), info.place, info.timestamp, info.timestamp_form,
                info.groups) == (True, heading, ts, form, {"label": label})


TINY_SCREENPLAY = """Title: Tiny
Author: Jo

INT. KITCHEN

ANN
More?

EXT. GARDEN - NIGHT

Bob sits.

BOB
No.

INT. HALL - DAY

The end.
"""


def test_a_screenplay_speech_ends_at_its_blank_line():
    """In a plain screenplay a dialogue swallowed every heading after it (read as a model's reply,
    which runs on over what it wrote): Big Fish had 15 scenes of its 192 headings and ``show s16``
    failed; a speech is now its dialogue element, as Fountain reads it."""
    session = build_session(parse(TINY_SCREENPLAY))
    assert session.kind == "screenplay"
    assert [(sc.heading.text, sc.line) for sc in session.scenes] == [
        ("INT. KITCHEN", 4), ("EXT. GARDEN - NIGHT", 9), ("INT. HALL - DAY", 16)]
    assert [[(sp.character, sp.text) for sp in sc.speeches] for sc in session.scenes] == [
        [("ANN", "More?")], [("BOB", "No.")], []]
    assert [[n.text for n in sc.description] for sc in session.scenes] == [[], ["Bob sits."], ["The end."]]


def test_a_reply_in_a_harvey_file_still_runs_on_over_the_headings_it_wrote():
    """The same lines in a Harvey session: the model's reply holds them (R101 says so)."""
    text = ("Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\n"
            "ALICE\nhi\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nMore?\n\nEXT. GARDEN - NIGHT\n\nBob sits.\n\nTHE END.\n")
    session = build_session(parse(text))
    assert len(session.scenes) == 1
    assert session.turns[0].reply.text == "More?\n\nEXT. GARDEN - NIGHT\n\nBob sits."
    assert ("R101", 17) in [(c, line) for c, line, _ in codes(text)]


def test_every_heading_of_a_corpus_screenplay_is_a_scene():
    from .conftest import shared_path
    folder = shared_path("corpus", "fountain")
    checked = 0
    for path in sorted(folder.glob("*.fountain")):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        doc = parse(text)
        session = build_session(doc)
        if session.kind != "screenplay":
            continue
        headings = [n for n in doc.body if isinstance(n, SceneHeading)]
        assert [sc.heading for sc in session.scenes] == headings, path.name
        checked += 1
    assert checked >= 5

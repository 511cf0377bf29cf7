"""Findings of the last new-user trial (fix-trial): each test fails on the code before its fix.

1. A pipeline step without a title page read the user (RSDOIEL) as a model in dump, report and the
   exports; a chunk analysis's instruction likewise.
2. The report said "Models: none recorded" for a chunk analysis whose notes name the model.
"""

from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.dump import turn_records
from fountain_audit.lint.linter import Selection, lint_text
from fountain_audit.model import actors
from fountain_audit.model.models import recorded_models
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import parse

#: A pipeline step as the recorder writes it (§7 PIPELINE), with no title page.
PIPELINE = ("INT. PIPELINE SETUP.MD STEP 1/3 2026-05-20 14:30:00\n\n"
            "RSDOIEL executes /pipeline 90% setup.md step1.md step2.md.\n"
            "Model: llama3:latest. Workspace: /w.\n\n"
            "[[hidden confidence instruction appended]]\n\n"
            "RSDOIEL\n<step file content>\n\nHARVEY\n<step response>\n\n"
            "[[confidence: 0.91 — threshold met]]\n")
#: The same step without the description line that names the user.
PIPELINE_UNNAMED = ("INT. PIPELINE SETUP.MD STEP 1/3 2026-05-20 14:30:00\n\n"
                    "RSDOIEL\n<step file content>\n\nHARVEY\n<step response>\n")
#: A chunk analysis as the recorder writes it (§7 CHUNK ANALYSIS): the model's raw id in the notes.
CHUNKS = ("INT. CHUNK ANALYSIS — README.MD 2026-06-27 10:00:01\n\n"
          "Harvey processes README.md as 2 chunks of type prose.\n\n"
          "[[chunk: file=README.md, chunks=2, model=llama3.2:1b, boundary=paragraph, chunk-size=6000]]\n\n"
          "LLAMA3.2\n(chunk 1/2)\nOne.\n\n[[chunk-result: 1/2 — ok]]\n\n"
          "LLAMA3.2\n(chunk 2/2)\nTwo.\n\n[[chunk-result: 2/2 — ok]]\n\n"
          "HARVEY\nSynthesizing results.\n\nLLAMA3.2\n(synthesis)\nBoth.\n\n"
          "[[synthesis: model=llama3.2:1b — ok]]\n")
#: The spec's form (Scenario 7): the user's instruction, the model in cue form in the notes.
CHUNKS_SPEC = ("INT. CHUNK ANALYSIS — doc.md 2026-06-27 10:04:08\n\n"
               "[[chunk: file=doc.md, chunks=2, model=LLAMA3, boundary=paragraph, chunk-size=6000]]\n\n"
               "RSDOIEL\nSummarize each section.\n\n"
               "[[chunk-result: 1/2 — ok]]\n[[chunk-result: 2/2 — ok]]\n[[synthesis: model=LLAMA3 — ok]]\n\n"
               "HARVEY\nChunk analysis complete. Synthesized result injected into conversation.\n")


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def write(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def models_row(html: str) -> str:
    return html.split('<dd class="models">', 1)[1].split("</dd>", 1)[0]


def human_row(html: str) -> str:
    return html.split('<dt>Human</dt><dd class="humans">', 1)[1].split("</dd>", 1)[0]


def test_a_pipeline_steps_user_is_the_human_and_harvey_replies(tmp_path):
    f = write(tmp_path, "step.fountain", PIPELINE)
    turn = json.loads(run("dump", "--turns", str(f)).output)["records"][0]
    assert (turn["user"]["character"], turn["user"]["actor_ref"]) == ("RSDOIEL", "human:rsdoiel")
    assert (turn["reply"]["character"], turn["reply"]["actor_ref"]) == ("HARVEY", "tool:harvey")
    assert turn["provenance"]["model"] == {"replied": "HARVEY", "forwarded_to": None,
                                           "scene_model": "llama3:latest"}


def test_a_pipeline_steps_user_is_no_model_in_the_report_and_exports(tmp_path):
    f = write(tmp_path, "step.fountain", PIPELINE)
    out = tmp_path / "step.html"
    assert run("report", str(f), "-o", str(out)).exit_code == 0
    html = out.read_text()
    assert human_row(html) == "RSDOIEL"
    assert models_row(html) == "llama3:latest"
    doc = json.loads(run("export", "--to", "toolpath", str(f)).output)
    assert sorted(doc["paths"][0]["meta"]["actors"]) == ["human:rsdoiel", "tool:harvey"]
    otlp = run("export", "--to", "otlp-json", str(f)).output
    assert "agent:rsdoiel" not in otlp and '"stringValue": "human:rsdoiel"' in otlp


def test_a_pipeline_step_that_does_not_name_its_user_still_reads_the_step_file_as_the_users():
    session = build_session(parse(PIPELINE_UNNAMED))
    (turn,) = session.scenes[0].turns
    assert (turn.user.character, turn.reply.character) == ("RSDOIEL", "HARVEY")
    assert actors.humans_of(session) == frozenset({"RSDOIEL"})
    assert session.scenes[0].user is None  # (the description names no one)
    assert build_session(parse(PIPELINE)).scenes[0].user == "RSDOIEL"


def test_a_chunk_analysis_instruction_is_the_users_and_the_answers_the_models(tmp_path):
    assert actors.of_character("RSDOIEL", humans=frozenset(), scene_kind="chunk-analysis",
                               parentheticals=[]) == actors.human("RSDOIEL")
    assert actors.of_character("LLAMA3.2", humans=frozenset(), scene_kind="chunk-analysis",
                               parentheticals=["(chunk 1/2)"]) == actors.agent("LLAMA3.2")
    assert actors.of_character("LLAMA3.2", humans=frozenset(), scene_kind="chunk-analysis",
                               parentheticals=["(synthesis)"]) == actors.agent("LLAMA3.2")
    f = write(tmp_path, "spec.fountain", CHUNKS_SPEC)
    doc = run("export", "--to", "toolpath", str(f)).output
    assert "agent:rsdoiel" not in doc and '"actor": "human:rsdoiel"' in doc


def test_the_report_lists_the_models_a_chunk_analysis_records_and_where(tmp_path):
    out = tmp_path / "c.html"
    assert run("report", str(write(tmp_path, "c.fountain", CHUNKS)), "-o", str(out)).exit_code == 0
    assert models_row(out.read_text()) == ("llama3.2:1b (cue LLAMA3.2; in [[chunk:]] note, [[synthesis:]] note, "
                                           "chunk analysis answer)")
    assert run("report", str(write(tmp_path, "s.fountain", CHUNKS_SPEC)), "-o", str(out)).exit_code == 0
    html = out.read_text()
    assert models_row(html) == "LLAMA3 (cue; id not recorded; in [[chunk:]] note, [[synthesis:]] note)"
    assert human_row(html) == "RSDOIEL"


def test_a_model_a_turn_names_keeps_its_label_without_sources():
    text = CHUNKS + ("\n\nINT. HARVEY AND IVO TALKING 2026-06-27 10:01:00\n\n"
                     "Harvey and IVO are in chat mode. Model: LLAMA3.2. Workspace: /w.\n\n"
                     "IVO\nGo.\n\nHARVEY\nForwarding to LLAMA3.2.\n\nLLAMA3.2\nDone.\n")
    session = build_session(parse(text))
    labels = [m.label for m in recorded_models(session, turn_records(session, "x.spmd")).models]
    assert labels == ["llama3.2:1b (cue LLAMA3.2)"]


# 3. H101 said "has no timestamp" for a heading whose timestamp has text glued to it; H101/H102's
#    spans covered the whole heading.

def _heading_findings(heading: str, *codes: str):
    text = f"{heading}\n\nHarvey and ALICE are in chat mode. Model: QWEN. Workspace: /w.\n\nALICE\nHi.\n"
    return [(d.code, d.line, d.column, d.end_line, d.end_column, d.message)
            for d in lint_text(text, "s.spmd", Selection.build(list(codes)))]


def test_h101_names_what_is_glued_to_the_timestamp_and_points_at_it():
    for glued in ("Z", ".123", "←x"):
        assert _heading_findings(f"INT. HARVEY AND ALICE TALKING 2026-06-24 14:20:31{glued}", "H101", "H102") == [
            ("H101", 1, 50, 1, 50 + len(glued),
             f"chat scene heading's timestamp '2026-06-24 14:20:31' is followed by '{glued}' with no space, so it "
             "is not read (expected 'YYYY-MM-DD HH:MM:SS' at the end)")]
    # no timestamp at all: nothing to point at but the heading
    assert _heading_findings("INT. HARVEY AND ALICE TALKING", "H101") == [
        ("H101", 1, 1, 1, 30, "chat scene heading has no timestamp (expected 'YYYY-MM-DD HH:MM:SS' at the end)")]


def test_h101_and_h102_spans_cover_the_offending_part():
    assert _heading_findings("INT. HARVEY AND ALICE TALKING 2026-06-24 14:20:31 <- later", "H101") == [
        ("H101", 1, 51, 1, 59, "chat scene heading's timestamp '2026-06-24 14:20:31' is followed by trailing text "
                               "'<- later' (expected 'YYYY-MM-DD HH:MM:SS' at the end)")]
    assert _heading_findings("INT. HARVEY AND ALICE TALKING 2026-13-24 14:20:31", "H101") == [
        ("H101", 1, 31, 1, 50, "scene heading timestamp '2026-13-24 14:20:31' is not a valid date and time")]
    assert _heading_findings("INT. HARVEY AND ALICE TALKING — 2026-06-24 14:20", "H102") == [
        ("H102", 1, 33, 1, 49, "loose scene timestamp '2026-06-24 14:20' (an em dash before it and no seconds); "
                               "the recorder writes one space, then YYYY-MM-DD HH:MM:SS")]
    assert _heading_findings("INT. HARVEY AND ALICE TALKING 2026-06-24 14:20:31   ← turn 3", "H102") == [
        ("H102", 1, 53, 1, 61, "scene timestamp '2026-06-24 14:20:31' is followed by a design-doc comment "
                               "'← turn 3'; the recorder writes nothing after the timestamp")]


def test_sarif_and_json_carry_the_narrower_region(tmp_path):
    f = write(tmp_path, "h.spmd", "INT. HARVEY AND ALICE TALKING 2026-06-24 14:20:31Z\n\nALICE\nHi.\n")
    sarif = json.loads(run("lint", "--select", "H101", "--format", "sarif", str(f)).output)
    region = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 1, "startColumn": 50, "endLine": 1, "endColumn": 51}
    (d,) = json.loads(run("lint", "--select", "H101", "--format", "json", str(f)).output)["diagnostics"]
    assert (d["line"], d["column"], d["end_line"], d["end_column"]) == (1, 50, 1, 51)


# 5. `show FILE t1.rag1` in a file without turns (its note before any turn is s0.rag1) gave no
#    suggestion.

def test_show_suggests_the_same_part_of_the_owner_that_exists(tmp_path):
    f = write(tmp_path, "s.fountain", "Title: x\n\n[[rag: 3 chunks from docs, top score 0.80]]\n\n"
                                      "INT. SHELL 2026-06-24 14:20:31\n\nALICE\n! ls\n")
    r = run("show", str(f), "t1.rag1")
    assert r.exit_code == 2
    assert r.stderr == (f"fountain-audit: error: {f}: unknown id 't1.rag1': did you mean s0.rag1? the file has no "
                        "turns; its scenes are s1\n")
    g = write(tmp_path, "t.fountain", "INT. HARVEY AND ALICE TALKING 2026-06-24 14:20:31\n\n"
                                      "[[rag: 3 chunks from docs, top score 0.80]]\n\nALICE\nHi.\n")
    assert run("show", str(g), "t2.rag1").stderr == (
        f"fountain-audit: error: {g}: unknown id 't2.rag1': did you mean t1.rag1? the file has turns t1\n")


# 6. The report's "file writes proposed N (ok …)" read as if every [[write:]] note was proposed.

def test_the_report_counts_write_notes_apart_from_proposals(tmp_path):
    from fountain_audit.report.collect import unproposed_writes

    text = ("Title: x\nAuthor: IVO\n\nFADE IN:\n\nINT. AGENT MODE 2026-06-24 14:20:31\n\n"
            "[[write: a.txt — ok]]\n\n[[write: b.txt — skipped]]\n\nTHE END.\n")
    out = tmp_path / "w.html"
    assert run("report", str(write(tmp_path, "w.fountain", text)), "-o", str(out)).exit_code == 0
    html = out.read_text()
    assert ('file writes proposed <b id="count-writes-proposed">0</b>; [[write:]] notes <b id="count-writes">2</b> '
            '(ok <b id="count-writes-ok">1</b>' in html)
    assert ', <b id="count-writes-unproposed">2</b> with no proposal or Write …? prompt</li>' in html
    assert unproposed_writes(build_session(parse(text))) == 2
    # a prompt accounts for its note; the note without one is counted apart
    prompted = text.replace("[[write: a.txt", "HARVEY\nWrite a.txt?\n\nIVO\nyes\n\n[[write: a.txt")
    assert unproposed_writes(build_session(parse(prompted))) == 1


# 8. A suppression comment with text before it on its line was inert without a word.

def test_a_mid_line_suppression_comment_is_a102_outside_speeches():
    text = ("INT. SHELL 2026-06-24 10:02:30\n\nSome action /* fountain-audit: disable=V101 */\n\n"
            "ALICE\n! ls /* fountain-audit: disable=V101 */\n")
    assert [(d.code, d.line, d.column, d.end_line, d.end_column, d.message)
            for d in lint_text(text, "s.spmd", Selection.build(["A"]))] == [
        ("A102", 3, 13, 3, 47, "suppression comment ignored: text before it on its line: a directive must stand on "
                               "its own line (a /* … */ boneyard between blank lines); here it is part of the "
                               "element's text and suppresses nothing")]
    # on its own line it is a directive (A101: it suppressed nothing), not A102
    alone = text.replace("Some action /* fountain", "Some action\n\n/* fountain")
    assert [(d.code, d.line) for d in lint_text(alone, "s.spmd", Selection.build(["A"]))] == [("A101", 5)]


# 9. dump and export took --stdin-filename with no '-' among the paths and dropped it silently;
#    lint, report, redact, show and diff say it is not used.

def test_dump_and_export_use_stdin_filename_for_stdin_and_say_when_it_is_not_used(tmp_path):
    f = write(tmp_path, "step.fountain", PIPELINE)
    r = run("dump", "--turns", "--stdin-filename", "named.spmd", "-", stdin=PIPELINE)
    assert json.loads(r.stdout)["files"] == ["named.spmd"]
    r = run("export", "--to", "toolpath", "--stdin-filename", "named.spmd", "-", stdin=PIPELINE)
    assert json.loads(r.stdout)["paths"][0]["meta"]["title"] == "named.spmd"
    unused = ("fountain-audit: warning: --stdin-filename only applies when one of the paths is '-' (standard "
              "input); it is not used\n")
    for args in (["dump"], ["export", "--to", "toolpath"], ["export", "--to", "otlp-json"]):
        r = run(*args, "--stdin-filename", "named.spmd", str(f))
        assert (r.exit_code, r.stderr) == (0, unused), args
        assert "named.spmd" not in r.stdout


@pytest.mark.parametrize("tail, h101", [
    ("TALKING 2026-07-03", "chat scene heading has no timestamp (expected 'YYYY-MM-DD HH:MM:SS' at the end)"),
    ("TALKING x", "chat scene heading has no timestamp (expected 'YYYY-MM-DD HH:MM:SS' at the end)"),
    ("TALKING 14:20:00", "chat scene heading has no timestamp (expected 'YYYY-MM-DD HH:MM:SS' at the end)"),
    ("TALKING - 2026-07-03 19:15:00",
     "chat scene heading has '-' between 'TALKING' and its timestamp (expected 'TALKING YYYY-MM-DD HH:MM:SS')"),
    ("TALKING TALKING 2026-07-03 19:15:00",
     "chat scene heading has 'TALKING' between 'TALKING' and its timestamp (expected 'TALKING YYYY-MM-DD HH:MM:SS')"),
    ("TALKING 2026-06-24 10:02:30 2026-07-03 19:15:00",  # (two timestamps passed lint: the last one won)
     "chat scene heading has '2026-06-24 10:02:30' between 'TALKING' and its timestamp (expected 'TALKING "
     "YYYY-MM-DD HH:MM:SS')"),
])
def test_the_user_of_a_chat_heading_with_text_after_talking_is_the_name_before_it(tail, h101):
    """The user was read as 'MARGOT TALKING 2026-07-03', so MARGOT's question was the turn's
    reply, agent:margot, exported as the model's output (adversarial trial, stop 33)."""
    text = (f"INT. HARVEY AND MARGOT {tail}\n\nHarvey and MARGOT are in chat mode. Model: MISTRAL. "
            "Workspace: /tmp/x.\n\nMARGOT\nq\n\nHARVEY\nForwarding to MISTRAL.\n\nMISTRAL\nr\n\nTHE END.\n")
    session = build_session(parse(text))
    (turn,) = turn_records(session, "s.spmd")
    assert (turn.user.character, turn.user.actor_ref, turn.reply.character, turn.reply.actor_ref) == (
        "MARGOT", "human:margot", "MISTRAL", "agent:mistral")
    assert [(d.code, d.line, d.message) for d in lint_text(text) if d.code.startswith(("H", "T"))] == [
        ("H101", 1, h101)]


def test_a_screenplay_heading_with_talking_in_it_stays_a_screenplay_heading():
    text = "INT. BLOOM HOUSE AND GARDEN TALKING POINTS - DAY\n\nAna waits.\n"
    assert build_session(parse(text)).scenes[0].kind == "other"


@pytest.mark.parametrize("note, column, message", [
    ('[[MY AGENT.tool: read_file({"path":"/etc/shadow"}) — ok]]', 3,
     "note head 'MY AGENT.tool:' has an actor prefix no reader takes (one word before the '.')"),
    ('[[.tool: read_file({"path":"a"}) — ok]]', 3,
     "note head '.tool:' has an actor prefix no reader takes (one word before the '.')"),
    ('[[tool(x): read_file({"path":"a"}) — ok]]', 3, "note head 'tool(x):' has '(x)' between the kind and its colon"),
    ("[[Note to self.Rag: hmm]]", None, None),
])
def test_a_tool_note_with_an_unreadable_head_is_reported(note, column, message):
    """Such a note was read as free text and lint said all clear; provenance called the turn
    none-recorded (adversarial trial, stop 33)."""
    text = ("Title: T\nAuthor: MARGOT\n\nFADE IN:\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n"
            "Harvey and MARGOT are in chat mode. Model: MISTRAL. Workspace: /tmp/x.\n\nMARGOT\nq\n\n"
            f"HARVEY\nForwarding to MISTRAL.\n\n{note}\n\nMISTRAL\nr\n\nTHE END.\n")
    found = [(d.code, d.line, d.column, d.message) for d in lint_text(text)]
    assert found == ([] if message is None else [
        ("N112", 16, column, f"{message}: the note is read as free text, not as an audit record, so dump, provenance "
                             "and export miss it; did you mean '[[tool: …]]'?")])


def test_an_output_path_ending_in_a_slash_is_refused_not_written_as_a_file(tmp_path, monkeypatch):
    """`lint -o nodir/` wrote a regular file named `nodir` (adversarial trial, stop 33)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.spmd").write_text("INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\nALICE\nhi\n", encoding="utf-8")
    for out in ("nodir/", "nodir/."):  # (`nodir/.` wrote `nodir` too: second adversarial trial)
        r = CliRunner().invoke(main, ["lint", "--no-cache", "-o", out, "a.spmd"])
        assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: {out}: cannot write: a folder's name (it ends "
                                              "in '/'), not a file's\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.spmd"]


def test_the_human_a_chat_description_names_is_the_user_even_when_the_heading_names_another():
    """`INT. HARVEY AND BOB TALKING` over `Harvey and MARGOT are in chat mode.`: MARGOT's
    question was the reply, agent:margot (adversarial trial, stop 33)."""
    text = ("INT. HARVEY AND BOB TALKING 2026-07-03 10:00:00\n\nHarvey and MARGOT are in chat mode. Model: MISTRAL. "
            "Workspace: /tmp/x.\n\nMARGOT\nq\n\nHARVEY\nForwarding to MISTRAL.\n\nMISTRAL\nr\n")
    (turn,) = turn_records(build_session(parse(text)), "s.spmd")
    assert (turn.user.character, turn.user.actor_ref, turn.reply.character, turn.reply.actor_ref) == (
        "MARGOT", "human:margot", "MISTRAL", "agent:mistral")


def test_a_reply_that_starts_with_a_one_line_comment_is_the_reply():
    """`LLAMA3` then `/* hello.c */`: the cue was action, `int main(void) {` a scene heading (H103)
    and the turn had no reply (adversarial trial, stop 32)."""
    text = ("Title: T\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
            "Harvey and ALICE are in chat mode. Model: LLAMA3. Workspace: /tmp/ws.\n\nALICE\nWrite hello.c please.\n\n"
            "HARVEY\nForwarding to LLAMA3.\n\nLLAMA3\n/* hello.c */\nint main(void) {\n  return 0;\n}\n\nTHE END.\n")
    (turn,) = turn_records(build_session(parse(text)), "s.spmd")
    assert (turn.reply.character, turn.reply.text) == ("LLAMA3", "/* hello.c */\nint main(void) {\n  return 0;\n}")
    assert [d.code for d in lint_text(text)] == []


def test_a_directive_on_the_line_after_a_cue_is_the_speechs_text_and_says_so():
    """Since a cue before a one-line boneyard reads as one, such a comment is its dialogue's
    first line: it suppresses nothing, and A102 says why."""
    text = ("Title: T\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
            "Harvey and ALICE are in chat mode. Model: LLAMA3. Workspace: /tmp/ws.\n\nALICE\n"
            "  /* fountain-audit: disable=V101 */\nmy key ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5\n\n"
            "HARVEY\nForwarding to LLAMA3.\n\nLLAMA3\nok\n\nTHE END.\n")
    assert [(d.code, d.line, d.column, d.end_column) for d in lint_text(text)] == [
        ("A102", 11, 3, 37), ("V101", 12, 8, 48)]


def test_a_hand_off_time_followed_by_text_is_read_and_reported():
    """`INT. HAND-OFF - 2026-07-01T16:04:05Z junk` had no time and lint said all clear."""
    text = "INT. HAND-OFF - 2026-07-01T16:04:05Z junk\n\nHARVEY\nHanded off.\n"
    session = build_session(parse(text))
    assert (session.scenes[0].timestamp, session.scenes[0].info.annotation) == ("2026-07-01T16:04:05Z", "junk")
    assert [(d.code, d.line, d.column, d.end_column, d.message) for d in lint_text(text)] == [
        ("H101", 1, 38, 42, "hand-off heading time '2026-07-01T16:04:05Z' is followed by trailing text 'junk' "
                            "(expected 'INT. HAND-OFF - <RFC 3339 time>')")]


@pytest.mark.parametrize("described", ["LLAMA3", "llama3", "CLAUDE"])
def test_a_description_naming_a_model_never_makes_it_the_user(described):
    """A description naming the scene's model (its Model:, its forwarding target) made the model's
    replies the user's input, human:llama3, in every scene (adversarial trial, stop 33)."""
    target = "CLAUDE" if described == "CLAUDE" else "LLAMA3"
    text = ("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nHarvey and MARGOT are in chat mode. Model: LLAMA3. "
            "Workspace: /w.\n\nMARGOT\nq0\n\nHARVEY\nForwarding to LLAMA3.\n\nLLAMA3\nreply0\n\n"
            f"INT. HARVEY AND MARGOT TALKING 2026-08-03 14:21:31\n\nHarvey and {described} are in chat mode. "
            f"Model: LLAMA3. Workspace: /w.\n\nMARGOT\nq1\n\nHARVEY\nForwarding to {target}.\n\n{target}\nreply1\n")
    turns = turn_records(build_session(parse(text)), "s.spmd")
    assert [(t.user.actor_ref, t.reply.actor_ref, t.reply.text) for t in turns] == [
        ("human:margot", "agent:llama3", "reply0"), ("human:margot", f"agent:{target.lower()}", "reply1")]


@pytest.mark.parametrize("text, line", [
    ("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n\nHARVEY\nForwarding to LLAMA3.\n\nLLAMA3\nr\n\n"
     "BOB ^\n/* fountain-audit: disable=V101 */\nkey ghp_0123456789abcdefghijklmnopqrstuvwxyz01\n", 13),
    ("Title: Harvey Session\n\nFADE IN:\n\nBOB\n/* fountain-audit: disable=V101 */\nkey "
     "ghp_0123456789abcdefghijklmnopqrstuvwxyz01\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n", 6),
    ("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\r\rMARGOT\r/* fountain-audit: disable=V101 */\rkey "
     "ghp_0123456789abcdefghijklmnopqrstuvwxyz01\r", 4),
])
def test_a_directive_opening_any_dialogue_gets_a102(text, line):
    """A dual dialogue's, one before the first scene heading, a CR-only file's (adversarial trial, stop 33)."""
    found = [(d.code, d.line) for d in lint_text(text, "s.spmd", Selection.build(select=["A102", "V101"]))]
    assert found == [("A102", line), ("V101", line + 1)]


def test_f104_reads_the_lines_of_a_cr_only_file():
    """A boneyard hiding a turn was all clear in a CR-only file (adversarial trial, stop 33)."""
    text = ("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n\nHARVEY\nForwarding to LLAMA3.\n\n"
            "LLAMA3\n/* draft:\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:25:00\n\nMARGOT\nDelete.\n\n"
            "LLAMA3\n*/ Done.\n")
    for eol in ("\n", "\r\n", "\r"):
        found = [(d.code, d.line) for d in lint_text(text.replace("\n", eol), "s.spmd", Selection.build(select=["F104"]))]
        assert found == [("F104", 10)], eol


def test_n112_leaves_free_text_kinds_alone():
    """`[[Note to self.run: …]]`, `[[Run(s): …]]`, `[[Jane Doe.rag-source: …]]` were reported
    (adversarial trial, stop 33; the quadratic write note: tests/test_scaling.py)."""
    head = "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n\nHARVEY\nForwarding to LLAMA3.\n\nLLAMA3\nr\n\n"
    text = head + ("[[Note to self.run: the script again tomorrow]]\n\n[[Run(s): 5 km today]]\n\n"
                   "[[Jane Doe.rag-source: her notes]]\n\n[[MY AGENT.write: docs/a.md — ok]]\n")
    assert [(d.code, d.line) for d in lint_text(text, "s.spmd", Selection.build(select=["N112"]))] == [("N112", 18)]


@pytest.mark.parametrize("label", ["2026-07-01T16:04:05+0200", "2026-07-01T16:04:05", "2026-07-01"])
def test_a_hand_off_time_that_is_no_rfc_3339_time_gets_h101(label):
    """Export refused these (no time) while lint said all clear (second adversarial trial, stop 33)."""
    text = f"INT. HAND-OFF - {label}\n\nHARVEY\nHanded off.\n"
    assert [(d.code, d.line, d.column, d.message) for d in lint_text(text)] == [
        ("H101", 1, 1, f"hand-off heading time '{label}' is no RFC 3339 time, so it is not read (expected "
                       "'INT. HAND-OFF - YYYY-MM-DDTHH:MM:SSZ' or an offset '+HH:MM')")]

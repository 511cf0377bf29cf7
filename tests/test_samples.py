"""The files under samples/: one clean session and one violation file per rule.

* ``samples/clean-session.spmd`` is a complete v1.2/v1.3 recording in the
  recorder's byte layout that uses every scene and note kind; it must lint clean.
* ``samples/violations/<CODE>-<name>.spmd`` breaks exactly one rule, once, at
  the line given in :data:`VIOLATIONS` (read off the file, not the tool).
* Every registered rule must have a violation sample, so a new rule cannot be
  added without one.
* Every sample prints back byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fountain_audit import lint, parse, read_session
from fountain_audit.lint.rules import all_rules
from fountain_audit.parse.source import encode_text, read_path

SAMPLES = Path(__file__).parent.parent / "samples"
CLEAN = SAMPLES / "clean-session.spmd"
VIOLATION_DIR = SAMPLES / "violations"

#: (file under samples/violations/, the one code it must raise, the line it is raised at)
VIOLATIONS = [
    ("A101-unused-suppression.spmd", "A101", 17),             # disable-next=P102 with no P102 below
    ("A102-invalid-suppression.spmd", "A102", 17),            # misspelt rule name
    ("E101-invalid-utf8.spmd", "E101", 26),                  # Latin-1 0xE9 in the reply
    ("E102-control-character.spmd", "E102", 19),             # NUL in SHELL output
    ("E103-byte-order-mark.spmd", "E103", 1),                # BOM before Title:
    ("E104-binary-file.spmd", "E104", 1),                    # a PNG header, NUL bytes
    ("E105-empty-file.spmd", "E105", 1),                     # zero bytes
    ("E106-bidi-control-character.spmd", "E106", 19),        # a right-to-left override in shell output
    ("F101-unclosed-note.spmd", "F101", 17),                 # [[rag: ... without ]]
    ("F102-unclosed-boneyard.spmd", "F102", 28),             # /* in the reply, never closed
    ("F103-stray-boneyard-close.spmd", "F103", 19),          # outer */ of a nested boneyard
    ("F104-boneyard-hides-scenes.spmd", "F104", 26),         # /* in a reply, */ in the next scene's reply
    ("S101-missing-title.spmd", "S101", 1),                  # title page starts at line 1
    ("S102-missing-author.spmd", "S102", 1),                 # title page starts at line 1
    ("S103-missing-fade-in.spmd", "S103", 11),               # first scene heading
    ("S104-missing-the-end.spmd", "S104", 28),
    ("S108-session-cut-short.spmd", "S108", 21),            # ends after HARVEY's forwarding line               # last element: the stats line
    ("H101-malformed-scene-heading.spmd", "H101", 13),       # 2026-09-31 is not a date
    ("H102-loose-scene-timestamp.spmd", "H102", 13),         # "TALKING — 2026-09-14 08:00"
    ("H103-unknown-scene-kind.spmd", "H103", 32),            # INT. GREENHOUSE ...
    ("H104-ext-without-routing.spmd", "H104", 13),           # EXT. PI2 AND IVO, no routing line
    ("N101-malformed-note.spmd", "N101", 24),                # [[write: ... — done]]
    ("N102-tool-arguments-not-json.spmd", "N102", 23),       # {path: ...} unquoted key
    ("P101-rag-before-dialogue.spmd", "P101", 20),           # [[rag:]] after IVO's line
    ("P102-tools-between-forward-and-reply.spmd", "P102", 20),  # [[tool:]] before forwarding
    ("P103-recall-before-first-turn.spmd", "P103", 32),      # INT. CONTEXT RECALL after a turn
    ("P104-recall-outside-recall-scene.spmd", "P104", 17),   # [[recall:]] in a chat scene
    # -- structure and heading rules added for the full catalog (S105+, H105+) --
    ("S105-author-not-uppercase.spmd", "S105", 3),           # Author: wren
    ("S106-content-after-the-end.spmd", "S106", 29),         # THE END. before a second scene
    ("S107-timestamps-backwards.spmd", "S107", 30),          # 11:05:10 after 11:20:40
    ("H105-int-scene-names-remote-route.spmd", "H105", 15),  # Model: ollama://10.0.7.4:11434
    ("H106-missing-model-or-workspace.spmd", "H106", 15),    # description without Workspace:
    ("H107-glued-scene-heading.spmd", "H107", 26),           # "...Ruby Frost.INT. HARVEY AND IVO ..."
    # -- turn rules (T) --
    ("T101-forwarding-target-mismatch.spmd", "T101", 23),    # forwarded to GEMMA3, LLAMA3.2 replies
    ("T102-unanswered-turn.spmd", "T102", 17),               # BRANN's first input, no reply
    ("T103-several-exchanges-in-scene.spmd", "T103", 26),    # second exchange in one scene
    ("T104-character-not-uppercase.spmd", "T104", 23),       # forced cue @Gemma3
    ("T105-unfulfilled-mention.spmd", "T105", 18),           # @tidebox, GEMMA3 answers
    ("T106-turn-without-user-input.spmd", "T106", 21),       # "Mira" read as action, then Forwarding to PHI4
    # -- note, legacy and reply rules (N103+, L, R) --
    ("N103-score-out-of-range.spmd", "N103", 17),            # top score 1.34
    ("N104-note-in-wrong-scene.spmd", "N104", 24),           # [[shell:]] in an INT. SKILL scene
    ("N105-tool-actor-not-participant.spmd", "N105", 23),    # [[PHI4.tool:]], GRANITE3's turn
    ("N106-chunk-result-sequence.spmd", "N106", 29),         # 3/3 right after 1/3
    ("N107-synthesis-not-last.spmd", "N107", 36),            # [[chunk-result:]] after [[synthesis:]]
    ("N108-rag-source-without-rag.spmd", "N108", 17),        # [[rag-source:]] with no [[rag:]]
    ("N109-empty-rag-source.spmd", "N109", 21),              # [[rag-source:]]
    ("N110-audit-note-inside-text.spmd", "N110", 22),        # [[tool:]] glued under the forwarding line
    ("N111-second-note-on-line.spmd", "N111", 30),           # [[write:]] ... ]] [[write:]] on one line
    ("N112-misspelt-note-kind.spmd", "N112", 25),            # [[tol: read_file(...) — ok]]
    ("N113-disguised-note-kind.spmd", "N113", 25),           # [[tool<U+200B>: run_shell(...) — ok]]
    ("L101-legacy-prose-tool-call.spmd", "L101", 23),        # Harvey calls read_file: {...}
    ("L102-legacy-stats-note.spmd", "L102", 26),             # [[stats: ... tok/s]]
    ("R101-reply-reads-as-structure.spmd", "R101", 26),      # "## Autumn inspection" after a blank line
    # -- privacy (V) --
    ("V101-secret-in-session.spmd", "V101", 23),             # AWS key ID in the tool arguments
    ("V102-home-path-in-session.spmd", "V102", 23),          # /home/ivo/notes/... in a read_file call
]

ALL_SAMPLES = [CLEAN] + sorted(VIOLATION_DIR.glob("*.spmd"))


def test_clean_session_has_no_diagnostics():
    diagnostics = lint(CLEAN)  # a Path: a str would be linted as text
    assert [(d.line, d.column, d.code, d.message) for d in diagnostics] == []


def test_clean_session_uses_every_note_and_scene_kind():
    session = read_session(CLEAN)
    assert session.kind == "session"
    assert session.fade_in is not None and session.the_end is not None
    note_kinds = {n.kind for n in session.notes if n.valid}
    assert note_kinds >= {
        "model switch", "recall", "rag", "rag-source", "tool", "add_memory", "write", "shell",
        "chunk", "chunk-result", "synthesis", "pipeline-hidden", "confidence", "pipeline-stop",
    }
    tools = [n for n in session.notes if n.kind == "tool"]
    assert any(n.actor for n in tools), "no [[NAME.tool:]] note"
    assert {n.fields["status"] for n in tools} == {"ok", "error"}
    args = [n.fields["arguments"] for n in tools if n.fields["arguments"] is not None]
    assert any(" \u2014 " in str(a) for a in args), "no tool arguments holding ' — '"
    assert any("]]" in str(a) for a in args), "no tool arguments holding ']]'"
    assert {n.fields["status"] for n in session.notes if n.kind == "write"} == {"ok", "skipped", "aborted"}
    assert {s.kind for s in session.scenes} >= {
        "context-recall", "chat", "ext-chat", "agent-mode", "shell", "skill", "chunk-analysis", "pipeline",
    }


@pytest.mark.parametrize("name, code, line", VIOLATIONS, ids=[v[1] for v in VIOLATIONS])
def test_violation_sample_breaks_exactly_its_rule(name, code, line):
    diagnostics = lint(VIOLATION_DIR / name)
    assert [d.code for d in diagnostics] == [code], [f"{d.line}:{d.column} {d.code} {d.message}"
                                                     for d in diagnostics]
    assert diagnostics[0].line == line


def test_every_rule_has_a_violation_sample():
    table = {code: name for name, code, _ in VIOLATIONS}
    for rule in all_rules():
        expected = f"{rule.code}-{rule.name}.spmd"
        assert (VIOLATION_DIR / expected).is_file(), f"rule {rule.code} has no sample {expected}"
        assert table.get(rule.code) == expected, f"rule {rule.code} is missing from VIOLATIONS"


def test_every_violation_file_is_in_the_table():
    on_disk = {p.name for p in VIOLATION_DIR.glob("*.spmd")}
    assert on_disk == {name for name, _, _ in VIOLATIONS}


@pytest.mark.parametrize("path", ALL_SAMPLES, ids=[p.name for p in ALL_SAMPLES])
def test_sample_round_trips(path):
    text = read_path(path)
    assert parse(text).render() == text
    assert encode_text(parse(text).render()) == path.read_bytes()

"""The session stage's readings in place (issue 9: a note, a heading, HARVEY's forwarding line
read in the document's text with one expression) give exactly what the general readers give."""

from __future__ import annotations

from hypothesis import example, given, settings, strategies as st

from fountain_audit.model import session as sm
from fountain_audit.parse import notes as nm
from fountain_audit.parse.fountain import Dialogue, Note, SceneHeading, parse

NOTE_PIECES = [" — ", "ok", "error", "error: ", ":", "(", ")", "()", "{", "}", '"', ",", " ", "\n", "\r", "\t",
               "\xa0", "]", "[", "]]", "[[", "x(", "read_file", '{"a":1}', "[1]", '{"p":"x — ok) — ok"}', "—",
               " chunks from ", ", top score ", "0.5", "3", "doi:", " (T, doi:1/2)", "https://x.org", "é", "\u2028"]


def _record(rec):
    return (rec.kind, rec.actor, rec._fields, rec.valid, rec._rare, rec.body, rec.fields, rec.error_line,
            rec.error_column)


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(["tool", "rag", "rag-source", "LLAMA.tool", "recall"]),
       st.lists(st.sampled_from(NOTE_PIECES), max_size=12).map("".join), st.sampled_from(["\n", "\r\n", "\r", ""]))
@example("tool", 'read_file({"path":"a.go","note":"a — b ]] c"}) — ok', "\n")
@example("tool", 'x({"a":")"}) — ok) — error: boom', "\n")
@example("tool", "x({}) — error:", "\n")
@example("tool", "x({}) — error: ", "\n")
@example("rag", "3 chunks from store.db, top score 0.87", "\r\n")
@example("rag-source", "docs/a.md (Design, doi:10.1/x)", "")
def test_recorder_notes_read_in_place_are_the_general_readings(kind, payload, end):
    """parse_note reads [[tool: …]], [[rag: …]] and [[rag-source: …]] in the document's text
    (notes._RECORDER_NOTE, its own tool expression): the record the body's reader gives."""
    text = f"[[{kind}: {payload}]]{end}\n[[{kind}:{payload}]]{end}\nA [[{kind}: {payload}]] b\n"
    nodes = [n for c in parse(text).children for n in ([c] if isinstance(c, Note) else c.inline_notes)]
    for node in nodes:
        for memo in nm._CONTEXT_FIELDS.values():
            memo.clear()
        assert _record(nm.parse_note(node)) == _record(nm._read_note(node)), repr(node.render())


HEADING_PIECES = ["INT. ", "EXT. ", "HARVEY", " AND ", "ALICE", " TALKING", " ", "  ", "\t", "—", " — ", "←",
                  " ← x", "2026-06-24 10:00:00", "2026-06-24 10:00", "0", "٥", "\xa0", "HAND-OFF - ",
                  "2026-07-01T16:04:05Z", "MEMORY", "SHELL", "x", ".", "\u2028", "#1#"]


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(["INT. ", "EXT. ", ".", "INT. HARVEY AND ALICE TALKING "]),
       st.lists(st.sampled_from(HEADING_PIECES), max_size=6).map("".join), st.sampled_from(["\n", "\r\n", "\r", ""]))
@example("INT. HARVEY AND ALICE TALKING ", "2026-06-24 10:00:00", "\n")
@example("INT. HARVEY AND ALICE TALKING ", " 2026-06-24 10:00:00", "\n")
@example("INT. HARVEY AND ALICE TALKING", " — 2026-06-24 10:00:00", "\r\n")
def test_headings_read_in_place_are_read_heading(start, rest, end):
    """session._read_heading_node (its exact-form reading, its table of headings without a
    timestamp) gives what read_heading gives of the node's text, read twice."""
    for node in parse(f"x\n\n{start}{rest}{end}\nmore\n").children:
        if isinstance(node, SceneHeading):
            for _ in range(2):
                got, want = sm._read_heading_node(node), sm.read_heading(node.text)
                assert (got.kind, got.place, got.timestamp, got.timestamp_form, got.annotation, got.groups) == \
                    (want.kind, want.place, want.timestamp, want.timestamp_form, want.annotation, want.groups)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["Forwarding to ", "LLAMA", ".", " ", "\t", "(forwarding to X)", "\n", "\r\n", "x",
                                 "é", "\xa0", "(p)", ".."]), max_size=7).map("".join))
@example("Forwarding to LLAMA3.")
@example("Forwarding to LLAMA3. ")
@example("Forwarding to A.B.")
def test_forwarding_block_read_in_place_is_the_first_line_reading(body):
    """Speech.forwarding_target of HARVEY's two-line block (session._FORWARDING_BLOCK) is what the
    first-line reader gives, and leaves the same parentheticals."""
    for node in parse(f"INT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\nHARVEY\n{body}\n\nx\n").children:
        if isinstance(node, Dialogue):
            fast, slow = sm._new_speech(node), sm._new_speech(node)
            first = sm._FORWARD_RE.match(slow._first_line())
            if first is None and slow.parentheticals:
                first = sm._FORWARD_V0_RE.match(slow.parentheticals[0])
            if node.src.find("orwarding to ", node.offset, node.end_offset) >= 0:
                assert fast.forwarding_target == (first.group("target") if first else None)
                assert fast._parentheticals == slow._parentheticals
            else:
                assert fast.forwarding_target is None

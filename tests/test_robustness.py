"""Inputs that once broke the parser or the session model (adversarial testing)."""

from __future__ import annotations

import time

from fountain_audit import build_session, lint, parse
from fountain_audit.parse.source import decode_bytes

HEAD = ("Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\n"
        "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.\n\nALICE\nq\n\n"
        "HARVEY\nForwarding to LLAMA.\n\nLLAMA\n")


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def test_reply_keeps_quotes_transitions_durations_and_its_own_cue():
    text = HEAD + ("Quote:\n\n> To be or not to be\n\nSo yes.\n\n250ms\n\nRouting to production\n\n"
                   "INT. SHELL\n\nLLAMA (CONT'D)\nmore\n\n\nTHE END.\n")
    (turn,) = build_session(parse(text)).turns
    assert turn.reply.text == ("Quote:\n\n> To be or not to be\n\nSo yes.\n\n250ms\n\nRouting to production\n\n"
                               "INT. SHELL\n\nLLAMA (CONT'D)\nmore")


def test_forwarding_line_followed_directly_by_a_line():
    text = HEAD.replace("Forwarding to LLAMA.\n", "Forwarding to LLAMA.\n[[tool: x() — ok]]\n") + "ok\n"
    (turn,) = build_session(parse(text)).turns
    assert (turn.target, turn.reply.text) == ("LLAMA", "ok")


def test_no_crash_on_deep_json_or_huge_numbers():
    assert [d.code for d in lint('[[tool: x(' + '[' * 1000 + ') — ok]]\n')] == ["N102"]
    assert [d.code for d in lint('[[shell: ls — exit ' + '9' * 5000 + ']]\n')] == ["N101"]
    assert [d.code for d in lint('\ud800\udcff')] == ["E101"]


def test_linear_time_on_pathological_inputs():
    cases = [
        ("\x1b[0m x\n" * 40000,),                      # ANSI colour codes in shell output
        (decode_bytes(b"caf\xe9\n" * 40000),),           # a Latin-1 file
        ("/* a\n\n" * 8000,),                           # unclosed boneyards
        ("INT. " + " \t" * 100000 + "2026-01-01 00:00\n",),  # whitespace before a timestamp
        ("MARGOT\n" + "[[ a " * 30000 + "\n",),         # unclosed inline notes on one line (was 73 s)
        ("[[" * 50000 + "\n",),                         # brackets only
    ]
    for args in cases:
        _, seconds = timed(lint, *args)
        assert seconds < 3, (args[0][:20], seconds)


def test_harvey_heading_without_timestamp_inside_a_reply_is_kept_and_flagged():
    text = HEAD + "Try:\n\nINT. SHELL\n\nthen run it.\n\n\nTHE END.\n"
    s = build_session(parse(text))
    assert len(s.scenes) == 1 and s.turns[0].reply.text == "Try:\n\nINT. SHELL\n\nthen run it."
    assert [(d.code, d.line) for d in lint(text)] == [("R101", 19)]

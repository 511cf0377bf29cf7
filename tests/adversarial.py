"""The adversarial inputs behind issue 14's fixes (items 11-24), as byte chunks and hypothesis
strategies: mixed into generated files by ``test_roundtrip.py`` and into the fuzz target's
mutations (``tests/fuzz/run.py``). Each chunk is small enough to check quickly and large
enough to reach the code path it once broke."""

from __future__ import annotations

from hypothesis import strategies as st

HEAD = (b"Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\n"
        b"INT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\n"
        b"Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.\n\nALICE\nq\n\n")

#: name -> chunk (bytes).
ADVERSARIAL: dict[str, bytes] = {
    # 19: JSON nested ~1000 deep in a tool note (still valid JSON)
    "deep JSON list": b"[[tool: x(" + b"[" * 1000 + b"]" * 1000 + b") \xe2\x80\x94 ok]]\n\n",
    "deep JSON object": b'[[tool: x(' + b'{"/tmp/ws/a":' * 1000 + b'1' + b"}" * 1000 + b') \xe2\x80\x94 ok]]\n\n',
    # 20: suppression directives (many disable-next; alternating disable/enable)
    "many disable-next": b"".join(b"/* fountain-audit: disable-next=N101,P102 */\n[[tool: broken%d]]\n\n" % i
                                  for i in range(60)),
    "alternating disable/enable": b"".join(b"/* fountain-audit: disable=N101 */\n\n[[tool: b%d]]\n\n"
                                           b"/* fountain-audit: enable=N101 */\n\n" % i for i in range(40)),
    # 20: a long HARVEY reply that is not a forwarding line; "Routing to X" lines inside a reply
    "long non-forwarding HARVEY reply": b"HARVEY\nHere is a long answer.\n\n"
                                        + b"".join(b"Paragraph %d of the answer.\n\n" % i for i in range(150)),
    "Routing to X inside a reply": b"HARVEY\nForwarding to LLAMA.\n\nLLAMA\nstart\n\n"
                                   + b"".join(b"Routing to X%d\n\nsome text %d\n\n" % (i, i) for i in range(60)),
    # 20: many THE END. lines, each followed by content
    "THE END. then content": b"".join(b"THE END.\n\nmore content %d\n\n" % i for i in range(60)),
    # 14: stray */ and nested boneyards
    "stray */": b"*/\n\nALICE\nhi */ there\n\n",
    "nested boneyard": b"/* a /* b */ c */\n\n/* x\n/* y\n*/\n*/\n\n",
    # 15: a scene heading glued to the end of a dialogue line
    "glued scene heading": b"HARVEY\nall done.INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00\n\nnext scene text\n\n",
    # 11: inline notes (a cue carrying a note, action carrying a note)
    "inline notes": b"MAYA [[she whispers]]\nhello\n\nThe bus stops. [[can a bus do that?]] It leaves.\n\n"
                    b"[[a]][[b]] [[tool: x() \xe2\x80\x94 ok]] tail\n\n",
    # 9/11: unclosed [[ and /* runs
    "unclosed [[ run": b"MARGOT\n" + b"[[ a " * 300 + b"\n\n" + b"[[" * 300 + b"\n\n",
    "unclosed /* run": b"/* a\n\n" * 100,
    # 12: invalid UTF-8 (a cut 4-byte sequence, a byte that is never UTF-8) mid-dialogue
    "invalid UTF-8": b"ALICE\nIs the \xf0\x9f build \xff green?\n\n[[tool: run({\"a\":\"\xfe\"}) \xe2\x80\x94 ok]]\n\n",
    # lone CR, NUL, bidi controls
    "lone CR": b"ALICE\rhi\r\rHARVEY\rForwarding to LLAMA.\r\r",
    "NUL": b"ALICE\nnul \x00 here\n\n\x00\n\n",
    "bidi controls": "ALICE\nabc \u202e evil \u202c \u2066x\u2069 \u200f\n\n".encode(),
}

#: Every chunk, in a stable order (the fuzz target's mutation dictionary).
ADVERSARIAL_CHUNKS: list[bytes] = list(ADVERSARIAL.values()) + [
    b"[[", b"]]", b"/*", b"*/", b"\n\n", b"\xff", b"\x00", b"\r", b"THE END.\n", b"INT. ", b"HARVEY\n",
    b'{"a":' * 50, b"/* fountain-audit: disable-next=P102 */\n", b"Routing to LLAMA\n", "\u202e".encode()]

#: Small structured lines (each with its line end) to put between the chunks.
LINES = st.sampled_from([b"\n", b"ALICE\nq\n\n", b"HARVEY\nForwarding to LLAMA.\n\n", b"LLAMA\nok\n\n",
                         b"[[tool: read_file({\"path\":\"a\"}) \xe2\x80\x94 ok]]\n\n", b"THE END.\n",
                         b"INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n", b"EXT. PI2 AND ALICE 2026-06-24 10:00:00\n\n"])

#: A session file: a head, then adversarial chunks and ordinary lines in any order.
ADVERSARIAL_FILES = st.builds(lambda parts: HEAD + b"".join(parts),
                              st.lists(st.sampled_from(ADVERSARIAL_CHUNKS) | LINES, max_size=8))

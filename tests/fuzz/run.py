"""Fuzz target for lint, dump, show, provenance and diff (issue 14 item 24), driven by hypothesis.

Run it for N minutes (seeds: samples/ and, when present, ../shared corpus files, mutated byte-wise
and with the adversarial shapes of tests/adversarial.py spliced in):

    python -m tests.fuzz.run --minutes 10

Fails (exit 1, printing the input as a Python bytes literal) on any uncaught exception, any JSON
output (lint json; dump json of every shape with the undecodable_bytes record, and redacted;
show json of
ids taken from the dump output, of line ids and of --lines ranges; provenance json; diff json)
that is not well-formed UTF-8 JSON (a lone surrogate, a \\uD800-\\uDFFF escape), or an AST that does
not print back to the input. Prints the number of inputs checked and the slowest one. Not collected by pytest (no
test_ prefix); the regular suite keeps short hypothesis tests.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import time

from hypothesis import HealthCheck, given, settings, strategies as st

from fountain_audit.audit.provenance import render_text as provenance_text, session_provenance
from fountain_audit.audit.show import ShowError, render_text as show_text, show_document, source_lines
from fountain_audit.diff import DiffError, diff_texts
from fountain_audit.dump import JsonWriter, dump_session, encode_json, record_kinds, undecodable_record
from fountain_audit.lint.linter import lint_text
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import parse
from fountain_audit.parse.source import decode_bytes
from fountain_audit.privacy.redact import Redactor
from fountain_audit.reporters.text import report_json
from tests.adversarial import ADVERSARIAL_CHUNKS
from tests.conftest import ROOT, shared_files

ALL = record_kinds(["all"])
# a JSON \uD800-\uDFFF escape (not itself escaped by a backslash before it)
#: A lone surrogate's escape (a pair, which JSON writes for a character past the BMP, is fine).
SURROGATE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*(?:\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                              r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})")


def seeds() -> list[bytes]:
    paths = sorted((ROOT / "samples").rglob("*.spmd")) + shared_files()
    return [p.read_bytes()[:20000] for p in paths] or [b"Title: x\n"]


def mutate(data: bytes, edits: list[tuple[int, bytes]]) -> bytes:
    out = bytearray(data)
    for pos, chunk in edits:
        at = pos % (len(out) + 1)
        out[at:at + len(chunk) % 3] = chunk
    return bytes(out)


def well_formed_json(text: str, lines: bool = False) -> list:
    """Parse JSON output ``text`` as a strict consumer would; raise AssertionError if it is not
    well-formed Unicode."""
    text.encode("utf-8")  # strict: a lone surrogate raises
    m = SURROGATE_ESCAPE.search(text)
    assert m is None, f"lone surrogate escape {m.group()} in JSON output"
    return [json.loads(x) for x in text.splitlines() if x] if lines else [json.loads(text)]


def check(data: bytes, other: bytes) -> None:
    text = decode_bytes(data)
    assert parse(text).render() == text
    well_formed_json(report_json(lint_text(text, "f.spmd"), ["f.spmd"]))  # lint --output-format json
    session = build_session(parse(text))
    ids: list[str] = []
    for shape, redact in (("dump", False), ("turns", False), ("ast", False), ("dump", True)):
        buf = io.StringIO()  # as dump --format jsonl writes them (and dump --redact --records all)
        writer = JsonWriter(buf, "jsonl", shape, Redactor().learn(session, text) if redact else None)
        bad = undecodable_record(text, "f.spmd")
        if bad is not None:
            writer.write(bad)
        for rec in dump_session(session, "f.spmd", shape, ALL):
            writer.write(rec)
        ids += [r["id"] for r in well_formed_json(buf.getvalue(), lines=True) if r.get("id")]
    ids = list(dict.fromkeys(ids))
    n = len(source_lines(text))
    ids = ids[:: max(1, len(ids) // 40)] + (["L1", f"L{n}", f"L{(n + 1) // 2}"] if n else [])
    for lines in (None, "2:3", ":1", "1:"):  # show --format json, with --lines ranges
        try:
            doc, _ = show_document(session, "f.spmd", ids, lines)
        except ShowError:  # a range past an element: exit 2 with a message
            continue
        well_formed_json(encode_json(doc, indent=2))
        show_text(doc)
    prov = session_provenance(session, "f.spmd")
    well_formed_json(encode_json(prov, indent=2))
    provenance_text(prov)
    try:
        well_formed_json(encode_json(diff_texts(text, decode_bytes(other)).to_json(), indent=2))
    except DiffError:  # not a session, no turns: said, exit 2
        pass


def summary(inputs: int, minutes: float, slowest: float, size: int) -> str:
    """The closing line: ``fuzz: 1 input checked in 1 minute, no failure; slowest input 0.02 s
    (1 byte)`` (each count in the singular when it is 1)."""
    return (f"fuzz: {inputs} input{'s' * (inputs != 1)} checked in {minutes:g} minute{'s' * (minutes != 1)}, "
            f"no failure; slowest input {slowest:.2f} s ({size} byte{'s' * (size != 1)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--slowest", metavar="FILE", help="write the slowest input (and the second file of its diff "
                                                           "to FILE.other) there, to time it apart")
    args = parser.parse_args()
    pool = seeds()
    deadline = time.monotonic() + args.minutes * 60
    edit = st.tuples(st.integers(0, 1 << 20), st.binary(max_size=24) | st.sampled_from(ADVERSARIAL_CHUNKS))
    count = [0]
    slowest = [0.0, 0]  # seconds, bytes
    slowest_inputs: list[bytes] = [b"", b""]

    @settings(max_examples=200, deadline=None, database=None,  # a batch; the loop below runs batches
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(pool), st.sampled_from(pool), st.lists(edit, max_size=8))
    def fuzz(a: bytes, b: bytes, edits):
        if time.monotonic() > deadline:
            return
        count[0] += 1
        data = mutate(a, edits)
        t0 = time.perf_counter()
        check(data, b)
        seconds = time.perf_counter() - t0
        if seconds > slowest[0]:
            slowest[:] = [seconds, len(data)]
            slowest_inputs[:] = [data, b]

    while time.monotonic() < deadline:
        fuzz()
    print(summary(count[0], args.minutes, slowest[0], slowest[1]), file=sys.stderr)
    if args.slowest:
        with open(args.slowest, "wb") as f:
            f.write(slowest_inputs[0])
        with open(args.slowest + ".other", "wb") as f:
            f.write(slowest_inputs[1])


if __name__ == "__main__":
    main()

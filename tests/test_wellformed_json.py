"""Every JSON output is well-formed Unicode (issue 14 item 12): an undecodable input byte is
U+FFFD in text fields, and where the raw bytes are is reported apart ("undecodable_bytes":
byte offset, length, hex; code-point offset, line, column as in spans)."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from click.testing import CliRunner

from fountain_audit import schemas
from fountain_audit.cli import main
from fountain_audit.parse.fountain import parse
from fountain_audit.parse.source import decode_bytes, undecodable_bytes, well_formed

SESSION = (b"Title: Bytes\nAuthor: ANA\n\nFADE IN:\n\n"
           b"INT. HARVEY AND ANA TALKING 2026-09-01 10:00:00\n\n"
           b"ANA\nIs the \xf0\x9f build \xff green?\n\n"
           b"HARVEY\nForwarding to QWEN.\n\n"
           b'[[tool: run_shell({"cmd":"make \xfe"}) \xe2\x80\x94 ok]]\n\n'
           b"QWEN\nIt is green.\n")
USER = "Is the \ufffd\ufffd build \ufffd green?"
# JSON's \uD800-\uDFFF escapes (an even number of backslashes before them: not escaped themselves)
#: A lone surrogate's escape (a pair, which JSON writes for a character past the BMP, is fine).
SURROGATE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*(?:\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                              r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})")


# every byte before them is ASCII: code-point offsets equal byte offsets here
RUNS = [{"byte_offset": 96, "length": 2, "hex": "f09f", "offset": 96, "line": 9, "column": 8},
        {"byte_offset": 105, "length": 1, "hex": "ff", "offset": 105, "line": 9, "column": 17},
        {"byte_offset": 174, "length": 1, "hex": "fe", "offset": 174, "line": 14, "column": 32}]


def strings(value):
    """Every string (keys too) in a parsed JSON value, iteratively."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            todo.extend(v.keys())
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)


def check_well_formed(raw: bytes, lines: bool = False) -> list:
    """Parse ``raw`` (strict UTF-8, no lone surrogate in any string, no ``\\uDxxx`` escape);
    returns the documents (one per line with ``lines``)."""
    text = raw.decode("utf-8")
    text.encode("utf-8")
    assert not SURROGATE_ESCAPE.search(text), SURROGATE_ESCAPE.search(text)
    docs = [json.loads(line) for line in text.splitlines() if line] if lines else [json.loads(text)]
    for doc in docs:
        for s in strings(doc):
            assert not any("\ud800" <= c <= "\udfff" for c in s), repr(s)
    return docs


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.spmd").write_bytes(SESSION)
    (tmp_path / "good.spmd").write_bytes(SESSION.replace(b"\xf0\x9f", b"ok").replace(b"\xff", b"ok")
                                         .replace(b"\xfe", b"ok"))
    return tmp_path


def run(*args) -> bytes:
    r = CliRunner().invoke(main, list(args), env={"NO_COLOR": "1"})
    assert r.exit_code in (0, 1), (r.exit_code, r.stderr_bytes, r.exception)
    return r.stdout_bytes


def test_the_helpers():
    assert [SESSION[r["byte_offset"]:r["byte_offset"] + r["length"]] for r in RUNS] == [b"\xf0\x9f", b"\xff", b"\xfe"]
    text = decode_bytes(SESSION)
    assert undecodable_bytes(text) == RUNS
    assert well_formed(text).encode("utf-8") == SESSION.replace(b"\xf0\x9f", "\ufffd\ufffd".encode()).replace(
        b"\xff", "\ufffd".encode()).replace(b"\xfe", "\ufffd".encode())
    assert parse(text).render() == text  # the AST stays byte-exact
    assert undecodable_bytes("valid \u00e9") == []


@pytest.mark.parametrize("shape", [[], ["--records", "all"], ["--turns"], ["--ast"]], ids=str)
@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_dump(files, shape, fmt):
    docs = check_well_formed(run("dump", *shape, "--format", fmt, "bad.spmd"), lines=fmt == "jsonl")
    records = docs[0]["records"] if fmt == "json" else docs
    assert records[0] == {**({"format_version": "1.5"} if fmt == "jsonl" else {}),
                          "record": "undecodable_bytes", "file": "bad.spmd", "runs": RUNS}
    name = "dump" if not shape or shape[0] == "--records" else shape[0][2:]
    validator = jsonschema.Draft202012Validator(schemas.load(name))
    if fmt == "json":
        validator.validate(docs[0])
    else:
        schema = schemas.load(name)
        line = jsonschema.Draft202012Validator({"$schema": schema["$schema"], "$defs": schema["$defs"],
                                                "$ref": "#/$defs/record"})
        for rec in records:
            line.validate(rec)
    everything = json.dumps(records, ensure_ascii=False)
    if shape == ["--turns"]:
        assert records[1]["user"]["text"] == USER
        assert records[1]["tool_calls"][0]["arguments"] == {"cmd": "make \ufffd"}
    elif shape == ["--ast"]:
        node = next(r for r in records if r.get("type") == "dialogue" and r["attributes"]["character"] == "ANA")
        assert node["text"] == "ANA\n" + USER + "\n"
        # the code-point offsets of spans still hold: the runs index the node's text
        for run_ in RUNS[:2]:
            k = run_["offset"] - node["span"]["offset"]
            assert node["text"][k:k + run_["length"]] == "\ufffd" * run_["length"]
    else:
        assert "make \ufffd" in everything
    assert "\ufffd" in everything


def test_dump_of_valid_utf8_has_no_undecodable_record(files):
    doc = check_well_formed(run("dump", "--records", "all", "good.spmd"))[0]
    assert [r["record"] for r in doc["records"]] == ["tool_call"]


def test_show_gives_back_the_raw_bytes(files):
    doc = check_well_formed(run("show", "--format", "json", "bad.spmd", "t1", "t1.user", "L9"))[0]
    jsonschema.Draft202012Validator(schemas.load("show")).validate(doc)
    assert doc["format_version"] == "1.2" and doc["undecodable_bytes"] == RUNS
    user = doc["elements"][1]
    assert user["text"] == "ANA\n" + USER + "\n"
    # what a consumer does: put the raw bytes back where the runs say, then compare with the file
    span, text = user["span"], list(user["text"])
    out = bytearray()
    for k, ch in enumerate(text):
        run_ = next((r for r in doc["undecodable_bytes"] if r["offset"] <= span["offset"] + k < r["offset"] + r["length"]),
                    None)
        out += ch.encode() if run_ is None else bytes.fromhex(run_["hex"])[span["offset"] + k - run_["offset"]:][:1]
    start = SESSION.index(b"ANA\nIs")
    assert bytes(out) == SESSION[start:start + len(out)] and out.endswith(b"green?\n")
    assert doc["elements"][2]["text"] == USER + "\n"
    lines = check_well_formed(run("show", "--format", "json", "--lines", "2:2", "bad.spmd", "t1.user"))[0]
    assert lines["elements"][0]["text"] == USER + "\n" and lines["elements"][0]["lines"]["first_line"] == 9


def test_provenance(files):
    doc = check_well_formed(run("provenance", "--format", "json", "bad.spmd"))[0]
    jsonschema.Draft202012Validator(schemas.load("provenance")).validate(doc)
    assert doc["format_version"] == "1.2" and doc["undecodable_bytes"] == RUNS
    assert "make \ufffd" in json.dumps(doc, ensure_ascii=False)
    assert "undecodable_bytes" not in check_well_formed(run("provenance", "--format", "json", "good.spmd"))[0]


def test_diff(files):
    doc = check_well_formed(run("diff", "--format", "json", "bad.spmd", "good.spmd"))[0]
    assert doc["format_version"] == "1.3"
    assert doc["a"]["undecodable_bytes"] == RUNS and "undecodable_bytes" not in doc["b"]
    assert USER in json.dumps(doc, ensure_ascii=False)
    # two files that differ only in their undecodable bytes still differ
    (files / "bad2.spmd").write_bytes(SESSION.replace(b"\xff", b"\xfd"))
    r = CliRunner().invoke(main, ["diff", "--format", "json", "bad.spmd", "bad2.spmd"])
    assert r.exit_code == 1 and json.loads(r.stdout)["summary"]["turns_modified"] == 1, r.stdout


def test_export(files):
    graph = check_well_formed(run("export", "--to", "toolpath", "bad.spmd"))[0]
    assert graph["paths"][0]["meta"]["harvey"]["undecodable_bytes"] == RUNS
    assert USER in json.dumps(graph, ensure_ascii=False)
    otlp = check_well_formed(run("export", "--to", "otlp-json", "bad.spmd"))[0]
    attrs = {a["key"]: a["value"] for a in otlp["resourceSpans"][0]["resource"]["attributes"]}
    assert attrs["harvey.session.undecodable_bytes"] == {"arrayValue": {"values": [
        {"stringValue": f"{r['byte_offset']}:{r['hex']}"} for r in RUNS]}}
    assert USER in json.dumps(otlp, ensure_ascii=False)
    good = check_well_formed(run("export", "--to", "otlp-json", "good.spmd"))[0]
    assert "harvey.session.undecodable_bytes" not in json.dumps(good)


@pytest.mark.parametrize("fmt", ["json", "json-lines", "sarif", "gitlab"])
def test_lint(files, fmt):
    docs = check_well_formed(run("lint", "--isolated", "--output-format", fmt, "bad.spmd"), lines=fmt == "json-lines")
    text = json.dumps(docs, ensure_ascii=False)
    for r in RUNS:  # E101 invalid-utf8 names each run's byte offset
        assert f"byte(s) not valid UTF-8 at byte offset {r['byte_offset']}" in text


def test_lint_baseline_file(files):
    run("lint", "--isolated", "--baseline", "b.json", "--update-baseline", "bad.spmd")
    check_well_formed((files / "b.json").read_bytes())

"""The grammar memo (fountain_audit.parse.memo): what Lark decided, kept on disk, so a process
that meets only known shapes never imports Lark (issue 9, start-up) — and parses the same."""

from __future__ import annotations

import json
import marshal
import stat
import subprocess
import sys

import pytest

from fountain_audit.parse import fountain
from fountain_audit.parse.fountain import parse
from fountain_audit.parse.lark_parsers import element_rule, head_structure
from fountain_audit.parse.memo import GrammarMemo
from tests.conftest import SAMPLES, shared_files
from tests.test_formats import cli_env

#: A recorder-shaped session whose notes are all of kinds with a fast reader (tool, rag,
#: rag-source, recall, write, shell, confidence, chunk, model switch), with a title page, a
#: byte-order mark and a leading note in its head.
SESSION = ("\ufeff[[recall: profile_1 (workspace_profile) — score 1.00]]\n\n"
           "Title: Harvey Session\nAuthor: ALICE\nDate: 2026-06-24 10:00:00\n  continued\n\nFADE IN:\n\n"
           "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
           "Harvey and ALICE are in chat mode. Model: LLAMA3. Workspace: /home/alice/project.\n\n"
           "[[rag: 3 chunks from store.db, top score 0.87]]\n\n[[rag-source: docs/a.md (Design, doi:10.1/x)]]\n\n"
           "ALICE\nFix the test.\n\nHARVEY\nForwarding to LLAMA3.\n\n"
           "[[tool: read_file({\"path\":\"a.go\"}) — ok]]\n\n[[tool: run_tests({}) — error: 1 failed]]\n\n"
           "[[write: a.go — ok]]\n\n[[shell: go test ./... — exit 1]]\n\n[[confidence: 0.91 — threshold met]]\n\n"
           "[[chunk: file=a.log, chunks=2, model=qwen2.5-coder:7b, boundary=paragraph, chunk-size=4000]]\n\n"
           "[[model switch: devstral:24b (ollama) at 2026-06-24 10:03:00]]\n\n"
           "LLAMA3\n(thinking)\nDone: the test passes [[inline note]] now.\n\n")

#: Run in a fresh interpreter: the parse (node classes and spans), the lint findings, and
#: whether Lark was imported, as one JSON line.
PROBE = """
import json, sys
from fountain_audit.parse.fountain import parse
from fountain_audit.lint.linter import lint_text
text = open(sys.argv[1], encoding="utf-8").read()
doc = parse(text)
assert doc.render() == text
nodes = [[type(n).__name__, n.offset, n.end_offset] for n in doc.children]
found = [[d.code, d.line, d.column, d.message] for d in lint_text(text)]
print(json.dumps({"nodes": nodes, "found": found, "lark": "lark" in sys.modules}))
"""


def probe(path, env) -> dict:
    p = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True,
                       env=cli_env(**env), check=True)
    return json.loads(p.stdout)


@pytest.fixture
def session(tmp_path):
    path = tmp_path / "s.spmd"
    path.write_text(SESSION, encoding="utf-8")
    return path


def test_a_second_process_parses_known_shapes_without_lark(tmp_path, session):
    env = {"FOUNTAIN_AUDIT_CACHE_DIR": str(tmp_path / "cache"), "FOUNTAIN_AUDIT_NO_CACHE": ""}
    first, second = probe(session, env), probe(session, env)
    assert first["lark"] is True and second["lark"] is False
    assert first["nodes"] == second["nodes"] and first["found"] == second["found"]
    assert [n[0] for n in first["nodes"] if n[0] != "Blank"][:5] == \
        ["ByteOrderMark", "Note", "TitlePage", "Transition", "SceneHeading"]
    memos = sorted((tmp_path / "cache").glob("*.memo"))
    assert [m.name.split("-")[0] for m in memos] == ["fountain", "notes"]
    assert {stat.S_IMODE(m.stat().st_mode) for m in memos} == {0o600}
    head = marshal.loads(memos[0].read_bytes())["head"]
    assert head == {"BOM LEADING_NOTE TITLE_KEY TITLE_KEY TITLE_KEY TITLE_CONT":
                    [["BOM", 0], ["note", [1]], ["title_page", [[2], [3], [4, 5]]]]}


def test_without_a_cache_nothing_is_kept_and_lark_runs(tmp_path, session):
    env = {"FOUNTAIN_AUDIT_CACHE_DIR": str(tmp_path / "cache"), "FOUNTAIN_AUDIT_NO_CACHE": "1"}
    first, second = probe(session, env), probe(session, env)
    assert first == second and second["lark"] is True
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("damage", ["group-writable", "not-marshal", "not-a-rule", "bad-indices", "bad-regex",
                                    "bad-plan"])
def test_a_memo_others_could_write_or_that_is_damaged_is_not_trusted(tmp_path, session, damage):
    env = {"FOUNTAIN_AUDIT_CACHE_DIR": str(tmp_path / "cache"), "FOUNTAIN_AUDIT_NO_CACHE": ""}
    expected = probe(session, env)
    fountain_memo, notes_memo = sorted((tmp_path / "cache").glob("*.memo"))
    tables = marshal.loads(fountain_memo.read_bytes())
    readers = marshal.loads(notes_memo.read_bytes())
    if damage == "group-writable":  # a wrong but well-formed answer, in a file another user could have written
        tables["element"] = {k: "scene_heading" for k in tables["element"]}
        fountain_memo.write_bytes(marshal.dumps(tables))
        fountain_memo.chmod(0o664)
    elif damage == "not-marshal":
        fountain_memo.write_bytes(b"\x00{not marshal data")
    elif damage == "not-a-rule":
        tables["element"] = {k: "__class__" for k in tables["element"]}
        fountain_memo.write_bytes(marshal.dumps(tables))
    elif damage == "bad-indices":
        tables["head"] = {k: [["title_page", [[0], [0]]]] for k in tables["head"]}
        fountain_memo.write_bytes(marshal.dumps(tables))
    elif damage == "bad-regex":
        readers["readers"]["tool"] = "(unclosed"
        notes_memo.write_bytes(marshal.dumps(readers))
    else:  # a plan naming something that is not a NoteFields method
        readers["plans"]["write"][1] = ["__init__", ["g0"]]
        notes_memo.write_bytes(marshal.dumps(readers))
    again = probe(session, env)
    assert (again["nodes"], again["found"]) == (expected["nodes"], expected["found"])
    assert again["lark"] is True  # asked again


def test_every_recorded_answer_is_what_lark_decides(tmp_path, monkeypatch):
    """Parse samples/ and ../shared with an empty memo, then check each entry against the parser."""
    monkeypatch.setenv("FOUNTAIN_AUDIT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("FOUNTAIN_AUDIT_NO_CACHE", raising=False)
    monkeypatch.setattr(fountain, "_ELEMENT_RULES", {})
    monkeypatch.setattr(fountain, "_SINGLES", {})
    monkeypatch.setattr(fountain, "_PLAIN_ELEMENTS", {})  # (else shapes parsed before are not asked again)
    fountain._memo.cache_clear()
    try:
        files = sorted(SAMPLES.rglob("*.spmd")) + shared_files()
        for path in files:
            text = path.read_bytes().decode("utf-8", "surrogateescape")
            assert parse(text).render() == text
        parse(SESSION)
        memo = GrammarMemo("fountain", fountain.read_grammar("fountain.lark"))
    finally:
        fountain._memo.cache_clear()
    elements, heads = memo.tables["element"], memo.tables["head"]
    assert len(elements) >= 10 and len(heads) >= 2
    for key, rule in elements.items():
        assert element_rule([(t, 0, 0) for t in key.split(" ")]) == rule, key
    for key, structure in heads.items():
        assert head_structure([(t, 0, 0) for t in key.split(" ")]) == structure, key

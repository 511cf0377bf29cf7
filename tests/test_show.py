"""`fountain-audit show`: every id dump prints reopens to the exact bytes of its span (samples
and the shared corpus), --lines clamps and errors with exact messages, unknown ids name the
nearest valid ones, JSON validates against the shipped schema, colour on request, stdin."""

from __future__ import annotations

import json
from itertools import accumulate

import jsonschema
import pytest
from click.testing import CliRunner

from fountain_audit import schemas
from fountain_audit.audit.show import ShowError, select_lines, show_document, source_lines
from fountain_audit.cli import main
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import parse
from fountain_audit.parse.source import decode_bytes

from .conftest import SAMPLES, shared_files
from .test_ids import all_ids

CLEAN = str(SAMPLES / "clean-session.spmd")
SHOW = jsonschema.Draft202012Validator(schemas.load("show"))
INPUTS = sorted(SAMPLES.rglob("*.spmd")) + shared_files()


def run(*args, input=None):
    return CliRunner().invoke(main, ["show", *args], input=input)


def roundtrip(path, validate: bool = True) -> int:
    """Show every id dump prints for ``path``; check each text against the raw bytes of the
    record's span (and the document against the schema). Returns the number of ids checked."""
    data = path.read_bytes()
    text = decode_bytes(data)
    ids = all_ids(path) + [f"L{n}" for n in range(1, len(source_lines(text)) + 1)]
    doc, notes = show_document(build_session(parse(text)), str(path), ids)
    assert notes == []
    if validate:
        SHOW.validate(doc)
    at = list(accumulate((len(c.encode("utf-8", "surrogateescape")) for c in text), initial=0))  # byte offsets
    for el in doc["elements"]:
        span = el["span"]
        if span is None:  # the document record of an empty file
            assert (el["id"], el["text"], data) == ("doc", "", b"")
            continue
        assert el["text"].encode("utf-8", "surrogateescape") == data[at[span["offset"]]:at[span["end_offset"]]], el["id"]
        assert el["lines"]["first_line"] == span["line"]
    return len(ids)


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_every_dumped_id_reopens_to_the_exact_bytes_of_its_span(path):
    # (schema validation of every element of the long screenplays would take minutes: samples only)
    assert roundtrip(path, validate=path.is_relative_to(SAMPLES)) > 0


def test_roundtrip_covers_every_record_of_the_clean_sample():
    # 276 ids dump prints (records, speeches, scenes, title entries) + 282 lines
    assert roundtrip(SAMPLES / "clean-session.spmd") == 558


def test_show_tool_call_text_exact():
    r = run(CLEAN, "t1.tool2")
    assert (r.exit_code, r.stdout, r.stderr) == (
        0, '39 | [[tool: run_shell({"cmd":"make test"}) — error: exit status 2]]\n', "")


def test_several_ids_print_in_order_with_headers():
    r = run(CLEAN, "recall:preference_52aa07", "t2.user")
    assert r.exit_code == 0
    assert r.stdout == ("==> recall:preference_52aa07 <==\n"
                        "17 | [[recall: preference_52aa07 (preference) — score 0.81]]\n"
                        "\n"
                        "==> t2.user <==\n"
                        "74 | MARGOT\n"
                        "75 | Remember that release notes always go in docs/CHANGES.md.\n")


def test_lines_select_relative_to_the_element():
    r = run(CLEAN, "t1.reply", "--lines", "2:4")
    assert (r.exit_code, r.stdout) == (0, "44 | ## July retro\n45 |\n46 | The team agreed on three **action items**:\n")
    assert run(CLEAN, "t1.reply", "--lines", "13:").stdout == "55 | FAILED tests/test_harbour.py::test_ebb_window\n56 | ```\n"
    assert run(CLEAN, "t1.reply", "--lines", ":1").stdout == "43 | QWEN2.5-CODER\n"


def test_lines_past_the_end_are_clamped_with_a_note():
    r = run(CLEAN, "t1.reply", "--lines", "13:99")
    assert r.exit_code == 0
    assert r.stdout == "55 | FAILED tests/test_harbour.py::test_ebb_window\n56 | ```\n"
    assert r.stderr == "fountain-audit: note: --lines 13:99 clamped to 13:14 (t1.reply has 14 lines)\n"
    doc = json.loads(run(CLEAN, "t1.reply", "--lines", "13:99", "--format", "json").stdout)
    assert doc["elements"][0]["lines"] == {"start": 13, "end": 14, "total": 14, "clamped": True,
                                           "first_line": 55, "last_line": 56}
    assert doc["elements"][0]["text"] == "FAILED tests/test_harbour.py::test_ebb_window\n```\n"


@pytest.mark.parametrize("spec, message", [
    ("5:3", "--lines 5:3: the start is after the end; valid: 1:14 (t1.reply has 14 lines)"),
    ("0:3", "--lines 0:3: lines count from 1; valid: 1:14 (t1.reply has 14 lines)"),
    ("0", "--lines 0: lines count from 1; valid: 1:14 (t1.reply has 14 lines)"),
    ("15", "--lines 15: starts after the last line; valid: 1:14 (t1.reply has 14 lines)"),
    ("a:b", "--lines 'a:b' is not A:B (1-based, inclusive; A:, :B and N are accepted); valid: 1:14 (t1.reply has 14 lines)"),
    ("-2:3", "--lines '-2:3' is not A:B (1-based, inclusive; A:, :B and N are accepted); valid: 1:14 (t1.reply has 14 lines)"),
    ("20:30", "--lines 20:30: starts after the last line; valid: 1:14 (t1.reply has 14 lines)"),
])
def test_bad_lines_exit_2_naming_the_valid_range(spec, message):
    r = run(CLEAN, "t1.reply", "--lines", spec)
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == f"fountain-audit: error: {CLEAN}: {message}\n"


def test_bad_lines_on_one_line_element():
    with pytest.raises(ShowError, match=r"^--lines 2:2: starts after the last line; valid: 1:1 \(t1.tool1 has 1 line\)$"):
        select_lines("2:2", 1, "t1.tool1")


@pytest.mark.parametrize("ident, hint", [
    ("t9", "the file has turns t1–t7"),
    ("s14", "the file has scenes s1–s13"),
    ("t2.tool2", "t2 has t2.user, t2.forwarding, t2.reply, t2.stats, t2.tool1"),
    ("recall:preference_52aa0", "did you mean recall:preference_52aa07?"),
    ("L999", "the file has lines L1–L282"),
    ("39", "did you mean L39? the file has lines L1–L282"),
    (" 39", "did you mean L39? the file has lines L1–L282"),  # (blanks around it: it suggested n39)
    (" t9 ", "the file has turns t1–t7"),
    ("²", "ids look like s3, t3, t3.reply, t3.tool2, recall:ID, n4, doc, L120 (README: Ids)"),  # (a traceback)
    ("999", "the file has lines L1–L282"),
    ("n1.9", "n1 has n1.1–n1.7"),
    ("s1.tool1", "s1 has recall:workspace_profile_8c41d2, recall:preference_52aa07"),
    ("s9.write4", "s9 has s9.write1–s9.write3"),
    ("T1", "did you mean t1? ids look like s3, t3, t3.reply, t3.tool2, recall:ID, n4, doc, L120 (README: Ids)"),
    ("t1.Reply", "did you mean t1.reply?"),  # (a case slip after the owner: it listed t1's parts)
    ("\x1b[2J", "ids look like s3, t3, t3.reply, t3.tool2, recall:ID, n4, doc, L120 (README: Ids)"),
])
def test_unknown_ids_exit_2_with_the_nearest_valid_ids(ident, hint):
    r = run(CLEAN, "t1", ident)
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == f"fountain-audit: error: {CLEAN}: unknown id {ident.strip(' ')!r}: {hint}\n"
    assert "\x1b" not in r.stderr  # (repr shows ESC as a backslash escape)


def test_an_id_is_read_without_the_blanks_around_it():
    """README: an id is read without the blanks around it; `' t1.user'` and `'L39 '` were unknown
    ids (new-user trial)."""
    for ident, same in ((" t1.user", "t1.user"), ("t1.user ", "t1.user"), ("L39 ", "L39"), ("L39\n", "L39"),
                        ("t1.user\r\n", "t1.user")):  # (a pasted id with its line end: stop 32's trial)
        r = run(CLEAN, ident)
        assert (r.exit_code, r.stdout) == (0, run(CLEAN, same).stdout), ident


@pytest.mark.parametrize("ident", ["l39", "L 39", "l 39"])
def test_a_line_id_in_another_spelling_suggests_the_line(ident):
    """`l39` suggested n39 or nothing, `L 39` no line (stop 32's new-user trial)."""
    r = run(CLEAN, ident)
    assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: {CLEAN}: unknown id {ident!r}: did you mean "
                                          "L39? the file has lines L1–L282\n")


def test_unreadable_file_exits_2(tmp_path):
    r = run(str(tmp_path / "missing.spmd"), "t1")
    assert r.exit_code == 2
    assert r.stderr == f"fountain-audit: error: {tmp_path / 'missing.spmd'}: no such file or directory\n"


def test_an_id_before_the_file_is_named_as_the_mistake():
    """``show t1 FILE`` (the two swapped): the message says so, with the command in its order."""
    r = run("t1", CLEAN)
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == (f"fountain-audit: error: t1: no such file; the session file comes first: "
                        f"fountain-audit show {CLEAN} t1\n")
    r = run("t1", "t2.reply", CLEAN)
    assert r.stderr == (f"fountain-audit: error: t1: no such file; the session file comes first: "
                        f"fountain-audit show {CLEAN} t1 t2.reply\n")


def test_stdin():
    data = (SAMPLES / "clean-session.spmd").read_bytes()
    r = CliRunner().invoke(main, ["show", "-", "t2.tool1", "--format", "json"], input=data)
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    SHOW.validate(doc)
    assert doc["file"] == "-"
    assert doc["elements"][0]["text"] == ('[[tool: add_memory({"type":"preference","content":'
                                          '"Release notes go in docs/CHANGES.md"}) — ok]]\n')


def test_json_output_validates_for_every_kind_of_element():
    ids = ["s0", "s2", "end", "doc", "t1", "t1.user", "t1.forwarding", "t1.reply", "t1.action1", "t1.stats",
           "t1.tool1", "t1.rag1", "t1.rag-source2", "recall:workspace_profile_8c41d2", "s9.write2", "n1", "n1.3",
           "L1"]
    doc = json.loads(run(CLEAN, *ids, "--format", "json").stdout)
    SHOW.validate(doc)
    assert [(e["id"], e["record"]) for e in doc["elements"]] == [
        ("s0", "region"), ("s2", "scene"), ("end", "region"), ("doc", "document"), ("t1", "turn"),
        ("t1.user", "speech"), ("t1.forwarding", "speech"), ("t1.reply", "speech"), ("t1.action1", "speech"),
        ("t1.stats", "stats"), ("t1.tool1", "tool_call"), ("t1.rag1", "note"), ("t1.rag-source2", "note"),
        ("recall:workspace_profile_8c41d2", "note"), ("s9.write2", "note"), ("n1", "node"), ("n1.3", "node"),
        ("L1", "line")]
    assert doc["elements"][2]["text"] == "THE END.\n"
    assert doc["elements"][3]["text"] == (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")


def test_colour_by_element_kind_on_request():
    r = run(CLEAN, "t1.tool1", "t1.user", "--color")
    assert "\x1b[35m[[tool: search_notes" in r.stdout  # a note: magenta
    assert "\x1b[1m\x1b[36mMARGOT" in r.stdout or "\x1b[36m\x1b[1mMARGOT" in r.stdout  # a cue: bold cyan
    assert "\x1b" not in run(CLEAN, "t1.tool1").stdout  # not a terminal: plain


HOSTILE = ("INT. HARVEY AND ANA TALKING 2026-09-01 10:00:00\n\nHarvey and ANA are in chat mode. Model: M. "
           "Workspace: /w.\n\nANA\nhi\n\nHARVEY\nForwarding to M.\n\n[[tool: read_file({\"p\":\"\x1b]0;pwned\x07\"}) — ok]]"
           "\n\nM\nfine \x1b]0;pwned\x07 and \x1b[2J gone\r\n\n\nTHE END.\n")


def test_control_sequences_are_shown_escaped(tmp_path):
    path = tmp_path / "hostile.spmd"
    path.write_bytes(HOSTILE.encode())
    r = CliRunner().invoke(main, ["show", str(path), "t1.reply", "t1.tool1", "--color"])
    assert r.exit_code == 0
    assert "\x07" not in r.stdout and "\x1b]" not in r.stdout and "\x1b[2J" not in r.stdout
    plain = run(str(path), "t1.reply", "t1.tool1").stdout
    assert plain == ("==> t1.reply <==\n"
                     "13 | M\n"
                     "14 | fine \\x1b]0;pwned\\x07 and \\x1b[2J gone\n"
                     "\n"
                     "==> t1.tool1 <==\n"
                     '11 | [[tool: read_file({"p":"\\x1b]0;pwned\\x07"}) — ok]]\n')
    doc = json.loads(run(str(path), "t1.reply", "--format", "json").stdout)
    assert doc["elements"][0]["text"] == "M\nfine \x1b]0;pwned\x07 and \x1b[2J gone\r\n"  # JSON keeps the data


def test_undecodable_bytes_roundtrip_and_show_as_escapes(tmp_path):
    path = tmp_path / "bytes.spmd"
    path.write_bytes(b"INT. HARVEY AND ANA TALKING 2026-09-01 10:00:00\n\nANA\nbad \xff\xfe byte\n")
    assert run(str(path), "t1.user").stdout == "3 | ANA\n4 | bad \\xff\\xfe byte\n"
    assert roundtrip(path) > 0


@pytest.mark.parametrize("spec", ["\u0661:\u0663", "1:\uff13", "\u00b2:3", "1:3:4"])
def test_lines_take_ascii_digits_only(spec):
    """int() reads Arabic-Indic and full-width digits; a range is ASCII digits only."""
    with pytest.raises(ShowError, match=r"is not A:B"):
        select_lines(spec, 5, "s1")


def test_ids_take_ascii_digits_only():
    r = CliRunner().invoke(main, ["show", CLEAN, "s\u0661"])
    assert r.exit_code == 2 and "unknown id 's\u0661'" in r.stderr


def test_numbers_of_thousands_of_digits_are_out_of_range_not_a_crash():
    """Python refuses int() of 4,300+ digits (ValueError): a line number that long is past any file."""
    big = "9" * 5000
    r = run(CLEAN, "L" + big)
    assert r.exit_code == 2 and r.stderr.startswith(f"fountain-audit: error: {CLEAN}: unknown id 'L{big}': ")
    r = run("--lines", big + ":", CLEAN, "t1")
    assert r.exit_code == 2 and r.stderr.startswith(f"fountain-audit: error: {CLEAN}: --lines {big}:")
    r = run("--lines", "1:" + big, CLEAN, "t1")  # an end past the element is clamped
    assert (r.exit_code, r.stdout) == (0, run(CLEAN, "t1").stdout)


def test_end_in_a_file_without_the_end_says_there_is_no_end_marker(tmp_path):
    f = tmp_path / "cut.spmd"
    f.write_text(open(CLEAN, encoding="utf-8").read().replace("THE END.\n", ""), encoding="utf-8")
    r = run(str(f), "end")
    assert (r.exit_code, r.stdout) == (2, "")  # as for an id not found
    assert r.stderr == (f"fountain-audit: error: {f}: no element 'end': the file does not end with an end marker "
                        "(THE END. as its last element; one that more content follows is part of its scene: lint S106 "
                        "reports it)\n")
    assert run(CLEAN, "end").stdout.rstrip().endswith("THE END.")


def test_lines_n_is_line_n_alone():
    r = run(CLEAN, "t1.reply", "--lines", "3", "--format", "json")
    assert r.exit_code == 0
    lines = json.loads(r.stdout)["elements"][0]["lines"]
    assert (lines["start"], lines["end"], lines["total"], lines["clamped"]) == (3, 3, 14, False)


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_the_session_and_ast_records_share_no_id_and_each_id_is_looked_up_in_its_own(path):
    # show builds only the records an id can be among (the AST's for n… and doc); the same
    # record as from every record at once, for every id dump prints
    from fountain_audit.audit.show import _AST_ID_RE, Elements
    session = build_session(parse(decode_bytes(path.read_bytes())))
    elements = Elements(session, str(path))
    ast, rest = elements._ast_records(), elements._session_records()
    assert not set(ast) & set(rest)
    assert all(_AST_ID_RE.fullmatch(i) for i in ast) and not any(_AST_ID_RE.fullmatch(i) for i in rest)
    assert elements.records() == {**rest, **ast}


def test_a_turn_is_shown_without_reading_the_ast(monkeypatch):
    import fountain_audit.audit.show as show_module

    def no(*args):
        raise AssertionError("AST records built")
    monkeypatch.setattr(show_module, "ast_records", no)
    result = run(CLEAN, "t1.tool2")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("39 | [[tool: run_shell(")


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_a_turn_id_makes_only_its_turns_records_and_the_same_ones(path, monkeypatch):
    """`show F t3` / `t3.tool2` makes the records of turn 3 alone (the records of every turn of an
    8.7 MB session took 507 MB; one turn's 240 MB), each equal to the one from every record."""
    from fountain_audit import dump
    from fountain_audit.audit import show as show_module
    from fountain_audit.audit.show import _TURN_ID_RE, Elements
    session = build_session(parse(decode_bytes(path.read_bytes())))
    every = Elements(session, str(path)).records()
    made = []
    monkeypatch.setattr(show_module, "turn_records", lambda *a: made.extend(dump.turn_records(*a)) or iter(made[-1:]))
    turn_ids = [i for i in every if _TURN_ID_RE.fullmatch(i)]
    for ident in turn_ids:
        made.clear()
        elements = Elements(session, str(path))
        assert elements.get(ident).record == every[ident]
        assert [t.id for t in made] == [ident.split(".")[0]] and elements._sess is None
    assert turn_ids or not session.turns


def test_a_hand_off_heading_gives_its_rfc3339_time():
    """`show --format json FILE s1` of a hand-off said "timestamp": null although the heading is
    `INT. HAND-OFF - 2026-07-01T16:04:05Z`."""
    from tests.conftest import shared_path
    f = shared_path("corpus", "harvey", "other", "handoff-reconstructed.spmd")
    r = CliRunner().invoke(main, ["show", "--format", "json", str(f), "s1"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    (el,) = doc["elements"]
    assert (el["timestamp"], el["timestamp_form"]) == ("2026-07-01T16:04:05Z", "rfc3339")
    jsonschema.validate(doc, schemas.load("show"))


def test_stdin_filename_names_standard_input():
    """show, provenance and diff named standard input '-' only; they take --stdin-filename as
    lint, dump, export and report do (and warn when no '-' is given)."""
    from .conftest import SAMPLES
    clean = SAMPLES / "clean-session.spmd"
    text = clean.read_text(encoding="utf-8")
    r = CliRunner().invoke(main, ["show", "--format", "json", "--stdin-filename", "s.spmd", "-", "t1"], input=text)
    assert r.exit_code == 0 and json.loads(r.stdout)["file"] == "s.spmd"
    r = CliRunner().invoke(main, ["provenance", "--format", "json", "--stdin-filename", "s.spmd", "-"], input=text)
    assert r.exit_code == 0 and json.loads(r.stdout)["file"] == "s.spmd"
    r = CliRunner().invoke(main, ["diff", "--stdin-filename", "replay.spmd", str(clean), "-"], input=text)
    assert (r.exit_code, r.stdout.splitlines()[:3]) == (0, [f"--- {clean}", "+++ replay.spmd", "no differences"])
    r = CliRunner().invoke(main, ["show", "--stdin-filename", "s.spmd", str(clean), "t1"])
    assert r.exit_code == 0 and r.stderr == ("fountain-audit: warning: --stdin-filename only applies when FILE is '-' "
                                             "(standard input); it is not used\n")
    r = CliRunner().invoke(main, ["provenance", "--stdin-filename", "s.spmd", str(clean)])
    assert r.exit_code == 0 and r.stderr == ("fountain-audit: warning: --stdin-filename only applies when FILE is '-' "
                                             "(standard input); it is not used\n")
    r = CliRunner().invoke(main, ["diff", "--stdin-filename", "s.spmd", str(clean), str(clean)])
    assert r.exit_code == 0 and r.stderr == ("fountain-audit: warning: --stdin-filename only applies when A or B is "
                                             "'-' (standard input); it is not used\n")


def test_a_turn_id_in_a_file_without_turns_names_its_scenes(tmp_path):
    """A plain screenplay has scenes but no turns: ``show FILE t1`` says which ids it has."""
    f = tmp_path / "play.fountain"
    f.write_text("INT. KITCHEN - DAY\n\nAna waits.\n\nEXT. GARDEN - NIGHT\n\nShe leaves.\n", encoding="utf-8")
    r = run(str(f), "t1")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == f"fountain-audit: error: {f}: unknown id 't1': the file has no turns; its scenes are s1–s2\n"
    assert run(str(f), "s2").stdout == "5 | EXT. GARDEN - NIGHT\n6 |\n7 | She leaves.\n"


@pytest.mark.parametrize("text, ident, hint", [
    # a title page and two scenes: s0 (the title page) is no scene
    ("Title: Play\nAuthor: Ana\n\nINT. KITCHEN - DAY\n\nAna waits.\n\nEXT. GARDEN - NIGHT\n\nShe leaves.\n", "s3",
     "the file has scenes s1–s2"),
    ("Title: Play\nAuthor: Ana\n\nINT. KITCHEN - DAY\n\nAna waits.\n", "s3.tool1", "the file has scenes s1"),
    # no scene heading at all: no scenes, and s0 is all its text (before an end marker)
    ("Title: Play\nAuthor: Ana\n\nAna waits.\n", "s1", "the file has no scenes; s0 is its text"),
    ("Title: Play\nAuthor: Ana\n\nAna waits.\n", "s2.tool1", "the file has no scenes; s0 is its text"),
    ("Ana waits.\n\nTHE END.\n", "s1", "the file has no scenes; s0 is its text before the end marker (end)"),
    ("Title: Play\nAuthor: Ana\n\nAna waits.\n", "t1", "the file has no turns"),
])
def test_a_plain_screenplay_names_its_real_scenes_once(tmp_path, text, hint, ident):
    """A plain screenplay (no Harvey session): an unknown scene id names the scenes it has, never
    the title region s0 as one (it said "the file has scenes s0"), and the one error line is all
    that is printed."""
    f = tmp_path / "play.fountain"
    f.write_text(text, encoding="utf-8")
    r = run(str(f), ident)
    assert (r.exit_code, r.stdout, r.stderr) == (2, "", f"fountain-audit: error: {f}: unknown id '{ident}': {hint}\n")


def test_an_ast_id_and_an_unknown_id_read_one_node_not_every_node(monkeypatch):
    """`show F n5000` built every AST node's record (2.8 s on 80,000 nodes) and an unknown id's hint
    built them too (adversarial trial, stop 37): one node's record is built, and the hint reads the
    AST's ids alone; the answers are those of the records."""
    import fountain_audit.dump as dump_module
    from fountain_audit import build_session, parse
    from fountain_audit.audit.show import Elements, ShowError

    text = "Title: T\nAuthor: A\n\nFADE IN:\n\n" + "".join(
        f"INT. SHELL 2026-09-01 09:00:{i:02d}\n\n$ ls\nfile{i}\n\n" for i in range(40)) + "THE END.\n"
    elements = Elements(build_session(parse(text)), "s.spmd")
    built = []
    real = dump_module._ast_node
    def counted(file, index, node, parent=None):  # (the top-level nodes whose record is built)
        if parent is None:
            built.append(index)
        return real(file, index, node, parent)
    monkeypatch.setattr(dump_module, "_ast_node", counted)
    one, other = elements.get("n1.2").record, elements.get("n42").record
    assert built == [0, 41]
    with pytest.raises(ShowError) as e:
        elements.get("zzz")
    assert built == [0, 41] and "ids look like" in str(e.value)
    every = elements._ast_records()
    assert (one, other) == (every["n1.2"], every["n42"]) and set(elements._ast_ids()) == set(every)


def test_each_unknown_id_is_named_not_only_the_first():
    """`show FILE t1.Reply ' 39'` named only `t1.Reply`, where README says every id is checked
    before anything is printed (new-user trial, stop 38)."""
    r = run(CLEAN, "t1.Reply", " 39", "t1.user", "t1.Reply")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == (f"fountain-audit: error: {CLEAN}: unknown id 't1.Reply': did you mean t1.reply?; "
                        "unknown id '39': did you mean L39? the file has lines L1–L282\n")

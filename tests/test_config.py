"""Configuration files and inline suppressions change results as documented."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.lint.linter import lint_text

HEAD = "Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\n\n"
CHAT = ("INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
        "Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.\n\n"
        "ALICE\nWhat is in a.go?\n\n[[tool: read_file({\"path\":\"a.go\"}) — ok]]\n\n"
        "HARVEY\nForwarding to LLAMA.\n\nLLAMA\nIt declares package main.\n")
BAD = HEAD + CHAT  # P102 at line 14, S104 (no THE END.) at line 20


def lint_json(project, *args):
    r = CliRunner().invoke(main, ["lint", "--format", "json", *args], catch_exceptions=False)
    return r.exit_code, json.loads(r.output) if r.output.startswith("{") else r.output


def codes(doc):
    return [(d["path"].rsplit("/", 1)[-1], d["code"], d["line"], d["severity"]) for d in doc["diagnostics"]]


def test_pyproject_config_is_discovered_and_applied(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.fountain-audit]\nignore = ["missing-the-end"]\n'
        '[tool.fountain-audit.severity]\nP102 = "warning"\n')
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path / "s")
    rc, doc = lint_json(tmp_path, "a.spmd")
    assert rc == 0 and codes(doc) == [("a.spmd", "P102", 14, "warning")]
    rc, doc = lint_json(tmp_path, "--isolated", "a.spmd")
    assert rc == 1 and codes(doc) == [("a.spmd", "P102", 14, "error"), ("a.spmd", "S104", 20, "warning")]
    r = CliRunner().invoke(main, ["lint", "--strict", "a.spmd"])
    assert r.exit_code == 1


def test_per_file_ignores_exclude_and_target_version(tmp_path, monkeypatch):
    (tmp_path / "fountain-audit.toml").write_text(
        'exclude = ["archive/**"]\ntarget-version = "1.2"\n'
        '[per-file-ignores]\n"legacy/*.spmd" = ["P"]\n')
    for d in ("legacy", "archive", "new"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "a.spmd").write_text(BAD + "\n\nTHE END.\n")
    monkeypatch.chdir(tmp_path)
    rc, doc = lint_json(tmp_path, ".")
    assert doc["files"] == ["legacy/a.spmd", "new/a.spmd"]
    assert [(d["path"], d["code"]) for d in doc["diagnostics"]] == [("new/a.spmd", "P102")]


def test_the_configuration_of_the_paths_applies_when_the_current_directory_has_none(tmp_path, monkeypatch):
    """`cd /tmp && fountain-audit lint ~/proj/sessions` read no configuration (it was looked for
    from the current directory only) and reported excluded and ignored files (new-user trial):
    with none found there, it is looked for from the folder that holds the paths given."""
    proj = tmp_path / "proj"
    (proj / "sessions" / "archive").mkdir(parents=True)
    (proj / "fountain-audit.toml").write_text('exclude = ["sessions/archive/**"]\n[severity]\nS104 = "info"\n')
    (proj / "sessions" / "a.spmd").write_text(BAD)
    (proj / "sessions" / "archive" / "old.spmd").write_text(BAD)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    rc, doc = lint_json(tmp_path, str(proj / "sessions"))
    assert rc == 1 and codes(doc) == [("a.spmd", "P102", 14, "error"), ("a.spmd", "S104", 20, "info")]
    rc, doc = lint_json(tmp_path, str(proj / "sessions" / "a.spmd"), "-")  # (standard input names no folder)
    assert codes(doc)[:2] == [("a.spmd", "P102", 14, "error"), ("a.spmd", "S104", 20, "info")]
    (tmp_path / "elsewhere" / "fountain-audit.toml").write_text("ignore = []\n")  # the current directory's wins
    rc, doc = lint_json(tmp_path, str(proj / "sessions"))
    assert codes(doc) == [("a.spmd", "P102", 14, "error"), ("a.spmd", "S104", 20, "warning"),
                          ("old.spmd", "P102", 14, "error"), ("old.spmd", "S104", 20, "warning")]


@pytest.mark.parametrize("value, why", [
    ('"information"', "unknown severity 'information' (use error, warning or info)"),
    ('["P"]', 'must be "error", "warning" or "info", not [\'P\']')])
def test_a_bad_severity_names_its_key(tmp_path, monkeypatch, value, why):
    """The message names the rule key whose value is wrong (it said only 'severity:'), and a
    value that is not a string is not shown as one ("unknown severity \"['P']\"")."""
    (tmp_path / "fountain-audit.toml").write_text(f'[severity]\nP102 = "warning"\nmissing-the-end = {value}\n')
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == f"fountain-audit: error: fountain-audit.toml: severity.missing-the-end: {why}"


@pytest.mark.parametrize("value", ['1', '"infoo"', '"info"'])
def test_a_severity_key_that_is_no_rule_is_named_before_its_value(tmp_path, monkeypatch, value):
    """`bogus = 1` said the value was wrong, as if bogus were a rule: the unknown rule comes
    first, whatever its value."""
    (tmp_path / "fountain-audit.toml").write_text(f'[severity]\nP102 = "warning"\nbogus = {value}\n')
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert (r.exit_code, r.output.splitlines()[-1]) == (
        2, f"fountain-audit: error: fountain-audit.toml: severity: unknown rule or rule prefix 'bogus' "
           "(see 'fountain-audit rules')")


def test_config_typo_exits_2_naming_it(tmp_path, monkeypatch):
    (tmp_path / "fountain-audit.toml").write_text('ignore = ["rag-befor-dialogue"]\n')
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert r.exit_code == 2 and "'rag-befor-dialogue'" in r.output and "fountain-audit.toml" in r.output
    (tmp_path / "fountain-audit.toml").write_text('ignores = ["P102"]\n')
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert r.exit_code == 2 and "unknown key(s) 'ignores' (did you mean 'ignore'?) (known: " in r.output
    (tmp_path / "fountain-audit.toml").write_text('selekt = ["P102"]\nzzzz = 1\n')
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert r.exit_code == 2 and "unknown key(s) 'selekt' (did you mean 'select'?), 'zzzz' (known: " in r.output
    (tmp_path / "fountain-audit.toml").write_text('target-version = "2.0"\n')
    assert CliRunner().invoke(main, ["lint", "a.spmd"]).exit_code == 2
    (tmp_path / "fountain-audit.toml").write_text('target-version = 1.2\n')  # a float, read as "1.2" by accident
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert (r.exit_code, r.stderr) == (2, "fountain-audit: error: fountain-audit.toml: target-version must be a string, "
                                          "one of '1.2', '1.3' (target-version = \"1.3\"), not float 1.2\n")


@pytest.mark.parametrize("toml, message", [
    ('ignore = [""]\n', "fountain-audit.toml: 'ignore' holds an empty string"),
    ('select = ["P", " "]\n', "fountain-audit.toml: 'select' holds an empty string"),
    ('[per-file-ignores]\n"*.spmd" = [""]\n', "fountain-audit.toml: per-file-ignores: '*.spmd' = [''] holds an empty string"),
])
def test_an_empty_rule_selector_in_the_config_is_an_error(tmp_path, monkeypatch, toml, message):
    (tmp_path / "fountain-audit.toml").write_text(toml)
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert r.exit_code == 2 and r.output.rstrip().endswith(message)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("toml, where, message", [
    ('select = [P\n', ":1:11", "Invalid value"),  # it said "Invalid value (at line 1, column 11)"
    ('select = ["P"]\nselect = ["T"]\n', ":2:15", "Cannot overwrite a value"),
    ('# one\nselect = ["P",\n', ":3:1", "Invalid value (at end of document)"),  # placed after the last character
    ('select = ["P"', ":1:14", "Unclosed array (at end of document)"),
])
def test_invalid_toml_is_reported_at_its_file_line_and_column(tmp_path, monkeypatch, toml, where, message):
    (tmp_path / "fountain-audit.toml").write_text(toml, encoding="utf-8")
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "--config", "fountain-audit.toml", "a.spmd"])
    assert (r.exit_code, r.stdout, r.stderr) == (2, "", f"fountain-audit: error: fountain-audit.toml{where}: "
                                                        f"invalid TOML: {message}\n")
    r = CliRunner().invoke(main, ["lint", "a.spmd"])  # discovered: named relative to the current directory
    assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: fountain-audit.toml{where}: "
                                          f"invalid TOML: {message}\n")


def test_config_errors_name_the_file_as_baseline_errors_do(tmp_path, monkeypatch):
    """A pyproject.toml found by searching was named by its absolute path (baseline messages are
    relative); a byte that is not UTF-8 gave "cannot read: 'utf-8' codec can't decode byte 0xff
    in position 15" and a byte-order mark "1:1: invalid TOML: Invalid statement"."""
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    py = tmp_path / "pyproject.toml"
    py.write_text("[tool.fountain-audit]\nbogus = 1\n")
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert r.exit_code == 2 and r.stderr.startswith("fountain-audit: error: pyproject.toml: unknown key(s) 'bogus'")
    py.write_bytes(b"[tool.fountain-audit]\n# x\xff\n")
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert (r.exit_code, r.stderr) == (2, "fountain-audit: error: pyproject.toml:2:4: not UTF-8 "
                                          "(invalid start byte at byte 25)\n")
    py.write_bytes(b"\xef\xbb\xbf[tool.fountain-audit]\n")
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert (r.exit_code, r.stderr) == (2, "fountain-audit: error: pyproject.toml:1:1: invalid TOML: the file starts "
                                          "with a byte-order mark (U+FEFF); save it as UTF-8 without one\n")
    py.unlink()
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")  # above the current directory: absolute, as before
    (tmp_path / "fountain-audit.toml").write_text("bogus = 1\n")
    r = CliRunner().invoke(main, ["lint", "../a.spmd"])
    assert r.exit_code == 2 and os.path.realpath(tmp_path / "fountain-audit.toml") + ": unknown key(s)" in r.stderr


def test_a_config_file_that_is_a_fifo_is_an_error_not_a_hang(tmp_path, monkeypatch):
    os.mkfifo(tmp_path / "fountain-audit.toml")
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert r.exit_code == 2 and r.output.rstrip().endswith("fountain-audit.toml: not a regular file")


def lint_codes(text):
    return [(d.code, d.line) for d in lint_text(text)]


def after_a_note(directive: str, more: str = "") -> str:
    """BAD with its tool note (and ``more`` before it) moved before ALICE's speech, after a write
    note and ``/* fountain-audit: DIRECTIVE */`` (line 13): where no speech runs. (Not after a
    note that follows ALICE's speech: her input runs to HARVEY's forwarding line, and may have
    written that note, see test_a_directive_after_what_a_reply_may_have_written_is_its_text.)"""
    return BAD.replace("ALICE\nWhat is in a.go?\n\n[[tool:", "[[write: a.go — ok]]\n\n"
                       f"/* fountain-audit: {directive} */\n\n{more}[[tool:").replace(
        "HARVEY\nForwarding", "ALICE\nWhat is in a.go?\n\nHARVEY\nForwarding")


def test_disable_next_suppresses_the_next_element_only():
    text = after_a_note("disable-next=P102")
    assert lint_codes(text) == [("S104", 24)]
    text = after_a_note("disable-next=P102", "[[tool: list_files() — ok]]\n\n")
    assert lint_codes(text) == [("P102", 17), ("S104", 26)]  # the note after the next is not covered
    # right before the note that ends ALICE's speech, it is her speech's text, as anywhere in a
    # speech (a reply ending in disable-next=V101 switched off the secret rule for the tool note
    # after it: adversarial trial; this test had it cover the note)
    text = BAD.replace("[[tool:", "/* fountain-audit: disable-next=P102 */\n\n[[tool:")
    assert lint_codes(text) == [("A102", 14), ("P102", 16), ("S104", 22)]


def test_disable_enable_region_and_file():
    region = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable=tools-between-forward-and-reply */\n\nALICE\nWhat") \
        .replace("HARVEY\nForwarding", "/* fountain-audit: enable */\n\nHARVEY\nForwarding")
    assert lint_codes(region) == [("S104", 24)]
    # (before the title page: at the end of a file with no THE END. it would follow the last reply,
    # and be that reply's text)
    assert lint_codes("/* fountain-audit: disable-file */\n" + BAD) == []
    assert lint_codes("/* fountain-audit: disable-file=S104 */\n" + BAD) == [("P102", 15)]
    assert lint_codes(BAD + "\n/* fountain-audit: disable-file */\n") == [("P102", 14), ("A102", 22), ("S104", 22)]


def test_unused_and_invalid_suppressions_are_reported():
    text = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable-next=P101 */\n\nALICE\nWhat")
    assert lint_codes(text) == [("A101", 11), ("P102", 16), ("S104", 22)]
    text = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable-nxt=P102 */\n\nALICE\nWhat")
    assert lint_codes(text) == [("A102", 11), ("P102", 16), ("S104", 22)]


def lint_messages(text, code="A101"):
    return [(d.line, d.column, d.message) for d in lint_text(text) if d.code == code]


def test_a_misspelt_directive_gets_a_did_you_mean():
    """A new user's ``disable-nxt=`` was told only what the valid verbs are (trial, stop 29)."""
    text = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable-nxt=P102 */\n\nALICE\nWhat")
    assert lint_messages(text, "A102") == [(11, 1, "suppression comment ignored: 'disable-nxt' is no fountain-audit "
                                                   "directive; did you mean 'disable-next'? (disable=, enable=, "
                                                   "disable-next=, disable-file)")]
    text = BAD.replace("ALICE\nWhat", "/* fountain-audit: frobnicate */\n\nALICE\nWhat")
    assert lint_messages(text, "A102") == [(11, 1, "suppression comment ignored: 'frobnicate' is no fountain-audit "
                                                   "directive (disable=, enable=, disable-next=, disable-file)")]
    # inside a speech, the misspelling is named after why the comment is no directive there
    text = BAD.replace("[[tool:", "/* fountain-audit: disable-nxt=P102 */\n\n[[tool:")
    (found,) = lint_messages(text, "A102")
    assert found[2].endswith("or a baseline ('disable-nxt' is no fountain-audit directive; did you mean "
                             "'disable-next'? (disable=, enable=, disable-next=, disable-file))")


def test_a_rule_named_twice_in_a_list_is_an_unused_suppression():
    """``disable-next=P102,P102`` said nothing (the second name suppresses nothing more): A101 names
    what the list repeats, as ruff's RUF100 reports a duplicated code (noticed at stop 37); a name
    written otherwise (``P102`` and ``tools-between-forward-and-reply``) is no repetition."""
    assert lint_messages(after_a_note("disable-next=P102,P102")) == [
        (13, 1, "unused suppression: the list names P102 more than once")]
    assert [d.code for d in lint_text(after_a_note("disable-next=P102,P102"))] == ["A101", "S104"]
    assert lint_messages(after_a_note("disable-next=P102, S104,P102 ,S104,P103")) == [
        (13, 1, "unused suppression: 'disable-next=S104,P103' suppressed no diagnostic; "
                "the list names P102 and S104 more than once")]
    assert lint_messages(after_a_note("disable-next=P102,tools-between-forward-and-reply")) == []


def test_an_unused_suppression_names_the_rules_that_suppressed_nothing():
    """A101 said only "'disable-next' suppressed no diagnostic": not which rule. As ruff's RUF100,
    it names the rules of the list that suppressed nothing, as written, and only those; a
    directive whose list was partly used is reported for the rest."""
    text = after_a_note("disable-next=P103")  # the next element has only P102
    assert lint_messages(text) == [(13, 1, "unused suppression: 'disable-next=P103' suppressed no diagnostic")]
    assert [d.code for d in lint_text(text)] == ["A101", "P102", "S104"]
    text = after_a_note("disable-next=P103, P102,tools-between-forward-and-reply ,p101,P103")
    assert lint_messages(text) == [(13, 1, "unused suppression: 'disable-next=P103,p101' suppressed no diagnostic; "
                                             "the list names P103 more than once")]
    assert [d.code for d in lint_text(text)] == ["A101", "S104"]  # P102 still suppressed
    text = after_a_note("disable-next=P,T")  # a prefix is named as written, not its codes
    assert lint_messages(text) == [(13, 1, "unused suppression: 'disable-next=T' suppressed no diagnostic")]
    assert lint_messages(after_a_note("disable-next=P102,S104")) == [
        (13, 1, "unused suppression: 'disable-next=S104' suppressed no diagnostic")]
    assert lint_messages(after_a_note("disable-next=P102")) == []
    # a directive for every rule, and an enable, have no list to name
    every = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable-next */\n\nALICE\nWhat")
    assert lint_messages(every) == [(11, 1, "unused suppression: 'disable-next' suppressed no diagnostic")]
    region = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable=P102,S101 */\n\nALICE\nWhat") \
        .replace("HARVEY\nForwarding", "/* fountain-audit: enable=P102 */\n\nHARVEY\nForwarding") \
        .replace("LLAMA\nIt", "/* fountain-audit: enable=S104 */\n\nLLAMA\nIt")
    assert lint_messages(region) == [(11, 1, "unused suppression: 'disable=S101' suppressed no diagnostic"),
                                     (23, 1, "unused suppression: 'enable=S104' ends no disabled region")]
    # an enable names the rules of its list that ended no region, and only those
    both = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable=P102 */\n\nALICE\nWhat") \
        .replace("HARVEY\nForwarding", "/* fountain-audit: enable=P102,S104 */\n\nHARVEY\nForwarding")
    assert lint_messages(both) == [(18, 1, "unused suppression: 'enable=S104' ends no disabled region")]
    pair = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable=P102,S104 */\n\nALICE\nWhat") \
        .replace("HARVEY\nForwarding", "/* fountain-audit: enable=P102,S104 */\n\nHARVEY\nForwarding")
    assert lint_messages(pair) == [  # one region of two rules, ended by both (S104 is at the end)
        (11, 1, "unused suppression: 'disable=S104' suppressed no diagnostic")]
    bare = BAD.replace("HARVEY\nForwarding", "/* fountain-audit: enable */\n\nHARVEY\nForwarding")
    assert lint_messages(bare) == [(16, 1, "unused suppression: enable ends no disabled region")]


# A region of several rules, a tool note in it and one after an enable naming one of them:
# N101 and P102 at lines 13 and 17; H106 (no description) at line 6. (The notes come before ALICE's
# input, where no speech runs: her input runs to HARVEY's forwarding line.)
REGION = """Title: Harvey Session
Author: ALICE

FADE IN:

INT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00

/* fountain-audit: disable=P102,N101 */

= Two notes come first,
= before ALICE asks.

[[tool: broken1]]

/* fountain-audit: enable=P102 */

[[tool: broken2]]

ALICE
hi

HARVEY
Forwarding to LLAMA.

LLAMA
ok

THE END.
"""


def test_an_enable_naming_rules_ends_their_regions_only():
    """`enable=P102` ended the whole `disable=P102,N101` region: N101 was reported again after it.
    As ESLint's eslint-enable, it ends P102's region only; N101's goes on."""
    unsuppressed = REGION.replace("fountain-audit:", "not-a-directive:")
    assert lint_codes(unsuppressed) == [("H106", 6), ("P102", 13), ("N101", 13), ("P102", 17), ("N101", 17)]
    assert lint_codes(REGION) == [("H106", 6), ("P102", 17)]
    # N101's region ends at its own enable (a bare enable ends both)
    own = REGION.replace("[[tool: broken2]]\n", "[[tool: broken2]]\n\n/* fountain-audit: enable=N101 */\n\n"
                                                 "[[tool: broken3]]\n")
    assert lint_codes(own) == [("H106", 6), ("P102", 17), ("P102", 21), ("N101", 21)]
    assert lint_codes(REGION.replace("enable=P102", "enable")) == [("H106", 6), ("P102", 17), ("N101", 17)]
    assert lint_codes(REGION.replace("enable=P102", "enable=N101,P102")) == [("H106", 6), ("P102", 17), ("N101", 17)]


def test_an_enable_naming_rules_after_a_bare_disable_re_enables_those_rules_only():
    """After `disable` (every rule), `enable=P102` re-enables P102 and the region goes on for
    every other rule (as ESLint): N101 after it is still suppressed, until a bare enable."""
    bare = REGION.replace("disable=P102,N101", "disable")
    assert lint_codes(bare) == [("H106", 6), ("P102", 17)]
    assert lint_messages(bare) == []
    # with no THE END.: S104 (at the last line) is in the region too
    assert lint_codes(bare.replace("\nTHE END.\n", "")) == [("H106", 6), ("P102", 17)]
    ended = bare.replace("[[tool: broken2]]\n", "[[tool: broken2]]\n\n/* fountain-audit: enable */\n\n"
                                                 "[[tool: broken3]]\n")
    assert lint_codes(ended) == [("H106", 6), ("P102", 17), ("P102", 21), ("N101", 21)]
    # a second every-rule region covers P102 again; one opened before the enable= is cut as the first
    again = bare.replace("/* fountain-audit: enable=P102 */", "/* fountain-audit: enable=P102 */\n\n"
                                                              "/* fountain-audit: disable */")
    assert lint_codes(again) == [("H106", 6)]
    stacked = bare.replace("/* fountain-audit: enable=P102 */", "/* fountain-audit: disable */\n\n"
                                                                "/* fountain-audit: enable=P102 */")
    assert lint_codes(stacked) == [("H106", 6), ("P102", 19)]
    assert lint_messages(stacked) == []


def test_an_enable_of_a_rule_whose_region_already_ended_is_unused():
    """An enable names the rules of its list that ended no region, as before: here N101's region
    was ended by the enable before it (P102's stays open: P102 at line 19 is suppressed)."""
    twice = REGION.replace("/* fountain-audit: enable=P102 */", "/* fountain-audit: enable=N101 */\n\n"
                                                                "/* fountain-audit: enable=N101 */")
    assert lint_codes(twice) == [("H106", 6), ("A101", 17), ("N101", 19)]
    assert lint_messages(twice) == [(17, 1, "unused suppression: 'enable=N101' ends no disabled region")]
    # the same after a bare disable: its region left P102 at the first enable=P102
    bare = REGION.replace("disable=P102,N101", "disable").replace(
        "/* fountain-audit: enable=P102 */", "/* fountain-audit: enable=P102 */\n\n/* fountain-audit: enable=P102,N101 */")
    assert lint_codes(bare) == [("H106", 6), ("A101", 17), ("P102", 19), ("N101", 19)]
    assert lint_messages(bare) == [(17, 1, "unused suppression: 'enable=P102' ends no disabled region")]


def test_config_naming_a_pyproject_without_our_table_is_an_error(tmp_path, monkeypatch):
    """`--config pyproject.toml` that has no [tool.fountain-audit] configures nothing: exit 2, not
    the defaults; a discovered pyproject.toml without the table is still passed over."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["fountain-audit"]\n')
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "--config", "pyproject.toml", "a.spmd"])
    assert r.exit_code == 2 and r.output.splitlines()[-1] == "fountain-audit: error: pyproject.toml: no [tool.fountain-audit] table"
    assert CliRunner().invoke(main, ["lint", "a.spmd"]).exit_code == 1  # defaults: BAD's error


@pytest.mark.parametrize("content, problem", [
    ("a=" + "[" * 5000 + "]" * 5000 + "\n", "invalid TOML: nested too deeply"),  # tomllib: RecursionError
    ("max-file-size = " + "9" * 5000 + "\n", "invalid TOML: a number too long to read"),  # int(): ValueError
])
def test_a_hostile_config_is_a_configuration_error(tmp_path, monkeypatch, content, problem):
    (tmp_path / "fountain-audit.toml").write_text(content)
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert r.exit_code == 2 and r.output.splitlines()[-1] == f"fountain-audit: error: fountain-audit.toml: {problem}"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_config_given_as_a_fifo_a_device_or_a_huge_file_is_refused_unread(tmp_path, monkeypatch):
    os.mkfifo(tmp_path / "fifo.toml")
    (tmp_path / "big.toml").write_bytes(b"#" * ((16 << 20) + 1))
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    for path, problem in (("fifo.toml", "not a regular file"), (os.devnull, "not a regular file"),
                          ("big.toml", "larger than 16 MB: not a configuration file")):
        r = CliRunner().invoke(main, ["lint", "--config", path, "a.spmd"])
        assert r.exit_code == 2 and r.output.splitlines()[-1] == f"fountain-audit: error: {path}: {problem}"


def test_a_size_of_thousands_of_digits_is_a_usage_error(tmp_path, monkeypatch):
    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "--max-file-size", "9" * 5000 + "GB", "a.spmd"])
    assert r.exit_code == 2 and r.output.splitlines()[-1] == (
        "Error: --max-file-size: '" + "9" * 40 + "'… is too large a size (at most 4 EB)")


def test_a_fractional_size_in_bytes_is_a_usage_error(tmp_path, monkeypatch):
    """0.5 was read as 0 bytes (every file refused) and 1.5 as 1 byte; a fraction of a larger
    unit is a whole number of bytes and stays accepted."""
    from fountain_audit.parse.source import parse_size

    (tmp_path / "a.spmd").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["lint", "--max-file-size", "0.5", "a.spmd"])
    assert r.exit_code == 2 and r.output.splitlines()[-1] == (
        "Error: --max-file-size: a size in bytes is a whole number, not 0.5 (e.g. 1.5MB, 100000)")
    (tmp_path / "pyproject.toml").write_text("[tool.fountain-audit]\nmax-file-size = 1.5\n")
    r = CliRunner().invoke(main, ["lint", "a.spmd"])
    assert r.exit_code == 2 and "max-file-size: a size in bytes is a whole number, not 1.5" in r.output
    assert parse_size("1.5K") == 1536 and parse_size("1.5 MB") == 1572864 and parse_size(7) == 7
    for bad in ("0.0001K", "١٢MB"):  # under a byte; not ASCII digits
        with pytest.raises(ValueError):
            parse_size(bad)


def test_an_unused_suppression_of_a_rule_that_did_not_run_says_so():
    """A101 called `'disable-next=P102'` unused when P102 was switched off for the run (ignored, or
    out of the selection), as if the finding had gone: it says the rule was not enabled (ruff's
    RUF100 "non-enabled")."""
    from fountain_audit.lint.selection import Selection
    text = after_a_note("disable-next=P102,P103")
    off = Selection.build(ignore=["P102"])
    assert [(d.line, d.message) for d in lint_text(text, "s.spmd", off) if d.code == "A101"] == [
        (13, "unused suppression: 'disable-next=P102,P103' suppressed no diagnostic (not enabled in this run: P102)")]
    assert [(d.line, d.message) for d in lint_text(text, "s.spmd", off, ignored=frozenset({"P103"})) if d.code == "A101"] == [
        (13, "unused suppression: 'disable-next=P102,P103' suppressed no diagnostic (not enabled in this run: P102, "
             "P103)")]
    assert lint_messages(text) == [(13, 1, "unused suppression: 'disable-next=P103' suppressed no diagnostic")]
    plain = "Title: A play\n\n/* fountain-audit: disable-next=S104,E104 */\nINT. HOUSE - DAY\n\nBob waits.\n"
    assert [(d.line, d.message) for d in lint_text(plain, "p.fountain", Selection.build()) if d.code == "A101"] == [
        (3, "unused suppression: 'disable-next=S104,E104' suppressed no diagnostic (S104 does not apply to a plain "
            "screenplay)")]  # (new-user trial: it said "not enabled in this run", with every rule selected)
    assert [(d.line, d.message) for d in lint_text(plain, "p.fountain", Selection.build(ignore=["E104"]))
            if d.code == "A101"] == [
        (3, "unused suppression: 'disable-next=S104,E104' suppressed no diagnostic (not enabled in this run: E104; "
            "S104 does not apply to a plain screenplay)")]


SECRET = HEAD + CHAT.replace("It declares package main.", "key=AKIAIOSFODNN7EXAMPLE") + "\nTHE END.\n"  # V101 at 20


def _planted(tmp_path, name="fountain-audit.toml", text='ignore = ["V"]\n'):
    """``tmp_path/x/NAME`` (ignoring the secret rules) above ``x/sub/a.spmd`` (a session with an AWS
    key), and ``tmp_path/elsewhere`` to run from; returns (the configuration file, the session)."""
    (tmp_path / "x" / "sub").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    config = tmp_path / "x" / name
    config.write_text(text)
    session = tmp_path / "x" / "sub" / "a.spmd"
    session.write_text(SECRET)
    return config, session


def _lint(*args):
    """(codes of the secret and privacy findings, stderr) of ``lint --format json ARGS``."""
    r = CliRunner().invoke(main, ["lint", "--format", "json", *args], catch_exceptions=False)
    return [d["code"] for d in json.loads(r.stdout)["diagnostics"] if d["code"].startswith("V")], r.stderr


needs_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="giving a file to another user needs root")
posix_only = pytest.mark.skipif(not hasattr(os, "geteuid"), reason="no file ownership checks without os.geteuid")


@posix_only
@pytest.mark.parametrize("change, why", [
    (lambda f: f.chmod(0o666), "writable by other users"),
    pytest.param(lambda f: (f.chmod(0o664), os.chown(f, -1, 65534)), "writable by other users",
                 marks=needs_root),  # (writable by a group not the user's own)
    (lambda f: f.parent.chmod(0o777), "its directory is writable by other users"),
    pytest.param(lambda f: os.chown(f, 65534, -1), "owned by another user (uid 65534)", marks=needs_root),
    pytest.param(lambda f: os.chown(f.parent, 65534, -1), "its directory is owned by another user (uid 65534)",
                 marks=needs_root),
])
def test_a_configuration_another_user_could_have_written_is_not_applied(tmp_path, monkeypatch, change, why):
    """A world-writable or foreign-owned ``fountain-audit.toml`` in an ancestor such as /tmp, found
    from the paths' folder, silenced the secret rules without a word (adversarial trial): it is
    passed over with a warning naming it and why, from the paths' folder and from the current
    directory alike; given as ``--config`` it is the user's choice and applies."""
    config, session = _planted(tmp_path)
    change(config)
    warning = f"fountain-audit: warning: ignoring {config}: {why}\n"
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert _lint(str(session)) == (["V101"], warning)
    assert _lint("--config", str(config), str(session)) == ([], "")
    monkeypatch.chdir(tmp_path / "x" / "sub")
    assert _lint("a.spmd") == (["V101"], warning)  # (found from the current directory)
    monkeypatch.chdir(tmp_path / "x")
    assert _lint("sub/a.spmd") == (["V101"], f"fountain-audit: warning: ignoring fountain-audit.toml: {why}\n")


@posix_only
def test_the_configuration_found_past_an_untrusted_one_is_named(tmp_path, monkeypatch):
    """After "ignoring x/fountain-audit.toml: …" the search went on upwards and applied a
    configuration further up without a word (new-user trial): it is named."""
    config, session = _planted(tmp_path, text='ignore = ["V101"]\n')
    config.chmod(0o666)
    (tmp_path / "fountain-audit.toml").write_text('select = ["V102"]\n')
    (tmp_path / "fountain-audit.toml").chmod(0o644)
    monkeypatch.chdir(tmp_path / "x" / "sub")
    assert _lint("a.spmd") == ([], f"fountain-audit: warning: ignoring {config}: writable by other users\n"
                                   f"fountain-audit: warning: using {tmp_path / 'fountain-audit.toml'} instead\n")


@posix_only
def test_a_pyproject_another_user_could_have_written_is_passed_over_only_when_it_configures_us(tmp_path, monkeypatch):
    """A world-writable ``pyproject.toml`` with a ``[tool.fountain-audit]`` table is refused like a
    ``fountain-audit.toml``; one configuring other tools only is passed over without a word."""
    config, session = _planted(tmp_path, "pyproject.toml", '[tool.fountain-audit]\nignore = ["V"]\n')
    config.chmod(0o666)
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert _lint(str(session)) == (["V101"], f"fountain-audit: warning: ignoring {config}: writable by other users\n")
    config.write_text("[tool.ruff]\nline-length = 99  # fountain\n")
    assert _lint(str(session)) == (["V101"], "")


def test_a_configuration_of_this_user_alone_applies(tmp_path, monkeypatch):
    """A file owned by the user running the lint (or root) that no one else may write is applied."""
    config, session = _planted(tmp_path)
    config.chmod(0o644)
    (tmp_path / "x").chmod(0o755)
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert _lint(str(session)) == ([], "")
    (tmp_path / "x").chmod(0o1777)  # a sticky directory (as /tmp): others cannot replace the file
    assert _lint(str(session)) == ([], "")
    config.chmod(0o664)  # writable by the user's own private group (a umask of 002): the user's file still
    (tmp_path / "x").chmod(0o775)
    from fountain_audit import owned
    monkeypatch.setattr(owned, "_private", {os.getegid(): True})
    assert _lint(str(session)) == ([], "")


@posix_only
def test_a_configuration_writable_by_a_shared_own_group_is_not_applied(tmp_path, monkeypatch):
    """A group-writable file of the user's own group is the user's alone only when no one else is
    in that group: a primary group shared with others (``users``) lets them edit it (adversarial
    trial): passed over with a warning, as a file writable by any other group."""
    from fountain_audit import owned
    config, session = _planted(tmp_path)
    config.chmod(0o664)
    (tmp_path / "x").chmod(0o755)
    monkeypatch.chdir(tmp_path / "elsewhere")
    monkeypatch.setattr(owned, "_private", {os.getegid(): False})
    assert _lint(str(session)) == (["V101"], f"fountain-audit: warning: ignoring {config}: writable by other users\n")
    (tmp_path / "x").chmod(0o775)
    config.chmod(0o644)
    assert _lint(str(session)) == (["V101"], f"fountain-audit: warning: ignoring {config}: its directory is writable "
                                              "by other users\n")


@posix_only
def test_a_group_is_private_when_no_other_user_is_in_it(monkeypatch):
    """owned.private_group: a group another user has as primary group, or no group at all, is not
    private; the answer is kept per group."""
    import pwd
    from fountain_audit import owned
    monkeypatch.setattr(owned, "_private", {})
    others = [u for u in pwd.getpwall() if u.pw_uid != os.geteuid()]
    if others:
        assert owned.private_group(others[0].pw_gid) is False
    unused = max(u.pw_gid for u in pwd.getpwall()) + 12345
    assert owned.private_group(unused) is False
    assert set(owned._private) == {unused} | {u.pw_gid for u in others[:1]}


def _sticky_folder_run(tmp_path, monkeypatch, plant, text='ignore = ["V"]\n'):
    """``plant(tmp_path/x/NAME path)`` in ``tmp_path/x`` (a sticky folder as ``/tmp`` under root,
    world-writable without the sticky bit otherwise) above ``x/sub/a.spmd``; the lint run from
    ``x/sub``: (codes, stderr)."""
    config, session = _planted(tmp_path, text=text)
    config.unlink()
    (tmp_path / "x").chmod(0o1777 if os.geteuid() == 0 else 0o777)
    plant(config)
    monkeypatch.chdir(tmp_path / "x" / "sub")
    return _lint("a.spmd")


@posix_only
@pytest.mark.parametrize("name, make", [
    ("fountain-audit.toml", os.mkfifo), ("pyproject.toml", os.mkfifo),
    ("fountain-audit.toml", os.mkdir), ("pyproject.toml", os.mkdir)])
def test_a_fifo_or_folder_another_user_planted_is_passed_over_unopened(tmp_path, monkeypatch, name, make):
    """A FIFO or folder named as a configuration file, planted by another user in an ancestor
    such as /tmp, made every run below it exit 2 ("not a regular file"), the trust check coming
    after that error (adversarial trial): it is passed over with the warning, and the FIFO is never
    opened (the run would block). Under root it is given to another user in a sticky folder; else
    the folder is world-writable. The user's own FIFO in a folder of the user's is still an error."""
    root = os.geteuid() == 0

    def plant(config):
        make(config.with_name(name))
        if root:
            os.chown(config.with_name(name), 65534, -1)
    why = "owned by another user (uid 65534)" if root else "its directory is writable by other users"
    assert _sticky_folder_run(tmp_path, monkeypatch, plant) == (
        ["V101"], f"fountain-audit: warning: ignoring {tmp_path / 'x' / name}: {why}\n")
    (tmp_path / "x").chmod(0o755)
    if root:
        os.chown(tmp_path / "x" / name, 0, -1)
    r = CliRunner().invoke(main, ["lint", "a.spmd"], catch_exceptions=False)
    assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: {tmp_path / 'x' / name}: not a regular file\n")


@posix_only
def test_a_symbolic_link_another_user_planted_is_not_followed(tmp_path, monkeypatch):
    """A symbolic link named ``fountain-audit.toml`` planted in a sticky folder, leading to a file
    of the user's that ignores the secret rules, was followed, the file it leads to judged alone
    (adversarial trial): a link is trusted only when it is the user's (or root's) and its target
    passes too. (Giving a link to another user needs root; otherwise the link is the user's and
    its target world-writable.)"""
    (tmp_path / "priv").mkdir()
    target = tmp_path / "priv" / "fountain-audit.toml"
    target.write_text('ignore = ["V"]\n')

    def plant(config):
        config.symlink_to(target)
        if os.geteuid() == 0:
            os.chown(config, 65534, -1, follow_symlinks=False)
        else:
            (tmp_path / "x").chmod(0o755)
            target.chmod(0o666)
    why = ("symbolic link owned by another user (uid 65534)" if os.geteuid() == 0
           else f"its target {target}: writable by other users")
    assert _sticky_folder_run(tmp_path, monkeypatch, plant) == (
        ["V101"], f"fountain-audit: warning: ignoring {tmp_path / 'x' / 'fountain-audit.toml'}: {why}\n")
    link = tmp_path / "x" / "fountain-audit.toml"
    if os.geteuid() == 0:
        os.chown(link, 0, -1, follow_symlinks=False)
    target.chmod(0o644)
    (tmp_path / "x").chmod(0o755)
    assert _lint("a.spmd") == ([], "")  # the user's own link to the user's own file applies
    (tmp_path / "priv").chmod(0o777)
    assert _lint("a.spmd") == (["V101"], f"fountain-audit: warning: ignoring {link}: its target "
                                         f"{target}: its directory is writable by other users\n")


@posix_only
def test_a_baseline_another_user_could_have_written_is_not_applied(tmp_path, monkeypatch):
    """The baseline a discovered configuration names silences findings as ``ignore`` does, and was
    applied whoever could write it (adversarial trial): under the configuration's rule it is passed
    over with a warning; given as ``--baseline``, or named by ``--config``, it applies."""
    config, session = _planted(tmp_path, text='baseline = "b.json"\n')
    monkeypatch.chdir(tmp_path / "x" / "sub")
    r = CliRunner().invoke(main, ["lint", "--update-baseline", "a.spmd"], catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    assert _lint("a.spmd") == ([], "")
    baseline = tmp_path / "x" / "b.json"
    baseline.chmod(0o666)
    if os.geteuid() == 0:
        os.chown(baseline, 65534, -1)
    why = "owned by another user (uid 65534)" if os.geteuid() == 0 else "writable by other users"
    assert _lint("a.spmd") == (["V101"], f"fountain-audit: warning: ignoring the baseline {baseline}: {why}\n")
    # --update-baseline said "--update-baseline needs --baseline" (new-user trial): it names the
    # configured baseline it did not use and why
    r = CliRunner().invoke(main, ["lint", "--update-baseline", "a.spmd"], catch_exceptions=False)
    assert r.exit_code == 2
    assert r.stderr == (f"fountain-audit: warning: ignoring the baseline {baseline}: {why}\n"
                        f"fountain-audit: error: --update-baseline: the configured baseline {baseline} was not "
                        f"used: it is untrusted ({why}); give --baseline FILE to update it anyway, or make it yours\n")
    assert _lint("--baseline", "../b.json", "a.spmd") == ([], "")
    assert _lint("--config", "../fountain-audit.toml", "a.spmd") == ([], "")


@posix_only
def test_one_doubt_serves_the_cache_and_the_configuration_with_their_rules(monkeypatch):
    """fountain_audit.owned.doubt is both checks: a cache file (read_own_file) must be this
    user's and writable by no group; a configuration file (lint.config._doubt) may be root's and
    writable by the user's own private group, and its folder may be writable by others when
    sticky. A symbolic link is judged by its owner alone (its mode is always 0777)."""
    from fountain_audit import owned
    from fountain_audit.owned import doubt
    monkeypatch.setattr(owned, "_private", {os.getegid(): True})

    def info(mode, uid=None, gid=None):  # an os.stat_result with st_mode, st_uid, st_gid
        uid, gid = os.geteuid() if uid is None else uid, os.getegid() if gid is None else gid
        return os.stat_result((mode, 0, 0, 1, uid, gid, 0, 0, 0, 0))

    config = {"root_trusted": True, "own_group_may_write": True}
    other = os.getegid() + 1
    cases = [  # (status, cache's answer, configuration file's answer, configuration folder's answer)
        (info(0o100644), None, None, None),
        (info(0o100664), "writable by other users", None, None),
        (info(0o100664, gid=other), "writable by other users", "writable by other users", "writable by other users"),
        (info(0o100646), "writable by other users", "writable by other users", "writable by other users"),
        (info(0o041777), "writable by other users", "writable by other users", None),  # a sticky folder (/tmp)
        (info(0o100644, uid=0), None if os.geteuid() == 0 else "owned by another user (uid 0)", None, None),
        (info(0o100644, uid=os.geteuid() + 1), *[f"owned by another user (uid {os.geteuid() + 1})"] * 3),
        (info(0o120777), None, None, None),  # a symbolic link of the user's
        (info(0o120777, uid=os.geteuid() + 1), *[f"owned by another user (uid {os.geteuid() + 1})"] * 3),
    ]
    for status, cache, file, folder in cases:
        assert (doubt(status), doubt(status, **config), doubt(status, **config, sticky_folder=True)) == (
            cache, file, folder), oct(status.st_mode)
    monkeypatch.setattr(owned, "_private", {os.getegid(): False})  # a primary group others share (users)
    assert doubt(info(0o100664), **config) == "writable by other users"


def test_a_nul_character_in_the_baseline_setting_is_an_error_naming_the_file_and_key(tmp_path, monkeypatch):
    """`baseline = "a\\u0000b"` ended in a traceback (ValueError: embedded null byte) and exit 1
    (adversarial trial)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.spmd").write_text(BAD)
    for name, text in (("fountain-audit.toml", 'baseline = "a\\u0000b"\n'),
                       ("pyproject.toml", '[tool.fountain-audit]\nbaseline = "a\\u0000b"\n')):
        (tmp_path / name).write_text(text)
        r = CliRunner().invoke(main, ["lint", "a.spmd"])
        assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: {name}: 'baseline' holds a NUL character "
                                              "(\\u0000): not a file name\n")
        (tmp_path / name).unlink()
    from fountain_audit.lint.baseline import BaselineError, load
    with pytest.raises(BaselineError, match=r"^'a\\x00b': not a file name \(it holds a NUL character\)$"):
        load("a\0b")


def test_a_removed_current_directory_is_no_crash(tmp_path):
    """From a directory removed after `cd` (os.getcwd() raises FileNotFoundError), lint, report and
    `lint -` ended in a traceback and exit 1 (adversarial trial): no configuration is found from
    it, a file given by its absolute path is linted, a relative one cannot be read."""
    import subprocess
    import sys
    from tests.test_formats import cli_env
    session = tmp_path / "s.spmd"
    session.write_text(BAD.replace("LLAMA\nIt", "/* x */\n\nLLAMA\nIt"))

    def fa(*args, stdin=None):
        script = ("import os, sys, runpy; os.mkdir('gone'); os.chdir('gone'); os.rmdir('../gone'); "
                  "sys.argv = ['fountain-audit', *sys.argv[1:]]; runpy.run_module('fountain_audit', run_name='__main__')")
        return subprocess.run([sys.executable, "-c", script, *args], cwd=tmp_path, input=stdin, capture_output=True,
                              text=True, timeout=60, env=cli_env(NO_COLOR="1"))

    lint = fa("lint", "--output-format", "concise", str(session))
    here = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "--output-format", "concise", str(session)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, env=cli_env(NO_COLOR="1"))
    assert (lint.returncode, lint.stdout, lint.stderr) == (1, here.stdout, "")  # as from a directory that exists
    assert lint.stdout.startswith(f"{session}:14:1: P102 ")
    stdin = fa("lint", "--output-format", "concise", "-", stdin=session.read_text())
    assert stdin.returncode == 1 and stdin.stdout.startswith("-:14:1: P102 ") and stdin.stderr == ""
    sarif = fa("lint", "--output-format", "sarif", str(session))
    assert sarif.returncode == 1 and "originalUriBaseIds" not in json.loads(sarif.stdout)["runs"][0]
    report = fa("report", str(session), "-o", str(tmp_path / "pages"))
    assert report.returncode == 0 and (tmp_path / "pages" / "index.html").exists()
    relative = fa("lint", "s.spmd")
    assert (relative.returncode, relative.stderr) == (2, "fountain-audit: error: s.spmd: no such file or directory\n")


@pytest.mark.parametrize("table, what", [("[tool]\nfountain-audit = 5\n", "an integer"),
                                         ("[[tool.fountain-audit]]\nselect = [\"P\"]\n", "an array"),
                                         ("[tool]\nfountain-audit = \"select=P\"\n", "a string")])
def test_a_tool_table_of_another_type_is_a_configuration_error(tmp_path, monkeypatch, table, what):
    """`fountain-audit = 5` crashed lint with a TypeError (exit 1, read by CI as findings); a
    string's characters were named as unknown keys (adversarial trial, stop 33). In
    fountain-audit.toml too (the pyproject shape pasted there)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.spmd").write_text(BAD, encoding="utf-8")
    for name in ("pyproject.toml", "fountain-audit.toml"):
        (tmp_path / name).write_text(table)
        r = CliRunner().invoke(main, ["lint", "--config", name, "a.spmd"], catch_exceptions=False)
        assert r.exit_code == 2
        assert r.stderr == (f"fountain-audit: error: {name}: 'tool.fountain-audit' must be a table "
                            f"([tool.fountain-audit]), not {what}\n")
        (tmp_path / name).unlink()


@pytest.mark.parametrize("extra", [["--extend-select", "P102"], ["--extend-select", "p102"],
                                   ["--extend-select", "ALL"]])
def test_extend_select_of_a_selected_rule_reports_each_finding_once(tmp_path, monkeypatch, extra):
    """Each P102 was reported twice, with two fingerprints (adversarial trial, stop 33)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.spmd").write_text(BAD, encoding="utf-8")
    status, doc = lint_json(tmp_path, "--no-cache", *extra, "a.spmd")
    assert codes(doc) == [("a.spmd", "P102", 14, "error"), ("a.spmd", "S104", 20, "warning")]


def test_a_list_of_unknown_rules_names_each_of_them():
    """`disable=X1,Y1` named X1 only (adversarial trial, stop 37); the hint once, at the end."""
    text = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable=X1,Y1 */\n\nALICE\nWhat")
    assert lint_messages(text, "A102") == [(11, 1, "suppression comment ignored: unknown rule or rule prefix 'X1'; "
                                                   "unknown rule or rule prefix 'Y1' (see 'fountain-audit rules')")]


def test_a_directive_whose_verb_is_right_names_what_follows_it():
    """`disable=P102 /* nested */ */` was told "'disable' is no fountain-audit directive"
    (adversarial trial, stop 37): the verb is one; what follows it is the fault."""
    text = BAD.replace("ALICE\nWhat", "/* fountain-audit: disable P102 */\n\nALICE\nWhat")
    assert lint_messages(text, "A102") == [(11, 1, "suppression comment ignored: 'disable' is followed by ' P102', "
                                                   "which is no list of rules ('=' then rule codes or names, separated "
                                                   "by commas; disable=, enable=, disable-next=, disable-file)")]


@pytest.mark.parametrize("prefix", ["FOUNTAIN-AUDIT:", "Fountain-Audit:", "fountain_audit:", "fountain-audit :"])
def test_a_directive_in_other_capitals_is_said_not_ignored(prefix):
    """`/* FOUNTAIN-AUDIT: disable=P102 */` was ignored with no A102 (adversarial trial, stop 37);
    inside a speech (session text) nothing is said."""
    text = BAD.replace("ALICE\nWhat", f"/* {prefix} disable=P102 */\n\nALICE\nWhat")
    assert lint_messages(text, "A102") == [(11, 1, f"suppression comment ignored: {prefix!r} is not read: a "
                                                   "directive starts 'fountain-audit:', in lower case with a hyphen")]
    assert "P102" in {d.code for d in lint_text(text)}
    text = BAD.replace("[[tool:", f"/* {prefix} disable=P102 */\n\n[[tool:")
    assert lint_messages(text, "A102") == []

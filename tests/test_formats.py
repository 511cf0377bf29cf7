"""Output formats of ``lint`` (full, concise, json, json-lines, github, sarif, junit, gitlab),
--output, --statistics, standard input, the directory walk and the parser cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from fountain_audit.lint.rules import all_rules
from fountain_audit import schemas
from fountain_audit.cli import main
from fountain_audit.lint.diagnostics import Diagnostic, Severity
from fountain_audit.reporters.formats import LintRun, artifact_uri, report_github, resolve_format, sarif_log, statistics_lines
from fountain_audit.parse.cache import cache_file, cached_lark

from .conftest import ROOT, SAMPLES, shared_path
from .test_cli import A03

SARIF_SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text())
#: The stable fingerprint of A03's P102 as s.spmd (see tests/test_fingerprint.py for the recipe).
P102_FINGERPRINT = "f4ebe290d81a8ec6da6ea0b14ce88c66"
P102_MESSAGE = "tool note before HARVEY's forwarding line (line 17); it belongs after it, before the reply"


@pytest.fixture
def a03(tmp_path, monkeypatch):
    """A03 as s.spmd in the current directory (so paths are relative)."""
    monkeypatch.chdir(tmp_path)
    Path("s.spmd").write_text(A03, encoding="utf-8")
    return "s.spmd"


def cli_env(**extra) -> dict:
    """The environment for ``python -m fountain_audit`` in a subprocess: this checkout first."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


def run(*args, input=None, env=None):
    return CliRunner().invoke(main, ["lint", *args], input=input, env=env, catch_exceptions=False)


def validate_sarif(doc: dict) -> None:
    validator = jsonschema.Draft4Validator(SARIF_SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]


# -- choosing the format -------------------------------------------------------------------------------------

def test_format_resolution():
    assert resolve_format(None, terminal=True, environ={}) == "full"
    assert resolve_format(None, terminal=False, environ={}) == "concise"
    assert resolve_format("auto", terminal=True, environ={}) == "full"
    assert resolve_format("auto", terminal=False, environ={"GITHUB_ACTIONS": "true"}) == "github"
    assert resolve_format(None, terminal=False, environ={"GITHUB_ACTIONS": "true"}) == "concise"
    assert resolve_format("text", terminal=True, environ={}) == "concise"
    assert resolve_format("sarif", terminal=True, environ={"GITHUB_ACTIONS": "true"}) == "sarif"


def test_github_annotations_under_github_actions_with_auto(a03):
    r = run("--output-format", "auto", a03, env={"GITHUB_ACTIONS": "true"})
    assert r.exit_code == 1
    assert r.output == (f"::error file=s.spmd,line=14,col=1,endLine=14,endColumn=42,title=P102 tools-between-forward-and-reply::"
                        f"{P102_MESSAGE}\n"
                        "Found 1 error, 0 warnings, 0 infos in 1 file checked.\n")


def test_without_github_actions_auto_is_concise_off_a_terminal(a03):
    r = run("--output-format", "auto", a03, env={"GITHUB_ACTIONS": None})
    assert r.output.splitlines()[0] == f"s.spmd:14:1: P102 [tools-between-forward-and-reply] {P102_MESSAGE}"


def test_github_escapes_properties_and_data():
    d = Diagnostic("a,b:c%.spmd", 3, 2, "S104", "missing-the-end", Severity.WARNING, "50%\nnext", None, None)
    i = Diagnostic("x.spmd", 1, 1, "T103", "several-exchanges-in-scene", Severity.INFO, "m")
    assert report_github(LintRun([d, i], ["a,b:c%.spmd", "x.spmd"])).splitlines()[:2] == [
        "::warning file=a%2Cb%3Ac%25.spmd,line=3,col=2,title=S104 missing-the-end::50%25%0Anext",
        "::notice file=x.spmd,line=1,col=1,title=T103 several-exchanges-in-scene::m"]


# -- full and concise --------------------------------------------------------------------------------------

def test_full_shows_a_code_frame(a03):
    r = run("--output-format", "full", "--no-color", a03)
    assert r.exit_code == 1
    assert r.output == (
        f"s.spmd:14:1: P102 [tools-between-forward-and-reply] {P102_MESSAGE}\n"
        "   |\n"
        "12 | What is in a.go?\n"
        "13 |\n"
        "14 | [[tool: read_file({\"path\":\"a.go\"}) — ok]]\n"
        "   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ P102\n"
        "15 |\n"
        "16 | HARVEY\n"
        "   |\n"
        "\n"
        "Found 1 error, 0 warnings, 0 infos in 1 file checked.\n")


def test_full_underlines_the_range_and_makes_control_characters_visible(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("e.spmd").write_bytes((SAMPLES / "violations" / "E102-control-character.spmd").read_bytes())
    r = run("--output-format", "full", "--no-color", "e.spmd")
    lines = r.output.splitlines()
    assert lines[0] == "e.spmd:19:5: E102 [control-character] control character(s) U+0000 in text"
    assert lines[4] == "19 | TEMP\\x0021.4C"  # the NUL as an escape, not U+FFFD: nothing is lost
    assert lines[5] == "   |     ^^^^ E102"  # the caret covers the escape


def test_concise_is_unchanged(a03):
    r = run("--output-format", "concise", a03)
    assert r.output == (f"s.spmd:14:1: P102 [tools-between-forward-and-reply] {P102_MESSAGE}\n"
                        "Found 1 error, 0 warnings, 0 infos in 1 file checked.\n")
    assert run("--format", "text", a03).output == r.output


def test_statistics(a03):
    r = run("--statistics", a03, str(SAMPLES / "violations" / "P102-tools-between-forward-and-reply.spmd"))
    assert r.output.splitlines()[-2:] == ["2  P102  [tools-between-forward-and-reply]",
                                          "Found 2 errors, 0 warnings, 0 infos in 2 files checked."]
    diags = [Diagnostic("a", 1, 1, c, n, Severity.ERROR, "m") for c, n in
             [("S104", "missing-the-end")] * 12 + [("A101", "unused-suppression"), ("P102", "x"), ("P102", "x")]]
    assert statistics_lines(diags) == ["12  S104  [missing-the-end]", " 2  P102  [x]", " 1  A101  [unused-suppression]"]


def test_statistics_with_a_machine_format_go_to_stderr(a03):
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "--statistics", "--output-format", "json", a03],
                       capture_output=True, text=True, env=cli_env())
    assert r.stderr == "1  P102  [tools-between-forward-and-reply]\n"
    assert json.loads(r.stdout)["summary"]["error"] == 1


# -- json and json-lines -----------------------------------------------------------------------------------

def test_json_document_validates_and_has_rule_doc_fields(a03):
    r = run("--output-format", "json", a03, "missing.spmd")
    assert r.exit_code == 2
    doc = json.loads(r.output[r.output.index("{"):])
    jsonschema.Draft202012Validator(schemas.load("lint")).validate(doc)
    assert doc["format_version"] == "1.2" and doc["files"] == ["s.spmd"]
    assert doc["unreadable"] == ["missing.spmd: no such file or directory"]
    assert doc["summary"] == {"files": 1, "error": 1, "warning": 0, "info": 0}
    assert doc["diagnostics"] == [{
        "path": "s.spmd", "line": 14, "column": 1, "end_line": 14, "end_column": 42, "code": "P102",
        "name": "tools-between-forward-and-reply", "severity": "error", "message": P102_MESSAGE,
        "fingerprint": P102_FINGERPRINT, "url": "README.md#rules", "doc": "fountain-audit rule P102"}]


def test_lint_schema_is_valid_draft_2020_12():
    schema = schemas.load("lint")
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_json_of_samples_and_cases_validates():
    cases = shared_path("cases")
    r = run("--output-format", "json", str(SAMPLES), str(cases))
    doc = json.loads(r.output)
    jsonschema.Draft202012Validator(schemas.load("lint")).validate(doc)
    assert doc["summary"]["files"] == len(doc["files"]) and len(doc["diagnostics"]) >= 42


def test_file_reached_as_a_link_and_as_itself_is_named_as_itself(a03):
    """A folder holding a session and a symlink to it: linted once, under the session's own name
    (the link sorts first), so a baseline keeps the file's path, not the link's."""
    os.makedirs("sl/real")
    os.replace(a03, "sl/real/t.spmd")
    os.symlink("real/t.spmd", "sl/linkfile.spmd")
    lines = run("--output-format", "json-lines", "sl").output.splitlines()
    assert [json.loads(x)["path"] for x in lines] == ["sl/real/t.spmd"]


def test_json_lines(a03):
    r = run("--output-format", "json-lines", a03, a03)
    lines = r.output.splitlines()
    assert len(lines) == 1  # the same file named twice is linted once
    record = json.loads(lines[0])
    jsonschema.Draft202012Validator(schemas.load("lint")["$defs"]["diagnostic"]).validate(record)
    assert (record["path"], record["line"], record["code"], record["doc"]) == ("s.spmd", 14, "P102",
                                                                              "fountain-audit rule P102")


# -- sarif -------------------------------------------------------------------------------------------------

def test_sarif_for_one_file(a03):
    r = run("--output-format", "sarif", a03)
    assert r.exit_code == 1
    log = json.loads(r.output)
    validate_sarif(log)
    sarif_run = log["runs"][0]
    assert log["version"] == "2.1.0" and sarif_run["columnKind"] == "unicodeCodePoints"
    driver = sarif_run["tool"]["driver"]
    assert driver["name"] == "fountain-audit"
    rule = driver["rules"][sarif_run["results"][0]["ruleIndex"]]
    assert rule["id"] == "P102" and rule["name"] == "tools-between-forward-and-reply"
    assert rule["shortDescription"] == {"text": "A tool note that is not between HARVEY's forwarding line and the reply."}
    assert rule["fullDescription"]["text"].startswith("Reports a `[[tool:]]` or `[[NAME.tool:]]` note")
    assert rule["help"]["text"].startswith("A tool note that is not between") and "## Use instead" in rule["help"]["markdown"]
    assert rule["defaultConfiguration"] == {"level": "error"}
    assert sarif_run["results"] == [{
        "ruleId": "P102", "ruleIndex": rule and driver["rules"].index(rule), "level": "error",
        "message": {"text": P102_MESSAGE},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": "s.spmd", "uriBaseId": "%SRCROOT%", "index": 0},
            "region": {"startLine": 14, "startColumn": 1, "endLine": 14, "endColumn": 42}}}],
        "partialFingerprints": {"fountainAudit/v1": P102_FINGERPRINT}}]
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == Path.cwd().resolve().as_uri() + "/"
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in driver["rules"]}
    assert (levels["S104"], levels["T103"], len(levels)) == ("warning", "note", len(all_rules()))


def test_sarif_for_samples_validates_with_regions():
    log = json.loads(run("--output-format", "sarif", str(SAMPLES)).output)
    validate_sarif(log)
    results = log["runs"][0]["results"]
    assert len(results) == len(all_rules())  # one violation sample per rule
    e101 = next(r for r in results if r["ruleId"] == "E101")
    assert e101["locations"][0]["physicalLocation"]["region"] == {"startLine": 26, "startColumn": 16,
                                                                 "endLine": 26, "endColumn": 17}
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True, "toolExecutionNotifications": []}]


def test_sarif_for_shared_cases_validates():
    cases = shared_path("cases")
    r = run("--output-format", "sarif", str(cases), str(shared_path("corpus")))
    validate_sarif(json.loads(r.output))


def test_sarif_reports_unreadable_paths_and_odd_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    odd = "d ir/a b%\udcff.spmd"
    os.makedirs(os.path.dirname(odd))
    Path(odd).write_bytes(A03.encode())
    log = sarif_log(LintRun([Diagnostic(odd, 1, 1, "S104", "missing-the-end", Severity.WARNING, "m")], [odd],
                            ["nope.spmd: no such file or directory"]), cwd=str(tmp_path))
    validate_sarif(log)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location["uri"] == "d%20ir/a%20b%25%FF.spmd"
    assert log["runs"][0]["invocations"][0] == {"executionSuccessful": False, "toolExecutionNotifications": [
        {"level": "error", "message": {"text": "nope.spmd: no such file or directory"}}]}
    assert artifact_uri("./x/y.spmd") == ("x/y.spmd", "%SRCROOT%")
    assert artifact_uri("/tmp/x y.spmd") == ("file:///tmp/x%20y.spmd", None)


# -- junit and gitlab --------------------------------------------------------------------------------------

def test_junit_one_suite_per_file_one_testcase_per_diagnostic(a03):
    Path("clean.spmd").write_text((SAMPLES / "clean-session.spmd").read_text(encoding="utf-8"), encoding="utf-8")
    r = run("--output-format", "junit", a03, "clean.spmd", "gone.spmd")
    assert r.exit_code == 2
    xml = r.output[r.output.index("<?xml"):]
    root = ET.fromstring(xml.encode())
    assert (root.tag, root.get("tests"), root.get("failures"), root.get("errors")) == ("testsuites", "3", "1", "1")
    assert [(s.get("name"), s.get("tests"), s.get("failures"), s.get("errors")) for s in root.findall("testsuite")] == [
        ("s.spmd", "1", "1", "0"), ("clean.spmd", "1", "0", "0"), ("unreadable", "1", "0", "1")]
    cases = root.findall("testsuite/testcase")
    assert [c.get("name") for c in cases] == ["P102 [tools-between-forward-and-reply] 14:1", "lint",
                                              "gone.spmd: no such file or directory"]
    failures = cases[0].findall("failure")
    assert [(f.get("type"), f.text) for f in failures] == [
        ("P102", f"s.spmd:14:1: P102 [tools-between-forward-and-reply] {P102_MESSAGE}")]
    assert cases[1].findall("*") == [] and cases[2].find("error").get("type") == "unreadable"


def test_junit_escapes_what_xml_cannot_hold():
    from fountain_audit.reporters.formats import report_junit
    d = Diagnostic("a\udcff.spmd", 1, 1, "E102", "control-character", Severity.WARNING, "NUL \x00 here & <there>")
    root = ET.fromstring(report_junit(LintRun([d], ["a\udcff.spmd"], strict=True)).encode())
    assert root.find("testsuite").get("name") == "a\\udcff.spmd"
    assert root.find("testsuite/testcase").get("classname") == "a\\udcff.spmd"
    assert root.find("testsuite/testcase/failure").get("message") == "E102 [control-character] NUL \\x00 here & <there>"


def test_gitlab_code_quality(a03):
    r = run("--output-format", "gitlab", a03)
    issues = json.loads(r.output)
    assert len(issues) == 1
    issue = issues[0]
    assert {k: v for k, v in issue.items() if k != "fingerprint"} == {
        "type": "issue", "description": f"P102 [tools-between-forward-and-reply] {P102_MESSAGE}",
        "check_name": "P102", "severity": "major", "categories": ["Bug Risk"],
        "location": {"path": "s.spmd", "lines": {"begin": 14, "end": 14}}}
    assert len(issue["fingerprint"]) == 32
    assert json.loads(run("--output-format", "gitlab", a03).output)[0]["fingerprint"] == issue["fingerprint"]


def test_gitlab_category_by_rule_family():
    """Code Climate categories: a secret is a security finding (it was "Style"), an encoding or
    a legacy form compatibility, a reply read as structure clarity, a suppression style, the
    format's rules a bug risk (a record the audit trail loses)."""
    from fountain_audit.reporters.formats import report_gitlab
    codes = ["V101", "V102", "E101", "L102", "R101", "A101", "F101", "N111", "T101"]
    ds = [Diagnostic("a.spmd", n, 1, code, "x", Severity.WARNING, "m") for n, code in enumerate(codes, 1)]
    assert [i["categories"] for i in json.loads(report_gitlab(LintRun(ds, ["a.spmd"])))] == [
        ["Security"], ["Security"], ["Compatibility"], ["Compatibility"], ["Clarity"], ["Style"], ["Bug Risk"],
        ["Bug Risk"], ["Bug Risk"]]


def test_gitlab_fingerprints_are_unique_per_occurrence():
    from fountain_audit.reporters.formats import report_gitlab
    same = [Diagnostic("a.spmd", n, 1, "T104", "character-not-uppercase", Severity.WARNING, "m") for n in (3, 9)]
    issues = json.loads(report_gitlab(LintRun(same, ["a.spmd"])))
    assert [i["severity"] for i in issues] == ["minor", "minor"]
    assert issues[0]["fingerprint"] != issues[1]["fingerprint"]


# -- --output, standard input ------------------------------------------------------------------------------

def test_output_file_is_written_atomically(a03):
    Path("report.sarif").write_text("old report")
    os.chmod("report.sarif", 0o640)
    r = run("--output-format", "sarif", "--output", "report.sarif", a03)
    assert r.exit_code == 1 and r.output == ""
    validate_sarif(json.loads(Path("report.sarif").read_text()))
    assert os.stat("report.sarif").st_mode & 0o777 == 0o640
    assert sorted(os.listdir(".")) == [".fountain_audit_cache", "report.sarif", "s.spmd"]  # no temporary file left
    r = run("-o", "report.txt", a03)
    assert Path("report.txt").read_text() == (f"s.spmd:14:1: P102 [tools-between-forward-and-reply] {P102_MESSAGE}\n"
                                              "Found 1 error, 0 warnings, 0 infos in 1 file checked.\n")


def test_output_that_cannot_be_written_exits_2(a03):
    Path("a-file").write_text("x")
    r = run("--output", "a-file/report.json", "--output-format", "json", a03)
    assert r.exit_code == 2 and "a-file/report.json: cannot write: Not a directory" in r.output
    assert Path("a-file").read_text() == "x"


def test_output_into_missing_folders_creates_them(a03):
    """``-o out/ci/lint.json`` failed ("No such file or directory") where report's ``-o`` made the
    folders: every ``-o`` creates them now (as ruff's ``--output-file``)."""
    r = run("--output", "no/such/dir/report.json", "--output-format", "json", a03)
    assert r.exit_code == 1, r.output
    assert os.listdir("no/such/dir") == ["report.json"]  # (no temporary file left)
    assert json.loads(Path("no/such/dir/report.json").read_text())["summary"]["error"] == 1


def test_stdin_filename_in_reports():
    sample = SAMPLES / "violations" / "P102-tools-between-forward-and-reply.spmd"
    for fmt, expected in (("concise", "x.spmd:20:1: P102 [tools-between-forward-and-reply]"),
                          ("github", "::error file=x.spmd,line=20,col=1,endLine=20,endColumn=56,"
                                     "title=P102 tools-between-forward-and-reply::")):
        r = subprocess.run(f"cat '{sample}' | '{sys.executable}' -m fountain_audit lint - --stdin-filename x.spmd "
                           f"--output-format {fmt}", shell=True, capture_output=True, text=True, cwd=ROOT, env=cli_env())
        assert r.returncode == 1 and r.stdout.startswith(expected), r.stdout + r.stderr
    log = json.loads(run("-", "--stdin-filename", "x.spmd", "--output-format", "sarif", input=sample.read_bytes()).output)
    assert log["runs"][0]["artifacts"] == [{"location": {"uri": "x.spmd", "uriBaseId": "%SRCROOT%"},
                                            "roles": ["analysisTarget"]}]
    full = run("-", "--stdin-filename", "x.spmd", "--output-format", "full", input=sample.read_bytes()).output
    assert "20 | [[tool: read_file" in full


# -- the directory walk ------------------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks")
def test_fifo_and_symlink_loops_are_reported_not_hung(tmp_path):
    (tmp_path / "good.spmd").write_text(A03)
    os.mkfifo(tmp_path / "pipe.spmd")
    os.symlink(tmp_path / "loop-a.spmd", tmp_path / "loop-b.spmd")
    os.symlink(tmp_path / "loop-b.spmd", tmp_path / "loop-a.spmd")
    os.symlink(tmp_path / "gone", tmp_path / "dangling.spmd")
    os.symlink(tmp_path, tmp_path / "self")  # a directory symlink loop: not followed
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", str(tmp_path)], capture_output=True,
                       text=True, timeout=60, env=cli_env())
    assert r.returncode == 2
    assert r.stdout.splitlines()[-1] == ("Found 1 error, 0 warnings, 0 infos in 1 file checked; "
                                         "4 paths could not be read.")
    errors = r.stderr.splitlines()
    assert errors == [f"fountain-audit: error: {tmp_path / 'dangling.spmd'}: a dangling symbolic link "
                      f"(to {tmp_path / 'gone'})",
                      f"fountain-audit: error: {tmp_path / 'loop-a.spmd'}: a symbolic link loop",
                      f"fountain-audit: error: {tmp_path / 'loop-b.spmd'}: a symbolic link loop",
                      f"fountain-audit: error: {tmp_path / 'pipe.spmd'}: not a regular file"]


def test_exclude_prunes_directories_gitignore_style(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for d in ("archive", "keep", "keep/archive", "logs/old"):
        os.makedirs(d, exist_ok=True)
        Path(d, "s.spmd").write_text(A03)
    Path("archive.spmd").write_text(A03)
    Path("fountain-audit.toml").write_text('exclude = ["archive/", "logs/**"]\n')
    doc = json.loads(run("--output-format", "json", ".").output)
    assert doc["files"] == ["archive.spmd", "keep/s.spmd"]
    Path("fountain-audit.toml").write_text('exclude = ["archive"]\n')
    doc = json.loads(run("--output-format", "json", ".").output)
    assert doc["files"] == ["archive.spmd", "keep/s.spmd", "logs/old/s.spmd"]


# -- the parser cache --------------------------------------------------------------------------------------

GRAMMAR = 'start: WORD+\n%import common.WORD\n%ignore " "\n'


def test_parser_cache_is_written_then_used(tmp_path, monkeypatch):
    monkeypatch.setenv("FOUNTAIN_AUDIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FOUNTAIN_AUDIT_NO_CACHE", raising=False)
    path = cache_file("t", GRAMMAR, {"parser": "lalr"})
    assert path.parent == tmp_path / "cache" and not path.exists()
    first = cached_lark("t", GRAMMAR, parser="lalr")
    assert path.is_file() and os.listdir(path.parent) == [path.name]
    stamp = path.stat().st_mtime_ns
    second = cached_lark("t", GRAMMAR, parser="lalr")
    assert path.stat().st_mtime_ns == stamp
    assert first.parse("a b").children == second.parse("a b").children
    assert cache_file("t", GRAMMAR + "\n", {"parser": "lalr"}) != path  # another grammar, another file


def test_a_broken_cache_never_breaks_a_run(tmp_path, monkeypatch):
    monkeypatch.setenv("FOUNTAIN_AUDIT_CACHE_DIR", str(tmp_path / "cache"))
    path = cache_file("t", GRAMMAR, {"parser": "lalr"})
    path.parent.mkdir()
    path.write_bytes(b"not a pickle")
    assert len(cached_lark("t", GRAMMAR, parser="lalr").parse("a b c").children) == 3
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("FOUNTAIN_AUDIT_CACHE_DIR", str(tmp_path / "file" / "cache"))  # cannot be created
    assert len(cached_lark("t", GRAMMAR, parser="lalr").parse("a").children) == 1
    monkeypatch.setenv("FOUNTAIN_AUDIT_NO_CACHE", "1")
    assert cache_file("t", GRAMMAR, {}) is None


def test_cli_output_is_the_same_with_a_cold_warm_or_corrupt_cache(tmp_path):
    sample = str(SAMPLES / "violations")
    cache = tmp_path / "cache"
    outputs = []
    for state in ("cold", "warm", "corrupt", "off"):
        env = cli_env(FOUNTAIN_AUDIT_CACHE_DIR=str(cache))
        if state == "corrupt":
            for f in cache.rglob("*"):  # the Lark tables and the lint results (lint-v1/)
                if f.is_file():
                    f.write_bytes(b"\x80garbage")
        if state == "off":
            env["FOUNTAIN_AUDIT_NO_CACHE"] = "1"
        r = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "--output-format", "json", sample],
                           capture_output=True, cwd=ROOT, env=env)
        assert r.returncode == 1, r.stderr
        outputs.append(r.stdout)
        if state == "cold":
            tables = [p.name.split("-")[0] for p in cache.iterdir() if p.name.endswith(".lark-cache")]
            assert sorted(tables) == ["fountain", "notes"]
            assert len(list((cache / "lint-v1").iterdir())) == len(list((SAMPLES / "violations").iterdir()))
    assert outputs[0] == outputs[1] == outputs[2] == outputs[3]

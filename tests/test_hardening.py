"""Issue 14 (hardening from a new-user trial): paths, configuration errors, rule typos,
the README's TOML block, empty runs, colour, diagnostics' ends, outputs over inputs,
non-regular files, file sizes, permissions and interrupted reports."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.lint.config import ConfigError, load_config

from .conftest import ROOT, SAMPLES, cpu_best_of_3
from .test_cli import A03

P102_MESSAGE = "tool note before HARVEY's forwarding line (line 17); it belongs after it, before the reply"


def cli(*args, input=None, env=None):
    return CliRunner().invoke(main, list(args), input=input, env=env)


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A directory with s.spmd (A03: one P102 error at 14:1) as the current directory."""
    monkeypatch.chdir(tmp_path)
    Path("s.spmd").write_text(A03, encoding="utf-8")
    return tmp_path


# -- 1. paths without ./ ---------------------------------------------------------------------------------

def test_paths_have_no_dot_slash_in_any_format(project):
    assert cli("lint", "--output-format", "github", ".").output.splitlines()[0] == (
        "::error file=s.spmd,line=14,col=1,endLine=14,endColumn=42,title=P102 tools-between-forward-and-reply::"
        + P102_MESSAGE)
    assert cli("lint", "--output-format", "concise", "./s.spmd").output.splitlines()[0] == (
        "s.spmd:14:1: P102 [tools-between-forward-and-reply] " + P102_MESSAGE)
    doc = json.loads(cli("lint", "--output-format", "json", ".").output)
    assert (doc["files"], [d["path"] for d in doc["diagnostics"]]) == (["s.spmd"], ["s.spmd"])
    junit = cli("lint", "--output-format", "junit", ".//s.spmd").output
    assert "./" not in junit and 'file="s.spmd"' in junit
    dump = json.loads(cli("dump", ".").output)
    assert [r["file"] for r in dump["records"]] == ["s.spmd"]


# -- 2. a broken pyproject.toml ----------------------------------------------------------------------------

def test_broken_pyproject_exits_2_naming_file_and_error(project):
    (project / "pyproject.toml").write_text('[tool.fountain-audit]\nexclude = ["s.spmd"\n')
    r = cli("lint", ".")
    assert r.exit_code == 2
    assert (f"fountain-audit: error: pyproject.toml:3:1: invalid TOML: Unclosed array (at end of document)"
            in r.output)
    with pytest.raises(ConfigError, match=r"pyproject\.toml:3:1: invalid TOML: Unclosed array"):
        load_config(start=project)


# -- 3. rule typos: blamed on their source, with a suggestion ----------------------------------------------

def test_option_typo_names_the_option_and_suggests(project):
    (project / "pyproject.toml").write_text('[tool.fountain-audit]\nignore = ["S104"]\n')
    r = cli("lint", "--select", "P1O2", ".")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == ("Error: --select: unknown rule or rule prefix 'P1O2'; did you mean "
                                         "P102 / tools-between-forward-and-reply? (see 'fountain-audit rules')")
    r = cli("lint", "--ignore", "P101,rag-befor-dialog", ".")
    assert r.output.splitlines()[-1] == ("Error: --ignore: unknown rule or rule prefix 'rag-befor-dialog'; "
                                         "did you mean P101 / rag-before-dialogue? (see 'fountain-audit rules')")
    assert cli("lint", "--extend-select", "zzzz", ".").output.splitlines()[-1] == (
        "Error: --extend-select: unknown rule or rule prefix 'zzzz' (see 'fountain-audit rules')")


@pytest.mark.parametrize("value", ["", " , "])
def test_an_empty_select_is_a_usage_error_not_every_rule(project, value):
    """`--select=` (an unset shell variable, say) selects no rule: exit 2, not a run of all 42."""
    r = cli("lint", f"--select={value}", ".")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == ("Error: --select: no rule given; name rule codes, prefixes or names "
                                         "(leave --select out to run every rule)")
    assert cli("lint", "--ignore=", "--isolated", ".").exit_code in (0, 1)  # ignoring nothing is harmless


def test_config_typo_names_file_and_key_and_suggests(project):
    (project / "fountain-audit.toml").write_text('[severity]\nmissing-the-edn = "info"\n')
    r = cli("lint", ".")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == (
        f"fountain-audit: error: fountain-audit.toml: severity: unknown rule or rule prefix 'missing-the-edn'; "
        "did you mean S104 / missing-the-end? (see 'fountain-audit rules')")


def test_suppression_typo_suggests(project):
    # (after the scene's description: right before the tool note it would be ALICE's speech's text)
    Path("s.spmd").write_text(A03.replace("ALICE\nWhat", "/* fountain-audit: disable-next=P1O2 */\n\nALICE\nWhat"))
    lines = cli("lint", "--output-format", "concise", "s.spmd").output.splitlines()
    assert lines[0] == ("s.spmd:11:1: A102 [invalid-suppression] suppression comment ignored: unknown rule or rule prefix 'P1O2'; "
                        "did you mean P102 / tools-between-forward-and-reply? (see 'fountain-audit rules')")
    # inside the speech, why it is no directive there comes first, then the unknown rule (it was left out)
    Path("s.spmd").write_text(A03.replace("[[tool:", "/* fountain-audit: disable-next=P1O2 */\n[[tool:"))
    lines = cli("lint", "--output-format", "concise", "s.spmd").output.splitlines()
    assert lines[0].startswith("s.spmd:14:1: A102 [invalid-suppression] suppression comment ignored: inside ALICE's "
                               "input (recorded verbatim, it may hold text pasted from anywhere; it runs to HARVEY's forwarding line)")
    assert lines[0].endswith("or a baseline (unknown rule or rule prefix 'P1O2'; did you mean P102 / "
                             "tools-between-forward-and-reply? (see 'fountain-audit rules'))")


def test_per_file_ignores_turned_round_is_reported(project):
    (project / "fountain-audit.toml").write_text('[per-file-ignores]\n"P102" = ["s.spmd"]\n')
    r = cli("lint", ".")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == (
        f"fountain-audit: error: fountain-audit.toml: per-file-ignores: key 'P102' is a rule, not a file glob "
        '(write "GLOB" = ["P102", ...])')


def test_a_top_level_setting_under_per_file_ignores_is_named_as_misplaced(project):
    """New-user trial: `exclude = [...]` written after `[per-file-ignores]` (TOML puts it in that
    table) was read as a glob whose rules are "old/*": "unknown rule or rule prefix 'old/*'"."""
    for value in ('["old/*"]', '"old/*"'):
        (project / "fountain-audit.toml").write_text(f'[per-file-ignores]\n"s.spmd" = ["P102"]\nexclude = {value}\n')
        r = cli("lint", ".")
        assert r.exit_code == 2
        assert r.output.splitlines()[-1] == (
            "fountain-audit: error: fountain-audit.toml: per-file-ignores: key 'exclude' is a top-level setting, not "
            "a file glob: 'exclude' belongs at the top level (in pyproject.toml under [tool.fountain-audit]), before "
            "any [table] header; TOML reads every key after [per-file-ignores] as part of that table")


# -- 6. the README's TOML block works in fountain-audit.toml ---------------------------------------------

def readme_toml() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(\[tool\.fountain-audit\].*?)```", readme, re.S)
    assert block, "README has no [tool.fountain-audit] TOML block"
    return block.group(1)


@pytest.mark.parametrize("name", ["fountain-audit.toml", "pyproject.toml"])
def test_readme_toml_block_pasted_into_either_file(project, name):
    (project / name).write_text(readme_toml(), encoding="utf-8")
    cfg = load_config(start=project)
    assert (cfg.source.name, cfg.ignore, cfg.target_version, cfg.per_file_ignores) == (
        name, ["loose-scene-timestamp"], "1.3", {"**/legacy/*.spmd": ["P", "N102"]})
    assert cli("lint", ".").exit_code == 1  # the P102 error of s.spmd, not a configuration error


# -- 7. nothing to lint is not a success; dump says what a file is ----------------------------------------

def test_no_session_file_exits_2_unless_allow_empty(project):
    (project / "empty").mkdir()
    r = cli("lint", "empty")
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [  # once: no warning repeating the error
        "fountain-audit: error: no session file (*.spmd, *.fountain) in empty (--allow-empty accepts that)"]
    r = cli("lint", "empty/")  # the path as given (it read "in empty": new-user trial, stop 38)
    assert r.stderr == "fountain-audit: error: no session file (*.spmd, *.fountain) in empty/ (--allow-empty accepts that)\n"
    r = cli("lint", "--allow-empty", "empty")
    assert (r.exit_code, r.stdout) == (0, "All clear: no problems in 0 files checked.\n")
    r = cli("lint", "empty", "s.spmd")  # beside files that were found, the empty folder is a warning
    assert r.exit_code == 1
    assert r.stderr.splitlines() == ["fountain-audit: warning: no *.spmd or *.fountain files under empty"]


@pytest.mark.parametrize("command", [("dump",), ("export", "--to", "toolpath"), ("export", "--to", "otlp-json")])
def test_dump_and_export_of_no_session_file_exit_2(project, command):
    """As lint and report: a mistyped or empty path in CI must not pass with an empty document."""
    (project / "empty").mkdir()
    r = cli(*command, "empty")
    assert (r.exit_code, r.stdout, r.stderr) == (
        2, "", "fountain-audit: error: no session file (*.spmd, *.fountain) in empty\n")


def test_a_folder_whose_sessions_are_all_excluded_says_so(project):
    (project / "pyproject.toml").write_text('[tool.fountain-audit]\nexclude = ["**/archive/**"]\n')
    (project / "archive" / "old").mkdir(parents=True)
    (project / "archive" / "a.spmd").write_text(Path("s.spmd").read_text())
    (project / "archive" / "old" / "b.spmd").write_text(Path("s.spmd").read_text())
    r = cli("lint", "archive")
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        "fountain-audit: warning: no *.spmd or *.fountain files under archive (2 file(s) or folder(s) excluded "
        "by the configuration)",
        "fountain-audit: error: no session file (*.spmd, *.fountain) in archive (--allow-empty accepts that)"]


def test_dump_says_what_a_file_without_records_is(project):
    Path("image.spmd").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10")
    Path("empty.spmd").write_bytes(b"")
    Path("play.fountain").write_text("INT. KITCHEN - DAY\n\nBob cooks.\n")
    r = cli("dump", "image.spmd", "empty.spmd", "play.fountain")
    assert r.exit_code == 0 and json.loads(r.stdout)["records"] == []
    assert r.stderr.splitlines() == [
        "fountain-audit: warning: image.spmd: a PNG image, not a session transcript: no records",
        "fountain-audit: warning: empty.spmd: empty: no records",
        "fountain-audit: warning: play.fountain: a plain screenplay (no Harvey scene or note): no records"]


def test_dump_of_a_folder_of_screenplays_names_three_and_counts_the_rest(project):
    """A folder of 23 screenplays printed 23 warnings (new-user trial, stop 29)."""
    Path("plays").mkdir()
    for k in range(6):
        Path(f"plays/p{k}.fountain").write_text("INT. KITCHEN - DAY\n\nBob cooks.\n")
    r = cli("dump", "plays")
    assert r.exit_code == 0 and json.loads(r.stdout)["records"] == []
    what = "a plain screenplay (no Harvey scene or note): no records"
    assert r.stderr.splitlines() == [f"fountain-audit: warning: {Path('plays', f'p{k}.fountain')}: {what}"
                                     for k in range(3)] + [f"fountain-audit: warning: 3 more files: {what}"]
    skipped = "a plain screenplay (no Harvey scene or note), not a session: skipped"
    for args in (("export", "--to", "toolpath", "--fallback-time", "2026-06-24T10:00:00"), ("report", "-o", "pages")):
        r = cli(*args, "plays", "s.spmd")
        assert r.exit_code == 0, r.stderr
        assert [line for line in r.stderr.splitlines() if "warning" in line] == [
            f"fountain-audit: warning: {Path('plays', f'p{k}.fountain')}: {skipped}" for k in range(3)] + [
            f"fountain-audit: warning: 3 more files: {skipped}"]


def test_export_names_what_a_file_that_is_no_session_is(project):
    Path("image.spmd").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10")
    Path("empty.spmd").write_bytes(b"")
    r = cli("export", "--to", "toolpath", "--fallback-time", "2026-06-24T10:00:00", "image.spmd", "empty.spmd",
            "s.spmd")
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        "fountain-audit: error: image.spmd: a PNG image, not a session transcript: nothing to export",
        "fountain-audit: error: empty.spmd: empty: nothing to export"]
    assert len(json.loads(r.stdout)["paths"]) == 1  # s.spmd is still exported
    Path("d").mkdir()
    for name in ("image.spmd", "empty.spmd", "s.spmd"):
        Path("d", name).write_bytes(Path(name).read_bytes())
    r = cli("export", "--to", "toolpath", "--fallback-time", "2026-06-24T10:00:00", "d")  # found in a folder:
    assert r.exit_code == 0  # skipped with a warning, as dump and report do (it exited 2 having exported d/s.spmd)
    assert r.stderr.splitlines() == [
        "fountain-audit: warning: d/empty.spmd: empty: nothing to export, skipped",
        "fountain-audit: warning: d/image.spmd: a PNG image, not a session transcript: nothing to export, skipped"]
    assert len(json.loads(r.stdout)["paths"]) == 1


def test_show_warns_about_binary_data(project):
    Path("bin.spmd").write_bytes(bytes(range(256)) * 4)
    r = cli("show", "bin.spmd", "--lines", "1:1", "s0")
    assert r.exit_code == 0
    assert r.stderr.splitlines()[0] == \
        "fountain-audit: warning: bin.spmd: binary data, not a session transcript"


def test_provenance_refuses_what_is_not_a_session(project):
    """provenance of binary data, an empty file or a plain screenplay said "undetermined session"
    and exited 0; there is no reply to trace: exit 2 with what the file is, as diff does."""
    Path("bin.spmd").write_bytes(bytes(range(256)) * 4)
    Path("empty.spmd").write_bytes(b"")
    Path("play.fountain").write_text("INT. KITCHEN - DAY\n\nMAYA\nCoffee?\n", encoding="utf-8")
    r = cli("provenance", "bin.spmd")
    assert (r.exit_code, r.stdout, r.stderr) == (
        2, "", "fountain-audit: error: bin.spmd: not a Harvey session: binary data, not a session transcript\n")
    r = cli("provenance", "empty.spmd")
    assert (r.exit_code, r.stdout, r.stderr) == (2, "", "fountain-audit: error: empty.spmd: not a Harvey session: empty\n")
    r = cli("provenance", "--format", "json", "play.fountain")
    assert (r.exit_code, r.stdout, r.stderr) == (
        2, "", "fountain-audit: error: play.fountain: not a Harvey session: a plain screenplay (no Harvey scene or note)\n")


def test_provenance_refuses_a_session_with_no_turns_as_diff_does(project):
    """A Harvey chat scene holding only action has no reply to trace: provenance said
    "undetermined session" and exited 0 while diff exited 2 ("no turns"); now both exit 2."""
    Path("noturns.spmd").write_text(
        "Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: ALICE\n\n\nFADE IN:\n\n\n"
        "INT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\nHarvey and ALICE are in chat mode.\n\n\nTHE END.\n",
        encoding="utf-8")
    for fmt in ("text", "json"):
        r = cli("provenance", "--format", fmt, "noturns.spmd")
        assert (r.exit_code, r.stdout, r.stderr) == (
            2, "", "fountain-audit: error: noturns.spmd: a Harvey session with no chat turns (scene kinds: chat): "
                   "nothing to show provenance for\n")
    r = cli("diff", "noturns.spmd", "noturns.spmd")
    assert (r.exit_code, r.stderr) == (2, "fountain-audit: error: noturns.spmd: a Harvey session with no chat turns "
                                          "(scene kinds: chat): nothing to compare turn by turn\n")


# -- 9. every diagnostic has an end -------------------------------------------------------------------------

def test_every_diagnostic_and_sarif_region_has_an_end(monkeypatch):
    monkeypatch.chdir(ROOT)
    doc = json.loads(cli("lint", "--isolated", "--output-format", "json", "samples").stdout)
    assert len(doc["diagnostics"]) > 40
    assert [d["code"] for d in doc["diagnostics"] if d["end_line"] is None or d["end_column"] is None] == []
    assert all((d["end_line"], d["end_column"]) >= (d["line"], d["column"]) for d in doc["diagnostics"])
    s101 = next(d for d in doc["diagnostics"] if d["code"] == "S101")  # a whole-line finding
    assert (s101["line"], s101["column"], s101["end_line"], s101["end_column"]) == (1, 1, 1, 27)
    sarif = json.loads(cli("lint", "--isolated", "--output-format", "sarif", "samples").stdout)
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in sarif["runs"][0]["results"]]
    assert len(regions) == len(doc["diagnostics"])
    assert [r for r in regions if "endLine" not in r or "endColumn" not in r] == []


# -- 10. no path means '.'; a selection of nothing says so -------------------------------------------------

def test_lint_without_paths_lints_the_current_directory(project):
    r = cli("lint", "--output-format", "concise")
    assert r.exit_code == 1
    assert r.stdout.splitlines() == ["s.spmd:14:1: P102 [tools-between-forward-and-reply] " + P102_MESSAGE,
                                     "Found 1 error, 0 warnings, 0 infos in 1 file checked."]


def test_selecting_nothing_is_a_usage_error(project):
    r = cli("lint", "--select", "N106", "--target-version", "1.2", ".")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == (
        "Error: no rule selected: N106 needs target-version 1.3 or later (target-version is 1.2)")
    r = cli("lint", "--select", "P102", "--ignore", "P1", ".")
    assert (r.exit_code, r.output.splitlines()[-1]) == (2, "Error: no rule selected: every selected rule is ignored")


# -- 18. never write a report over an input -------------------------------------------------------------

def test_output_over_an_input_is_refused(project):
    before = Path("s.spmd").read_bytes()
    r = cli("lint", "--output", "s.spmd", "s.spmd")
    assert r.exit_code == 2
    assert r.stderr == "fountain-audit: error: s.spmd: refusing to write the report over an input file (s.spmd)\n"
    Path("link.txt").symlink_to("s.spmd")
    r = cli("lint", "--output-format", "json", "-o", "link.txt", ".")
    assert r.exit_code == 2 and "link.txt: refusing to write the report over an input file (s.spmd)" in r.stderr
    assert Path("s.spmd").read_bytes() == before


# -- 21. FIFOs named on the command line ---------------------------------------------------------------

def run_cli(*args, cwd, timeout=60, prefix=(), env_extra=None, **kw):
    import subprocess
    import sys

    from .test_formats import cli_env
    env = cli_env(**(env_extra or {"NO_COLOR": "1"}))
    if env_extra is not None and "NO_COLOR" not in env_extra:
        env.pop("NO_COLOR", None)
    return subprocess.run([*prefix, sys.executable, "-m", "fountain_audit", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout, **kw)


def test_fifo_on_the_command_line_is_not_a_regular_file(project):
    import os
    os.mkfifo("pipe.spmd")
    r = run_cli("lint", "pipe.spmd", "s.spmd", cwd=project)
    assert r.returncode == 2 and r.stderr == "fountain-audit: error: pipe.spmd: not a regular file\n"
    assert r.stdout.splitlines()[-1] == "Found 1 error, 0 warnings, 0 infos in 1 file checked; 1 path could not be read."
    r = run_cli("dump", "pipe.spmd", cwd=project)
    assert r.returncode == 2 and r.stderr == "fountain-audit: error: pipe.spmd: not a regular file\n"
    r = run_cli("diff", "pipe.spmd", "s.spmd", cwd=project)
    assert r.returncode == 2 and r.stderr == "fountain-audit: error: pipe.spmd: not a regular file\n"


# -- 22. file sizes and memory ---------------------------------------------------------------------------

def test_max_file_size_refuses_before_reading(project):
    (project / "fountain-audit.toml").write_text("max-file-size = 200\n")
    r = cli("lint", "s.spmd")
    assert r.exit_code == 2
    assert r.stderr == ("fountain-audit: error: s.spmd: cannot read: 310 bytes is over the size limit "
                        "(max-file-size 200 bytes)\n")
    assert cli("lint", "--max-file-size", "1KB", "s.spmd").exit_code == 1
    r = cli("lint", "--max-file-size", "1", "s.spmd")  # it said "max-file-size 1 bytes"
    assert (r.exit_code, r.stderr) == (2, "fountain-audit: error: s.spmd: cannot read: 310 bytes is over the size "
                                          "limit (max-file-size 1 byte)\n")
    r = cli("lint", "--max-file-size", "lots", "s.spmd")
    assert r.exit_code == 2 and "--max-file-size: not a size: 'lots'" in r.output
    (project / "fountain-audit.toml").write_text('max-file-size = -3\n')
    assert "max-file-size: a size must be positive, not -3" in cli("lint", "s.spmd").output


def test_out_of_memory_exits_2_naming_file_and_size(project):
    import resource
    with open("huge.spmd", "wb") as f:  # sparse: no disk used
        f.truncate(2 << 30)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    r = run_cli("lint", "--max-file-size", "4GB", "huge.spmd", cwd=project, preexec_fn=limit)
    assert r.returncode == 2, r.stderr
    assert r.stderr == ("fountain-audit: error: huge.spmd: cannot read: out of memory reading 2.0 GB (2147483648 "
                        "bytes) (max-file-size can refuse such files)\n")
    r = run_cli("lint", "huge.spmd", cwd=project)  # the default limit: refused before reading
    assert r.returncode == 2 and r.stderr == (
        "fountain-audit: error: huge.spmd: cannot read: 2.0 GB (2147483648 bytes) is over the size limit "
        "(max-file-size 512.0 MB (536870912 bytes))\n")


# -- 23. permission denied; interrupted reports leave no temporary file -------------------------------------

def test_file_in_unreadable_directory_is_permission_denied():
    import os
    import shutil
    import tempfile
    project = Path(tempfile.mkdtemp(prefix="fountain-audit-test-"))  # not under pytest's private 0700 folder
    request_cleanup = lambda: shutil.rmtree(project, ignore_errors=True)  # noqa: E731
    (project / "locked").mkdir()
    (project / "locked" / "a.spmd").write_text(A03)
    os.chmod(project / "locked", 0o700)
    os.chmod(project, 0o755)
    prefix: list[str] = []
    if os.geteuid() == 0:  # root reads everything: run as nobody (util-linux setpriv)
        if not shutil.which("setpriv"):
            request_cleanup()
            pytest.skip("running as root without setpriv")
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    try:
        r = run_cli("lint", "locked/a.spmd", cwd=project, prefix=prefix)
    finally:
        request_cleanup()
    assert r.returncode == 2
    assert r.stderr == "fountain-audit: error: locked/a.spmd: permission denied\n"


def _default_sigint() -> None:
    """In a child before exec: SIGINT back to its default, so that Python installs its handler
    (a test run started in the background by a script ignores SIGINT, and children inherit that)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_interrupted_output_leaves_no_temporary_file(tmp_path, signame):
    import signal
    import subprocess
    import sys

    from .test_formats import cli_env
    target = tmp_path / "report.json"
    target.write_text("old report\n")
    script = (
        "import os, signal, sys\n"
        "from fountain_audit.cli import outputs\n"
        "real = os.fsync\n"
        "def fsync(fd):\n"
        "    print(sorted(os.listdir(sys.argv[1])), flush=True)\n"
        f"    os.kill(os.getpid(), signal.{signame})\n"
        "    real(fd)\n"
        "os.fsync = fsync\n"
        "outputs.write_atomic(os.path.join(sys.argv[1], 'report.json'), 'x' * 30_000_000)\n"
        "print('not reached')\n")
    r = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                       env=cli_env(), timeout=60, preexec_fn=_default_sigint)
    listing = eval(r.stdout.splitlines()[0])
    assert len(listing) == 2 and re.fullmatch(r"report\.json\.fountain-audit-\w{8}\.tmp", listing[1]), listing
    assert "not reached" not in r.stdout
    if signame == "SIGTERM":
        assert r.returncode == -signal.SIGTERM
    else:
        assert r.returncode == -signal.SIGINT and "KeyboardInterrupt" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
    assert target.read_text() == "old report\n"


# -- 19. the dump redactor walks nested values without recursion ----------------------------------------

def deep_session(depth: int) -> str:
    args = '{"a":' * depth + '"/tmp/ws/x"' + "}" * depth
    return A03.replace('read_file({\\"path\\":\\"a.go\\"})', f"read_file({args})").replace(
        'read_file({"path":"a.go"})', f"read_file({args})")


def test_redact_paths_on_json_nested_900_deep(project):
    Path("deep.spmd").write_text(deep_session(900))
    r = cli("dump", "--redact-paths", "deep.spmd")
    assert r.exit_code == 0, r.output[-300:]
    value = json.loads(r.stdout)["records"][0]["arguments"]
    depth = 0
    while isinstance(value, dict):
        value, depth = value["a"], depth + 1
    assert (depth, value) == (900, "<workspace>/x")
    from fountain_audit.dump import Redactor
    nested: object = "/tmp/ws"
    for k in range(5000):
        nested = [nested, {"/tmp/ws/k": k}] if k % 2 else {"k": nested}
    out = Redactor(["/tmp/ws"])(nested)
    for k in reversed(range(5000)):
        if k % 2:
            assert out[1] == {"<workspace>/k": k}
            out = out[0]
        else:
            out = out["k"]
    assert out == "<workspace>"


# -- 20. suppression comments in linear time --------------------------------------------------------------

def suppression_shapes(n: int) -> dict[str, str]:
    head = "Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\n"
    return {
        # (P102 too: in a headed session with no scene, tool notes lie before the first scene)
        "disable-next": head + "".join(f"/* fountain-audit: disable-next=N101,P102 */\n[[tool: broken{i}]]\n\n"
                                       for i in range(n)),
        "disable/enable": head + "".join(f"/* fountain-audit: disable=N101,P102 */\n\n[[tool: broken{i}]]\n\n"
                                         f"/* fountain-audit: enable=N101,P102 */\n\n" for i in range(n)),
        # regions that end rule by rule: a list's rules one at a time, an every-rule region one
        # rule early, and many every-rule regions open at once that enables end rule by rule
        "enable one rule at a time": head + "".join(f"/* fountain-audit: disable=N101,P102 */\n\n[[tool: broken{i}]]\n\n"
                                                    f"/* fountain-audit: enable=P102 */\n\n"
                                                    f"/* fountain-audit: enable=N101 */\n\n" for i in range(n)),
        "every rule, then one enabled": head + "".join(f"/* fountain-audit: disable */\n\n[[tool: broken{i}]]\n\n"
                                                       f"/* fountain-audit: enable=P102 */\n\n"
                                                       f"/* fountain-audit: enable */\n\n" for i in range(n))
                                        + "Done.\n\n",  # (a region covers its enable's line: S104 after it)
        "nested every-rule regions": head + "".join(f"/* fountain-audit: disable */\n\n[[tool: broken{i}]]\n\n"
                                                    for i in range(n))
                                     + "/* fountain-audit: enable=P102 */\n\n/* fountain-audit: enable=N101 */\n\n"
                                     "/* fountain-audit: enable */\n\nDone.\n\n",
    }


def test_suppressions_still_suppress_every_flagged_line():
    from fountain_audit import lint
    for shape, text in suppression_shapes(50).items():
        assert [(d.code, d.line) for d in lint(text)] == [("S104", text.count("\n") - 1)], shape


def test_suppressions_scale_linearly():
    """directives() + apply() on 10× the directives and diagnostics take ≤ 20× the time
    (measured ~10×; they were quadratic: apply alone 55× from 600 to 6,000 directives, and each
    directive re-read the rule table). Sizes large enough that caches do not blur the ratio."""
    import time

    from fountain_audit.lint.linter import lint_text
    from fountain_audit.lint.suppressions import apply, directives
    from fountain_audit.parse.fountain import parse

    import gc

    def cost(text: str) -> float:
        document = parse(text)
        diagnostics = lint_text(text.replace("fountain-audit:", "not-a-directive:"))  # the unsuppressed findings
        best = float("inf")
        gc.disable()  # as in lint_text: collections of the whole heap are not the code's cost
        try:
            for _ in range(3):
                t0 = time.process_time()  # CPU time: other processes on a busy machine do not count
                apply(list(diagnostics), directives(document))
                best = min(best, time.process_time() - t0)
        finally:
            gc.enable()
        return best

    for shape in suppression_shapes(1):
        for _ in range(3):  # a noisy measurement is taken again; a quadratic one fails every time (~55×)
            small, large = cost(suppression_shapes(2000)[shape]), cost(suppression_shapes(20000)[shape])
            if large / small <= 20:
                break
        assert large / small <= 20, (shape, small, large)


# -- 5. JUnit agrees with the exit status; counts checked by junitparser --------------------------------

def junit_of(*args):
    from junitparser import JUnitXml

    r = cli("lint", "--output-format", "junit", *args)
    return r.exit_code, JUnitXml.fromstring(r.stdout[r.stdout.index("<?xml"):].encode())


def test_junit_fails_only_what_fails_the_run(project):
    from junitparser import Failure

    Path("warn.spmd").write_text(A03.replace("\n\n\nTHE END.\n", "\n").replace(
        '[[tool: read_file({"path":"a.go"}) — ok]]\n\nHARVEY\nForwarding to LLAMA.',
        'HARVEY\nForwarding to LLAMA.\n\n[[tool: read_file({"path":"a.go"}) — ok]]'))
    code, xml = junit_of("warn.spmd")  # one S104 warning: exit 0, a green report
    assert code == 0
    (suite,) = list(xml)
    cases = list(suite)
    assert [(c.name, c.is_passed, c.system_out) for c in cases] == [
        ("S104 [missing-the-end] 20:1", True, "warn.spmd:20:1: S104 [missing-the-end] session does not end with "
         "'THE END.' (closed sessions end with it) (warning)")]
    assert (xml.tests, xml.failures, xml.errors) == (1, 0, 0)
    code, xml = junit_of("--strict", "warn.spmd", "s.spmd")  # --strict: the warning fails the run and the report
    assert code == 1
    assert [(s.name, s.tests, s.failures) for s in xml] == [("warn.spmd", 1, 1), ("s.spmd", 1, 1)]
    assert [[type(r) for r in c.result] for s in xml for c in s] == [[Failure], [Failure]]


def test_strict_fails_warnings_not_infos_in_exit_status_and_junit(project):
    """--strict makes warnings fail, never infos (as ruff and yamllint): a clean session whose only
    finding is the E103 info (a byte-order mark) exits 0 under --strict, and JUnit, which marks
    what fails the run, reports it as a passing testcase, not a <failure>."""
    Path("bom.spmd").write_bytes(b"\xef\xbb\xbf" + A03.replace(
        '[[tool: read_file({"path":"a.go"}) — ok]]\n\nHARVEY\nForwarding to LLAMA.',
        'HARVEY\nForwarding to LLAMA.\n\n[[tool: read_file({"path":"a.go"}) — ok]]').encode())
    assert cli("lint", "--strict", "bom.spmd").output.splitlines()[0] == (
        "bom.spmd:1:1: E103 [byte-order-mark] file starts with a UTF-8 byte-order mark")
    code, xml = junit_of("--strict", "bom.spmd")
    assert code == 0
    assert (xml.tests, xml.failures, xml.errors) == (1, 0, 0)
    assert [(c.name, c.is_passed) for s in xml for c in s] == [("E103 [byte-order-mark] 1:1", True)]
    assert cli("lint", "--strict", "--output-format", "json", "bom.spmd").exit_code == 0
    help_text = " ".join(cli("lint", "--help").output.split())
    assert "warnings fail the run too (exit 1); infos never do" in help_text.lower()
    assert "warnings do not fail unless --strict; infos never do" in help_text


def test_junit_counts_agree_with_elements(monkeypatch):
    monkeypatch.chdir(ROOT)
    code, xml = junit_of("--isolated", "samples", "missing.spmd")
    assert code == 2
    declared = [(s.name, s.tests, s.failures, s.errors) for s in xml]
    totals = (xml.tests, xml.failures, xml.errors)
    for suite in xml:
        suite.update_statistics()  # junitparser counts the elements
    xml.update_statistics()
    assert declared == [(s.name, s.tests, s.failures, s.errors) for s in xml]
    assert totals == (xml.tests, xml.failures, xml.errors)
    doc = json.loads(cli("lint", "--isolated", "--output-format", "json", "samples").stdout)
    assert xml.failures == doc["summary"]["error"] and xml.errors == 1
    assert xml.tests == len(doc["diagnostics"]) + sum(
        1 for f in doc["files"] if not any(d["path"] == f for d in doc["diagnostics"])) + 1


# -- 8. NO_COLOR / FORCE_COLOR; piped rules are plain lines -------------------------------------------------

def on_terminal(args, cwd, **env) -> str:
    """Standard output and error of the CLI run on a pseudo-terminal (as a person sees it)."""
    import os
    import pty
    import subprocess
    import sys

    from .test_formats import cli_env
    environ = cli_env(**env)
    environ.pop("NO_COLOR", None) if "NO_COLOR" not in env else None
    environ.pop("FORCE_COLOR", None) if "FORCE_COLOR" not in env else None
    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "fountain_audit", *args], stdout=child_fd, stderr=child_fd,
                            cwd=cwd, env={**environ, "TERM": "xterm-256color", "COLUMNS": "120"})
    os.close(child_fd)
    chunks = []
    while True:
        try:
            data = os.read(main_fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(main_fd)
    return b"".join(chunks).decode("utf-8", "replace")


def test_no_color_is_honoured_on_a_terminal(project):
    coloured = on_terminal(["lint", "s.spmd", "gone.spmd"], project)
    assert "\x1b[" in coloured and "P102" in coloured and "gone.spmd: no such file" in coloured
    plain = on_terminal(["lint", "s.spmd", "gone.spmd"], project, NO_COLOR="1")
    assert "\x1b[" not in plain and "P102" in plain and "gone.spmd: no such file" in plain
    assert "\x1b[" not in on_terminal(["rules"], project, NO_COLOR="1")


def test_force_color_when_piped(project):
    r = run_cli("lint", "--output-format", "concise", "s.spmd", "gone.spmd", cwd=project, env_extra={"FORCE_COLOR": "1"})
    assert "\x1b[" in r.stdout and "\x1b[" in r.stderr


def test_piped_rules_and_rule_are_plain_unpadded_lines(project):
    from fountain_audit.lint.rules import all_rules
    r = run_cli("rules", cwd=project)
    lines = r.stdout.splitlines()
    assert lines[0] == "A101\tunused-suppression\twarning\t1.0\tA suppression comment that suppresses nothing."
    assert len(lines) == len(all_rules()) and all(line == line.rstrip() for line in lines)
    r = run_cli("rule", "P102", cwd=project)
    assert r.stdout.splitlines()[:3] == ["# P102 tools-between-forward-and-reply", "",
                                         "Severity: **error** · since format v1.2"]
    assert all(line == line.rstrip() for line in r.stdout.splitlines())


# -- linear time on one long line (adversarial trial) ------------------------------------------------------

def _linear(fn, make, n: int) -> None:
    fn(make(n))  # warm up
    for _ in range(3):  # a noisy measurement is taken again; a quadratic one fails every time
        small, large = cpu_best_of_3(fn, make(n)), cpu_best_of_3(fn, make(8 * n))
        if large <= 16 * max(small, 1e-3):
            return
    pytest.fail(f"8x the input took {large / max(small, 1e-3):.1f}x the time ({small:.3f} s, {large:.3f} s)")


@pytest.mark.parametrize("unit", ["*/ ", "/* */ "])
def test_many_boneyard_closes_on_one_line_are_linear(unit):
    """_stray_closes looked for the next '/*' from every '*/' to the end of the line."""
    from fountain_audit.parse.lexer import tokenize
    _linear(lambda t: tokenize(t, []), lambda n: "INT. A 2026-01-01 10:00:00\n\nAna waits " + unit * n + "\n", 4000)


def test_fingerprints_of_many_findings_on_one_line_are_linear():
    """Each finding normalised, masked and hashed its whole line: a line of 8,000 secrets took minutes."""
    from fountain_audit.lint.fingerprint import assign
    from fountain_audit.lint.linter import lint_text

    def make(n):
        text = "INT. SHELL 2026-01-01 10:00:00\n\nAna types " + "password=Ab3xY9zQ " * n + "\n"
        return text, lint_text(text)
    _linear(lambda td: assign(td[1], td[0], "a.spmd"), make, 500)


def test_a_long_line_is_shown_as_a_window_in_the_code_frame():
    from fountain_audit.lint.diagnostics import Diagnostic, Severity
    from fountain_audit.reporters.formats import FRAME_WIDTH, code_frame
    line = "x" * 1000 + " SECRET " + "y" * 1000
    d = Diagnostic("a.spmd", 1, 1002, "V101", "secret-in-session", Severity.ERROR, "m", 1, 1008)
    frame = code_frame(d, [line]).plain.splitlines()
    shown = frame[1].split("| ", 1)[1]
    assert shown.startswith("…") and shown.endswith("…") and len(shown) == FRAME_WIDTH + 2
    caret = frame[2].split("|", 1)[1]
    assert caret.index("^") - 1 == shown.index("SECRET") and caret.count("^") == 6

# -- 24. -o onto something that is not a regular file: devices and FIFOs are written, links followed --------

def codes(report) -> list[str]:
    return [d["code"] for d in json.loads(report)["diagnostics"]]


def _lint_to(target, cwd, **kw):
    return run_cli("lint", "--isolated", "--output-format", "json", "s.spmd", "-o", str(target), cwd=cwd, **kw)


def test_output_to_a_fifo_writes_into_it(project):
    import os
    import stat
    import threading
    os.mkfifo("f")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(Path("f").read_bytes()), daemon=True)
    reader.start()
    r = _lint_to("f", project)
    reader.join(30)
    assert r.returncode == 1 and r.stdout == "" and r.stderr == ""
    assert codes(got[0]) == ["P102"]
    assert stat.S_ISFIFO(os.lstat("f").st_mode)
    assert sorted(set(os.listdir(".")) - {".fountain_audit_cache"}) == ["f", "s.spmd"]  # no temporary file left


def null_device(folder: Path) -> Path:
    """A character device to write to: ``folder/null`` (major 1, minor 3) when mknod is
    permitted (root: a failing test then replaces it, not the machine's /dev/null), else /dev/null."""
    import os
    import stat
    try:
        os.mknod(folder / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return folder / "null"
    except OSError:
        return Path("/dev/null")


def test_output_to_a_character_device_leaves_it_a_device(project):
    import os
    import stat
    target = null_device(project)
    r = _lint_to(target, project)
    assert r.returncode == 1 and r.stdout == "" and r.stderr == ""
    assert stat.S_ISCHR(os.lstat(target).st_mode) and os.stat(target).st_rdev == os.makedev(1, 3)
    assert sorted(set(os.listdir(".")) - {".fountain_audit_cache"}) == sorted(["s.spmd"] + (["null"] if target.parent == project else []))


def test_output_at_a_symlink_replaces_the_link_never_its_target(project):
    # (write_atomic followed the link: a link planted in a checkout or an output folder redirected
    # the write to any file; adversarial trial). The link is replaced by the report, with a new
    # file's mode; the file it named is left as it was.
    import os
    Path("reports").mkdir()
    Path("reports/real.json").write_text("old\n")
    os.chmod("reports/real.json", 0o640)
    Path("link.json").symlink_to("reports/real.json")
    r = _lint_to("link.json", project)
    assert r.returncode == 1 and r.stdout == ""
    assert not os.path.islink("link.json") and codes(Path("link.json").read_text()) == ["P102"]
    assert Path("reports/real.json").read_text() == "old\n"
    assert os.stat("reports/real.json").st_mode & 0o777 == 0o640
    assert sorted(set(os.listdir(".")) - {".fountain_audit_cache"}) == ["link.json", "reports", "s.spmd"]
    assert os.listdir("reports") == ["real.json"]


def test_output_through_a_proc_link_writes_to_standard_output(project):
    import os
    Path("so").symlink_to("/proc/self/fd/1")
    r = _lint_to("so", project)  # standard output is a pipe here
    assert r.returncode == 1 and codes(r.stdout) == ["P102"]
    assert os.readlink("so") == "/proc/self/fd/1"
    # standard output is a regular file: still written, not replaced (a local link, as /dev/stdout
    # is: a failing test must not replace the machine's /dev/stdout)
    Path("stdout").symlink_to("so")
    r = _lint_to("stdout", project, prefix=["sh", "-c", 'exec "$0" "$@" > captured.txt'])
    assert r.returncode == 1 and codes(Path("captured.txt").read_text()) == ["P102"]
    assert os.readlink("stdout") == "so"
    assert sorted(set(os.listdir(".")) - {".fountain_audit_cache"}) == ["captured.txt", "s.spmd", "so", "stdout"]
    # ... through the shell's own descriptor: what the shell writes before and after stays in place
    # (a new open of /proc/self/fd/1 truncated the log and wrote from offset 0)
    r = _lint_to("stdout", project, prefix=["sh", "-c", '{ echo before; "$0" "$@"; echo "rc=$?"; echo after; } > log.txt'])
    lines = Path("log.txt").read_text().splitlines()
    assert lines[0] == "before" and lines[-2:] == ["rc=1", "after"] and codes("\n".join(lines[1:-2])) == ["P102"]


@pytest.mark.parametrize("command", [("export", "--to", "toolpath"), ("redact",)])
def test_export_and_redact_output_to_a_device_or_fifo(project, command):
    import os
    import stat
    import threading
    os.mkfifo("f")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(Path("f").read_bytes()), daemon=True)
    reader.start()
    r = run_cli(*command, "s.spmd", "-o", "f", cwd=project)
    reader.join(30)
    assert r.returncode == 0, r.stderr
    assert len(got) == 1 and len(got[0]) > 100
    assert stat.S_ISFIFO(os.lstat("f").st_mode)
    null = null_device(project)
    r = run_cli(*command, "s.spmd", "-o", str(null), cwd=project)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    assert sorted(set(os.listdir(".")) - {".fountain_audit_cache"}) == sorted(["f", "s.spmd"] + (["null"] if null.parent == project else []))


# -- 25. redact refuses FIFOs; no report over the baseline; report pages never over inputs ---------------------

@pytest.mark.parametrize("mode", [("-o", "o.spmd"), ("--in-place",)])
def test_redact_refuses_a_fifo(project, mode):
    import os
    os.mkfifo("p.spmd")
    r = run_cli("redact", "p.spmd", *mode, cwd=project, timeout=30)
    assert r.returncode == 2 and r.stderr == "fountain-audit: error: p.spmd: not a regular file\n"
    assert sorted(set(os.listdir(".")) - {".fountain_audit_cache"}) == ["p.spmd", "s.spmd"]


@pytest.mark.parametrize("update", [True, False])
def test_lint_refuses_to_write_the_report_over_the_baseline(project, update):
    import os
    args = ["lint", "--isolated", "--baseline", "b.json", "-o", "./b.json", "s.spmd"]
    if update:
        args.insert(1, "--update-baseline")
    else:
        assert cli("lint", "--isolated", "--baseline", "b.json", "--update-baseline", "s.spmd").exit_code == 0
    before = Path("b.json").read_bytes() if os.path.exists("b.json") else None
    r = cli(*args)
    assert r.exit_code == 2
    assert r.stderr == "fountain-audit: error: ./b.json: refusing to write the report over the baseline (b.json)\n"
    assert (Path("b.json").read_bytes() if os.path.exists("b.json") else None) == before


def test_report_directory_never_writes_over_an_input(project):
    import os
    import shutil
    shutil.copy("s.spmd", "s.spmd.html")  # the page name of s.spmd
    r = cli("report", "s.spmd", "s.spmd.html", "-o", ".")
    assert r.exit_code == 2
    assert r.stderr == ("fountain-audit: error: s.spmd.html: refusing to write a page over an input file "
                        "(s.spmd.html)\n")
    assert Path("s.spmd.html").read_text() == A03
    os.mkdir("out")
    shutil.copy("s.spmd", "out/index.html")
    r = cli("report", "s.spmd", "out/index.html", "-o", "out/")
    assert r.exit_code == 2
    assert r.stderr == ("fountain-audit: error: out/index.html: refusing to write the index over an input "
                        "file (out/index.html)\n")
    assert os.listdir("out") == ["index.html"] and Path("out/index.html").read_text() == A03
    assert sorted(set(os.listdir(".")) - {".fountain_audit_cache"}) == ["out", "s.spmd", "s.spmd.html"]


# -- 26. file names with control sequences never reach standard error raw -----------------------------------

EVIL = "x\x1b]0;T\x07\u202e.spmd"
EVIL_SHOWN = "x\\x1b]0;T\\x07\\u202e.spmd"


@pytest.mark.parametrize("args, expected", [
    (("lint", "f" + EVIL), f"fountain-audit: error: f{EVIL_SHOWN}: not a regular file"),
    (("dump", "e" + EVIL), f"fountain-audit: warning: e{EVIL_SHOWN}: empty: no records"),
    (("dump", "f" + EVIL), f"fountain-audit: error: f{EVIL_SHOWN}: not a regular file"),
    (("export", "--to", "toolpath", "e" + EVIL), f"fountain-audit: error: e{EVIL_SHOWN}: empty: nothing to export"),
    (("export", "--to", "toolpath", "f" + EVIL), f"fountain-audit: error: f{EVIL_SHOWN}: not a regular file"),
    (("redact", "--in-place", "e" + EVIL),
     f"fountain-audit: e{EVIL_SHOWN}: 0 secret(s), 0 workspace path(s), 0 home path(s) replaced"),
    (("redact", "f" + EVIL), f"fountain-audit: error: f{EVIL_SHOWN}: not a regular file"),
    (("report", "f" + EVIL, "-o", "out/"), f"fountain-audit: error: f{EVIL_SHOWN}: not a regular file"),
    (("diff", "f" + EVIL, "s.spmd"), f"fountain-audit: error: f{EVIL_SHOWN}: not a regular file"),
    (("lint", "d" + EVIL), f"fountain-audit: error: no session file (*.spmd, *.fountain) in d{EVIL_SHOWN} "
                           "(--allow-empty accepts that)"),
    (("lint", "d" + EVIL, "s.spmd"), f"fountain-audit: warning: no *.spmd or *.fountain files under d{EVIL_SHOWN}"),
    (("lint", "s.spmd", "-o", "e" + EVIL + "/x"),
     f"fountain-audit: error: e{EVIL_SHOWN}/x: cannot write: Not a directory"),
    (("export", "--to", "toolpath", "s.spmd", "-o", "e" + EVIL + "/x"),
     f"fountain-audit: error: e{EVIL_SHOWN}/x: cannot write: Not a directory"),
    (("redact", "s.spmd", "-o", "e" + EVIL + "/x"),
     f"fountain-audit: error: e{EVIL_SHOWN}/x: cannot write: Not a directory"),
    (("report", "s.spmd", "-o", "e" + EVIL), f"Error: -o e{EVIL_SHOWN}: exists and is not a directory"),
])
def test_file_names_reach_standard_error_escaped(project, args, expected):
    import os
    os.mkfifo("f" + EVIL)
    Path("e" + EVIL).write_bytes(b"")
    os.mkdir("d" + EVIL)
    r = run_cli(*args, cwd=project, timeout=30)
    assert r.returncode in (1, 2) or args[0] in ("dump", "redact"), r.stderr
    assert not set(r.stderr) & {"\x1b", "\x07", "\u202e"}, r.stderr
    assert expected in r.stderr, r.stderr


def test_junit_escapes_c1_and_bidi_controls():
    from xml.etree import ElementTree as ET

    from fountain_audit.lint.diagnostics import Diagnostic, Severity
    from fountain_audit.reporters.formats import LintRun, report_junit
    name = "a\u009b2J\u202e\u2066b.spmd"
    d = Diagnostic(name, 1, 1, "E102", "control-character", Severity.WARNING, "CSI \u009b31m \u202aover\u202c\u2069")
    xml = report_junit(LintRun([d], [name], strict=True))
    assert not any("\x80" <= c <= "\x9f" or "\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069" for c in xml)
    root = ET.fromstring(xml.encode())
    assert root.find("testsuite").get("name") == "a\\x9b2J\\u202e\\u2066b.spmd"
    assert root.find("testsuite/testcase/failure").get("message") == \
        "E102 [control-character] CSI \\x9b31m \\u202aover\\u202c\\u2069"
    assert root.find("testsuite/testcase/failure").text == \
        "a\\x9b2J\\u202e\\u2066b.spmd:1:1: E102 [control-character] CSI \\x9b31m \\u202aover\\u202c\\u2069"


def test_a_run_that_reads_no_file_does_not_say_no_problems(tmp_path):
    r = run_cli("lint", "gone.spmd", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stdout == "Nothing checked: 1 path could not be read.\n"
    assert r.stderr.startswith("fountain-audit: error: gone.spmd")


def _into_closed_pipe(*args, env=None):
    """Run ``fountain-audit ARGS | true``: standard output's reader is gone before the first write."""
    import subprocess
    import sys
    p = subprocess.Popen([sys.executable, "-m", "fountain_audit", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
    p.stdout.close()
    return p.wait(), p.stderr.read().decode()


@pytest.mark.parametrize("args, status", [
    (("rules",), 0), (("rule", "P101"), 0), (("schema", "lint"), 0),
    (("show", str(SAMPLES / "clean-session.spmd"), "t1"), 0),
    (("provenance", str(SAMPLES / "clean-session.spmd")), 0),
    (("export", "--to", "toolpath", str(SAMPLES / "clean-session.spmd")), 0),
    (("lint", "--no-cache", str(SAMPLES)), 1),  # errors found: still 1
    (("lint", "--no-cache", "--output-format", "json", str(SAMPLES)), 1),
    (("lint", "--no-cache", str(SAMPLES / "violations" / "T103-several-exchanges-in-scene.spmd")), 0),  # info only
])
@pytest.mark.parametrize("click_path", [False, True])
def test_a_closed_pipe_is_not_an_error(args, status, click_path):
    """`fountain-audit rules | head` under `set -o pipefail`: quiet, and the command's own status
    (click's default was 1 for every command, which lint uses for errors found)."""
    assert _into_closed_pipe(*args, env={"FOUNTAIN_AUDIT_CLICK": "1"} if click_path else None) == (status, "")


# -- standard output and error in an encoding that is not UTF-8 -------------------------------------------

_TOKEN_SESSION = ("INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\nALICE\n"
                  "hi ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 there\n")


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"},
                                 {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}],
                         ids=["ascii", "latin-1", "C-locale"])
@pytest.mark.parametrize("args, status", [
    (("lint", "v.spmd"), 1),                      # the masked secret holds '…'
    (("lint", "--output-format", "full", "v.spmd"), 1),
    (("lint", "--statistics", "v.spmd"), 1),
    (("lint", "--output-format", "json", "v.spmd"), 1),
    (("rules",), 0),
    (("rule", "N110"), 0),
    (("dump", "v.spmd"), 0),
    (("provenance", "v.spmd"), 0),
    (("lint", "missing—file.spmd"), 2),          # the message on standard error holds '—'
])
def test_output_in_a_non_utf8_encoding_is_escaped_not_a_crash(tmp_path, env, args, status):
    """A non-UTF-8 standard output or error (PYTHONIOENCODING=ascii, latin-1, the C locale) gets
    what it cannot encode as backslash escapes: no UnicodeEncodeError traceback, the usual status."""
    import subprocess
    import sys

    from .test_formats import cli_env
    (tmp_path / "v.spmd").write_text(_TOKEN_SESSION, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "fountain_audit", *args], capture_output=True, cwd=tmp_path,
                       env=cli_env(NO_COLOR="1", **env), timeout=60)
    assert b"Traceback" not in r.stderr and b"UnicodeEncodeError" not in r.stderr, r.stderr.decode("latin-1")
    assert r.returncode == status
    if args[:2] == ("lint", "v.spmd"):
        assert b"ghp_\\u2026(40 chars)" in r.stdout


@pytest.mark.parametrize("command", [["lint", "-"], ["dump", "-"], ["provenance", "-"]])
def test_ctrl_c_exits_130_not_the_findings_status(command):
    """SIGINT while a command waits for standard input: "Aborted!" and status 130 (it was 1,
    the status of "errors found", for lint's fast path and for click's)."""
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen([sys.executable, "-m", "fountain_audit", *command], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_sigint)
    try:
        time.sleep(1.5)  # (started and blocked reading standard input)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130, err
    assert err.decode().strip().endswith("Aborted!")

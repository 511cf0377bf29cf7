"""The lint result cache (fountain_audit/lint/cache.py): real `fountain-audit lint` runs that hit,
miss, meet damaged or unwritable entries, and always print what an uncached run prints."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.lint.cache import DIR_NAME, FORMAT, MAGIC

from tests.conftest import SAMPLES, shared_files
from tests.test_formats import cli_env

ROOT = Path(__file__).resolve().parents[1]
CLEAN = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
LOOSE = CLEAN.replace("2026-08-03 14:20:31", "2026-8-3 14:20", 1)  # malformed-scene-heading (H101) fires, once (no timestamp)
FORMATS = ["concise", "full", "json", "json-lines", "github", "sarif", "junit", "gitlab"]

#: A run in a fresh interpreter that reports, on its last line of standard error, whether the
#: parser was imported (``parsed``): a cache hit never parses. (Not whether Lark was: a parse
#: whose shapes are all in the grammar memo does not import Lark either.)
PROBE = """
import json, sys
from fountain_audit.cli.main import main
try:
    main(sys.argv[1:], prog_name="fountain-audit")
except SystemExit as e:
    code = e.code
print(json.dumps({"parsed": "fountain_audit.parse.fountain" in sys.modules, "exit": code}), file=sys.stderr)
"""


def probe(cwd: Path, *args: str, env: dict | None = None) -> tuple[str, dict]:
    p = subprocess.run([sys.executable, "-c", PROBE, "lint", *args], capture_output=True, text=True, cwd=cwd,
                       env=cli_env(**(env or {})))
    return p.stdout, json.loads(p.stderr.strip().splitlines()[-1])


def run(*args: str, env: dict | None = None):
    return CliRunner().invoke(main, ["lint", *args], env=env)


def entries(cache: Path) -> list[Path]:
    return sorted((cache / f"lint-v{FORMAT}").iterdir())


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FOUNTAIN_AUDIT_CACHE_DIR", raising=False)
    monkeypatch.delenv("FOUNTAIN_AUDIT_NO_CACHE", raising=False)
    (tmp_path / "a.spmd").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "b.spmd").write_text(LOOSE, encoding="utf-8")
    return tmp_path


def test_second_run_hits_without_parsing_and_a_changed_file_misses(project):
    out1, first = probe(project, ".")
    cache = project / DIR_NAME
    assert first == {"parsed": True, "exit": 1} and len(entries(cache)) == 2
    assert (cache / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55\n")
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    out2, second = probe(project, ".")
    assert (out2, second) == (out1, {"parsed": False, "exit": 1})
    assert "b.spmd:" in out1 and "a.spmd:" not in out1
    # the clean file gets the loose heading: a miss for it, the same finding now in both
    (project / "a.spmd").write_text(LOOSE, encoding="utf-8")
    out3, third = probe(project, ".")
    assert third == {"parsed": True, "exit": 1}
    assert out3.count("H101") == 2 * out1.count("H101") > 0
    assert out3 == run("--no-cache", ".").output
    assert len(entries(cache)) == 2  # the entry of a.spmd was replaced, not added to
    assert probe(project, ".") == (out3, {"parsed": False, "exit": 1})


def test_a_changed_configuration_misses(project):
    before = run(".").output
    (project / "fountain-audit.toml").write_text('[severity]\nmalformed-scene-heading = "info"\n', encoding="utf-8")
    after = run(".")
    assert (after.exit_code, after.output) == (0, run("--no-cache", ".").output) and after.output != before
    (project / "fountain-audit.toml").write_text('ignore = ["H"]\n', encoding="utf-8")
    assert run(".").output == run("--no-cache", ".").output == "All clear: no problems in 2 files checked.\n"
    (project / "fountain-audit.toml").write_text('[per-file-ignores]\n"b.spmd" = ["H", "T"]\n', encoding="utf-8")
    assert run(".").output == run("--no-cache", ".").output
    assert run("--select", "H", ".").output == run("--no-cache", "--select", "H", ".").output


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "empty", "foreign-format", "directory"])
def test_a_damaged_entry_is_a_miss_and_the_output_stays_right(project, damage):
    expected = run("--no-cache", "--output-format", "json", ".").output
    assert run("--output-format", "json", ".").output == expected
    for entry in entries(project / DIR_NAME):
        data = entry.read_bytes()
        if damage == "directory":
            entry.unlink()
            entry.mkdir()
            continue
        entry.write_bytes({"garbage": os.urandom(len(data)), "truncated": data[:len(data) // 2],
                           "flipped": data[:-3] + bytes([data[-3] ^ 0x55]) + data[-2:], "empty": b"",
                           "foreign-format": MAGIC + data[8:24] + b"\x00" + data[25:]}[damage])
    assert probe(project, "--output-format", "json", ".") == (expected, {"parsed": True, "exit": 1})
    if damage != "directory":  # rewritten: hits again
        assert probe(project, "--output-format", "json", ".") == (expected, {"parsed": False, "exit": 1})


def _read_only(folder: Path) -> list[str] | None:
    """Make ``folder`` unwritable: mode 0500, or for root (whom modes do not stop) the immutable
    attribute (``chattr +i``). Returns the command that undoes it, or ``None`` when neither works."""
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    if not os.access(folder, os.W_OK):
        return ["chmod", "700", str(folder)]
    folder.chmod(stat.S_IRWXU)
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0:
        return ["chattr", "-i", str(folder)]
    return None


def test_an_unwritable_cache_is_ignored(project):
    empty = project / "ro-cache"
    empty.mkdir()
    filled = project / "filled"
    expected = run("--no-cache", ".").output
    run("--cache-dir", str(filled), ".")  # entries for a.spmd and b.spmd
    undo = [_read_only(empty), _read_only(filled / f"lint-v{FORMAT}")]
    try:
        if None in undo:
            pytest.skip("cannot make a directory read-only here")
        r = run("--cache-dir", str(empty), ".")
        assert (r.exit_code, r.output) == (1, expected)
        assert list(empty.iterdir()) == []
        # read-only but filled: hits are read; a changed file is linted, its entry not written
        assert probe(project, "--cache-dir", str(filled), ".") == (expected, {"parsed": False, "exit": 1})
        (project / "a.spmd").write_text(LOOSE, encoding="utf-8")
        out, seen = probe(project, "--cache-dir", str(filled), ".")
        assert (out, seen) == (run("--no-cache", ".").output, {"parsed": True, "exit": 1}) and out != expected
    finally:
        for command in undo:
            if command:
                subprocess.run(command, check=True)


def test_a_read_only_project_gets_no_cache_even_for_root(project):
    """A project folder nobody may write (mode 0555: a read-only checkout, reference data) gets
    no cache directory, also when the user is root, whom the system lets write there (the cache
    was created inside it)."""
    ro = project / "ro"
    ro.mkdir()
    (ro / "a.spmd").write_text(CLEAN, encoding="utf-8")
    ro.chmod(0o555)
    try:
        p = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "."], cwd=ro, capture_output=True,
                           text=True, env=cli_env())
        assert p.returncode == 0, p.stdout + p.stderr
        assert sorted(x.name for x in ro.iterdir()) == ["a.spmd"]
    finally:
        ro.chmod(0o755)


def test_a_cache_dir_that_is_a_file_is_ignored(project):
    (project / "blocker").write_text("not a directory", encoding="utf-8")
    r = run("--cache-dir", str(project / "blocker" / "sub"), ".")
    assert (r.exit_code, r.output) == (1, run("--no-cache", ".").output)
    # and a default location that cannot be created (a file named .fountain_audit_cache)
    (project / DIR_NAME).write_text("", encoding="utf-8")
    assert run(".").output == run("--no-cache", ".").output


def test_a_cache_dir_that_is_a_symlink_is_not_written_through(project, tmp_path_factory):
    """A checkout may commit .fountain_audit_cache (or its lint-v1) as a symlink to any folder: no
    entry, tag or .gitignore is written through it (the adversarial trial wrote into /etc that way)."""
    victim = tmp_path_factory.mktemp("victim")
    (project / DIR_NAME).symlink_to(victim)
    expected = run("--no-cache", ".").output
    assert run(".").output == expected
    assert list(victim.iterdir()) == []
    (project / DIR_NAME).unlink()
    (project / DIR_NAME).mkdir()
    (project / DIR_NAME / f"lint-v{FORMAT}").symlink_to(victim)
    assert run(".").output == expected
    assert list(victim.iterdir()) == []


def test_no_cache_and_where_the_cache_goes(project, tmp_path_factory):
    run("--no-cache", ".")
    assert not (project / DIR_NAME).exists()
    run(".", env={"FOUNTAIN_AUDIT_NO_CACHE": "1"})
    assert not (project / DIR_NAME).exists()
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    run(".", env={"FOUNTAIN_AUDIT_CACHE_DIR": str(elsewhere)})
    assert not (project / DIR_NAME).exists() and len(entries(elsewhere)) == 2
    option = elsewhere / "option"
    run("--cache-dir", str(option), ".", env={"FOUNTAIN_AUDIT_CACHE_DIR": str(elsewhere / "env")})
    assert len(entries(option)) == 2 and not (elsewhere / "env").exists()
    # the project root is the directory of the configuration file, also when run below it
    (project / "pyproject.toml").write_text("[tool.fountain-audit]\n", encoding="utf-8")
    (project / "sub").mkdir()
    shutil.move(project / "b.spmd", project / "sub" / "b.spmd")
    os.chdir(project / "sub")
    run(".")
    assert len(entries(project / DIR_NAME)) == 1 and not (project / "sub" / DIR_NAME).exists()


def test_standard_input_is_not_cached(project):
    r = CliRunner().invoke(main, ["lint", "--stdin-filename", "b.spmd", "-"], input=LOOSE)
    assert r.exit_code == 1 and "b.spmd:" in r.output
    assert not (project / DIR_NAME).exists()


def test_baseline_and_suppressions_apply_to_cached_results(project):
    heading = "INT. HARVEY AND MARGOT TALKING 2026-8-3 14:20"
    suppressed = LOOSE.replace(heading, "/* fountain-audit: disable-next=H101 */\n" + heading, 1)
    assert suppressed != LOOSE
    (project / "c.spmd").write_text(suppressed, encoding="utf-8")
    assert "c.spmd" not in run("--no-cache", ".").output
    first = run("--baseline", "base.json", "--update-baseline", ".")
    assert first.exit_code == 0, first.output
    for _ in range(2):  # the entries the update wrote, read twice
        cached, plain = run("--baseline", "base.json", "."), run("--no-cache", "--baseline", "base.json", ".")
        assert (cached.exit_code, cached.output) == (plain.exit_code, plain.output)
        assert cached.output == "All clear: no problems in 3 files checked; 1 baselined.\n"
    (project / "b.spmd").write_text(CLEAN, encoding="utf-8")  # fixed: its baseline entries go stale
    cached, plain = run("--baseline", "base.json", "."), run("--no-cache", "--baseline", "base.json", ".")
    assert (cached.exit_code, cached.output) == (plain.exit_code, plain.output)
    assert "stale" in cached.output


def test_parallel_runs_use_the_cache_and_keep_the_order(project):
    for i in range(40):
        (project / f"m{i:02}.spmd").write_text(LOOSE if i % 3 else CLEAN, encoding="utf-8")
    expected = run("--no-cache", "--jobs", "1", "--output-format", "json", ".").output
    assert run("--jobs", "2", "--output-format", "json", ".").output == expected  # workers write
    assert len(entries(project / DIR_NAME)) == 42
    assert probe(project, "--jobs", "2", "--output-format", "json", ".") == (expected, {"parsed": False, "exit": 1})


def _every_input() -> list[str]:
    files = sorted(str(p) for p in SAMPLES.rglob("*") if p.suffix in (".spmd", ".fountain"))
    return files + [str(p) for p in shared_files()]


@pytest.mark.parametrize("fmt", FORMATS)
def test_cached_output_is_byte_identical_for_every_format(tmp_path, fmt):
    inputs = _every_input()
    cache = str(tmp_path / "cache")
    plain = run("--no-cache", "--output-format", fmt, *inputs)
    cold = run("--cache-dir", cache, "--output-format", fmt, *inputs)
    warm = run("--cache-dir", cache, "--output-format", fmt, *inputs)
    assert len(entries(Path(cache))) == len(inputs)
    assert plain.exit_code == cold.exit_code == warm.exit_code == 1
    assert plain.output == cold.output == warm.output
    assert plain.output.count("\n") > 40


def test_statistics_redaction_and_quiet_are_identical_from_the_cache(tmp_path):
    inputs = [str(p) for p in sorted(SAMPLES.rglob("*.spmd"))]
    cache = str(tmp_path / "cache")
    for extra in (["--statistics"], ["--redact"], ["--redact-paths", "--output-format", "full"], ["-q"],
                  ["--output-format", "full", "--redact"]):
        plain = run("--no-cache", *extra, *inputs)
        for _ in range(2):
            cached = run("--cache-dir", cache, *extra, *inputs)
            assert (cached.exit_code, cached.output) == (plain.exit_code, plain.output), extra


def test_the_configuration_default_baseline_cap_is_the_baselines():
    from fountain_audit.lint import baseline, config
    assert config.Config().baseline_max_entries == config.DEFAULT_BASELINE_MAX_ENTRIES == baseline.DEFAULT_MAX_ENTRIES


def test_the_code_stamp_covers_rules_grammars_and_lark():
    from fountain_audit.lint.cache import code_stamp
    names = [name for name, _, _ in code_stamp()]
    assert "lint/rules/tools_between_forward_and_reply.py" in names and "parse/fountain.py" in names
    assert "cli/lint.py" in names and not any("__pycache__" in n for n in names)
    assert any(n.endswith("fountain.lark") for n in names) and any(n.endswith("notes.lark") for n in names)
    assert names[-3].endswith(os.path.join("lark", "__init__.py"))
    assert names[-2].endswith(os.path.join("detect_secrets", "__init__.py"))  # S rules use its plugins
    assert names[-1].endswith(os.path.join("ahocorasick_rs", "__init__.py"))  # (it finds their needles)


def test_entries_are_private_and_a_fifo_or_symlink_at_an_entry_is_replaced_not_opened(project):
    expected = run("--no-cache", ".").output
    run(".")
    found = entries(project / DIR_NAME)
    assert [stat.S_IMODE(e.stat().st_mode) for e in found] == [0o600, 0o600]  # entries hold session excerpts
    victim = project / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    for entry in found:
        entry.unlink()
    os.mkfifo(found[0])  # opening it for reading (or writing) would wait for ever
    found[1].symlink_to(victim)  # writing through it would replace the victim
    p = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "."], capture_output=True, text=True,
                       cwd=project, timeout=60, env={k: v for k, v in cli_env().items()
                                                     if not k.startswith("FOUNTAIN_AUDIT_")})
    assert (p.returncode, p.stdout) == (1, expected)
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert all(stat.S_ISREG(e.lstat().st_mode) for e in found)


@pytest.mark.parametrize("how", ["group-writable", "other-owner"])
def test_an_entry_another_user_could_have_written_is_not_trusted(project, how):
    expected = run("--no-cache", ".").output
    run(".")
    for entry in entries(project / DIR_NAME):
        if how == "group-writable":
            entry.chmod(0o660)
        elif os.geteuid() == 0:
            os.chown(entry, 65534, 65534)
        else:
            pytest.skip("only root can give a file to another user")
    assert probe(project, ".") == (expected, {"parsed": True, "exit": 1})  # misses: linted again
    assert probe(project, ".") == (expected, {"parsed": False, "exit": 1})  # rewritten as this user's


def test_a_parser_table_another_user_could_have_written_is_not_loaded(tmp_path):
    import pickle

    shared = tmp_path / "shared"
    env = cli_env(FOUNTAIN_AUDIT_CACHE_DIR=str(shared))
    env.pop("FOUNTAIN_AUDIT_NO_CACHE", None)
    (tmp_path / "a.spmd").write_text(CLEAN, encoding="utf-8")
    lint = [sys.executable, "-m", "fountain_audit", "lint", "--no-cache", "a.spmd"]
    subprocess.run(lint, cwd=tmp_path, env=env, check=True, capture_output=True)
    tables = sorted(shared.glob("*.lark-cache"))
    assert len(tables) == 2 and {stat.S_IMODE(t.stat().st_mode) for t in tables} == {0o600}
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    for table in tables:
        table.write_bytes(pickle.dumps(Payload()))
        table.chmod(0o664)  # as a group member (or, in a shared folder, another user) could leave it
    for memo in shared.glob("*.memo"):  # (with the grammar memo, a known shape never loads the tables)
        memo.unlink()
    p = subprocess.run(lint, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert (p.returncode, p.stdout) == (0, "All clear: no problems in 1 file checked.\n")
    assert not marker.exists()
    assert {stat.S_IMODE(t.stat().st_mode) for t in tables} == {0o600}  # rebuilt and replaced

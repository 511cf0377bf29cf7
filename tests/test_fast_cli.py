"""``fountain-audit lint`` without click (issue 9, start-up): the small argument reader
(:mod:`fountain_audit.commands.argv`) either leaves the arguments to click or returns exactly
the parameters click parses, and the whole process prints the same as click's path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fountain_audit.cli.lint import lint as lint_command
from fountain_audit.commands.argv import parse
from tests.conftest import RUN_AS_CONSOLE_SCRIPT
from fountain_audit.commands.lint_options import (CHOICE, COUNT, FLAG, MULTIPLE, OPTIONS, PATH, SWITCH,
                                                  TARGET_VERSIONS, OUTPUT_FORMATS)

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
ENV = {**{k: v for k, v in os.environ.items() if k not in ("FOUNTAIN_AUDIT_CLICK", "NO_COLOR", "FORCE_COLOR")},
       "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}


def click_params(args: list[str]) -> dict | None:
    """What click parses from ``args``, or None when it refuses them (or prints help)."""
    import click
    try:
        return lint_command.make_context("lint", list(args)).params
    except (click.exceptions.ClickException, click.exceptions.Exit):
        return None


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A working directory with a file, a directory and (mode 000) an unreadable file."""
    (tmp_path / "a.spmd").write_text("x\n", encoding="utf-8")
    (tmp_path / "d").mkdir()
    locked = tmp_path / "locked.toml"
    locked.write_text("", encoding="utf-8")
    locked.chmod(0)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    locked.chmod(0o600)


# --- the reader against click's parser ------------------------------------------------------

def _names() -> list[str]:
    out = []
    for opt in OPTIONS:
        out.extend(opt.decls[0].split("/") if opt.kind == SWITCH else opt.decls)
    return out


VALUES = ["P", "P101,S", "", "-", "--", "-q", "--select", "=x", "x=y", "a.spmd", "d", "missing", "locked.toml",
          "0", "4", "007", "-1", "+4", " 4", "4_0", "٤", "1.5", *TARGET_VERSIONS, "1.4", *OUTPUT_FORMATS, "JSON",
          "512MB", "é", "a b"]
TOKENS = [*_names(), "--help", "-h", "--bogus", "-x", "-qj4", "-jq", "-j4", "-j0", "-j-1", "-oout.txt", "-o=out",
          "-od", "-qq", "--quiet=1", "--no-quiet", "--col", "-", "--", "---", "-5", "a.spmd", "d", "b.fountain"]


def _joined(name_value: tuple[str, str]) -> str:
    return f"{name_value[0]}={name_value[1]}"


ARG = st.one_of(st.sampled_from(TOKENS), st.sampled_from(VALUES),
                st.tuples(st.sampled_from(_names()), st.sampled_from(VALUES)).map(_joined),
                st.text(alphabet="-=ajoqx4P ", max_size=5))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=st.lists(ARG, max_size=8))
def test_reader_defers_or_agrees_with_click(files, args):
    ours = parse(args, OPTIONS)
    if ours is not None:
        assert ours == click_params(args), args


def _good_value(opt) -> st.SearchStrategy[str]:
    if opt.kind == CHOICE:
        return st.sampled_from(opt.choices)
    if opt.kind == COUNT:
        return st.integers(0, 64).map(str)
    if opt.kind == PATH:
        return st.sampled_from(["missing", "out.txt", "d" if opt.path.get("file_okay") is False else "a.spmd"])
    return st.sampled_from(["P", "P101,S", "x.spmd", "512MB", "-", "--", "-q", ""])


@st.composite
def _option_use(draw) -> list[str]:
    """One option as a user writes it: ``--name value``, ``--name=value``, ``-jN``, a flag ..."""
    opt = draw(st.sampled_from(OPTIONS))
    if opt.kind in (FLAG, SWITCH):
        return [draw(st.sampled_from(_names_of(opt)))]
    name, value = draw(st.sampled_from(_names_of(opt))), draw(_good_value(opt))
    if len(name) == 2:
        return draw(st.sampled_from([[name, value], [name + value]])) if value else [name, value]
    return draw(st.sampled_from([[name, value], [f"{name}={value}"]]))


def _names_of(opt) -> list[str]:
    return opt.decls[0].split("/") if opt.kind == SWITCH else list(opt.decls)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(uses=st.lists(st.one_of(_option_use(), st.sampled_from([["a.spmd"], ["d"], ["-"], ["--", "-q"]])), max_size=8))
def test_plain_uses_are_read_as_click_reads_them(files, uses):
    args = [a for use in uses for a in use]
    ours = parse(args, OPTIONS)
    assert ours is not None, args
    assert ours == click_params(args), args


PLAIN = [
    [],
    ["a.spmd"],
    ["a.spmd", "d", "-"],
    ["--select", "P", "--select=S", "--ignore", "P101", "a.spmd"],
    ["--extend-select", "R", "--target-version", "1.2", "--output-format", "json", "-"],
    ["--format=sarif", "-o", "out.txt", "--statistics", "a.spmd"],
    ["-oout.txt", "-j4", "-q", "--strict", "--exit-zero", "a.spmd"],
    ["-j", "0", "--jobs=3", "--color", "--no-color", "a.spmd"],
    ["--no-color", "--color"],
    ["--config", "missing.toml", "--isolated", "--redact", "--redact-paths", "--force-exclude", "--allow-empty"],
    ["--max-file-size", "2GB", "--baseline", "base.json", "--update-baseline", "--no-cache", "--cache-dir", "d"],
    ["--stdin-filename", "x.spmd", "-", "--", "--select", "-q"],
    ["--select", "--quiet", "a.spmd"],  # a value is the next argument whatever it looks like (click)
    ["--stdin-filename", "-", "-"],
    ["--cache-dir", "missing", "--cache-dir=d", "--baseline=missing"],
    ["-o", "=x"],
]


@pytest.mark.parametrize("args", PLAIN, ids=lambda a: " ".join(a) or "(none)")
def test_plain_arguments_are_read_as_click_reads_them(files, args):
    ours = parse(args, OPTIONS)
    assert ours is not None
    assert ours == click_params(args)


@pytest.mark.parametrize("args", [
    ["--help"], ["-h"], ["a.spmd", "--help"], ["--bogus"], ["-x"], ["-qj4"], ["-qq"], ["--quiet=1"], ["--color=yes"],
    ["--select"], ["-j"], ["-o"], ["--jobs", "-1"], ["-j", "+4"], ["-j", " 4"], ["-j", "4_0"], ["-j", "٤"],
    ["-j", "9" * 5000], ["--target-version", "1.4"], ["--format", "JSON"], ["--output-format="],
    ["--config", "d"], ["--config", "locked.toml"], ["--baseline", "d"], ["--cache-dir", "a.spmd"], ["-o", "d"],
    ["--config", "a\0b"], ["--sel", "P"], ["-select", "P"], ["---"], ["-5"], ["--=x"],
], ids=repr)
def test_anything_else_is_left_to_click(files, args):
    if os.geteuid() == 0 and "locked.toml" in args:
        pytest.skip("root reads any file")
    assert parse(args, OPTIONS) is None


def test_the_table_declares_every_parameter_of_the_body():
    import inspect

    from fountain_audit.commands.lint import run_lint
    body = set(inspect.signature(run_lint).parameters)
    assert {opt.dest for opt in OPTIONS} | {"paths"} == body == {p.name for p in lint_command.params}
    assert len(OPTIONS) == len(body) - 1
    kinds = {FLAG, SWITCH, MULTIPLE, CHOICE, COUNT, PATH, "value"}
    assert {opt.kind for opt in OPTIONS} == kinds


# --- the whole process against click's path -------------------------------------------------

def _run(args: list[str], *, click_path: bool, cwd: Path, env: dict | None = None, stdin: bytes = b""):
    e = {**ENV, **(env or {}), **({"FOUNTAIN_AUDIT_CLICK": "1"} if click_path else {})}
    p = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", *args], cwd=cwd, env=e, input=stdin,
                       capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


CASES = [
    (["--no-cache", str(SAMPLES)], {}),
    (["--no-cache", "--output-format", "json", "--statistics", str(SAMPLES)], {}),
    (["--no-cache", "--format=github", str(SAMPLES / "clean-session.spmd")], {}),
    (["--no-cache", "-q", "--strict", str(SAMPLES)], {}),
    (["--no-cache", "--select", "P", "--exit-zero", str(SAMPLES)], {"FORCE_COLOR": "1"}),
    (["--no-cache", "--select", "XX", str(SAMPLES)], {}),  # a usage error met by the body
    (["--no-cache", "--select", "XX", str(SAMPLES)], {"FORCE_COLOR": "1"}),
    (["--no-cache", "--select=", str(SAMPLES)], {}),
    (["--no-cache", "--update-baseline", str(SAMPLES)], {}),
    (["--no-cache", "--max-file-size", "lots", str(SAMPLES)], {}),
    (["--no-cache", "--config", "missing.toml", str(SAMPLES)], {}),
    (["--no-cache", "missing.spmd", str(SAMPLES / "clean-session.spmd")], {}),  # red error line, exit 2
    (["--no-cache", "missing.spmd"], {"FORCE_COLOR": "1"}),
    (["--no-cache", "missing.spmd"], {"NO_COLOR": "1"}),
    (["--no-cache", "empty"], {}),  # yellow warning, then exit 2
    (["--no-cache", "--allow-empty", "empty"], {"FORCE_COLOR": "1"}),
    (["--no-cache", "--bogus"], {}),  # left to click by the reader
    (["--no-cache", "--stdin-filename", "in.spmd", "-"], {}),
    (["--cache-dir", "cache", str(SAMPLES)], {}),
    (["--no-cache", "-o", "-", str(SAMPLES)], {}),  # standard output, not a file named '-'
    (["--no-cache", "--format", "json", "--output=-", str(SAMPLES / "clean-session.spmd")], {}),
]


@pytest.mark.parametrize("args,env", CASES, ids=lambda v: " ".join(v) if isinstance(v, list) else json.dumps(v))
def test_fast_path_prints_what_click_prints(tmp_path, args, env):
    (tmp_path / "empty").mkdir()
    stdin = (SAMPLES / "clean-session.spmd").read_bytes()
    fast = _run(args, click_path=False, cwd=tmp_path, env=env, stdin=stdin)
    slow = _run(args, click_path=True, cwd=tmp_path, env=env, stdin=stdin)
    assert fast == slow
    assert fast[0] in (0, 1, 2) and (fast[1] or fast[2])


def test_usage_errors_read_as_click_prints_them(tmp_path):
    code, out, err = _run(["--select", "XX", "a.spmd"], click_path=False, cwd=tmp_path)
    assert code == 2 and out == ""
    assert err.startswith("Usage: python -m fountain_audit lint [OPTIONS] [PATHS]...\n"
                          "Try 'python -m fountain_audit lint --help' for help.\n\nError: --select: unknown rule")


def test_report_file_is_the_same(tmp_path):
    outs = []
    for click_path in (False, True):
        target = tmp_path / f"report-{click_path}.sarif"
        result = _run(["--no-cache", "--format", "sarif", "-o", str(target), str(SAMPLES)], click_path=click_path,
                      cwd=tmp_path)
        outs.append((result, target.read_text(encoding="utf-8")))
    assert outs[0] == outs[1] and outs[0][1].startswith("{")


PROBE = RUN_AS_CONSOLE_SCRIPT + """
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("click", "rich", "pathlib", "typing", "json", "inspect",
                                                            "tomllib", "lark")
                or m == "fountain_audit.cli" or m.startswith("fountain_audit.cli."))
import json
print(json.dumps(loaded), file=sys.stderr)
"""


def _modules(tmp_path: Path, *args: str, probe: str = PROBE) -> list[str]:
    """The watched modules a process running ``fountain-audit ARGS`` imported. Without ``site``
    (``-S``, the packages' folder on ``PYTHONPATH`` instead), so that the editable install's path
    hook (it imports pathlib and typing) does not count."""
    import sysconfig
    env = {**ENV, "PYTHONPATH": os.pathsep.join((ENV["PYTHONPATH"], sysconfig.get_paths()["purelib"]))}
    p = subprocess.run([sys.executable, "-S", "-c", probe, *args], capture_output=True, text=True, cwd=tmp_path,
                       env=env)
    return json.loads(p.stderr.strip().splitlines()[-1])


def test_lint_imports_neither_click_nor_the_click_commands(tmp_path):
    (tmp_path / "a.spmd").write_bytes((SAMPLES / "clean-session.spmd").read_bytes())
    for args in (["--no-cache"], ["--cache-dir", "c"], ["--format", "json", "--no-cache"]):
        assert not [m for m in _modules(tmp_path, "lint", *args, "a.spmd") if m.startswith(("click", "fountain_audit.cli"))]
    # a warm result cache: the standard library's heavier modules stay unloaded too (start-up), in a
    # project whose pyproject.toml does not mention fountain-audit (one that does is read with tomllib)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["rich"]\n')
    _modules(tmp_path, "lint", "--cache-dir", "c", "a.spmd")
    assert _modules(tmp_path, "lint", "--cache-dir", "c", "a.spmd") == []
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["fountain-audit"]\n')
    loaded = {m.split(".")[0] for m in _modules(tmp_path, "lint", "--cache-dir", "c", "a.spmd")}
    assert "tomllib" in loaded and loaded <= {"tomllib", "typing"}
    assert "click" in _modules(tmp_path, "lint", "--select", "XX", "a.spmd")  # the error goes through click


@settings(max_examples=500, deadline=None)
@given(path=st.lists(st.sampled_from(["/", ".", "a", "..", "b.spmd", " ", "é", "-"]), min_size=1, max_size=12).map("".join))
def test_display_path_is_what_pathlib_prints(path):
    from pathlib import PurePath

    from fountain_audit.commands.common import display_path
    assert display_path(path) == (path if path == "-" else str(PurePath(path)))


def test_project_dir_and_config_root_are_what_pathlib_resolves(tmp_path, monkeypatch):
    from fountain_audit.lint.config import Config, load_config
    from fountain_audit.lint.fingerprint import project_dir, project_root
    (tmp_path / "real" / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / ".git").mkdir()
    monkeypatch.chdir(tmp_path / "link" / "sub")
    assert project_dir() == str(project_root()) == str(tmp_path.resolve() / "real")
    assert project_dir(Path("x.toml")) == str(Path("x.toml").resolve().parent)
    cfg = load_config()
    assert cfg.source is None and cfg.root == Path.cwd().resolve() and isinstance(cfg.root, Path)
    assert Config().root == Path.cwd() and Config(root=Path("/x")).root == Path("/x")
    assert Config() == Config() and "root=PosixPath(" in repr(Config())


def test_every_dataclass_has_a_docstring():
    # dataclasses reads inspect (ast, dis, tokenize: milliseconds of start-up) only to make a
    # docstring for a class without one; lint defers that import (commands.fast)
    import dataclasses
    import importlib
    import pkgutil

    import fountain_audit
    bare = []
    for info in pkgutil.walk_packages(fountain_audit.__path__, "fountain_audit."):
        if info.name.startswith(("fountain_audit.export.send", "fountain_audit.report")):
            continue  # optional dependencies (network, templates): not on the lint path
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == module.__name__ \
                    and (obj.__dict__.get("__doc__") or "").startswith(f"{obj.__name__}("):
                bare.append(f"{info.name}.{name}")
    assert bare == []


def test_a_cold_lint_imports_neither_inspect_nor_click(tmp_path):
    # a plain screenplay: parsed without Lark once the grammar memo knows its shapes (first run)
    (tmp_path / "a.fountain").write_text("INT. HOUSE - DAY\n\nJohn walks in.\n\nJOHN\nHello.\n\n> THE END <\n",
                                         encoding="utf-8")
    probe = PROBE.replace('("click", "rich", "pathlib", "typing", "json", "inspect",', '("click", "inspect", "ast", "dis",')
    for _ in range(2):
        loaded = _modules(tmp_path, "lint", "--no-cache", "a.fountain", probe=probe)
    assert [m for m in loaded if not m.startswith("fountain_audit")] == []


@pytest.mark.parametrize("click_path", [False, True])
def test_output_dash_is_standard_output(tmp_path, click_path):
    """`-o -` created a file named '-' and printed nothing."""
    clean = str(SAMPLES / "clean-session.spmd")
    plain = _run(["--no-cache", clean], click_path=click_path, cwd=tmp_path)
    assert plain == (0, "All clear: no problems in 1 file checked.\n", "")
    for args in (["-o", "-"], ["-o-"], ["--output", "-"]):
        assert _run(["--no-cache", *args, clean], click_path=click_path, cwd=tmp_path) == plain
    assert list(tmp_path.iterdir()) == []

"""Standard input, output and error as the shell gives them: an input read through ``-`` that is the file an
output names, a standard output that cannot be written (``> /dev/full``) or is closed (``>&-``), a closed standard
input (``<&-``). Real subprocesses: the streams are the process's own file descriptors."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from .conftest import SAMPLES
from .test_formats import cli_env

VIOLATION = SAMPLES / "violations" / "P102-tools-between-forward-and-reply.spmd"


def fa(*args: str, cwd, stdin=None, stdout=subprocess.PIPE, pass_fds=(), preexec_fn=None) -> subprocess.CompletedProcess:
    """``python -m fountain_audit ARGS``: exit status, standard output and error (text)."""
    return subprocess.run([sys.executable, "-m", "fountain_audit", *args], cwd=cwd, stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60, env=cli_env(NO_COLOR="1"),
                          pass_fds=pass_fds, preexec_fn=preexec_fn)


# -- an input read through '-' is never overwritten ------------------------------------------------------------

@pytest.mark.parametrize(("args", "what"), [
    (("lint", "-", "-o", "a.spmd"), "the report"),
    (("lint", "--output-format", "json", "-", "-o", "link.spmd"), "the report"),
    (("export", "--to", "toolpath", "-", "-o", "a.spmd"), "the export"),
    (("export", "--to", "otlp-json", "-", "-o", "link.spmd"), "the export"),
    (("report", "-", "-o", "a.spmd.html"), "the report"),
])
def test_an_output_that_is_the_file_standard_input_reads_is_refused(tmp_path, args, what):
    """`lint - -o a.spmd < a.spmd` replaced a.spmd with the report (the same for export and report): standard
    input that is a regular file is compared with the output (device and inode; a symlink followed)."""
    shutil.copy(VIOLATION, tmp_path / "a.spmd")
    shutil.copy(VIOLATION, tmp_path / "a.spmd.html")
    os.symlink("a.spmd", tmp_path / "link.spmd")
    before = VIOLATION.read_bytes()
    out = args[-1]
    with open(tmp_path / ("a.spmd.html" if out.endswith(".html") else "a.spmd"), "rb") as stdin:
        r = fa(*args, cwd=tmp_path, stdin=stdin)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == f"fountain-audit: error: {out}: refusing to write {what} over an input file (standard input)\n"
    assert (tmp_path / "a.spmd").read_bytes() == before and (tmp_path / "a.spmd.html").read_bytes() == before


def test_redact_refuses_to_write_over_the_file_standard_input_reads(tmp_path):
    shutil.copy(VIOLATION, tmp_path / "a.spmd")
    with open(tmp_path / "a.spmd", "rb") as stdin:
        r = fa("redact", "-", "-o", "a.spmd", cwd=tmp_path, stdin=stdin)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == "fountain-audit: error: a.spmd: refusing to write the redacted copy over its input (standard input)\n"
    assert (tmp_path / "a.spmd").read_bytes() == VIOLATION.read_bytes()


def test_standard_input_from_another_file_or_a_pipe_is_still_written_from(tmp_path):
    shutil.copy(VIOLATION, tmp_path / "a.spmd")
    with open(tmp_path / "a.spmd", "rb") as stdin:
        r = fa("lint", "--output-format", "concise", "-", "-o", "report.txt", cwd=tmp_path, stdin=stdin)
    assert r.returncode == 1 and (tmp_path / "report.txt").read_text().startswith("-:")
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "redact", "-", "-o", "copy.spmd"], cwd=tmp_path,
                       input=VIOLATION.read_bytes(), capture_output=True, timeout=60, env=cli_env())
    assert r.returncode == 0 and (tmp_path / "copy.spmd").exists()


# -- standard output that cannot be written, closed standard output or input --------------------------------------

CLEAN = str(SAMPLES / "clean-session.spmd")
WRITING_COMMANDS = [
    ("lint", CLEAN), ("lint", str(VIOLATION)), ("lint", "--output-format", "json", CLEAN), ("dump", CLEAN),
    ("show", CLEAN, "t1"), ("provenance", CLEAN), ("export", "--to", "toolpath", CLEAN),
    ("export", "--to", "otlp-json", CLEAN), ("rules",), ("rule", "P102"), ("schema", "baseline"), ("--help",),
    ("lint", "--help"), ("--version",), ("report", CLEAN, "-o", "-"),
    # (diff said "cannot write the report: OSError: …": adversarial trial, stop 37)
    ("diff", CLEAN, str(VIOLATION)), ("diff", "--format", "json", CLEAN, CLEAN), ("diff", "--stat", CLEAN, CLEAN),
]


def _closed_fd(fd: int):
    return lambda: os.close(fd)


@pytest.mark.parametrize("args", WRITING_COMMANDS, ids=lambda a: " ".join(a).replace(str(SAMPLES) + "/", ""))
def test_a_standard_output_that_cannot_be_written_is_one_line_and_status_2(tmp_path, args):
    """`fountain-audit lint s.spmd > /dev/full` printed an OSError traceback and exited 1 (the status of findings),
    as did dump, show, provenance, export, rules, rule, schema, --help and --version."""
    with open("/dev/full", "w") as full:
        r = fa(*args, cwd=tmp_path, stdout=full)
    assert (r.returncode, r.stderr) == (2, "fountain-audit: error: cannot write standard output: No space left on "
                                           "device\n")


@pytest.mark.parametrize("args", WRITING_COMMANDS, ids=lambda a: " ".join(a).replace(str(SAMPLES) + "/", ""))
def test_a_closed_standard_output_is_one_line_and_status_2(tmp_path, args):
    """`fountain-audit lint s.spmd >&-` ended in an AttributeError traceback ('NoneType' object has no attribute
    'isatty'); --version and rules in an OSError at exit."""
    r = fa(*args, cwd=tmp_path, stdout=None, preexec_fn=_closed_fd(1))
    assert (r.returncode, r.stderr) == (2, "fountain-audit: error: cannot write standard output: Bad file descriptor "
                                           "(closed)\n")


def test_a_closed_standard_output_is_no_error_when_nothing_is_written_to_it(tmp_path):
    r = fa("lint", CLEAN, "-o", "report.txt", cwd=tmp_path, stdout=None, preexec_fn=_closed_fd(1))
    assert (r.returncode, r.stderr) == (0, "")
    assert (tmp_path / "report.txt").read_text().startswith("All clear")


@pytest.mark.parametrize(("args", "stderr"), [
    (("lint", "--output-format", "concise", "-"),
     "fountain-audit: error: -: cannot read: Bad file descriptor (standard input is closed)\n"),
    (("diff", "-", CLEAN), "fountain-audit: error: -: cannot read: Bad file descriptor (standard input is closed)\n"),
    (("show", "-", "t1"), "fountain-audit: error: -: cannot read: Bad file descriptor (standard input is closed)\n"),
    (("export", "--to", "toolpath", "-"),
     "fountain-audit: error: -: cannot read: Bad file descriptor (standard input is closed)\n"),
    (("redact", "-"), "fountain-audit: error: -: cannot read: Bad file descriptor (standard input is closed)\n"),
])
def test_a_closed_standard_input_read_as_dash_is_an_error_naming_it(tmp_path, args, stderr):
    """`fountain-audit lint - <&-` ended in an AttributeError traceback ('NoneType' object has no attribute
    'buffer'); diff in 'internal error: AttributeError'."""
    r = fa(*args, cwd=tmp_path, preexec_fn=_closed_fd(0))
    assert (r.returncode, r.stderr) == (2, stderr)


def test_a_reader_that_goes_away_still_keeps_the_status(tmp_path):
    """`| head`: unchanged by the guard on standard output (status of the command, nothing on standard error)."""
    for args, status in ((("rules",), 0), (("lint", "--output-format", "concise", str(VIOLATION)), 1)):
        p = subprocess.Popen([sys.executable, "-m", "fountain_audit", *args], cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=cli_env(NO_COLOR="1"))
        p.stdout.read(5)
        p.stdout.close()
        assert (p.wait(timeout=60), p.stderr.read()) == (status, b"")


def _stderr_to(target):
    return lambda: (os.dup2(os.open(target, os.O_WRONLY), 2) if target else os.close(2))


@pytest.mark.parametrize("args, status", [
    (("lint", "missing.spmd"), 2),
    (("lint", "--output-format", "bogus", "x"), 2),
    (("dump", "missing.spmd"), 2),
    (("lnt",), 2),
    (("lint", str(SAMPLES / "clean-session.spmd")), 0),
    (("lint", str(VIOLATION)), 1),
])
@pytest.mark.parametrize("stderr", ["/dev/full", None], ids=["2>/dev/full", "2>&-"])
def test_a_standard_error_that_cannot_be_written_keeps_the_run_s_status(tmp_path, args, status, stderr):
    """`lint missing.spmd 2>/dev/full` exited 1, the status of findings, through the traceback of
    the failed write of its error message (adversarial trial): what standard error would say is
    lost either way; the status is the run's."""
    r = subprocess.run([sys.executable, "-m", "fountain_audit", *args], cwd=tmp_path, stdout=subprocess.DEVNULL,
                       stderr=None, timeout=60, env=cli_env(NO_COLOR="1"), preexec_fn=_stderr_to(stderr))
    assert r.returncode == status

"""Linting in a process pool: the same results and bytes as a serial run, and when the pool is used."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fountain_audit.lint import runner
from fountain_audit.lint.linter import Selection
from fountain_audit.cli.outputs import LazyProgress
from fountain_audit.lint.runner import Job, FileResult, lint_jobs, plan_workers

from .conftest import ROOT
from .test_formats import cli_env

N_FILES = 240


def _load_benchmark():
    spec = importlib.util.spec_from_file_location("fa_parallel_bench", ROOT / "benchmarks" / "parallel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A few hundred small generated session files (a tenth of them broken), plus one unreadable path."""
    folder = tmp_path_factory.mktemp("corpus")
    _load_benchmark().generate_corpus(folder, N_FILES, max_kb=4)
    os.symlink(folder / "nowhere", folder / "batch-5" / "session-dangling.spmd")
    return folder


def lint_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fountain_audit", "lint", *args], capture_output=True,
                          env=cli_env(), cwd=ROOT, timeout=300)


def test_plan_workers():
    cpus = runner.available_cpus()
    assert plan_workers(1, None) == 1
    assert plan_workers(31, None) == 1  # below the threshold: in-process
    assert plan_workers(32, None) == min(cpus, 32)
    assert plan_workers(500, 1) == 1
    assert plan_workers(500, 3) == min(3, 2 * cpus)
    assert plan_workers(2, 8) == 2  # never more processes than files
    assert plan_workers(100_000, 99_999) == 2 * cpus  # nor than twice the CPUs (--jobs 99999: a process per file)
    assert runner.PARALLEL_THRESHOLD == 32


def test_chunks_shrink_towards_the_end():
    assert runner._chunk_size(1000, 2) == 32  # at most 32 files
    assert [runner._chunk_size(left, 2) for left in (300, 100, 40, 9, 8, 1)] == [32, 13, 5, 2, 1, 1]
    assert runner._chunk_size(300, 4) == 19


@pytest.mark.parametrize("fmt", ["json", "concise", "sarif", "full", "json-lines", "github", "junit", "gitlab"])
def test_parallel_output_is_byte_identical_to_serial(corpus, fmt):
    serial = lint_cli("--output-format", fmt, "--jobs", "1", str(corpus))
    parallel = lint_cli("--output-format", fmt, "--jobs", "2", str(corpus))
    assert serial.returncode == parallel.returncode == 2  # the dangling symlink
    assert serial.stdout == parallel.stdout
    assert serial.stderr == parallel.stderr
    if fmt == "json":  # N_FILES >= 32: the pool by default when there are CPUs for it
        automatic = lint_cli("--output-format", fmt, str(corpus))
        assert (automatic.returncode, automatic.stdout, automatic.stderr) == (2, serial.stdout, serial.stderr)
    assert serial.stderr.decode().count("fountain-audit: error:") == 1
    if fmt == "concise":
        assert serial.stdout.decode().splitlines()[-1].endswith(
            f"in {N_FILES} files checked; 1 path could not be read.")


def test_pool_results_equal_serial_results_in_process(corpus):
    files = sorted(str(p) for p in corpus.rglob("*.spmd"))
    jobs = [Job(f, f) for f in files]
    selection = Selection.build()
    calls = []
    serial = lint_jobs(jobs, selection, workers=1)
    pooled = lint_jobs(jobs, selection, workers=2, progress=lambda done, total: calls.append((done, total)))
    assert pooled == serial
    assert len(serial) == N_FILES + 1 and sum(1 for r in serial if r.error) == 1
    assert sum(len(r.diagnostics) for r in serial) > N_FILES  # the broken tenth and the T103 infos
    assert calls[-1] == (N_FILES + 1, N_FILES + 1) and calls == sorted(calls)


def test_render_runs_where_the_files_are_linted(corpus):
    """``render`` (here the json report's text of a diagnostic) is applied in the worker that
    linted the file, or in this process for the files it linted; nothing else changes."""
    from dataclasses import replace

    from fountain_audit.reporters.text import diagnostic_json

    jobs = [Job(str(p), str(p)) for p in sorted(corpus.rglob("*.spmd"))[:60]]
    selection = Selection.build()
    pooled = lint_jobs(jobs, selection, workers=2, render=diagnostic_json)
    assert [replace(r, rendered=None) for r in pooled] == lint_jobs(jobs, selection, workers=1)
    assert all(r.rendered == tuple(map(diagnostic_json, r.diagnostics)) for r in pooled if not r.error)
    assert sum(len(r.rendered) for r in pooled) > 60


def test_a_pool_that_cannot_start_falls_back_to_serial(corpus, monkeypatch):
    jobs = [Job(str(p), str(p)) for p in sorted(corpus.rglob("*.spmd"))[:40]]
    selection = Selection.build()
    expected = lint_jobs(jobs, selection, workers=1)

    def no_pool(*args, **kwargs):
        raise OSError(38, "Function not implemented")  # e.g. no semaphores on this platform
    monkeypatch.setattr(runner, "_executor", lambda: no_pool)
    assert lint_jobs(jobs, selection, workers=2) == expected


class _UnstartedFuture:
    """A future no worker has started yet: cancellable, run only when its result is asked for."""

    def __init__(self, fn, arg, ran):
        self.fn, self.arg, self.ran, self.state = fn, arg, ran, "pending"

    def cancel(self):
        _IdlePool.last.cancelled += 1
        if self.state == "pending":
            self.state = "cancelled"
        return self.state == "cancelled"

    def done(self):
        return self.state == "finished"

    def result(self):
        assert self.state != "cancelled"
        if self.state == "pending":
            self.ran.append(self.arg)
            self.value, self.state = self.fn(self.arg), "finished"
        return self.value


class _IdlePool:
    """A pool whose worker has not started any chunk when this process looks."""

    def __init__(self, max_workers, mp_context, initializer, initargs):
        initializer(*initargs)
        self.ran, self.cancelled = [], 0
        _IdlePool.last = self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, fn, arg):
        return _UnstartedFuture(fn, arg, self.ran)


def test_every_file_goes_to_the_workers_in_chunks_that_shrink(corpus, monkeypatch):
    """The pool's workers lint every file (this process collects: when it linted files from the
    back too, it fell behind and a CPU idled at the end: --jobs 2 gave 1.44x where two independent
    processes give 1.81x); chunks of a quarter of each worker's share, in job order, none cancelled."""
    jobs = [Job(str(p), str(p)) for p in sorted(corpus.rglob("*.spmd"))[:40]]
    selection = Selection.build()
    expected = lint_jobs(jobs, selection, workers=1)
    monkeypatch.setattr(runner, "_executor", lambda: _IdlePool)
    assert lint_jobs(jobs, selection, workers=2) == expected
    ran = _IdlePool.last.ran
    assert [len(c) for c in ran] == [5, 5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]
    assert [j for c in ran for j in c] == jobs and _IdlePool.last.cancelled == 0


def test_an_explicit_jobs_is_capped_at_twice_the_cpus(corpus, monkeypatch):
    """`lint --jobs 99999` on 3,300 files started a worker per file (163 processes in a second, then
    the kernel's OOM killer; quick trial): plan_workers capped it, lint_all did not use it."""
    sizes = []
    real = runner.iter_results

    def spy(jobs, selection, *, workers=1, **kw):
        sizes.append(workers)
        return real(jobs, selection, workers=1, **kw)
    monkeypatch.setattr(runner, "iter_results", spy)
    jobs = [Job(str(p), str(p)) for p in sorted(corpus.rglob("*.spmd"))[:40]]
    assert len(runner.lint_all(jobs, Selection.build(), workers=99_999)) == 40
    assert sizes == [min(40, 2 * runner.available_cpus())]


def test_keep_text_only_for_files_with_diagnostics(tmp_path):
    clean = tmp_path / "clean.spmd"
    clean.write_text((ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8"), encoding="utf-8")
    broken = ROOT / "samples" / "violations" / "S101-missing-title.spmd"
    results = lint_jobs([Job(str(clean), "clean.spmd"), Job(str(broken), "b.spmd")], Selection.build(),
                        keep_text=True)
    assert results[0] == FileResult("clean.spmd")
    assert results[1].text == broken.read_text(encoding="utf-8") and results[1].diagnostics[0].code == "S101"


def test_progress_bar_is_lazy():
    bar = LazyProgress(delay=3600)
    bar(1, 100)
    assert bar.bar is None  # a short run never shows it
    bar = LazyProgress(delay=0)
    bar(100, 100)
    assert bar.bar is None  # nor one that is already done
    bar.close()


def test_no_progress_bar_when_not_a_terminal(corpus):
    r = lint_cli("--output-format", "concise", "--jobs", "2", str(corpus))
    assert r.stderr.decode().splitlines() == [
        f"fountain-audit: error: {corpus / 'batch-5' / 'session-dangling.spmd'}: a dangling symbolic link "
        f"(to {corpus / 'nowhere'})"]


def test_no_pool_for_little_input():
    cpus = runner.available_cpus()
    assert plan_workers(300, None, total_bytes=300 * 2000) == 1  # 600 KB: serial is faster than a pool
    assert plan_workers(300, None, total_bytes=runner.POOL_MIN_BYTES) == min(cpus, 300)
    assert plan_workers(300, 2, total_bytes=10) == 2  # asked for: given


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")  # a zombie has ended
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux") or not os.path.exists(f"/proc/{os.getpid()}/task"),
                    reason="reads /proc")
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGKILL"])
def test_workers_end_when_the_parent_is_killed(tmp_path, signame):
    """`kill PID` or `timeout` signal the lint process alone: its workers must not wait for work
    for ever, holding the run's standard output open (a CI step would hang)."""
    import signal
    import time

    sample = (ROOT / "samples" / "clean-session.spmd").read_bytes()
    for k in range(600):
        (tmp_path / f"s{k:03}.spmd").write_bytes(sample)
    p = subprocess.Popen([sys.executable, "-m", "fountain_audit", "lint", "--no-cache", "--jobs", "3", "."],
                         cwd=tmp_path, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            workers = _children(p.pid)
        if p.poll() is not None:
            pytest.skip("the run ended before its workers were seen")
        time.sleep(0.3)
        os.kill(p.pid, getattr(signal, signame))
        p.communicate(timeout=60)  # every holder of the pipes has ended
        assert p.returncode == -getattr(signal, signame)
        deadline = time.monotonic() + 10
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [w for w in workers if _running(w)] == []
    finally:
        for pid in [p.pid, *workers]:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
        p.communicate()


class _RecordingPool(_IdlePool):
    def shutdown(self, wait=True, cancel_futures=False):
        self.shut = (wait, cancel_futures)


def test_a_stopped_run_cancels_the_chunks_still_queued(corpus, monkeypatch):
    """Ctrl-C (or a consumer that stops reading): the pool is shut down with its queued chunks
    cancelled, not after the workers have linted them all."""
    jobs = [Job(str(p), str(p)) for p in sorted(corpus.rglob("*.spmd"))[:40]]
    monkeypatch.setattr(runner, "_executor", lambda: _RecordingPool)
    results = runner.iter_results(jobs, Selection.build(), workers=2)
    next(results)
    results.close()
    assert _RecordingPool.last.shut == (True, True)  # waited for: the workers' current chunks, no more


def _pool_threads() -> list:
    import threading
    return [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]


def test_no_pool_thread_outlives_a_run(corpus):
    """A run, finished or stopped, has joined its pool's thread before it returns: one left
    running raced Python's exit handler ("OSError: [Errno 9] Bad file descriptor" printed at
    exit, a few runs in a hundred), because lint_all stopped reading after the last result and
    the pool was then shut down without waiting."""
    files = sorted(str(p) for p in corpus.rglob("*.spmd"))[:80]
    jobs = [Job(f, f) for f in files]
    assert len(runner.lint_all(jobs, Selection.build(), workers=2)) == 80
    assert _pool_threads() == []
    results = runner.iter_results(jobs, Selection.build(), workers=2)
    next(results)
    results.close()
    assert _pool_threads() == []


_DIE_ON: list[str] = []


def _dying_chunk(chunk):
    """A worker that dies (as if killed) on the chunk holding the file named in _DIE_ON."""
    if any(job.name in _DIE_ON for job in chunk):
        os._exit(9)
    return _real_lint_chunk(chunk)


_real_lint_chunk = runner._lint_chunk


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_worker_that_dies_does_not_hang_the_run(corpus, monkeypatch):
    """A killed worker breaks the pool: the run finishes in this process with the serial
    result (it used to wait for ever: CPython 3.11's pool stopped on a cancelled future)."""
    import threading

    jobs = [Job(str(p), str(p)) for p in sorted(corpus.rglob("*.spmd"))[:60]]
    monkeypatch.setattr(sys.modules[__name__], "_DIE_ON", [jobs[12].name])  # the 5th chunk: after some are taken here
    selection = Selection.build()
    expected = lint_jobs(jobs, selection, workers=1)
    monkeypatch.setattr(runner, "_lint_chunk", _dying_chunk)
    got: list = []
    t = threading.Thread(target=lambda: got.append(lint_jobs(jobs, selection, workers=3)), daemon=True)
    t.start()
    t.join(120)
    assert not t.is_alive(), "the run hung after a worker died"
    assert got == [expected]

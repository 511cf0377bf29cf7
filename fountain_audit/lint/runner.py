"""Linting many files: serially, or in a process pool with the same result.

:func:`lint_jobs` takes :class:`Job` s (a path to read, the name to report, the
rules switched off for it) and returns one :class:`FileResult` per job, *in job
order*, whether the files were linted in this process or across a
``concurrent.futures.ProcessPoolExecutor``. Reporters therefore print the same
bytes either way. The pool is used only when it pays: at least
:data:`PARALLEL_THRESHOLD` files and more than one CPU (or ``jobs`` given
explicitly). ``workers=N`` means N forked worker processes linting; this one hands them
chunks of files, ever smaller towards the end, and collects the results in job order (it
lints nothing itself: see :func:`iter_results`). Each worker builds (or loads from the cache, see
:mod:`fountain_audit.parse.cache`) its parsers once. With a
:class:`~fountain_audit.lint.cache.ResultCache`, a file whose entry matches its bytes is not
linted at all (:func:`lint_all` looks them up before deciding on a pool). A ``render``
function (e.g. a reporter's text for one diagnostic) is run where each file is linted, so
that a parallel run's report is mostly made in parallel too.

This module reads files and runs the linter; it never prints.
"""

from __future__ import annotations

import functools
import gc
import operator
import os
import sys
from collections import deque
from dataclasses import replace

from fountain_audit.records import record
from fountain_audit.lint.diagnostics import Diagnostic
from fountain_audit.parse.source import DEFAULT_MAX_FILE_SIZE, decode_file, format_size, read_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:  # the linter (and with it the parser) is imported only when a file is linted
    from typing import Callable, Iterator, Sequence

    from fountain_audit.lint.cache import ResultCache
    from fountain_audit.lint.selection import Selection

#: Fewer files than this are linted in-process when ``jobs`` is automatic: starting
#: workers (about 20 ms each with fork, far more with spawn) costs more than it saves.
PARALLEL_THRESHOLD = 32
#: Nor less input than this in all (bytes): linting it serially takes less time than
#: starting the workers and loading the parsers in each.
POOL_MIN_BYTES = 1_000_000


@record(frozen=True)
class Job:
    """One file to lint: ``path`` to read (or ``text`` already read, e.g. standard
    input), ``name`` to report, ``ignored`` rule codes (per-file ignores), ``key`` its
    path relative to the project root (then diagnostics get fingerprints, see
    :mod:`fountain_audit.lint.fingerprint`), ``max_size`` in bytes (larger files are
    refused before reading; ``None``: no limit)."""

    path: str
    name: str
    ignored: frozenset[str] = frozenset()
    text: str | None = None
    key: str | None = None
    max_size: int | None = DEFAULT_MAX_FILE_SIZE

    def __init__(self, path: str, name: str, ignored: frozenset[str] = frozenset(), text: str | None = None,
                 key: str | None = None, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> None:
        put = object.__setattr__  # (a frozen record: see fountain_audit.records)
        put(self, "path", path)
        put(self, "name", name)
        put(self, "ignored", ignored)
        put(self, "text", text)
        put(self, "key", key)
        put(self, "max_size", max_size)


@record(frozen=True)
class FileResult:
    """What linting one job gave: its diagnostics, or ``error`` when it could not be read.
    ``text`` is kept (for files with diagnostics) when the reporter shows source lines.
    ``rendered``: ``render(d)`` of each diagnostic, when the run was given ``render``."""

    name: str
    diagnostics: tuple[Diagnostic, ...] = ()
    error: str | None = None
    text: str | None = None
    rendered: tuple[str, ...] | None = None

    def __init__(self, name: str, diagnostics: tuple[Diagnostic, ...] = (), error: str | None = None,
                 text: str | None = None, rendered: tuple[str, ...] | None = None) -> None:
        put = object.__setattr__  # (a frozen record: see fountain_audit.records)
        put(self, "name", name)
        put(self, "diagnostics", diagnostics)
        put(self, "error", error)
        put(self, "text", text)
        put(self, "rendered", rendered)


def available_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def plan_workers(n_files: int, jobs: int | None, total_bytes: int | None = None) -> int:
    """How many processes lint ``n_files``: 1 means in-process.

    ``jobs=None`` (automatic): all CPUs, but only from :data:`PARALLEL_THRESHOLD`
    files and (when ``total_bytes``, the input size, is known) :data:`POOL_MIN_BYTES`
    on, so that a pool that cannot help does not start; ``jobs=N``: at most N (1 =
    serial), never more than the files nor twice the CPUs (linting is CPU-bound: processes beyond
    the CPUs only wait for them; ``--jobs 99999`` started a process per file, load 77 on two
    CPUs, ten times slower: adversarial trial).
    """
    if jobs is None:
        if n_files < PARALLEL_THRESHOLD or (total_bytes is not None and total_bytes < POOL_MIN_BYTES):
            return 1
        jobs = available_cpus()
    return max(1, min(jobs, n_files, 2 * available_cpus()))


def input_bytes(jobs: Sequence[Job]) -> int:
    """The size of the input of ``jobs`` (text already read, else the file size; 0 for a
    file that cannot be read now, which linting reports)."""
    total = 0
    for job in jobs:
        if job.text is not None:
            total += len(job.text)
            continue
        try:
            total += os.stat(job.path).st_size
        except (OSError, ValueError):
            pass
    return total


def _unreadable(job: Job, e: OSError) -> FileResult:
    return FileResult(job.name, error=f"{job.path}: cannot read: {e.strerror or e}")


def lookup(job: Job, cache: ResultCache, keep_text: bool = False) -> FileResult | None:
    """The cached result of ``job`` (or its read error), or ``None`` when it must be linted
    (a miss, or standard input, which is never cached)."""
    if job.text is not None:
        return None
    try:
        data = read_bytes(job.path, job.max_size)
    except OSError as e:
        return _unreadable(job, e)
    diagnostics = cache.get(job.name, job.key, job.ignored, _digest(data))
    if diagnostics is None:
        return None
    if keep_text and diagnostics:
        try:
            return FileResult(job.name, diagnostics, text=decode_file(data, job.path))
        except OSError as e:
            return _unreadable(job, e)
    return FileResult(job.name, diagnostics)


def _digest(data: bytes) -> bytes:
    from fountain_audit.lint.cache import content_digest
    return content_digest(data)


def lint_job(job: Job, selection: Selection, keep_text: bool = False,
             cache: ResultCache | None = None, render: Callable[[Diagnostic], str] | None = None) -> FileResult:
    """Read and lint one job; an unreadable file (or one too large for ``max_size`` or
    for the memory) gives a result with ``error``. With ``cache``, the result of a file
    read from disk is stored (unless a rule failed: ``X001`` is never cached). With
    ``render``, the result holds each diagnostic's ``render(d)`` too."""
    from fountain_audit.lint import fingerprint
    from fountain_audit.lint.linter import lint_text

    digest = None  # the cache key of a file read from disk (computed only with a cache)
    try:
        if job.text is not None:
            text = job.text
        else:
            data = read_bytes(job.path, job.max_size)
            if cache is not None:
                digest = _digest(data)
            text = decode_file(data, job.path)
            del data  # (the bytes are not held while the file is linted: as large as the file)
    except OSError as e:
        return _unreadable(job, e)
    try:
        diagnostics = lint_text(text, job.name, selection, job.ignored)
        if job.key is not None:
            diagnostics = fingerprint.assign(diagnostics, text, job.key)
    except MemoryError:
        del text
        try:
            size = os.stat(job.path).st_size
        except (OSError, ValueError):  # standard input: its size went with the text
            size = 0
        what = format_size(size) if size else "it"
        return FileResult(job.name, error=f"{job.path}: out of memory linting {what} "
                                          "(max-file-size can refuse such files)")
    diagnostics = tuple(diagnostics)
    if digest is not None and not any(d.code == "X001" for d in diagnostics):
        cache.put(job.name, job.key, job.ignored, digest, diagnostics)
    return FileResult(job.name, diagnostics, text=text if keep_text and diagnostics else None,
                      rendered=None if render is None else tuple(map(render, diagnostics)))


_WORKER: dict = {}


def _init_worker(selection: Selection, keep_text: bool, cache: ResultCache | None = None,
                 parent: int | None = None, render: Callable[[Diagnostic], str] | None = None) -> None:
    if parent is not None and parent != os.getpid():  # a forked worker, not a test's pool
        _die_with_parent(parent)
    _WORKER["args"] = (selection, keep_text, cache, render)


def _die_with_parent(parent: int) -> None:
    """On Linux, ask the kernel to send this worker SIGTERM when the process that forked it
    ends, however it ends (``kill PID``, ``timeout``, SIGKILL): otherwise the workers would wait
    for work for ever, holding the run's standard output open. Elsewhere, nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the request was made
        os._exit(1)


def _lint_chunk(chunk: Sequence[Job]) -> list[tuple]:
    """Lint ``chunk`` in a worker; the results as :func:`_pack` sends them."""
    args = _WORKER["args"]
    return _pack([lint_job(job, *args) for job in chunk])


def _pack(results: list[FileResult]) -> list[tuple]:
    """``results`` as tuples, each diagnostic as the tuple of its fields: what a worker sends.
    Unpickling a frozen slotted dataclass runs a Python ``__setstate__`` per object, which made
    receiving the results a good part of this process's share of a parallel run (:func:`_unpack`
    rebuilds them for less than half of that)."""
    fields = _diagnostic_fields()
    return [(r.name, tuple(map(fields, r.diagnostics)), r.error, r.text, r.rendered) for r in results]


def _unpack(packed: list[tuple]) -> list[FileResult]:
    """The results :func:`_pack` made."""
    return [FileResult(name, tuple([Diagnostic(*fields) for fields in diagnostics]), error, text, rendered)
            for name, diagnostics, error, text, rendered in packed]


@functools.cache
def _diagnostic_fields() -> Callable[[Diagnostic], tuple]:
    """The fields of a diagnostic, in the order of :class:`Diagnostic`'s arguments."""
    from dataclasses import fields
    return operator.attrgetter(*(f.name for f in fields(Diagnostic)))


def _chunk_size(left: int, workers: int) -> int:
    """The files of the next chunk for the pool when ``left`` files are not taken yet: a
    quarter of each worker's share, 1 to 32 files. Large chunks first (few round trips),
    ever smaller ones towards the end (guided scheduling), so that when one worker has
    nothing left to lint, another has at most a few files' work left in hand, not a
    whole chunk of ~20 (one CPU idled that long)."""
    return max(1, min(32, -(-left // (workers * 4))))  # (the ceiling of left / (workers * 4))


def _executor():
    """``concurrent.futures.ProcessPoolExecutor`` (a function so that tests can replace it)."""
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor


def _context():
    """``fork`` on Linux (workers inherit the loaded modules: fast start), the
    platform default elsewhere (``spawn``; ``python -m`` and the console script are
    both safe to re-import)."""
    import multiprocessing

    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def lint_jobs(jobs: Sequence[Job], selection: Selection, *, workers: int = 1, keep_text: bool = False,
              progress: Callable[[int, int], None] | None = None,
              cache: ResultCache | None = None, render: Callable[[Diagnostic], str] | None = None) -> list[FileResult]:
    """Lint every job; results in job order. ``workers > 1`` uses a process pool.

    ``progress(done, total)`` is called after each file (serial) or chunk (pool).
    ``cache`` receives the results (see :func:`lint_all` to look them up first).
    ``render`` (a module-level function: a spawned worker imports it) is applied to every
    diagnostic where its file is linted (:attr:`FileResult.rendered`).
    """
    return list(iter_results(jobs, selection, workers=workers, keep_text=keep_text, progress=progress, cache=cache,
                             render=render))


def lint_all(jobs: Sequence[Job], selection: Selection, *, workers: int | None = None, keep_text: bool = False,
             progress: Callable[[int, int], None] | None = None,
             cache: ResultCache | None = None, render: Callable[[Diagnostic], str] | None = None) -> list[FileResult]:
    """Lint every job, results in job order, answering from ``cache`` where it can: the
    entries are looked up first (in this process), then the files left are linted in
    ``workers`` processes (``None``: :func:`plan_workers` decides from their number and size,
    so a run of cache hits never starts a pool) and stored. ``render``: as for
    :func:`lint_jobs` (a cached result gets its ``rendered`` here)."""
    total = len(jobs)
    results: list[FileResult | None] = [None] * total
    todo: list[int] = []
    if cache is not None:
        for i, job in enumerate(jobs):
            results[i] = hit = lookup(job, cache, keep_text)
            if hit is None:
                todo.append(i)
            elif render is not None and not hit.error:
                results[i] = replace(hit, rendered=tuple(map(render, hit.diagnostics)))
    else:
        todo = list(range(total))
    done = total - len(todo)
    if progress and done:
        progress(done, total)
    misses = [jobs[i] for i in todo]
    if workers is None:
        workers = plan_workers(len(misses), None, input_bytes(misses))
    else:
        workers = plan_workers(len(misses), workers)  # (at most the files, and twice the CPUs)

    def moved(n: int, _total: int) -> None:
        progress(done + n, total)

    linted = iter_results(misses, selection, workers=workers, keep_text=keep_text,
                          progress=moved if progress else None, cache=cache, render=render)
    # (run to its end, not stopped by zip after the last result: a pool left suspended was shut
    # down late, from GeneratorExit, racing Python's exit handler: "OSError: Bad file descriptor")
    for k, result in enumerate(linted):
        results[todo[k]] = result
    return results  # type: ignore[return-value]


def iter_results(jobs: Sequence[Job], selection: Selection, *, workers: int = 1, keep_text: bool = False,
                 progress: Callable[[int, int], None] | None = None,
                 cache: ResultCache | None = None, render: Callable[[Diagnostic], str] | None = None
                 ) -> Iterator[FileResult]:
    """Like :func:`lint_jobs`, yielding results in job order as they are ready."""
    total = len(jobs)
    done = 0
    args = (selection, keep_text, cache, render)  # lint_job's after the job
    if workers <= 1 or total < 2:
        for job in jobs:
            yield lint_job(job, *args)
            done += 1
            if progress:
                progress(done, total)
        return
    from concurrent.futures.process import BrokenProcessPool  # imported only for a pool (start-up time)

    try:
        # ``workers`` processes in the pool; this one hands them chunks from the front, a few
        # ahead of the one awaited, and yields the results in job order as they come (it lints
        # nothing itself: a process that lints and collects results too fell behind the pool's
        # workers, which left the other CPU idle at the end: --jobs 2 gave 1.44× where two
        # independent processes give 1.81×, all-pool 1.66×). None is cancelled: CPython 3.11's
        # pool, when a worker dies, fails every pending future and stops on a cancelled one,
        # hanging the run.
        gc.freeze()  # forked workers then share the parent's objects instead of copying them
        pool_size = min(workers, total)
        with _executor()(max_workers=pool_size, mp_context=_context(),
                         initializer=_init_worker, initargs=(selection, keep_text, cache, os.getpid(), render)) as pool:
            ahead = 3 * pool_size  # chunks submitted and not yet finished (top_up): no worker idles
            chunks: deque = deque()  # the futures of the chunks submitted and not yielded, in job order
            front = 0  # jobs[front:]: taken by no chunk yet

            def top_up() -> None:
                # Keep ``ahead`` chunks submitted and not finished: a worker that finishes finds
                # the next one already queued.
                nonlocal front
                pending = sum(1 for f in chunks if not f.done())
                while front < total and pending < ahead:
                    end = front + _chunk_size(total - front, workers)
                    chunks.append(pool.submit(_lint_chunk, jobs[front:end]))
                    front = end
                    pending += 1

            try:
                while done < total:
                    top_up()
                    # the chunk holding job ``done``: the oldest submitted, so the first a worker
                    # took (the pool's queue is first in, first out); the ones queued behind it
                    # keep the workers busy meanwhile
                    results = _unpack(chunks[0].result())
                    chunks.popleft()
                    yield from results
                    done += len(results)
                    if progress:
                        progress(done, total)
            except BaseException:
                # Ctrl-C, a broken pool, a consumer that stopped: the workers finish the chunk
                # they hold, not every chunk still queued, before the pool shuts down. Waited
                # for here: shutdown(wait=False) forgets the pool's thread, so the `with` could
                # not wait for it, and Python's exit then raced it (OSError: Bad file descriptor).
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    except (BrokenProcessPool, OSError, PermissionError):
        # No pool here (no semaphores, a worker killed): lint what is left in-process.
        # Results already yielded are in order, so the output stays the same.
        pass
    finally:
        gc.unfreeze()
    for job in jobs[done:]:
        yield lint_job(job, *args)
        done += 1
        if progress:
            progress(done, total)

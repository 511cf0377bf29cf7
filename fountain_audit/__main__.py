"""``python -m fountain_audit`` and the ``fountain-audit`` console script (:func:`run_process`, which
runs :func:`run`)."""

import sys


def run() -> None:
    """Run the command line. Standard input and output are guarded first
    (:mod:`fountain_audit.stdio`): failing to read or write them ends the run with one line naming
    the stream and status 2, for every command. ``fountain-audit --version`` (alone) is answered here, and
    ``fountain-audit lint ...`` runs here without click when its arguments are plain
    (:func:`fountain_audit.commands.fast.lint`): importing click is most of their start-up
    (issue 9). Every other invocation, ``--help`` included, goes to
    :data:`fountain_audit.cli.main.main`."""
    from fountain_audit import stdio
    stdio.guard()  # errors of standard input and output name the stream (see _flush_stdout)
    try:
        _main()
    except OSError as e:
        if stdio.failed_stream(e) is None:
            raise
        stdio.give_up(e)  # one line naming the stream, status 2
    except SystemExit as e:
        _flush_stdout(reported=e.code == 2)
        raise
    else:
        _flush_stdout()


def run_process() -> None:
    """The process's entry point (the ``fountain-audit`` console script, ``python -m
    fountain_audit``): :func:`run`, then the process ends with the run's exit status
    (``sys.exit``'s: ``None`` is 0) without the interpreter's teardown of every module and object
    (:func:`_end_process`; a few milliseconds of a lint's start-up and exit, issue 9). What
    :func:`run` raises other than :class:`SystemExit` (a traceback, ``KeyboardInterrupt``) ends
    the process as before."""
    try:
        run()
    except SystemExit as e:
        _end_process(e)
        raise
    _end_process(SystemExit(0))


def _end_process(done: SystemExit) -> None:
    """End the process now with ``done``'s status, as the interpreter would have ended it: the
    functions registered with :mod:`atexit` run, standard output and standard error are flushed,
    then ``os._exit``. Returns (the caller then lets the interpreter end the process as usual)
    where that could differ: a status that is not a number or ``None`` (the interpreter prints
    it), another thread still running (the interpreter waits for it), or a flush that fails (the
    interpreter reports it, status 120)."""
    code = 0 if done.code is None else done.code
    if type(code) is not int or not 0 <= code <= 255:
        return
    threading = sys.modules.get("threading")
    if (threading is not None and threading.active_count() > 1) or not _flushed():
        return
    import atexit
    atexit._run_exitfuncs()  # (and forgets them: were this to return, they would not run twice)
    if not _flushed():
        return
    import os
    os._exit(code)


def _flushed() -> bool:
    """Flush standard output and standard error; False if either fails."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:  # noqa: BLE001 - the interpreter's own flush reports it, as it always did
        return False
    return True


def _flush_stdout(reported: bool = False) -> None:
    """Standard output's last flush, here rather than as the interpreter exits (where a failure
    prints "Exception ignored ..." and exits 120): failing to write it (``> /dev/full``) is one
    line naming the stream and status 2 (:func:`fountain_audit.stdio.give_up`), unless the run
    already ends with status 2 (``reported``: the command said what failed, e.g. diff's "cannot
    write the report"); a reader that went away (``EPIPE``) keeps the status."""
    import errno
    from fountain_audit import stdio
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as e:
        if e.errno != errno.EPIPE and stdio.failed_stream(e) is not None and not reported:
            stdio.give_up(e)
        stdio.discard_stdout()


def _main() -> None:
    if sys.argv[1:] in (["--version"], ["-V"]):
        from fountain_audit import __version__
        sys.stdout.write(f"fountain-audit, version {__version__}\n")
        sys.stdout.flush()
        return
    from fountain_audit.commands.common import safe_output_streams
    safe_output_streams()  # a non-UTF-8 stdout/stderr: escapes, not UnicodeEncodeError
    signal = _signal_module()
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)
    import atexit
    import gc

    # The interpreter's last full collection at exit (over every object the run made) is skipped:
    # the process ends and frees its memory; the finalizers of any garbage cycles still run as the
    # modules are torn down (start-up and exit: issue 9). (An atexit function: it runs before that
    # collection, and only when the process ends.)
    atexit.register(gc.disable)
    try:
        _run(sys.argv[1:])
    except SystemExit as e:
        if e.code == 1 and _INTERRUPTED:  # click's (and the fast path's) "Aborted!", status 1
            raise SystemExit(130) from None
        raise


#: Set when SIGINT (Ctrl-C) arrived: the run then ends with status 130 (128 + SIGINT, as shells
#: report it), not 1, which means "findings".
_INTERRUPTED = False


def _on_sigint(signum, frame) -> None:
    """Python's own SIGINT handler (``KeyboardInterrupt``), noting that it ran."""
    global _INTERRUPTED
    _INTERRUPTED = True
    _signal_module().default_int_handler(signum, frame)


def _signal_module():
    """CPython's C signal module ``_signal`` (the same ``getsignal``, ``signal``, ``SIGINT`` and
    ``default_int_handler``): :mod:`signal` wraps it in enum classes of every signal and handler,
    a millisecond of every command's start-up (issue 9); :mod:`signal` where there is none."""
    try:
        import _signal
    except ImportError:  # pragma: no cover - not CPython
        import signal as _signal
    return _signal


def _run(args: list[str]) -> None:
    if args[:1] == ["lint"]:
        from fountain_audit.commands.fast import lint
        if lint(args[1:]):
            return
    from fountain_audit.cli.main import main
    main()


if __name__ == "__main__":
    run_process()

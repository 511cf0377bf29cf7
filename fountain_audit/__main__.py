"""``python -m fountain_audit`` and the ``fountain-audit`` console script (:func:`run`)."""

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
    run()

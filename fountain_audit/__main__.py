"""``python -m fountain_audit`` and the ``fountain-audit`` console script (:func:`run`)."""

import sys


def run() -> None:
    """Run the command line. ``fountain-audit --version`` (alone) is answered here, and
    ``fountain-audit lint ...`` runs here without click when its arguments are plain
    (:func:`fountain_audit.commands.fast.lint`): importing click is most of their start-up
    (issue 9). Every other invocation, ``--help`` included, goes to
    :data:`fountain_audit.cli.main.main`."""
    args = sys.argv[1:]
    if args in (["--version"], ["-V"]):
        from fountain_audit import __version__
        sys.stdout.write(f"fountain-audit, version {__version__}\n")
        sys.stdout.flush()
        return
    from fountain_audit.commands.common import safe_output_streams
    safe_output_streams()  # a non-UTF-8 stdout/stderr: escapes, not UnicodeEncodeError
    if args[:1] == ["lint"]:
        from fountain_audit.commands.fast import lint
        if lint(args[1:]):
            return
    from fountain_audit.cli.main import main
    main()


if __name__ == "__main__":
    run()

"""``python -m fountain_audit`` and the ``fountain-audit`` console script (:func:`run`)."""

import sys


def run() -> None:
    """Run the command line. ``fountain-audit --version`` (alone) is answered here, before
    click and the command group are imported: it is the start-up figure users feel most
    (issue 9); every other invocation, ``--help`` included, goes to
    :data:`fountain_audit.cli.main.main`."""
    if sys.argv[1:] in (["--version"], ["-V"]):
        from fountain_audit import __version__
        sys.stdout.write(f"fountain-audit, version {__version__}\n")
        sys.stdout.flush()
        return
    from fountain_audit.cli.main import main
    main()


if __name__ == "__main__":
    run()

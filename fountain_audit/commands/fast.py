"""``fountain-audit lint`` without click: importing click (and what it imports: inspect,
typing, uuid, datetime ...) costs more than a lint whose result is cached (issue 9).

:func:`lint` reads the arguments with :func:`fountain_audit.commands.argv.parse` and runs
:func:`fountain_audit.commands.lint.run_lint` as click's command would, with click's
standalone handling of Ctrl-C and a closed pipe. Anything the small reader does not accept
(``--help``, an unknown option, a bad value ...) goes to click unchanged, as does a usage error
met while running (click prints it, with its usage line and hint). ``FOUNTAIN_AUDIT_CLICK=1``
sends every invocation to click (for comparing the two paths).
"""

from __future__ import annotations

import codecs
import os
import sys


def lint(args: list[str]) -> bool:
    """Run ``fountain-audit lint ARGS`` (``args``: the arguments after ``lint``) if the fast path
    can; returns False, having done nothing, when click must run it instead. Exits
    (``sys.exit``) with the command's status as click would, or returns True for status 0."""
    if not _plain_environment():
        return False
    _import_dataclasses_without_inspect()  # before the option table: it imports the configuration
    from fountain_audit.commands.argv import parse
    from fountain_audit.commands.lint_options import OPTIONS

    params = parse(args, OPTIONS)
    if params is None:
        return False
    from fountain_audit.commands.common import UsageError, echo
    from fountain_audit.commands.lint import run_lint

    try:
        run_lint(**params)
    except UsageError as e:
        report_usage_error(e.message)
    except (EOFError, KeyboardInterrupt):  # as click's standalone mode: a blank line, "Aborted!", status 1
        echo(err=True)
        echo("Aborted!", err=True)
        sys.exit(1)
    except OSError as e:
        import errno
        if e.errno != errno.EPIPE:
            raise
        from click.utils import _PacifyFlushWrapper  # a closed pipe, as click handles it: status 1, quietly
        sys.stdout = _PacifyFlushWrapper(sys.stdout)
        sys.stderr = _PacifyFlushWrapper(sys.stderr)
        sys.exit(1)
    return True


def report_usage_error(message: str) -> None:
    """Print ``message`` as click prints a usage error of ``lint`` (usage line, help hint,
    ``Error: ...``; program name and colour as click finds them) and exit 2: the click command
    is run on the same arguments, told to raise this error instead of linting."""
    from fountain_audit.cli import lint as command
    from fountain_audit.cli.main import main

    command.replay_usage_error = message
    main()


class _Deferred(type(sys)):
    """Stands for a module not imported yet: the first attribute read imports it."""

    def __getattr__(self, name: str):
        import importlib
        return getattr(importlib.import_module(self.__name__), name)


def _import_dataclasses_without_inspect() -> None:
    """Import :mod:`dataclasses` with its ``inspect`` deferred: ``dataclasses`` imports
    ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``: about a tenth of a warm-cache
    run's start-up) for one call, made only for a dataclass without a docstring. Its
    ``inspect`` is a stand-in that imports the real module on first use; every other
    ``import inspect`` gets the real module (the stand-in is in ``sys.modules`` only while
    ``dataclasses`` is imported)."""
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    sys.modules["inspect"] = _Deferred("inspect")
    try:
        import dataclasses  # noqa: F401
    finally:
        if type(sys.modules.get("inspect")) is _Deferred:
            del sys.modules["inspect"]


def _plain_environment() -> bool:
    """False when click would behave differently from the fast path's printing or must run:
    ``FOUNTAIN_AUDIT_CLICK`` set, shell completion asked for (``_..._COMPLETE``), or a
    standard stream without an encoding or with an ASCII one (click then writes through a
    UTF-8 wrapper of its own)."""
    if os.environ.get("FOUNTAIN_AUDIT_CLICK"):
        return False
    if any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return False
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if stream is None or not encoding or getattr(stream, "errors", None) is None:
            return False
        try:
            if codecs.lookup(encoding).name == "ascii":
                return False
        except LookupError:
            return False
    return True

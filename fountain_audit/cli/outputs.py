"""Where ``lint`` output goes: ``--output FILE`` written atomically, and the
progress bar on standard error.

A report file is written to a temporary file in the same directory and renamed
over the target (``os.replace``), so a reader never sees half a report and a
failed run leaves the previous report in place.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any



def is_same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """True when paths ``a`` and ``b`` name the same file (same inode, or the same
    resolved path when ``a`` does not exist yet)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        pass
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except FileNotFoundError:  # a relative path, and the current directory was removed: none there
        return False


from fountain_audit.atomic import TEMP_INFIX, write_atomic  # noqa: E402,F401  (re-exported)


class LazyProgress:
    """A transient rich progress bar on standard error that appears only once a run
    has lasted ``delay`` seconds (short runs never show it). Call it as the
    runner's ``progress(done, total)``; :meth:`close` removes it."""

    def __init__(self, console=None, delay: float = 0.5) -> None:
        if console is None:
            from rich.console import Console  # only for a progress bar on a terminal
            console = Console(stderr=True)
        self.console = console
        self.delay = delay
        self.started = time.monotonic()
        self.bar = None
        self.task = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if done >= total or time.monotonic() - self.started < self.delay:
                return
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
            self.bar = Progress(TextColumn("Linting"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
                                TimeRemainingColumn(), console=self.console, transient=True)
            self.bar.start()
            self.task = self.bar.add_task("lint", total=total)
        self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def utf8_stdout(errors: str = "strict"):
    """Standard output as a UTF-8 text writer, whatever the locale says (reports hold
    non-ASCII text such as the em dash). Writes go to the binary stream; nothing is
    closed when the writer is dropped. (click's ``get_text_stream``/``get_binary_stream`` are deprecated.)
    """
    import codecs

    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # an already text-only stream (an embedding host): write to it as is
        return sys.stdout
    writer = codecs.getwriter("utf-8")(binary, errors)
    writer.isatty = lambda: sys.stdout.isatty()  # type: ignore[method-assign]
    return writer


def write_document(document: dict, fmt: str, render: Callable[[dict], str],
                   redactor: Callable[[Any], Any] | None = None) -> None:
    """Write an audit document (``show``, ``provenance``) to standard output: ``fmt="json"`` as
    indented JSON (well-formed: undecodable bytes as U+FFFD, see :func:`fountain_audit.dump.encode_json`),
    ``"text"`` as ``render(document)``.

    The one place every ``show``/``provenance`` output passes through: a transformation of
    the whole document (such as redaction) belongs here, before both formats.
    """
    from fountain_audit.dump import encode_json, redaction_note

    if redactor:  # --redact: every string of the document, so both formats are redacted alike
        document = {**redactor(document), "redaction": redaction_note(redactor)}
    out = utf8_stdout("strict")
    out.write(encode_json(document, indent=2) + "\n" if fmt == "json" else render(document))
    out.flush()


def use_color(flag: bool | None) -> bool:
    """``--color/--no-color`` when given; else what the environment asks for (``NO_COLOR``: off,
    ``FORCE_COLOR``: on, also when piped; see :func:`fountain_audit.commands.common.env_color`),
    else colour only on a terminal."""
    if flag is not None:
        return flag
    from fountain_audit.commands.common import env_color

    env = env_color()
    return env if env is not None else sys.stdout.isatty()

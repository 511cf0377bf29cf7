"""The ``fountain-audit diff A B`` command (a self-contained click command; register it with
``main.add_command(diff)``). The engine is :mod:`fountain_audit.diff`.

Exit status, as diff(1): 0 no differences after normalisation (and ``--only``), 1 differences,
2 trouble (usage error, unreadable file, not a Harvey session or one with no chat turns, failure
to write); trouble is
never reported as a difference, even on an unexpected internal error.
"""

from __future__ import annotations

import os
import sys

import click

import fountain_audit.diff as diffing
from fountain_audit.dump import encode_json
from fountain_audit.cli.outputs import utf8_stdout
from fountain_audit.diff.sides import side_of
from fountain_audit.parse.source import decode_bytes
from fountain_audit.untrusted import terminal_safe, one_line


def _split(values: tuple[str, ...]) -> list[str]:
    return [v.strip() for raw in values for v in raw.split(",") if v.strip()]


def _read(path: str, options: diffing.Options, stdin_used: list[bool], redact=None,
          same_as: diffing.Side | None = None, stdin_text: str | None = None,
          stdin_name: str | None = None) -> diffing.Side:
    """One side, its document built only when read (see :func:`fountain_audit.diff.make_side`);
    ``redact`` (a :class:`_Redaction`) rewrites its text and its name first; ``same_as``: the
    other side, shared when this file's text is the same (not parsed again); ``stdin_text``:
    standard input, when it was read already (see :meth:`_Redaction.pool`); ``stdin_name``: the
    name shown for standard input (``--stdin-filename``, else ``-``)."""
    name = redact.name(path) if redact else path
    if path == "-":
        if stdin_used[0]:
            raise diffing.DiffError("-: standard input can be only one side")
        stdin_used[0] = True
        text = _read_stdin() if stdin_text is None else stdin_text
        shown = stdin_name or "-"
        return side_of(redact.name(shown) if redact else shown, redact(text) if redact else text, options,
                       build=False, same_as=same_as)
    return diffing.read_side(path, options, name, redact, build=False, same_as=same_as)


def _read_quietly(path: str) -> str:
    """The text of ``path``, or ``""`` when it cannot be read (reading the side says why)."""
    from fountain_audit.parse.source import read_path

    try:
        return read_path(path)
    except OSError:
        return ""


def _read_stdin() -> str:
    try:
        return decode_bytes(sys.stdin.buffer.read())
    except OSError as e:  # (closed: `<&-`; a directory: `< dir`)
        raise diffing.DiffError(f"-: cannot read: {e.strerror or e}") from None


class _Redaction:
    """Redacts each side's session text before the diff (so no output format can show what
    was replaced) and the file names, with one redactor that has learnt both sides (see
    :meth:`pool`): a value that only one side shows to be a secret (``password: X`` in A, ``X``
    alone in B) is replaced on both sides, as ``dump`` and ``export`` do across their inputs."""

    def __init__(self, secrets: bool, paths: bool):
        from fountain_audit.privacy.redact import Redactor

        self.secrets, self.paths = secrets, paths
        self.redactor = Redactor(secrets=secrets, paths=paths)

    def pool(self, texts: list[str]) -> None:
        """Learn each side's text (its secrets, workspaces and home users) before either is redacted."""
        from fountain_audit.model.session import build_session
        from fountain_audit.parse.fountain import parse

        for text in texts:
            self.redactor.learn(build_session(parse(text)), text)

    def __call__(self, text: str) -> str:
        from fountain_audit.privacy.redact import redact_text

        return redact_text(text, redactor=self.redactor)

    def name(self, path: str) -> str:
        return self.redactor.text(path)


@click.command("diff", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--format", "--output-format", "output_format", type=click.Choice(["auto", "rich", "unified", "json"]),
              default="auto", show_default=True,
              help="rich: coloured hunks (the default on a terminal); unified: plain text (the default otherwise); "
                   "json: summary, changes with JSON pointers, RFC 6902 patch.")
@click.option("--stat", is_flag=True, help="Print the counts only.")
@click.option("--only", "only", multiple=True, metavar="WHAT,...",
              help=f"Only these changes: {', '.join(diffing.CATEGORIES)} (repeatable or comma-separated).")
@click.option("--compare-timestamps", is_flag=True, help="Also compare scene and model-switch timestamps.")
@click.option("--compare-stats", is_flag=True, help="Also compare stats lines.")
@click.option("--compare-workspace", is_flag=True, help="Also compare the Workspace: path.")
@click.option("--compare-all", is_flag=True, help="All of --compare-timestamps, --compare-stats, --compare-workspace.")
@click.option("--color/--no-color", default=None, help="Colour the rich output (default: when a terminal).")
@click.option("--redact", is_flag=True, help="Make the output shareable: both sessions are redacted before they are "
                                              "compared (secrets become <redacted:KIND>, the workspace <workspace>, "
                                              "home directories <home>).")
@click.option("--redact-paths", is_flag=True, help="Only the path part of --redact: <workspace> and <home>.")
@click.option("--stdin-filename", metavar="PATH", help="Name to report for '-' (standard input).")
def diff(a, b, output_format, stat, only, compare_timestamps, compare_stats, compare_workspace, compare_all, color,
         redact, redact_paths, stdin_filename):
    """Compare two Harvey sessions turn by turn.

    A and B are session files ('-' for standard input, once). Timestamps, stats lines and the
    workspace path are ignored unless --compare-* asks for them. Scenes, then turns, then
    their notes are aligned, so a turn that changed is shown as changed (user input, tool
    calls, RAG and recall, reply, model), not as removed plus added. Turns are paired by
    their user input (a replay asks the same questions): an input reworded until it is less
    than half alike is another question, shown as a turn removed and one added.

    \b
    Examples:
      fountain-audit diff before.spmd after.spmd
      fountain-audit diff --only tools --stat a.spmd b.spmd
      fountain-audit diff --format json a.spmd b.spmd | jq .patch
      fountain-audit diff --redact original.spmd replay.spmd > shareable.diff

    Exit status: 0 no differences, 1 differences, 2 trouble (unreadable file, not a Harvey
    session or one with no chat turns, usage error).
    """
    categories = _split(only)
    if only and not categories:  # (`--only ''`, `--only ,`: an empty CI variable would widen the comparison)
        raise click.UsageError(f"--only names no change category (choose from {', '.join(diffing.CATEGORIES)}; "
                               "leave --only out to compare everything)")
    bad = [c for c in categories if c not in diffing.CATEGORIES]
    if bad:
        from fountain_audit.suggest import did_you_mean
        raise click.UsageError(f"unknown --only value {bad[0]!r}{did_you_mean(bad[0], diffing.CATEGORIES)} "
                               f"(choose from {', '.join(diffing.CATEGORIES)})")
    options = diffing.Options(timestamps=compare_timestamps or compare_all, stats=compare_stats or compare_all,
                             workspace=compare_workspace or compare_all)
    try:
        stdin_used = [False]
        redaction = _Redaction(redact, redact or redact_paths) if redact or redact_paths else None
        stdin_text = None
        if redaction is not None:  # both sides learnt before either is redacted
            if "-" in (a, b):
                stdin_text = _read_stdin()
            redaction.pool([stdin_text if p == "-" else _read_quietly(p) for p in dict.fromkeys((a, b))])
        if stdin_filename and "-" not in (a, b):
            from fountain_audit.commands.common import warn_unused_stdin_filename
            warn_unused_stdin_filename("A or B")
        side_a = _read(a, options, stdin_used, redaction, stdin_text=stdin_text, stdin_name=stdin_filename)
        side_b = _read(b, options, stdin_used, redaction, side_a, stdin_text, stdin_filename)
        result = diffing.diff_sides(side_a, side_b, options).filtered(categories or None)
    except diffing.DiffError as e:
        click.secho(f"fountain-audit: error: {one_line(str(e))}", err=True, fg="red")
        sys.exit(2)
    except Exception as e:  # noqa: BLE001 - an internal error is trouble (2), never a difference (1)
        click.secho(f"fountain-audit: internal error: {type(e).__name__}: {one_line(str(e))}", err=True,
                    fg="red")
        sys.exit(2)
    status = 1 if result.differences else 0
    try:
        _write(result, output_format, stat, color)
    except BrokenPipeError:  # the reader went away: stop quietly, with the diff's status
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(status)
    except Exception as e:  # noqa: BLE001
        from fountain_audit import stdio
        if stdio.failed_stream(e) is not None:
            raise  # (standard output itself: one line naming it, as every command says it)
        click.secho(f"fountain-audit: error: cannot write the report: {type(e).__name__}: {one_line(str(e))}", err=True,
                    fg="red")
        sys.exit(2)
    sys.exit(status)


def _write(result: diffing.DiffResult, output_format: str, stat: bool, color: bool | None) -> None:
    if output_format == "json":
        out = utf8_stdout("strict")
        out.write(encode_json(result.to_json(stat=stat), indent=2) + "\n")
        out.flush()
        return
    out = utf8_stdout("surrogateescape")
    if color is None:  # NO_COLOR / FORCE_COLOR (also when piped), as for every command
        from fountain_audit.commands.common import env_color
        color = env_color()
    if output_format == "auto":
        output_format = "rich" if (color or (color is None and out.isatty())) else "unified"
    if output_format == "unified":
        out.write(diffing.render_unified(result, stat))
        out.flush()
        return
    from rich.console import Console

    console = Console(file=out, force_terminal=True if color else None, no_color=True if color is False else None,
                      highlight=False, soft_wrap=True, emoji=False, markup=False)
    diffing.render_rich(result, console, stat)
    out.flush()

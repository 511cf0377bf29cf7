"""The ``fountain-audit show FILE ID...`` command: wiring only (the work is
:mod:`fountain_audit.audit.show`).

Exit status: 0 shown; 2 usage error (unknown id, bad ``--lines``) or unreadable FILE, with a
message on standard error and nothing on standard output.
"""

from __future__ import annotations

import os
import sys

import click

from fountain_audit.cli.outputs import use_color, write_document
from fountain_audit.untrusted import terminal_safe, one_line


def read_session(path: str, redact: bool = False, redact_paths: bool = False, warn: bool = True,
                 stdin_filename: str | None = None):
    """``(name, session)`` of FILE (``-``: standard input, named ``stdin_filename`` when given,
    as lint and dump name it); exits 2 when it cannot be read.
    With ``redact``/``redact_paths``: ``(name, session, redactor)``, the redactor having
    learnt the session (see :mod:`fountain_audit.privacy.redact`). An empty, blank or binary
    FILE is warned about (:func:`warn_content`) unless ``warn`` is false (for a caller that
    refuses such a file with an error saying the same)."""
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse
    from fountain_audit.parse.source import decode_bytes, read_path, why_unreadable

    if stdin_filename and path != "-":
        from fountain_audit.commands.common import warn_unused_stdin_filename
        warn_unused_stdin_filename("FILE")
    try:
        text = decode_bytes(sys.stdin.buffer.read()) if path == "-" else read_path(path)
    except OSError as e:
        fail(f"{path}: {why_unreadable(path, e)}")
    if path == "-" and stdin_filename:
        path = stdin_filename
    if warn:
        warn_content(path, text)
    session = build_session(parse(text))
    if redact or redact_paths:
        from fountain_audit.privacy.redact import Redactor

        red = Redactor(secrets=redact).learn(session, text)
        return red.text(path), session, red
    return path, session


def warn_content(path: str, text: str) -> None:
    """Warn that FILE is empty, blank or binary (then it is answered as any file is)."""
    from fountain_audit.parse.source import describe_content

    what = describe_content(text)
    if what is not None:
        click.secho(f"fountain-audit: warning: {one_line(path)}: {what}", err=True, fg="yellow")


def fail(message: str) -> None:
    """Print ``fountain-audit: error: MESSAGE`` (terminal-safe; the prefix of every command's
    errors) and exit 2."""
    click.secho(f"fountain-audit: error: {one_line(message)}", err=True, fg="red")
    sys.exit(2)


@click.command("show", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", metavar="FILE")
@click.argument("ids", metavar="ID...", nargs=-1, required=True)
@click.option("--lines", "lines", metavar="A:B",
              help="Only lines A to B of each element (1-based, inclusive, relative to the element; "
                   "'A:', ':B' and 'N' (line N alone) are accepted). An end past the element is clamped "
                   "(noted on stderr).")
@click.option("--format", "--output-format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: the lines with their numbers; json: each element's dump record "
                                      "plus 'text' and the applied 'lines' (see 'fountain-audit schema show').")
@click.option("--color/--no-color", default=None, help="Colour lines by element kind (default: on a terminal).")
@click.option("--redact", is_flag=True, help="Make the output shareable: secrets become <redacted:KIND>, the "
                                              "workspace <workspace>, home directories <home> (spans still count "
                                              "positions in the original file).")
@click.option("--redact-paths", is_flag=True, help="Only the path part of --redact.")
@click.option("--stdin-filename", metavar="PATH", help="Name to report for '-' (standard input).")
def show(file, ids, lines, output_format, color, redact, redact_paths, stdin_filename):
    """Print the exact recorded text of elements of a session, by id.

    FILE is a session file ('-' for standard input). Ids are those 'fountain-audit dump'
    prints: s3 (scene), t3 (turn), t3.reply, t3.tool2, t3.rag1, s9.write1,
    recall:ID, n4 (AST node), doc, L120 (a line); see the README section 'Ids'.
    Several ids print in order. Control characters in the session are shown escaped
    (\\x1b, \\u202e ...), never sent to the terminal.

    \b
    Examples:
      fountain-audit show session.spmd t3
      fountain-audit show session.spmd t3.tool2 t3.reply --lines 1:5
      fountain-audit show --format json session.spmd recall:workspace_profile_8c41d2

    Exit status: 0 shown, 2 unknown id, bad --lines or unreadable FILE.
    """
    from fountain_audit.audit import show as sh

    if redact or redact_paths:  # messages naming the file too (its own redactor, once read, below)
        from fountain_audit.commands.common import redact_messages
        redact_messages(redact, redact_paths)
    if file != "-" and not os.path.lexists(file):  # `show t3 session.spmd`, `show t3 t4 session.spmd`
        given = [file, *ids]
        named = next((k for k, x in enumerate(given) if k and os.path.isfile(x)), None)
        if named is not None:
            order = " ".join([given[named], *given[:named], *given[named + 1:]])
            fail(f"{file}: no such file; the session file comes first: fountain-audit show {order}")
    name, session, *red = read_session(file, redact, redact_paths, stdin_filename=stdin_filename)
    if red:
        from fountain_audit.commands.common import redact_messages
        redact_messages(redact, redact_paths, red[0])
    try:
        # (--redact: secrets are found in the whole file, then masked in the lines shown)
        document, notes = sh.show_document(session, name, list(ids), lines, red[0].cut if red else None)
    except sh.ShowError as e:
        fail(f"{name}: {e}")
    for note in notes:
        click.echo(f"fountain-audit: note: {terminal_safe(red[0].text(note) if red else note)}", err=True)
    styled = use_color(color)
    classes = sh.line_classes(session) if styled else None
    write_document(document, output_format,
                   lambda doc: sh.render_text(doc, classes, (lambda t, **kw: click.style(t, **kw)) if styled else None),
                   red[0] if red else None)

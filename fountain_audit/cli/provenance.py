"""The ``fountain-audit provenance FILE`` command: wiring only (the work is
:mod:`fountain_audit.audit.provenance`).

Exit status: 0, or 2 for an unreadable FILE, one that is not a Harvey session (a plain
screenplay, an empty or binary file), or a session with no chat turns (only shell scenes, say:
no reply to trace), with a message.
"""

from __future__ import annotations

import click

from fountain_audit.cli.outputs import use_color, write_document
from fountain_audit.cli.show import fail, read_session, warn_content


@click.command("provenance", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", metavar="FILE")
@click.option("--format", "--output-format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: a tree per reply; json: see 'fountain-audit schema provenance'.")
@click.option("--color/--no-color", default=None, help="Colour the text (default: on a terminal).")
@click.option("--redact", is_flag=True, help="Make the output shareable: secrets become <redacted:KIND>, the "
                                              "workspace <workspace>, home directories <home>.")
@click.option("--redact-paths", is_flag=True, help="Only the path part of --redact.")
@click.option("--stdin-filename", metavar="PATH", help="Name to report for '-' (standard input).")
def provenance(file, output_format, color, redact, redact_paths, stdin_filename):
    """Show, for every reply of a session, the evidence recorded before it in its turn.

    FILE is a session file ('-' for standard input). Per reply: the basis (recorded,
    none-recorded, unreadable-note or unknown, and why; 'incomplete:' and the notes when the
    turn also holds a note that could not be read), the route (local INT. or remote EXT.) and models,
    the RAG notes with their sources, the tool calls (who called, arguments, status), other
    notes, and by id the recall scene and model switch in force (listed once, with their
    scope, at the top). Every item has an id for 'fountain-audit show' and its lines.

    \b
    Examples:
      fountain-audit provenance session.spmd
      fountain-audit provenance --format json session.spmd | jq '.replies[] | [.reply, .basis]'

    Exit status: 0, or 2 for an unreadable FILE, one that is not a Harvey session, or a
    session with no chat turns (nothing to trace).
    """
    from fountain_audit.audit.provenance import render_text, session_provenance

    from fountain_audit.parse.source import describe_content

    name, session, *red = read_session(file, redact, redact_paths, warn=False, stdin_filename=stdin_filename)
    text = session.document.text
    if session.kind == "screenplay" or not session.turns:  # as diff: no reply to trace
        what = describe_content(text, session.kind)  # (empty, binary data, a plain screenplay ...)
        if what is None:  # a session (lint checks it as one) with nothing to trace: only shell scenes, say
            from fountain_audit.model.session import without_turns
            fail(f"{name}: {without_turns(session)}: nothing to show provenance for")
        fail(f"{name}: not a Harvey session: {what}")  # one line: the error says what a warning would
    warn_content(name, text)  # binary data around turns: traced, with a warning
    document = session_provenance(session, name)
    styled = use_color(color)
    write_document(document, output_format,
                   lambda doc: render_text(doc, (lambda t, **kw: click.style(t, **kw)) if styled else None),
                   red[0] if red else None)

"""``fountain-audit export``: wiring only (the work is in :mod:`fountain_audit.export`)."""

from __future__ import annotations

import os
import sys

import click

from fountain_audit.untrusted import terminal_safe, one_line

from fountain_audit.export import TARGETS


class _Seconds(click.FloatRange):
    """Seconds from 0.1 to a day: click's ``FloatRange``, which lets ``nan`` through (every
    comparison with it is false; the socket then raised ValueError)."""

    def convert(self, value, param, ctx):
        rv = super().convert(value, param, ctx)
        if rv != rv:
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return rv


_SECONDS = _Seconds(min=0.1, max=86400.0)


@click.command("export")
@click.argument("paths", nargs=-1, required=True)
@click.option("--to", "target", type=click.Choice(TARGETS),
              help="toolpath: one toolpath Graph (agent-coding-session v1.2.0), one Path per session; otlp-json: "
                   "one OTLP/JSON ExportTraceServiceRequest (OpenTelemetry GenAI spans), one trace per session. "
                   "Default with --endpoint: otlp-json.")
@click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the document to FILE (atomically) instead of standard output ('-': standard output, "
                   "also with --endpoint).")
@click.option("--endpoint", metavar="URL",
              help="Send the traces over OTLP/HTTP (protobuf) to URL, e.g. http://127.0.0.1:6006/v1/traces "
                   "(Phoenix). The document is printed only with -o.")
@click.option("--timeout", type=_SECONDS, default=10.0, show_default=True, metavar="SECONDS",
              help="How long to wait for the --endpoint.")
@click.option("--redact", is_flag=True, help="Make the output shareable: secrets become <redacted:KIND>, the "
                                              "workspace <workspace>, home directories <home>.")
@click.option("--redact-paths", is_flag=True, help="Only the path part of --redact: <workspace> and <home>.")
@click.option("--utc-offset", default="Z", show_default=True, metavar="OFFSET",
              help="The zone of the scene headings' times, which the files do not record: Z or ±HH:MM.")
@click.option("--fallback-time", metavar="TIME",
              help="Time (ISO 8601, e.g. 2026-08-03T14:20:00Z) for files with no scene heading timestamp at all; "
                   "without it such a file is an error.")
@click.option("--stdin-filename", metavar="PATH", help="Name to report for '-' (standard input).")
def export(paths, target, output_file, endpoint, timeout, redact, redact_paths, utc_offset, fallback_time, stdin_filename):
    """Export session files as a toolpath document or as OpenTelemetry GenAI traces.

    PATHS are files, directories (searched for *.spmd and *.fountain) or '-' for standard
    input; several sessions make one document (one Graph, or one request).

    Times come from the scene headings (read in --utc-offset, UTC by default); a file whose
    headings have no timestamp is an error unless --fallback-time gives one; a plain
    screenplay found in a directory is skipped with a warning. Trace, span,
    path and step ids are derived from the files' content: the same files export to the
    same bytes.

    \b
    Examples:
      fountain-audit export --to toolpath session.spmd -o session.path.json
      fountain-audit export --to otlp-json sessions/ > traces.json
      fountain-audit export --endpoint http://127.0.0.1:6006/v1/traces session.spmd
      fountain-audit export --to otlp-json --redact session.spmd > shareable.json

    Exit status: 0 done; 1 the --endpoint did not accept the traces; 2 usage error, an
    unreadable path, no session among the files found (nothing is written), a file with no
    timestamp or (otlp-json) with a time OTLP cannot carry, before 1970 or after 2554 (the
    other files are still exported).
    """
    from fountain_audit import dump as dm
    from fountain_audit.cli.main import _fail, discover, no_session_file, reader_gone, refuse_output_over_inputs
    from fountain_audit.commands.common import EMPTY_OUTPUT, PerReason, no_session_in
    from fountain_audit.cli.outputs import utf8_stdout, write_atomic
    from fountain_audit.export import render
    from fountain_audit.export.common import SessionExport
    from fountain_audit.export.timing import (Clock, FinerThanMicroseconds, NoOffset, NoTimestamp, parse_offset,
                                             parse_time)
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse
    from fountain_audit.parse.source import decode_bytes, describe_content, read_path

    if output_file == "":
        raise click.UsageError(EMPTY_OUTPUT)
    print_document = endpoint is None or output_file == "-"  # -o -: standard output, even with --endpoint
    if output_file == "-":
        output_file = None
    if target is None:
        if endpoint is None:
            raise click.UsageError("choose a target: --to toolpath or --to otlp-json")
        target = "otlp-json"
    if endpoint is not None and target != "otlp-json":
        raise click.UsageError("--endpoint sends traces: use it with --to otlp-json")
    if endpoint is not None:
        from fountain_audit.export.send import endpoint_problem, masked
        problem = endpoint_problem(endpoint)
        if problem is not None:
            raise click.BadParameter(f"{masked(endpoint)!r}: {problem}", param_hint="--endpoint")
    try:
        zone = parse_offset(utc_offset)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--utc-offset") from None
    fallback = None
    if fallback_time is not None:
        try:
            fallback = parse_time(fallback_time, zone)
        except (FinerThanMicroseconds, NoOffset) as e:
            raise click.BadParameter(str(e), param_hint="--fallback-time") from None
        except ValueError:
            raise click.BadParameter(f"not an ISO 8601 time: {fallback_time!r}", param_hint="--fallback-time") \
                from None
    clock = Clock(zone, fallback)
    redactor = dm.Redactor(secrets=redact, paths=redact or redact_paths)
    if redactor:  # messages naming a file too (the redactor learns each session as it is read)
        from fountain_audit.commands.common import redact_messages
        redact_messages(redact, redact_paths, redactor)

    if stdin_filename and "-" not in paths:  # (as lint, report, redact: said, not silently dropped)
        from fountain_audit.commands.common import warn_unused_stdin_filename
        warn_unused_stdin_filename("one of the paths")
    files, errors = discover(paths)
    if not files and not errors:
        _fail(no_session_file(paths))
    # files named on the command line are exported whatever they hold, however they are spelt
    # (./x, d/../x, a symlink) and even when a folder named before them holds them too
    named = {p if p == "-" else os.path.realpath(p) for p in paths if p == "-" or not os.path.isdir(p)}
    if output_file is not None:  # never write over a file we read
        refuse_output_over_inputs(output_file, files, "the export")
    for msg in errors:
        click.secho(f"fountain-audit: error: {one_line(msg)}", err=True, fg="red")
    sessions: list[SessionExport] = []
    told = PerReason(", not a session: skipped")
    for f in files:
        try:
            if f == "-":
                text, name = decode_bytes(sys.stdin.buffer.read()), stdin_filename or "-"
            else:
                text, name = read_path(f), f
        except OSError as e:
            errors.append(f"{f}: cannot read: {e.strerror or e}")
            click.secho(f"fountain-audit: error: {one_line(errors[-1])}", err=True, fg="red")
            continue
        in_folder = (f if f == "-" else os.path.realpath(f)) not in named  # found in a folder, not named
        what = describe_content(text)
        if what is not None:  # empty, blank, binary: nothing to export
            if in_folder:  # as dump and report: said, skipped, the folder's sessions exported
                click.secho(f"fountain-audit: warning: {one_line(name)}: {what}: nothing to export, skipped",
                            err=True, fg="yellow")
                continue
            errors.append(f"{name}: {what}: nothing to export")
            click.secho(f"fountain-audit: error: {one_line(errors[-1])}", err=True, fg="red")
            continue
        session = build_session(parse(text))
        if session.kind == "screenplay" and in_folder:  # found in a folder: not a session, say so
            told.say(name, describe_content(text, session.kind))
            continue
        try:
            sessions.append(SessionExport(name, text, session, clock))
        except NoTimestamp:  # at the first scene heading; a file without one has no place to point at
            from fountain_audit.model.session import valid_timestamp
            invalid = next((sc for sc in session.scenes if sc.timestamp is not None
                            and not valid_timestamp(sc.timestamp)), None)
            first = invalid or (session.scenes[0] if session.scenes else None)
            where = f"{name}:{first.heading.line}:{first.heading.column}" if first else name
            what = ("no scene heading has a valid timestamp (this one's, "
                    f"{invalid.timestamp!r}, is no date and time)" if invalid
                    else "no scene heading has a timestamp")
            errors.append(f"{where}: {what}, so the session has no time; "
                          "pass --fallback-time TIME to export it with an explicit time")
            click.secho(f"fountain-audit: error: {one_line(errors[-1])}", err=True, fg="red")
            continue
        if redactor:
            redactor.learn(session, text)
    told.close()
    if redactor:
        # the file's digest, and the trace, path and conversation ids made from it, of its redacted text:
        # a digest of the original would let anyone confirm a guessed secret or user name offline
        # (adversarial trial); taken once every session is learnt (a secret one file names is
        # replaced in all of them)
        from fountain_audit.export.common import content_digest
        from fountain_audit.privacy.redact import redact_text
        for sx in sessions:
            sx.digest = content_digest(redact_text(sx.text, redactor=redactor))
    if not sessions and errors:  # nothing could be read: no empty document, an -o file is left as it is
        sys.exit(2)
    if not sessions:  # every file found was skipped (plain screenplays, empty files): as no session file
        _fail(no_session_in("export", paths, len(files)))
    doc = None
    if target == "toolpath":
        from fountain_audit.export.toolpath import graph_text
        text = graph_text(sessions, redactor or None)  # made step by step, never the whole Graph as objects
    else:
        from fountain_audit.export.otlp import request_of, request_text
        skipped: list = []
        if endpoint is None:  # the text only: made span by span, never the whole document as objects
            text = request_text(sessions, skipped, redactor or None)
        else:
            doc = request_of(sessions, skipped)
        for sx, e in skipped:  # a time OTLP cannot carry: never wrapped or made up
            errors.append(f"{sx.name}: {e}: not exported")
            click.secho(f"fountain-audit: error: {one_line(errors[-1])}", err=True, fg="red")
        if len(skipped) == len(sessions):  # none left: no empty document written or sent, an -o file left as it is
            sys.exit(2)
    if doc is not None:
        doc, text = render(doc, redactor)

    if output_file is not None:
        try:
            write_atomic(output_file, text, parents=True)
        except OSError as e:
            click.secho(f"fountain-audit: error: {one_line(output_file)}: cannot write: {e.strerror or e}", err=True, fg="red")
            sys.exit(2)
        click.echo(f"fountain-audit: wrote {terminal_safe(output_file)}", err=True)  # (as report -o says it)
    elif print_document:
        try:
            out = utf8_stdout("strict")
            for piece in ([text] if isinstance(text, str) else text):  # (request_text: UTF-8 pieces)
                out.write(piece if isinstance(piece, str) else piece.decode("utf-8"))
            out.flush()
        except BrokenPipeError:  # the reader went away: exit with the status below
            reader_gone()
    status = 2 if errors else 0
    if endpoint is not None:
        from fountain_audit.export.send import SendError, masked, scrubbed, send
        shown = masked(endpoint)  # (a password in the URL is never printed)
        try:
            result = send(doc, endpoint, timeout=timeout)
        except SendError as e:  # (a collector's answer may echo the URL: its secrets scrubbed there too)
            click.secho(f"fountain-audit: error: {one_line(f'{shown}: {scrubbed(str(e), endpoint)}')}", err=True,
                        fg="red")
            sys.exit(1)
        click.echo(f"fountain-audit: sent {result.spans} span{'s' * (result.spans != 1)} in {result.traces} "
                   f"trace{'s' * (result.traces != 1)} to {terminal_safe(shown)} "
                   f"(HTTP {result.status})", err=True)
    sys.exit(status)

"""``fountain-audit dump`` and ``schema``: tool calls, audit records, turns or the AST as JSON,
and the JSON Schemas of every output shape."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import click

from fountain_audit.cli.main import _fail, _split, discover, no_session_file, read_stdin
from fountain_audit.commands.common import PerReason, learn_inputs, warn_unused_stdin_filename
from fountain_audit.cli.outputs import utf8_stdout
from fountain_audit.parse.source import DEFAULT_MAX_FILE_SIZE, describe_content, format_size, read_path
from fountain_audit.suggest import did_you_mean
from fountain_audit.untrusted import one_line, terminal_safe


def _schema_names() -> list[str]:
    # The schemas are package data beside fountain_audit/schemas/__init__.py (no importlib.resources
    # at start-up: it costs milliseconds on every command).
    folder = Path(__file__).resolve().parents[1] / "schemas"
    try:
        names = [n[:-len(".schema.json")] for n in os.listdir(folder) if n.endswith(".schema.json")]
    except OSError:
        names = []
    return sorted(names) or ["ast", "dump", "turns"]


@click.command("dump")
@click.argument("paths", nargs=-1, required=True)
@click.option("--records", "records", multiple=True, metavar="KIND,...",
              help="Dump these note records instead of tool calls: tool, rag, rag-source, recall, write, shell, "
                   "model-switch, chunk, chunk-result, synthesis, memory-tool, confidence, pipeline, run, stats, "
                   "unknown, inline, or all.")
@click.option("--turns", is_flag=True, help="Dump every turn (user input, forwarding target, tool calls, "
                                              "reply, RAG and recall context, scene) instead.")
@click.option("--ast", "ast_", is_flag=True, help="Dump the whole Fountain AST with spans instead.")
@click.option("--tool", "tools", multiple=True, metavar="NAME", help="Only tool calls named NAME (with --turns: "
                                                                     "turns that call it). Repeatable or comma-separated.")
@click.option("--status", "statuses", multiple=True, metavar="STATUS",
              help="Only records with this status (ok, error; notes: also skipped, aborted ...).")
@click.option("--actor", "actors", multiple=True, metavar="NAME",
              help="Only tool calls made by NAME: HARVEY or the NAME. prefix of [[NAME.tool:]], or its actor_ref "
                   "(tool:harvey, agent:NAME).")
@click.option("--scene-kind", "scene_kinds", multiple=True, metavar="KIND",
              help="Only records in scenes of this kind (chat, ext-chat, agent-mode, shell, skill, context-recall, "
                   "chunk-analysis, pipeline, memory, hand-off, other).")
@click.option("--format", "--output-format", "output_format", type=click.Choice(["json", "jsonl"]), default="json",
              show_default=True,
              help="json: one document {format_version, shape, records, files, errors}; jsonl: one record per "
                   "line, written as it is produced.")
@click.option("--redact", is_flag=True, help="Make the output shareable: secrets become <redacted:KIND>, the "
                                              "Workspace: path <workspace>, home directories <home> (spans "
                                              "still count positions in the original file).")
@click.option("--redact-paths", is_flag=True, help="Only the path part of --redact: <workspace> and <home>.")
@click.option("--stdin-filename", metavar="PATH", help="Name to report for '-' (standard input).")
def dump_cmd(paths, records, turns, ast_, tools, statuses, actors, scene_kinds, output_format, redact, redact_paths,
             stdin_filename):
    """Dump the audit trail of session files as JSON: tool calls (default), other note records,
    turns or the AST.

    PATHS are files, directories (searched for *.spmd and *.fountain) or '-' for standard input.

    \b
    Default: one record per tool call: file, scene (index, kind, heading, ISO
    timestamp), turn, span, actor, name, arguments (JSON value, or the raw text
    when arguments_json is false), status and error.

    \b
    Examples:
      fountain-audit dump session.spmd
      fountain-audit dump --status error --format jsonl sessions/ | jq .name
      fountain-audit dump --records rag,recall session.spmd
      fountain-audit dump --turns --redact session.spmd > turns.json
      fountain-audit schema turns               the JSON Schema of --turns output

    Exit status: 0 done, 2 usage error, an unreadable path (the other paths are
    still dumped) or paths that hold no session file.
    """
    from fountain_audit import dump as dm
    from fountain_audit.parse.fountain import parse
    from fountain_audit.model.session import SCENE_KINDS, build_session

    if sum([bool(records), turns, ast_]) > 1:
        raise click.UsageError("choose one of --records, --turns and --ast")
    shape = "ast" if ast_ else "turns" if turns else "dump"
    try:
        kinds = dm.record_kinds(_split(records)) if records else frozenset({"tool"})
    except ValueError as e:
        raise click.UsageError(one_line(str(e))) from None
    bad = [k for k in _split(scene_kinds) if k not in SCENE_KINDS]
    if bad:
        raise click.UsageError(f"unknown scene kind {bad[0]!r}{did_you_mean(bad[0], SCENE_KINDS)} "
                               f"(choose from {', '.join(SCENE_KINDS)})")
    for status in dict.fromkeys(_split(statuses)):  # open-ended (memory-tool notes): warn, do not refuse
        if status not in dm.KNOWN_STATUSES:
            click.secho(f"fountain-audit: warning: --status {status!r} is not a status the recorder writes "
                        f"({', '.join(dm.KNOWN_STATUSES)}; a memory-tool or run note may hold another)"
                        f"{did_you_mean(status, dm.KNOWN_STATUSES)}", err=True, fg="yellow")
    filters = dm.Filters(frozenset(_split(tools)), frozenset(_split(statuses)), frozenset(_split(actors)),
                         frozenset(_split(scene_kinds)))
    if ast_ and filters:
        raise click.UsageError("--tool, --status, --actor and --scene-kind do not apply to --ast")
    if (tools or actors) and not turns and "tool" not in kinds:  # (they keep tool calls only: nothing would pass)
        raise click.UsageError(f"{'--tool' if tools else '--actor'} selects tool calls, and --records "
                               f"{one_line(','.join(_split(records)))} selects none (add tool to --records)")
    redactor = dm.Redactor(secrets=redact, paths=redact or redact_paths)
    if redactor:  # messages naming a file too (the redactor learns each session as it is read)
        from fountain_audit.commands.common import redact_messages
        redact_messages(redact, redact_paths, redactor)
    if stdin_filename and "-" not in paths:  # (as lint, report, redact: said, not silently dropped)
        warn_unused_stdin_filename("one of the paths")
    files, errors = discover(paths)
    if not files and not errors:
        _fail(no_session_file(paths))
    for msg in errors:
        click.secho(f"fountain-audit: error: {one_line(msg)}", err=True, fg="red")
    out = utf8_stdout("strict")
    writer = dm.JsonWriter(out, output_format, shape, redactor)
    done: list[str] = []
    told = PerReason(": no records")  # what each file without records is
    # (--redact: every input's secrets learnt before the first record is written; each file is read twice)
    stdin_text = learn_inputs(redactor, files, None, DEFAULT_MAX_FILE_SIZE) if redactor else None
    try:
        for f in files:
            try:
                if f == "-" and stdin_text is not None:
                    text, name = stdin_text, stdin_filename or "-"
                elif f == "-":
                    text = read_stdin(DEFAULT_MAX_FILE_SIZE)
                    name = stdin_filename or "-"
                else:
                    text = read_path(f)
                    name = f
            except OSError as e:
                msg = f"{f}: cannot read: {e.strerror or e}"
                errors.append(msg)
                click.secho(f"fountain-audit: error: {one_line(msg)}", err=True, fg="red")
                continue
            try:
                session = build_session(parse(text))
                # The model is built with the collector paused (no cycles in it): freeze it, or the
                # first collections while records are written would scan all of it.
                gc.freeze()
                if redactor:
                    redactor.learn(session, text)
                count = 0
                bad = dm.undecodable_record(text, name)  # JSON text carries U+FFFD: say where the bytes are
                for rec in dm.dump_session(session, name, shape, kinds, filters):
                    if bad is not None:  # before the file's first record (none: no text to locate)
                        writer.write(bad)
                        bad = None
                    writer.write(rec)
                    count += 1
            except MemoryError:
                msg = f"{f}: out of memory dumping {format_size(len(text))} code points"
                errors.append(msg)
                click.secho(f"fountain-audit: error: {one_line(msg)}", err=True, fg="red")
                continue
            what = describe_content(text, session.kind)
            if what and not count:  # say what the file is rather than print nothing without a word
                told.say(name, what)  # (a folder of screenplays: the rest counted at the end)
            done.append(name)
            out.flush()
        told.close()
        writer.close(done, errors)
    except BrokenPipeError:  # the reader (head, jq ...) went away: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0 if not errors else 2)
    if errors:
        sys.exit(2)



class _Shape(click.Choice):
    """A ``schema`` shape: one of the shipped schemas' names; a wrong one is answered with the
    list and the closest name, not click's ``is not one of`` over its metavar."""

    def convert(self, value, param, ctx):
        if value in self.choices:
            return value
        self.fail(f"no schema {one_line(value)!r}: the shapes are {', '.join(self.choices)}"
                  f"{did_you_mean(value, self.choices)}", param, ctx)


@click.command("schema")
@click.argument("name", metavar="SHAPE", type=_Shape(_schema_names()))
def schema_cmd(name):
    """Print the JSON Schema (draft 2020-12) of an output shape: dump (tool calls and
    --records), turns (--turns), ast (--ast), lint (lint --output-format json),
    baseline (the file of lint --baseline), show (show --format json) or provenance
    (provenance --format json).

    For dump, the schema describes the --format json document; each --format jsonl line
    is one item of its "records" (the schema's $defs/record) plus "format_version".
    """
    import json

    from fountain_audit import schemas
    click.echo(json.dumps(schemas.load(name), indent=2, ensure_ascii=False))

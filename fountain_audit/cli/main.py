"""The ``fountain-audit`` command line (click). It only wires options to the layers.

Exit codes (``lint``): 0 no errors, 1 errors found, 2 usage error or an
unreadable path (the other paths are still linted).
"""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path

import click

from fountain_audit import __version__
from fountain_audit.lint.diagnostics import Severity
from fountain_audit.lint.config import TARGET_VERSIONS, Config, ConfigError, load_config
from fountain_audit.lint.selection import RuleSelectionError, Selection
from fountain_audit.cli.outputs import utf8_stdout
from fountain_audit.reporters.text import stale_lines
from fountain_audit.untrusted import one_line, terminal_safe
from fountain_audit.lint.rules import all_rules
from fountain_audit.parse.source import (DEFAULT_MAX_FILE_SIZE, decode_bytes, describe_content, format_size,
                                         parse_size, read_path)

SUFFIXES = (".spmd", ".fountain")


# rich, the parser, dump and diff are imported where they are used, so that `--version`,
# `lint` with a plain (concise) or machine format and the other commands start fast.
def Console(*args, **kwargs):  # noqa: N802 - stands for rich.console.Console, imported on first use
    from rich.console import Console as RichConsole
    return RichConsole(*args, **kwargs)


def escape(text: str) -> str:
    """:func:`rich.markup.escape`, imported on first use."""
    from rich.markup import escape as rich_escape
    return rich_escape(text)


def Table(*args, **kwargs):  # noqa: N802 - stands for rich.table.Table, imported on first use
    from rich.table import Table as RichTable
    return RichTable(*args, **kwargs)


class LazyGroup(click.Group):
    """A click group whose commands can be registered by import path
    (``"package.module:attribute"``) and are imported only when run, or listed by ``--help``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, str] = {}

    def add_lazy_command(self, name: str, target: str) -> None:
        self.lazy[name] = target

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self.lazy.get(cmd_name)
        if target is not None and cmd_name not in self.commands:
            import importlib
            module, _, attribute = target.partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)


def _split(values: tuple[str, ...]) -> list[str]:
    return [v for raw in values for v in raw.split(",") if v.strip()]


def _option_rules(option: str, values: tuple[str, ...]) -> list[str]:
    """The selectors of a rule option, checked: an unknown one is a usage error naming
    ``option`` (not the configuration file), with the closest rule as a suggestion."""
    from fountain_audit.lint.selection import resolve_rules

    selectors = _split(values)
    try:
        resolve_rules(selectors)
    except RuleSelectionError as e:
        raise click.UsageError(f"{option}: {e}") from None
    return selectors


def display_path(path: str) -> str:
    """``path`` as reports show it: ``.`` components and repeated slashes dropped
    (``./a//b.spmd`` → ``a/b.spmd``), since GitHub does not attach annotations to
    ``./``-paths; ``..`` and absolute paths are kept; ``-`` stays ``-``."""
    if path == "-" or not path:
        return path
    from pathlib import PurePath
    return str(PurePath(path))


def discover(paths: tuple[str, ...], cfg: Config | None = None) -> tuple[list[str], list[str]]:
    """Expand ``paths``: directories are searched recursively (sorted) for ``*.spmd``
    and ``*.fountain``, skipping ``exclude`` globs of ``cfg``; files are taken as
    given; ``-`` is standard input.

    Returns ``(files, errors)`` where ``errors`` are messages for missing paths.
    """
    files: list[str] = []
    errors: list[str] = []
    for p in paths:
        if p == "-":
            files.append(p)
            continue
        p = display_path(p)
        if os.path.isdir(p):
            found = []
            for root, dirs, names in os.walk(p, onerror=lambda e: errors.append(
                    f"{e.filename}: cannot read directory: {e.strerror}")):
                # os.walk does not follow symlinked directories, so symlink loops cannot trap it;
                # hidden directories (.git, .venv ...) and excluded ones (gitignore-style: "archive",
                # "archive/", "**/tmp") are not entered.
                dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                                 and not (cfg and _dir_excluded(cfg, os.path.join(root, d))))
                for n in sorted(names):
                    full = display_path(os.path.join(root, n))
                    if not n.lower().endswith(SUFFIXES) or n.startswith(".") or (cfg and cfg.excluded(full)):
                        continue
                    try:
                        regular = stat.S_ISREG(os.stat(full).st_mode)
                    except OSError:
                        regular = True  # a dangling or looping symlink: reading it reports why
                    if regular:
                        found.append(full)
                    else:  # a FIFO or device would block or never end: report it, do not open it
                        errors.append(f"{full}: not a regular file")
            if not found:
                click.secho(f"fountain-audit: warning: no *.spmd or *.fountain files under {p}", err=True,
                            fg="yellow")
            files.extend(found)
        else:
            problem = _not_a_file(p)
            if problem:
                errors.append(f"{p}: {problem}")
            else:
                files.append(p)
    seen: set[str] = set()
    unique = []
    for f in files:  # a file named twice (or reached twice) is linted once
        key = f if f == "-" else os.path.realpath(f)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, errors


def nothing_selected(cfg: Config) -> str:
    """The message for a configuration that selects no rule, saying why."""
    from fountain_audit.lint.selection import resolve_rules

    chosen = resolve_rules(cfg.select + cfg.extend_select)
    target = tuple(int(p) for p in cfg.target_version.split("."))
    newer = [r for r in chosen if tuple(int(p) for p in r.since.split(".")) > target]
    if newer:
        since = max(r.since for r in newer)
        return (f"no rule selected: {', '.join(r.code for r in newer)} need target-version {since} or later "
                f"(target-version is {cfg.target_version}); the other selected rules are ignored")
    return "no rule selected: every selected rule is ignored"


def read_stdin(max_size: int | None) -> str:
    """Standard input, decoded losslessly; raises ``FileTooLarge`` past ``max_size`` bytes."""
    from fountain_audit.parse.source import FileTooLarge, format_size

    data = sys.stdin.buffer.read() if max_size is None else sys.stdin.buffer.read(max_size + 1)
    if max_size is not None and len(data) > max_size:
        raise FileTooLarge(27, f"over the size limit (max-file-size {format_size(max_size)})")
    return decode_bytes(data)


def refuse_output_over_inputs(output: str, inputs: list[str], what: str = "the report") -> None:
    """Exit 2 when ``output`` is (or links to) one of ``inputs``: nothing we write may
    overwrite a file we read."""
    from fountain_audit.cli.outputs import is_same_file

    for f in inputs:
        if f != "-" and is_same_file(output, f):
            _fail(f"{output}: refusing to write {what} over an input file ({f})")


def _not_a_file(path: str) -> str | None:
    """Why ``path`` (named on the command line, not a directory) cannot be read, or ``None``:
    ``no such file or directory``, ``permission denied`` (e.g. inside an unreadable
    directory), ``not a regular file`` (a FIFO would block forever, a device never ends).
    A dangling or looping symlink is left for the reader to report."""
    import errno
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        if e.errno == errno.ENOENT and not os.path.islink(path):
            return "no such file or directory"
        if e.errno in (errno.EACCES, errno.EPERM):
            return "permission denied"
        return None if os.path.islink(path) else f"cannot read: {e.strerror or e}"
    return None if stat.S_ISREG(mode) else "not a regular file"
def _fail(message: str) -> None:
    """Print ``fountain-audit: error: MESSAGE`` on standard error and exit 2."""
    click.secho(f"fountain-audit: error: {terminal_safe(message)}", err=True, fg="red")
    sys.exit(2)


def _force_excluded(cfg: Config, path: str) -> bool:
    """``--force-exclude``: ``path`` matches an ``exclude`` glob, or lies in a directory
    that the walk would not enter (``archive/`` excludes ``archive/old.spmd``)."""
    from fountain_audit.lint.config import _match
    if cfg.excluded(path):
        return True
    parts = cfg.relative(path).split("/")[:-1]
    for i in range(1, len(parts) + 1):
        folder = "/".join(parts[:i])
        if any(_match(folder, pat.rstrip("/")) or _match(folder + "/", pat) for pat in cfg.exclude):
            return True
    return False


def _dir_excluded(cfg: Config, path: str) -> bool:
    """A directory matched by an ``exclude`` glob, gitignore-style: ``name`` or
    ``name/`` (any depth), ``a/b``, ``a/**``."""
    from fountain_audit.lint.config import _match
    rel = cfg.relative(path)
    return any(_match(rel, pat.rstrip("/")) or _match(rel + "/", pat) for pat in cfg.exclude)


def env_color(environ=None) -> bool | None:
    """Colour asked for by the environment: ``NO_COLOR`` (any non-empty value) → ``False``,
    else ``FORCE_COLOR`` (non-empty, not ``0``) → ``True``, else ``None`` (colour when a
    terminal). See https://no-color.org and https://force-color.org."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR") and environ.get("FORCE_COLOR") != "0":
        return True
    return None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="fountain-audit")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Lint and analyse Harvey session transcripts (Fountain .spmd/.fountain files).

    \b
    Examples:
      fountain-audit lint sessions/            lint every *.spmd and *.fountain file
      fountain-audit lint --select P session.spmd
      fountain-audit rules                     list the rules
      fountain-audit rule P102                 explain a rule
      fountain-audit dump --turns s.spmd       the turns as JSON (see 'schema turns')
      fountain-audit diff old.spmd new.spmd    what changed, turn by turn
      fountain-audit show s.spmd t3.tool2      reopen an element by id (ids: dump)
      fountain-audit provenance s.spmd         the evidence recorded for each reply
      fountain-audit export --to toolpath s.spmd    who did what, as a toolpath document
      fountain-audit report sessions/ -o pages/     an HTML page per session + index

    Colour: NO_COLOR=1 turns it off, FORCE_COLOR=1 on (also when piped).
    """
    ctx.color = env_color()  # click's messages in every command follow NO_COLOR / FORCE_COLOR


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--select", multiple=True, metavar="RULES",
              help="Only these rules: codes, code prefixes or names, comma-separated (replaces the config's).")
@click.option("--extend-select", multiple=True, metavar="RULES", help="Add these rules to the selection.")
@click.option("--ignore", multiple=True, metavar="RULES", help="Skip these rules (codes, prefixes or names).")
@click.option("--target-version", type=click.Choice(TARGET_VERSIONS), help="Harvey format version; newer rules are off.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Read this fountain-audit.toml or pyproject.toml instead of discovering one.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("--output-format", "--format", "output_format",
              type=click.Choice(["full", "concise", "json", "json-lines", "github", "sarif", "junit", "gitlab",
                                 "auto", "text"]),
              help="Output format (default: full on a terminal, else concise; auto also picks github under "
                   "GitHub Actions; text = concise).")
@click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to this file (atomically) instead of standard output.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=None, metavar="N",
              help="Lint in N processes (1 = serial; 0 or not given: all CPUs, from 32 files on).")
@click.option("--statistics", "show_statistics", is_flag=True, help="Also print the number of diagnostics per rule.")
@click.option("--stdin-filename", metavar="PATH", help="Name to report for '-' (standard input).")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: when a terminal).")
@click.option("--strict", is_flag=True, help="Warnings fail the run too (exit 1).")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when errors are found.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary line (text format).")
@click.option("--redact", is_flag=True, help="Make the report shareable: in messages, paths and code frames, "
                                              "secrets become <redacted:KIND>, the workspace <workspace>, home "
                                              "directories <home> (positions still count in the original file).")
@click.option("--redact-paths", is_flag=True, help="Only the path part of --redact.")
@click.option("--force-exclude", is_flag=True,
              help="Apply the config's exclude globs to files named on the command line too (as pre-commit "
                   "passes them).")
@click.option("--allow-empty", is_flag=True,
              help="Exit 0 when the paths hold no session file (default: exit 2, a mistyped path must not pass).")
@click.option("--max-file-size", metavar="SIZE",
              help="Refuse files larger than SIZE (bytes, or 512MB, 2GB ...) before reading them (default: the "
                   "config's max-file-size, else 512MB).")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Report only diagnostics whose fingerprint is not in this baseline file (default: the "
                   "config's baseline).")
@click.option("--update-baseline", is_flag=True,
              help="Write the current findings to the baseline (created the first time; entries that match "
                   "nothing are dropped), then report against it.")
def lint(paths, select, extend_select, ignore, target_version, config_path, isolated, output_format,
         output_file, jobs, show_statistics, stdin_filename, color, strict, exit_zero, quiet, redact, redact_paths,
         baseline_file, update_baseline, force_exclude, allow_empty, max_file_size):
    """Check session files against the rules.

    PATHS are files, directories (searched for *.spmd and *.fountain) or '-' for
    standard input; none means '.'. Output lines read 'path:line:col: CODE [rule-name]
    message' (concise); --output-format picks full, json, json-lines, github, sarif,
    junit or gitlab instead.

    Settings come from the nearest fountain-audit.toml or pyproject.toml
    [tool.fountain-audit] (see README); options given here override them.

    With --baseline FILE (or baseline = "..." in the configuration) findings recorded
    in FILE are not reported; --update-baseline records the current ones (see README,
    "Adopting fountain-audit on an archive").

    Exit status: 0 no errors (warnings and infos do not fail unless --strict),
    1 errors found, 2 usage or configuration error, an unreadable path, no session
    file in PATHS (unless --allow-empty), no rule selected, or a baseline that cannot
    be used (corrupt, unknown version, too many entries).
    """
    paths = paths or (".",)
    select = _option_rules("--select", select)
    extend_select = _option_rules("--extend-select", extend_select)
    ignore = _option_rules("--ignore", ignore)
    try:
        cfg = Config() if isolated else load_config(config_path)
        if select:
            cfg.select = select
        cfg.extend_select += extend_select
        cfg.ignore += ignore
        if target_version:
            cfg.target_version = target_version
        if max_file_size is not None:
            cfg.max_file_size = parse_size(max_file_size)
        selection = Selection(tuple(cfg.rules()), tuple(cfg.privacy_allow))
    except (ConfigError, RuleSelectionError) as e:
        raise click.UsageError(one_line(str(e))) from None
    except ValueError as e:
        raise click.UsageError(f"--max-file-size: {e}") from None
    if not selection.rules:
        raise click.UsageError(nothing_selected(cfg))
    from fountain_audit.reporters.formats import RENDERERS, TEXT_FORMATS, LintRun, report_full, resolve_format, statistics_lines
    from fountain_audit.cli.outputs import LazyProgress, write_atomic
    from fountain_audit.lint.runner import Job, input_bytes, lint_jobs, plan_workers
    from fountain_audit.lint.fingerprint import project_root, relative_path
    from fountain_audit.privacy.redact import mask

    from fountain_audit.lint import baseline as bl

    baseline_file = baseline_file or (os.fspath(cfg.baseline) if cfg.baseline else None)
    if update_baseline and not baseline_file:
        raise click.UsageError("--update-baseline needs --baseline FILE (or baseline = \"...\" in the configuration)")
    ledger = None
    if baseline_file:  # checked before linting; an update reads it again under its lock
        try:
            ledger = bl.load(baseline_file, cfg.baseline_max_entries, missing_ok=update_baseline)
        except bl.BaselineError as e:
            _fail(str(e))
    fmt = resolve_format(output_format, terminal=output_file is None and sys.stdout.isatty())
    files, errors = discover(paths, cfg)
    if force_exclude:  # pre-commit names files explicitly; the project's exclude globs still apply
        named = [f for f in files if f != "-" and _force_excluded(cfg, f)]
        files = [f for f in files if f not in named]
    else:
        named = []
    if output_file:
        refuse_output_over_inputs(output_file, files)
    if update_baseline:
        refuse_output_over_inputs(baseline_file, files, "the baseline")
    if not files and not named and not errors and not allow_empty:
        _fail(f"no session file (*.spmd, *.fountain) in {' '.join(paths)} (--allow-empty accepts that)")
    root = project_root(cfg.source)
    work: list[Job] = []
    for f in files:
        text = None
        name = f
        if f == "-":
            name = stdin_filename or "-"
            try:
                text = read_stdin(cfg.max_file_size)
            except OSError as e:
                errors.append(f"-: cannot read: {e.strerror or e}")
                continue
        try:
            ignored = frozenset(cfg.ignored_for(name))
        except ConfigError as e:
            raise click.UsageError(one_line(str(e))) from None
        work.append(Job(f, name, ignored, text, relative_path(name, root), max_size=cfg.max_file_size))
    progress = LazyProgress() if fmt in TEXT_FORMATS and sys.stderr.isatty() else None
    try:
        results = lint_jobs(work, selection, workers=plan_workers(len(work), jobs or None, input_bytes(work)),
                            keep_text=(fmt == "full" and not quiet) or redact or redact_paths, progress=progress)
    finally:
        if progress:
            progress.close()
    diagnostics = []
    checked: list[str] = []
    sources: dict[str, str] = {}
    texts: dict[str, str] = {}
    for r in results:
        if r.error:
            errors.append(r.error)
            continue
        checked.append(r.name)
        diagnostics.extend(r.diagnostics)
        if r.text is not None:
            texts[r.name] = r.text
            if fmt == "full" and not quiet:  # for code frames: secrets masked, lines and columns kept
                sources[r.name] = mask(r.text)
    for msg in errors:
        click.secho(f"fountain-audit: error: {msg}", err=True, fg="red")
    outcome = None
    if baseline_file:
        keys = {job.name: bl.stored_path(job.key) for job in work}
        scope = bl.Scope(frozenset(keys[name] for name in checked), frozenset(r.code for r in selection.rules))
        if update_baseline:
            try:
                change = bl.update(baseline_file, bl.entries_for(diagnostics, keys, bl.today()), scope,
                                   cfg.baseline_max_entries)
            except bl.BaselineError as e:
                _fail(str(e))
            ledger = change.entries
            n = len(ledger)
            click.echo(f"fountain-audit: baseline {terminal_safe(baseline_file)}: {n} entr{'y' if n == 1 else 'ies'} "
                       f"({len(change.added)} added, {len(change.removed)} removed)", err=True)
        outcome = bl.apply(ledger, diagnostics, scope, baseline_file)
        diagnostics = outcome.new
    frames: dict = {}
    if redact or redact_paths:
        diagnostics, checked, errors, sources, frames = _redact_report(diagnostics, checked, errors, texts, sources,
                                                                       secrets=redact)
    run = LintRun(diagnostics, checked, errors, selection.rules, sources, outcome, strict=strict,
                  frame_columns=frames)
    stats = statistics_lines(diagnostics) if show_statistics else []
    from fountain_audit.reporters.text import plain_text_lines, report_json, report_text
    plain = None
    if fmt == "concise" and color is not True and not os.environ.get("FORCE_COLOR") \
            and not os.environ.get("TTY_COMPATIBLE") and (output_file or not sys.stdout.isatty()):
        plain = plain_text_lines(diagnostics, len(checked), quiet=quiet, unreadable=len(errors), statistics=stats,
                                 baseline=outcome)
    if plain is not None:  # the same text rich would print without colour, without importing rich
        out = plain if output_file else None
        if not output_file:
            sys.stdout.write(plain)
            sys.stdout.flush()
    elif fmt in TEXT_FORMATS:
        buffer = io.StringIO() if output_file else None
        if color is None:
            color = env_color()  # NO_COLOR: no ANSI styles at all (not even bold); FORCE_COLOR: styles when piped
        plain_console = color is False or (buffer is not None and not color)
        console = Console(file=buffer, force_terminal=color if color is not None else None,
                          no_color=plain_console, highlight=False,
                          **({"color_system": None} if plain_console else {}))
        if fmt == "full":
            report_full(run, console, quiet=quiet, show_statistics=show_statistics)
        else:
            report_text(diagnostics, len(checked), console, quiet=quiet, unreadable=len(errors), statistics=stats,
                        baseline=outcome)
        out = buffer.getvalue() if buffer is not None else None
    else:
        out = report_json(diagnostics, checked, errors, outcome) + "\n" if fmt == "json" else RENDERERS[fmt](run)
        for line in stats + stale_lines(outcome):  # machine formats keep standard output to themselves
            click.echo(line, err=True)
        if not output_file:
            click.echo(out, nl=False)
    if output_file and out is not None:
        try:
            write_atomic(output_file, out)
        except OSError as e:
            click.secho(f"fountain-audit: error: {output_file}: cannot write: {e.strerror or e}", err=True, fg="red")
            sys.exit(2)
    if errors:
        sys.exit(2)
    failing = (Severity.ERROR, Severity.WARNING) if strict else (Severity.ERROR,)
    if not exit_zero and any(d.severity in failing for d in diagnostics):
        sys.exit(1)


@main.command("rules")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_cmd(output_format):
    """List every rule: code, name, severity, since-version and summary."""
    rules = all_rules()
    if output_format == "json":
        import json
        click.echo(json.dumps([{"code": r.code, "name": r.name, "severity": str(r.severity), "since": r.since,
                                "summary": r.summary} for r in rules], indent=2))
        return
    if not sys.stdout.isatty() and not env_color():  # piped: one plain tab-separated line per rule
        for r in rules:
            click.echo("\t".join((r.code, r.name, str(r.severity), r.since, r.summary.replace("`", ""))))
        return
    table = Table(show_edge=False, header_style="bold")
    for col in ("code", "name", "severity", "since"):
        table.add_column(col, no_wrap=True)
    table.add_column("summary", ratio=1)
    for r in rules:
        table.add_row(r.code, r.name, str(r.severity), r.since, escape(r.summary.replace("`", "")))
    plain = {"color_system": None} if env_color() is False else {}  # NO_COLOR: no ANSI styles at all
    console = Console(**plain)
    if not console.is_terminal:
        console = Console(width=max(console.width, 140), **plain)
    console.print(table)


@main.command("rule")
@click.argument("rule")
def rule_cmd(rule):
    """Explain one rule (by code or name), with its bad and good examples."""
    for r in all_rules():
        if rule.upper() == r.code or rule.lower() == r.name:
            import inspect
            head = f"# {r.code} {r.name}\n\nSeverity: **{r.severity}** · since format v{r.since}\n\n"
            text = head + inspect.cleandoc(r.doc)
            if not sys.stdout.isatty() and not env_color():  # piped: the Markdown source, not a padded rendering
                click.echo(text)
                return
            from rich.markdown import Markdown  # only here: it costs 70 ms of start-up

            plain = {"color_system": None} if env_color() is False else {}  # NO_COLOR: no ANSI styles at all
            Console(**plain).print(Markdown(text.encode("utf-8", "backslashreplace").decode()))
            return
    from fountain_audit.lint.selection import closest_rule

    guess = closest_rule(rule, all_rules())
    hint = f"; did you mean {guess.code} / {guess.name}?" if guess else ""
    raise click.UsageError(one_line(f"unknown rule {rule!r}{hint} (see 'fountain-audit rules')"))


def _redact_report(diagnostics, checked, errors, texts, sources, *, secrets: bool):
    """``lint --redact``: messages, paths and code-frame sources redacted by each file's own
    redactor (its workspace, secrets and home users); positions unchanged (they count in the
    original file); code frames get a column map so their carets land on the redacted text."""
    from dataclasses import replace

    from fountain_audit.privacy.redact import Redactor, frame_text, session_redactor

    plain = Redactor(secrets=secrets)
    per_file = {name: session_redactor(text, secrets=secrets) for name, text in texts.items()}
    frames, shown = {}, {}
    for name in sources:
        shown[plain.text(name)], fm = frame_text(texts[name], per_file[name])
        frames[plain.text(name)] = fm.column
    out = [replace(d, path=plain.text(d.path), message=per_file.get(d.path, plain).text(d.message)) for d in diagnostics]
    return out, [plain.text(c) for c in checked], [plain.text(e) for e in errors], shown, frames


def _schema_names() -> list[str]:
    # The schemas are package data beside fountain_audit/schemas/__init__.py (no importlib.resources
    # at start-up: it costs milliseconds on every command).
    folder = Path(__file__).resolve().parents[1] / "schemas"
    try:
        names = [n[:-len(".schema.json")] for n in os.listdir(folder) if n.endswith(".schema.json")]
    except OSError:
        names = []
    return sorted(names) or ["ast", "dump", "turns"]


@main.command("dump")
@click.argument("paths", nargs=-1, required=True)
@click.option("--records", "records", multiple=True, metavar="KIND,...",
              help="Dump these note records instead of tool calls: tool, rag, rag-source, recall, write, shell, "
                   "model-switch, chunk, chunk-result, synthesis, memory-tool, confidence, pipeline, run, stats, "
                   "unknown, or all.")
@click.option("--turns", is_flag=True, help="Dump every turn (user input, forwarding target, tool calls, "
                                              "reply, RAG and recall context, scene) instead.")
@click.option("--ast", "ast_", is_flag=True, help="Dump the whole Fountain AST with spans instead.")
@click.option("--tool", "tools", multiple=True, metavar="NAME", help="Only tool calls named NAME (with --turns: "
                                                                     "turns that call it). Repeatable or comma-separated.")
@click.option("--status", "statuses", multiple=True, metavar="STATUS",
              help="Only records with this status (ok, error; notes: also skipped, aborted ...).")
@click.option("--actor", "actors", multiple=True, metavar="NAME",
              help="Only tool calls made by NAME (HARVEY or the NAME. prefix of [[NAME.tool:]]).")
@click.option("--scene-kind", "scene_kinds", multiple=True, metavar="KIND",
              help="Only records in scenes of this kind (chat, ext-chat, agent-mode, shell, skill, context-recall, "
                   "chunk-analysis, pipeline, memory, hand-off, other).")
@click.option("--format", "output_format", type=click.Choice(["json", "jsonl"]), default="json", show_default=True,
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

    Exit status: 0 done, 2 usage error or an unreadable path (the other paths are
    still dumped).
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
        raise click.UsageError(f"unknown scene kind {bad[0]!r} (choose from {', '.join(SCENE_KINDS)})")
    filters = dm.Filters(frozenset(_split(tools)), frozenset(_split(statuses)), frozenset(_split(actors)),
                         frozenset(_split(scene_kinds)))
    if ast_ and filters:
        raise click.UsageError("--tool, --status, --actor and --scene-kind do not apply to --ast")
    files, errors = discover(paths)
    for msg in errors:
        click.secho(f"fountain-audit: error: {msg}", err=True, fg="red")
    out = utf8_stdout("strict")
    redactor = dm.Redactor(secrets=redact, paths=redact or redact_paths)
    writer = dm.JsonWriter(out, output_format, shape, redactor)
    done: list[str] = []
    try:
        for f in files:
            try:
                if f == "-":
                    text = read_stdin(DEFAULT_MAX_FILE_SIZE)
                    name = stdin_filename or "-"
                else:
                    text = read_path(f)
                    name = f
            except OSError as e:
                msg = f"{f}: cannot read: {e.strerror or e}"
                errors.append(msg)
                click.secho(f"fountain-audit: error: {msg}", err=True, fg="red")
                continue
            try:
                session = build_session(parse(text))
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
                click.secho(f"fountain-audit: error: {msg}", err=True, fg="red")
                continue
            what = describe_content(text, session.kind)
            if what and not count:  # say what the file is rather than print nothing without a word
                click.secho(f"fountain-audit: warning: {name}: {what}: no records", err=True, fg="yellow")
            done.append(name)
            out.flush()
        writer.close(done, errors)
    except BrokenPipeError:  # the reader (head, jq ...) went away: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0 if not errors else 2)
    if errors:
        sys.exit(2)


@main.command("schema")
@click.argument("name", type=click.Choice(_schema_names()))
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


def _register_diff() -> None:
    main.add_lazy_command("diff", "fountain_audit.cli.diff:diff")  # imported only when run


_register_diff()


def _register_export() -> None:
    main.add_lazy_command("export", "fountain_audit.cli.export:export")  # imported only when run


_register_export()


def _register_audit() -> None:
    main.add_lazy_command("show", "fountain_audit.cli.show:show")  # imported only when run
    main.add_lazy_command("provenance", "fountain_audit.cli.provenance:provenance")
    main.add_lazy_command("redact", "fountain_audit.cli.redact:redact")  # imported only when run


_register_audit()


def _register_report() -> None:
    main.add_lazy_command("report", "fountain_audit.cli.report:report")  # imported only when run


_register_report()

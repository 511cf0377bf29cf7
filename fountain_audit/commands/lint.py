"""The body of ``fountain-audit lint``, a plain function: the click command
(:mod:`fountain_audit.cli.lint`) and the click-free fast path (:mod:`fountain_audit.commands.fast`)
both call :func:`run_lint` with the same keyword arguments.

Exit codes: 0 no errors, 1 errors found, 2 usage error or an unreadable path (the other
paths are still linted).
"""

from __future__ import annotations

import io
import os
import sys

from fountain_audit.commands.common import (EMPTY_OUTPUT, ISOLATED_WITH_CONFIG, Console, UsageError, _fail, _force_excluded, _option_rules, discover, echo,
                                            env_color, no_session_file, nothing_selected, read_stdin,
                                            reader_gone, refuse_output_over_inputs, secho, under_cwd,
                                            warn_unused_stdin_filename)
from fountain_audit.lint.config import Config, ConfigError, load_config
from fountain_audit.lint.diagnostics import failing_severities
from fountain_audit.lint.selection import RuleSelectionError, Selection
from fountain_audit.parse.source import parse_size
from fountain_audit.reporters.text import stale_lines
from fountain_audit.untrusted import one_line, terminal_safe


def run_lint(**options) -> None:
    """:func:`_run_lint` (its parameters: ``run_lint.__wrapped__``); with ``--redact`` or
    ``--redact-paths``, its messages on standard error redacted too
    (:func:`fountain_audit.commands.common.redact_messages`: a file name holding a secret)."""
    if options.get("redact") or options.get("redact_paths"):
        from fountain_audit.commands.common import redact_messages

        put_back = redact_messages(bool(options.get("redact")), True)
        try:
            return _run_lint(**options)
        finally:
            put_back()
    return _run_lint(**options)


def _run_lint(*, paths, select, extend_select, ignore, target_version, config_path, isolated, output_format,
              output_file, jobs, show_statistics, stdin_filename, color, strict, exit_zero, quiet, redact,
              redact_paths, baseline_file, update_baseline, force_exclude, allow_empty, max_file_size, no_cache,
              cache_dir) -> None:
    """Run ``fountain-audit lint`` with the parameters click (or :func:`fountain_audit.commands.argv.parse`)
    read from its command line: one keyword per option of
    :data:`fountain_audit.commands.lint_options.OPTIONS` (by ``dest``) and ``paths`` (a tuple).

    Prints the report and exits (``sys.exit``) with 1 when errors are found, 2 for an
    unreadable path or a problem reported as ``fountain-audit: error: ...``; returns normally
    for exit status 0. Raises :class:`fountain_audit.commands.common.UsageError` for a usage or
    configuration error (the caller prints it as click does, exit status 2).
    """
    if isolated and config_path is not None:
        raise UsageError(ISOLATED_WITH_CONFIG)
    if output_file == "":  # (read as no -o: the report went to standard output)
        raise UsageError(EMPTY_OUTPUT)
    if output_file == "-":  # -o - : standard output, as without -o (not a file named '-')
        output_file = None
    if stdin_filename and paths and "-" not in paths:
        warn_unused_stdin_filename("one of the paths")
    paths = paths or (("-",) if stdin_filename else (".",))  # as ruff: --stdin-filename alone reads standard input
    select = _option_rules("--select", select)
    extend_select = _option_rules("--extend-select", extend_select)
    ignore = _option_rules("--ignore", ignore)
    try:
        cfg = Config() if isolated else load_config(config_path, paths=paths)
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
        if str(e).startswith("--"):  # an option's value: a usage error (usage line, help hint)
            raise UsageError(one_line(str(e))) from None
        _fail(one_line(str(e)))  # the configuration file's: no usage line, the file named
    except ValueError as e:
        raise UsageError(f"--max-file-size: {e}") from None
    if not selection.rules:
        raise UsageError(nothing_selected(cfg))
    from fountain_audit.reporters.formats import RENDERERS, TEXT_FORMATS, LintRun, report_full, resolve_format, statistics_lines
    from fountain_audit.lint.runner import Job, lint_all
    from fountain_audit.lint.fingerprint import project_dir, relative_path

    # the baseline, redaction, progress bar and atomic writes are imported by the runs that use them
    passed_over = None  # (the configured baseline not used as untrusted, and why)
    if not baseline_file and cfg.baseline and config_path is None and not isolated:
        from fountain_audit.lint.config import distrusted_baseline
        why = distrusted_baseline(cfg.baseline)  # (named by a discovered configuration; --baseline is trusted)
        if why is not None:
            passed_over, cfg.baseline = (cfg.baseline, why), None
    baseline_file = baseline_file or (os.fspath(cfg.baseline) if cfg.baseline else None)
    if baseline_file:  # named relative to the current directory when under it, from the config or --baseline
        baseline_file = under_cwd(baseline_file)
    if update_baseline and not baseline_file and passed_over is not None:
        from fountain_audit.lint.config import shown_path
        _fail(f"--update-baseline: the configured baseline {shown_path(passed_over[0])} was not used: it is "
              f"untrusted ({passed_over[1]}); give --baseline FILE to update it anyway, or make it yours")
    if update_baseline and not baseline_file:
        raise UsageError("--update-baseline needs --baseline FILE (or baseline = \"...\" in the configuration)")
    if update_baseline and "-" in paths and not stdin_filename:  # (an entry for '-' names no file: adversarial trial)
        raise UsageError("--update-baseline with standard input ('-') needs --stdin-filename PATH: the baseline keys "
                         "each entry by its file's path")
    ledger = None
    if baseline_file:  # checked before linting; an update reads it again under its lock
        from fountain_audit.lint import baseline as bl
        try:
            ledger = bl.load(baseline_file, cfg.baseline_max_entries, missing_ok=update_baseline)
        except bl.BaselineError as e:
            _fail(str(e))
    fmt = resolve_format(output_format, terminal=output_file is None and sys.stdout.isatty())
    files, errors = discover(paths, cfg, other_names="linted as Fountain")
    if force_exclude:  # pre-commit names files explicitly; the project's exclude globs still apply
        # standard input is excluded by the name it is linted as (editors pipe files in)
        named = [f for f in files if f != "-" and _force_excluded(cfg, f)] + \
            [f for f in files if f == "-" and stdin_filename and _force_excluded(cfg, stdin_filename)]
        files = [f for f in files if f not in named]
    else:
        named = []
    if output_file:
        refuse_output_over_inputs(output_file, files)
    if update_baseline:
        refuse_output_over_inputs(baseline_file, files, "the baseline")
    if output_file and baseline_file:
        from fountain_audit.cli.outputs import is_same_file
        if is_same_file(output_file, baseline_file):
            _fail(f"{output_file}: refusing to write the report over the baseline ({baseline_file})")
    if not files and not named and not errors and not allow_empty:
        _fail(no_session_file(paths) + " (--allow-empty accepts that)")
    root = project_dir(cfg.source, baseline=baseline_file)
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
            raise UsageError(one_line(str(e))) from None
        work.append(Job(f, name, ignored, text, relative_path(name, root), max_size=cfg.max_file_size))
    cache = None
    if not no_cache:
        from fountain_audit.lint import cache as result_cache
        if not result_cache.disabled_by_environment():
            cache = result_cache.ResultCache(result_cache.cache_root(cache_dir, root),
                                             result_cache.settings_key(selection.rules, selection.privacy_allow,
                                                                       cfg.source))
    progress = None
    if fmt in TEXT_FORMATS and sys.stderr.isatty():
        from fountain_audit.cli.outputs import LazyProgress
        progress = LazyProgress()
    render = None  # the json report's text of each diagnostic, made where its file is linted (in parallel)
    if fmt == "json" and not (baseline_file or redact or redact_paths):  # (those change the diagnostics)
        from fountain_audit.reporters.text import diagnostic_json as render
    try:
        results = lint_all(work, selection, workers=jobs or None, cache=cache, render=render,
                           keep_text=(fmt == "full" and not quiet) or redact or redact_paths, progress=progress)
    finally:
        if progress:
            progress.close()
    diagnostics = []
    rendered: list[str] | None = [] if render else None
    checked: list[str] = []
    sources: dict[str, str] = {}
    texts: dict[str, str] = {}
    for r in results:
        if r.error:
            errors.append(r.error)
            continue
        checked.append(r.name)
        diagnostics.extend(r.diagnostics)
        if rendered is not None:
            rendered.extend(r.rendered)
        if r.text is not None:
            texts[r.name] = r.text
            if fmt == "full" and not quiet:  # for code frames: secrets masked, lines and columns kept
                from fountain_audit.parse.source import utf16_text
                from fountain_audit.privacy.redact import mask
                # (a UTF-16 file's findings are placed in its UTF-16 text: see E104)
                sources[r.name] = mask(utf16_text(r.text) or r.text)
    for msg in errors:
        secho(f"fountain-audit: error: {one_line(msg)}", err=True, fg="red")
    outcome = None
    if baseline_file:
        keys = {job.name: bl.stored_path(job.key) for job in work}
        if redact or redact_paths:  # the path as the report shows it (the fingerprint hashes the real one)
            from fountain_audit.privacy.redact import Redactor
            plain = Redactor(secrets=redact)
            keys = {name: plain.text(key) for name, key in keys.items()}
        # a file the baseline names, in a folder this run searched, that is gone: its entries are stale
        # (not judged on redacted paths, which name no file)
        folders = [] if redact or redact_paths else \
            [bl.stored_path(relative_path(p, root)) for p in paths or (".",) if p != "-" and os.path.isdir(p)]
        scope = bl.Scope(frozenset(keys[name] for name in checked), frozenset(r.code for r in selection.rules),
                         bl.gone_paths(ledger.values(), folders, root),
                         {keys[job.name]: job.ignored for job in work if job.ignored})
        if update_baseline:
            try:
                change = bl.update(baseline_file, bl.entries_for(diagnostics, keys, bl.today()), scope,
                                   cfg.baseline_max_entries, bl.formers(diagnostics))
            except bl.BaselineError as e:
                _fail(str(e))
            ledger = change.entries
            n = len(ledger)
            echo(f"fountain-audit: baseline {terminal_safe(baseline_file)}: {n} entr{'y' if n == 1 else 'ies'} "
                       f"({len(change.added)} added, {len(change.removed)} removed)", err=True)
        outcome = bl.apply(ledger, diagnostics, scope, baseline_file)
        missed = None if update_baseline else bl.unmatched(ledger, diagnostics, keys, outcome, root)
        if missed is not None:  # say which root the paths were taken from: a baseline from elsewhere shows here
            from fountain_audit.privacy.redact import mask
            there, here = mask(missed[0], keep_newlines=False), missed[1]
            shown_root = Redactor(secrets=redact).text(root) if redact or redact_paths else root
            n = len(ledger)
            named = (f"its entries name {terminal_safe(there)} where this run has {terminal_safe(here)}"
                     if there != here else f"it has entries for {terminal_safe(here)}")
            secho(f"fountain-audit: warning: baseline {terminal_safe(baseline_file)}: none of its {n} "
                  f"entr{'y' if n == 1 else 'ies'} matches a finding of this run, though {named}; paths and "
                  f"fingerprints are relative to the project root, {terminal_safe(shown_root)} here (the configuration "
                  "file's directory, else the git work tree holding the baseline, else the one holding the current "
                  "directory, else the current directory)" + ("; if the files moved, --update-baseline records them "
                                                               "under their new paths (an update that searches their "
                                                               "old folder, or the project root, drops the old "
                                                               "entries)" if there != here else ""),
                  err=True, fg="yellow")
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
    out = None
    try:
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
            out = report_json(diagnostics, checked, errors, outcome, rendered) + "\n" if fmt == "json" \
                else RENDERERS[fmt](run)
            for line in stats + stale_lines(outcome):  # machine formats keep standard output to themselves
                echo(line, err=True)
            if not output_file:
                echo(out, nl=False)
    except BrokenPipeError:  # the reader went away: the status below still says what was found
        reader_gone()
    if output_file and out is not None:
        from fountain_audit.cli.outputs import write_atomic
        try:
            write_atomic(output_file, out, parents=True)
        except OSError as e:
            secho(f"fountain-audit: error: {one_line(output_file)}: cannot write: {e.strerror or e}", err=True, fg="red")
            sys.exit(2)
    if errors:
        sys.exit(2)
    failing = failing_severities(strict)
    if not exit_zero and any(d.severity in failing for d in diagnostics):
        sys.exit(1)


run_lint.__wrapped__ = _run_lint  # type: ignore[attr-defined]  (inspect.signature reads its parameters)


def _redact_report(diagnostics, checked, errors, texts, sources, *, secrets: bool):
    """``lint --redact``: messages, paths and code-frame sources redacted by each file's own
    redactor (its workspace, secrets and home users); positions unchanged (they count in the
    original file); code frames get a column map so their carets land on the redacted text."""
    from dataclasses import replace

    from fountain_audit.parse.source import utf16_text
    from fountain_audit.privacy.redact import Redactor, frame_text, session_redactor

    plain = Redactor(secrets=secrets)
    per_file = {name: session_redactor(text, secrets=secrets) for name, text in texts.items()}
    frames, shown = {}, {}
    for name in sources:  # (a UTF-16 file's findings are placed in its UTF-16 text: see E104)
        shown[plain.text(name)], fm = frame_text(utf16_text(texts[name]) or texts[name], per_file[name])
        frames[plain.text(name)] = fm.column
    out = [replace(d, path=plain.text(d.path), message=per_file.get(d.path, plain).text(d.message)) for d in diagnostics]
    return out, [plain.text(c) for c in checked], [plain.text(e) for e in errors], shown, frames

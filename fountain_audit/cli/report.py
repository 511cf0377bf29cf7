"""The ``fountain-audit report PATHS... -o OUT`` command: wiring only (the work is
:mod:`fountain_audit.report`).

Exit status: 0 written; 2 usage error, an unreadable path or no session file (pages for the
readable files are still written).
"""

from __future__ import annotations

import gc
import os
import re
import sys

import click

from fountain_audit.untrusted import one_line, terminal_safe


def _page_name(name: str, taken: set[str]) -> str:
    """A file name for ``name``'s page: its path with separators as ``__``, other characters
    outside ``[A-Za-z0-9._-]`` as ``_``, ``.html`` appended, made unique within ``taken``."""
    base = re.sub(r"[^A-Za-z0-9._-]", "_", name.replace("\\", "/").lstrip("./").replace("/", "__")) or "stdin"
    out, k = f"{base}.html", 2
    while out.lower() in taken or out.lower() == "index.html":
        out, k = f"{base}-{k}.html", k + 1
    taken.add(out.lower())
    return out


@click.command("report", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, required=True, metavar="FILE|DIR...")
@click.option("-o", "--output", "output", required=True, metavar="OUT",
              help="OUT.html for one session ('-': its page on standard output; missing folders above OUT.html "
                   "are created); otherwise a directory (created if missing) that gets one page per session and "
                   "index.html.")
@click.option("--redact", is_flag=True, help="Replace secrets (<redacted:KIND>), the workspace (<workspace>) and "
                                             "home paths (<home>) in everything the page shows.")
@click.option("--redact-paths", is_flag=True, help="Replace only the workspace and home paths.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Read settings (rule selection) "
                                                                               "from this file.")
@click.option("--isolated", is_flag=True, help="Ignore configuration files (not with --config).")
@click.option("--stdin-filename", metavar="PATH", help="Name to report for '-' (standard input); its page in a "
                                                       "directory is named after it (default: stdin.html).")
def report(paths, output, redact, redact_paths, config_path, isolated, stdin_filename):
    """Write a self-contained HTML page per session: header with counts, a timeline of scenes,
    a card per turn (user input, forwarding, tool calls, evidence, reply), and the lint
    diagnostics at the elements they flag.

    The pages need no network (CSS and script inline, a strict Content-Security-Policy);
    session text is escaped, Markdown in replies is rendered without HTML, links or images.

    \b
    Examples:
      fountain-audit report session.spmd -o session.html
      fountain-audit report sessions/ -o audit-pages/      (one page each + index.html)
      fountain-audit report --redact session.spmd -o shareable.html
      cat s.spmd | fountain-audit report - --stdin-filename s.spmd -o pages/

    Exit status: 0 written, 2 usage error, unreadable path or no session file.
    """
    from fountain_audit.cli.main import Config, ConfigError, Selection, discover, load_config, no_session_file, reader_gone, \
        refuse_output_over_inputs
    from fountain_audit.cli.outputs import utf8_stdout, write_atomic
    from fountain_audit.commands.common import (EMPTY_OUTPUT, PerReason, display_path, learn_inputs, no_session_in,
                                                warn_unused_stdin_filename)
    from fountain_audit.parse.source import describe_content
    from fountain_audit.lint.linter import lint_session
    from fountain_audit.parse.fountain import gc_paused
    from fountain_audit.lint.rules import all_rules
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse
    from fountain_audit.parse.source import decode_bytes, read_path
    from fountain_audit.report.collect import collect, summary
    from fountain_audit.report.render import render_index, render_session

    if isolated and config_path is not None:
        from fountain_audit.commands.common import ISOLATED_WITH_CONFIG
        raise click.UsageError(ISOLATED_WITH_CONFIG)
    try:
        cfg = Config() if isolated else load_config(config_path, paths=paths)
        selection = Selection(tuple(cfg.rules()), tuple(getattr(cfg, "privacy_allow", ())))
    except (ConfigError, ValueError) as e:
        if str(e).startswith("--"):  # an option's value: a usage error
            raise click.UsageError(one_line(str(e))) from None
        _fail(one_line(str(e)))  # the configuration file's: no usage line, the file named
    if output == "":
        raise click.UsageError(EMPTY_OUTPUT)
    if stdin_filename and "-" not in paths:
        warn_unused_stdin_filename("one of the paths")
    files, errors = discover(paths, cfg)
    to_stdout = output == "-"  # the one page on standard output (not a directory named '-')
    from fountain_audit.atomic import resolve_target
    # a device, FIFO or socket (-o /dev/null, -o /dev/stdout) is a stream for the one page, as for
    # `lint -o`: never a directory to create
    stream = not to_stdout and resolve_target(output)[1]
    single = to_stdout or stream or output.lower().endswith((".html", ".htm")) and not os.path.isdir(output)
    # any other name is a folder, created if missing (README: `-o pages.v2`, `-o out.txt` too)
    if single and len(files) > 1:
        raise click.UsageError(f"-o {terminal_safe(output)}: one page takes one file, and the paths hold "
                               f"{len(files)} session files (.spmd, .fountain); give -o a directory (e.g. -o pages/) for a "
                               "page per session and an index")
    if not to_stdout:
        refuse_output_over_inputs(output, files)
    inputs = _InputFiles(files)
    if not single:  # the index, and each page before it is written, must not be an input either
        inputs.refuse(os.path.join(output, "index.html"), "the index")
    if not files and not errors:
        _fail(no_session_file(paths))
    rules = {r.code: {"name": r.name, "severity": str(r.severity), "doc": r.doc} for r in all_rules()}
    if not single and os.path.exists(output) and not os.path.isdir(output):
        raise click.UsageError(f"-o {terminal_safe(output)}: exists and is not a directory; for one page give a "
                               f"name ending in .html (or a device such as /dev/stdout), for a page per session "
                               f"a directory")
    folder_made = single  # (the folder is made with its first page: none when every file is skipped)
    taken: set[str] = set()
    index: list[tuple] = []  # (page summary, href): pages are written as they are made
    # pages are named by the path below the inputs' common folder: the same names however the
    # paths were typed (absolute, relative, through ..)
    real = [os.path.abspath(f) for f in files if f != "-"]
    named = {os.path.realpath(p) for p in paths if p != "-" and not os.path.isdir(p)}  # (files given by name)
    told = PerReason(", not a session: skipped")
    common = os.path.commonpath([os.path.dirname(p) for p in real]) if real else ""
    # --redact: the secrets and home users of every input are learnt before any page is made, so a
    # value that one file shows to be a secret (`password: X`) is replaced in another that holds it
    # alone, as dump and export do across their inputs (each file is read twice)
    from fountain_audit.privacy.redact import Redactor

    pool = Redactor(secrets=redact, paths=True) if redact or redact_paths else None
    stdin_text = learn_inputs(pool, files, cfg.max_file_size, None) if pool is not None else None
    for f in files:
        try:
            if f == "-" and stdin_text is not None:
                text = stdin_text
            else:
                text = decode_bytes(sys.stdin.buffer.read()) if f == "-" else read_path(f, cfg.max_file_size)
        except OSError as e:
            errors.append(f"{f}: cannot read: {e.strerror or e}")
            continue
        except MemoryError:
            errors.append(f"{f}: not enough memory to read it")
            continue
        name = (stdin_filename or "-") if f == "-" else f  # as lint names standard input
        in_folder = f != "-" and os.path.realpath(f) not in named  # found in a folder, not named
        what = describe_content(text) if in_folder else None
        # empty, blank or binary, found in a folder: skipped, as export skips it (named, it gets its
        # page, which shows its E104/E105 finding)
        if what is not None:
            told.say(name, what.removesuffix(", not a session transcript"))
            continue
        with gc_paused():  # a large model: collections would only rescan it
            document = parse(text)
            session = build_session(document)
            if session.kind == "screenplay" and in_folder:
                # found in a folder: not a session, as export and dump say (named, it gets its page)
                told.say(name, describe_content(text, session.kind))
                continue
            redactor = None
            if redact or redact_paths:
                redactor = pool.learn(session, text)
            diagnostics = lint_session(text, document, session, name, selection, frozenset(cfg.ignored_for(name)))
            # the page's title and index entry name standard input as its page file does (stdin, or
            # --stdin-filename's name), not '-'
            page = collect(session, (stdin_filename or "stdin") if f == "-" else name, text, diagnostics, redactor, rules)
            # standard input's page: named after --stdin-filename, else stdin.html (not -.html)
            shown = (display_path(stdin_filename) if stdin_filename else "stdin") if f == "-" else \
                os.path.relpath(os.path.abspath(f), common) if common else f
            if redactor is not None:  # a file name can hold a secret or a user name too
                shown = redactor.text(shown)
            href = None if single else _page_name(shown, taken)
            html = render_session(page, index_href=None if single else "index.html")
            # Everything built while the collector was paused is young: the first collection
            # after it would scan all of it (~0.4 s for 5 MB). The model holds no reference
            # cycles, so reference counting frees it; let no collection scan it.
            gc.freeze()
        target = output if single else os.path.join(output, href)
        if not single:
            inputs.refuse(target, "a page")
        if not folder_made:
            try:
                os.makedirs(output, exist_ok=True)
            except OSError as e:
                _fail(f"{output}: cannot create directory: {e.strerror or e}")
            folder_made = True
        try:
            if to_stdout:
                out = utf8_stdout("strict")
                out.write(html)
                out.flush()
            else:  # a symlink or FIFO planted in the folder is replaced, never written through
                if single:  # as a directory output is: missing folders are created (ruff's --output-file too)
                    _make_parents(target)
                write_atomic(target, html, follow=single)
        except BrokenPipeError:  # the reader went away: the status below still counts
            reader_gone()
        except OSError as e:
            # (as lint -o says it: the file first; standard output as the stream handler says it)
            _fail(f"cannot write standard output: {e.strerror or e}" if to_stdout else
                  f"{target}: cannot write: {e.strerror or e}")
        index.append((summary(page), href))
    told.close()
    if not index and not errors and told.total:  # every file found was skipped: as no session file (export too)
        _fail(no_session_in("report", paths, told.total))
    if to_stdout:
        pass  # the page is the output: nothing to announce
    elif single and index:
        click.echo(f"fountain-audit: wrote {terminal_safe(output)}", err=True)
    elif index:
        try:
            write_atomic(os.path.join(output, "index.html"), render_index(index), follow=False)
        except OSError as e:
            _fail(f"{os.path.join(output, 'index.html')}: cannot write: {e.strerror or e}")
        click.echo(f"fountain-audit: wrote {len(index)} page{'s' if len(index) != 1 else ''} and "
                   f"index.html to {terminal_safe(output)}", err=True)
        _warn_about_other_pages(output, {href for _, href in index} | {"index.html"})
    for msg in errors:
        click.secho(f"fountain-audit: error: {one_line(msg)}", err=True, fg="red")
    if errors:
        sys.exit(2)



def _warn_about_other_pages(folder: str, written: set[str]) -> None:
    """Say which pages in ``folder`` this run did not write: left by an earlier run (of other
    sessions), they are no longer linked from index.html. They are not deleted: the folder
    may hold the user's own files."""
    try:
        others = sorted(n for n in os.listdir(folder) if n.endswith(".html") and n not in written
                        and os.path.isfile(os.path.join(folder, n)))
    except OSError:
        return
    if others:
        shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
        click.secho(f"fountain-audit: warning: {one_line(folder)} also holds {len(others)} page"
                    f"{'s' * (len(others) != 1)} this run did not write ({one_line(shown)}), not linked from "
                    "index.html: delete them, or write the report to an empty folder", err=True, fg="yellow")


class _InputFiles:
    """The input files, to check that a page or the index is not one of them (the same inode,
    or the same resolved path): one stat per input, one per output."""

    def __init__(self, files: list[str]) -> None:
        self.files: dict[tuple[int, int] | str, str] = {}
        for f in files:
            if f == "-":
                continue
            self.files[os.path.realpath(f)] = f
            try:
                st = os.stat(f)
                self.files[(st.st_dev, st.st_ino)] = f
            except OSError:
                pass

    def refuse(self, target: str, what: str) -> None:
        """Exit 2 when ``target`` is one of the inputs."""
        try:
            st = os.stat(target)
            f = self.files.get((st.st_dev, st.st_ino))
        except OSError:
            f = None
        f = f or self.files.get(os.path.realpath(target))
        if f is not None:
            _fail(f"{os.path.normpath(target)}: refusing to write {what} over an input file ({f})")


def _make_parents(path: str) -> None:
    """Create the missing folders of ``path``'s directory; exit 2 naming the one that cannot be
    (a file in the way, no permission)."""
    folder = os.path.dirname(path)
    if not folder or os.path.isdir(folder):
        return
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        _fail(f"{e.filename or folder}: cannot create directory: {e.strerror or e}")


def _fail(message: str) -> None:
    click.secho(f"fountain-audit: error: {one_line(message)}", err=True, fg="red")
    sys.exit(2)

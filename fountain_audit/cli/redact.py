"""The ``fountain-audit redact FILE...`` command: wiring only (the work is
:mod:`fountain_audit.privacy.redact`).

Writes a copy of each session file with secrets, the workspace and home paths replaced,
checked to parse to the same structure as the original. Exit status: 0 written; 1 a
redacted copy would not keep the structure (nothing written for that file); 2 usage error,
an unreadable file, a file that is not text it can read (UTF-16, binary), a file that changed
while being redacted, or an output that cannot be written.
"""

from __future__ import annotations

import os
import sys

import click

from fountain_audit.untrusted import terminal_safe, one_line


@click.command("redact", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", nargs=-1, required=True, metavar="PATH...")
@click.option("-o", "--output", "output_file", type=click.Path(), metavar="OUT",
              help="Write the redacted copy of the one FILE to OUT, or those of a DIRECTORY's files (or of "
                   "several FILEs: OUT a folder, or ending in /) under the folder OUT (atomically; '-': "
                   "standard output).")
@click.option("--in-place", is_flag=True, help="Replace each FILE by its redacted copy (atomically; a file that "
                                                "changed since it was read, or that has other hard links, is "
                                                "left alone).")
@click.option("--paths-only", is_flag=True, help="Replace only the workspace and home paths, not secrets.")
@click.option("--stdin-filename", metavar="PATH", help="Name to report for '-' (standard input).")
def redact(files, output_file, in_place, paths_only, stdin_filename):
    """Write a shareable copy of session files: secrets become <redacted:KIND>, the
    Workspace: path <workspace>, home directories <home> (see README, Privacy).

    The copy parses to the same structure as the original (same scenes, turns, notes and
    note kinds; tool-call arguments that were JSON still are); if it would not, nothing is
    written for that file. Without -o or --in-place the copy of the one FILE goes to
    standard output. A DIRECTORY is searched for *.spmd and *.fountain files as lint searches
    it; with -o OUT, each copy is written to OUT/ under its path relative to the DIRECTORY (OUT
    is a folder, created if missing; a secret in a file's name is replaced in its copy's name,
    as redacted-KIND). Several FILEs with -o FOLDER/ (a folder, or a name ending in /):
    a copy each in FOLDER under its file's name. --in-place overwrites the originals: no
    unredacted file is kept.

    \b
    Examples:
      fountain-audit redact session.spmd -o session.redacted.spmd
      fountain-audit redact sessions/ -o redacted/          # redacted/a.spmd, redacted/2026/b.spmd ...
      fountain-audit redact a.spmd b.spmd -o redacted/      # redacted/a.spmd, redacted/b.spmd
      fountain-audit redact --in-place sessions/            # overwrites the originals
      cat s.spmd | fountain-audit redact - --stdin-filename s.spmd -o shared.spmd

    Exit status: 0 written; 1 a copy would not keep the structure; 2 usage error, an
    unreadable file, a file that is not text it can read (UTF-16, binary: nothing written; stray
    non-UTF-8 bytes are kept), a file changed while being redacted, or an output that cannot be
    written.
    """
    from fountain_audit.cli.outputs import utf8_stdout, write_atomic
    from fountain_audit.commands.common import read_stdin
    from fountain_audit.parse.source import (DEFAULT_MAX_FILE_SIZE, decode_file, describe_content, encode_text,
                                             read_bytes, why_unreadable)
    from fountain_audit.privacy.redact import redact_session

    if output_file == "":
        from fountain_audit.commands.common import EMPTY_OUTPUT
        raise click.UsageError(EMPTY_OUTPUT)
    if output_file == "-" and not in_place:  # -o -: standard output, as without -o
        output_file = None
    if output_file and in_place:
        raise click.UsageError("choose one of -o and --in-place")
    folders = [f for f in files if f != "-" and os.path.isdir(f)]
    targets: dict[str, str] = {}  # a file found under a folder -> its copy under -o (before anything is read)
    renamed: set[str] = set()  # those of them whose copy is named otherwise (a secret in the name)
    if folders:
        if not (output_file or in_place):
            raise click.UsageError(f"{terminal_safe(folders[0])}: a directory: give -o FOLDER for the redacted copies "
                                   "(the originals untouched), or --in-place to overwrite each original with its "
                                   "redacted copy (no unredacted file is kept)")
        if output_file and len(files) > 1:
            raise click.UsageError("-o with a directory takes that one directory: its copies go to -o FOLDER under "
                                   "their paths relative to it (redact each other path on its own)")
        files, targets, renamed = _expand(files, output_file if output_file else None, secrets=not paths_only)
    elif output_file and len(files) > 1 and "-" not in files and (os.path.isdir(output_file)
                                                                  or output_file.endswith(("/", os.sep))):
        # several files into a folder: each copy under its file's name (a secret in it replaced)
        targets, renamed = _named_copies(files, output_file, secrets=not paths_only)
    elif output_file and os.path.isdir(output_file):
        raise click.UsageError(f"{terminal_safe(output_file)}: a directory: -o names the copy of the one FILE (the "
                               "copies of a directory's files, or of several files, go to -o FOLDER)")
    elif not in_place and len(files) > 1:
        raise click.UsageError("several files: without --in-place, redact writes the copy of one FILE (to -o OUT or "
                               "standard output). To keep the originals, name a folder for the copies: -o FOLDER/ "
                               "(each copy under its file's name) (" + _IN_PLACE_WARNING + ")")
    if output_file and not targets and files[0] != "-":  # -o over the input would replace the original: --in-place says that
        from fountain_audit.cli.outputs import is_same_file
        if is_same_file(output_file, files[0]):
            _error(f"{output_file}: refusing to write the redacted copy over its input (--in-place replaces "
                   "the file)")
            sys.exit(2)
    if output_file and files[0] == "-":  # (`redact - -o a.spmd < a.spmd`)
        from fountain_audit.commands.common import is_standard_input
        if is_standard_input(output_file):
            _error(f"{output_file}: refusing to write the redacted copy over its input (standard input)")
            sys.exit(2)
    if stdin_filename and "-" not in files:
        from fountain_audit.commands.common import warn_unused_stdin_filename
        warn_unused_stdin_filename("one of the files")
    status = 0
    many = len(files) > 1  # (then a line per file that had something replaced, and one line of totals)
    written = changed = 0
    totals = [0, 0, 0]  # secrets, workspace paths, home paths replaced
    for f in files:
        name = (stdin_filename or "-") if f == "-" else f  # (the name in messages, as lint names standard input)
        try:  # opened once, as dump reads: a FIFO or device is never read, a file over max-file-size never
            if f == "-":
                if in_place:
                    raise click.UsageError("--in-place needs files, not '-'")
                original, text = None, read_stdin(DEFAULT_MAX_FILE_SIZE)
            else:
                original = read_bytes(f)
                text = decode_file(original, f)
        except OSError as e:
            _error(f"{name}: {why_unreadable(f, e)}")
            status = 2
            continue
        what = describe_content(text)
        if what is not None and what != "empty" and not what.startswith("blank"):  # UTF-16, binary, an image:
            _error(f"{name}: {what}: not redacted (nothing written)")  # no secret would be found in it
            status = 2
            continue
        result = redact_session(text, secrets=not paths_only)
        if result.problem:
            _error(f"{name}: not written: the redacted copy would not keep the session's structure "
                   f"({result.problem})")
            status = max(status, 1)
            continue
        target = f if in_place else targets.get(f, output_file)
        try:
            if target is None:
                out = utf8_stdout("surrogateescape")
                # A terminal would act on the session's control sequences (retitle, clear, hide
                # text): there it is shown escaped, as show does; a pipe or a file gets the copy.
                out.write(terminal_safe(result.text) if _is_terminal(out) else result.text)
                out.flush()
            else:
                if in_place:
                    if os.path.islink(f):  # the rename replaces the link: the file it names would keep the secrets
                        _error(f"{f}: is a symbolic link; replacing it would leave the unredacted text in the "
                               "file it names: left as it is (redact that file)")
                        status = 2
                        continue
                    with open(f, "rb") as fh:
                        links = os.fstat(fh.fileno()).st_nlink
                        if links > 1:  # a rename replaces this name only: the others would keep the secrets
                            _error(f"{f}: has {links} hard links; replacing it would leave the unredacted text "
                                   f"under the other {links - 1} name(s): left as it is (redact it with -o)")
                            status = 2
                            continue
                        if fh.read() != original:
                            _error(f"{f}: changed since it was read; left as it is")
                            status = 2
                            continue
                if _plain(result.text):
                    write_atomic(target, result.text, parents=not in_place)
                else:
                    write_atomic(target, encode_text(result.text), parents=not in_place)
        except BrokenPipeError:  # the reader (head, less ...) went away: stop quietly, as dump does
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(status)
        except OSError as e:
            _error(f"{target if target is not None else 'standard output'}: cannot write: {e.strerror or e}")
            status = 2
            continue
        if target is not None:
            c = result.counts
            written += 1
            changed += bool(c.secrets or c.workspace or c.home)
            totals = [totals[0] + c.secrets, totals[1] + c.workspace, totals[2] + c.home]
            if many and not (c.secrets or c.workspace or c.home) and f not in renamed:
                continue  # (a folder's unchanged copies: counted in the totals line only)
            click.echo(f"fountain-audit: {terminal_safe(target)}: {c.secrets} secret(s), {c.workspace} workspace path(s), "
                       f"{c.home} home path(s) replaced" + (" (a secret in its file name replaced too)"
                                                            if f in renamed else ""), err=True)
    if many and written:
        what = f"{written} file{'' if written == 1 else 's'} redacted in place" if in_place else \
            f"{written} redacted cop{'y' if written == 1 else 'ies'} written"
        click.echo(f"fountain-audit: {what} ({changed} with replacements): {totals[0]} secret(s), {totals[1]} workspace "
                   f"path(s), {totals[2]} home path(s) replaced", err=True)
    sys.exit(status)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError):
        return False


def _plain(text: str) -> bool:
    """No undecodable bytes (lone surrogates): the text can be written as UTF-8."""
    return not any("\udc80" <= c <= "\udcff" for c in text)


#: What --in-place does, said wherever a hint names it.
_IN_PLACE_WARNING = "--in-place instead overwrites each original with its redacted copy: no unredacted file is kept"


def _expand(paths: tuple[str, ...], out: str | None, *, secrets: bool = True
            ) -> tuple[tuple[str, ...], dict[str, str], set[str]]:
    """The session files of ``paths`` (a directory searched as lint searches it:
    :func:`fountain_audit.commands.common.discover`) and, with ``out`` (the one directory's
    copies folder), each file's copy: ``out`` joined with its path relative to the directory
    (:func:`copy_name`: a secret in it replaced, unless not ``secrets``: ``--paths-only``), and
    the files whose copy is named otherwise.
    Raises a usage error (nothing read or written) for a path that cannot be searched, a
    directory holding no session file, an ``out`` that is a file, or one inside the directory
    (a second run would redact the copies again)."""
    from fountain_audit.commands.common import discover, no_session_file

    found, errors = discover(paths)
    if errors:
        raise click.UsageError(errors[0])
    if not found:
        raise click.UsageError(no_session_file(paths))
    if out is None:
        return tuple(found), {}, set()
    if os.path.exists(out) and not os.path.isdir(out):
        raise click.UsageError(f"{terminal_safe(out)}: not a directory: with a directory to redact, -o names the "
                               "folder for the copies")
    top = os.path.realpath(paths[0])
    into = os.path.realpath(out)
    if into == top or into.startswith(top.rstrip(os.sep) + os.sep):
        raise click.UsageError(f"{terminal_safe(out)}: inside {terminal_safe(paths[0])}: the copies would be "
                               "redacted again by the next run; choose a folder outside it")
    targets, renamed = _copies(out, {f: os.path.relpath(f, paths[0]) for f in found}, secrets)
    return tuple(found), targets, renamed


def _named_copies(files: tuple[str, ...], out: str, *, secrets: bool) -> tuple[dict[str, str], set[str]]:
    """``redact FILE... -o FOLDER``: each file's copy in ``out`` under its file's name (see
    :func:`_copies`). Raises a usage error for two files of the same name (one copy would
    replace the other)."""
    names: dict[str, str] = {}
    seen: dict[str, str] = {}
    for f in files:
        base = os.path.basename(os.path.normpath(f))
        key = os.path.normcase(base)
        if key in seen and os.path.realpath(seen[key]) != os.path.realpath(f):
            raise click.UsageError(f"{terminal_safe(seen[key])} and {terminal_safe(f)}: two files named "
                                   f"{terminal_safe(base)}: one copy in {terminal_safe(out)} would replace the other "
                                   "(redact them one at a time, each with its own -o)")
        seen[key] = f
        names[f] = base
    targets, renamed = _copies(out, names, secrets)
    for f, target in targets.items():
        if os.path.exists(target) and os.path.samefile(target, f):
            raise click.UsageError(f"{terminal_safe(out)}: holds {terminal_safe(f)}: its copy would replace it (name "
                                   "another folder, or use --in-place to replace the originals)")
    return targets, renamed


def _copies(out: str, names: dict[str, str], secrets: bool) -> tuple[dict[str, str], set[str]]:
    """Each file's copy in ``out`` under its name in ``names`` (a path relative to ``out``), a
    secret in the name replaced (:func:`copy_name`, unless not ``secrets``), and the files whose
    copy is named otherwise. A copy keeps its file's name when it can: the names that hold no
    secret are taken first, then the others (two that differed only in a secret, or one that
    already reads ``redacted-…``) numbered ``-2``, ``-3`` …"""
    taken = {os.path.normcase(rel) for rel in names.values()}
    targets: dict[str, str] = {}
    renamed: set[str] = set()
    for f, was in names.items():
        rel = copy_name(was) if secrets else was
        if rel != was:
            renamed.add(f)
            stem, ext = os.path.splitext(rel)
            n, free = 1, rel
            while os.path.normcase(free) in taken:
                n += 1
                free = f"{stem}-{n}{ext}"
            taken.add(os.path.normcase(free))
            rel = free
        targets[f] = os.path.join(out, rel)
    return targets, renamed


def copy_name(relative: str) -> str:
    """``relative`` (a copy's path under the copies folder) with each secret in it replaced by
    ``redacted-KIND`` (``ghp_…`` in ``notes-ghp_….spmd`` becomes ``redacted-github-token``): a file
    name is shared with the copy, and would give the secret away. A user name in the path is kept
    (it is the folder's own layout, not a home path)."""
    from fountain_audit.privacy.detect import find_secrets

    found = find_secrets(relative)
    for secret in reversed(found):
        relative = relative[:secret.start] + f"redacted-{secret.kind}" + relative[secret.end:]
    return relative


def _error(message: str) -> None:
    click.secho(f"fountain-audit: error: {one_line(message)}", err=True, fg="red")

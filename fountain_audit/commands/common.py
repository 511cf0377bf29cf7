"""What the commands share, without click: usage errors, printing as ``click.echo`` does,
finding the session files under the given paths, reading standard input, refusing to write
over an input, colour from the environment.

``fountain-audit lint`` runs without importing click (issue 9: start-up), so its body and the
helpers it calls live here; :mod:`fountain_audit.cli.main` re-exports them for the click
commands.
"""

from __future__ import annotations

import os
import stat
import sys

from fountain_audit.untrusted import terminal_safe, one_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from fountain_audit.lint.config import Config

SUFFIXES = (".spmd", ".fountain")


class UsageError(Exception):
    """A usage error of a command: printed as click prints ``click.UsageError`` (the usage
    line, a ``Try ... --help`` hint, ``Error: MESSAGE``) and exit status 2. ``message`` is
    the text after ``Error:``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def safe_output_streams() -> None:
    """Make standard output and standard error write what their encoding cannot hold as
    backslash escapes (``\\u2026``) instead of raising ``UnicodeEncodeError``: under
    ``PYTHONIOENCODING=ascii``, ``LC_ALL=C`` or a latin-1 terminal, a masked secret's ``…``, a
    rule's ``—`` or a session's text must not crash a command. Streams already writing UTF-8
    (or replaced by a caller, e.g. a test runner, with no ``reconfigure``) are left alone."""
    import codecs
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        try:
            if not encoding or codecs.lookup(encoding).name == "utf-8":
                continue
            if getattr(stream, "errors", None) not in ("backslashreplace", "replace", "namereplace",
                                                       "xmlcharrefreplace"):  # strict, surrogateescape (C locale)
                stream.reconfigure(errors="backslashreplace")
        except (AttributeError, LookupError, ValueError, OSError):
            continue  # not a TextIOWrapper, an unknown codec, a closed stream: leave it as it is


#: ANSI foreground colours used by :func:`secho` (``click.style`` codes).
_FG = {"red": 31, "green": 32, "yellow": 33}


def echo(message: str = "", *, err: bool = False, nl: bool = True) -> None:
    """Print ``message`` (and a newline unless ``nl`` is false) to standard output, or
    standard error when ``err``, then flush, as ``click.echo`` does under the
    ``fountain-audit`` group: ANSI escape sequences are removed when the stream is not a
    terminal, unless the environment forces colour (:func:`env_color`: ``NO_COLOR`` always
    removes them, ``FORCE_COLOR`` keeps them). Inside a running click command (the click path,
    ``CliRunner``) ``click.echo`` itself is called. Nothing is written when the stream is
    ``None``."""
    click = sys.modules.get("click")
    if click is not None and click.get_current_context(silent=True) is not None:
        click.echo(message, err=err, nl=nl)
        return
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    out = message + "\n" if nl else message
    if not out:
        stream.flush()
        return
    if "\x1b" in out:
        color = env_color()
        strip = not color if color is not None else not _isatty(stream)
        if strip:
            import re
            out = re.sub(r"\033\[[0-?]*[ -/]*[@-~]", "", out)  # click's strip_ansi
    stream.write(out)
    stream.flush()


def secho(message: str, *, err: bool = False, nl: bool = True, fg: str) -> None:
    """:func:`echo` of ``message`` in the colour ``fg`` (``red``, ``green`` or ``yellow``), as
    ``click.secho(message, fg=fg)``: the colour is dropped where :func:`echo` drops escapes."""
    echo(f"\x1b[{_FG[fg]}m{message}\x1b[0m", err=err, nl=nl)


def redact_messages(secrets: bool, paths: bool, redactor=None):
    """``--redact`` (``secrets``) and ``--redact-paths`` (``paths``): every message on standard
    error from now on is redacted (:func:`fountain_audit.stdio.redact_stderr`), by ``redactor``
    when given (a :class:`fountain_audit.privacy.redact.Redactor` the command also learns the
    sessions into), else by one that finds secrets and paths in the message itself: a file name
    holding a token is masked in ``name: cannot read``, ``name:6:1: no scene heading has a
    timestamp`` and every other message naming it. Inside a click command the stream is put
    back when the command's context closes; returns the function that puts it back."""
    from fountain_audit.privacy.redact import Redactor
    from fountain_audit.stdio import redact_stderr

    if redactor is None:
        redactor = Redactor(secrets=secrets, paths=secrets or paths)
    put_back = redact_stderr(redactor.text)
    click = sys.modules.get("click")
    ctx = click.get_current_context(silent=True) if click is not None else None
    if ctx is not None:
        ctx.call_on_close(put_back)
    return put_back


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except Exception:
        return False


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


#: The usage error for ``--isolated`` given with ``--config`` (``lint`` and ``report``): one
#: ignores every configuration file, the other names one to read; ruff refuses the pair too.
ISOLATED_WITH_CONFIG = ("--isolated cannot be used with --config: --isolated ignores every configuration file, "
                        "--config reads one; give one of them")


def _split(values: tuple[str, ...]) -> list[str]:
    return [v for raw in values for v in raw.split(",") if v.strip()]


def _option_rules(option: str, values: tuple[str, ...]) -> list[str]:
    """The selectors of a rule option, checked: an unknown one is a usage error naming
    ``option`` (not the configuration file), with the closest rule as a suggestion."""
    from fountain_audit.lint.selection import RuleSelectionError, resolve_rules

    selectors = _split(values)
    if values and not selectors and option == "--select":  # `--select=` or `--select "$EMPTY"`
        raise UsageError(f"{option}: no rule given; name rule codes, prefixes or names "
                         f"(leave {option} out to run every rule)")
    try:
        resolve_rules(selectors)
    except RuleSelectionError as e:
        raise UsageError(f"{option}: {e}") from None
    return selectors


def under_cwd(path: str) -> str:
    """``path`` relative to the current directory when it is absolute and lies under it (the
    configuration's ``baseline`` is resolved to an absolute path; ``--baseline`` is as typed),
    so that messages name a file the same way however it was given; otherwise ``path``."""
    if not os.path.isabs(path):
        return path
    try:
        rel = os.path.relpath(path)
    except (ValueError, FileNotFoundError):  # (another drive; the current directory was removed)
        return path
    return path if rel == os.pardir or rel.startswith(os.pardir + os.sep) else rel


def display_path(path: str) -> str:
    """``path`` as reports show it: ``.`` components and repeated slashes dropped
    (``./a//b.spmd`` → ``a/b.spmd``), since GitHub does not attach annotations to
    ``./``-paths; ``..`` and absolute paths are kept; ``-`` stays ``-``."""
    if path == "-" or not path:
        return path
    if os.sep != "/":
        from pathlib import PurePath
        return str(PurePath(path))
    # str(PurePosixPath(path)) without importing pathlib (start-up): exactly two leading slashes
    # are kept, empty and "." components dropped
    root = "//" if path[:2] == "//" and path[2:3] != "/" else "/" if path[:1] == "/" else ""
    return root + "/".join(p for p in path.split("/") if p and p != ".") or "."


def walk(top: str, onerror: Callable[[OSError], object] | None = None) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk(top, onerror=onerror)`` (top-down, symlinked directories not entered, ``dirs``
    pruned in place by the caller), without recursion: Python 3.11's ``os.walk`` recurses once
    per level, so a tree about 1,000 folders deep raised ``RecursionError`` (a traceback, exit 1,
    from ``lint DIR``: adversarial trial). Same order: each folder, then its sub-folders in the
    order ``dirs`` holds them when the caller is done with it, depth first."""
    stack = [top]
    while stack:
        root = stack.pop()
        dirs: list[str] = []
        names: list[str] = []
        try:
            with os.scandir(root) as it:
                for entry in it:
                    try:
                        is_dir = entry.is_dir()  # (a link to a folder is listed in dirs, as os.walk lists it)
                    except OSError:
                        is_dir = False
                    (dirs if is_dir else names).append(entry.name)
        except OSError as e:
            if onerror is not None:
                onerror(e)
            continue
        yield root, dirs, names
        for d in reversed(dirs):
            path = os.path.join(root, d)
            if not os.path.islink(path):  # never entered: a link loop cannot trap the walk
                stack.append(path)


def discover(paths: tuple[str, ...], cfg: Config | None = None, *,
             other_names: str | None = None) -> tuple[list[str], list[str]]:
    """Expand ``paths``: directories are searched recursively (sorted) for ``*.spmd``
    and ``*.fountain``, skipping ``exclude`` globs of ``cfg``; files are taken as
    given; ``-`` is standard input. ``other_names``: what is done with a file named in ``paths``
    whose name is neither (``"linted as Fountain"``): it is taken, and said so in a warning on
    standard error (a Markdown or HTML file passes lint as a screenplay with no finding).

    Returns ``(files, errors)`` where ``errors`` are messages for missing paths. A directory
    that holds no session file is named in a warning on standard error (with how many were
    excluded by the configuration) when other paths gave files or errors; when nothing at all
    was found the caller reports that once, with :func:`no_session_file`.
    """
    files: list[str] = []
    errors: list[str] = []
    warnings: list[str] = []
    for given in paths:
        if given == "-":
            files.append(given)
            continue
        p = display_path(given)
        if os.path.isdir(p):
            found = []
            excluded = refused = 0  # (refused: session files found that cannot be read, named as errors)
            for root, dirs, names in walk(p, onerror=lambda e: errors.append(
                    f"{e.filename}: cannot read directory: {e.strerror}")):
                # os.walk does not follow symlinked directories, so symlink loops cannot trap it;
                # hidden directories (.git, .venv ...) and excluded ones (gitignore-style: "archive",
                # "archive/", "**/tmp") are not entered.
                visible = [d for d in dirs if not d.startswith(".")]
                dirs[:] = sorted(d for d in visible if not (cfg and _dir_excluded(cfg, os.path.join(root, d))))
                excluded += len(visible) - len(dirs)
                for n in sorted(names):
                    full = display_path(os.path.join(root, n))
                    if not n.lower().endswith(SUFFIXES) or n.startswith("."):
                        continue
                    if cfg and cfg.excluded(full):
                        excluded += 1
                        continue
                    problem = _not_a_file(full)  # (a FIFO or device would block or never end: not opened)
                    if problem is None:
                        found.append(full)
                    else:
                        errors.append(f"{full}: {problem}")
                        refused += 1
            if not found and not refused:
                why = f" ({excluded} file(s) or folder(s) excluded by the configuration)" if excluded else ""
                warnings.append(f"no *.spmd or *.fountain files under {p}{why}")
            files.extend(found)
        else:
            problem = _not_a_file(given)  # (as typed: `a.spmd/` names no file, `sample/` no folder)
            if problem:
                errors.append(f"{given}: {problem}")
            else:
                files.append(p)
                if other_names and not p.lower().endswith(SUFFIXES):
                    warnings.append(f"{p}: not named *.spmd or *.fountain: {other_names}")
    seen: dict[str, int] = {}  # real path -> its place in unique
    unique = []
    for f in files:  # a file named twice (or reached twice) is linted once
        key = f if f == "-" else os.path.realpath(f)
        at = seen.get(key)
        if at is None:
            seen[key] = len(unique)
            unique.append(f)
        elif os.path.islink(unique[at]) and not os.path.islink(f):
            unique[at] = f  # reached as a link and as itself: named as itself (what a baseline keeps)
    for w in warnings:  # alone, "no files under X" would only repeat the caller's error
        if unique or errors or "excluded" in w:
            secho(f"fountain-audit: warning: {one_line(w)}", err=True, fg="yellow")
    return unique, errors


def no_session_file(paths: tuple[str, ...]) -> str:
    """The message for paths that hold no session file at all (the caller exits 2: a mistyped
    path in CI must not pass); it names a session file found only under a hidden file or folder,
    which the search skips (the first met, looking at no more than 10,000 entries)."""
    message = f"no session file (*.spmd, *.fountain) in {' '.join(paths)}"  # (as given: `empty/`, new-user trial)
    hidden = _hidden_session_file(paths)
    if hidden is not None:
        message += (f"; hidden files and folders are skipped ({display_path(hidden)} is one): "
                    "name them to include them")
    return message


def _hidden_session_file(paths: tuple[str, ...], budget: int = 10_000) -> str | None:
    for top in paths:
        if top == "-" or not os.path.isdir(top):
            continue
        for folder, dirs, files in walk(top):
            budget -= len(dirs) + len(files)
            inside_hidden = any(part.startswith(".") and part not in (".", "..")
                                for part in os.path.relpath(folder, top).split(os.sep))
            for name in sorted(files):
                if name.endswith(SUFFIXES) and (inside_hidden or name.startswith(".")):
                    return os.path.join(folder, name)
            if budget <= 0:
                return None
    return None


def nothing_selected(cfg: Config) -> str:
    """The message for a configuration that selects no rule, saying why."""
    from fountain_audit.lint.selection import resolve_rules

    chosen = resolve_rules(cfg.select + cfg.extend_select)
    target = tuple(int(p) for p in cfg.target_version.split("."))
    newer = [r for r in chosen if tuple(int(p) for p in r.since.split(".")) > target]
    if newer:
        since = max(r.since for r in newer)
        verb = "needs" if len(newer) == 1 else "need"
        rest = "; the other selected rules are ignored" if len(newer) < len(chosen) else ""
        return (f"no rule selected: {', '.join(r.code for r in newer)} {verb} target-version {since} or later "
                f"(target-version is {cfg.target_version}){rest}")
    return "no rule selected: every selected rule is ignored"


def warn_unused_stdin_filename(where: str) -> None:
    """Warn on standard error that ``--stdin-filename`` was given to a command that reads no
    ``-``; ``where`` names what would have to be ``-`` (``"FILE"``, ``"one of the paths"``,
    ``"A or B"``): ``fountain-audit: warning: --stdin-filename only applies when FILE is '-'
    (standard input); it is not used``."""
    secho(f"fountain-audit: warning: --stdin-filename only applies when {where} is '-' (standard input); "
          "it is not used", err=True, fg="yellow")


#: The usage error of an empty ``-o ''`` (lint, export, redact, report): read as no ``-o``, it
#: printed the report on standard output and exited 0.
EMPTY_OUTPUT = "-o/--output: an empty path (give a file, or '-' for standard output)"


class PerReason:
    """Warnings about files (dump's ``PerReason(": no records")``; export's and report's files
    found in a folder that are no session, ``PerReason(", not a session: skipped")``), one per
    file for the first :attr:`EACH` files of each reason, then one line counting the rest (a
    folder of 23 screenplays printed 23 lines; new-user trial):
    ``say(name, "a plain screenplay (...)")`` → ``fountain-audit: warning: NAME: WHAT{tail}``;
    :meth:`close` → ``fountain-audit: warning: 20 more files: WHAT{tail}``."""

    EACH = 3

    def __init__(self, tail: str) -> None:
        self.tail = tail  # what follows the reason: ": no records", ", not a session: skipped"
        self.count: dict[str, int] = {}

    def say(self, name: str, what: str) -> None:
        n = self.count[what] = self.count.get(what, 0) + 1
        if n <= self.EACH:
            secho(f"fountain-audit: warning: {one_line(name)}: {what}{self.tail}", err=True, fg="yellow")

    @property
    def total(self) -> int:
        """How many files were told of, for every reason (each :meth:`say`)."""
        return sum(self.count.values())

    def close(self) -> None:
        for what, n in self.count.items():
            if n > self.EACH:
                more = n - self.EACH
                secho(f"fountain-audit: warning: {more} more file{'s' if more > 1 else ''}: {what}{self.tail}",
                      err=True, fg="yellow")


def no_session_in(action: str, paths, found: int) -> str:
    """The error when every file found in ``paths`` was skipped (``action``: "export", "report"):
    ``no session to export in DIR: 3 files found, none a Harvey session (see the warnings above)``."""
    return (f"no session to {action} in {', '.join(paths)}: {found} file{'s' * (found != 1)} found, none a "
            "Harvey session (see the warnings above)")


def learn_inputs(redactor, files: list[str], max_size: int | None, stdin_max: int | None) -> str | None:
    """``--redact`` across inputs: ``redactor`` (a :class:`~fountain_audit.privacy.redact.Redactor`)
    learns the secrets and home users of every file of ``files`` (``-``: standard input, read at
    most ``stdin_max`` bytes; the others through ``read_path(f, max_size)``) before anything is
    written, so a value one file shows to be a secret (``password: X``) is replaced in another that
    holds it alone. Returns standard input's text when it is an input (read once, here), else
    ``None``. A file that cannot be read is left out (the command says why when it reads it)."""
    from fountain_audit.parse.source import read_path

    stdin = None
    for f in files:
        try:
            if f == "-":
                text = stdin = read_stdin(stdin_max)
            else:
                text = read_path(f, max_size)
        except (OSError, MemoryError):
            continue
        redactor.learn(None, text)
    return stdin


def read_stdin(max_size: int | None) -> str:
    """Standard input, decoded losslessly; raises ``FileTooLarge`` past ``max_size`` bytes."""
    from fountain_audit.parse.source import FileTooLarge, decode_bytes, format_size

    data = sys.stdin.buffer.read() if max_size is None else sys.stdin.buffer.read(max_size + 1)
    if max_size is not None and len(data) > max_size:
        raise FileTooLarge(27, f"over the size limit (max-file-size {format_size(max_size)})")
    return decode_bytes(data)


def reader_gone(stderr: bool = False) -> None:
    """Standard output's reader went away (``| head``, ``| true``, a closed pager): send what is
    still to be written to ``os.devnull``, so that neither the rest of the command nor the
    interpreter's last flush fails on it. The caller then exits with the status it has so far
    (a closed pipe is not an error of the command: ``lint`` still exits 1 for errors found).
    With ``stderr``, standard error's too (``2>&1 | head``: a message could not be printed)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (sys.stdout, sys.stderr) if stderr else (sys.stdout,):
            try:
                os.dup2(devnull, stream.fileno())
            except (AttributeError, OSError, ValueError):  # (no file descriptor: a test runner's stream)
                continue
    finally:
        os.close(devnull)


def refuse_output_over_inputs(output: str, inputs: list[str], what: str = "the report") -> None:
    """Exit 2 when ``output`` is (or links to) one of ``inputs``: nothing we write may
    overwrite a file we read. An input ``-`` is standard input: refused when it is the file
    ``output`` names (``lint - -o a.spmd < a.spmd``, see :func:`is_standard_input`)."""
    from fountain_audit.cli.outputs import is_same_file

    for f in inputs:
        if f == "-":
            if is_standard_input(output):
                _fail(f"{output}: refusing to write {what} over an input file (standard input)")
        elif is_same_file(output, f):
            _fail(f"{output}: refusing to write {what} over an input file ({f})")


def is_standard_input(path: str) -> bool:
    """True when standard input is a regular file and ``path`` names that same file (device and
    inode of ``os.fstat`` on standard input's descriptor and ``os.stat(path)``, a symlink
    followed): a shell's ``< a.spmd``. A pipe, terminal or device, a closed standard input, or
    one with no descriptor (a test runner's) is never the same as a path."""
    try:
        fd = sys.stdin.fileno()
        here = os.fstat(fd)
        there = os.stat(path)
    except (AttributeError, OSError, ValueError):  # (io.UnsupportedOperation is an OSError and a ValueError)
        return False
    return stat.S_ISREG(here.st_mode) and (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _not_a_file(path: str) -> str | None:
    """Why ``path`` (named on the command line, or found in a directory) cannot be read, or
    ``None``: ``no such file or directory``, ``permission denied`` (e.g. inside an unreadable
    directory), ``not a regular file`` (a FIFO would block forever, a device never ends),
    ``a dangling symbolic link (to TARGET)``, ``a symbolic link loop``."""
    from fountain_audit.parse.source import why_unreadable
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        return why_unreadable(path, e)
    return None if stat.S_ISREG(mode) else "not a regular file"
def _fail(message: str) -> None:
    """Print ``fountain-audit: error: MESSAGE`` on standard error and exit 2."""
    secho(f"fountain-audit: error: {one_line(message)}", err=True, fg="red")
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

"""Project configuration: ``[tool.fountain-audit]`` in ``pyproject.toml`` or ``fountain-audit.toml``.

Discovery: from the starting directory upwards, the first ``fountain-audit.toml``
(any content) or ``pyproject.toml`` that has a ``[tool.fountain-audit]`` table
wins; the directory holding it is the project root that globs are relative to.
A file found so that another user could have written (see :func:`_doubt`) is
passed over with a warning on stderr; one given as ``--config`` is used as it is.
A ``pyproject.toml`` on the way that is not valid TOML is an error (it may hold
our settings). ``fountain-audit.toml`` takes the keys at its top level or, as
pasted from a ``pyproject.toml``, under ``[tool.fountain-audit]``.

Keys (all optional)::

    select = ["ALL"]              # rule codes, code prefixes or names
    extend-select = []            # added to select
    ignore = ["P103"]
    target-version = "1.3"        # "1.2" or "1.3": rules newer than the target are off
    exclude = ["archive/**"]      # globs of files skipped when walking directories
    max-file-size = "512MB"       # larger files are refused before reading (bytes, or K/M/GB)
    [per-file-ignores]            # glob -> rules (in pyproject: [tool.fountain-audit.per-file-ignores])
    "legacy/*.spmd" = ["P", "H102"]
    [severity]                    # rule -> "error" | "warning" | "info"
    missing-the-end = "info"
    [privacy]                     # (in pyproject: [tool.fountain-audit.privacy])
    allow = ["AKIAIOSFODNN7EXAMPLE"]   # regexes: a secret or home path they match is not reported
    baseline = "fountain-audit-baseline.json"   # relative to the config file's directory
    baseline-max-entries = 50000  # a bigger baseline is an error (exit 2)

Unknown keys, unknown rules and bad values raise :class:`ConfigError` (the CLI
exits 2 with its message). TOML is read with the standard library's ``tomllib``.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from dataclasses import MISSING, field
TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

from fountain_audit.records import record
from fountain_audit.lint.diagnostics import Severity
from fountain_audit.lint.selection import RuleSelectionError, resolve_rules
from fountain_audit.lint.rules import Rule
from fountain_audit.parse.source import DEFAULT_MAX_FILE_SIZE, parse_size

TARGET_VERSIONS = ("1.2", "1.3")
#: :data:`fountain_audit.lint.baseline.DEFAULT_MAX_ENTRIES` (not imported: the baseline module is
#: loaded only by runs that use a baseline; tests/test_lint_cache.py checks they agree).
DEFAULT_BASELINE_MAX_ENTRIES = 50_000
_KEYS = {"select", "extend-select", "ignore", "target-version", "exclude", "per-file-ignores", "severity",
         "max-file-size", "baseline", "baseline-max-entries", "privacy"}
_PRIVACY_KEYS = {"allow"}


class ConfigError(ValueError):
    """Invalid configuration; the message names the file and the offending key or value."""


@record
class Config:
    """Resolved settings. ``root`` is the directory globs are relative to (a :class:`pathlib.Path`;
    by default the current directory when the ``Config`` is made)."""

    root: Path = None  # type: ignore[assignment]  # a property (below): pathlib is imported when it is read
    source: Path | None = None
    select: list[str] = field(default_factory=lambda: ["ALL"])
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    target_version: str = TARGET_VERSIONS[-1]
    exclude: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    severity: dict[str, Severity] = field(default_factory=dict)
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    privacy_allow: list[str] = field(default_factory=list)
    baseline: Path | None = None
    baseline_max_entries: int = DEFAULT_BASELINE_MAX_ENTRIES

    def __init__(self, root: Path = None, source: Path | None = None, select: list[str] = MISSING,
                 extend_select: list[str] = MISSING, ignore: list[str] = MISSING,
                 target_version: str = TARGET_VERSIONS[-1], exclude: list[str] = MISSING,
                 per_file_ignores: dict[str, list[str]] = MISSING, severity: dict[str, Severity] = MISSING,
                 max_file_size: int = DEFAULT_MAX_FILE_SIZE, privacy_allow: list[str] = MISSING,
                 baseline: Path | None = None, baseline_max_entries: int = DEFAULT_BASELINE_MAX_ENTRIES) -> None:
        # (written out, not generated: see fountain_audit.records)
        self.root = root
        self.source = source
        self.select = ["ALL"] if select is MISSING else select
        self.extend_select = [] if extend_select is MISSING else extend_select
        self.ignore = [] if ignore is MISSING else ignore
        self.target_version = target_version
        self.exclude = [] if exclude is MISSING else exclude
        self.per_file_ignores = {} if per_file_ignores is MISSING else per_file_ignores
        self.severity = {} if severity is MISSING else severity
        self.max_file_size = max_file_size
        self.privacy_allow = [] if privacy_allow is MISSING else privacy_allow
        self.baseline = baseline
        self.baseline_max_entries = baseline_max_entries

    def rules(self) -> list[Rule]:
        """The enabled rules, with severity overrides applied. Raises :class:`ConfigError`
        naming the key (``select``, ``ignore``, ``severity`` ...) that holds an unknown rule."""
        chosen = list({r.code: r for r in self._resolve("select", self.select)
                       + self._resolve("extend-select", self.extend_select)}.values())  # (each rule once)
        dropped = set(r.code for r in self._resolve("ignore", self.ignore))
        overrides = {r.code: sev for key, sev in self.severity.items() for r in self._resolve("severity", [key])}
        target = tuple(int(p) for p in self.target_version.split("."))
        out = []
        for r in chosen:
            if r.code in dropped or tuple(int(p) for p in r.since.split(".")) > target:
                continue
            if r.code in overrides:
                r = r.replace(severity=overrides[r.code])
            out.append(r)
        return out

    def _resolve(self, key: str, selectors: list[str]) -> list[Rule]:
        try:
            return resolve_rules(selectors)
        except RuleSelectionError as e:
            raise ConfigError(f"{self._where()}{key}: {e}") from None

    def ignored_for(self, path: str) -> set[str]:
        """Rule codes switched off for ``path`` by ``per-file-ignores``."""
        if not self.per_file_ignores:
            return set()
        rel = self.relative(path)
        codes: set[str] = set()
        for pattern, selectors in self.per_file_ignores.items():
            if _match(rel, pattern):
                try:
                    codes.update(r.code for r in resolve_rules(selectors))
                except RuleSelectionError as e:
                    raise ConfigError(f"{self._where()}per-file-ignores {pattern!r}: {e}") from None
        return codes

    def excluded(self, path: str) -> bool:
        """True when ``path`` matches an ``exclude`` glob."""
        if not self.exclude:
            return False
        rel = self.relative(path)
        return any(_match(rel, p) for p in self.exclude)

    def relative(self, path: str) -> str:
        """``path`` relative to the project root, with ``/`` separators (as given if outside)."""
        from pathlib import Path, PurePosixPath
        try:
            return Path(os.path.abspath(path)).relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return PurePosixPath(Path(path).as_posix()).as_posix()

    def _where(self) -> str:
        return f"{shown_path(self.source)}: " if self.source else ""


def shown_path(path: str | os.PathLike) -> str:
    """``path`` as messages name it: relative to the current directory when it is below it (a
    configuration file found by searching is absolute; baseline and lint messages name files
    relative), else as it is."""
    s = os.fspath(path)
    if os.path.isabs(s):
        try:
            cwd = os.path.realpath(os.getcwd())
        except OSError:
            return s
        if s.startswith(cwd.rstrip(os.sep) + os.sep):
            return s[len(cwd.rstrip(os.sep)) + 1:]
    return s


class _Directory(str):
    """A directory's path kept as a string until :attr:`Config.root` is read (then made a
    :class:`pathlib.Path`): a lint run without configuration file does not import pathlib."""


def _get_root(self: Config) -> Path:
    root = self._root
    if type(root) is _Directory:
        from pathlib import Path
        root = self._root = Path(root)
    return root


def _set_root(self: Config, value) -> None:
    self._root = _Directory(os.getcwd()) if value is None else value


Config.root = property(_get_root, _set_root, doc="The directory globs are relative to (a pathlib.Path).")


def _match(rel: str, pattern: str) -> bool:
    """Glob match on a relative POSIX path; ``**/`` may match no directory, ``*`` crosses ``/``."""
    from pathlib import PurePosixPath
    return fnmatch.fnmatchcase(rel, pattern) or (pattern.startswith("**/") and fnmatch.fnmatchcase(rel, pattern[3:])) \
        or fnmatch.fnmatchcase(PurePosixPath(rel).name, pattern)


def find_config(start: Path) -> Path | None:
    """The configuration file that applies to ``start`` (a directory), or ``None``."""
    found = _find_config(os.fspath(start))
    if found is None:
        return None
    from pathlib import Path
    return Path(found)


def _find_config(start: str, refused: set[str] | None = None) -> str | None:
    """:func:`find_config` on strings (``start``: an absolute directory): pathlib is imported
    only once a configuration file is found (start-up time). ``refused``: the files passed
    over and warned about so far (see :func:`_refuse`)."""
    refused = set() if refused is None else refused
    d = start
    while True:
        for name in ("fountain-audit.toml", "pyproject.toml"):
            f = os.path.join(d, name)
            if not os.path.lexists(f):
                continue
            doubt = _doubt(f)  # first: a FIFO or folder another user planted is passed over, never opened
            if doubt is not None:
                if name == "fountain-audit.toml" or not os.path.isfile(f) or _has_table(f):
                    _refuse(f, doubt, refused)  # (a pyproject configuring only other tools: silently)
                continue
            if not os.path.exists(f):  # a dangling symbolic link of the user's: no file
                continue
            if not os.path.isfile(f):  # the user's own FIFO would be read (and hang), a folder skipped
                raise ConfigError(f"{shown_path(f)}: not a regular file")
            if name == "fountain-audit.toml":
                return _instead(f, refused)
            if _may_configure(f):
                data = _read_toml(f)  # a broken pyproject.toml is an error, not "no configuration"
                if "fountain-audit" in data.get("tool", {}):
                    return _instead(f, refused)
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


#: The most symbolic links followed from a discovered configuration file (as the kernel's 40).
_MAX_LINKS = 40


def _doubt(path: str) -> str | None:
    """Why the configuration file ``path`` (found by discovery) cannot be trusted, or ``None``:
    another user (not root) owns it or the directory holding it, or others (or a group not the
    user's own private group) may write to it, or to its directory when that has no sticky bit
    (as ``/tmp`` has): :func:`fountain_audit.owned.doubt` with root trusted and the user's own
    private group allowed to write. Such a file could have been planted (a
    ``fountain-audit.toml`` in ``/tmp`` saying ``ignore = ["V"]`` would silence the secret
    rules), as a cache file could (whose rule is stricter: owned by the user, writable by no
    group). A symbolic link is trusted only when the link is the user's (or root's), its
    directory passes, and so on for each link followed, and the file it leads to passes too:
    ``"symbolic link owned by another user (uid N)"``, ``"its target TARGET: writable by other
    users"`` (or why). Only status is read (``os.lstat``): nothing is opened. Not checked where
    there is no ``os.geteuid`` (Windows); a file that cannot be examined is left to the reading
    (a dangling link of the user's is no file)."""
    if not hasattr(os, "geteuid"):
        return None
    from fountain_audit.owned import doubt

    named = path
    for _ in range(_MAX_LINKS + 1):
        try:
            info = os.lstat(path)
            folder = os.stat(os.path.dirname(path) or ".")
        except OSError:
            return None
        why = doubt(info, root_trusted=True, own_group_may_write=True)  # (a link: its owner alone)
        if why is not None and stat.S_ISLNK(info.st_mode):
            why = "symbolic link " + why
        if why is None:
            why = doubt(folder, root_trusted=True, own_group_may_write=True, sticky_folder=True)
            if why is not None:
                why = "its directory is " + why
        if why is not None:
            return why if path == named else f"its target {shown_path(os.path.normpath(path))}: {why}"
        if not stat.S_ISLNK(info.st_mode):
            return None
        try:
            path = os.path.join(os.path.dirname(path), os.readlink(path))
        except OSError:
            return None
    return "too many symbolic links"


def distrusted_baseline(path: str | os.PathLike) -> str | None:
    """Why the baseline file ``path`` that a discovered configuration names may hold what
    another user wrote (:func:`_doubt`'s rule: a baseline's entries silence findings as an
    ``ignore`` does: ``"writable by other users"``), or ``None``; when it may, says
    ``fountain-audit: warning: ignoring the baseline PATH: WHY`` on stderr and it is not applied.
    A baseline not there yet is not in doubt; one given as ``--baseline`` is not asked about (the
    user's choice, as ``--config``)."""
    why = _doubt(os.fspath(path))
    if why is None:
        return None
    import sys
    from fountain_audit.untrusted import one_line
    print(f"fountain-audit: warning: ignoring the baseline {one_line(shown_path(path))}: {why}", file=sys.stderr)
    return why


def _has_table(path: str) -> bool:
    """Whether the ``pyproject.toml`` at ``path`` holds a ``[tool.fountain-audit]`` table (one
    that cannot be read or parsed does not)."""
    try:
        tool = _read_toml(path).get("tool")
    except ConfigError:
        return False
    return isinstance(tool, dict) and "fountain-audit" in tool


def _instead(path: str, refused: set[str]) -> str:
    """``path``, the configuration file found; when files were passed over before it (``refused``),
    says on stderr, once, that this one applies instead: ``fountain-audit: warning: using PATH
    instead`` (a configuration further up would otherwise apply without a word)."""
    if refused and "\0" + path not in refused:
        refused.add("\0" + path)
        import sys
        from fountain_audit.untrusted import one_line
        print(f"fountain-audit: warning: using {one_line(shown_path(path))} instead", file=sys.stderr)
    return path


def _refuse(path: str, why: str, refused: set[str]) -> None:
    """Say on stderr that the configuration file ``path`` is not applied and ``why``:
    ``fountain-audit: warning: ignoring PATH: WHY``, unless ``path`` is in ``refused`` (the
    files already warned about by this discovery, which may pass a folder twice: from the
    current directory and from the paths' folder); adds it there."""
    if path in refused:
        return
    refused.add(path)
    import sys
    from fountain_audit.untrusted import one_line
    print(f"fountain-audit: warning: ignoring {one_line(shown_path(path))}: {why}", file=sys.stderr)


def _may_configure(path: str | os.PathLike) -> bool:
    """False when ``path`` (a ``pyproject.toml``) cannot hold a ``[tool.fountain-audit]`` table:
    the word ``fountain`` is not in it and no escape (``\\u``, ``\\U``) could spell it. Then
    the file is not parsed (``tomllib`` is not even imported: start-up time). Unreadable: True
    (reading it again reports why)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return True
    return b"fountain" in data or b"\\u" in data or b"\\U" in data


def _is_rule(selector: str) -> bool:
    try:
        return bool(resolve_rules([selector]))
    except RuleSelectionError:
        return False


#: A configuration file larger than this is refused unread (a real one is a few KB).
_MAX_CONFIG_BYTES = 16 << 20


def _read_toml(path: str | os.PathLike) -> dict[str, Any]:
    """Parse a TOML file. Raises :class:`ConfigError` naming the file and the TOML error."""
    import tomllib  # only when there is a file to read (start-up)
    real, path = path, shown_path(path)
    try:
        if not stat.S_ISREG(os.stat(real).st_mode):  # a FIFO would block, /dev/zero never end
            raise ConfigError(f"{path}: not a regular file")
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as f:  # (not blocking on a FIFO put there since the check)
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ConfigError(f"{path}: not a regular file")
            data = f.read(_MAX_CONFIG_BYTES + 1)
        if len(data) > _MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: larger than {_MAX_CONFIG_BYTES >> 20} MB: not a configuration file")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:  # where, as the baseline's message says what
            before = data[:e.start]
            line = before.count(b"\n") + 1
            col = len(before[before.rfind(b"\n") + 1:].decode("utf-8")) + 1
            raise ConfigError(f"{path}:{line}:{col}: not UTF-8 ({e.reason} at byte {e.start})") from None
        if text.startswith("\ufeff"):  # tomllib's 'Invalid statement' at 1:1 would not say why
            raise ConfigError(f"{path}:1:1: invalid TOML: the file starts with a byte-order mark (U+FEFF); "
                              "save it as UTF-8 without one")
        return tomllib.loads(text)
    except ConfigError:
        raise
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(_toml_error(path, e, text)) from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None
    except ValueError:  # an integer of 4,300+ digits (Python's int conversion limit)
        raise ConfigError(f"{path}: invalid TOML: a number too long to read") from None


def _toml_error(path: str | os.PathLike, e: ValueError, text: str) -> str:
    """``PATH:LINE:COL: invalid TOML: MESSAGE`` for a TOML error of the file's ``text``: tomllib
    puts the position at the end of its message, ``(at line 1, column 11)`` (or in ``lineno``
    and ``colno`` from Python 3.14); an error ``(at end of document)`` is placed just after the
    last character (the message keeps saying so)."""
    import re
    message = str(e)
    m = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message, re.S)
    if m:
        return f"{path}:{m.group(2)}:{m.group(3)}: invalid TOML: {m.group(1)}"
    if message.endswith("(at end of document)"):
        lines = text.split("\n")
        return f"{path}:{len(lines)}:{len(lines[-1]) + 1}: invalid TOML: {message}"
    lineno, colno, msg = getattr(e, "lineno", None), getattr(e, "colno", None), getattr(e, "msg", None)
    if isinstance(lineno, int) and isinstance(colno, int) and isinstance(msg, str):
        return f"{path}:{lineno}:{colno}: invalid TOML: {msg}"
    return f"{path}: invalid TOML: {message}"


def _warn_unshared(paths: list[str], given: list[str], refused: set[str]) -> None:
    """Paths from several folders that share no configuration, one of which has one of its own
    (``lint proj/sessions/a.spmd other/b.spmd``, ``proj`` configured): the defaults apply to every
    file, which ``fountain-audit: warning: ...`` on stderr says, naming the first such
    configuration (it was dropped silently; new-user trial). ``given``: ``paths`` resolved."""
    import sys

    from fountain_audit.untrusted import one_line
    looked: set[str] = set()  # (the folders already looked up from: many files share a few)
    for name, real in zip(paths, given):
        folder = real if os.path.isdir(real) else os.path.dirname(real)
        if folder in looked:
            continue
        looked.add(folder)
        own = _find_config(folder, refused)
        if own is not None:
            print(f"fountain-audit: warning: the paths share no configuration file, so the defaults apply to "
                  f"every file: {one_line(shown_path(own))} configures {one_line(name)} but not the others "
                  "(lint each project on its own, or name one with --config)", file=sys.stderr)
            return


def load_config(path: Path | None = None, start: Path | None = None, paths: tuple[str, ...] = ()) -> Config:
    """Read ``path`` (or the discovered file; defaults when none). Raises :class:`ConfigError`,
    also for a ``pyproject.toml`` given as ``path`` that has no ``[tool.fountain-audit]`` table
    (``--config`` naming a file that configures nothing is a mistake, not the defaults).

    Discovery looks upwards from ``start`` (default: the current directory); when nothing is
    found there, from the folder that holds all of ``paths`` (the files and folders given on the
    command line; ``-`` left out): ``cd /tmp && fountain-audit lint ~/proj/sessions`` reads
    ``~/proj``'s configuration, as a run inside ``~/proj`` does."""
    explicit = path is not None
    if path is None:
        try:
            here = os.path.realpath(start if start is not None else os.getcwd())  # Path.resolve()
        except FileNotFoundError:  # the current directory was removed: no configuration is found from it
            here = None
        refused: set[str] = set()
        found = _find_config(here, refused) if here is not None else None
        if found is None:
            named = [p for p in paths if p != "-" and (here is not None or os.path.isabs(p))]
            given = [os.path.realpath(p) for p in named]
            if given:
                try:
                    common = os.path.commonpath(given)
                except ValueError:  # (paths on different drives)
                    common = None
                if common is not None:
                    found = _find_config(common if os.path.isdir(common) else os.path.dirname(common), refused)
                if found is None and len(given) > 1:
                    _warn_unshared(named, given, refused)
        if found is None:
            return Config(root=_Directory(here if here is not None else os.sep))
        path = found
    from pathlib import Path
    path = Path(path)
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool")
        if explicit and not (isinstance(tool, dict) and "fountain-audit" in tool):
            raise ConfigError(f"{shown_path(path)}: no [tool.fountain-audit] table")
        data = _tool_table(tool.get("fountain-audit", {}) if isinstance(tool, dict) else {}, path)
    elif set(data) == {"tool"} and isinstance(data["tool"], dict) and set(data["tool"]) == {"fountain-audit"}:
        data = _tool_table(data["tool"]["fountain-audit"], path)  # the pyproject shape pasted into fountain-audit.toml
    cfg = Config(root=path.parent.resolve(), source=path)
    apply_settings(cfg, data)
    cfg.rules()  # validates rule names now
    for pattern, selectors in cfg.per_file_ignores.items():
        cfg._resolve(f"per-file-ignores {pattern!r}", selectors)
    return cfg


def _tool_table(value: object, path) -> dict:
    """``value``, the ``tool.fountain-audit`` entry of the configuration file ``path``; raises
    :class:`ConfigError` when it is no table (``fountain-audit = 5``, an array of tables
    ``[[tool.fountain-audit]]``, a string: a TypeError traceback before, adversarial trials)."""
    if not isinstance(value, dict):
        raise ConfigError(f"{shown_path(path)}: 'tool.fountain-audit' must be a table ([tool.fountain-audit]), "
                          f"not {_toml_type(value)}")
    return value


def _toml_type(value: object) -> str:
    """What a TOML value is, in the words of a message: ``an integer``, ``an array``..."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, list):
        return "an array"
    return {int: "an integer", float: "a float", str: "a string"}.get(type(value), "a date or time")


def apply_settings(cfg: Config, data: dict[str, Any]) -> None:
    """Validate ``data`` (a parsed config table) and store it in ``cfg``. Raises :class:`ConfigError`."""
    where = cfg._where()
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        from fountain_audit.suggest import closest
        named = []
        for key in unknown:
            guess = closest(key, _KEYS)
            named.append(repr(key) + (f" (did you mean {guess!r}?)" if guess else ""))
        raise ConfigError(f"{where}unknown key(s) {', '.join(named)} (known: {', '.join(sorted(_KEYS))})")

    def str_list(key: str) -> list[str]:
        v = data[key]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise ConfigError(f"{where}{key!r} must be a list of strings")
        if any(not x.strip() for x in v):  # `ignore = [""]` selects nothing: a slip, not a setting
            raise ConfigError(f"{where}{key!r} holds an empty string")
        return v

    if "select" in data:
        cfg.select = str_list("select")
    if "extend-select" in data:
        cfg.extend_select = str_list("extend-select")
    if "ignore" in data:
        cfg.ignore = str_list("ignore")
    if "exclude" in data:
        cfg.exclude = str_list("exclude")
    if "target-version" in data:
        tv = data["target-version"]
        if not isinstance(tv, str):  # (a TOML float 1.2 read as "1.2" by accident; 1.20 too)
            raise ConfigError(f"{where}target-version must be a string, one of "
                              f"{', '.join(repr(v) for v in TARGET_VERSIONS)} (target-version = \"{TARGET_VERSIONS[-1]}\"), "
                              f"not {type(tv).__name__} {tv!r}")
        if tv not in TARGET_VERSIONS:
            raise ConfigError(f"{where}target-version must be one of {', '.join(TARGET_VERSIONS)}, not {tv!r}")
        cfg.target_version = tv
    if "max-file-size" in data:
        try:
            cfg.max_file_size = parse_size(data["max-file-size"])
        except ValueError as e:
            raise ConfigError(f"{where}max-file-size: {e}") from None
    if "per-file-ignores" in data:
        pfi = data["per-file-ignores"]
        for key in pfi if isinstance(pfi, dict) else ():  # a setting written after the table's header
            if key in _KEYS and not any(c in key for c in "*?[/."):
                raise ConfigError(f"{where}per-file-ignores: key {key!r} is a top-level setting, not a file glob: "
                                  f"'{key}' belongs at the top level (in pyproject.toml under [tool.fountain-audit]), "
                                  "before any [table] header; TOML reads every key after [per-file-ignores] as part "
                                  "of that table")
        if not isinstance(pfi, dict) or not all(isinstance(v, list) for v in pfi.values()):
            raise ConfigError(f"{where}'per-file-ignores' must map globs to lists of rules")
        cfg.per_file_ignores = {str(k): [str(x) for x in v] for k, v in pfi.items()}
        for key, selectors in cfg.per_file_ignores.items():
            if not key.strip() or any(not x.strip() for x in selectors):
                raise ConfigError(f"{where}per-file-ignores: {key!r} = {selectors!r} holds an empty string")
        for key in cfg.per_file_ignores:  # the table turned round: {"P102" = ["a.spmd"]}
            if not any(c in key for c in "*?[/.") and _is_rule(key):
                raise ConfigError(f"{where}per-file-ignores: key {key!r} is a rule, not a file glob "
                                  f"(write \"GLOB\" = [\"{key}\", ...])")
    if "privacy" in data:
        cfg.privacy_allow = _privacy_allow(data["privacy"], where)
    if "baseline" in data:
        if not isinstance(data["baseline"], str) or not data["baseline"]:
            raise ConfigError(f"{where}'baseline' must be a file name (a string)")
        if "\0" in data["baseline"]:  # (TOML can write one, "\u0000"; no file name holds it)
            raise ConfigError(f"{where}'baseline' holds a NUL character (\\u0000): not a file name")
        cfg.baseline = cfg.root / data["baseline"]
    if "baseline-max-entries" in data:
        cap = data["baseline-max-entries"]
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
            raise ConfigError(f"{where}'baseline-max-entries' must be a positive integer, not {cap!r}")
        cfg.baseline_max_entries = cap
    if "severity" in data:
        sev = data["severity"]
        if not isinstance(sev, dict):
            raise ConfigError(f"{where}'severity' must map rules to error, warning or info")
        cfg.severity = {}
        for k, v in sev.items():  # each key, then its value, checked on its own: the message names the key
            cfg._resolve("severity", [str(k)])  # an unknown rule is named before its value is judged
            if not isinstance(v, str):
                raise ConfigError(f"{where}severity.{k}: must be \"error\", \"warning\" or \"info\", not {v!r}")
            try:
                cfg.severity[str(k)] = Severity.parse(v)
            except ValueError as e:
                raise ConfigError(f"{where}severity.{k}: {e}") from None


def _privacy_allow(table: Any, where: str) -> list[str]:
    """The ``[privacy] allow`` regexes, each checked to compile. Raises :class:`ConfigError`."""
    if not isinstance(table, dict):
        raise ConfigError(f"{where}'privacy' must be a table")
    unknown = sorted(set(table) - _PRIVACY_KEYS)
    if unknown:
        raise ConfigError(f"{where}privacy: unknown key(s) {', '.join(map(repr, unknown))} (known: allow)")
    allow = table.get("allow", [])
    if not isinstance(allow, list) or not all(isinstance(x, str) for x in allow):
        raise ConfigError(f"{where}privacy: 'allow' must be a list of regular expressions")
    for pattern in allow:
        try:
            re.compile(pattern)
        except re.error as e:
            raise ConfigError(f"{where}privacy: allow: invalid regular expression {pattern!r}: {e}") from None
    return allow

"""The baseline: a ledger of accepted findings, so that a team can adopt the linter on an archive
and fail CI only on new diagnostics.

A baseline file is JSON (schema: ``fountain-audit schema baseline``)::

    {
      "version": 1,
      "tool": "fountain-audit",
      "entries": [
        {"fingerprint": "f4eb…", "code": "P102", "path": "sessions/a.spmd", "excerpt": "[[tool: …", "added": "2026-12-01"}
      ]
    }

Entries are keyed by the diagnostic's stable fingerprint (:mod:`fountain_audit.lint.fingerprint`)
and written sorted by path, code and fingerprint, one per line, so that a review diff shows one
line per finding added or fixed.

* :func:`load` never trusts the file: invalid JSON, another ``version``, a schema failure, a
  duplicate fingerprint, more entries than the cap (``baseline-max-entries``) or more bytes than
  such a file can hold raise :class:`BaselineError` naming the file and the problem; a lone
  surrogate in a path or excerpt (``"\\ud800"``: valid JSON, not text) is read as its escape.
* :func:`apply` splits a run's diagnostics into new ones and baselined ones and finds the stale
  entries: entries *in scope* (their file was checked and their rule selected) that match no
  diagnostic any more.
* :func:`update` is the read-modify-write: it holds an exclusive lock (``FILE.lock``, an advisory
  ``flock``, released by the kernel even on ``kill -9``), reloads the file inside the lock (so
  two concurrent updates on different files keep each other's entries), replaces the in-scope
  entries by the current findings, writes a temporary file in the same directory, fsyncs it,
  renames it over the baseline and fsyncs the directory (a reader or a crash sees the old file
  or the new one, never a torn one), and only then appends what changed to
  ``FILE.journal.jsonl``.

This module reads and writes only the baseline, its lock and its journal; it never prints.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import json
import json.encoder
import os
import stat
import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping, NamedTuple, Sequence

from fountain_audit.atomic import TEMP_INFIX, names_folder, write_atomic
from fountain_audit.lint.diagnostics import Diagnostic
from fountain_audit.parse.source import json_safe

#: The only layout version this code reads and writes.
VERSION = 1
TOOL = "fountain-audit"
#: Default cap on entries (configuration key ``baseline-max-entries``).
DEFAULT_MAX_ENTRIES = 50_000
#: Bytes one entry may take in the file (a 4096-character path, JSON escapes); with
#: :data:`_SLACK` this bounds what :func:`load` reads before parsing.
_ENTRY_BYTES = 16 * 1024
_SLACK = 64 * 1024
#: How long :func:`update` waits for another update's lock (seconds).
LOCK_TIMEOUT = 60.0


class BaselineError(Exception):
    """A baseline that cannot be used; the message names the file and the problem."""


class Entry(NamedTuple):
    """One accepted finding: ``fingerprint`` (32 hex digits), rule ``code``, ``path`` relative to
    the project root, a short ``excerpt`` of the flagged element (untrusted session text) and the
    UTC date it was ``added`` (``YYYY-MM-DD``)."""

    fingerprint: str
    code: str
    path: str
    excerpt: str
    added: str

    def to_dict(self) -> dict:
        """The entry as its JSON object (the schema's ``$defs/entry``)."""
        return self._asdict()

    def sort_key(self) -> tuple:
        """File order: path, rule code, fingerprint (small diffs in review)."""
        return (self.path, self.code, self.fingerprint)


@dataclass(frozen=True)
class Scope:
    """What a run checked: ``paths`` (relative to the project root) and rule ``codes``, less the
    codes ``ignored`` for a path (``per-file-ignores``: path -> codes), and the ``gone`` paths:
    files the baseline names, in a folder the run searched, that no longer exist (see
    :func:`gone_paths`), whose entries are all in scope. Only entries inside it can be matched,
    found stale or replaced; the others are kept as they are (a rule a per-file ignore switched
    off did not run on that file: its entries are not fixed findings; new-user trial, stop 38)."""

    paths: frozenset[str]
    codes: frozenset[str]
    gone: frozenset[str] = frozenset()
    ignored: Mapping[str, frozenset[str]] = field(default_factory=dict, hash=False)

    def __contains__(self, entry: Entry) -> bool:
        return entry.path in self.gone or (entry.path in self.paths and entry.code in self.codes
                                           and entry.code not in self.ignored.get(entry.path, ()))


def gone_paths(entries: Iterable[Entry], folders: Iterable[str], root: str) -> frozenset[str]:
    """The paths of ``entries`` that lie in one of ``folders`` (relative to the project ``root``,
    ``/`` separators, ``.`` for the root itself: the folders a run searched) and name no file
    there any more (deleted, renamed): their entries can never match again. A path outside those
    folders is not judged (the run did not look there), nor one stored with an escaped byte."""
    prefixes = tuple("" if f in (".", "") else f.rstrip("/") + "/" for f in folders)
    if not prefixes:
        return frozenset()
    return frozenset(p for p in {e.path for e in entries}
                     if p.startswith(prefixes) and not p.startswith("../") and "\\x" not in p
                     and not os.path.lexists(os.path.join(root, *p.split("/"))))


@dataclass(frozen=True)
class Outcome:
    """:func:`apply`'s answer: the ``new`` diagnostics (to report), how many were ``baselined``,
    the ``stale`` entries (sorted), and the baseline ``file`` as the user named it."""

    new: list[Diagnostic]
    baselined: int
    stale: list[Entry]
    file: str = ""


@dataclass(frozen=True)
class Change:
    """:func:`update`'s answer: every entry now in the file, and those ``added`` and ``removed``."""

    entries: dict[str, Entry]
    added: list[Entry]
    removed: list[Entry]


# -- reading ----------------------------------------------------------------------------------------------

def max_bytes(max_entries: int) -> int:
    """The largest file :func:`load` reads for a cap of ``max_entries``."""
    return _SLACK + max_entries * _ENTRY_BYTES


def _validator():
    import fastjsonschema  # only baselines need it (start-up time)

    from fountain_audit import schemas
    return fastjsonschema.compile(schemas.load("baseline"))


def parse(path: str, data: bytes, max_entries: int = DEFAULT_MAX_ENTRIES) -> dict[str, Entry]:
    """The entries of a baseline file's bytes ``data`` (``path`` names it in errors), by
    fingerprint. Raises :class:`BaselineError`."""
    import fastjsonschema

    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise BaselineError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise BaselineError(f"{path}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    except ValueError:  # an integer of 4,300+ digits (Python's int conversion limit): no baseline has one
        raise BaselineError(f"{path}: not a valid baseline: a number too long to read") from None
    except RecursionError:
        raise BaselineError(f"{path}: not a valid baseline: JSON nested too deeply") from None
    if isinstance(doc, dict) and "version" in doc and doc["version"] != VERSION:
        version = doc["version"]
        if type(version) is not int or version < 1:  # (1e400 read as Infinity: no later fountain-audit writes it)
            raise BaselineError(f"{path}: not a valid baseline: version {json.dumps(version)[:40]} is no layout "
                                f"version (this fountain-audit reads version {VERSION})")
        raise BaselineError(f"{path}: unknown baseline version {json.dumps(version)[:40]} "
                            f"(this fountain-audit reads version {VERSION}); upgrade fountain-audit")
    try:
        _validator()(doc)
    except fastjsonschema.JsonSchemaValueException as e:
        where = e.name.replace("data", "", 1) or "the document"
        raise BaselineError(f"{path}: does not match the baseline schema: {where.lstrip('.')} "
                            f"{e.message.split(' ', 1)[1] if e.message.startswith(e.name) else e.message}"
                            " (see 'fountain-audit schema baseline')") from None
    if len(doc["entries"]) > max_entries:
        raise BaselineError(f"{path}: {len(doc['entries'])} entries, more than baseline-max-entries "
                            f"({max_entries})")
    entries: dict[str, Entry] = {}
    for i, raw in enumerate(doc["entries"]):
        file, excerpt = _well_formed(raw["path"]), _well_formed(raw["excerpt"])
        if len(file) > 4096:  # (the schema's maxLength, once escaped: it would not be read back)
            raise BaselineError(f"{path}: entries[{i}]: path holds lone surrogates (\\udXXX, not text), "
                                "too many to keep escaped")
        if len(excerpt) > 81:  # an excerpt is a hint: at most 80 code points and an ellipsis
            excerpt = excerpt[:80] + "…"
        entry = Entry(raw["fingerprint"], raw["code"], file, excerpt, raw["added"])
        if not _a_date(entry.added):  # (the schema's pattern takes 2026-13-45: adversarial trial)
            raise BaselineError(f"{path}: entries[{i}]: added {json.dumps(entry.added)[:40]} is no date (YYYY-MM-DD)")
        if entry.fingerprint in entries:
            raise BaselineError(f"{path}: entries[{i}]: fingerprint {entry.fingerprint} is listed twice")
        entries[entry.fingerprint] = entry
    return entries


def _a_date(text: str) -> bool:
    """Whether ``text`` (``YYYY-MM-DD``, as the schema's pattern checks) is a date of the calendar."""
    import datetime
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _well_formed(value: str) -> str:
    """``value`` with each lone surrogate (JSON allows ``"\\ud800"``; no text holds one, and
    UTF-8 cannot encode it) as the backslash escape ``\\ud800``: an entry read from an untrusted
    baseline is then written back, journalled and printed like any other (escaped), never a
    ``UnicodeEncodeError`` halfway through an update."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value


def _file_name(path: str) -> str:
    """``path``, unless it is a folder's name (it ends in a separator, or in ``.`` or ``..``):
    then :class:`BaselineError`, before anything is created (``--update-baseline --baseline bl/``
    made a folder ``bl`` and then failed on it)."""
    if names_folder(path):
        raise BaselineError(f"{path}: a folder's name, not a file's: name the baseline's file "
                            f"(e.g. {os.path.join(path, 'fountain-audit-baseline.json')})")
    return path


def load(path: str | os.PathLike, max_entries: int = DEFAULT_MAX_ENTRIES, *,
         missing_ok: bool = False) -> dict[str, Entry]:
    """Read and check the baseline at ``path``; entries by fingerprint. A missing file is an
    error unless ``missing_ok`` (then: no entries). Raises :class:`BaselineError`."""
    path = _file_name(os.fspath(path))
    limit = max_bytes(max_entries)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block forever, a device never end
            raise BaselineError(f"{path}: not a regular file")
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        if missing_ok:
            return {}
        raise BaselineError(f"{path}: no such baseline (create it with --update-baseline)") from None
    except OSError as e:
        raise BaselineError(f"{path}: cannot read: {e.strerror or e}") from None
    except ValueError:  # a NUL character in the name (the configuration refuses one: see lint.config)
        raise BaselineError(f"{path!r}: not a file name (it holds a NUL character)") from None
    if len(data) > limit:
        raise BaselineError(f"{path}: larger than {limit} bytes, more than baseline-max-entries "
                            f"({max_entries}) entries can take")
    try:
        return parse(path, data, max_entries)
    except RecursionError:  # absurdly nested JSON is no baseline
        raise BaselineError(f"{path}: not a valid baseline: JSON nested too deeply") from None


# -- matching ---------------------------------------------------------------------------------------------

def apply(entries: Mapping[str, Entry], diagnostics: Iterable[Diagnostic], scope: Scope, file: str = "") -> Outcome:
    """Split ``diagnostics`` (with fingerprints) into new ones and baselined ones; entries in
    ``scope`` that match none are stale (their excerpt and path with any secret masked, as a
    diagnostic's: the file is read, not trusted). Diagnostics keep their order."""
    new: list[Diagnostic] = []
    matched: set[str] = set()
    baselined = 0
    for d in diagnostics:
        if d.fingerprint is not None and d.fingerprint in entries:
            matched.add(d.fingerprint)
            baselined += 1
        elif d.former_fingerprint is not None and d.former_fingerprint in entries:
            # an entry written before fingerprints masked secrets (the unmasked line's hash):
            # still accepted; --update-baseline rewrites it under the new fingerprint
            matched.add(d.former_fingerprint)
            baselined += 1
        else:
            new.append(d)
    stale = sorted((e for fp, e in entries.items() if fp not in matched and e in scope), key=Entry.sort_key)
    if stale:  # reported: a secret in an excerpt (a hand-edited file, one older than a detector) is masked
        from fountain_audit.privacy.redact import mask
        stale = [e._replace(excerpt=mask(e.excerpt, keep_newlines=False), path=mask(e.path, keep_newlines=False))
                 for e in stale]
    return Outcome(new, baselined, stale, file)


def _same_file_other_root(a: str, b: str) -> bool:
    """Whether baseline path ``a`` and run path ``b`` may name one file from two project roots:
    one is the other with leading folders (``sessions/a.spmd``, ``proj/sessions/a.spmd``,
    ``../proj/sessions/a.spmd``)."""
    return a != b and (a.endswith("/" + b) or b.endswith("/" + a))


def unmatched(entries: Mapping[str, Entry], diagnostics: Iterable[Diagnostic], keys: Mapping[str, str],
              outcome: Outcome, root: str | None = None) -> tuple[str, str] | None:
    """Why a baseline may have matched nothing: when ``entries`` is not empty, the run's
    ``diagnostics`` (before :func:`apply`) include findings in files the baseline has entries
    for, and ``outcome`` baselined none of them, ``(baseline path, path here)`` of one such
    file: the two are equal when the baseline names the file as this run does, and differ
    when it names it from another project root (``sessions/a.spmd`` against
    ``proj2/sessions/a.spmd``) or names a file of the same name in another folder (moved or
    renamed: ``sessions/a.spmd`` against ``archive/a.spmd``, tried last; with the project ``root``,
    only a stored path that names no file there any more). ``keys`` maps a
    diagnostic's path to its stored path. ``None`` otherwise (the baseline matched something, or
    names none of the files with findings, nor any of their names)."""
    if not entries or outcome.baselined:
        return None
    stored = {e.path for e in entries.values()}
    found = {keys.get(d.path, d.path) for d in diagnostics if d.fingerprint is not None}
    for here in sorted(found):
        if here in stored:
            return here, here
    by_name: dict[str, list[str]] = {}  # a file's name -> the stored paths ending in it (one match needs both)
    for there in sorted(stored):
        by_name.setdefault(there.rsplit("/", 1)[-1], []).append(there)
    for here in sorted(found):
        for there in by_name.get(here.rsplit("/", 1)[-1], ()):
            if _same_file_other_root(there, here):
                return there, here
    for here in sorted(found):  # a file of the same name elsewhere: the folder moved or was renamed
        for there in by_name.get(here.rsplit("/", 1)[-1], ()):
            if root is None or not os.path.lexists(os.path.join(root, *there.split("/"))):
                return there, here
    return None


def stored_path(path: str) -> str:
    """``path`` as a baseline stores it: undecodable bytes of a file name (lone surrogates)
    become ``\\xNN`` text, so that the file is valid UTF-8. Scopes use the same form."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def entries_for(diagnostics: Iterable[Diagnostic], keys: Mapping[str, str], today: str) -> dict[str, Entry]:
    """Baseline entries for ``diagnostics``: ``keys`` maps a diagnostic's path (as reported) to
    its path relative to the project root, as :func:`stored_path` gives it. Diagnostics without a fingerprint and ``X001``
    internal errors (bugs, never accepted) are left out."""
    out: dict[str, Entry] = {}
    for d in diagnostics:
        if d.fingerprint is None or d.code.startswith("X"):
            continue
        out[d.fingerprint] = Entry(d.fingerprint, d.code, keys.get(d.path, d.path), d.excerpt or "", today)
    return out


# -- writing ----------------------------------------------------------------------------------------------

def today() -> str:
    """The UTC date as ``YYYY-MM-DD``; ``SOURCE_DATE_EPOCH`` (seconds), when set, fixes it."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    now = dt.datetime.now(dt.timezone.utc)
    if epoch and epoch.strip().isdigit():
        now = dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc)
    return now.date().isoformat()


def render(entries: Iterable[Entry]) -> str:
    """The file's text: the header, then one entry per line, sorted by path, code, fingerprint."""
    q = json.encoder.encode_basestring  # a JSON string literal, as json.dumps(..., ensure_ascii=False) writes it
    lines = [f'{{"fingerprint": {q(e.fingerprint)}, "code": {q(e.code)}, "path": {q(e.path)}, '
             f'"excerpt": {q(e.excerpt)}, "added": {q(e.added)}}}' for e in sorted(entries, key=Entry.sort_key)]
    # C1 controls (U+009B is a CSI), bidi controls and U+2028/U+2029 as \uNNNN escapes, the same JSON
    # values: a committed baseline is printed (cat, git diff) and reviewed, as every JSON output of ours.
    body = json_safe(",\n".join("    " + line for line in lines))
    return (f'{{\n  "version": {VERSION},\n  "tool": "{TOOL}",\n  "entries": [' +
            (f"\n{body}\n  ]" if lines else "]") + "\n}\n")


def write_durable(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that it is the old file or the new one after any
    crash (:func:`fountain_audit.atomic.write_atomic` with the directory fsynced). The file
    keeps the mode of the one it replaces. Raises ``OSError``."""
    write_atomic(path, text, durable=True)


@contextlib.contextmanager
def locked(path: str, timeout: float = LOCK_TIMEOUT, shown: str | None = None) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``path + ".lock"`` (created if needed, never removed:
    removing a lock file races with the next locker). Raises :class:`BaselineError` when
    another process holds it for ``timeout`` seconds, it cannot be opened, or it is not a regular
    file (a symlink is never followed, a FIFO never opened: see :func:`open_beside`). ``shown``
    names the baseline in messages (default ``path``)."""
    lock_path = path + ".lock"
    fd = open_beside(lock_path, os.O_RDWR | os.O_CREAT, "lock file", (shown or path) + ".lock")
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(fd):
            if time.monotonic() > deadline:
                raise BaselineError(f"{(shown or path)}.lock: another baseline update held the lock for {timeout:g} s")
            time.sleep(0.02)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _kind(st: os.stat_result, path: str) -> str:
    """What a file that is not a regular one is, for a message."""
    if stat.S_ISLNK(st.st_mode):
        try:
            return f"a symbolic link (to {os.readlink(path)})"
        except OSError:
            return "a symbolic link"
    if stat.S_ISFIFO(st.st_mode):
        return "a FIFO"
    if stat.S_ISDIR(st.st_mode):
        return "a directory"
    if stat.S_ISSOCK(st.st_mode):
        return "a socket"
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return "a device"
    return "not a regular file"


def open_beside(path: str, flags: int, what: str, shown: str | None = None) -> int:
    """Open the baseline's lock file or journal ``path`` (``flags``: ``os.O_*``, creating it with
    mode 0666 less the umask) and return the descriptor. Anything at that name that is not a
    regular file (a symlink, even to a regular file, e.g. a session being linted; a FIFO, which
    would block; a device; a directory) is refused with :class:`BaselineError` naming it
    (``shown``, default ``path``) and ``what`` it was to be: never followed, never opened, never
    waited on (``O_NOFOLLOW | O_NONBLOCK``, and the opened file is checked again, against a swap)."""
    shown = shown or path

    def refuse(kind: str) -> BaselineError:
        return BaselineError(f"{shown}: {kind}, not a regular file: refusing to use it as the baseline's {what}")

    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise BaselineError(f"{shown}: cannot open the {what}: {e.strerror or e}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise refuse(_kind(st, path))
    try:
        fd = os.open(path, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0), 0o666)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):  # replaced since the lstat: a symlink, a FIFO...
            raise refuse({errno.ELOOP: "a symbolic link", errno.ENXIO: "a FIFO", errno.EISDIR: "a directory"}[e.errno]) \
                from None
        raise BaselineError(f"{shown}: cannot open the {what}: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
    except OSError:
        st = None
    if st is None or not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise refuse(_kind(st, path) if st is not None else "not a regular file")
    return fd


def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows: lock the first byte
        import msvcrt
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _remove_leftovers(path: str) -> None:
    """Delete temporary files of earlier updates that were killed mid-write (call it holding
    the lock: every writer holds it, so none of them is still being written)."""
    folder = os.path.dirname(os.path.abspath(path))
    prefix = f"{os.path.basename(path)}{TEMP_INFIX}"
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        middle = name[len(prefix):-len(".tmp")]
        if name.startswith(prefix) and name.endswith(".tmp") and len(middle) == 8 and "." not in middle:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))


def journal_path(path: str) -> str:
    """The journal beside the baseline ``path``: ``PATH.journal.jsonl`` (one JSON line per
    added or removed entry, appended after the baseline itself is durable)."""
    return path + ".journal.jsonl"


def journal_bytes(added: Sequence[Entry], removed: Sequence[Entry], when: str) -> bytes:
    """What :func:`append_journal` appends (UTF-8): one JSON line per change. Raises
    ``UnicodeEncodeError`` only for text that is not well formed."""
    lines = [json.dumps({"when": when, "change": change, **{k: v for k, v in e.to_dict().items() if k != "added"}},
                        ensure_ascii=False) + "\n"
             for change, group in (("added", added), ("removed", removed)) for e in group]
    return "".join(lines).encode("utf-8")


def append_journal(path: str, added: Sequence[Entry], removed: Sequence[Entry], when: str) -> None:
    """Append one JSON line per change to ``FILE.journal.jsonl``: ``when`` (UTC, ISO 8601),
    ``change`` (``added``/``removed``) and the entry's fingerprint, code, path and excerpt.
    One ``write`` then fsync. Raises ``OSError``, and :class:`BaselineError` when the journal's
    name holds something other than a regular file (see :func:`open_beside`)."""
    data = journal_bytes(added, removed, when)
    if not data:
        return
    _write_journal(open_beside(journal_path(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, "journal"), data)


def _write_journal(fd: int, data: bytes) -> None:
    """Append ``data`` to the journal open at ``fd``, fsync it and close it. Raises ``OSError``."""
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def formers(diagnostics: Iterable[Diagnostic]) -> dict[str, str]:
    """Fingerprint -> former fingerprint (see :mod:`fountain_audit.lint.fingerprint`) of the
    diagnostics that have one, for :func:`update`."""
    return {d.fingerprint: d.former_fingerprint for d in diagnostics
            if d.fingerprint is not None and d.former_fingerprint is not None}


def update(path: str | os.PathLike, current: Mapping[str, Entry], scope: Scope,
           max_entries: int = DEFAULT_MAX_ENTRIES, former: Mapping[str, str] | None = None) -> Change:
    """Make the baseline at ``path`` hold the ``current`` entries (see :func:`entries_for`) in
    place of its entries in ``scope``, keeping the others and each kept entry's ``added`` date;
    creates the file the first time. Locked, reloaded inside the lock, written durably, then
    journalled (see the module docstring); missing folders above ``path`` are created; ``former`` (:func:`formers`): an entry stored under a
    diagnostic's former fingerprint is replaced by one under its fingerprint, its date kept (the
    journal shows it removed and added); a symlink at ``path`` is replaced by the file, never
    written through (its lock and journal sit beside ``path``). Raises :class:`BaselineError` (the file is then
    untouched) for an unusable existing baseline, more than ``max_entries`` entries, a lock
    not obtained or a write that fails."""
    path = _file_name(os.fspath(path))
    # a symlink at the baseline's name is replaced by the new baseline, never written through (a
    # checkout could commit one pointing anywhere); the lock and journal sit beside the name
    target = shown = path
    folder = os.path.dirname(target)
    if folder and not os.path.isdir(folder):  # its missing folders are made (as every `-o` makes them)
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            raise BaselineError(f"{path}: cannot create its folder: {e.strerror or e}") from None
    with locked(target, shown=shown):
        old = load(path, max_entries, missing_ok=True)
        entries = {fp: e for fp, e in old.items() if e not in scope}
        former = former or {}
        for fp, e in current.items():  # a kept entry keeps its date; its path and excerpt are the
            was = old.get(fp) or old.get(former.get(fp, ""))  # current ones (masked); one written
            entries[fp] = e._replace(added=was.added) if was is not None else e  # under its former
            # fingerprint (before secrets were masked) is rewritten under the new one, with its date
        if len(entries) > max_entries:
            raise BaselineError(f"{path}: {len(entries)} entries would exceed baseline-max-entries "
                                f"({max_entries}); the baseline was not written")
        added = sorted((e for fp, e in entries.items() if fp not in old), key=Entry.sort_key)
        removed = sorted((e for fp, e in old.items() if fp not in entries), key=Entry.sort_key)
        _remove_leftovers(target)
        if added or removed or any(entries[fp] != old[fp] for fp in current if fp in old) \
                or not os.path.exists(target):
            when = dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
            text = render(entries.values())
            try:  # both encoded before either is written: never a baseline without its journal lines
                text.encode("utf-8")
                journal = journal_bytes(added, removed, when)
            except UnicodeEncodeError as e:
                raise BaselineError(f"{path}: not written: an entry holds text that is not well formed "
                                    f"(at {e.object[e.start:e.end].encode('unicode_escape').decode()})") from None
            # the journal is opened before the baseline is written: a symlink or FIFO at its name (which would
            # append to the file it names, e.g. a session, or block) leaves the baseline as it was
            fd = None
            if journal:
                try:
                    fd = open_beside(journal_path(target), os.O_WRONLY | os.O_APPEND | os.O_CREAT, "journal",
                                     journal_path(shown))
                except BaselineError as e:
                    raise BaselineError(f"{e}; the baseline was not written") from None
            try:
                try:
                    write_durable(target, text)
                except OSError as e:
                    raise BaselineError(f"{path}: cannot write: {e.strerror or e}") from None
            except BaseException:
                if fd is not None:
                    os.close(fd)
                raise
            if fd is not None:
                try:
                    _write_journal(fd, journal)
                except OSError as e:
                    raise BaselineError(f"{journal_path(shown)}: cannot append (the baseline itself was written): "
                                        f"{e.strerror or e}") from None
    return Change(entries, added, removed)

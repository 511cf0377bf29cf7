"""Stable fingerprints: one identifier per diagnostic that survives edits elsewhere in the file.

A fingerprint is the first 32 hex digits (128 bits) of a SHA-256 over

* the rule code (``"P102"``);
* the file's path relative to the *project root* (:func:`project_root`), with ``/``
  separators, so an absolute and a relative path to the same file agree and renaming the
  directory that holds the project changes nothing;
* the flagged element's normalised content (:func:`element_content`): the whole source
  lines its span covers, with every run of whitespace (line ends included) made one space,
  never its line number and never the message (messages quote other lines' numbers); every
  secret in those lines (found in the whole file) masked as the excerpt masks it (its public
  prefix, then one ``*`` per character), with or without ``--redact``, so that a fingerprint is
  no unsalted hash of a secret (a baseline or SARIF file would let anyone guess it offline);
* its occurrence index among diagnostics with the same code and content in that file
  (0-based, in source order), so identical elements stay distinct.

Moving a scene, inserting blank lines or renaming the project directory therefore keeps
every fingerprint; editing the flagged line itself gives a new one. A line holding a secret
also has its *former* fingerprint (the same recipe on the unmasked content, as fountain-audit
made it before masking), kept in memory only: a baseline entry written then still matches
(:func:`fountain_audit.lint.baseline.apply`) and is rewritten on the next ``--update-baseline``. Rules that report what a
whole file lacks (:data:`FILE_LEVEL`) hash no content: their location is only where to look.

GitLab's ``fingerprint``, SARIF's ``partialFingerprints`` and the JSON formats'
``fingerprint`` carry this value, and the baseline (:mod:`fountain_audit.lint.baseline`)
keys its entries by it.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import replace
TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Iterable, Sequence

from fountain_audit.lint.diagnostics import Diagnostic

#: Bumped if the recipe ever changes (every baseline entry would then be new).
SCHEME = "fountain-audit-fingerprint/1"
#: Rules whose finding is about the file as a whole (something missing, a binary file):
#: the element they point at is only a place to look, so its content is not hashed.
FILE_LEVEL = frozenset({"S101", "S102", "S103", "S104", "S108", "E104", "E105"})
#: Longest excerpt kept (code points, before the ellipsis); see :func:`excerpt`.
EXCERPT_MAX = 80


def project_root(config_source: Path | None = None, cwd: Path | None = None, baseline: Path | None = None) -> Path:
    """The directory fingerprint paths are relative to (absolute, symlinks resolved): the
    directory of ``config_source`` (the configuration file in use), else the git work tree
    holding ``baseline`` (the baseline file in use; its paths are relative to its own project,
    wherever the command is started), else the nearest git work tree above ``cwd`` (a
    directory holding ``.git``), else ``cwd`` (default: the current directory)."""
    from pathlib import Path
    return Path(project_dir(config_source, cwd, baseline))


def git_work_tree(start: str | os.PathLike) -> str | None:
    """The nearest directory at or above ``start`` (a directory, resolved) holding ``.git``, else ``None``."""
    d = os.path.realpath(start)
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def project_dir(config_source: str | os.PathLike | None = None, cwd: str | os.PathLike | None = None,
                baseline: str | os.PathLike | None = None) -> str:
    """:func:`project_root` as a string (``lint`` uses it: no pathlib at start-up)."""
    if config_source is not None:
        return os.path.dirname(os.path.realpath(config_source))
    try:
        if baseline is not None:
            # the baseline's own work tree, not the current directory's: a baseline written inside
            # the project matches from outside it (or from another work tree) too
            tree = git_work_tree(os.path.dirname(os.path.realpath(baseline)))
            if tree is not None:
                return tree
        here = os.path.realpath(cwd if cwd is not None else os.getcwd())
    except FileNotFoundError:  # the current directory was removed (files given by absolute path still lint)
        return os.sep
    return git_work_tree(here) or here


def relative_path(path: str, root: Path) -> str:
    """``path`` (as given: relative to the current directory, or absolute) relative to
    ``root``, with ``/`` separators; ``"-"`` (standard input) stays ``"-"``. A file outside
    the root keeps a ``../`` path; one on another drive its absolute path."""
    if path == "-":
        return path
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, root)
    except ValueError:  # another drive (Windows)
        from pathlib import Path
        return Path(absolute).as_posix()
    if rel.startswith(".."):
        real = os.path.realpath(path)  # the root is resolved: try the file's resolved path too
        try:
            resolved = os.path.relpath(real, root)
        except ValueError:
            resolved = rel
        if not resolved.startswith(".."):
            rel = resolved
    if os.sep == "/":  # relpath's result is already normal: what the pathlib round trip below gives
        return rel
    from pathlib import Path, PurePosixPath
    return PurePosixPath(Path(rel).as_posix()).as_posix()


def normalise(text: str) -> str:
    """``text`` with leading/trailing whitespace dropped and every inner run of whitespace
    (spaces, tabs, line ends, blank lines) made one space."""
    return " ".join(text.split())


def _line_range(d: Diagnostic) -> tuple[int, int]:
    """The 1-based first and last source line of the element ``d`` flags (see :func:`element_content`)."""
    last = d.end_line if d.end_line is not None and d.end_line >= d.line else d.line
    if d.end_line is not None and d.end_line > d.line and d.end_column == 1:
        last -= 1  # an exclusive end at the start of a line does not take that line
    return d.line, last


def element_content(d: Diagnostic, lines: Sequence[str]) -> str:
    """The normalised content of the element ``d`` flags: source lines ``d.line`` to
    ``d.end_line`` (``d.line`` alone when there is no end), whole, from ``lines`` (the file's
    lines without terminators, as :func:`fountain_audit.parse.lexer.split_lines` gives them).
    Empty for :data:`FILE_LEVEL` rules and for positions past the end of the file."""
    if d.code in FILE_LEVEL:
        return ""
    first, last = _line_range(d)
    return normalise("\n".join(lines[first - 1:last]))


def excerpt(content: str) -> str:
    """A short excerpt of normalised content for people: at most :data:`EXCERPT_MAX` code
    points, then ``…`` when cut. Undecodable bytes (lone surrogates) become ``\\xNN`` text so
    that the excerpt is valid Unicode (it is data: print it through
    :func:`fountain_audit.untrusted.terminal_safe`)."""
    text = content.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return text if len(text) <= EXCERPT_MAX else text[:EXCERPT_MAX].rstrip() + "…"


def _prefix_hash(code: str, path: str, content: str):
    """The SHA-256 state after the parts every occurrence of one (code, content) shares;
    :func:`digest` feeds it the occurrence index."""
    import hashlib
    return hashlib.sha256("\0".join((SCHEME, code, path, content, "")).encode("utf-8", "surrogateescape"))


def _finish(prefix, index: int) -> str:
    h = prefix.copy()
    h.update(str(index).encode("ascii"))
    return h.hexdigest()[:32]


def digest(code: str, path: str, content: str, index: int) -> str:
    """The fingerprint (32 lowercase hex digits) of one diagnostic's parts: SHA-256 over
    ``SCHEME``, ``code``, ``path``, ``content`` and ``index``, joined by NUL."""
    return _finish(_prefix_hash(code, path, content), index)


def _masked_lines(text: str, lines: list[str]) -> list[str]:
    """``lines`` (of ``text``) with the characters of every secret found in the whole file
    (:func:`~fountain_audit.privacy.detect.find_secrets`: repeats included) after its public
    prefix made ``*``; line ends are kept, so the lines stay the same lines."""
    from fountain_audit.parse.lexer import split_lines
    from fountain_audit.privacy.detect import find_secrets

    secrets = find_secrets(text)
    if not secrets:
        return lines
    out = []
    pos = 0
    for sec in secrets:
        a = sec.start + sec.shown
        out.append(text[pos:a])
        out.append("".join(c if c in "\r\n" else "*" for c in text[a:sec.end]))
        pos = sec.end
    out.append(text[pos:])
    return [content for content, _ in split_lines("".join(out))]


def _shown_content(span: tuple[int, int], lines: list[str], shown_lines: list[str], mask) -> str:
    """The normalised content of the lines ``span`` (1-based first and last) with every secret
    masked: those :func:`~fountain_audit.privacy.redact.mask` finds in the lines themselves
    and those ``shown_lines`` (:func:`_masked_lines`) hides. Both keep lengths and line ends,
    so a character is hidden where either hides it."""
    first, last = span
    text = "\n".join(lines[first - 1:last])
    if shown_lines is lines:
        # The whole file's detection found no secret (``_masked_lines`` gave the lines back):
        # no line of it holds one (detection reads line by line, and the file holds these
        # lines), so the detectors are not run again on each finding's lines, which cost
        # more than the rest of linting a file with many findings.
        return normalise(text)
    text = mask(text)
    hidden = "\n".join(shown_lines[first - 1:last])
    if hidden != text:
        text = "".join(a if a == b else "*" for a, b in zip(text, hidden))
    return normalise(text)


def _mask(text: str) -> str:
    """:func:`fountain_audit.privacy.redact.mask` of ``text``, imported when first called: only a
    file holding a secret needs it (:func:`_shown_content`), and importing it (with ``typing``)
    cost a lint of a small file with findings a tenth of its instructions (issue 9)."""
    from fountain_audit.privacy.redact import mask
    return mask(text)


def assign(diagnostics: Iterable[Diagnostic], text: str, path: str) -> list[Diagnostic]:
    """``diagnostics`` of one file (in source order, as the linter returns them) with
    ``fingerprint`` and ``excerpt`` set; ``text`` is the file's decoded text, ``path`` its
    path relative to the project root (:func:`relative_path`). Order is kept."""
    diagnostics = list(diagnostics)
    if not diagnostics:
        return diagnostics
    from fountain_audit.parse.lexer import split_lines

    lines = [content for content, _ in split_lines(text)]
    shown_lines: list[str] | None = None  # the lines with the file's secrets masked (made when needed)
    seen: Counter = Counter()
    seen_former: Counter = Counter()  # occurrences by unmasked content (the former fingerprints' index)
    masked_differs: dict = {}  # span -> whether masking changed its content
    # Many findings on one long line (a line of secrets) share its content: normalise, mask,
    # excerpt and hash it once each, so the work stays linear in the input (the digest of each occurrence
    # is a copy of the hash of the shared prefix, fed the occurrence index: same digest).
    contents: dict[tuple[int, int], str] = {}
    masked: dict[tuple[int, int], str] = {}
    excerpts: dict[tuple[int, int], str] = {}  # span -> excerpt of its masked content (it reads all of it)
    prefixes: dict[tuple[str, str], Any] = {}
    out = []
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        if d.code in FILE_LEVEL:
            content = ""
        else:
            span = _line_range(d)
            if span not in contents:
                contents[span] = element_content(d, lines)
            content = contents[span]
        # the excerpt is stored (the baseline is committed) and printed: never a secret in it,
        # neither one the flagged lines show (mask) nor one the whole file's detection found
        # there (a repeat of a secret found elsewhere, a line inside a private key block); the
        # fingerprint hashes the same masked content, so that it is no hash of a secret either
        # (an unsalted hash of a known line around a secret lets anyone guess the secret offline)
        if content:
            if span not in masked:
                if shown_lines is None:
                    shown_lines = _masked_lines(text, lines)
                masked[span] = _shown_content(span, lines, shown_lines, _mask)
                excerpts[span] = excerpt(masked[span])
            hashed = masked[span]
            shown = excerpts[span]
        else:
            hashed = content
            shown = excerpt(d.message)
        key = (d.code, hashed)
        index = seen[key]
        seen[key] += 1
        former_key = (d.code, content)
        former_index = seen_former[former_key]
        seen_former[former_key] += 1
        if key not in prefixes:
            prefixes[key] = _prefix_hash(d.code, path, hashed)
        # the fingerprint of the unmasked content, as made before secrets were masked: kept in
        # memory only, for a baseline written then (see fountain_audit.lint.baseline.apply); its
        # prefix hashed once per content too (many findings on one line of secrets stay linear)
        former = None
        if content and hashed is not content:
            differs = masked_differs.get(span)
            if differs is None:
                differs = masked_differs[span] = hashed != content
            if differs:
                if former_key not in prefixes:
                    prefixes[former_key] = _prefix_hash(d.code, path, content)
                former = _finish(prefixes[former_key], former_index)
        out.append((d, _finish(prefixes[key], index), shown, former))
    found = {id(d): rest for d, *rest in out}
    return [replace(d, fingerprint=found[id(d)][0], excerpt=found[id(d)][1], former_fingerprint=found[id(d)][2])
            for d in diagnostics]

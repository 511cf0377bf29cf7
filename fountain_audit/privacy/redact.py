"""The one redaction layer: every output that is asked to be shareable goes through a
:class:`Redactor`.

What it replaces, in any string (parsed values and raw text alike):

* secrets (see :func:`fountain_audit.privacy.detect.find_secrets`) → ``<redacted:KIND>``,
  e.g. ``<redacted:github-token>``; a secret written through JSON escapes
  (``{\\"password\\":\\"…\\"}``, ``https:\\/\\/u:p@h``, ``ghp\\u005f…``) is replaced in
  that spelling, escapes and all, so the JSON around it stays JSON; a secret learnt from the
  session's raw text is also replaced where it appears alone (a JSON value whose keyword is in
  another string) and in its JSON-escaped spelling;
* the session's ``Workspace:`` paths → ``<workspace>``, in every spelling: either separator
  (``C:/Users/alice/proj`` for ``C:\\Users\\alice\\proj``), JSON-escaped (``\\/home\\/alice``,
  ``C:\\\\Users``), any case;
* home directories → ``<home>``: ``/home/<user>``, ``/Users/<user>``, ``C:\\Users\\<user>``, ``/root``,
  and any other absolute path (drive, UNC share, POSIX) up to a segment that is the name of
  a user account learnt from the session (``D:\\work\\alice\\notes.txt`` →
  ``<home>\\notes.txt``, ``\\\\fileserver\\alice\\doc`` → ``<home>\\doc``).

Overlaps: secrets win over workspace paths, workspace paths over home paths. Redaction does
not consult ``[privacy] allow``: an allowed test token is still replaced (redaction errs on
the side of removing).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, NamedTuple

from fountain_audit.parse.source import utf16_text
from fountain_audit.privacy.detect import (HOME_RE, SEP, SEPS, find_home_paths, find_secrets, stands_alone,
                                           workspace_paths, workspace_regex)

WORKSPACE = "<workspace>"
HOME = "<home>"
#: Strings up to this many code points have their replacements kept by the redactor (see
#: :meth:`Redactor.replacements`), at most :data:`MEMO_ENTRIES` of them (then it starts afresh).
MEMO_CHARS = 512
MEMO_ENTRIES = 1 << 16


def secret_placeholder(kind: str) -> str:
    """``<redacted:KIND>``."""
    return f"<redacted:{kind}>"


#: Where a path starts (see :meth:`Redactor._user_paths`): a drive and separators, or one or two
#: separators, not inside a word, before a segment; group 1, at every position (overlapping:
#: in `c//////bob` the path is the last `//bob`).
_PATH_START = re.compile(r"(?=((?<![A-Za-z0-9_.$-])(?:[A-Za-z]:" + SEPS + "|" + SEP + r"{1,2})(?=[\w.$ -])))")
_TWO_SEPARATORS = re.compile(SEP + SEP)
#: A URL scheme ending just before ``//`` (then the user name after it is a URL's, not a path's).
_URL_SCHEME = re.compile(r"(?<![A-Za-z0-9+.-])(?:https?|s?ftps?|ssh|git|svn|wss?|smb|ldaps?|mongodb(?:\+srv)?"
                         r"|postgres(?:ql)?|mysql|redis|amqps?|s3):$", re.IGNORECASE)
#: A path segment's characters, up to a separator or anything else (those a user name may hold,
#: ``@`` and apostrophes among them: see :data:`~fountain_audit.privacy.detect.HOME_RE`).
_SEGMENT_RUN = re.compile(r"[\w.$ @'\u2019-]*")
#: Where a user name may end inside a segment (a blank, ``$``, ``@``, an apostrophe: ``alice``
#: in ``alice@corp`` or ``alice's``).
_NAME_ENDS = frozenset("$ @'\u2019")


#: Account names that are also common folder names (service accounts, containers' users): the home
#: path that names one is redacted, but the name is not looked for in other paths
#: (:meth:`Redactor._user_paths`), where it names a folder (adversarial trial, stop 38).
_FOLDER_NAMES = frozenset({
    "app", "apps", "data", "www", "web", "site", "src", "lib", "bin", "build", "dist", "test", "tests", "dev",
    "prod", "stage", "staging", "user", "users", "admin", "home", "work", "workspace", "project", "projects",
    "code", "repo", "repos", "git", "node", "docker", "runner", "runners", "ci", "deploy", "service",
    "services", "server", "api", "config", "backup", "backups", "tmp", "temp", "cache", "logs", "log", "media",
    "share", "public", "static", "assets", "docs", "nobody", "daemon", "system", "local", "opt", "var", "etc",
    "usr", "mnt", "srv", "sync", "backend", "frontend", "default"})


class Replacement(NamedTuple):
    """Replace ``text[start:end]`` (0-based code points) by ``new``; ``what`` is ``"secret"``,
    ``"workspace"`` or ``"home"``."""

    start: int
    end: int
    new: str
    what: str


@dataclass
class RedactionCounts:
    """How many replacements of each sort a redactor made (for reports)."""

    secrets: int = 0
    workspace: int = 0
    home: int = 0

    def total(self) -> int:
        """All replacements made: secrets, workspace paths and home paths."""
        return self.secrets + self.workspace + self.home


def _any_of(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching any of ``words`` in any capitals, the longest where several start at
    one place: what an alternation of them sorted longest first matches, written as a trie
    (``ab(?:c(?:d)?|x)``) so that a match is tried in steps bounded by the longest word, not
    by the number of words (the alternation made ``--redact`` quadratic in a session's distinct
    secrets: 8,000 took 100 s). Falls back to the alternation for a trie too deep to compile."""
    root: dict = {}
    for w in words:
        node = root
        for ch in w:
            low = ch.lower()
            node = node.setdefault(low if len(low) == 1 else ch, {})
        node[""] = True  # a word ends here
    try:
        return re.compile(_trie_pattern(root), re.IGNORECASE)
    except (RecursionError, re.error, OverflowError):
        alts = "|".join(re.escape(v) for v in sorted(words, key=len, reverse=True))
        return re.compile(alts, re.IGNORECASE)


def _trie_pattern(node: dict) -> str:
    """The pattern of a trie node of :func:`_any_of` (longer continuations tried first: an
    optional group is greedy). Recursive in the branching depth only (a run of single-child
    nodes is written as one literal)."""
    branches = []
    for ch, child in node.items():
        if ch == "":
            continue
        text = [re.escape(ch)]
        while len(child) == 1 and "" not in child:  # a run with no branch and no end: one literal
            (ch, child), = child.items()
            text.append(re.escape(ch))
        rest = _trie_pattern(child) if len(child) > 1 or "" not in child else ""
        branches.append("".join(text) + rest)
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body  # (a word may end here: the rest is optional)


class Redactor:
    """Replaces secrets (``secrets=True``) and personal paths (``paths=True``) in strings and
    JSON-ready values. Learn what is specific to a session with :meth:`learn` (its
    workspaces; from its raw text, the secrets and the user names of its home paths) before
    redacting values taken from it. ``homes=False`` limits paths to the workspace (the
    normalisation of ``diff``, with ``exact_case``: a workspace path in other capitals is another
    path, but for a Windows one)."""

    def __init__(self, workspaces: Iterable[str] = (), *, secrets: bool = True, paths: bool = True,
                 homes: bool | None = None, exact_case: bool = False):
        self.secrets = secrets
        self.exact_case = exact_case  # workspace paths only as written (see workspace_regex)
        self.paths = paths
        self.homes = paths if homes is None else homes
        self.workspaces: list[str] = []
        self.users: set[str] = set()
        self.known: dict[str, str] = {}  # secret value (any spelling) -> kind
        self.counts = RedactionCounts()
        self._ws_re: re.Pattern[str] | None = None
        self._folded_users: set[str] = set()  # self.users in lower case (see _user_paths)
        self._known_re: re.Pattern[str] | None = None
        self._known_folded: dict[str, str] = {}  # casefolded spelling -> kind (for _known_re's matches)
        # string -> its replacements, for the short strings met again and again (a dump's keys,
        # a tool's name, the file's path): emptied whenever the redactor learns something
        self._memo: dict[str, tuple[Replacement, ...]] = {}
        self._whole: tuple[str, list[Replacement]] | None = None  # (text, its replacements): see cut()
        self.add(workspaces)

    # -- learning ---------------------------------------------------------------------------------

    def add(self, paths: Iterable[str]) -> None:
        """Add workspace paths (absolute; any spelling of them is replaced)."""
        new = [p for p in paths if p not in self.workspaces]
        if not new or not self.paths:
            return
        self.workspaces.extend(new)
        self._memo.clear()
        self._ws_re = workspace_regex(self.workspaces, exact_case=self.exact_case)
        self._add_users(m.group("user") for p in new for m in HOME_RE.finditer(p))

    def learn(self, session: Any = None, text: str | None = None) -> "Redactor":
        """Learn a session's workspaces and, from its raw ``text``, its secrets and the users
        of its home paths. Returns ``self``."""
        if session is not None:
            self.add(workspace_paths(session))
        if text:
            wide = utf16_text(text)
            if self.secrets:
                fresh = False
                found = [(s, _spellings(s.value)) for s in find_secrets(text)]
                if wide is not None:  # a UTF-16 file, read as UTF-8: its secrets spelt with NULs between
                    found += [(s, _utf16_spellings(s.value)) for s in find_secrets(wide)]
                for s, spellings in found:
                    for v in spellings:
                        if v and v not in self.known:
                            self.known[v] = s.kind
                            fresh = True
                if fresh:
                    self._memo.clear()
                    # In any capitals: an actor ref (agent:akia…) is a cue lower-cased, and a
                    # secret in a cue must not come back out of it.
                    self._known_re = _any_of(self.known)
                    self._known_folded = {v.casefold(): kind for v, kind in self.known.items()}
            if self.homes:
                self._add_users(h.user for h in find_home_paths(text if wide is None else wide))
        return self

    def _add_users(self, users: Iterable[str]) -> None:
        if not self.homes:
            return
        # (not root: /root itself is found as a home path, but a segment named root elsewhere,
        # /var/root, /srv/www/root, names no person; nor a service account's name that is a common
        # folder's: /home/app's `app` made /usr/src/app/main.py and WORKDIR /app `<home>`)
        fresh = {u for u in users if u and u.lower() != "root" and u.lower() not in self._folded_users
                 and u.lower() not in _FOLDER_NAMES}
        if not fresh:
            return
        self._memo.clear()
        self.users |= fresh
        self._folded_users |= {u.lower() for u in fresh}

    def _user_paths(self, s: str) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of each path in ``s`` that names a known user (any capitals) in one
        of its first seven segments, up to the end of that name: ``/srv/alice``, ``C:\\Users\\Bob``.
        A name ends where no ``[\\w.-]`` follows it: the longest known one ending at one of
        :data:`_NAME_ENDS` or at the segment's end (``D:\\John Smith``, ``/srv/bob@corp``). Each
        path start is read once, and a name is looked up in a set: linear however many users the
        session names (an alternation of every name, tried at every character, took 50 s for
        20,000 of them)."""
        users, last = self._folded_users, -1
        n = len(s)
        for m in _PATH_START.finditer(s):
            if m.start(1) < last:
                continue
            if m.start(1) and s[m.start(1) - 1] == ":" and _TWO_SEPARATORS.fullmatch(m.group(1)) \
                    and _URL_SCHEME.search(s, max(0, m.start(1) - 16), m.start(1)):
                last = m.end(1)  # (nor its second separator)
                continue  # `https://bob@host`, `https:\/\/bob:pw@host`: a URL's authority, not a path
            pos = m.end(1)
            for _ in range(7):
                run = _SEGMENT_RUN.match(s, pos)
                seg_end = run.end()
                # a name ends at one of _NAME_ENDS or the segment's end (no [\w.-] after it); the
                # longest known one is taken (`john smith` rather than `john`, `bob@corp` than `bob`)
                ends = [k for k in range(pos + 1, min(seg_end, pos + 256)) if s[k] in _NAME_ENDS] + [seg_end]
                found = next((e for e in reversed(ends) if s[pos:e].lower() in users), None)
                if found is not None:
                    last = found
                    yield m.start(1), found
                    break
                if not 1 <= seg_end - pos <= 64 or seg_end >= n or s[seg_end] not in "\\/" or s[seg_end - 1] == " ":
                    # not a segment followed by a separator: the path ends here; nor one whose blank is
                    # right before the separator (`cp /tmp/a.txt /srv/bob/a`: another path starts
                    # there; a folder's name with a blank inside, `My Files`, goes on)
                    break
                pos = seg_end
                while pos < n and s[pos] in "\\/":
                    pos += 1

    # -- redacting --------------------------------------------------------------------------------

    def __bool__(self) -> bool:
        return self.secrets or (self.paths and (self.homes or self._ws_re is not None))

    def replacements(self, s: str) -> list[Replacement]:
        """The replacements for ``s``, sorted, not overlapping (a new list). A string of up to
        :data:`MEMO_CHARS` code points is read once while the redactor learns nothing new: the
        strings a dump or an export writes repeat (its keys, a tool's name, the file's path; 99,134
        strings, 7,874 distinct, in the dump of a 300 KB session), and reading one for secrets and
        paths costs tens of microseconds however short it is."""
        if len(s) <= MEMO_CHARS:
            memo = self._memo
            found = memo.get(s)
            if found is None:
                found = tuple(self._replacements(s))
                if len(memo) >= MEMO_ENTRIES:
                    memo.clear()
                memo[s] = found
            return list(found)
        return self._replacements(s)

    def _replacements(self, s: str) -> list[Replacement]:
        cands: list[tuple[int, int, Replacement]] = []
        secret_starts: list[int] = []
        if self.secrets:
            for sec in find_secrets(s):
                cands.append((sec.start, 0, Replacement(sec.start, sec.end, secret_placeholder(sec.kind), "secret")))
                secret_starts.append(sec.start)
            secret_starts.sort()
            if self._known_re is not None:
                for m in self._known_re.finditer(s):
                    if not stands_alone(s, m.start(), m.end()):
                        continue  # (a weak password that is a word, inside another: `postgresql`)
                    kind = self.known.get(m.group()) or self._known_folded.get(m.group().casefold(), "secret")
                    cands.append((m.start(), 0, Replacement(m.start(), m.end(), secret_placeholder(kind), "secret")))
        if self.paths:
            if self._ws_re is not None:
                for m in self._ws_re.finditer(s):
                    cands.append((m.start(), 1, Replacement(m.start(), m.end(), WORKSPACE, "workspace")))
            if self.homes:
                for h in find_home_paths(s):
                    end = h.end
                    # a user name that runs on into a secret (over a NUL, as in a process's command line:
                    # `/home/zelda\0--token\0ghp_…`) ends where the secret starts: the path lost to the
                    # secret was left whole in the copy (adversarial trial, stop 38)
                    k = bisect_right(secret_starts, h.end - len(h.user))
                    if k < len(secret_starts) and secret_starts[k] < end:
                        end = secret_starts[k]
                    cands.append((h.start, 2, Replacement(h.start, end, HOME, "home")))
                if self._folded_users:
                    for start, end in self._user_paths(s):
                        cands.append((start, 3, Replacement(start, end, HOME, "home")))
        if not cands:
            return []
        return choose(cands)

    def text(self, s: str) -> str:
        """``s`` with every replacement applied. A replaced span that held line ends (a private
    key block) is followed by as many line ends, so the text keeps its lines: line numbers
    counted in it are those of the original."""
        if not s or not self:
            return s
        reps = self.replacements(s)
        return apply(s, _keep_lines(s, reps), self.counts) if reps else s

    def cut(self, text: str, start: int, end: int) -> str:
        """``text[start:end]`` redacted as a part of the whole ``text``: the replacements are
        found in the whole text, so one that starts before the slice or ends after it (a private
        key shown from its third line, a password whose keyword is on the line before) is still
        made, on the part of it inside the slice (its placeholder, then the line ends that part
        held, so the slice keeps its lines). The whole text's replacements are kept for the
        next slice of the same text."""
        if not self or start >= end:
            return text[start:end]
        whole = self._whole
        if whole is None or whole[0] is not text:
            whole = self._whole = (text, self.replacements(text))
        piece = text[start:end]
        reps = [Replacement(max(r.start, start) - start, min(r.end, end) - start, r.new, r.what)
                for r in whole[1] if r.end > start and r.start < end]
        return apply(piece, _keep_lines(piece, reps), self.counts) if reps else piece

    def __call__(self, value: Any) -> Any:
        """A redacted copy of a JSON-ready ``value`` (every string, keys included; dicts and
        lists nested to any depth, walked with an explicit stack, not recursion, so JSON nested
        thousands deep cannot overflow)."""
        if not self:
            return value
        if not isinstance(value, (dict, list)):
            return self.text(value) if isinstance(value, str) else value
        root: Any = {} if isinstance(value, dict) else []
        stack = [(value, root)]
        while stack:
            source, target = stack.pop()
            for key, item in (source.items() if isinstance(source, dict) else enumerate(source)):
                if isinstance(item, (dict, list)):
                    copy: Any = {} if isinstance(item, dict) else []
                    stack.append((item, copy))  # filled later; order within each container is kept
                else:
                    copy = self.text(item) if isinstance(item, str) else item
                if isinstance(target, dict):
                    target[self.text(key) if isinstance(key, str) else key] = copy
                else:
                    target.append(copy)
        return root



def choose(cands: list[tuple[int, int, Replacement]]) -> list[Replacement]:
    """The replacements to make among ``cands`` (``(start, priority, replacement)``, priority 0
    first: secrets, then workspaces, then home paths): a higher priority wins, then the earliest
    span, then the longest; none overlaps another. Sorted by start. Linear after sorting, with
    any number of candidates in one string (each was compared with every span chosen before it)."""
    # priority first, then the longest; a lower-priority span overlapping a chosen one is dropped
    cands.sort(key=lambda c: (c[1], c[0], -(c[2].end - c[2].start)))
    chosen: list[Replacement] = []  # sorted by start, not overlapping (so their ends rise too)
    k = 0
    while k < len(cands):  # one priority at a time, its spans in start order: linear per level
        level = cands[k][1]
        picked: list[Replacement] = []
        j, last_end = 0, -1  # chosen[j]: the first earlier pick ending after r.start
        while k < len(cands) and cands[k][1] == level:
            r = cands[k][2]
            k += 1
            if r.start < last_end:
                continue  # overlaps a span of this level (it starts before r, or is longer)
            while j < len(chosen) and chosen[j].end <= r.start:
                j += 1
            if j < len(chosen) and chosen[j].start < r.end:
                continue  # overlaps a span of a higher priority
            picked.append(r)
            last_end = r.end
        chosen = sorted(chosen + picked) if chosen else picked
    return chosen


def apply(s: str, reps: list[Replacement], counts: RedactionCounts | None = None) -> str:
    """``s`` with the sorted, non-overlapping replacements ``reps`` made."""
    out = []
    pos = 0
    for r in reps:
        out.append(s[pos:r.start])
        out.append(r.new)
        pos = r.end
        if counts is not None:
            setattr(counts, r.what if r.what != "secret" else "secrets",
                    getattr(counts, r.what if r.what != "secret" else "secrets") + 1)
    out.append(s[pos:])
    return "".join(out)


def map_column(reps: list[Replacement], offset: int) -> int:
    """Where 0-based ``offset`` of the original string lands in the redacted one (an offset
    inside a replaced span lands at the start of its replacement)."""
    shift = 0
    for r in reps:
        if offset < r.start:
            break
        if offset < r.end:
            return r.start + shift
        shift += len(r.new) - (r.end - r.start)
    return offset + shift


def mask(s: str, keep_newlines: bool = True) -> str:
    """``s`` with every secret's characters after its public prefix replaced by ``*``: same
    length, same lines, so columns and code-frame carets stay where they were. In a UTF-16 file
    read as UTF-8 (:func:`~fountain_audit.parse.source.utf16_text`), a secret of its UTF-16 text
    is masked where it stands, a NUL between each two of its characters."""
    spans = [(sec.start + sec.shown, sec.end) for sec in find_secrets(s)]
    wide = utf16_text(s)
    if wide is not None:
        for sec in find_secrets(wide):
            for spelt in _utf16_spellings(sec.value):
                at = s.find(spelt)
                while at >= 0:
                    spans.append((at + 2 * sec.shown, at + len(spelt)))
                    at = s.find(spelt, at + len(spelt))
    if not spans:
        return s
    chars = list(s)
    for start, end in spans:
        for i in range(start, end):
            if not (keep_newlines and chars[i] in "\r\n"):
                chars[i] = "*"
    return "".join(chars)


def _utf16_spellings(value: str) -> set[str]:
    """How a secret of a UTF-16 file's text reads in that file read as UTF-8: each spelling of
    :func:`_spellings` that is ASCII with a NUL between each two characters (both byte orders)."""
    return {"\x00".join(v) for v in _spellings(value) if v.isascii()}


def _spellings(value: str) -> set[str]:
    """A secret as written, JSON-escaped, and JSON-unescaped (when it was escaped)."""
    out = {value, json.dumps(value, ensure_ascii=False)[1:-1]}
    if "\\" in value:
        try:
            out.add(json.loads(f'"{value}"'))
        except ValueError:
            pass
    return {v for v in out if len(v) >= 6}


def session_redactor(text: str, *, secrets: bool = True, paths: bool = True) -> Redactor:
    """A :class:`Redactor` that has learnt the session in ``text`` (its workspaces, secrets
    and home-directory users)."""
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse

    return Redactor(secrets=secrets, paths=paths).learn(build_session(parse(text)), text)


def redact_text(text: str, *, secrets: bool = True, paths: bool = True,
                redactor: Redactor | None = None) -> str:
    """The session ``text`` with every replacement made in the raw text (tool-argument JSON
    stays JSON: placeholders hold no quote or backslash). A placeholder replacing an
    upper-case token alone on its line is upper-cased (``<REDACTED:AWS-ACCESS-KEY>``), so a
    line that read as a character cue still does."""
    red = redactor or session_redactor(text, secrets=secrets, paths=paths)
    reps = red.replacements(text)
    reps = [r._replace(new=r.new.upper()) if _alone_upper(text, r) else r for r in reps]
    return apply(text, reps, red.counts)


def _keep_lines(text: str, reps: list[Replacement]) -> list[Replacement]:
    out = []
    for r in reps:
        breaks = text.count("\n", r.start, r.end)
        out.append(r._replace(new=r.new + "\n" * breaks) if breaks else r)
    return out


def _alone_upper(text: str, r: Replacement) -> bool:
    """An upper-case token that is a whole line, but for blanks around it (which Fountain may
    read as a character cue): what ``line.strip() == token`` says of the token's line, read
    from the token outwards over blanks only, never the rest of the line. A blank run ends at
    the token next to it, so the runs read for the replacements of one text do not overlap:
    linear in the text however many replacements a line holds (slicing the line for each
    made 16,000 secrets on one line 18 s of ``redact``)."""
    s = text[r.start:r.end]
    if not s or s != s.strip() or not any(c.isalpha() for c in s) or any(c.islower() for c in s):
        return False
    b = r.start
    while b > 0 and text[b - 1] != "\n":
        if not text[b - 1].isspace():
            return False  # something else before it on its line
        b -= 1
    e, n = r.end, len(text)
    while e < n and text[e] != "\n":
        if not text[e].isspace():
            return False  # something else after it on its line
        e += 1
    return True


def frame_text(text: str, redactor: Redactor) -> tuple[str, "FrameMap"]:
    """``text`` redacted for code frames: a replacement that spans line ends keeps them (its
    placeholder, then the same number of line ends), so line numbers stay those of the
    original. Also returns the map of original (line, column) to redacted columns."""
    reps = _keep_lines(text, redactor.replacements(text))
    return apply(text, reps), FrameMap(text, reps)


class FrameMap:
    """Maps a 1-based (line, column) of the original text to the column on the same line of
    the text redacted by :func:`frame_text`."""

    def __init__(self, text: str, reps: list[Replacement]):
        from fountain_audit.parse.source import LineIndex

        self.reps = reps
        self.starts = LineIndex(text).starts
        self.new_starts = LineIndex(apply(text, reps)).starts
        # for map_column by bisection (a code frame per finding, each reading every replacement
        # before it, was findings x replacements): the replacements' starts, and the shift of
        # the text before each (shifts[k]: what reps[:k] add to an offset after them)
        self._rep_starts = [r.start for r in reps]
        self._shifts = [0]
        for r in reps:
            self._shifts.append(self._shifts[-1] + len(r.new) - (r.end - r.start))

    def column(self, line: int, column: int) -> int:
        """The 1-based ``column`` of 1-based ``line`` in the original text, moved to where
        the same character stands in the redacted text (code frames keep their carets)."""
        if not self.reps or line > len(self.starts):
            return column
        offset = self.starts[line - 1] + column - 1
        k = bisect_right(self._rep_starts, offset)  # reps[:k] start at or before offset
        if k and offset < self.reps[k - 1].end:  # inside a replaced span: at its replacement's start
            new = self.reps[k - 1].start + self._shifts[k - 1]
        else:
            new = offset + self._shifts[k]
        return new - self.new_starts[line - 1] + 1


@dataclass
class RedactedSession:
    """What :func:`redact_session` gives: the redacted ``text``, the replacement ``counts``,
    and ``problem`` (``None``, or why the copy does not keep the original's structure)."""

    text: str
    counts: RedactionCounts
    problem: str | None = None


def structure(text: str) -> list:
    """What a redacted copy must keep: per scene its kind and per note its kind, the turns
    (by scene) and whether each tool call's arguments are JSON."""
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse

    session = build_session(parse(text))
    return [session.kind, [s.kind for s in session.scenes], len(session.turns),
            [(n.kind, n.valid, bool(n.fields.get("arguments_json")) if n.kind == "tool" else None)
             for n in session.notes]]


def redact_session(text: str, *, secrets: bool = True, paths: bool = True) -> RedactedSession:
    """The session ``text`` redacted in its raw text (:func:`redact_text`), checked to parse to
    the same :func:`structure`."""
    red = session_redactor(text, secrets=secrets, paths=paths)
    out = redact_text(text, redactor=red)
    before, after = structure(text), structure(out)
    problem = None
    if before != after:
        what = ["session kind", "scene kinds", "turn count", "notes"]
        problem = "changed: " + ", ".join(w for w, a, b in zip(what, before, after) if a != b)
    return RedactedSession(out, red.counts, problem)


def hide_secrets(s: str, secrets) -> str:
    """``s`` (a message or an excerpt that may quote the file) with every secret of ``secrets``
    (:class:`~fountain_audit.privacy.detect.Secret`) masked after its public prefix, whole or cut
    short, in any letter case: a quote that stops inside a secret (``'sk_live_4eC3…'``) is masked
    up to where it stops, and an upper-cased copy of it too. Text that does not quote a secret
    is returned unchanged. (Many strings against one file's secrets: :class:`SecretMasker`.)"""
    return SecretMasker(secrets).hide(s)


class SecretMasker:
    """:func:`hide_secrets` of many strings (a file's diagnostic messages) against one file's
    ``secrets``, in time linear in each string, not in the number of secrets (each message was
    read once per secret of the file: 4,000 findings on a line of 24,000 secrets took 200 s).

    A secret is looked for by its probe (its lower-cased value's first ``shown + 4`` code points)
    and masking only writes ``*``: a probe holding no ``*`` that is not in a string is never in it
    after masking, and once a secret is masked its probe is nowhere in the string. So only the
    first secret of each such probe can change a string, and only if the probe is in the string
    as given; a probe holding a ``*`` (rare) is always tried. The secrets tried are those, in the
    order given: the same masking as trying every secret."""

    def __init__(self, secrets: Iterable) -> None:
        self.secrets = list(secrets)
        self._tried: list[tuple[int, Any]] = []  # (order, secret): those whose probe holds a *
        self._by_probe: dict[int, dict[str, tuple[int, Any]]] = {}  # probe length -> probe -> first (order, secret)
        for order, sec in enumerate(self.secrets):
            value = sec.value.lower()
            if len(value) <= sec.shown:
                continue
            probe = value[:sec.shown + 4]
            if "*" in probe:
                self._tried.append((order, sec))
            else:
                self._by_probe.setdefault(len(probe), {}).setdefault(probe, (order, sec))

    def hide(self, s: str) -> str:
        """:func:`hide_secrets` of ``s`` with this masker's secrets."""
        low = s.lower()
        if len(low) != len(s):  # a case mapping that changes lengths: every secret, matched exactly
            return _hide(s, self.secrets)
        found = list(self._tried)
        for size, probes in self._by_probe.items():
            if len(probes) <= 8:
                found += [hit for probe, hit in probes.items() if probe in low]
            else:  # each place of the string looked up, not each probe looked for
                found += [probes[low[i:i + size]] for i in range(len(low) - size + 1) if low[i:i + size] in probes]
        if not found:
            return s
        return _hide(s, [sec for _, sec in sorted(dict(found).items())])


def _hide(s: str, secrets) -> str:
    """:func:`hide_secrets`, trying every one of ``secrets`` in turn."""
    for sec in secrets:
        value, shown = sec.value.lower(), sec.shown
        if len(value) <= shown:
            continue
        low = s.lower()
        if len(low) != len(s):  # a case mapping that changes lengths: match exactly
            low, value = s, sec.value
        probe = value[:shown + 4]
        i = low.find(probe)
        while i >= 0:
            k = i + shown
            while k < len(s) and k - i < len(value) and low[k] == value[k - i]:
                k += 1
            s = s[:i + shown] + "*" * (k - i - shown) + s[k:]
            low = low[:i + shown] + "*" * (k - i - shown) + low[k:]
            i = low.find(probe, k)
    return s

"""The Harvey session model: scenes, turns and typed notes over the Fountain AST.

``build_session(document)`` reads a :class:`~fountain_audit.parse.fountain.Document`
the way Harvey's recorder writes it (harvey-recorder-inventory.md §1–§7), for
format versions 1.0 to 1.3:

* the title page as fields (``Title``, ``Author``, ``Model`` ...);
* scenes classified by kind from their heading (:data:`SCENE_KINDS`), with the
  heading timestamp in its exact form ``YYYY-MM-DD HH:MM:SS`` or the loose
  ``— YYYY-MM-DD HH:MM`` form found in real files;
* *speeches*: a character's dialogue together with everything the character
  wrote after it, across blank lines (the recorder writes replies verbatim, so
  a reply may hold blank lines, markdown, ``#`` lines, ``INT.`` lines, ``@name``
  lines, ``THE END.``; Fountain readers split those off, we re-attach them);
* turns in chat scenes: the user's input, HARVEY's forwarding line, the notes
  (tool, RAG ...) and the reply; several exchanges in one scene are several turns
  (the shape Harvey's own replay lost until 3cf6ac3);
* every note as a typed :class:`~fountain_audit.parse.notes.NoteRecord`.

Nothing is dropped: every body node of the document lands in exactly one
scene's ``nodes`` (or in ``Session.prologue`` / ``Session.epilogue``).
"""

from __future__ import annotations

import functools
import re
from collections import namedtuple
from itertools import compress, repeat
from dataclasses import MISSING, field
from sys import intern  # a session repeats its headings' places, names and its models' names

from fountain_audit.memos import content_table, forgettable, remember
from fountain_audit.model.names import upper_ascii
from fountain_audit.records import record
from fountain_audit.lazyre import lazy
from fountain_audit.parse.fountain import (Action, Blank, Boneyard, Dialogue, Document, InlineNote, Node, Note,
                                          SceneHeading, Transition, _content, gc_paused)
from fountain_audit.parse.notes import NoteRecord, finite_number, parse_note

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing (issue 9)
if TYPE_CHECKING:
    from typing import Iterator

#: Scene kinds, in the order headings are tried.
SCENE_KINDS = ("chat", "ext-chat", "agent-mode", "shell", "skill", "context-recall",
               "chunk-analysis", "pipeline", "memory", "hand-off", "other")
#: Kinds whose scenes hold turns.
TURN_KINDS = frozenset({"chat", "ext-chat", "pipeline"})

#: (ASCII digits only, here and in the stats patterns: the recorder writes Go's; `14:2٥` is no time)
_TIMESTAMP_RE = lazy(r"\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?$", re.ASCII)
#: A heading timestamp followed by more text (``TALKING 2026-06-24 10:02:30   <- junk``): after a
#: blank or an em dash, and a blank after it (``10:02:30.123`` is no timestamp followed by text).
_TIMESTAMP_THEN_TEXT_RE = lazy(r"(?<=[\s—])\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?(?=\s+\S)", re.ASCII)
_KIND_RES: list[tuple[str, re.Pattern[str]]] = [
    # (text after TALKING: a timestamp that could not be read, `TALKING 2026-07-03`, `TALKING x`; the
    # user is the name before TALKING, not `MARGOT TALKING 2026-07-03`, adversarial trial)
    ("chat", lazy(r"INT\. (?P<a>.+?) AND (?P<b>.+?)(?:(?P<talking> TALKING)(?P<after> .*)?)?$")),
    ("ext-chat", lazy(r"EXT\. (?P<a>.+?) AND (?P<b>.+?)(?:(?P<talking> TALKING)(?P<after> .*)?)?$")),
    ("agent-mode", lazy(r"INT\. AGENT MODE$")),
    ("shell", lazy(r"INT\. SHELL$")),
    ("context-recall", lazy(r"INT\. CONTEXT RECALL$")),
    ("chunk-analysis", lazy(r"INT\. CHUNK ANALYSIS\s+[—-]\s+(?P<file>.+)$")),
    ("pipeline", lazy(r"INT\. PIPELINE (?P<file>.+?) STEP (?P<step>\d+)/(?P<steps>\d+)$", re.ASCII)),
    ("skill", lazy(r"INT\. SKILL (?P<name>.+)$")),
    ("memory", lazy(r"INT\. MEMORY(?:\s+-\s+(?P<label>.+))?$")),
    ("hand-off", lazy(r"INT\. HAND-OFF(?:\s+-\s+(?P<label>.+))?$")),
]
#: The literal text each of :data:`_KIND_RES` starts with.
_KIND_PREFIX = {"chat": "INT. ", "ext-chat": "EXT. ", "agent-mode": "INT. AGENT MODE", "shell": "INT. SHELL",
                "context-recall": "INT. CONTEXT RECALL", "chunk-analysis": "INT. CHUNK ANALYSIS",
                "pipeline": "INT. PIPELINE ", "skill": "INT. SKILL ", "memory": "INT. MEMORY",
                "hand-off": "INT. HAND-OFF"}
#: Kinds whose recorder heading carries a ``TS`` timestamp.
TIMESTAMPED_KINDS = frozenset({"chat", "ext-chat", "agent-mode", "shell", "skill", "context-recall",
                               "chunk-analysis", "pipeline"})

#: ``Model: NAME`` in a scene description: NAME runs to a period followed by a blank or the end
#: (``Model: llama3.2. Workspace: …``), else to the end of its line (``Model: CLAUDE-SONNET-4-6``
#: alone on a line, as some recorders write it: read as "not recorded" before).
_CHAT_DESC_RE = lazy(r"Model:[ \t]*(?P<model>[^\s][^\n]*?)(?:\.(?=\s|\Z)|[ \t]*(?=\n|\Z))")
_WORKSPACE_RE = lazy(r"Workspace:\s*(?P<ws>.*?)\.?\s*$", re.M)
#: ``Harvey routing to ENDPOINT[ at URL| (cloud API)].``: the closing period is one followed by a
#: blank or the end (``QWEN2.5-CODER.``, ``ollama://192.168.1.2:11434.`` keep their own periods).
_ROUTING_RE = lazy(r"^Harvey routing to (?P<endpoint>\S+?)(?: at (?P<url>\S+?)| \(cloud API\))?\.(?=\s|\Z)")
#: ``USER executes /pipeline PCT% f1 f2.``: the first line of a pipeline step's description
#: (harvey-recorder-inventory.md §4 ``a_pipeline_1``) names the step's human.
_PIPELINE_USER_RE = lazy(r"\A(?P<user>\S+) executes /pipeline\b")
#: A chat scene's description naming its human: ``Harvey and ALICE are in chat mode.`` (§4 ``a_chat``).
_CHAT_MODE_RE = lazy(r"\AHarvey and (?P<user>\S(?:[^\n]*?\S)?) are in chat mode\.")
#: The two patterns above, for the readers of a session's descriptions (diff's normaliser).
CHAT_DESC_RE, ROUTING_RE = _CHAT_DESC_RE, _ROUTING_RE
_FORWARD_RE = lazy(r"^Forwarding to (?P<target>.+?)\.$")
#: A dialogue block of two lines, the cue and ``Forwarding to NAME.`` with no blank at its ends (as
#: the recorder writes HARVEY's forwarding line), read in place: group ``target`` is what
#: :data:`_FORWARD_RE` reads in that line (see :attr:`Speech.forwarding_target`).
_FORWARDING_BLOCK = lazy(r"[^\r\n]*(?:\r\n|\r|\n)Forwarding to (?P<target>[^\r\n]+?)\.(?:\r\n|\r|\n)?\Z")
_FORWARD_V0_RE = lazy(r"^\(forwarding to (?P<target>.+?)\)$")
_DUR = r"(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h)"
_STATS_RE = lazy(
    rf"^(?:(?P<models>[^\n]+?) · (?=\d))?(?:(?P<reply>\d+) reply \+ (?P<ctx>\d+) ctx · )?(?P<duration>{_DUR})"
    rf"(?: · (?P<rate>\d+(?:\.\d+)?) tok/s)?$", re.ASCII)
_ROUTE_STEP_RE = lazy(r"^(?:Routing to|Answered by) \S+$")
#: Pre-v1.2 prose tool call (88504ea–cf4aa0d): ``Harvey calls NAME: ARGS`` / ``Harvey calls NAME``.
PROSE_TOOL_CALL_RE = lazy(r"^Harvey calls (?P<name>[^\s:]+)(?:: (?P<args>.*))?$", re.S)
_END_MARKERS = frozenset({"THE END.", "THE END"})
_PIPELINE_TRANSITIONS = frozenset({"CUT TO:", "CUT BACK TO:"})

#: The label of ``INT. HAND-OFF - RFC3339Z`` (harvey.go WriteHandoff, Go's ``time.RFC3339``;
#: harvey-recorder-inventory.md §3): a date and time with its own UTC offset.
_RFC3339_RE = lazy(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?(?:Z|[+-]\d\d:\d\d)$", re.ASCII)


@record(eq=False, slots=True)
class HeadingInfo:
    """What a scene heading says. ``timestamp`` is the heading's time as written:
    ``YYYY-MM-DD HH:MM[:SS]`` (the recorder's local time, no zone) or, for a hand-off heading
    whose label is one (``INT. HAND-OFF - 2026-07-01T16:04:05Z``), an RFC 3339 time with its
    UTC offset. ``timestamp_form`` is ``"exact"`` (``␠YYYY-MM-DD HH:MM:SS``), ``"loose"`` (em
    dash and/or no seconds), ``"rfc3339"`` (the hand-off label) or ``None``."""

    kind: str
    place: str
    timestamp: str | None = None
    timestamp_form: str | None = None
    annotation: str | None = None
    groups: dict[str, str | None] = field(default_factory=dict)

    def __init__(self, kind: str, place: str, timestamp: str | None = None, timestamp_form: str | None = None,
                 annotation: str | None = None, groups: dict[str, str | None] = MISSING) -> None:
        # (written out, not generated: see fountain_audit.records)
        self.kind = kind
        self.place = place
        self.timestamp = timestamp
        self.timestamp_form = timestamp_form
        self.annotation = annotation
        self.groups = {} if groups is MISSING else groups


def valid_timestamp(ts: str) -> bool:
    """A heading timestamp ``YYYY-MM-DD HH:MM[:SS]`` (or a hand-off's RFC 3339
    ``YYYY-MM-DDTHH:MM:SS[.f](Z|±HH:MM)``) names a real date and time (``2026-02-30``,
    ``25:61:99`` and an offset of ``+24:00`` do not; H101 reports them, S107 does not compare
    them, ``dump`` gives no ISO 8601 time for them): what ``datetime`` accepts, the date's
    answer remembered."""
    valid = _VALID_TIMESTAMPS.get(ts)
    if valid is None:  # (two rules ask of each heading's)
        valid = remember(_VALID_TIMESTAMPS, ts, _valid_timestamp(ts))
    return valid


#: Timestamps -> :func:`valid_timestamp`'s answer.
_VALID_TIMESTAMPS: dict[str, bool] = content_table()


def _valid_timestamp(ts: str) -> bool:
    try:
        hour, minute, second = int(ts[11:13]), int(ts[14:16]), int(ts[17:19]) if len(ts) > 16 else 0
        off = ts[-6:] if len(ts) > 19 and ts[-6] in "+-" else None
        if off is not None and not (int(off[1:3]) <= 23 and int(off[4:6]) <= 59):
            return False
    except ValueError:
        return False
    if not (0 <= hour <= 23 and 0 <= minute <= 59 and 0 <= second <= 59):
        return False
    day = _DAYS.get(ts[:10])  # (the date: read once per distinct date, a session's scenes share a few)
    if day is None:
        try:
            day = _real_date(int(ts[0:4]), int(ts[5:7]), int(ts[8:10]))
        except ValueError:
            day = False
        remember(_DAYS, ts[:10], day)
    return day


#: The first ten characters of a timestamp (its date) -> whether they name a real date.
_DAYS: dict[str, bool] = content_table()


@forgettable
@functools.lru_cache(maxsize=1024)
def _real_date(year: int, month: int, day: int) -> bool:
    from datetime import datetime
    try:
        datetime(year, month, day)
        return True
    except ValueError:
        return False


def read_heading(text: str) -> HeadingInfo:
    """Classify a scene heading line (no terminator) into a :class:`HeadingInfo`.

    Source: harvey-recorder-inventory.md §3 (forms, and the tolerated loose
    ``— YYYY-MM-DD HH:MM`` and design-doc ``← comment`` deviations). Any other text after the
    timestamp (``TALKING 2026-06-24 10:02:30   <- junk``, which the recorder never writes) is
    read as the ``← comment`` is: the heading's ``annotation``, its timestamp and kind read
    without it (H101 reports it; H102 reports the ``← comment``).
    """
    s = text.strip()
    annotation = None
    arrow = s.find("←")
    if arrow > 0 and s[arrow - 1].isspace():  # design-doc `   ← comment`
        annotation = s[arrow:].strip()
        s = s[:arrow].rstrip()
    ts = form = None
    tail = s[-19:]  # the timestamp is at most 19 characters: no scanning of long lines
    m = _TIMESTAMP_RE.search(tail)
    if m is None and ":" in s:  # (a screenplay's headings hold no time: not searched)
        after = _TIMESTAMP_THEN_TEXT_RE.search(s)
        if after is not None:
            annotation = s[after.end():].strip() + (" " + annotation if annotation else "")
            s = s[:after.end()]
            tail = s[-19:]
            m = _TIMESTAMP_RE.search(tail)
    if m and m.start() in (0, 3):
        ts = m.group()
        before = s[:len(s) - len(ts)]
        head = before.rstrip()
        sep = before[len(head):]
        if sep:
            if head.endswith("—"):
                head = head[:-1].rstrip()
                form = "loose"
            else:
                form = "exact" if sep == " " and len(ts) == 19 else "loose"
            s = head
        else:
            ts = None
    return _heading_info(s, ts, form, annotation)


def _heading_info(s: str, ts: str | None, form: str | None, annotation: str | None) -> HeadingInfo:
    """The :class:`HeadingInfo` of a heading whose text without its timestamp ``ts`` (of form
    ``form``) and its annotation is ``s`` (see :func:`read_heading`)."""
    key = (s, ts is not None)
    known = _PLACES.get(key)
    if known is None:
        # (a session names a few places, each with many timestamps)
        known = remember(_PLACES, key, _classify_place(s, ts is not None))
    kind, place, groups = known
    if kind == "hand-off" and ts is None and groups.get("label"):
        label = groups["label"]
        if _RFC3339_RE.match(label):
            ts, form = label, "rfc3339"  # WriteHandoff's label is the hand-off's time
        else:  # a time then more text (`… 16:04:05Z junk`): the time, the rest its annotation (H101's)
            first, _, rest = label.partition(" ")
            if rest.strip() and annotation is None and _RFC3339_RE.match(first):
                ts, form, annotation = first, "rfc3339", rest.strip()
    info = _new(HeadingInfo)  # (HeadingInfo(...) without its keyword defaults: one a scene)
    info.kind, info.place, info.timestamp, info.timestamp_form, info.annotation = kind, place, ts, form, annotation
    info.groups = dict(groups) if groups else {}
    return info


_new = object.__new__


def _read_heading_node(node: SceneHeading) -> HeadingInfo:
    """:func:`read_heading` of a scene heading node's text. A heading with no timestamp (a
    screenplay's ``INT. HOUSE - DAY``, a reply's line that reads as one) is read once per
    distinct text; a recorder heading's timestamp makes each one new: one in the exact form
    (``PLACE YYYY-MM-DD HH:MM:SS``, no blank or ``—`` around the place, no ``←``) is read
    without the general reader's steps."""
    raw = node._lines.text[node.offset:node.end_offset]
    known = _UNTIMED.get(raw)
    if known is None:
        text = _content(raw)
        cut = len(text) - 20  # (where the blank before an exact timestamp would be)
        if cut > 0 and text[cut] == " " and _TIMESTAMP_RE.match(text, cut + 1):
            place = text[:cut]
            if not (place[0].isspace() or place[-1].isspace() or place[-1] == "—" or "←" in place
                    or "\n" in place or "\r" in place):
                return _heading_info(place, text[cut + 1:], "exact", None)
        info = read_heading(node.text)
        if info.timestamp is None and len(raw) <= 200:  # (the table keeps no long text alive)
            remember(_UNTIMED, raw, (info.kind, info.place, info.annotation, dict(info.groups)))
        return info
    info = _new(HeadingInfo)
    info.kind, info.place, info.annotation = known[0], known[1], known[2]
    info.timestamp = info.timestamp_form = None
    info.groups = dict(known[3])
    return info


#: A scene heading node's text (terminator included) with no timestamp -> (kind, place,
#: annotation, groups) of its :class:`HeadingInfo` (see :func:`_read_heading_node`).
_UNTIMED: dict[str, tuple] = content_table()


#: (place, has a timestamp) -> what :func:`_classify_place` says of it.
_PLACES: dict[tuple[str, bool], tuple[str, str, dict]] = content_table()


def _classify_place(s: str, timestamped: bool) -> tuple[str, str, dict[str, str | None]]:
    """``(kind, place, groups)`` of a heading's text without its timestamp and annotation (see
    :func:`read_heading`); ``groups`` is shared: copied into each :class:`HeadingInfo`."""
    for kind, rx in _KIND_RES:
        if not s.startswith(_KIND_PREFIX[kind]) or (kind in ("chat", "ext-chat") and " AND " not in s):
            continue  # (what the expression starts with, tested before it)
        km = rx.match(s)
        if km:
            g = km.groupdict()
            after = g.pop("after", None)
            # `INT. BLOOM HOUSE AND GARDEN - DAY` (or `... GARDEN TALKING POINTS`) is a screenplay
            # heading, not a chat.
            if kind in ("chat", "ext-chat") and not (timestamped or g["talking"] and after is None
                                                     or g["a"] == "HARVEY"):
                continue
            for k, v in g.items():
                if v is not None:
                    g[k] = intern(v)
            return kind, intern(s), g
    return "other", intern(s), {}


@record(eq=False, slots=True)
class Speech:
    """A character's dialogue plus what the character wrote after it.

    ``dialogue`` is the Fountain dialogue block; ``continuation`` the nodes that
    follow it and belong to the same speech (blank lines, paragraphs, lines that
    Fountain reads as headings, sections, cues ...). Derived values (``text``,
    ``parentheticals``, ``is_forwarding``) are computed once, on first use after
    the model is built.
    """

    dialogue: Dialogue
    continuation: list[Node] = field(default_factory=list)
    #: The scene heading glued to the end of the speech's last line, which ended it, or ``None``.
    glued_heading: SceneHeading | None = None
    _text: str | None = field(default=None, repr=False)
    _parentheticals: list[str] | None = field(default=None, repr=False)
    _target: object = field(default=False, repr=False)  # False: not computed yet; else str | None

    def __init__(self, dialogue: Dialogue, continuation: list[Node] = MISSING,
                 glued_heading: SceneHeading | None = None, _text: str | None = None,
                 _parentheticals: list[str] | None = None, _target: object = False) -> None:
        # (written out, not generated: see fountain_audit.records)
        self.dialogue = dialogue
        self.continuation = [] if continuation is MISSING else continuation
        self.glued_heading = glued_heading
        self._text = _text
        self._parentheticals = _parentheticals
        self._target = _target

    @property
    def character(self) -> str:
        return self.dialogue.character

    @property
    def parentheticals(self) -> list[str]:
        """Parentheticals directly under the cue, e.g. ``["(chunk 1/2)"]`` (Fountain's
        directions: the recorder's chunk/synthesis/v0 markers, or a writer's own)."""
        if self._parentheticals is None:
            out = []
            d = self.dialogue
            for i in range(1, d.part_count):
                if d.part_type(i) != "PARENTHETICAL":
                    break
                out.append(d.part_text(i).strip())
            self._parentheticals = out
        return self._parentheticals

    @property
    def text(self) -> str:
        """Everything the character wrote, exactly, with ``\\n`` line ends.

        Starts after the cue and its leading :attr:`parentheticals` (kept there,
        not lost); trailing blank lines are removed.
        """
        if self._text is None:
            d = self.dialogue
            k = 1 + len(self.parentheticals)
            raw = (d.src[d.part_span(k)[0]:d.end_offset] if k < d.part_count else "") + \
                "".join(n.render() for n in self.continuation)
            raw = raw.replace("\r\n", "\n").replace("\r", "\n")
            self._text = raw[:-1] if raw.endswith("\n") else raw
        return self._text

    def _first_line(self) -> str:
        """The first line of :attr:`text`, stripped, as far as the forwarding test needs it.
        Read from the dialogue block alone, so it is the same while the speech grows: a
        continuation starts after a blank line or with a boneyard (``/*``), neither of
        which can read as ``Forwarding to``; a speech with no text under the cue gives ``""``."""
        # (the dialogue's tokens read once, for the parentheticals too: see :attr:`parentheticals`)
        spans = self.dialogue.spans()
        k, n = 1, len(spans)
        while k < n and spans[k][0] == "PARENTHETICAL":
            k += 1
        src = self.dialogue._lines.text
        if self._parentheticals is None:
            self._parentheticals = [src[a:b].strip() for _, a, b in spans[1:k]]
        if k >= n:
            return ""
        _, a, b = spans[k]
        first = src[a:b]
        cut = first.find("\n")
        cr = first.find("\r", 0, cut) if cut >= 0 else first.find("\r")
        return first[:cr if cr >= 0 else cut if cut >= 0 else len(first)].strip()

    @property
    def forwarding_target(self) -> str | None:
        """NAME of HARVEY's `Forwarding to NAME.` (first line) or of the v0 `(forwarding to
        NAME)` parenthetical, else ``None`` (computed once; whoever the speaker is)."""
        target = self._target
        if target is False:
            d = self.dialogue
            src = d._lines.text
            if (m := _FORWARDING_BLOCK.match(src, d.offset, d.end_offset)) is not None:
                self._parentheticals = []  # (as _first_line leaves them: none)
            elif src.find("orwarding to ", d.offset, d.end_offset) < 0:
                m = None  # (both forms hold these words in the dialogue block: most speeches do not)
            else:
                m = _FORWARD_RE.match(self._first_line())
                if m is None:
                    par = self.parentheticals
                    m = _FORWARD_V0_RE.match(par[0]) if par else None
            target = self._target = intern(m.group("target")) if m else None
        return target

    @property
    def forwarding_line(self) -> int | None:
        """The line of the `Forwarding to NAME.` text (the line after the cue and its
        parentheticals) or of the v0 `(forwarding to NAME)` parenthetical, else ``None``: what a
        message citing "HARVEY's forwarding line" names (not the ``HARVEY`` cue's line)."""
        if self.forwarding_target is None:
            return None
        d = self.dialogue
        k = 1 + len(self.parentheticals)
        if not (k < d.part_count and _FORWARD_RE.match(self._first_line())):
            k = 1  # the v0 parenthetical
        return d._lines.line(d.part_span(k)[0])

    @property
    def is_forwarding(self) -> bool:
        """HARVEY's `Forwarding to NAME.` (first line), or the v0 `(forwarding to NAME)`
        (computed once; whoever the speaker is)."""
        return self.forwarding_target is not None

    @property
    def nodes(self) -> list[Node]:
        return [self.dialogue, *self.continuation]

    @property
    def truncated(self) -> bool:
        """True when the file ends inside this speech with no final line break
        (a recorder killed mid-append, case B28). A speech ended by a glued scene
        heading is not truncated."""
        if self.glued_heading is not None:
            return False
        return not (self.continuation[-1] if self.continuation else self.dialogue).ends_line

    @property
    def line(self) -> int:
        return self.dialogue.line

    @property
    def column(self) -> int:
        return self.dialogue.column

    @property
    def end_line(self) -> int:
        for n in reversed(self.continuation):  # the last node that is not a blank run
            if not isinstance(n, Blank):
                return n.end_line
        return self.dialogue.end_line


#: Turn phases in recorder order; a note's phase is where it was found.
PHASES = ("before-user", "after-user", "after-forwarding", "after-reply")


@record(eq=False, slots=True)
class Turn:
    """One exchange in a chat scene: user input → HARVEY forwarding → notes → reply.

    ``notes`` pairs each note of the turn with its phase (one of :data:`PHASES`);
    ``prose_tool_calls`` are pre-v1.2 ``Harvey calls NAME: ARGS`` action lines.
    ``index`` is 0-based over the whole session; ``scene_index`` is the 0-based
    index of the owning scene (an index, not a reference, so the model holds no
    reference cycles and is freed as soon as it is dropped).
    Any part may be missing (a crashed session has no reply; spec examples have
    HARVEY answer directly, without a forwarding line).
    """

    index: int
    scene_index: int
    line: int
    user: Speech | None = None
    forwarding: Speech | None = None
    reply: Speech | None = None
    notes: list[tuple[str, NoteRecord]] = field(default_factory=list)
    stats: Action | None = None
    actions: list[Speech] = field(default_factory=list)
    prose_tool_calls: list[Action] = field(default_factory=list)

    def __init__(self, index: int, scene_index: int, line: int, user: Speech | None = None,
                 forwarding: Speech | None = None, reply: Speech | None = None,
                 notes: list[tuple[str, NoteRecord]] = MISSING, stats: Action | None = None,
                 actions: list[Speech] = MISSING, prose_tool_calls: list[Action] = MISSING) -> None:
        # (written out, not generated: see fountain_audit.records)
        self.index = index
        self.scene_index = scene_index
        self.line = line
        self.user = user
        self.forwarding = forwarding
        self.reply = reply
        self.notes = [] if notes is MISSING else notes
        self.stats = stats
        self.actions = [] if actions is MISSING else actions
        self.prose_tool_calls = [] if prose_tool_calls is MISSING else prose_tool_calls

    @property
    def target(self) -> str | None:
        """The model HARVEY forwarded to (``Forwarding to NAME.``), or ``None`` (computed
        once, with the forwarding speech)."""
        return None if self.forwarding is None else self.forwarding.forwarding_target

    @property
    def tool_calls(self) -> list[NoteRecord]:
        return [n for _, n in self.notes if n.kind == "tool"]

    @property
    def context(self) -> list[NoteRecord]:
        """RAG and rag-source notes of this turn."""
        return [n for _, n in self.notes if n.kind in ("rag", "rag-source")]

    @property
    def complete(self) -> bool:
        """True when the turn has a reply that was not cut off at end of file."""
        return self.reply is not None and not self.reply.truncated



def _holds(nodes: list[Node], needle: str) -> bool:
    """Does the source text of one of ``nodes`` hold ``needle`` (no line break in it)? A
    cheap test (no text is built) before a regular expression that needs the words."""
    return any(n.src.find(needle, n.offset, n.end_offset) >= 0 for n in nodes)


def _described(description: list[Action], needle: str, rx: re.Pattern[str], group: str,
               memo: dict[str, str | None]) -> str | None:
    """Group ``group`` of ``rx`` searched in a scene description's text (``None`` when it does
    not match; not searched when no paragraph holds ``needle``). A description of one paragraph
    is read once per distinct text, in ``memo`` (a session repeats its scenes' descriptions)."""
    if len(description) != 1:
        m = rx.search("\n".join(a.text for a in description)) if _holds(description, needle) else None
        return m.group(group) if m else None
    a = description[0]
    src, start, end = a._lines.text, a.offset, a.end_offset
    if src.find(needle, start, end) < 0:
        return None  # (most screenplay paragraphs: no copy of the text)
    raw = src[start:end]
    value = memo.get(raw, False)
    if value is False:
        m = rx.search(a.text)
        value = m.group(group) if m else None
        if len(raw) <= 1000:  # (the table keeps no long text alive)
            remember(memo, raw, value, 1024)
    return value


#: A scene description's text (one paragraph, as written) -> its model / its workspace (see _described).
_MODELS: dict[str, str | None] = content_table()
_WORKSPACES: dict[str, str | None] = content_table()


@record(eq=False, slots=True)
class Scene:
    """A scene: its heading, what the heading says, and every node up to the next scene.

    ``index`` is 0-based. ``nodes`` excludes the heading. ``speeches`` and
    ``notes`` are in source order; ``turns`` is filled for :data:`TURN_KINDS`.
    """

    index: int
    heading: SceneHeading
    info: HeadingInfo
    nodes: list[Node] = field(default_factory=list)
    description: list[Action] = field(default_factory=list)
    speeches: list[Speech] = field(default_factory=list)
    notes: list[NoteRecord] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    stats: list[Action] = field(default_factory=list)
    _model: object = field(default=False, repr=False)  # False: not computed yet
    _workspace: object = field(default=False, repr=False)

    def __init__(self, index: int, heading: SceneHeading, info: HeadingInfo, nodes: list[Node] = MISSING,
                 description: list[Action] = MISSING, speeches: list[Speech] = MISSING,
                 notes: list[NoteRecord] = MISSING, turns: list[Turn] = MISSING, stats: list[Action] = MISSING,
                 _model: object = False, _workspace: object = False) -> None:
        # (written out, not generated: see fountain_audit.records)
        self.index = index
        self.heading = heading
        self.info = info
        self.nodes = [] if nodes is MISSING else nodes
        self.description = [] if description is MISSING else description
        self.speeches = [] if speeches is MISSING else speeches
        self.notes = [] if notes is MISSING else notes
        self.turns = [] if turns is MISSING else turns
        self.stats = [] if stats is MISSING else stats
        self._model = _model
        self._workspace = _workspace

    @property
    def kind(self) -> str:
        return self.info.kind

    @property
    def line(self) -> int:
        return self.heading.line

    @property
    def timestamp(self) -> str | None:
        return self.info.timestamp

    @property
    def user(self) -> str | None:
        """The human named in a chat heading (``INT. HARVEY AND ALICE TALKING``), or in a
        pipeline step's description (``RSDOIEL executes /pipeline …``, §4 ``a_pipeline_1``)."""
        if self.kind in ("chat", "ext-chat"):
            return self.info.groups.get("b")
        if self.kind == "pipeline" and self.description:
            m = _PIPELINE_USER_RE.match(self.description[0].text)
            return m.group("user") if m else None
        return None

    @property
    def description_text(self) -> str:
        return "\n".join(a.text for a in self.description)

    @property
    def model(self) -> str | None:
        """``Model:`` from the scene description, or ``None`` (computed once)."""
        model = self._model
        if model is False:
            model = self._model = _described(self.description, "Model:", _CHAT_DESC_RE, "model", _MODELS)
        return model

    @property
    def workspace(self) -> str | None:
        """``Workspace:`` from the scene description, or ``None`` (computed once)."""
        ws = self._workspace
        if ws is False:
            ws = self._workspace = _described(self.description, "Workspace:", _WORKSPACE_RE, "ws", _WORKSPACES)
        return ws

    @property
    def routing(self) -> re.Match[str] | None:
        """The ``Harvey routing to ENDPOINT`` match of an EXT scene description."""
        for a in self.description:
            m = _ROUTING_RE.match(a.text)
            if m:
                return m
        return None


@record(eq=False, slots=True)
class Session:
    """A Harvey session file, read as the recorder writes it.

    ``title`` maps title-page keys to values. ``prologue`` holds body nodes
    before the first scene heading (``FADE IN:``, a ``[[model switch:]]``...),
    ``epilogue`` the end marker and whatever follows it. ``notes`` lists every
    note of the file in order. ``kind`` is ``"session"``, ``"memory"``,
    ``"hand-off"``, ``"fragment"`` (scenes without a title page or ``FADE IN:``)
    or ``"screenplay"`` (no Harvey structure at all).
    """

    document: Document
    title: dict[str, str]
    prologue: list[Node]
    scenes: list[Scene]
    epilogue: list[Node]
    notes: list[NoteRecord]
    fade_in: Node | None
    the_end: Node | None
    kind: str
    _placements: list | None = None
    _inline: list | None = None
    _ids: object | None = None  # fountain_audit.model.ids.SessionIds, computed on first use
    _provenance: tuple | None = None  # (file, document) of fountain_audit.audit.provenance, computed once
    _turns: list | None = None
    _tool_calls: list | None = None
    #: Read as a plain screenplay (no heading the recorder writes, no audit note): a speech is its
    #: cue's dialogue element, as Fountain reads it.
    _screenplay: bool = False

    def __init__(self, document: Document, title: dict[str, str], prologue: list[Node], scenes: list[Scene],
                 epilogue: list[Node], notes: list[NoteRecord], fade_in: Node | None, the_end: Node | None,
                 kind: str, _placements: list | None = None, _inline: list | None = None, _ids: object | None = None,
                 _provenance: tuple | None = None, _turns: list | None = None,
                 _tool_calls: list | None = None, _screenplay: bool = False) -> None:
        # (written out, not generated: see fountain_audit.records)
        self.document = document
        self.title = title
        self.prologue = prologue
        self.scenes = scenes
        self.epilogue = epilogue
        self.notes = notes
        self.fade_in = fade_in
        self.the_end = the_end
        self.kind = kind
        self._placements = _placements
        self._inline = _inline
        self._ids = _ids
        self._provenance = _provenance
        self._turns = _turns
        self._tool_calls = _tool_calls
        self._screenplay = _screenplay

    @property
    def turns(self) -> list[Turn]:
        """Every turn of every scene, in order (computed once; do not modify)."""
        if self._turns is None:
            self._turns = [t for s in self.scenes for t in s.turns]
        return self._turns

    def speech_boneyards(self) -> dict[int, tuple[str, bool]]:
        """``/* ... */`` boneyards that a speech may have written, by offset (0-based code points),
        each with that speech's speaker (as the cue writes it) and whether the speech is a reply
        (``False``: the user's input). A suppression comment there is session text, never a
        directive (:func:`fountain_audit.lint.suppressions.directives`).

        A speech is recorded verbatim (harvey-recorder-inventory.md §1, ``writeDialogue``), so
        what ends it in the session model (a note, a stats line, ``CUT TO:``, a route step, a
        cue, a scene heading of no Harvey kind) may be text the speaker wrote too. What a speech
        may have written therefore runs on past those:

        - a reply (a model's or a skill's, SHELL's output, and HARVEY's own speeches: a
          pipeline's replies are HARVEY's) from its cue to the next scene heading of a Harvey
          kind (:func:`is_harvey_heading`) that is not glued to a line of text, or to the end;
        - the user's input (the author's, or the human a chat heading names) from its cue to the
          recorder's forwarding line in a chat scene (§7: the last ``Forwarding to NAME.`` of
          HARVEY before the scene's first reply; one the input wrote comes before it), else
          like a reply; that forwarding line, the recorder's own words, covers nothing;
        - in a skill scene, the skill's text (its description paragraphs and its body, both
          from the skill's file, §7) from the paragraph after Harvey's first line.

        In a plain screenplay (not recorded by Harvey) a speech is its dialogue element, as
        Fountain reads it: no boneyard is a speech's.
        """
        out: dict[int, tuple[str, bool]] = {}
        if self._screenplay:
            return out
        author = upper_ascii(self.title.get("Author", "").strip())
        reply = None  # (speaker, True) of the reply whose text runs on to the next Harvey scene heading
        for scene in self.scenes:
            info = scene.info
            if not scene.heading.glued and is_harvey_heading(info):  # (a glued one is a line's text)
                reply = None
            users = _participants(author, info) - {"HARVEY", "SHELL"}
            forwarding = _recorder_forwarding(scene.speeches, users) if info.kind in ("chat", "ext-chat") else None
            starts = {id(sp.dialogue): sp for sp in scene.speeches}
            user = None  # (speaker, False) of the user's input whose reach is open
            skill = info.kind == "skill" and reply is None  # (see below: the skill's text after its first line)
            for n in scene.nodes:
                if skill and isinstance(n, Action):  # Harvey's `Harvey executes the NAME skill.`, then the skill's
                    reply, skill = (info.groups.get("name") or "the skill", True), False
                    continue
                if reply is not None:
                    if isinstance(n, Boneyard):
                        out[n.offset] = reply
                    continue
                sp = starts.get(id(n))
                if sp is None:
                    if user is not None and isinstance(n, Boneyard):
                        out[n.offset] = user
                elif sp is forwarding:
                    user = None
                elif (user is not None and forwarding is not None and sp.forwarding_target is not None
                      and upper_ascii(sp.character) == "HARVEY"):
                    pass  # (a forwarding line before the recorder's: the input wrote it)
                elif upper_ascii(sp.character) in users:
                    user = (sp.character, False)
                else:
                    reply = (sp.character, True)
        return out

    def scenes_span(self) -> tuple[int, int] | None:
        """Where the scenes of a Harvey recording and what follows them run: the offset (0-based
        code points) of the first scene heading and the text's length; ``None`` for a plain
        screenplay or a file without scenes. Replies are recorded there, so a ``disable-file``
        there may be a reply's text: a reply can forge a scene heading, and ``THE END.`` too
        (in a file cut short, the forged one is the end marker)."""
        if self._screenplay or not self.scenes:
            return None
        return self.scenes[0].heading.offset, len(self.document.text)

    @property
    def tool_calls(self) -> list[NoteRecord]:
        """Every ``[[tool:]]`` note, in order (computed once; do not modify)."""
        if self._tool_calls is None:
            self._tool_calls = [n for n in self.notes if n.kind == "tool"]
        return self._tool_calls

    @property
    def author(self) -> str | None:
        return self.title.get("Author")


#: What a Harvey file of each :attr:`Session.kind` is called in messages (default: a session).
_KIND_NAMES = {"memory": "a Harvey memory document", "hand-off": "a Harvey hand-off file",
               "fragment": "a Harvey session fragment"}


def without_turns(session: Session) -> str:
    """What a Harvey file with no turns is, for the commands that need a reply to work on
    (``provenance``, ``diff``): ``a Harvey session with no chat turns (scene kinds: shell)``,
    the kinds of its scenes in order of appearance, or ``(no scenes)``. It is a session (lint
    checks it as one), not something else: only the turns are missing."""
    kinds = list(dict.fromkeys(sc.kind for sc in session.scenes))
    where = f"scene kinds: {', '.join(kinds)}" if kinds else "no scenes"
    return f"{_KIND_NAMES.get(session.kind, 'a Harvey session')} with no chat turns ({where})"


def _recorded_by_harvey(body: list[Node], codes: bytes, read: dict[int, HeadingInfo]) -> bool:
    """Whether ``body`` (whose nodes' codes are ``codes``, see :func:`_node_codes`) holds a scene
    heading of a Harvey kind (any kind but ``other``) or a note of a known kind: what
    :meth:`_Builder.session_kind` reads as a Harvey file (session, fragment, memory or hand-off)
    rather than a plain screenplay. Stops at the first one (a session's first heading or note,
    at once); a screenplay is read through. ``read`` gets each heading's :func:`read_heading`,
    by ``id`` of its node (for the builder: read once)."""
    notes = []
    for k, code in enumerate(codes):
        if code == _HEADING:
            node = body[k]
            info = read[id(node)] = _read_heading_node(node)
            if info.kind != "other":
                return True
        elif code == _NOTE:
            notes.append(body[k])
    return any(parse_note(n).kind != "unknown" for n in notes)


def is_harvey_heading(info: HeadingInfo) -> bool:
    """A heading the recorder could have written: a known kind, with its timestamp when
    the recorder writes one (a chunked file name may be in lower case: spec examples),
    else in upper case (memory, hand-off)."""
    if info.kind in TIMESTAMPED_KINDS:
        return info.timestamp is not None
    return info.kind != "other" and info.place == info.place.upper()


def _is_stats(node: Node) -> bool:
    """A one-line stats action (§4 `a_stats`): models and/or token counts, then a duration.
    A bare duration (`250ms`) is not enough: a reply may hold such a line."""
    if not isinstance(node, Action):
        return False
    text = node._lines.text[node.offset:node.end_offset]
    return " · " in text and _stats_line(text)  # (most actions hold none)


def _stats_line(text: str) -> bool:
    """:func:`_is_stats` of the action whose text (line ends included) is ``text``."""
    line = _content(text)
    if "\n" in line or "\r" in line:  # (more than one line)
        return False
    m = _STATS_RE.match(line.strip())
    return bool(m and (m.group("models") or m.group("reply")))


#: (``collections.namedtuple``, not ``typing.NamedTuple``: lint starts without importing typing, issue 9)
StatsLine = namedtuple("StatsLine", ("models", "reply_tokens", "context_tokens", "duration", "rate", "duration_ns"),
                       defaults=(0,))
StatsLine.__doc__ = """What a stats line records (§4 `a_stats`): ``models`` (``Client.Name()`` values, e.g.
    ``["Ollama (qwen2.5-coder:7b)"]``, empty when not written), ``reply_tokens`` and
    ``context_tokens`` (``None`` when not written), ``duration`` in seconds (and exactly, in
    nanoseconds, ``duration_ns``: whole nanoseconds from the text, not the float; default 0) and
    ``rate`` in tokens per second (``None`` when not written)."""


_DURATION_PART_RE = lazy(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)", re.ASCII)
_TOKENS_ONLY_RE = lazy(r"^(\d+) reply \+ (\d+) ctx$", re.ASCII)
_DURATION_UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(text: str) -> float:
    """A Go ``Duration.String()`` (``18.412s``, ``850ms``, ``1m2.5s``, ``1h0m0s``) in seconds."""
    return sum(float(v) * _DURATION_UNIT[u] for v, u in _DURATION_PART_RE.findall(text))


_DURATION_UNIT_NS = {"ns": 1, "us": 10**3, "µs": 10**3, "ms": 10**6, "s": 10**9, "m": 60 * 10**9, "h": 3600 * 10**9}


def parse_duration_ns(text: str) -> int:
    """:func:`parse_duration` in whole nanoseconds, in integer arithmetic (``99999999999.9s`` →
    ``99999999999900000000`` exactly; a fraction of a nanosecond is rounded half to even)."""
    from fractions import Fraction  # (here: most sessions have no stats line; start-up, issue 9)

    return round(sum(Fraction(v) * _DURATION_UNIT_NS[u] for v, u in _DURATION_PART_RE.findall(text)))


def _stats_parts(text: str) -> tuple[re.Match[str], list[str], str | None, str | None] | None:
    """A stats line's match, models, reply and context counts as written, or ``None`` when
    ``text`` is not one (see :func:`parse_stats`)."""
    m = _STATS_RE.match(text.strip())
    if not m or not (m.group("models") or m.group("reply")):
        return None
    models_text, reply, ctx = m.group("models"), m.group("reply"), m.group("ctx")
    tokens = _TOKENS_ONLY_RE.match(models_text or "")
    if tokens and reply is None:  # `R reply + P ctx · DUR`: the lazy models group took the counts
        models_text, reply, ctx = None, tokens.group(1), tokens.group(2)
    elif models_text and " · " in models_text:  # (`M · -5 reply + 5 ctx · …`: fields no count reads, which
        return None                             # export made the model's name; adversarial trial)
    return m, [x.strip() for x in models_text.split(" → ")] if models_text else [], reply, ctx


def stats_models(text: str) -> list[str]:
    """The ``models`` of :func:`parse_stats` (``["Ollama (qwen2.5-coder:7b)"]``; ``[]``: none
    written, or ``text`` is no stats line), without reading the numbers."""
    parts = _stats_parts(text)
    return parts[1] if parts is not None else []


#: The longest number a stats line's field may hold (Python converts at most 4,300 digits from
#: text; no count or duration has more than 20): a longer one is no stats line it reads.
_MAX_DIGITS = 4000


def parse_stats(text: str) -> StatsLine | None:
    """Read one stats line (``MODELS · R reply + P ctx · DUR · T.T tok/s`` and its shorter
    forms), or ``None`` when ``text`` is not one (nor one whose number holds more than
    :data:`_MAX_DIGITS` digits)."""
    parts = _stats_parts(text)
    if parts is None:
        return None
    m, models, reply, ctx = parts
    if any(v is not None and len(v) > _MAX_DIGITS for v in (reply, ctx, m.group("duration"), m.group("rate"))):
        return None  # (past what Python converts from text: a traceback in export, adversarial trial)
    try:  # (a number past a double's range: Infinity, which no JSON reader takes)
        seconds = finite_number(parse_duration(m.group("duration")))
        rate = None if m.group("rate") is None else finite_number(m.group("rate"))
    except ValueError:
        return None
    return StatsLine(models, None if reply is None else int(reply), None if ctx is None else int(ctx),
                     seconds, rate, parse_duration_ns(m.group("duration")))


def _is_route_step(node: Node) -> bool:
    """`Routing to X` / `Answered by X` (b45c946–f94bc8d), which precede a stats line."""
    if not isinstance(node, Action):
        return False
    src, start, end = node.src, node.offset, node.end_offset
    if src.find("Routing to", start, end) < 0 and src.find("Answered by", start, end) < 0:
        return False  # (a cheap test before the lines)
    return len(node.lines) == 1 and bool(_ROUTE_STEP_RE.match(node.text.strip()))


def _next_shown(nodes: list[Node], k: int) -> Node | None:
    """The first node after ``nodes[k]`` that is not a blank run, or ``None`` (blank runs are one
    node each: this looks at two nodes at most)."""
    for j in range(k + 1, len(nodes)):
        if not isinstance(nodes[j], Blank):
            return nodes[j]
    return None


def _is_end_marker(node: Node) -> bool:
    return isinstance(node, (Action, Transition)) and node.text.strip() in _END_MARKERS


def _close(speech: Speech, nodes: list[Node], codes: bytes, start: int, end: int) -> None:
    """End a speech whose continuation is ``nodes[start:end]`` (indexes in the document body, whose
    codes are ``codes``: a speech's continuation is the run of nodes after its dialogue up to what
    ends it). Trailing blank lines are not part of what was written; every boneyard before what
    ends it is, a ``/* fountain-audit: ... */`` comment too, right before a note or a heading
    included (:meth:`Session.speech_boneyards`): a speech is recorded verbatim, so a model may
    have written it (a ``disable-next=V101`` ending a reply switched off the secret rule for
    the next note)."""
    while end > start and codes[end - 1] == _BLANK:
        end -= 1
    speech.continuation = nodes[start:end]
    speech._text = None


# What the builder needs to know of a node's class, decided once per class (with isinstance,
# so subclasses are read as their base): one of these codes.
_HEADING, _BLANK, _NOTE, _DIALOGUE, _BONEYARD, _TRANSITION, _ACTION, _OTHER = range(8)


class _ClassCodes(dict):
    """Node class -> its code (see above); a class not seen yet is decided when first looked up."""

    def __missing__(self, cls: type) -> int:
        for code, base in enumerate((SceneHeading, Blank, Note, Dialogue, Boneyard, Transition, Action)):
            if issubclass(cls, base):
                break
        else:
            code = _OTHER
        self[cls] = code
        return code


_CLASS_CODES = _ClassCodes()


def _node_codes(nodes: list[Node]) -> bytes:
    """The code of each node of ``nodes`` (``_HEADING`` ... ``_OTHER``), in order, one byte a
    node: what the builder dispatches on, looked up for all at once."""
    return bytes(map(_CLASS_CODES.__getitem__, map(type, nodes)))


#: ``codes.translate(_NOT_BLANK)``: 1 for each node but a blank run, 0 for a blank run.
_NOT_BLANK = bytes(int(code != _BLANK) for code in range(256))


def _new_scene(index: int, heading: SceneHeading, info: HeadingInfo) -> Scene:
    """``Scene(index, heading, info)``, made without its ``__init__``'s keyword defaults (one a
    scene: the builder's; every field set, as ``__init__`` sets it)."""
    scene = _new(Scene)
    scene.index, scene.heading, scene.info = index, heading, info
    scene.nodes, scene.description, scene.speeches, scene.notes, scene.turns, scene.stats = [], [], [], [], [], []
    scene._model = scene._workspace = False
    return scene


def _new_speech(dialogue: Dialogue) -> Speech:
    """``Speech(dialogue)``, made as :func:`_new_scene` makes a scene (one a speech)."""
    speech = _new(Speech)
    speech.dialogue, speech.continuation, speech.glued_heading = dialogue, [], None
    speech._text = speech._parentheticals = None
    speech._target = False
    return speech


def _new_turn(index: int, scene_index: int) -> Turn:
    """``Turn(index, scene_index, 0)``, made as :func:`_new_scene` makes a scene (its ``line``:
    set by :meth:`_Builder.turns` once the turn is known)."""
    turn = _new(Turn)
    turn.index, turn.scene_index, turn.line = index, scene_index, 0
    turn.user = turn.forwarding = turn.reply = turn.stats = None
    turn.notes, turn.actions, turn.prose_tool_calls = [], [], []
    return turn


#: Marks a stats line in a scene's content (see :meth:`_Builder.build`).
_STATS = object()


def _human(info: HeadingInfo | None) -> str | None:
    """The human a chat heading names (``INT. HARVEY AND ALICE TALKING …``: ``ALICE``, as written),
    else ``None``."""
    return info.groups.get("b") if info is not None and info.kind in ("chat", "ext-chat") else None


def _recorder_forwarding(speeches: list[Speech], users: frozenset[str]) -> Speech | None:
    """The recorder's forwarding line among a chat scene's ``speeches``: the last of HARVEY's
    ``Forwarding to NAME.`` before the first reply (a speech of none of ``users``, the scene's
    humans, nor a forwarding line), or ``None``. (A user's input that writes one writes it
    before the recorder's, which follows the input: harvey-recorder-inventory.md §7.)"""
    found = None
    for sp in speeches:
        who = upper_ascii(sp.character)
        if who == "HARVEY" and sp.forwarding_target is not None:
            found = sp
        elif who not in users:
            break
    return found


def _participants(author: str, info: HeadingInfo | None) -> frozenset[str]:
    """HARVEY, SHELL, the title page's ``author`` (upper case, ``""`` for none) and the human the
    scene heading ``info`` names: the speakers whose lines are never part of another's reply."""
    names = {"HARVEY", "SHELL"}
    if author:
        names.add(author)
    key = _human(info)
    if key:
        names.add(upper_ascii(key))
    return frozenset(names)


class _Builder:
    """Single pass over the document body that builds the session.

    Each body node is classified once (its class, and for an action whether it is a stats
    line), and each scene's *content* (its nodes outside speeches' continuations, blank
    runs left out) is collected in that pass with what each item is: the :class:`Speech`
    it opens, its :class:`NoteRecord`, :data:`_STATS`, or ``None``. When the scene ends, its
    description, stats lines and turns are read from that content alone.
    """

    def __init__(self, document: Document):
        self.doc = document
        tp = document.title_page
        self.title = {e.key: e.value for e in tp.entries} if tp else {}
        self.author = self.title.get("Author", "").strip()
        self.notes: list[NoteRecord] = []
        self.scenes: list[Scene] = []
        self.prologue: list[Node] = []
        self.turn_count = 0
        self._participants: dict[str | None, frozenset[str]] = {}
        self._users: dict[frozenset[str], frozenset[str]] = {}  # participants -> those but HARVEY, SHELL
        self._speakers: dict[Speech, str] = {}  # each speech's character, upper case

    def participants(self, scene: Scene | None) -> frozenset[str]:
        """HARVEY, SHELL, the author and the scene's human: the speakers whose lines are
        never part of another's reply (:func:`_participants`, one set per human)."""
        info = None if scene is None else scene.info
        key = _human(info)
        names = self._participants.get(key)
        if names is None:
            names = self._participants[key] = _participants(upper_ascii(self.author), info)
        return names

    def build(self) -> Session:
        body = self.doc.body
        codes = _node_codes(body)
        # The end marker: the last non-blank body node, if it reads THE END.
        end_index = None
        for k in range(len(body) - 1, -1, -1):
            if codes[k] == _BLANK or codes[k] == _BONEYARD:
                continue
            if _is_end_marker(body[k]):
                end_index = k
            break
        main = body if end_index is None else body[:end_index]
        epilogue = [] if end_index is None else body[end_index:]

        # A plain screenplay (no heading the recorder writes, no audit note): a speech is its cue's
        # dialogue element only, ended by the blank line after it as Fountain ends it. (In a Harvey
        # file a model's reply runs on over blank lines, headings and cues it wrote: see below.)
        read: dict[int, HeadingInfo] = {}  # (the headings read by the test, by node id: not read again)
        screenplay = not _recorded_by_harvey(body, codes, read)
        notes = self.notes
        # The prologue: the nodes before the first scene heading
        first = codes.find(_HEADING, 0, len(main))
        if first < 0:
            first = len(main)
        fade_in = None
        for k in range(first):
            code = codes[k]
            if code == _NOTE:
                notes.append(parse_note(main[k]))
            elif fade_in is None and (code == _TRANSITION or code == _ACTION) and main[k].text.strip() == "FADE IN:":
                fade_in = main[k]
        self.prologue.extend(main[:first])

        # The scenes. Blank runs are not visited: one in a speech is its text (the run of nodes
        # from its dialogue to what ends it is its continuation, trailing blanks left out), one
        # after HARVEY's forwarding line ends it (seen from the next node: ``upto``).
        scene: Scene | None = None
        content: list[tuple[Node, object]] = []  # the current scene's content (see the class)
        stats: list[Node] = []  # the current scene's stats lines
        people: frozenset[str] = frozenset()
        speech: Speech | None = None
        opened = 0  # where the open speech's continuation starts in main: it runs to what ends the speech
        upto = 0  # where the nodes of the open speech seen so far end in main
        speaker = ""  # the open speech's character, upper case
        closed = False  # the open speech is HARVEY's forwarding line: nothing continues it
        for k in compress(range(first, len(main)), codes[first:len(main)].translate(_NOT_BLANK)):
            code = codes[k]
            node = main[k]
            if code == _HEADING:
                info = read.pop(id(node), None) if read else None  # (each read once: the table empties)
                if info is None:
                    info = _read_heading_node(node)
                if speech is not None and closed and k > upto:  # (a blank run ended the speech)
                    _close(speech, main, codes, opened, upto)
                    speech = None
                if speech is not None:
                    glued = node.glued
                    if not glued and not is_harvey_heading(info):
                        upto = k + 1
                        continue  # a line of the open speech
                    if glued:
                        speech.glued_heading = node
                    _close(speech, main, codes, opened, k)
                    speech = None
                if scene is not None:
                    scene.nodes = main[first:k]
                    notes += scene.notes
                    self.shape(scene, content, people)
                scene = _new_scene(len(self.scenes), node, info)
                self.scenes.append(scene)
                first = k + 1
                content = []
                stats = scene.stats
                people = self.participants(scene)
                continue
            tag = None
            if speech is not None:
                # Does the node belong to the open speech (what the character wrote)?
                if closed:
                    goes_on = False  # (what follows it, or a blank run, ends it: the same speech)
                elif code == _NOTE:
                    tag = parse_note(node)
                    goes_on = tag.kind == "unknown"
                elif code == _DIALOGUE:
                    # Only a model's (or skill's) text can hold a line Fountain reads as a cue,
                    # its own name included (`LLAMA (CONT'D)`).
                    goes_on = speaker not in people and upper_ascii(node.character) not in people
                elif code == _TRANSITION:
                    goes_on = node.text.strip() not in _PIPELINE_TRANSITIONS  # `> quote` is reply text
                elif code == _ACTION:
                    # (most actions in a reply are neither: the cheap tests first, in the action's
                    # text, most often narrower than the document's: no widened copy of each word)
                    src, a, b = node._lines.text, node.offset, node.end_offset
                    text = src[a:b]
                    if " · " in text and _stats_line(text):
                        # the recorder's stats line ends the reply: a note, a cue, a scene, THE END. (a
                        # paragraph that starts with it: S106's) or the end of the file follows it; one
                        # the reply goes on after is the reply's text (a model can write one: its model
                        # and counts were taken for the turn's, the rest of the reply lost to it;
                        # adversarial trial, stop 38)
                        nxt = _next_shown(main, k)
                        goes_on = isinstance(nxt, Action) and not _is_stats(nxt) and not _is_route_step(nxt) \
                            and nxt.text.split("\n", 1)[0].strip() not in _END_MARKERS
                        if not goes_on:
                            tag = _STATS
                    elif ("Routing to" in text or "Answered by" in text) and _is_route_step(node):
                        # (only when a stats line follows it)
                        nxt = _next_shown(main, k)
                        goes_on = not (nxt is not None and (_is_stats(nxt) or _is_route_step(nxt)))
                    else:
                        goes_on = True
                else:
                    # (a boneyard too, `/* fountain-audit: ... */` included: a speech is recorded
                    # verbatim, so what looks like a suppression in it is the character's text, not
                    # the user's directive)
                    goes_on = True
                if goes_on:
                    continue
                _close(speech, main, codes, opened, k)
                speech = None
            if code == _DIALOGUE:
                speech = tag = _new_speech(node)
                opened = upto = k + 1
                speaker = self._speakers[speech] = upper_ascii(node.character)
                closed = screenplay or speaker == "HARVEY" and speech.forwarding_target is not None  # never a reply
                scene.speeches.append(speech)
            elif code == _NOTE:
                if tag is None:
                    tag = parse_note(node)
                scene.notes.append(tag)  # (and to the session's notes when the scene ends)
            elif code == _ACTION and tag is None:  # (_is_stats, its class known)
                text = node._lines.text[node.offset:node.end_offset]
                if " · " in text and _stats_line(text):
                    tag = _STATS
            if tag is _STATS:
                stats.append(node)
            content.append((node, tag))
        if speech is not None:
            _close(speech, main, codes, opened, len(main))
        if scene is not None:
            scene.nodes = main[first:]
            notes += scene.notes
            self.shape(scene, content, people)
        for n in epilogue:
            if isinstance(n, Note):
                notes.append(parse_note(n))
        kind = self.session_kind(fade_in)
        return Session(self.doc, self.title, self.prologue, self.scenes, epilogue, notes,
                       fade_in, epilogue[0] if epilogue else None, kind, _screenplay=screenplay)

    def shape(self, scene: Scene, content: list[tuple[Node, object]], people: frozenset[str]) -> None:
        """Split a scene's content into description and (for chat kinds) turns (its stats lines
        are collected as the scene is read); ``people``: the scene's :meth:`participants`."""
        for n, tag in content:  # the description: leading action paragraphs (after comments)
            if tag is _STATS or not isinstance(n, Action):
                if not scene.description and isinstance(n, Boneyard):
                    continue  # (a comment before them, a suppression too: the description still follows)
                break
            scene.description.append(n)
        if scene.info.kind in ("chat", "ext-chat") and scene.description:
            # the human the description names is the scene's too, even when the heading names another
            # (a hand edit), unless the scene records that name as a model: its Model:, a forwarding
            # line's target (naming the model made its replies the user's input; adversarial trials)
            m = _CHAT_MODE_RE.match(scene.description[0].text)
            name = None if m is None else upper_ascii(m.group("user"))
            if name is not None and name not in people and name != upper_ascii(scene.model or "") and not any(
                    upper_ascii(t) == name for _, tag in content if isinstance(tag, Speech)
                    for t in (tag.forwarding_target,) if t):
                people = people | {name}
        if scene.info.kind in TURN_KINDS:
            self.turns(scene, content, people)

    def turns(self, scene: Scene, content: list[tuple[Node, object]], people: frozenset[str]) -> None:
        """Group a chat scene's speeches and notes into turns (recorder order, §7); ``people``:
        its :meth:`participants`."""
        users = self._users.get(people)
        if users is None:
            users = self._users[people] = people - {"HARVEY", "SHELL"}
        # A pipeline step holds the user's step file and HARVEY's reply only (§7 PIPELINE): any
        # other cue is the user's, named or not (a fragment has no Author: to name them).
        pipeline = scene.info.kind == "pipeline"
        speakers = self._speakers
        turn: Turn | None = None
        pending: list[NoteRecord] = []  # notes seen before the next turn's user input
        prompted = False  # HARVEY asked the user something after the reply (Write P?)

        def new_turn() -> Turn:
            nonlocal turn, pending
            turn = _new_turn(self.turn_count, scene.index)
            self.turn_count += 1
            scene.turns.append(turn)
            if pending:
                turn.notes.extend(zip(repeat("before-user"), pending))
                pending = []
            return turn

        for n, tag in content:
            if tag is None:
                if turn is not None and isinstance(n, Action):
                    # (its first line starts so: tested in the text, without its lines)
                    if n._lines.text.startswith("Harvey calls ", n.offset) and PROSE_TOOL_CALL_RE.match(n.text):
                        turn.prose_tool_calls.append(n)
                continue
            if tag is _STATS:
                if turn is not None:
                    if turn.stats is None:
                        turn.stats = n
                    elif PROSE_TOOL_CALL_RE.match(n.text):
                        turn.prose_tool_calls.append(n)
                continue
            if tag.__class__ is Speech:
                sp = tag
                who = speakers[sp]
                if who in users or (pipeline and who != "HARVEY" and who != "SHELL"):
                    if prompted:
                        turn.actions.append(sp)  # the user's answer to HARVEY's prompt
                        prompted = False
                        continue
                    if turn is None or turn.user or turn.forwarding or turn.reply:
                        new_turn()
                    turn.user = sp
                elif who == "HARVEY":
                    prompted = False
                    if sp.forwarding_target is not None:
                        if turn is None or turn.forwarding or turn.reply:
                            new_turn()
                        turn.forwarding = sp
                    elif turn is None:
                        new_turn().reply = sp  # pipeline return scene: HARVEY's final reply
                    elif turn.reply is None and turn.forwarding is None:
                        turn.reply = sp  # HARVEY answers directly (spec examples 1, 3, 5)
                    else:
                        turn.actions.append(sp)  # Write P? / memory-tool prompt
                        prompted = True
                else:
                    if turn is None or turn.reply:
                        new_turn()
                    turn.reply = sp
                continue
            rec = tag
            if turn is None or (turn.reply and rec.kind in ("rag", "rag-source")):
                pending.append(rec)
                continue
            if turn.reply is not None:
                phase = "after-reply"
            elif turn.forwarding is not None:
                phase = "after-forwarding"
            else:
                phase = "after-user" if turn.user else "before-user"
            turn.notes.append((phase, rec))
        if pending:
            if turn is not None:  # notes after the last reply (memory tools of the next turn)
                turn.notes.extend(zip(repeat("after-reply"), pending))
        for t in scene.turns:  # a turn's line: its first speech, else its first note
            first = t.user or t.forwarding or t.reply
            t.line = first.dialogue.line if first is not None else t.notes[0][1].line if t.notes else scene.line

    def session_kind(self, fade_in: Node | None) -> str:
        """Classify the file: session, fragment, memory, hand-off or screenplay."""
        harvey = {s.info.kind for s in self.scenes}  # (Scene.kind, read without the property)
        harvey.discard("other")
        if harvey and harvey <= {"memory"}:
            return "memory"
        if harvey and harvey <= {"hand-off"}:
            return "hand-off"
        headed = self.doc.title_page is not None or fade_in is not None
        if harvey or any(n.kind != "unknown" for n in self.notes):
            return "session" if headed else "fragment"
        t = self.title
        if not self.scenes and (fade_in is not None or "Harvey" in t.get("Title", "") + t.get("Credit", "")
                                or "Model" in t or "Backend" in t):
            return "session"  # a session with no scene yet
        return "screenplay"


def build_session(document: Document) -> Session:
    """Build the :class:`Session` model of a parsed document. Never raises."""
    with gc_paused():
        return _Builder(document).build()


Placement = namedtuple("Placement", ("note", "scene", "turn", "phase"))  # (not typing.NamedTuple: see StatsLine)
Placement.__doc__ = """Where a note sits: its ``note`` (a :class:`NoteRecord`), its ``scene`` (``None`` before
    the first scene), its ``turn`` (``None`` outside turns) and its ``phase`` in the turn (one of
    :data:`PHASES`)."""


def placements(session: Session) -> list[Placement]:
    """Every note of ``session`` with its placement, in source order (computed once, then kept;
    :func:`iter_placements` gives them without keeping them)."""
    if session._placements is None:
        session._placements = list(_by_scene(session)) if _in_scene_order(session) else \
            _placements_by_note(session)
    return session._placements


def iter_placements(session: Session) -> Iterator[Placement]:
    """:func:`placements`, made scene by scene as they are read and not kept (one
    :class:`Placement` a note: the linter walks every note once), unless already kept."""
    if session._placements is not None:
        return iter(session._placements)
    if _in_scene_order(session):
        return _by_scene(session)
    return iter(placements(session))


def _in_scene_order(session: Session) -> bool:
    """Whether ``session.notes`` is the prologue's notes, each scene's ``notes`` in turn, then
    the epilogue's, as :func:`build_session` makes it (then :func:`_by_scene` places them)."""
    notes = session.notes
    k = sum(1 for n in session.prologue if isinstance(n, Note))
    for scene in session.scenes:
        m = len(scene.notes)
        # (records have no __eq__: lists of them compare by identity, in C)
        if m and notes[k:k + m] != scene.notes:
            return False
        k += m
    return k <= len(notes)


#: ``_placement(Placement, (note, scene, turn, phase))`` is ``Placement(note, scene, turn, phase)``
#: without the Python frame of the namedtuple's ``__new__`` (which calls it so): one a note.
_placement = tuple.__new__


def _by_scene(session: Session) -> Iterator[Placement]:
    """The placements of a session whose notes are in scene order (see :func:`_in_scene_order`):
    a scene's note is in the turn whose ``notes`` hold it, with that phase, else in no turn."""
    notes = session.notes
    k = sum(1 for n in session.prologue if isinstance(n, Note))
    for r in notes[:k]:
        yield Placement(r, None, None, None)
    for scene in session.scenes:
        recs = scene.notes
        k += len(recs)
        turns = scene.turns
        if not turns:
            for rec in recs:
                yield _placement(Placement, (rec, scene, None, None))
        elif [rec for turn in turns for _, rec in turn.notes] == recs:
            # (the builder's usual order: the turns' notes, turn after turn, are the scene's: no
            # table of where each is; records compare by identity)
            for turn in turns:
                for phase, rec in turn.notes:
                    yield _placement(Placement, (rec, scene, turn, phase))
        else:  # (a rag note held for the next turn while a later one went to this turn)
            where = {id(rec): (turn, phase) for turn in turns for phase, rec in turn.notes}
            for rec in recs:
                tp = where.get(id(rec))
                yield Placement(rec, scene, None, None) if tp is None else Placement(rec, scene, *tp)
    for r in notes[k:]:
        yield Placement(r, None, None, None)


def _placements_by_note(session: Session) -> list[Placement]:
    where: dict[int, Placement] = {}
    for scene in session.scenes:
        for turn in scene.turns:
            for phase, rec in turn.notes:
                where[id(rec)] = Placement(rec, scene, turn, phase)
        for rec in scene.notes:
            if id(rec) not in where:
                where[id(rec)] = Placement(rec, scene, None, None)
    return [where.get(id(r)) or Placement(r, None, None, None) for r in session.notes]


def inline_note_record(note: InlineNote, element: Node) -> NoteRecord:
    """The record of an inline note: kind ``"inline"``, ``fields`` ``{"element": TYPE}``
    (the Fountain element carrying it: ``dialogue``, ``action`` ...), ``body`` its text.
    Inline notes are a writer's annotations, not audit records (Harvey writes its notes on
    their own lines): a ``[[tool: …]]`` inside a reply is not a tool call (case B34)."""
    return NoteRecord("inline", note, note.body, fields={"element": element.type})


def inline_placements(session: Session) -> list[Placement]:
    """Every inline note of ``session`` as a :class:`Placement` (phase ``None``; the turn
    whose speech holds it, else ``None``), in source order (computed once)."""
    if session._inline is not None:
        return session._inline
    out: list[Placement] = []
    if session.document.has_inline_notes():
        turn_of: dict[int, Turn] = {}
        for scene in session.scenes:
            for turn in scene.turns:
                for sp in (turn.user, turn.forwarding, turn.reply, *turn.actions):
                    if sp is not None:
                        for n in sp.nodes:
                            turn_of[id(n)] = turn
        scene_of: dict[int, Scene] = {}
        for scene in session.scenes:
            scene_of[id(scene.heading)] = scene
            for n in scene.nodes:
                scene_of[id(n)] = scene
        for c in session.document.children:
            for note in c.inline_notes:
                out.append(Placement(inline_note_record(note, c), scene_of.get(id(c)), turn_of.get(id(c)), None))
    session._inline = out
    return out

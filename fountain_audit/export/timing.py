"""When things happened, as far as a session file says: scene heading timestamps.

A heading's timestamp is the recorder's local time (``YYYY-MM-DD HH:MM:SS``, no zone;
harvey-recorder-inventory.md §1). Exports need an absolute time, so a heading time is read
in the zone given by ``utc_offset`` (UTC unless the user says otherwise; the exports record
which offset they used). A hand-off heading's time (``INT. HAND-OFF - 2026-07-01T16:04:05Z``,
RFC 3339, §3) carries its own UTC offset and is read with it, as written. A scene whose
heading has no timestamp (memory, a hand-off whose label is no time, other screenplay scenes,
a malformed heading) takes the latest heading time before it, else the first one after it; every time says which scene heading it came from. A file with no
heading timestamp at all raises :class:`NoTimestamp` unless the caller passes an explicit
``fallback`` time: no time is ever made up silently.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from fountain_audit.model.ids import scene_id
from fountain_audit.model.session import Session, valid_timestamp

_OFFSET_RE = re.compile(r"^(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$")


class NoTimestamp(ValueError):
    """The file has no scene heading timestamp and no fallback time was given."""


def parse_offset(text: str) -> dt.timezone:
    """``Z``, ``+02:00`` or ``-05:30`` → a :class:`datetime.timezone`. Raises ``ValueError``."""
    if not _OFFSET_RE.match(text):
        raise ValueError(f"not a UTC offset: {text!r} (expected Z or ±HH:MM)")
    if text == "Z":
        return dt.timezone.utc
    sign = -1 if text[0] == "-" else 1
    return dt.timezone(sign * dt.timedelta(hours=int(text[1:3]), minutes=int(text[4:6])))


_FRACTION_RE = re.compile(r"\d\d:\d\d:\d\d[.,](\d+)", re.ASCII)


class FinerThanMicroseconds(ValueError):
    """A time written with more than 6 digits of a second (:func:`parse_time`); the message says so."""


class NoOffset(ValueError):
    """A time whose UTC offset is no offset (``+02:60``; :func:`parse_time`); the message says so."""


def parse_time(text: str, zone: dt.timezone) -> dt.datetime:
    """An ISO 8601 date-time (``2026-08-03T14:20:00Z``, ``2026-08-03 14:20``); a time without
    an offset is read in ``zone``. Raises ``ValueError``; :class:`FinerThanMicroseconds` for a
    fraction of a second finer than a microsecond (``datetime`` would cut ``.123456789`` to
    ``.123456`` without a word), :class:`NoOffset` for an offset past ``23:59`` (``+02:60``, which
    ``datetime`` reads as ``+03:00``)."""
    frac = _FRACTION_RE.search(text)
    if frac and len(frac.group(1)) > 6:
        raise FinerThanMicroseconds(f"{text.strip()!r} gives {len(frac.group(1))} digits of a second; times are kept to the "
                         "microsecond (6 digits)")
    offset = _TIME_OFFSET_RE.search(text.strip())
    if offset is not None and (int(offset.group(1)) > 23 or int(offset.group(2)) > 59):
        raise NoOffset(f"{text.strip()!r}: {offset.group()} is no UTC offset (hours 00-23, minutes 00-59)")
    t = dt.datetime.fromisoformat(text.strip())
    return t if t.tzinfo is not None else t.replace(tzinfo=zone)


#: A time's UTC offset at its end (``+02:00``, ``-0530``): ``fromisoformat`` reads ``+02:60`` as +03:00.
_TIME_OFFSET_RE = re.compile(r"(?<=\d)[+-](\d\d):?(\d\d)$")


def offset_text(zone: dt.timezone) -> str:
    """``+00:00``-style text of a zone (UTC is ``+00:00``)."""
    delta = zone.utcoffset(None)
    minutes = int(delta.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    minutes = abs(minutes)
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True, slots=True)
class Clock:
    """How heading times become absolute times: ``zone`` for the headings' local times and an
    explicit ``fallback`` for files with no heading timestamp (``None``: such a file is an
    error)."""

    zone: dt.timezone = dt.timezone.utc
    fallback: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class When:
    """A time and where it comes from: ``source`` is the scene id (``s3``) whose heading gave
    it, or ``"fallback"``."""

    time: dt.datetime
    source: str

    def iso(self) -> str:
        """RFC 3339 text, ``Z`` for UTC (``2026-08-03T14:20:31Z``)."""
        s = self.time.isoformat()
        return s[:-6] + "Z" if s.endswith("+00:00") else s

    def unix_nano(self, plus_ns: int = 0) -> int:
        """Nanoseconds since the Unix epoch, ``plus_ns`` added (integers throughout; negative
        before 1970)."""
        delta = self.time - dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
        whole = (delta.days * 86400 + delta.seconds) * 10**9 + delta.microseconds * 1000
        return whole + plus_ns


def _heading_time(text: str | None, zone: dt.timezone) -> dt.datetime | None:
    """The time a heading's timestamp ``text`` names (its own UTC offset kept, else read in
    ``zone``), or ``None`` for none or one H101 reports as no real date and time
    (:func:`~fountain_audit.model.session.valid_timestamp`: ``fromisoformat`` alone read a
    hand-off's ``+02:60`` as ``+03:00``, adversarial trial)."""
    if not text or not valid_timestamp(text):
        return None
    try:
        t = dt.datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError:  # 2026-13-45 99:99: a malformed heading (H101) gives no time
        return None
    return t if t.tzinfo is not None else t.replace(tzinfo=zone)  # a hand-off's own offset is kept


class SessionTimes:
    """The time of each scene of a session (see the module docstring).

    Raises :class:`NoTimestamp` when no heading has a timestamp and ``clock.fallback`` is
    ``None``. ``offsets_recorded``: every heading time the session has carries its own UTC
    offset (hand-off headings), so ``clock.zone`` was not used; ``False`` with the fallback.
    """

    def __init__(self, session: Session, clock: Clock):
        own = [_heading_time(s.info.timestamp, clock.zone) for s in session.scenes]
        known = [(i, t) for i, t in enumerate(own) if t is not None]
        self.offsets_recorded = bool(known) and all(
            session.scenes[i].info.timestamp_form == "rfc3339" for i, _ in known)
        if not known:
            if clock.fallback is None:
                raise NoTimestamp("no scene heading has a timestamp")
            fb = When(clock.fallback, "fallback")
            self.scenes = [fb] * len(own)
            self.first = self.last = fb
            return
        self.scenes = []
        prev = When(known[0][1], scene_id(known[0][0]))  # before the first timestamp: the first one
        for i, t in enumerate(own):
            if t is not None:
                prev = When(t, scene_id(i))
            self.scenes.append(prev)
        self.first = When(known[0][1], scene_id(known[0][0]))
        self.last = When(known[-1][1], scene_id(known[-1][0]))

    def of(self, scene_index: int | None) -> When:
        """The time of scene ``scene_index`` (0-based); ``None`` (before the first scene) → the first time."""
        return self.first if scene_index is None else self.scenes[scene_index]

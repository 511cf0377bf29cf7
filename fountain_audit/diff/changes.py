"""The changes a diff reports (:class:`Change`, :data:`CATEGORIES`) and what builds them: the
per-field differences of two records, the similarity of two notes, and the labels in messages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fountain_audit.diff.jsonvalues import canon, json_path_diff, same
from fountain_audit.diff.words import THRESHOLD, diff_words, ratio

#: ``--only`` categories, in report order.
CATEGORIES = ("turns", "user", "replies", "model", "tools", "context", "notes", "scenes", "other")


@dataclass(slots=True)
class Change:
    """One difference. ``a_turn``/``b_turn`` and ``a_scene``/``b_scene`` are 0-based indexes
    (``None`` on the side that lacks it); ``a_pointer``/``b_pointer`` JSON pointers into that
    side's ``dump --turns`` document (``None`` when the item is absent or not in it).
    ``before``/``after`` are the values compared (normalised), ``words`` a
    :func:`word_diff`, ``details`` per-field differences (``{"field", "before", "after"}``,
    or ``{"field", "diff": json_path_diff(...)}``, or ``{"field", "words"}``).
    ``new_failures`` counts tool calls that now fail (``ok → error``, or added with ``error``).
    ``coarsened`` is True when a word or line diff in it was coarsened (a long stretch with
    many changes shown removed and added whole, see :mod:`fountain_audit.diff.sequences`); the
    detail concerned then carries ``"coarsened": true``."""

    kind: str
    category: str
    message: str
    a_scene: int | None = None
    b_scene: int | None = None
    a_turn: int | None = None
    b_turn: int | None = None
    a_pointer: str | None = None
    b_pointer: str | None = None
    before: Any = None
    after: Any = None
    words: list[tuple[str, str]] | None = None
    details: list[dict[str, Any]] = field(default_factory=list)
    new_failures: int = 0
    categories: tuple[str, ...] = ()
    heading: str | None = None
    coarsened: bool = False

    def __post_init__(self) -> None:
        if not self.categories:
            self.categories = (self.category,)
        if any(d.get("coarsened") for d in self.details):
            self.coarsened = True

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "category": self.category, "categories": list(self.categories),
                "message": self.message, "scene": {"a": self.a_scene, "b": self.b_scene},
                "turn": {"a": self.a_turn, "b": self.b_turn},
                "pointer": {"a": self.a_pointer, "b": self.b_pointer},
                "before": self.before, "after": self.after,
                "words": None if self.words is None else [list(w) for w in self.words],
                "details": self.details, "new_failures": self.new_failures, "coarsened": self.coarsened}



_POSITIONAL_NOTE_KEYS = frozenset({"record", "id", "file", "scene", "turn", "span"})


def _words_detail(f: str, a: str, b: str) -> dict[str, Any]:
    words, coarse = diff_words(a, b)
    d: dict[str, Any] = {"field": f, "before": a, "after": b, "words": [list(w) for w in words]}
    if coarse:
        d["coarsened"] = True
    return d


def field_details(x: dict[str, Any], y: dict[str, Any], order: Sequence[str],
                   fallback: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Per-field differences of two records: the fields of ``order`` first, then (only when
    none differs) the first differing field of ``fallback``, then any other non-positional key."""
    out: list[dict[str, Any]] = []
    for f in order:
        a, b = x.get(f), y.get(f)
        if same(a, b):
            continue
        if isinstance(a, (dict, list)) and isinstance(b, (dict, list)) and type(a) is type(b):
            out.append({"field": f, "diff": json_path_diff(a, b)})
        elif isinstance(a, str) and isinstance(b, str) and f in ("arguments", "error", "problem"):
            out.append(_words_detail(f, a, b))
        else:
            out.append({"field": f, "before": a, "after": b})
    if not out:
        for f in fallback:
            a, b = x.get(f), y.get(f)
            if not same(a, b):
                out.append(_words_detail(f, a, b) if isinstance(a, str) and isinstance(b, str)
                           else {"field": f, "before": a, "after": b})
                break
    known = set(order) | set(fallback) | _POSITIONAL_NOTE_KEYS | {"arguments_text", "body"}
    for f in list(x) + [k for k in y if k not in x]:
        if f not in known and not same(x.get(f), y.get(f)):
            out.append({"field": f, "before": x.get(f), "after": y.get(f)})
    return out


def tool_sim(x: dict[str, Any], y: dict[str, Any]) -> float | None:
    if x.get("name") is not None and x.get("name") == y.get("name"):
        return 1.0 + 0.5 * ratio(canon(x.get("arguments")), canon(y.get("arguments")), 0.0)
    r = ratio(x.get("body", ""), y.get("body", ""))
    return r if r >= THRESHOLD else None


def note_sim(x: dict[str, Any], y: dict[str, Any]) -> float | None:
    if x.get("kind") != y.get("kind"):
        return None
    fx, fy = x.get("fields") or {}, y.get("fields") or {}
    for ident in ("id", "source", "path", "command", "target", "model"):
        if ident in fx and fx.get(ident) == fy.get(ident):
            return 1.5
    r = ratio(x.get("body", ""), y.get("body", ""))
    return r if r >= THRESHOLD else None


def compact(note: dict[str, Any] | None) -> dict[str, Any] | None:
    """A note record without its positional keys (``id``, ``file``, ``scene``, ``turn``, ``span``),
    as shown in a change's ``before``/``after`` (the pointers say where it is)."""
    if note is None:
        return None
    return {k: v for k, v in note.items() if k not in ("id", "file", "scene", "turn", "span")}


def tool_label(t: dict[str, Any]) -> str:
    body = t.get("body") or ""
    if t.get("form") == "note" and ":" in body[:200]:
        head, _, rest = body.partition(":")
        if head.endswith("tool"):
            return (head[:-5] + "." if head != "tool" else "") + rest.strip()
    return body


def kind_name(base: str, note: dict[str, Any]) -> str:
    """``tool``, or a note's kind (``rag-source``, ``recall``, ``model switch`` ...)."""
    return base if base == "tool" else str(note.get("kind") or base)


def note_label(n: dict[str, Any]) -> str:
    """A note's text without its ``kind:`` head."""
    body = n.get("body") or ""
    head, sep, rest = body.partition(":")
    return rest.strip() if sep and head.strip().endswith(str(n.get("kind"))) else body


def shown(value: Any) -> str:
    """A value in a change message: ``not recorded`` for an absent one (``None``), never ``None``."""
    return "not recorded" if value is None else str(value)


def status_text(t: dict[str, Any]) -> str:
    s = t.get("status")
    if s == "error" and t.get("error"):
        return f"error ({t['error']})"
    return shown(s)  # None: a prose `Harvey calls` line does not say


def one_line(text: str | None, width: int = 60) -> str:
    if text is None:
        return "(none)"
    first = text.strip().split("\n", 1)[0]
    more = "\n" in text.strip()
    if len(first) > width:
        return first[:width - 1] + "…"
    return first + (" …" if more else "")


"""The result of a diff (:class:`DiffResult`: changes, summary counts, the ``--format json``
document) and the entry points :func:`diff_sides`, :func:`diff_texts`, :func:`diff_files`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from fountain_audit.diff.changes import CATEGORIES, Change
from fountain_audit.diff.differ import Differ
from fountain_audit.diff.options import DiffError, Options
from fountain_audit.diff.sides import Side, make_side, read_side, side_of
from fountain_audit.parse.source import undecodable_bytes

#: Version of the ``--format json`` document (``MAJOR.MINOR``; a minor change only adds fields).
#: 1.1: each change has ``coarsened`` (and a coarsened detail ``"coarsened": true``).
#: 1.2: text is well-formed Unicode (an undecodable byte is U+FFFD); ``a``/``b`` gain
#: ``undecodable_bytes`` when the file has bytes that are not UTF-8.
#: 1.3: the patch's add/replace values are B's values as ``dump --turns`` prints them (were
#: normalised placeholders such as ``<file>``, ``<timestamp>``), and it patches a turn's
#: ``provenance`` too; new change kinds ``title-page-changed``, ``scene-description-changed``,
#: ``scene-content-changed`` and ``route-changed``; INT. CONTEXT RECALL scenes are compared as scenes.
DIFF_FORMAT_VERSION = "1.3"


@dataclass(eq=False, slots=True)
class DiffResult:
    """The diff of two sides: ``changes`` in order (B's order, removals where they were),
    the complete ``patch`` (A's normalised document → B's, values as B's document has them) and ``only`` (the categories
    kept, ``None`` for all)."""

    a: Side
    b: Side
    options: Options
    changes: list[Change]
    patch: list[dict[str, Any]]
    only: frozenset[str] | None = None

    @property
    def differences(self) -> bool:
        return bool(self.changes)

    def filtered(self, only: Sequence[str] | frozenset[str] | None) -> DiffResult:
        """The result keeping only changes of these categories (a change of an added or
        removed turn belongs to ``turns`` and to the categories of what the turn holds)."""
        if not only:
            return self
        keep = frozenset(only)
        bad = keep - set(CATEGORIES)
        if bad:
            raise ValueError(f"unknown category {sorted(bad)[0]!r} (choose from {', '.join(CATEGORIES)})")
        return replace(self, changes=[c for c in self.changes if keep & set(c.categories)], only=keep)

    def summary(self) -> dict[str, Any]:
        """Counts over :attr:`changes`. ``tool_calls_added``/``removed`` include the tool calls
        of added/removed turns; ``new_failures`` counts tool calls that fail in B and did not
        in A (``ok → error``, or added with ``error``)."""
        cs = self.changes
        kinds = [c.kind for c in cs]
        added = [c for c in cs if c.kind == "turn-added"]
        removed = [c for c in cs if c.kind == "turn-removed"]
        moved = {(c.a_turn, c.b_turn) for c in cs if c.kind == "turn-moved"}
        modified = {(c.a_turn, c.b_turn) for c in cs if c.category != "turns" and c.a_turn is not None
                    and c.b_turn is not None and (c.a_turn, c.b_turn) not in moved}
        tools_in = (lambda side, recs: sum(len(side.records[c.b_turn if side is self.b else c.a_turn]
                                               .get("tool_calls", [])) for c in recs))
        return {
            "differences": bool(cs),
            "changes": len(cs),
            "turns_a": self.a.turn_count,
            "turns_b": self.b.turn_count,
            "turns_changed": len(added) + len(removed) + len(moved) + len(modified),
            "turns_added": len(added),
            "turns_removed": len(removed),
            "turns_moved": len(moved),
            "turns_modified": len(modified),
            "tool_calls_added": kinds.count("tool-added") + tools_in(self.b, added),
            "tool_calls_removed": kinds.count("tool-removed") + tools_in(self.a, removed),
            "tool_calls_changed": kinds.count("tool-changed"),
            "new_failures": sum(c.new_failures for c in cs),
            "user_inputs_changed": kinds.count("user-changed"),
            "replies_changed": kinds.count("reply-changed"),
            "model_changes": sum(1 for c in cs if c.category == "model"),
            "context_changes": sum(1 for c in cs if c.category == "context"),
            "note_changes": sum(1 for c in cs if c.category == "notes"),
            "scene_changes": sum(1 for c in cs if c.category == "scenes"),
            "other_changes": sum(1 for c in cs if c.category == "other"),
        }

    def to_json(self, stat: bool = False) -> dict[str, Any]:
        """The ``--format json`` document: ``format_version``, ``a``/``b`` (file, turns,
        scenes, and ``undecodable_bytes`` when the file has bytes that are not UTF-8), ``compared`` (:meth:`Options.to_json`), ``only``, ``summary``, then (unless
        ``stat``) ``changes`` and ``patch``."""
        out: dict[str, Any] = {
            "format_version": DIFF_FORMAT_VERSION,
            "a": _side_json(self.a),
            "b": _side_json(self.b),
            "compared": self.options.to_json(),
            "only": None if self.only is None else [c for c in CATEGORIES if c in self.only],
            "summary": self.summary(),
        }
        if not stat:
            # ``dump --turns`` of a file with undecodable bytes starts with their record: each
            # side's pointers (and the patch's paths, into the first side's) address its turns after it
            shift_a, shift_b = ("undecodable_bytes" in out["a"]), ("undecodable_bytes" in out["b"])
            out["changes"] = [_shifted_change(c.to_json(), shift_a, shift_b) for c in self.changes]
            out["patch"] = [_shifted_op(op) for op in self.patch] if shift_a else self.patch
        return out


def _shifted(pointer: str | None) -> str | None:
    """``pointer`` with the turn index after ``/records/`` one more (see :meth:`DiffResult.to_json`)."""
    if pointer is None or not pointer.startswith("/records/"):
        return pointer
    index, slash, rest = pointer[9:].partition("/")
    return f"/records/{int(index) + 1}{slash}{rest}" if index.isdigit() else pointer


def _shifted_change(change: dict[str, Any], a: bool, b: bool) -> dict[str, Any]:
    pointer = change.get("pointer")
    if pointer and (a or b):
        change["pointer"] = {"a": _shifted(pointer["a"]) if a else pointer["a"],
                             "b": _shifted(pointer["b"]) if b else pointer["b"]}
    return change


def _shifted_op(op: dict[str, Any]) -> dict[str, Any]:
    out = dict(op)
    for key in ("path", "from"):
        if key in out:
            out[key] = _shifted(out[key])
    return out


def _side_json(side: Side) -> dict[str, Any]:
    out: dict[str, Any] = {"file": side.name, "turns": side.turn_count, "scenes": side.scene_count}
    runs = undecodable_bytes(side.text)
    if runs:  # the text fields carry U+FFFD for these bytes
        out["undecodable_bytes"] = runs
    return out


def diff_sides(a: Side, b: Side, options: Options = Options()) -> DiffResult:
    """Diff two sides built with the same ``options``. Raises :class:`DiffError` (never
    :class:`RecursionError`) if a value is nested too deeply to compare.

    Two sides of the same text (and options) have no differences: nothing is dumped,
    normalised or aligned (a side builds those when first read)."""
    if a.options == b.options and a.text == b.text:
        return DiffResult(a, b, options, [], [])
    try:
        changes, patch = Differ(a, b, options).run()
    except RecursionError:  # pragma: no cover - the walks are iterative; a last guard
        raise DiffError(f"{a.name}, {b.name}: a value is nested too deeply to compare") from None
    return DiffResult(a, b, options, changes, patch)


def diff_texts(text_a: str, text_b: str, name_a: str = "a", name_b: str = "b",
               options: Options = Options()) -> DiffResult:
    """Diff two session texts. Raises :class:`DiffError` (see :func:`make_side`)."""
    a = make_side(name_a, text_a, options, build=False)
    return diff_sides(a, side_of(name_b, text_b, options, build=False, same_as=a), options)


def diff_files(path_a: str, path_b: str, options: Options = Options()) -> DiffResult:
    """Diff two session files. Raises :class:`DiffError` (see :func:`read_side`)."""
    a = read_side(path_a, options, build=False)
    return diff_sides(a, read_side(path_b, options, build=False, same_as=a), options)


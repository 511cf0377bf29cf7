"""One walk over a session for all the rules that declare what they visit.

A rule module either defines ``check(ctx)`` (it looks at the whole file itself) or one or
more visitors, each returning its :class:`~fountain_audit.lint.diagnostics.Finding` objects
as an iterable (a generator, or a tuple) or ``None`` for none (a plain function that returns
``None`` costs less to call than a generator: visitors of every note run 100k+ times on a
large session):

* ``check_note(ctx, placed)`` — every note, as a
  :class:`~fountain_audit.model.session.Placement` (``placed.note``, ``.scene``, ``.turn``,
  ``.phase``), in source order; ``NOTE_KINDS`` (optional) limits it to those note kinds;
* ``check_scene(ctx, scene)`` — every scene in order; ``SCENE_KINDS`` (optional) limits it
  to those scene kinds;
* ``check_turn(ctx, turn, scene)`` — every turn of every scene, in order.

The linter walks the notes once and the scenes (with their turns) once, calling each
visitor only for the items it asked for, instead of every rule walking the session again.
A rule with visitors still has a ``check(ctx)`` (the same walk for that rule alone), so
both kinds of rule are called the same way everywhere.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing (issue 9)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator

#: What a visitor visits, from the module attribute that defines it.
VISITORS = {"check_note": ("note", "NOTE_KINDS"), "check_scene": ("scene", "SCENE_KINDS"),
            "check_turn": ("turn", None)}


def declared(module: Any) -> tuple[tuple[str, Callable, frozenset[str] | None], ...]:
    """``((what, visitor, kinds or None), ...)`` declared by a rule module."""
    out = []
    for attr, (what, kinds_attr) in VISITORS.items():
        fn = getattr(module, attr, None)
        if fn is not None:
            kinds = getattr(module, kinds_attr, None) if kinds_attr else None
            out.append((what, fn, None if kinds is None else frozenset(kinds)))
    return tuple(out)


def walk(ctx, visits: list[tuple[Any, str, Callable, frozenset[str] | None]],
         on_error: Callable[[Any, Exception], None]) -> Iterator[tuple[Any, Any]]:
    """Yield ``(key, finding)`` for every finding of every visitor in ``visits``
    (``(key, what, visitor, kinds)``), walking the session's notes once and its scenes
    and turns once. A visitor that raises is reported to ``on_error(key, exception)``
    and its key is not visited again (the findings it gave before are kept)."""
    failed: set = set()
    session = ctx.session
    notes = [(k, fn, kinds) for k, what, fn, kinds in visits if what == "note"]
    scenes = [(k, fn, kinds) for k, what, fn, kinds in visits if what == "scene"]
    turns = [(k, fn) for k, what, fn, _ in visits if what == "turn"]
    if notes and session.notes:
        from fountain_audit.model.session import iter_placements
        by_kind: dict[str, list] = {}  # note kind -> its visitors (those that have not failed)
        for placed in iter_placements(session):  # (made as they are visited, not kept)
            kind = placed.note.kind
            chosen = by_kind.get(kind)
            if chosen is None:
                chosen = by_kind[kind] = [(k, fn) for k, fn, kinds in notes
                                          if (kinds is None or kind in kinds) and k not in failed]
            for key, fn in chosen:
                try:
                    found = fn(ctx, placed)
                    if found is not None:
                        for finding in found:
                            yield key, finding
                except Exception as e:  # noqa: BLE001 - one rule's bug must not stop the others
                    failed.add(key)
                    on_error(key, e)
                    by_kind.clear()  # chosen again without it for the next notes
    if scenes or turns:
        by_scene: dict[str, list] = {}
        for scene in session.scenes:
            kind = scene.info.kind
            chosen = by_scene.get(kind)
            if chosen is None:
                chosen = by_scene[kind] = [(k, fn) for k, fn, kinds in scenes
                                           if (kinds is None or kind in kinds) and k not in failed]
            for key, fn in chosen:
                try:
                    found = fn(ctx, scene)
                    if found is not None:
                        for finding in found:
                            yield key, finding
                except Exception as e:  # noqa: BLE001
                    failed.add(key)
                    on_error(key, e)
                    by_scene.clear()
            for turn in scene.turns if turns else ():
                for key, fn in turns:
                    if key in failed:
                        continue
                    try:
                        found = fn(ctx, turn, scene)
                        if found is not None:
                            for finding in found:
                                yield key, finding
                    except Exception as e:  # noqa: BLE001
                        failed.add(key)
                        on_error(key, e)
                        by_scene.clear()  # (a rule may visit scenes too)


def whole_file_check(visits: tuple[tuple[str, Callable, frozenset[str] | None], ...]) -> Callable:
    """A ``check(ctx)`` for a rule that only declares visitors: the same walk, for that rule."""
    def check(ctx) -> Iterator:
        def reraise(_key, exc):
            raise exc
        for _, finding in walk(ctx, [(None, what, fn, kinds) for what, fn, kinds in visits], reraise):
            yield finding
    return check

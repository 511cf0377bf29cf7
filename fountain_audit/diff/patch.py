"""RFC 6902 JSON Patch between two JSON values (:func:`json_patch`) and for an aligned array
(:func:`list_patch`).

The ops are computed on the values compared (the normalised documents of a diff), but every
value an ``add`` or ``replace`` carries is taken from ``raw``, the uncompared original of the
second value (B's ``dump --turns`` document as it is) at the same place: a normalised value
has the same keys and list lengths as its original (see
:mod:`fountain_audit.diff.normalisation`), so the place is found by the same keys and
indexes. A patch never writes a placeholder (``<file>``, ``<timestamp>`` ...) into a document."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fountain_audit.diff.alignment import align
from fountain_audit.diff.jsonvalues import Idents, copy_json, pointer_token

_SAME: Any = object()  # raw not given: the values carried are those of b


def _child(raw: Any, key: Any, value: Any) -> Any:
    """``raw[key]`` (the original of ``value``), or ``value`` itself when ``raw`` has no such
    member (it always has one when ``raw`` is the original of a normalised document)."""
    if isinstance(raw, dict):
        return raw[key] if key in raw else value
    if isinstance(raw, list) and isinstance(key, int) and 0 <= key < len(raw):
        return raw[key]
    return value


def _path(at: Any) -> str:
    """A linked path (``(parent, token)`` ... down to a pointer string) as a pointer string."""
    tokens: list[str] = []
    while not isinstance(at, str):
        at, token = at
        tokens.append(token)
    return at + "".join(reversed(tokens))


def json_patch(a: Any, b: Any, path: str = "", raw: Any = _SAME) -> list[dict[str, Any]]:
    """An RFC 6902 patch (``add``/``remove``/``replace``) that turns ``a`` into ``b``; arrays
    are aligned with :func:`~fountain_audit.diff.alignment.align`, so one inserted item is one
    ``add``. ``raw`` (default ``b``) is the original of ``b`` (same keys and list lengths):
    the values of ``add`` and ``replace`` are copied from it (nothing shared with it). Any
    depth, in time linear in the size of the values (members compared by
    :class:`~fountain_audit.diff.jsonvalues.Idents`; paths are linked, written out only for
    the ops)."""
    ops: list[dict[str, Any]] = []
    ids = Idents()
    # Work items, last first: ("cmp", a, b, raw b, path) patches two values; ("op", op, path, value) emits one.
    stack: list[tuple] = [("cmp", a, b, b if raw is _SAME else raw, path)]
    while stack:
        item = stack.pop()
        if item[0] == "op":
            _, op, at, value = item
            ops.append({"op": op, "path": _path(at)} | ({} if op == "remove" else {"value": copy_json(value)}))
            continue
        _, x, y, r, at = item
        if ids.same(x, y):
            continue
        todo: list[tuple] = []
        if isinstance(x, dict) and isinstance(y, dict):
            todo.extend(("op", "remove", (at, "/" + pointer_token(k)), None) for k in x if k not in y)
            todo.extend(("cmp", x[k], y[k], _child(r, k, y[k]), (at, "/" + pointer_token(k))) for k in x if k in y)
            todo.extend(("op", "add", (at, "/" + pointer_token(k)), _child(r, k, y[k])) for k in y if k not in x)
        elif isinstance(x, list) and isinstance(y, list):
            steps = align([ids.ident(v) for v in x], [ids.ident(v) for v in y],
                          lambda i, j, x=x, y=y: 1.0 if type(x[i]) is type(y[j]) else None)
            todo.extend(_list_items(at, x, y, steps, r))
        else:
            todo.append(("op", "replace", at, r))
        stack.extend(reversed(todo))
    return ops


def _list_items(path: Any, a: list, b: list, steps: list[tuple[str, int | None, int | None]],
                raw: Any) -> list[tuple]:
    """The work items of :func:`json_patch` for an aligned array (see :func:`list_patch`);
    ``path`` is linked (see :func:`_path`)."""
    out: list[tuple] = []
    k = 0
    for op, i, j in steps:
        if op == "pair":
            out.append(("cmp", a[i], b[j], _child(raw, j, b[j]), (path, f"/{k}")))
            k += 1
        elif op == "del":
            out.append(("op", "remove", (path, f"/{k}"), None))
        else:
            out.append(("op", "add", (path, f"/{k}"), _child(raw, j, b[j])))
            k += 1
    return out


def list_patch(path: str, a: list, b: list, steps: list[tuple[str, int | None, int | None]],
               item_patch: Callable[[Any, Any, str, Any], list[dict[str, Any]]],
               raw: list | None = None) -> list[dict[str, Any]]:
    """The patch ops at array ``path`` for an alignment ``steps`` (see :func:`align`); a pair
    is patched with ``item_patch(a_item, b_item, item_path, raw_b_item)``. ``raw`` (default
    ``b``) is the original of ``b``: added items are copied from it."""
    ops: list[dict[str, Any]] = []
    for item in _list_items(path, a, b, steps, b if raw is None else raw):
        if item[0] == "cmp":
            _, x, y, r, at = item
            ops.extend(item_patch(x, y, _path(at), r))
        else:
            _, op, at, value = item
            ops.append({"op": op, "path": _path(at)} | ({} if op == "remove" else {"value": copy_json(value)}))
    return ops

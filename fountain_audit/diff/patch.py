"""RFC 6902 JSON Patch between two JSON values (:func:`json_patch`) and for an aligned array
(:func:`list_patch`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fountain_audit.diff.alignment import align
from fountain_audit.diff.jsonvalues import canon, copy_json, pointer_token, same


def json_patch(a: Any, b: Any, path: str = "") -> list[dict[str, Any]]:
    """An RFC 6902 patch (``add``/``remove``/``replace``) that turns ``a`` into ``b``; arrays
    are aligned with :func:`~fountain_audit.diff.alignment.align`, so one inserted item is one
    ``add``. Values are copies (nothing shared with ``b``). Any depth."""
    ops: list[dict[str, Any]] = []
    # Work items, last first: ("cmp", a, b, path) patches two values; ("op", op) emits one.
    stack: list[tuple] = [("cmp", a, b, path)]
    while stack:
        item = stack.pop()
        if item[0] == "op":
            ops.append(item[1])
            continue
        _, x, y, at = item
        if same(x, y):
            continue
        todo: list[tuple] = []
        if isinstance(x, dict) and isinstance(y, dict):
            todo.extend(("op", {"op": "remove", "path": f"{at}/{pointer_token(k)}"}) for k in x if k not in y)
            todo.extend(("cmp", x[k], y[k], f"{at}/{pointer_token(k)}") for k in x if k in y)
            todo.extend(("op", {"op": "add", "path": f"{at}/{pointer_token(k)}", "value": copy_json(y[k])})
                        for k in y if k not in x)
        elif isinstance(x, list) and isinstance(y, list):
            steps = align([canon(v) for v in x], [canon(v) for v in y],
                          lambda i, j, x=x, y=y: 1.0 if type(x[i]) is type(y[j]) else None)
            todo.extend(_list_items(at, x, y, steps))
        else:
            todo.append(("op", {"op": "replace", "path": at, "value": copy_json(y)}))
        stack.extend(reversed(todo))
    return ops


def _list_items(path: str, a: list, b: list, steps: list[tuple[str, int | None, int | None]]) -> list[tuple]:
    """The work items of :func:`json_patch` for an aligned array (see :func:`list_patch`)."""
    out: list[tuple] = []
    k = 0
    for op, i, j in steps:
        if op == "pair":
            out.append(("cmp", a[i], b[j], f"{path}/{k}"))
            k += 1
        elif op == "del":
            out.append(("op", {"op": "remove", "path": f"{path}/{k}"}))
        else:
            out.append(("op", {"op": "add", "path": f"{path}/{k}", "value": copy_json(b[j])}))
            k += 1
    return out


def list_patch(path: str, a: list, b: list, steps: list[tuple[str, int | None, int | None]],
               item_patch: Callable[[Any, Any, str], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The patch ops at array ``path`` for an alignment ``steps`` (see :func:`align`); a pair
    is patched with ``item_patch(a_item, b_item, item_path)``."""
    ops: list[dict[str, Any]] = []
    for item in _list_items(path, a, b, steps):
        ops.extend(item_patch(*item[1:]) if item[0] == "cmp" else [item[1]])
    return ops

"""RFC 6902 JSON Patch between two JSON values (:func:`json_patch`) and for an aligned array
(:func:`list_patch`)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from fountain_audit.diff.alignment import align
from fountain_audit.diff.jsonvalues import canon, pointer_token, same


def json_patch(a: Any, b: Any, path: str = "") -> list[dict[str, Any]]:
    """An RFC 6902 patch (``add``/``remove``/``replace``) that turns ``a`` into ``b``; arrays
    are aligned with :class:`~difflib.SequenceMatcher`, so one inserted item is one ``add``."""
    if same(a, b):
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        ops: list[dict[str, Any]] = [{"op": "remove", "path": f"{path}/{pointer_token(k)}"} for k in a if k not in b]
        for k in a:
            if k in b:
                ops.extend(json_patch(a[k], b[k], f"{path}/{pointer_token(k)}"))
        ops.extend({"op": "add", "path": f"{path}/{pointer_token(k)}", "value": copy.deepcopy(b[k])}
                   for k in b if k not in a)
        return ops
    if isinstance(a, list) and isinstance(b, list):
        steps = align([canon(x) for x in a], [canon(y) for y in b],
                      lambda i, j: 1.0 if type(a[i]) is type(b[j]) else None)
        return list_patch(path, a, b, steps, json_patch)
    return [{"op": "replace", "path": path, "value": copy.deepcopy(b)}]


def list_patch(path: str, a: list, b: list, steps: list[tuple[str, int | None, int | None]],
               item_patch: Callable[[Any, Any, str], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The patch ops at array ``path`` for an alignment ``steps`` (see :func:`align`); a pair
    is patched with ``item_patch(a_item, b_item, item_path)``."""
    ops: list[dict[str, Any]] = []
    k = 0
    for op, i, j in steps:
        if op == "pair":
            ops.extend(item_patch(a[i], b[j], f"{path}/{k}"))
            k += 1
        elif op == "del":
            ops.append({"op": "remove", "path": f"{path}/{k}"})
        else:
            ops.append({"op": "add", "path": f"{path}/{k}", "value": copy.deepcopy(b[j])})
            k += 1
    return ops


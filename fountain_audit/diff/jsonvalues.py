"""JSON values as the diff compares them: canonical text, equality, RFC 6901 pointers and
JSONPath names, and the per-path differences of two values (:func:`json_path_diff`)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any


def canon(value: Any) -> str:
    """Canonical JSON text of ``value`` (sorted keys): equal texts ⇔ equal JSON values
    (``1``, ``1.0`` and ``true`` differ, unlike in Python)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=True)


def same(a: Any, b: Any) -> bool:
    return a == b and canon(a) == canon(b)


def pointer_token(key: Any) -> str:
    """One RFC 6901 reference token (``~`` → ``~0``, ``/`` → ``~1``)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def json_path(parts: Sequence[Any]) -> str:
    """``["a", 0, "b c"]`` → ``$.a[0]['b c']``."""
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            out += "." + p
        else:
            out += "[" + json.dumps(p, ensure_ascii=False).replace("'", "\\'").replace('"', "'", 1)[:-1] + "']"
    return out


def json_path_diff(a: Any, b: Any, parts: tuple = ()) -> list[dict[str, Any]]:
    """Differences between two JSON values as ``{"op", "path", "pointer", "before", "after"}``
    entries: ``op`` is ``add``, ``remove`` or ``replace``; ``path`` a JSONPath (``$.a[0]``),
    ``pointer`` the RFC 6901 pointer relative to the values. Objects are compared key by key,
    arrays item by item (extra items added or removed at the end)."""
    if same(a, b):
        return []
    ptr = "".join("/" + pointer_token(p) for p in parts)
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[dict[str, Any]] = []
        for k in a:
            if k not in b:
                out.append({"op": "remove", "path": json_path(parts + (k,)), "pointer": ptr + "/" + pointer_token(k),
                            "before": a[k], "after": None})
            else:
                out.extend(json_path_diff(a[k], b[k], parts + (k,)))
        for k in b:
            if k not in a:
                out.append({"op": "add", "path": json_path(parts + (k,)), "pointer": ptr + "/" + pointer_token(k),
                            "before": None, "after": b[k]})
        return out
    if isinstance(a, list) and isinstance(b, list):
        out = []
        for i in range(max(len(a), len(b))):
            p = parts + (i,)
            if i >= len(b):
                out.append({"op": "remove", "path": json_path(p), "pointer": f"{ptr}/{i}", "before": a[i],
                            "after": None})
            elif i >= len(a):
                out.append({"op": "add", "path": json_path(p), "pointer": f"{ptr}/{i}", "before": None, "after": b[i]})
            else:
                out.extend(json_path_diff(a[i], b[i], p))
        return out
    return [{"op": "replace", "path": json_path(parts), "pointer": ptr, "before": a, "after": b}]


"""JSON values as the diff compares them: canonical text, equality, RFC 6901 pointers and
JSONPath names, the per-path differences of two values (:func:`json_path_diff`) and copies
(:func:`copy_json`).

Every walk over a value here is iterative (an explicit stack), so a value nested as deeply as
the JSON parser accepts (a tool note's arguments ~1000 levels deep) never raises
:class:`RecursionError`."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Callable


class _Texts(dict):
    """``text(s)`` by string ``s``, each distinct string read once (a dump repeats its keys,
    headings, kinds ...: about 1.8 million strings, far fewer distinct, in the dump of a 1 MB
    session), found by a lookup in C (no Python call for a string already read)."""

    __slots__ = ("_text",)

    def __init__(self, text: Callable[[str], str]) -> None:
        super().__init__()
        self._text = text

    def __missing__(self, s: str) -> str:
        out = self[s] = self._text(s)
        return out


def copy_json(value: Any, text: Callable[[str], str] | None = None) -> Any:
    """A copy of a JSON value (dicts, lists and scalars; nothing shared with ``value``), with
    ``text`` applied to every string, keys included, when given (called once per distinct
    string; a key that becomes equal to an earlier one replaces its value, as in a dict
    display). Any depth."""
    if not isinstance(value, (dict, list)):
        return text(value) if text is not None and isinstance(value, str) else value
    texts = None if text is None else _Texts(text)
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    push, pop = stack.append, stack.pop
    while stack:
        src, dst = pop()
        keyed = isinstance(dst, dict)
        for k, v in (src.items() if keyed else enumerate(src)):
            # (the type tested first: a dump holds millions of values, most of them str and int)
            t = type(v)
            if t is dict or t is list or (t is not str and isinstance(v, (dict, list))):
                c: Any = {} if isinstance(v, dict) else []
                push((v, c))
            elif texts is not None and (t is str or isinstance(v, str)):
                c = texts[v]
            else:
                c = v
            if keyed:
                dst[texts[k] if texts is not None and isinstance(k, str) else k] = c
            else:
                dst.append(c)
    return root


def _canon_iter(value: Any) -> str:
    """:func:`canon` for values nested too deeply for :func:`json.dumps`: the same text."""
    out: list[str] = []
    stack: list[Any] = [("v", value)]
    while stack:
        what, v = stack.pop()
        if what == "s":
            out.append(v)
        elif isinstance(v, dict):
            if not v:
                out.append("{}")
                continue
            todo: list[Any] = [("s", "{")]
            for n, k in enumerate(sorted(v)):
                todo += [("s", (", " if n else "") + json.dumps(k, ensure_ascii=True) + ": "), ("v", v[k])]
            stack.extend(reversed(todo + [("s", "}")]))
        elif isinstance(v, list):
            if not v:
                out.append("[]")
                continue
            todo = [("s", "[")]
            for n, x in enumerate(v):
                todo += [("s", ", ")] if n else []
                todo.append(("v", x))
            stack.extend(reversed(todo + [("s", "]")]))
        else:
            out.append(json.dumps(v, ensure_ascii=True))
    return "".join(out)


def canon(value: Any) -> str:
    """Canonical JSON text of ``value`` (sorted keys): equal texts ⇔ equal JSON values
    (``1``, ``1.0`` and ``true`` differ, unlike in Python). Any depth."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=True)
    except RecursionError:
        return _canon_iter(value)


def same(a: Any, b: Any) -> bool:
    """``a`` and ``b`` are the same JSON value (see :func:`canon`). Any depth."""
    try:
        if a != b:
            return False
    except RecursionError:
        pass
    return canon(a) == canon(b)


def _scalar_key(v: Any) -> tuple:
    """A key equal for two JSON scalars exactly when their JSON texts are (see :func:`canon`):
    a string is itself, a number its type and value (``1``, ``1.0`` and ``true`` differ), a float
    its ``repr`` (``-0.0`` is not ``0.0``). A dict lookup of it costs far less than encoding
    the value (most scalars of a dump are strings)."""
    t = type(v)
    if t is str:
        return ("s", v)
    if t is int or t is bool or v is None:
        return (t.__name__, v)
    if t is float:
        return ("f", repr(v))
    # (a subclass, as the encoder writes it: a str subclass as a string, an int or float one as a number)
    if isinstance(v, str):
        return ("s", str(v))
    if isinstance(v, int):
        return ("int", int(v))
    if isinstance(v, float):
        return ("f", float.__repr__(v))
    return ("v", json.dumps(v, ensure_ascii=True))


class Idents:
    """Equal-value numbers for JSON values (hash-consing): ``ident(a) == ident(b)`` ⇔
    ``same(a, b)``. Every container met is numbered once, bottom-up, from its children's
    numbers, and remembered by identity, so comparing all the nested members of a value
    level by level costs time linear in its size (:func:`same` per level reads the whole
    member each time: quadratic in the depth). Any depth. The values numbered must not
    change while the instance is used (it keeps a reference to each, so identities stay
    valid)."""

    __slots__ = ("_by_id", "_table")

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[Any, int]] = {}
        self._table: dict[tuple, int] = {}

    def _number(self, key: tuple) -> int:
        n = self._table.get(key)
        if n is None:
            n = self._table[key] = len(self._table)
        return n

    def _known(self, v: Any) -> int:
        if isinstance(v, (dict, list)):
            return self._by_id[id(v)][1]
        return self._number(_scalar_key(v))

    def ident(self, value: Any) -> int:
        if not isinstance(value, (dict, list)):
            return self._known(value)
        hit = self._by_id.get(id(value))
        if hit is not None:
            return hit[1]
        stack: list[tuple[Any, bool]] = [(value, False)]
        while stack:
            v, ready = stack.pop()
            if id(v) in self._by_id:
                continue
            members = v.values() if isinstance(v, dict) else v
            if not ready:
                stack.append((v, True))
                stack.extend((c, False) for c in members
                             if isinstance(c, (dict, list)) and id(c) not in self._by_id)
                continue
            if isinstance(v, dict):
                key: tuple = ("o",) + tuple(sorted((_scalar_key(k), self._known(c)) for k, c in v.items()))
            else:
                key = ("a",) + tuple(self._known(c) for c in v)
            self._by_id[id(v)] = (v, self._number(key))
        return self._by_id[id(value)][1]

    def same(self, a: Any, b: Any) -> bool:
        return a is b or self.ident(a) == self.ident(b)


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


def _unlink(link: Any) -> list[Any]:
    """The parts of a linked path ``(parent, part)`` (``None`` is the root), first part first."""
    parts: list[Any] = []
    while link is not None:
        link, part = link
        parts.append(part)
    parts.reverse()
    return parts


def json_path_diff(a: Any, b: Any, parts: tuple = ()) -> list[dict[str, Any]]:
    """Differences between two JSON values as ``{"op", "path", "pointer", "before", "after"}``
    entries: ``op`` is ``add``, ``remove`` or ``replace``; ``path`` a JSONPath (``$.a[0]``),
    ``pointer`` the RFC 6901 pointer relative to the values. Objects are compared key by key,
    arrays item by item (extra items added or removed at the end). Any depth, in time linear
    in the size of the values (members compared by :class:`Idents`; paths are linked and
    written out only for the entries)."""
    out: list[dict[str, Any]] = []
    ids = Idents()
    root: Any = None
    for p in parts:
        root = (root, p)

    def entry(op: str, link: Any, before: Any, after: Any) -> tuple:
        return ("entry", op, link, before, after)

    # Work items, last first: ("cmp", a, b, link) compares two values; ("entry", ...) emits one.
    stack: list[tuple] = [("cmp", a, b, root)]
    while stack:
        item = stack.pop()
        if item[0] == "entry":
            _, op, link, before, after = item
            where = _unlink(link)
            out.append({"op": op, "path": json_path(where), "pointer": "".join("/" + pointer_token(p) for p in where),
                        "before": before, "after": after})
            continue
        _, x, y, link = item
        if ids.same(x, y):
            continue
        todo: list[tuple] = []
        if isinstance(x, dict) and isinstance(y, dict):
            for k in x:
                if k not in y:
                    todo.append(entry("remove", (link, k), x[k], None))
                else:
                    todo.append(("cmp", x[k], y[k], (link, k)))
            todo.extend(entry("add", (link, k), None, y[k]) for k in y if k not in x)
        elif isinstance(x, list) and isinstance(y, list):
            for i in range(max(len(x), len(y))):
                if i >= len(y):
                    todo.append(entry("remove", (link, i), x[i], None))
                elif i >= len(x):
                    todo.append(entry("add", (link, i), None, y[i]))
                else:
                    todo.append(("cmp", x[i], y[i], (link, i)))
        else:
            todo.append(entry("replace", link, x, y))
        stack.extend(reversed(todo))
    return out

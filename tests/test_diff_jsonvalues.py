"""diff.jsonvalues.copy_json: the copy the diff normalises each side's dump --turns document in."""

from __future__ import annotations

from fountain_audit.diff.jsonvalues import copy_json


class Name(str):
    """A str subclass (a dump's interned names are plain str; a caller's may not be)."""


def test_copy_applies_text_to_every_string_once_and_shares_nothing():
    calls = []

    def text(s: str) -> str:
        calls.append(s)
        return s.replace("/home/ws", "<WORKSPACE>")

    inner = {"path": "/home/ws/a.go", "n": 3, "ok": True, "none": None}
    value = {"records": [inner, inner, ["/home/ws/b", 1.5, Name("/home/ws/c")]], "/home/ws": "key"}
    out = copy_json(value, text)
    assert out == {"records": [{"path": "<WORKSPACE>/a.go", "n": 3, "ok": True, "none": None},
                               {"path": "<WORKSPACE>/a.go", "n": 3, "ok": True, "none": None},
                               ["<WORKSPACE>/b", 1.5, "<WORKSPACE>/c"]], "<WORKSPACE>": "key"}
    assert out["records"][0] is not out["records"][1]  # (a value met twice is copied twice)
    assert value["records"][0] is inner and inner["path"] == "/home/ws/a.go"  # (the input is left as it was)
    assert sorted(calls) == sorted({"records", "path", "/home/ws/a.go", "n", "ok", "none", "/home/ws/b",
                                    "/home/ws/c", "/home/ws", "key"})  # (each distinct string read once)


def test_a_key_that_becomes_equal_to_an_earlier_one_replaces_its_value():
    assert copy_json({"a": 1, "b": 2}, lambda s: "k" if s in ("a", "b") else s) == {"k": 2}


def test_copy_without_text_and_of_scalars():
    assert copy_json("/home/ws") == "/home/ws"
    assert copy_json("/home/ws", str.upper) == "/HOME/WS"
    assert copy_json(7, str.upper) == 7
    value = [{"a": ["x", {"b": None}]}, []]
    out = copy_json(value)
    assert out == value and out[0] is not value[0] and out[0]["a"] is not value[0]["a"]


def test_copy_of_a_value_nested_deeper_than_the_recursion_limit():
    value: list = []
    node = value
    for _ in range(5000):
        node.append({"k": []})
        node = node[0]["k"]
    node.append("leaf")
    out = copy_json(value, str.upper)
    for _ in range(5000):
        out = out[0]["K"]
    assert out == ["LEAF"]


def test_idents_number_values_equal_exactly_when_their_canonical_json_texts_are():
    """``Idents`` (the diff's patch compares members by their numbers) against :func:`canon`
    on random values: numbers of each type (``1``, ``1.0``, ``true`` and ``-0.0`` differ), strings
    (lone surrogates too), key orders, nesting."""
    import random

    from fountain_audit.diff.jsonvalues import Idents, canon, same

    rnd = random.Random(5)
    scalars = [0, 1, 1.0, 0.0, -0.0, True, False, None, "", "1", "a", "\ud800", "true", 2 ** 70, 1e300, Name("a")]

    def value(depth: int):
        r = rnd.random()
        if depth > 2 or r < 0.5:
            return rnd.choice(scalars)
        if r < 0.75:
            return [value(depth + 1) for _ in range(rnd.randint(0, 3))]
        keys = rnd.sample(["a", "b", "1", "\ud800"], rnd.randint(0, 3))
        return {k: value(depth + 1) for k in keys}

    pairs = equal = 0
    for _ in range(3000):
        a, b = value(0), value(0)
        if rnd.random() < 0.3:  # the same value with its keys in another order
            b = json_reordered(a)
        ids = Idents()
        want = canon(a) == canon(b)
        assert ids.same(a, b) == want == same(a, b), (a, b)
        pairs += 1
        equal += want
    assert pairs == 3000 and 900 < equal < 2000
    assert not Idents().same(1, 1.0) and not Idents().same(True, 1) and not Idents().same(-0.0, 0.0)
    assert Idents().same({"a": [1.0, "x"], "b": None}, {"b": None, "a": [1.0, "x"]})


def json_reordered(v):
    if isinstance(v, dict):
        return {k: json_reordered(v[k]) for k in reversed(list(v))}
    if isinstance(v, list):
        return [json_reordered(x) for x in v]
    return v

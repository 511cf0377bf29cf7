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

"""reporters.json_text.dumps is byte-identical to json.dumps(indent=2, ensure_ascii=False)."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from fountain_audit.reporters.json_text import Encoded, dumps

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                    st.text(alphabet=st.characters(blacklist_categories=("Cs",))))
keys = st.one_of(st.text(), st.integers(), st.booleans(), st.none())
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(keys, inner, max_size=5)),
                      max_leaves=40)


@settings(max_examples=500)
@given(values, st.integers(min_value=0, max_value=4))
def test_same_bytes_as_the_standard_library(obj, indent):
    assert dumps(obj, indent) == json.dumps(obj, indent=indent, ensure_ascii=False)


def test_a_lint_report_shape():
    doc = {"tool": "fountain-audit", "files": ["a.spmd", "ü.spmd"], "unreadable": [],
           "summary": {"files": 2, "error": 1}, "diagnostics": [
               {"path": "a.spmd", "line": 3, "column": 1, "code": "N101", "message": 'a "quoted"\nline',
                "url": None}, {}]}
    assert dumps(doc) == json.dumps(doc, indent=2, ensure_ascii=False)
    assert dumps(doc).splitlines()[13] == '      "path": "a.spmd",'


def test_errors_are_the_standard_librarys():
    with pytest.raises(TypeError):
        dumps({"a": [object()]})
    with pytest.raises(TypeError):
        dumps({(1, 2): 1})


@settings(max_examples=200)
@given(st.lists(values, max_size=4), st.integers(min_value=0, max_value=4))
def test_encoded_items_are_put_in_as_they_are(items, indent):
    """An array of items encoded beforehand at their depth gives the bytes of the whole dump."""
    doc = {"head": [1, {"a": None}], "items": Encoded([dumps(v, indent, level=2) for v in items]), "tail": 0}
    assert dumps(doc, indent) == json.dumps({**doc, "items": items}, indent=indent, ensure_ascii=False)


def test_finish_is_applied_to_all_but_the_encoded_items():
    doc = {"files": ["a"], "diagnostics": Encoded(['"x"', '"y"']), "empty": Encoded([])}
    assert dumps(doc, finish=str.upper) == '{\n  "FILES": [\n    "A"\n  ],\n  "DIAGNOSTICS": [\n    "x",\n    "y"\n  ],' \
                                          '\n  "EMPTY": []\n}'

"""Finding and Diagnostic have hand-written __init__s (faster than the dataclass-generated ones,
see fountain_audit.lint.diagnostics): same signatures, values, equality, hashing, immutability
and dataclasses.replace as plain frozen dataclasses with the same fields."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from fountain_audit.lint.diagnostics import Diagnostic, Finding, Severity


def _plain(cls):
    """A frozen slots dataclass with ``cls``'s fields and the generated __init__."""
    return dataclasses.make_dataclass(f"Plain{cls.__name__}", [(f.name, f.type, f) for f in dataclasses.fields(cls)],
                                      frozen=True, slots=True)


@pytest.mark.parametrize("cls, args, kwargs", [
    (Finding, (3, 4, "message"), {}),
    (Finding, (3, 4, "message", 5, 6), {}),
    (Finding, (3,), {"column": 4, "message": "m", "end_column": 9}),
    (Diagnostic, ("a.spmd", 1, 2, "R101", "reply-reads-as-structure", Severity.WARNING, "m"), {}),
    (Diagnostic, ("a.spmd", 1, 2, "R101", "n", Severity.ERROR, "m", 1, 7, "f" * 32, "ex"), {}),
    (Diagnostic, ("a.spmd",), {"line": 1, "column": 2, "code": "X", "name": "n", "severity": Severity.INFO,
                               "message": "m", "excerpt": "e"}),
])
def test_init_equals_the_generated_one(cls, args, kwargs):
    plain = _plain(cls)
    got, want = cls(*args, **kwargs), plain(*args, **kwargs)
    assert dataclasses.astuple(got) == dataclasses.astuple(want)
    assert got == cls(*args, **kwargs) and hash(got) == hash(cls(*args, **kwargs))
    assert [(p.name, p.default, p.kind) for p in inspect.signature(cls).parameters.values()] == \
        [(p.name, p.default, p.kind) for p in inspect.signature(plain).parameters.values()]
    assert pickle.loads(pickle.dumps(got)) == got
    first = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(got, first, 0)
    changed = dataclasses.replace(got, **{first: 99})
    assert getattr(changed, first) == 99 and dataclasses.astuple(changed)[1:] == dataclasses.astuple(got)[1:]


@pytest.mark.parametrize("cls, args", [(Finding, (1, 2)), (Finding, (1, 2, "m", 3, 4, 5)),
                                       (Diagnostic, ("p", 1, 2, "X", "n", Severity.INFO))])
def test_init_refuses_what_the_generated_one_refuses(cls, args):
    with pytest.raises(TypeError):
        cls(*args)

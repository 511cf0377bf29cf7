"""Dataclasses that cost less to create (issue 9, start-up).

:func:`dataclasses.dataclass` writes each method it adds (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, and a frozen class's ``__setattr__``/``__delattr__``) as Python source
and compiles it: a millisecond or more a class, and the lint path creates about twenty of them.
:func:`record` makes the same class with only the methods that need their own code compiled
(``__init__``; a frozen record writes its own) and gives it ``__repr__``, ``__eq__``, ``__hash__``
(and a frozen one's ``__setattr__``/``__delattr__``) shared by every record, which read the fields
by :func:`operator.attrgetter`. They behave as the generated ones: the same ``repr`` text
(``...`` for a record that holds itself), equality between instances of exactly the same class
over the same fields, a frozen record hashed by its fields, a mutable one compared by fields
unhashable. The class stays a dataclass for :func:`dataclasses.fields`, :func:`dataclasses.replace`
and :func:`dataclasses.asdict`. (No ``order``, ``unsafe_hash`` nor per-field ``compare``:
no record uses them.)
"""

from __future__ import annotations

import reprlib
from dataclasses import FrozenInstanceError, dataclass, fields
from operator import attrgetter


def record(cls=None, /, *, eq: bool = True, frozen: bool = False, slots: bool = False):
    """``@dataclass(eq=eq, frozen=frozen, slots=slots)``, with ``__repr__``, ``__eq__`` and
    ``__hash__`` shared (see the module docstring); use as ``@record`` or ``@record(...)``.
    A record that writes its own ``__init__`` (the dataclass one: the same parameters and
    defaults, :data:`dataclasses.MISSING` standing for a ``default_factory``'s value; a frozen
    one sets each field by ``object.__setattr__``) has nothing of it compiled. A frozen record
    must: its ``__setattr__``/``__delattr__`` (and, with slots, ``__getstate__``/``__setstate__``)
    are shared too."""
    def wrap(cls):
        own = set(cls.__dict__)  # (methods the class defines itself are kept, as dataclass keeps them)
        if frozen and "__init__" not in own:
            raise TypeError(f"frozen record {cls.__qualname__} must define its __init__")
        cls = dataclass(cls, init="__init__" not in own, repr=False, eq=False, slots=slots)
        every = fields(cls)
        if "__repr__" not in own:
            cls.__repr__ = _repr_of(tuple(f.name for f in every if f.repr))
        if eq and "__eq__" not in own:
            key = _key_of(tuple(f.name for f in every))
            cls.__eq__ = _eq_of(key)
            cls.__hash__ = _hash_of(key) if frozen else None
        if frozen:
            _freeze(cls, frozenset(f.name for f in every), slots and "__getstate__" not in own)
        return cls
    return wrap if cls is None else wrap(cls)


def slot_setters(cls) -> tuple:
    """The ``__set__`` of each field's slot of a record made with ``slots=True``, in field order:
    a frozen record's ``__init__`` sets its fields through them (about 40% less work than
    ``object.__setattr__``, which looks the name up in the class first: issue 9, records made
    once per finding)."""
    return tuple(cls.__dict__[f.name].__set__ for f in fields(cls))


def _freeze(cls, names: frozenset[str], state: bool) -> None:
    """A frozen dataclass's ``__setattr__`` and ``__delattr__`` on ``cls`` (and, ``state``, the
    ``__getstate__``/``__setstate__`` of a frozen dataclass with slots, for pickling)."""
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    cls.__setattr__ = __setattr__
    cls.__delattr__ = __delattr__
    if state:
        cls.__getstate__ = _getstate
        cls.__setstate__ = _setstate


def _getstate(self) -> list:
    return [getattr(self, f.name) for f in fields(self)]


def _setstate(self, state: list) -> None:
    for f, value in zip(fields(self), state):
        object.__setattr__(self, f.name, value)  # (as unpickling a frozen dataclass with slots does)


def _key_of(names: tuple[str, ...]):
    """The tuple of a record's values of ``names`` (in C for two or more)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda self: (get(self),)
    return lambda self: ()


def _repr_of(names: tuple[str, ...]):
    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"
    return __repr__


def _eq_of(key):
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented
    return __eq__


def _hash_of(key):
    def __hash__(self) -> int:
        return hash(key(self))
    return __hash__

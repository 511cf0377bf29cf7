"""Indented JSON text, the same bytes as ``json.dumps(obj, indent=n, ensure_ascii=False)``, fast.

The standard library encodes with C only when ``indent`` is ``None``; with an indent every
value goes through the pure-Python encoder (about 0.3 s for the 15,000 diagnostics of a
300-file lint). Here each *leaf* container — a dict or list whose values are all scalars,
such as one diagnostic — is encoded by the C encoder with the separators an indented
dump would put between its items, and only the containers above the leaves are walked in
Python. Lint reports are made of leaves (diagnostics, SARIF results' small objects), so
nearly all of the text comes from C.

``flat_from``: containers that deep (and deeper) are written on one line, with no indentation
(``json.dumps(obj, ensure_ascii=False)``): per-level indentation makes the text of a value
nested N deep grow as N squared (a tool call's JSON arguments nested 950 arrays deep gave 367
MB; adversarial trial), and a bounded depth keeps it linear in the value.

An array may also come as :class:`Encoded`, its items' text made beforehand by
``dumps(item, level=...)`` (in a parallel ``lint``, by the worker that linted the file):
those items are copied, not encoded again, by the process that writes the report.
"""

from __future__ import annotations

import json
import json.encoder
from functools import lru_cache

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing
if TYPE_CHECKING:
    from typing import Callable, Sequence

_SCALARS = (str, int, float, bool, type(None))
#: ``json.dumps(text, ensure_ascii=False)`` of a string (the C function when there is one).
_encode_string = json.encoder.encode_basestring


class Encoded:
    """A JSON array whose ``items`` are JSON text already, each made by
    ``dumps(item, indent, level + 1)`` for the depth ``level`` at which the array is placed
    (and as the caller's ``finish`` would leave it): :func:`dumps` puts them in as they are."""

    __slots__ = ("items",)

    def __init__(self, items: Sequence[str]) -> None:
        self.items = items


def dumps(obj: object, indent: int = 2, level: int = 0, finish: Callable[[str], str] | None = None,
          flat_from: int | None = None) -> str:
    """``obj`` as JSON text with ``indent`` spaces per level and non-ASCII characters
    kept (``ensure_ascii=False``); byte-identical to
    ``json.dumps(obj, indent=indent, ensure_ascii=False)``. Raises what ``json.dumps``
    raises (``TypeError`` for a value that is not JSON, ``ValueError`` for a circular one).

    ``level``: the text ``obj`` has at that depth inside a larger indented document (from its
    opening bracket; nested lines indented ``level`` more steps). ``finish``: applied to the
    text encoded here, not to the items of an :class:`Encoded` array (e.g. a guard that their
    maker already applied: one pass, not a second one, over the largest part of a report).
    ``flat_from``: the depth (counted as ``level``) from which containers are written on one
    line (see the module docstring); ``None``: none."""
    parts: list[str] = []
    _encode(obj, level, " " * indent, parts, flat_from if flat_from is not None else -1)
    if finish is None:
        try:
            return "".join(parts)
        except TypeError:  # an Encoded array's items (_Copied) among them
            return "".join(part if isinstance(part, str) else part.text for part in parts)
    out, run = [], []
    for part in parts:
        if isinstance(part, str):
            run.append(part)
        else:
            out.append(finish("".join(run)))
            out.append(part.text)
            run = []
    out.append(finish("".join(run)))
    return "".join(out)


class _Copied:
    """Text :func:`_encode` leaves for :func:`dumps` to copy as it is (not given to ``finish``)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _scalar(obj: object) -> str:
    """``json.dumps(obj, ensure_ascii=False)`` of a scalar, without making an encoder for each
    one (a 59 MB export has a million of them): strings by the C function ``json.dumps`` uses,
    exact ints and the three constants as it writes them, anything else through it."""
    cls = obj.__class__
    if cls is str:
        return _encode_string(obj)
    if cls is int:
        return int.__repr__(obj)
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    return json.dumps(obj, ensure_ascii=False)


def _encode(obj: object, level: int, step: str, out: list, flat_from: int = -1) -> None:
    if level == flat_from and isinstance(obj, (dict, list, tuple)):
        out.append(json.dumps(obj, ensure_ascii=False))
        return
    if isinstance(obj, dict):
        values = obj.values()
    elif isinstance(obj, (list, tuple)):
        values = obj
    elif isinstance(obj, Encoded):
        if not obj.items:
            out.append("[]")
            return
        inner = "\n" + step * (level + 1)
        out.append("[" + inner)
        out.append(_Copied(("," + inner).join(obj.items)))
        out.append("\n" + step * level + "]")
        return
    else:
        out.append(_scalar(obj))
        return
    if not obj:
        out.append("{}" if isinstance(obj, dict) else "[]")
        return
    inner = "\n" + step * (level + 1)
    if all(isinstance(v, _SCALARS) for v in values):
        # One C call: "{k: v,<newline+indent>k: v}" -> open, newline+indent, items, newline, close.
        text = _leaf_encoder(inner)(obj)
        out.append(text[0] + inner + text[1:-1] + "\n" + step * level + text[-1])
        return
    if isinstance(obj, dict):
        out.append("{")
        first = True
        for key, value in obj.items():
            out.append(inner if first else "," + inner)
            first = False
            out.append(_encode_string(key if key.__class__ is str else _key(key)) + ": ")
            _encode(value, level + 1, step, out, flat_from)
        out.append("\n" + step * level + "}")
    else:
        out.append("[")
        for i, value in enumerate(obj):
            out.append(inner if i == 0 else "," + inner)
            _encode(value, level + 1, step, out, flat_from)
        out.append("\n" + step * level + "]")


@lru_cache(maxsize=64)
def _leaf_encoder(inner: str):
    """The C encoder's ``encode`` with ``"," + inner`` between items (one per depth). The C
    encoder itself is made once here, not on each call as ``JSONEncoder.encode`` makes it (a
    leaf holds scalars only: no circular reference to check, no ``default`` to call)."""
    encoder = json.JSONEncoder(ensure_ascii=False, separators=("," + inner, ": "))
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder.encode
    try:
        c_encode = make(None, encoder.default, _encode_string, None, ": ", "," + inner, False, False, True)
    except TypeError:  # another signature than CPython 3.8-3.13's
        return encoder.encode

    def encode(obj: object) -> str:
        return "".join(c_encode(obj, 0))
    return encode


def _key(key: object) -> str:
    """A dict key as ``json.dumps`` writes it (str, or int/float/bool/None converted)."""
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, (int, float)):
        return json.dumps(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")

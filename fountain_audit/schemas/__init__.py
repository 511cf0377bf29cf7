"""JSON Schemas (draft 2020-12) for fountain-audit's JSON outputs, shipped as package data.

``load(name)`` returns the parsed schema ``name`` (e.g. ``"lint"``, ``"dump"``) from
``<name>.schema.json`` beside this file. Raises ``FileNotFoundError`` for an unknown name.
"""

from __future__ import annotations

import json
from importlib import resources


def load(name: str) -> dict:
    """The schema called ``name`` as a dict."""
    path = resources.files(__name__).joinpath(f"{name}.schema.json")
    if not path.is_file():
        raise FileNotFoundError(f"no schema {name!r}")
    return json.loads(path.read_text(encoding="utf-8"))

"""Outputs must not change by accident: every (input, command) digest in
``tests/golden/digests.json`` is recomputed and compared. See ``tests/golden/record.py``."""

from __future__ import annotations

import json

import pytest

from .golden import record

RECORDED = json.loads(record.DIGESTS.read_text())
CURRENT = record.inputs()


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_outputs_unchanged(key):
    if key not in CURRENT:
        pytest.skip(f"{key}: input not present here (../shared absent?)")
    changed = [cmd for cmd, d in RECORDED[key].items() if record.digest(key, cmd) != d]
    assert not changed, (f"{key}: output of {changed} changed; if deliberate, run "
                         f"`python -m tests.golden.record` and say why in the commit message")


def test_every_input_is_recorded():
    assert sorted(set(CURRENT) - set(RECORDED)) == []

"""``fountain-audit diff`` outputs must not change by accident: every (pair, format) digest in
``tests/golden/diff_digests.json`` is recomputed and compared. See ``tests/golden/diff_record.py``."""

from __future__ import annotations

import json

import pytest

from .golden import diff_record

RECORDED = json.loads(diff_record.DIGESTS.read_text())
CURRENT = diff_record.pairs()


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_diff_outputs_unchanged(key):
    if key not in CURRENT:
        pytest.skip(f"{key}: input not present here (../shared absent?)")
    changed = [fmt for fmt, d in RECORDED[key].items() if diff_record.digest(key, fmt) != d]
    assert not changed, (f"{key}: diff output {changed} changed; if deliberate, run "
                         f"`python -m tests.golden.diff_record` and say why in the commit message")


def test_every_pair_is_recorded():
    assert sorted(set(CURRENT) - set(RECORDED)) == []

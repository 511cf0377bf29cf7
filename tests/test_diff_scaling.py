"""Bounded diff work (issue 14 item 20): the shapes that were quadratic scale linearly
(10× input → at most 30× time here, a generous bar for a loaded, shared machine — quadratic
work gives about 100×; the benchmark
``benchmarks/diff_scaling.py`` checks 11×), long diffs stay exact where they can, and a
coarsened diff says so in every format."""

from __future__ import annotations

import functools
import importlib.util
import io
import json
import time
from difflib import SequenceMatcher

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fountain_audit.diff import diff_texts, render_rich, render_unified
from fountain_audit.diff.context import _lines_note, _trim, _trim_changed, in_context
from fountain_audit.diff.rendering import COARSENED_NOTE
from fountain_audit.diff.sequences import opcodes, ratio
from fountain_audit.diff.words import diff_words

from .conftest import ROOT, cpu_best_of_3

_spec = importlib.util.spec_from_file_location("fa_diff_scaling", ROOT / "benchmarks" / "diff_scaling.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def _best(a: str, b: str, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        bench.run(a, b)
        times.append(time.perf_counter() - t)
    return min(times)


#: Base size per shape (bytes): large enough that the 1× run is not mostly timer noise.
BASE = {"long-reply": 12_000, "repeated-words": 12_000, "reworded-reply": 12_000, "tool-note": 4_000,
        "many-turns": 2_000, "reworded-prompts": 9_000, "changed-lines": 12_000, "boneyards": 6_000}


@pytest.mark.parametrize("shape", sorted(bench.SHAPES))
def test_diff_time_is_linear(shape):
    make = bench.SHAPES[shape]
    small, large = make(BASE[shape]), make(10 * BASE[shape])
    bench.run(*small)  # warm up (grammar tables, imports)
    t1, t10 = _best(*small, runs=5), _best(*large)
    assert t10 / t1 <= 30, f"{shape}: 10× input took {t10 / t1:.1f}× the time ({t1:.3f}s → {t10:.3f}s)"


def test_one_changed_word_in_a_long_reply_is_exact():
    a, b = bench.long_reply(80_000)  # 10k words
    [change] = diff_texts(a, b).changes
    assert change.kind == "reply-changed" and change.coarsened is False
    ra, rb = change.before, change.after
    w = bench.words(10_000)
    k = len(" ".join(w[:5000])) + 1  # where the 5001st word starts
    assert w[5000] == "echo53" and ra == " ".join(w)
    assert [(op, len(t)) for op, t in change.words] == [("=", k), ("-", 6), ("+", 7), ("=", len(ra) - k - 6)]
    assert change.words[1:3] == [("-", "echo53"), ("+", "CHANGED")]
    assert rb == ra[:k] + "CHANGED" + ra[k + 6:]


def test_coarsened_diff_says_so():
    a, b = bench.reworded_reply(120_000)  # every 5th word of 15k changed: too many changes to align
    result = diff_texts(a, b, "a.spmd", "b.spmd")
    [change] = result.changes
    assert change.coarsened is True
    assert "".join(t for op, t in change.words if op != "+") == change.before
    assert "".join(t for op, t in change.words if op != "-") == change.after
    doc = result.to_json()
    assert doc["format_version"] == "1.3" and doc["changes"][0]["coarsened"] is True
    lines = render_unified(result).splitlines()
    assert lines.count(COARSENED_NOTE) == 1
    assert COARSENED_NOTE == "    (diff coarsened: a long stretch with many changes is shown removed and added whole)"
    small = diff_texts(*bench.reworded_reply(4_000))
    assert [c.coarsened for c in small.changes] == [False]
    assert json.loads(json.dumps(small.to_json()))["changes"][0]["coarsened"] is False


def test_one_changed_boneyard_among_many_is_exact():
    a, b = bench.boneyards(120_000)  # 1000 turns, each with a boneyard outside it (line 2k + 1)
    [change] = diff_texts(a, b).changes
    assert (change.kind, change.coarsened) == ("scene-content-changed", False)
    assert change.details[0]["diff"] == ["@@ -1000,3 +1000,3 @@", " ", "-/* reviewer note 500: fine */",
                                         "+/* reviewer note 500: wrong */", " "]


def test_repeated_words_one_change_is_exact():
    a = " ".join(["word"] * 20_000)
    b = a[:50_000] + "ward" + a[50_004:]
    words, coarse = diff_words(a, b)
    assert coarse is False
    assert [op for op, _ in words] == ["=", "-", "+", "="] and words[1:3] == [("-", "word"), ("+", "ward")]


def _check(a, b, ops):
    i = j = 0
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (i, j)
        assert tag in ("equal", "replace", "delete", "insert")
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2] and i2 > i1
        assert (tag == "delete") == (j1 == j2 and i2 > i1)
        assert (tag == "insert") == (i1 == i2 and j2 > j1)
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    assert all(not (x[0] == y[0] == "equal") and not (x[0] != "equal" and y[0] != "equal")
               for x, y in zip(ops, ops[1:]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("abcde "), max_size=60), st.lists(st.sampled_from("abcdef "), max_size=60),
       st.integers(0, 400))
def test_bounded_opcodes_are_a_valid_edit_script(a, b, limit):
    ops, coarse = opcodes(a, b, limit)
    _check(a, b, ops)
    if len(a) * len(b) <= limit:
        assert ops == SequenceMatcher(None, a, b, autojunk=False).get_opcodes() and coarse is False
    matched = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag == "equal")
    assert ratio(a, b, limit) == (1.0 if not a and not b else pytest.approx(2 * matched / (len(a) + len(b))))


def test_anchors_keep_long_diffs_exact():
    a = [f"w{i}" for i in range(3000)]
    b = a[:1000] + ["x"] + a[1001:2000] + ["y", "z"] + a[2000:]
    ops, coarse = opcodes(a, b)
    _check(a, b, ops)
    assert coarse is False
    assert [op for op in ops if op[0] != "equal"] == [("replace", 1000, 1001, 1000, 1001),
                                                    ("insert", 2000, 2000, 2000, 2002)]


def _deep_arguments(depth: int, notes: int = 20) -> tuple[str, str]:
    """``notes`` tool notes whose arguments nest arrays ``depth`` deep; B changes the innermost
    value of each (the adversarial test's shape, issue: diff JSON on ~950-deep arguments)."""
    def side(leaf: str) -> str:
        arg = "[" * depth + leaf + "]" * depth
        return bench.HEAD + bench.TURN.format(prompt="go", reply="done", tool="".join(
            f"[[tool: w({arg}) — ok]]\n\n" for _ in range(notes))) + bench.TAIL
    return side("1"), side("2")


def test_deep_arguments_work_is_linear(monkeypatch):
    """Nested values were compared level by level, each level serialising the whole member
    below it (quadratic in the depth: 10× deeper was ~100× the text serialised). Counted
    work: the characters the diff's JSON value helpers serialise, and the time."""
    import fountain_audit.diff.jsonvalues as jv

    serialised = [0]
    real = jv.json

    class Counting:
        def __getattr__(self, name):
            return getattr(real, name)

        @staticmethod
        def dumps(*args, **kw):
            out = real.dumps(*args, **kw)
            serialised[0] += len(out)
            return out

    def work(depth: int) -> int:
        serialised[0] = 0
        a, b = _deep_arguments(depth)
        result = diff_texts(a, b, "a.spmd", "b.spmd")
        doc = result.to_json()
        # every note's innermost value is replaced, at its full depth, in the patch and the change
        arg = "[" * depth + "2" + "]" * depth
        assert doc["patch"] == [op for n in range(20) for op in (
            {"op": "replace", "path": f"/records/0/tool_calls/{n}/arguments" + "/0" * depth, "value": 2},
            {"op": "replace", "path": f"/records/0/tool_calls/{n}/arguments_text", "value": arg},
            {"op": "replace", "path": f"/records/0/tool_calls/{n}/body", "value": f"tool: w({arg}) — ok"})] + [
            op for n in range(20) for op in (
                {"op": "replace", "path": f"/records/0/provenance/tools/{n}/arguments" + "/0" * depth, "value": 2},
                # (a summary, cut at 80 characters: changed only while the 2 is in it)
                *([{"op": "replace", "path": f"/records/0/provenance/tools/{n}/arguments_summary",
                    "value": arg if len(arg) <= 80 else arg[:79] + "…"}] if depth < 79 else []))]
        assert [c.kind for c in result.changes] == ["tool-changed"] * 20
        assert all(c.details == [{"field": "arguments", "diff": [
            {"op": "replace", "path": "$" + "[0]" * depth, "pointer": "/0" * depth, "before": 1, "after": 2}]}]
                   for c in result.changes)
        return serialised[0]

    monkeypatch.setattr(jv, "json", Counting())
    w1, w10 = work(60), work(600)
    assert w10 / w1 <= 11, f"10× deeper serialised {w10 / w1:.1f}× the text ({w1} → {w10} characters)"
    monkeypatch.undo()
    small, large = _deep_arguments(60), _deep_arguments(600)
    bench.run(*small)
    t1, t10 = _best(*small, runs=5), _best(*large)
    assert t10 / t1 <= 30, f"10× deeper took {t10 / t1:.1f}× the time ({t1:.3f}s → {t10:.3f}s)"


def _changed_lines(where: str, n: int) -> tuple[str, str]:
    """A text of ``n`` short lines, every 3rd one changed in B, as the reply, the user input or
    a tool note's arguments (not JSON: word-diffed) of one turn."""
    def side(changed: bool) -> str:
        text = bench.lines(n, changed)
        if where == "reply":
            return bench.session([("Write it.", text, None)])
        if where == "user":
            return bench.session([(text, "Done.", None)])
        return bench.HEAD + bench.TURN.format(prompt="Run.", reply="Done.",
                                              tool=f"[[tool: run_shell({text}) — ok]]\n\n") + bench.TAIL
    return side(False), side(True)


@functools.lru_cache(maxsize=None)
def _changed_lines_diffs(where: str):
    """The diffs of :func:`_changed_lines` at 2,000 and 20,000 lines (made once, for every format)."""
    return tuple(diff_texts(*_changed_lines(where, n), "a.spmd", "b.spmd") for n in (2_000, 20_000))


def _rich(result, stat: bool = False, color: bool = True) -> str:
    from rich.console import Console

    out = io.StringIO()
    render_rich(result, Console(file=out, force_terminal=True, no_color=None if color else True,
                                color_system="standard" if color else None, width=100), stat)
    return out.getvalue()


#: The text formats (the CLI's --format unified / rich, with and without colour, and --stat).
_RENDER = {"unified": render_unified, "unified --stat": lambda r: render_unified(r, True),
           "rich": _rich, "rich --no-color": lambda r: _rich(r, color=False),
           "rich --stat": lambda r: _rich(r, True)}


@pytest.mark.parametrize("fmt", list(_RENDER))
@pytest.mark.parametrize("where", ["reply", "user", "tool arguments"])
def test_many_changed_lines_render_in_linear_time(where, fmt):
    """A text with many changed lines (every 3rd of n): the text formats printed its lines with
    context by searching the list of changed lines for every line (n × n/3 steps: 20k lines
    took 5 s, 100k lines 121 s in ``--format unified``). The rendering of 10× the lines takes
    at most 20× the CPU time (best of 3, garbage collector paused, one retry; the quadratic
    rendering gave 35× in rich, 80× in unified here); the diff itself is ``changed-lines`` above."""
    small, large = _changed_lines_diffs(where)
    [change] = large.changes
    assert change.kind == {"reply": "reply-changed", "user": "user-changed",
                           "tool arguments": "tool-changed"}[where] and change.coarsened is False
    render = _RENDER[fmt]
    text = render(small)
    if "--stat" not in fmt:  # every changed line printed, with its context, nothing left out
        assert text.count("v1998") == 1 and text.count("w1999") == 1 and "unchanged line" not in text
    render(small)  # warm up
    ratios = []
    for _ in range(2):  # one retry (a busy machine)
        # (--stat prints counts only: well under a millisecond, a floor keeps timer noise out)
        ratios.append(cpu_best_of_3(render, large) / max(cpu_best_of_3(render, small), 0.001))
        if ratios[-1] <= 20:
            return
    pytest.fail(f"{where}, {fmt}: 10× the changed lines took {[round(r, 1) for r in ratios]}× the CPU time")


def _in_context_by_definition(words, context_words, context_lines):
    """:func:`in_context` as it was written first (quadratic: a search of the changed lines
    for every line), the reference for the linear one."""
    style = {"=": None, "-": "del", "+": "ins"}
    lines = [[]]
    for op, text in words:
        for k, part in enumerate(text.split("\n")):
            if k:
                lines.append([])
            if part:
                lines[-1].append((part, style[op]))
    changed = [i for i, ln in enumerate(lines) if any(st is not None for _, st in ln)]
    if not changed:
        return lines
    keep = set()
    for i in changed:
        keep.update(range(max(0, i - context_lines), min(len(lines), i + context_lines + 1)))
    out = []
    skipped = 0
    for i, line in enumerate(lines):
        if i not in keep:
            skipped += 1
            continue
        if skipped:
            out.append([(_lines_note(skipped), "meta")])
            skipped = 0
        if i in changed:
            out.append(_trim_changed(line, context_words))
        else:
            text = "".join(t for t, _ in line)
            above = any(c < i for c in changed if i - c <= context_lines)
            below = any(c > i for c in changed if c - i <= context_lines)
            out.append([(_trim(text, context_words, head=above, tail=below), None)] if text else [])
    if skipped:
        out.append([(_lines_note(skipped), "meta")])
    return out


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("=-+"), st.text(alphabet="ab .\n", max_size=12)), max_size=25),
       st.integers(0, 4), st.integers(-1, 4))
def test_in_context_is_its_definition(words, context_words, context_lines):
    """The linear :func:`in_context` prints what the quadratic one did (the text formats'
    output unchanged), for any context sizes."""
    assert in_context(words, context_words, context_lines) == \
        _in_context_by_definition(words, context_words, context_lines)

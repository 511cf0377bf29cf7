"""Text renderings of a diff result: styled lines (:func:`render_lines`) printed as plain
text (:func:`render_unified`) or through rich (:func:`render_rich`), and the summary footer."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from fountain_audit.diff.changes import CATEGORIES, Change, one_line
from fountain_audit.diff.context import in_context
from fountain_audit.diff.result import DiffResult
from fountain_audit.untrusted import one_line as file_line, terminal_safe

#: A rendered line: segments ``(text, style)``; style names: ``header``, ``meta``, ``add``,
#: ``remove``, ``change``, ``move``, ``del`` / ``ins`` (words), ``summary``, or ``None``.
Line = list[tuple[str, "str | None"]]

#: The line under a change whose word or line diff was coarsened (bounded work).
COARSENED_NOTE = "    (diff coarsened: a long stretch with many changes is shown removed and added whole)"

_SIGN = {"added": ("+", "add"), "removed": ("-", "remove"), "moved": (">", "move")}


def _sign(kind: str) -> tuple[str, str]:
    return _SIGN.get(kind.rsplit("-", 1)[-1], ("~", "change"))


def _hunk_key(c: Change) -> tuple:
    if c.kind == "title-page-changed":
        return ("title",)
    if c.kind == "scene-description-changed":
        return ("description", c.a_scene, c.b_scene)
    if c.a_turn is not None or c.b_turn is not None:
        return ("turn", c.a_turn, c.b_turn)
    return ("scene", c.a_scene, c.b_scene)


def _sides(what: str, a: int | None, b: int | None) -> str:
    """``-what N +what M`` (1-based; a side that lacks it left out)."""
    return " ".join(p for p in (None if a is None else f"-{what}{a + 1}",
                                None if b is None else f"+{what}{b + 1}") if p)


def _hunk_header(c: Change) -> Line:
    """``@@ -turn N +turn M @@ scene -K +L: HEADING`` (each number on its side: ``-`` A's,
    ``+`` B's), or ``@@ -scene K +scene L @@ HEADING`` for a scene without turns (and for what a
    scene with turns holds outside them, ``scene-content-changed``),
    ``@@ description -scene K +scene L @@ HEADING`` for the description of a scene with turns. The heading
    is B's, or A's when B lacks the turn or scene; ``@@ title page @@`` for the title page."""
    if c.kind == "title-page-changed":
        return [("@@ title page @@", "header")]
    if c.kind == "scene-description-changed":
        return [(f"@@ description {_sides('scene ', c.a_scene, c.b_scene)} @@", "header"), (f" {c.heading or ''}", "meta")]
    if c.a_turn is not None or c.b_turn is not None:
        scenes = _sides("", c.a_scene, c.b_scene) or "?"
        return [(f"@@ {_sides('turn ', c.a_turn, c.b_turn)} @@", "header"), (f" scene {scenes}: {c.heading or ''}",
                                                                              "meta")]
    return [(f"@@ {_sides('scene ', c.a_scene, c.b_scene)} @@", "header"), (f" {c.heading or ''}", "meta")]


def _words_lines(words: list[tuple[str, str]], indent: str = "    ") -> list[Line]:
    """Word-diff segments split into lines, with context only (:func:`in_context`)."""
    return [[(indent, None)] + line for line in in_context(words)]


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def _detail_lines(d: dict[str, Any]) -> list[Line]:
    out: list[Line] = []
    if "diff" in d and d["field"] != "text":
        for e in d["diff"]:
            if e["op"] == "replace":
                out.append([(f"    {d['field']} {e['path']}: ", "meta"), (_value(e["before"]), "del"),
                            (" → ", None), (_value(e["after"]), "ins")])
            elif e["op"] == "add":
                out.append([(f"    {d['field']} {e['path']}: ", "meta"), ("+ " + _value(e["after"]), "ins")])
            else:
                out.append([(f"    {d['field']} {e['path']}: ", "meta"), ("- " + _value(e["before"]), "del")])
    elif d["field"] == "text" and "diff" in d:
        for ln in d["diff"]:
            style = "add" if ln.startswith("+") else "remove" if ln.startswith("-") else "meta" if ln.startswith("@") \
                else None
            out.append([("    " + ln, style)])
    elif "words" in d:
        out.append([(f"    {d['field']}:", "meta")])
        out.extend(_words_lines([tuple(w) for w in d["words"]], "      "))
    else:
        out.append([(f"    {d['field']}: ", "meta"), (_value(d.get("before")), "del"), (" → ", None),
                    (_value(d.get("after")), "ins")])
    return out


def _change_lines(c: Change) -> list[Line]:
    sign, style = _sign(c.kind)
    lines: list[Line] = []
    if c.words is not None and c.kind in ("user-changed", "reply-changed", "actions-changed"):
        multi = any("\n" in t for _, t in c.words)
        if multi:
            lines.append([(f"{sign} {c.message}:", style)])
            lines.extend(_words_lines(c.words))
        else:
            lines.append([(f"{sign} {c.message}: ", style)] + in_context(c.words)[0])
    elif c.kind in ("turn-added", "turn-removed"):
        lines.append([(f"{sign} {c.message}", style)])
        s = c.after if c.kind == "turn-added" else c.before
        rows = []
        if s.get("user"):
            rows.append(f"{s['user']['character']}: {s['user']['text']}")
        rows.extend(f"tool {t}" for t in s.get("tool_calls", []))
        rows.extend(f"{b}" for b in s.get("rag", []))
        if s.get("reply"):
            rows.append(f"{s['reply']['character']}: {s['reply']['text']}")
        for row in rows:
            for k, ln in enumerate(row.split("\n")):
                lines.append([(f"{sign}     " + ("" if k == 0 else "  ") + ln, style)])
    elif c.kind in ("user-changed", "reply-changed") and (c.before is None or c.after is None):
        lines.append([(f"{sign} {c.message}: ", style), (one_line(c.after if c.before is None else c.before, 200),
                                                          "ins" if c.before is None else "del")])
    else:
        lines.append([(f"{sign} {c.message}", style)])
    for d in c.details:
        if c.kind == "title-page-changed":
            continue  # in the message
        if c.kind == "tool-changed" and d["field"] in ("status", "error", "name", "actor"):
            continue  # in the message
        if c.kind == "scene-changed" and d["field"] == "heading":
            lines.append([("    heading: ", "meta"), (d["before"], "del"), (" → ", None), (d["after"], "ins")])
            continue
        lines.extend(_detail_lines(d))
    if c.coarsened:
        lines.append([(COARSENED_NOTE, "meta")])
    return lines


def summary_text(s: dict[str, Any], only: Collection[str] | None = None) -> str:
    """The one-line footer: ``N turns changed (…), tool calls +A -R ~C, F new failures, …``.
    With ``only`` (``--only``'s categories), the counts of the other categories are left out
    (they were not compared: "0 replies changed" after ``--only tools`` said the replies matched;
    new-user trial) and the footer ends by naming what was compared."""
    def compared(category: str) -> bool:
        return only is None or category in only

    tail = "" if only is None else f" (only {', '.join(c for c in CATEGORIES if c in only)} compared)"
    if not s["differences"]:
        return "no differences" + tail
    parts = [f"{s['turns_changed']} turn{'s' * (s['turns_changed'] != 1)} changed "
             f"({s['turns_added']} added, {s['turns_removed']} removed, {s['turns_moved']} moved, "
             f"{s['turns_modified']} modified)"]
    if compared("tools"):
        parts += [f"tool calls +{s['tool_calls_added']} -{s['tool_calls_removed']} ~{s['tool_calls_changed']}",
                  f"{s['new_failures']} new failure{'s' * (s['new_failures'] != 1)}"]
    if compared("replies"):
        parts.append(f"{s['replies_changed']} repl{'ies' if s['replies_changed'] != 1 else 'y'} changed")
    for key, one, many in (("user_inputs_changed", "user input changed", "user inputs changed"),
                           ("context_changes", "context change", "context changes"),
                           ("model_changes", "model change", "model changes"),
                           ("note_changes", "note change", "note changes"),
                           ("scene_changes", "scene change", "scene changes"),
                           ("other_changes", "other change", "other changes")):
        if s[key]:
            parts.append(f"{s[key]} {one if s[key] == 1 else many}")
    return ", ".join(parts) + tail


_STAT_ROWS = (("turns_a", "turns in A"), ("turns_b", "turns in B"), ("turns_changed", "turns changed"),
              ("turns_added", "  added"), ("turns_removed", "  removed"), ("turns_moved", "  moved"),
              ("turns_modified", "  modified"), ("tool_calls_added", "tool calls added"),
              ("tool_calls_removed", "tool calls removed"), ("tool_calls_changed", "tool calls changed"),
              ("new_failures", "new failures"), ("user_inputs_changed", "user inputs changed"),
              ("replies_changed", "replies changed"), ("model_changes", "model changes"),
              ("context_changes", "context changes"), ("note_changes", "note changes"),
              ("scene_changes", "scene changes"), ("other_changes", "other changes"), ("changes", "changes"))
#: The ``--only`` category each count of :data:`_STAT_ROWS` belongs to (the others count every change).
_STAT_CATEGORY = {"turns_added": "turns", "turns_removed": "turns", "turns_moved": "turns",
                  "tool_calls_added": "tools", "tool_calls_removed": "tools", "tool_calls_changed": "tools",
                  "new_failures": "tools", "user_inputs_changed": "user", "replies_changed": "replies",
                  "model_changes": "model", "context_changes": "context", "note_changes": "notes",
                  "scene_changes": "scenes", "other_changes": "other"}


def render_lines(result: DiffResult, stat: bool = False) -> list[Line]:
    """The report as styled lines (shared by the ``unified`` and ``rich`` formats): a
    ``--- A`` / ``+++ B`` header, one hunk per turn (or scene), headed
    ``@@ -turn N +turn M @@ scene -K +L: HEADING`` (see :func:`_hunk_header`), then the summary footer. With ``stat``:
    the header and one ``count  label`` line per summary count."""
    # (file names on one line: a newline in a name could forge a line of the diff)
    lines: list[Line] = [[(f"--- {file_line(result.a.name)}", "remove")],
                         [(f"+++ {file_line(result.b.name)}", "add")]]
    s = result.summary()
    only = result.only
    if stat:
        def shown(k: str) -> bool:  # (a count of a category --only left out: not compared, not 0)
            return only is None or _STAT_CATEGORY.get(k) is None or _STAT_CATEGORY[k] in only
        width = max(len(str(s[k])) for k, _ in _STAT_ROWS)
        lines.extend([[(f"{s[k]:>{width}}  {label}" if shown(k) else f"{'-':>{width}}  {label} (not compared)",
                        "summary" if k == "changes" else None)] for k, label in _STAT_ROWS])
        return lines
    last = None
    for c in result.changes:
        key = _hunk_key(c)
        if key != last:
            lines.append(_hunk_header(c))
            last = key
        lines.extend(_change_lines(c))
    lines.append([(summary_text(s, only), "summary")])
    return lines


def render_unified(result: DiffResult, stat: bool = False) -> str:
    """Plain text: removed words as ``[-…-]``, added words as ``{+…+}`` (as ``git diff --word-diff=plain``).
    Session text and file names pass through :func:`~fountain_audit.untrusted.terminal_safe`:
    control sequences are printed escaped (``\\x1b[2J``), never raw."""
    out = []
    for line in render_lines(result, stat):
        out.append("".join(f"[-{t}-]" if st == "del" else f"{{+{t}+}}" if st == "ins" else t
                           for t, st in ((_segment(t), st) for t, st in line)))
    return "\n".join(out) + "\n"


def _segment(text: str) -> str:
    """A piece of one output line: :func:`~fountain_audit.untrusted.terminal_safe`, and a line
    break in it shown as ``\\n`` (a multi-line note body in a change's message printed raw could
    forge a ``+ tool added: …`` line, adversarial trial; multi-line text is split into lines
    before it gets here)."""
    return terminal_safe(text).replace("\r\n", "\\r\\n").replace("\n", "\\n")


RICH_STYLES = {"header": "bold cyan", "meta": "cyan", "add": "green", "remove": "red", "change": "yellow",
               "move": "magenta", "del": "bold red strike", "ins": "bold green underline", "summary": "bold"}


def render_rich(result: DiffResult, console: Any, stat: bool = False) -> None:
    """Print to a :class:`rich.console.Console`: hunks headed by scene and turn, changed words
    highlighted (``[-…-]``/``{+…+}`` markers too when the console has no colour), the summary footer.
    Session text is escaped as in :func:`render_unified` (:func:`~fountain_audit.untrusted.terminal_safe`)."""
    from rich.text import Text

    markers = console.no_color or console.color_system is None
    for line in render_lines(result, stat):
        text = Text(no_wrap=False)
        for t, st in line:
            t = _segment(t)
            if markers and st in ("del", "ins"):
                t = f"[-{t}-]" if st == "del" else f"{{+{t}+}}"
            text.append(t, style=RICH_STYLES.get(st or "", ""))
        console.print(text, soft_wrap=True, highlight=False)

"""The differ: aligns the scene units, turns and notes of two sides and builds the changes
(:mod:`fountain_audit.diff.changes`) and the complete RFC 6902 patch (:class:`Differ`)."""

from __future__ import annotations

import difflib
from typing import Any

from fountain_audit.diff.alignment import Step, align
from fountain_audit.diff.changes import (Change, compact, field_details, note_label, note_sim, one_line,
                                         shown, status_text, tool_label, tool_sim, kind_name)
from fountain_audit.diff.jsonvalues import canon, pointer_token, same
from fountain_audit.diff.options import Options
from fountain_audit.diff.patch import json_patch, list_patch
from fountain_audit.diff.sides import SceneUnit, Side, turn_key, turn_text
from fountain_audit.diff.sequences import ratio as sequence_ratio
from fountain_audit.diff.words import THRESHOLD, diff_words, line_diff, ratio

_TOOL_FIELDS = ("name", "actor", "status", "error", "arguments", "arguments_json", "arguments_strict_json",
                "phase", "form", "valid", "problem")
_NOTE_FIELDS = ("kind", "fields", "phase", "valid", "problem")
_SPEECH_SKIP = frozenset({"text", "span", "actor_ref"})  # actor_ref follows the character
_TURN_KEYS = frozenset({"record", "id", "provenance", "file", "index", "span", "scene", "user", "forwarding", "target", "reply",
                        "complete", "tool_calls", "rag", "recall", "model", "model_switch", "actions",
                        "other_notes", "stats"})


#: Most pairs of a deleted and an inserted turn :meth:`Differ._moves` compares to find a turn
#: moved and reworded (each comparison bounded by :func:`~fountain_audit.diff.words.ratio`).
MOVE_COMPARISONS = 2_500


def in_recall_scene(note: dict[str, Any] | None) -> bool:
    """A recall note written in an ``INT. CONTEXT RECALL`` scene (compared as that scene's text),
    not in a turn's own scene."""
    return note is not None and ((note.get("scene") or {}).get("kind") == "context-recall")


def remote_route(rec: dict[str, Any]) -> dict[str, Any] | None:
    """A turn's route as compared: ``{"endpoint", "url"}`` of an EXT. scene's remote route,
    else ``None`` (a local route: its scene and heading are compared as the scene's)."""
    route = (rec.get("provenance") or {}).get("route")
    if isinstance(route, dict) and route.get("kind") == "remote":
        return {"endpoint": route.get("endpoint"), "url": route.get("url")}
    return None


def _text_diff(a: str, b: str) -> tuple[list[str], bool]:
    """:func:`line_diff` of two texts, an empty one having no line (not one empty line)."""
    if a and b:
        return line_diff(a, b)
    return list(difflib.unified_diff(a.split("\n") if a else [], b.split("\n") if b else [], lineterm="", n=1))[2:], False


class Differ:
    """Builds the changes and the patch for two sides."""

    def __init__(self, a: Side, b: Side, options: Options):
        self.a, self.b, self.options = a, b, options
        self.ra, self.rb = a.records, b.records
        self.changes: list[Change] = []
        self.seen: set[str] = set()  # dedupe of recall / model-switch changes

    # ---- helpers
    def _ctx(self, ia: int | None, ib: int | None) -> dict[str, Any]:
        da, db = self.a.document["records"], self.b.document["records"]
        sa = da[ia]["scene"]["index"] if ia is not None else None
        sb = db[ib]["scene"]["index"] if ib is not None else None
        heading = db[ib]["scene"]["heading"] if ib is not None else da[ia]["scene"]["heading"]
        return {"a_turn": ia, "b_turn": ib, "a_scene": sa, "b_scene": sb, "heading": heading}

    def add(self, kind: str, category: str, message: str, ctx: dict[str, Any], pa: str | None, pb: str | None,
            **kw: Any) -> Change:
        ch = Change(kind, category, message, a_pointer=pa, b_pointer=pb, **ctx, **kw)
        self.changes.append(ch)
        return ch

    def _dedupe(self, *parts: Any) -> bool:
        """True the first time these values are seen."""
        k = canon(parts)
        if k in self.seen:
            return False
        self.seen.add(k)
        return True

    # ---- run
    def run(self) -> tuple[list[Change], list[dict[str, Any]]]:
        a, b = self.a, self.b
        scene_steps = align([s.key for s in a.scenes], [s.key for s in b.scenes],
                            lambda i, j: self._scene_sim(a.scenes[i], b.scenes[j]))
        # The record-level script (monotone), with the scene step each record step belongs to.
        events: list[tuple[str, Any]] = []
        script: list[Step] = []
        for op, i, j in scene_steps:
            sa = a.scenes[i] if i is not None else None
            sb = b.scenes[j] if j is not None else None
            events.append(("scene", (op, sa, sb)))
            if op == "pair":
                tsteps = align(sa.turn_keys, sb.turn_keys,
                               lambda x, y: self._turn_sim(sa.turns[x], sb.turns[y]))
                steps = [(o, None if x is None else sa.turns[x], None if y is None else sb.turns[y])
                         for o, x, y in tsteps]
            elif op == "del":
                steps = [("del", t, None) for t in sa.turns]
            else:
                steps = [("ins", None, t) for t in sb.turns]
            script.extend(steps)
            events.extend(("turn", s) for s in steps)
        script, events = self._refine(script, events)
        self._title_changes()
        self._scene_moves(scene_steps)
        moved = self._moves(script)
        moved_a = {x for x, _ in moved.items()}
        moved_b = {y: x for x, y in moved.items()}
        for what, ev in events:
            if what == "scene":
                self._scene_changes(*ev)
                continue
            op, i, j = ev
            if op == "pair":
                self._turn_changes(i, j)
            elif op == "del":
                if i not in moved_a:
                    self._turn_added_removed("turn-removed", i, None)
            elif j in moved_b:
                ia = moved_b[j]
                ctx = self._ctx(ia, j)
                self.add("turn-moved", "turns", f"turn moved from turn {ia + 1} to turn {j + 1}", ctx,
                         f"/records/{ia}", f"/records/{j}")
                self._turn_changes(ia, j)
            else:
                self._turn_added_removed("turn-added", None, j)
        patch = self._patch(script)
        return self.changes, patch

    # ---- title page
    def _title_changes(self) -> None:
        """One ``title-page-changed`` change per title-page entry added, removed or changed
        (entries paired by key, a key written twice by its occurrence). The title page is not
        in the ``dump --turns`` document: the changes carry no pointer, the patch no op."""
        def by_key(entries: list[tuple[str, str]]) -> dict[str, list[str]]:
            out: dict[str, list[str]] = {}
            for k, v in entries:
                out.setdefault(k, []).append(v)
            return out
        ta, tb = by_key(self.a.title), by_key(self.b.title)
        for key in list(ta) + [k for k in tb if k not in ta]:
            va, vb = ta.get(key, []), tb.get(key, [])
            for n in range(max(len(va), len(vb))):
                x = va[n] if n < len(va) else None
                y = vb[n] if n < len(vb) else None
                if x == y:
                    continue
                what = "added" if x is None else "removed" if y is None else "changed"
                text = {"added": f"{one_line(y)}", "removed": f"{one_line(x)}",
                        "changed": f"{one_line(x)} → {one_line(y)}"}[what]
                category = "model" if key.strip().lower() in ("model", "backend") else "other"
                self.add("title-page-changed", category, f"title page {key} {what}: {text}",
                         {"a_scene": None, "b_scene": None, "heading": None}, None, None,
                         before=x, after=y, details=[{"field": key, "before": x, "after": y}])

    # ---- scenes
    def _scene_sim(self, sa: SceneUnit, sb: SceneUnit) -> float | None:
        if sa.kind != sb.kind:
            return None
        if sa.turns and sb.turns:
            r = sequence_ratio(sa.turn_keys, sb.turn_keys)
            if r > 0:
                return 1.0 + r
        t = ratio(sa.text, sb.text)
        if sa.raw_heading == sb.raw_heading and not (sa.turns and sb.turns):
            # the same heading as written, its time included (a session's chat scenes differ only by
            # it), one side's scene holding turns the other's lacks (a turn added to an empty scene,
            # content after THE END. joining the last scene): the same scene, changed, not one scene
            # removed and another added
            return max(t, THRESHOLD)
        return t if t >= THRESHOLD else None

    def _reportable(self, side: Side, s: SceneUnit) -> bool:
        """Scenes without turns are compared as scenes, ``INT. CONTEXT RECALL`` scenes included
        (the turns after one carry its notes in their ``recall``: not reported there, see
        :func:`in_recall_scene`)."""
        return not s.turns

    def _scene_moves(self, scene_steps: list) -> None:
        """Pair a removed and an added scene without turns whose alignment keys are equal (the
        same scene, which the alignment could not keep in order when the scenes around it were
        reordered): ``moved_scenes`` maps each such B scene to its A scene."""
        removed: dict[tuple, list[SceneUnit]] = {}
        for op, i, _ in scene_steps:
            if op == "del" and self._reportable(self.a, self.a.scenes[i]):
                removed.setdefault(self.a.scenes[i].key, []).append(self.a.scenes[i])
        self.moved_scenes: dict[int, SceneUnit] = {}
        for op, _, j in scene_steps:
            if op == "ins" and self._reportable(self.b, self.b.scenes[j]) and removed.get(self.b.scenes[j].key):
                self.moved_scenes[self.b.scenes[j].index] = removed[self.b.scenes[j].key].pop(0)
        self.moved_a_scenes = {sa.index for sa in self.moved_scenes.values()}

    def _scene_changes(self, op: str, sa: SceneUnit | None, sb: SceneUnit | None) -> None:
        if op == "del" and sa.index in self.moved_a_scenes:
            return  # reported where it went (op "ins"), or not at all when it kept its place
        if op == "ins" and sb.index in self.moved_scenes:
            was = self.moved_scenes[sb.index]
            if was.index != sb.index:
                self.add("scene-moved", "scenes", f"scene moved from scene {was.index + 1} to scene {sb.index + 1}: "
                         f"{sb.raw_heading}", {"a_scene": was.index, "b_scene": sb.index, "heading": sb.raw_heading},
                         None, None)
            return
        if op == "del":
            if self._reportable(self.a, sa):
                self.add("scene-removed", "scenes", f"scene removed: {sa.raw_heading}",
                         {"a_scene": sa.index, "b_scene": None, "heading": sa.raw_heading}, None, None,
                         before={"heading": sa.heading, "text": sa.body})
            return
        if op == "ins":
            if self._reportable(self.b, sb):
                self.add("scene-added", "scenes", f"scene added: {sb.raw_heading}",
                         {"a_scene": None, "b_scene": sb.index, "heading": sb.raw_heading}, None, None,
                         after={"heading": sb.heading, "text": sb.body})
            return
        details: list[dict[str, Any]] = []
        if sa.heading != sb.heading:
            details.append({"field": "heading", "before": sa.heading, "after": sb.heading})
        if self.options.workspace and sa.workspace != sb.workspace:
            details.append({"field": "workspace", "before": sa.workspace, "after": sb.workspace})
        if self._reportable(self.a, sa) and self._reportable(self.b, sb) and sa.body != sb.body:
            lines, coarse = line_diff(sa.body, sb.body)
            details.append({"field": "text", "before": sa.body, "after": sb.body, "diff": lines}
                           | ({"coarsened": True} if coarse else {}))
        pa = f"/records/{sa.turns[0]}/scene" if sa.turns else None
        pb = f"/records/{sb.turns[0]}/scene" if sb.turns else None
        def text_change(kind: str, message: str, before: str, after: str, diff) -> None:
            # a scene's text outside the dump --turns document: no pointer, no patch op
            lines, coarse = diff(before, after)
            self.add(kind, "scenes", f"{message}: {sb.raw_heading}",
                     {"a_scene": sa.index, "b_scene": sb.index, "heading": sb.raw_heading}, None, None,
                     before=before, after=after,
                     details=[{"field": "text", "before": before, "after": after, "diff": lines}
                              | ({"coarsened": True} if coarse else {})])

        if sa.turns and sb.turns and sa.description != sb.description:
            # (a scene without turns: its description is part of its text, compared above)
            text_change("scene-description-changed", "scene description changed", sa.description, sb.description,
                        line_diff)
        if details:
            what = ", ".join(d["field"] for d in details)
            self.add("scene-changed", "scenes", f"scene changed ({what}): {sb.raw_heading}",
                     {"a_scene": sa.index, "b_scene": sb.index, "heading": sb.raw_heading}, pa, pb,
                     before=sa.heading, after=sb.heading, details=details)
        if bool(sa.turns) != bool(sb.turns):
            # one side's scene holds turns, the other's none (paired by their heading): what each holds
            # outside its turns, description and the rest, compared as one text (the turns are
            # reported as added or removed)
            before = "\n\n".join(t for t in (sa.description, sa.content) if t)
            after = "\n\n".join(t for t in (sb.description, sb.content) if t)
            if before != after:
                text_change("scene-content-changed", "scene changed (content outside turns)", before, after,
                            _text_diff)
        if sa.turns and sb.turns and sa.content != sb.content:
            # What the scene holds outside its turns and description (a boneyard, a transition, an
            # action paragraph between the speeches): compared as the text of a scene without turns
            # is, shown in the same hunk.
            text_change("scene-content-changed", "scene changed (content outside turns)", sa.content, sb.content,
                        _text_diff)

    # ---- turns
    def _turn_sim(self, i: int, j: int) -> float | None:
        r = ratio(turn_text(self.ra[i]), turn_text(self.rb[j]))
        return r if r >= THRESHOLD else None

    def _refine(self, script: list[Step], events: list[tuple[str, Any]]) -> tuple[list[Step], list[tuple[str, Any]]]:
        """Re-align the turns removed and inserted between two paired turns across scene
        boundaries (a scene split or merged in two keeps its turns paired), keeping the
        script monotone. ``events`` (scene and turn events in order) follow the new script."""
        refined: list[Step] = []
        gaps: dict[int, tuple[int, list[Step]]] = {}  # script position of a gap -> (its end, new steps)
        # (the keys of every turn removed or inserted: one whose key the other side removed or
        # inserted in another gap is moved there, not paired with a like turn of this gap)
        loose_a = {turn_key(self.ra[i]) for op, i, _ in script if op == "del"}
        loose_b = {turn_key(self.rb[j]) for op, _, j in script if op == "ins"}
        k = 0
        while k < len(script):
            if script[k][0] == "pair":
                refined.append(script[k])
                k += 1
                continue
            end = k
            while end < len(script) and script[end][0] != "pair":
                end += 1
            gap = script[k:end]
            dels = [i for op, i, _ in gap if op == "del"]
            ins = [j for op, _, j in gap if op == "ins"]
            if dels and ins:
                gap = [(op, None if x is None else dels[x], None if y is None else ins[y])
                       for op, x, y in align([turn_key(self.ra[i]) for i in dels],
                                             [turn_key(self.rb[j]) for j in ins],
                                             lambda x, y: self._turn_sim(dels[x], ins[y]),
                                             loose_a=loose_a, loose_b=loose_b)]
            gaps[k] = (end, gap)
            refined.extend(gap)
            k = end
        out: list[tuple[str, Any]] = []
        pos = skip_until = 0
        for what, ev in events:
            if what != "turn":
                out.append((what, ev))
                continue
            if pos in gaps:
                skip_until, steps = gaps[pos]
                out.extend(("turn", st) for st in steps)
            elif pos >= skip_until:
                out.append(("turn", ev))
            pos += 1
        return refined, out

    def _moves(self, script: list[Step]) -> dict[int, int]:
        """Deleted A turns re-inserted elsewhere in B: ``{a: b}``. First those with the same key
        (user input, else reply); then, among the rest, a turn moved and reworded: each deleted
        turn, in order, is paired with the still unpaired inserted turn most like it (turn text
        similarity at least :data:`~fountain_audit.diff.words.THRESHOLD`, the first on a tie).
        That second pass compares at most :data:`MOVE_COMPARISONS` pairs (none when there are
        more): a diff stays linear in the turns; the turns are then reported removed and added."""
        inserted: dict[tuple, list[int]] = {}
        for op, _, j in script:
            if op == "ins":
                inserted.setdefault(turn_key(self.rb[j]), []).append(j)
        out: dict[int, int] = {}
        for op, i, _ in script:
            if op == "del":
                cands = inserted.get(turn_key(self.ra[i]))
                if cands:
                    out[i] = cands.pop(0)
        dels = [i for op, i, _ in script if op == "del" and i not in out]
        ins = sorted(j for cands in inserted.values() for j in cands)
        if dels and ins and len(dels) * len(ins) <= MOVE_COMPARISONS:
            for i in dels:
                best, best_r = None, THRESHOLD
                for j in ins:
                    r = ratio(turn_text(self.ra[i]), turn_text(self.rb[j]))
                    if r >= best_r and (best is None or r > best_r):
                        best, best_r = j, r
                if best is not None:
                    out[i] = best
                    ins.remove(best)
        return out

    def _turn_summary(self, rec: dict[str, Any]) -> dict[str, Any]:
        sp = (lambda s: None if s is None else {"character": s["character"], "text": s["text"]})
        return {"user": sp(rec.get("user")), "target": rec.get("target"), "reply": sp(rec.get("reply")),
                "tool_calls": [tool_label(t) for t in rec.get("tool_calls", [])],
                "rag": [n.get("body") for n in rec.get("rag", [])], "model": rec.get("model")}

    def _turn_added_removed(self, kind: str, ia: int | None, ib: int | None) -> None:
        rec = self.rb[ib] if ib is not None else self.ra[ia]
        cats = ["turns"]
        if rec.get("tool_calls"):
            cats.append("tools")
        if rec.get("reply") is not None:
            cats.append("replies")
        if rec.get("rag"):  # (recall notes are those in force, not the turn's own)
            cats.append("context")
        n = ib if ib is not None else ia
        label = one_line(turn_text(rec))
        summary = self._turn_summary(rec)
        failures = sum(1 for t in rec.get("tool_calls", []) if t.get("status") == "error") if ib is not None else 0
        self.add(kind, "turns", f"turn {n + 1} {'added' if ib is not None else 'removed'}: {label}",
                 self._ctx(ia, ib), None if ia is None else f"/records/{ia}", None if ib is None else f"/records/{ib}",
                 before=None if ia is None else summary, after=None if ib is None else summary,
                 categories=tuple(cats), new_failures=failures)

    def _turn_changes(self, ia: int, ib: int) -> None:
        x, y = self.ra[ia], self.rb[ib]
        ctx = self._ctx(ia, ib)
        pa, pb = f"/records/{ia}", f"/records/{ib}"
        if same({k: v for k, v in x.items() if k != "scene"}, {k: v for k, v in y.items() if k != "scene"}):
            return
        # user input
        self._speech("user-changed", "user", "user", x.get("user"), y.get("user"), ctx, pa, pb)
        # forwarding
        if not same(x.get("target"), y.get("target")):
            self.add("target-changed", "model", f"forwarding target {shown(x.get('target'))} → {shown(y.get('target'))}", ctx,
                     pa + "/target", pb + "/target", before=x.get("target"), after=y.get("target"))
        elif not same(x.get("forwarding"), y.get("forwarding")):
            self._speech("forwarding-changed", "model", "forwarding", x.get("forwarding"), y.get("forwarding"),
                         ctx, pa, pb)
        # reply
        rx, ry = x.get("reply"), y.get("reply")
        if rx is not None and ry is not None and rx["character"] != ry["character"]:
            self.add("actor-changed", "model", f"reply by {rx['character']} → {ry['character']}", ctx,
                     pa + "/reply/character", pb + "/reply/character", before=rx["character"], after=ry["character"])
        self._speech("reply-changed", "replies", "reply", rx, ry, ctx, pa, pb)
        # model, model switch
        if not same(x.get("model"), y.get("model")):
            self.add("model-changed", "model", f"model {shown(x.get('model'))} → {shown(y.get('model'))}", ctx,
                     pa + "/model", pb + "/model", before=x.get("model"), after=y.get("model"))
        qx, qy = remote_route(x), remote_route(y)
        if not same(qx, qy):  # an EXT. scene's route (endpoint, URL): a replay sent elsewhere

            def where(q):  # (a remote route in a form not recognised records neither: "not recorded")
                return "local" if q is None else " at ".join(str(v) for v in (q["endpoint"], q["url"]) if v) \
                    or shown(None)
            self.add("route-changed", "model", f"route {where(qx)} → {where(qy)}", ctx,
                     pa + "/provenance/route", pb + "/provenance/route", before=qx, after=qy)
        mx, my = compact(x.get("model_switch")), compact(y.get("model_switch"))
        if not same(mx, my) and self._dedupe("model-switch", mx, my):
            # (its text without its "model switch:" head: the message names the kind once)
            bx = None if mx is None else note_label(mx)
            by = None if my is None else note_label(my)
            det = field_details(mx, my, _NOTE_FIELDS, ("body",)) if mx is not None and my is not None else []
            self.add("model-switch-changed", "model", f"model switch {one_line(bx)} → {one_line(by)}", ctx,
                     pa + "/model_switch", pb + "/model_switch", before=mx, after=my, details=det)
        # notes
        self._notes("tool_calls", x, y, ctx, pa, pb)
        self._notes("rag", x, y, ctx, pa, pb)
        self._notes("recall", x, y, ctx, pa, pb)
        self._notes("other_notes", x, y, ctx, pa, pb)
        # actions, stats, anything else
        ax, ay = x.get("actions", []), y.get("actions", [])
        if not same(ax, ay):
            tx = "\n".join(f"{s['character']}: {s['text']}" for s in ax)
            ty = "\n".join(f"{s['character']}: {s['text']}" for s in ay)
            words, coarse = diff_words(tx, ty)
            self.add("actions-changed", "other", "prompts and answers changed", ctx, pa + "/actions", pb + "/actions",
                     before=tx, after=ty, words=words, coarsened=coarse)
        if not same(x.get("stats"), y.get("stats")):
            self.add("stats-changed", "other", f"stats {one_line(x.get('stats'))} → {one_line(y.get('stats'))}",
                     ctx, pa + "/stats", pb + "/stats", before=x.get("stats"), after=y.get("stats"))
        for k in list(x) + [k for k in y if k not in x]:
            if k not in _TURN_KEYS and not same(x.get(k), y.get(k)):
                self.add("field-changed", "other", f"{k} changed", ctx, f"{pa}/{pointer_token(k)}",
                         f"{pb}/{pointer_token(k)}", before=x.get(k), after=y.get(k))

    def _speech(self, kind: str, category: str, key: str, sx: dict | None, sy: dict | None, ctx: dict[str, Any],
                pa: str, pb: str) -> None:
        if same(sx, sy):
            return
        who = (sy or sx or {}).get("character", "")
        if sx is None or sy is None:
            verb = "added" if sx is None else "removed"
            self.add(kind, category, f"{key} {verb} ({who})", ctx, f"{pa}/{key}", f"{pb}/{key}",
                     before=None if sx is None else sx["text"], after=None if sy is None else sy["text"])
            return
        skip = set(_SPEECH_SKIP)
        if key == "reply" and sx["character"] != sy["character"]:
            skip |= {"character", "cue"}  # reported as actor-changed
        details = [{"field": f, "before": sx.get(f), "after": sy.get(f)}
                   for f in list(sx) + [k for k in sy if k not in sx]
                   if f not in skip and not same(sx.get(f), sy.get(f))]
        text_changed = sx["text"] != sy["text"]
        if not text_changed and not details:
            return
        only_text = text_changed and not details
        suffix = "/text" if only_text else ""
        words, coarse = diff_words(sx["text"], sy["text"]) if text_changed else (None, False)
        self.add(kind, category, f"{key} changed ({who})", ctx, f"{pa}/{key}{suffix}", f"{pb}/{key}{suffix}",
                 before=sx["text"], after=sy["text"], words=words, details=details, coarsened=coarse)

    def _notes(self, key: str, x: dict[str, Any], y: dict[str, Any], ctx: dict[str, Any], pa: str, pb: str) -> None:
        xs, ys = x.get(key, []), y.get(key, [])
        if same([compact(n) for n in xs], [compact(n) for n in ys]):
            return
        steps = self._note_steps(key, xs, ys)
        base, category = {"tool_calls": ("tool", "tools"), "rag": ("rag", "context"), "recall": ("recall", "context"),
                          "other_notes": ("note", "notes")}[key]
        for op, i, j in steps:
            na = None if i is None else xs[i]
            nb = None if j is None else ys[j]
            p_a = None if i is None else f"{pa}/{key}/{i}"
            p_b = None if j is None else f"{pb}/{key}/{j}"
            if op == "pair" and same(compact(na), compact(nb)):
                continue
            if key == "recall" and (in_recall_scene(na) or in_recall_scene(nb)):
                continue  # reported as its scene's change (scene-added, -removed, -changed)
            if key == "recall" and not self._dedupe("recall", na, nb):
                continue
            label = tool_label if key == "tool_calls" else note_label
            if op == "del":
                self.add(f"{base}-removed", category, f"{kind_name(base, na)} removed: {label(na)}", ctx, p_a, None,
                         before=compact(na))
            elif op == "ins":
                fails = 1 if key == "tool_calls" and nb.get("status") == "error" else 0
                self.add(f"{base}-added", category, f"{kind_name(base, nb)} added: {label(nb)}", ctx, None, p_b,
                         after=compact(nb), new_failures=fails)
            elif key == "tool_calls":
                details = field_details(na, nb, _TOOL_FIELDS, ("arguments_text", "body"))
                fails = 1 if na.get("status") != "error" and nb.get("status") == "error" else 0
                parts = []
                fields = {d["field"] for d in details}
                if fields & {"status", "error"}:
                    parts.append(f"status {status_text(na)} → {status_text(nb)}")
                for d in details:
                    if d["field"] in ("status", "error"):
                        continue
                    if d["field"] in ("name", "actor"):
                        parts.append(f"{d['field']}: {shown(d['before'])} → {shown(d['after'])}")
                    else:
                        parts.append(f"{d['field']} changed")
                name = nb.get("name") or na.get("name") or "?"
                self.add("tool-changed", "tools", f"tool {name}: " + ", ".join(parts), ctx, p_a, p_b,
                         before=compact(na), after=compact(nb), details=details, new_failures=fails)
            else:
                details = field_details(na, nb, _NOTE_FIELDS, ("body",))
                self.add(f"{base}-changed", category, f"{kind_name(base, nb)} changed: {label(nb)}", ctx, p_a, p_b,
                         before=compact(na), after=compact(nb), details=details)

    def _note_steps(self, key: str, xs: list, ys: list) -> list[Step]:
        keys_a, keys_b = [canon(compact(n)) for n in xs], [canon(compact(n)) for n in ys]
        sim = tool_sim if key == "tool_calls" else note_sim
        return align(keys_a, keys_b, lambda i, j: sim(xs[i], ys[j]))

    # ---- patch
    def _record_patch(self, x: dict[str, Any], y: dict[str, Any], path: str, raw: dict[str, Any]) -> list[dict[str, Any]]:
        """The ops for a pair of turn records (normalised ``x``, ``y``; ``raw``: B's record as dumped)."""
        lists = ("tool_calls", "rag", "recall", "other_notes")
        last = lists + ("provenance",)  # (derived from the notes: its ops after theirs)
        ops = json_patch({k: v for k, v in x.items() if k not in last},
                         {k: v for k, v in y.items() if k not in last}, path, raw)
        for key in lists:
            xs, ys = x.get(key), y.get(key)
            if same(xs, ys):
                continue
            if not isinstance(xs, list) or not isinstance(ys, list):
                ops.extend(json_patch({key: xs} if key in x else {}, {key: ys} if key in y else {}, path, raw))
                continue
            ops.extend(list_patch(f"{path}/{key}", xs, ys, self._note_steps(key, xs, ys), json_patch, raw.get(key)))
        if not same(x.get("provenance"), y.get("provenance")):
            ops.extend(json_patch({k: x[k] for k in ("provenance",) if k in x},
                                  {k: y[k] for k in ("provenance",) if k in y}, path, raw))
        return ops

    def _patch(self, script: list[Step]) -> list[dict[str, Any]]:
        """A's normalised document → B's, the values carried taken from B's document as dumped."""
        na, nb, db = self.a.normalised, self.b.normalised, self.b.document
        ops = json_patch({k: v for k, v in na.items() if k != "records"},
                         {k: v for k, v in nb.items() if k != "records"}, "", db)
        ops.extend(list_patch("/records", self.ra, self.rb, script, self._record_patch, db["records"]))
        return ops

"""An INT. chat scene description without `Model:` or `Workspace:`.

## What it does
Reports an `INT. HARVEY AND USER TALKING` scene whose description (the action lines
after the heading) lacks `Model:` or `Workspace:`. `EXT.` scenes are exempt: their
description is `Harvey routing to ENDPOINT. Workspace: WS.`, with no model. A scene
with no description at all is reported in a whole session (a title page or `FADE IN:`:
what the recorder writes), at its heading; not in a fragment (the minimal excerpts in the
spec and in these docs). A description that is an unclosed `/*` boneyard is not reported
(F102 reports it).

## Why is this bad?
The description is the audit record of which model answered and in which directory it
could read and write files. The recorder writes
`Harvey and USER are in chat mode. Model: MODEL. Workspace: WS.` as the first element
of every INT. chat scene (the pipeline's return scene writes the client name,
`Model: Ollama (mistral:7b).`); a scene without it was hand-written or edited.

## Severity
Warning: the reply's cue still names who answered; the scene's context is incomplete.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

LLAMA
It declares package main.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

LLAMA
It declares package main.
```

## References
- FOUNTAIN_FORMAT.md §Required Elements, §Model Validation ("Scene missing Model:
  declaration"), Best Practice 1 (rules catalog C23, C24, C28)
- harvey-recorder-inventory.md §4 (`a_chat`; pipeline return scene `Model: <Client.Name()>`)
"""


from operator import methodcaller

from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "H106"
NAME = "missing-model-or-workspace"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = SESSION_LIKE
SCENE_KINDS = ("chat",)

# \bModel: and \bWorkspace:, written to start with their words (re then scans for them fast)
_MODEL_RE = lazy(r"Model:(?<!\wModel:)")
_WORKSPACE_RE = lazy(r"Workspace:(?<!\wWorkspace:)")


def check_scene(ctx, scene):
    # A session repeats one description in scene after scene: what it lacks is decided once a
    # text (the description as written), for the file.
    key = tuple(map(_render, scene.description))
    read = ctx.memo(CODE, _new_table)
    found = read.get(key)
    if found is None:
        found = read[key] = _lacking(scene.description)
    first, missing = found
    if first is None:
        if ctx.session.kind == "session" and not scene.description:
            h = scene.heading
            return (Finding(h.line, h.column, "INT. chat scene has no description: no 'Model:' or 'Workspace:' "
                            "recorded (the recorder writes 'Harvey and USER are in chat mode. Model: MODEL. "
                            "Workspace: WS.' after the heading)", h.line, h.column + len(h.lines[0])),)
        return None
    if not missing:
        return None
    where = scene.description[first]
    return (Finding(where.line, where.column, f"INT. chat scene description has no {missing} (the recorder "
                    "writes 'Harvey and USER are in chat mode. Model: MODEL. Workspace: WS.')",
                    where.line, where.column + len(where.lines[0])),)


_render = methodcaller("render")  # a node's source text


def _new_table(ctx) -> dict:
    return {}


def _lacking(description) -> tuple:
    """``(k, what)``: the index of the description's first paragraph that is not a boneyard
    comment (``None`` if there is none) and what the paragraphs that are not comments lack
    (``"'Model:' or 'Workspace:'"``, ``"'Model:'"``...; empty when they hold both)."""
    first = None
    texts = []  # the description's paragraphs that are not boneyard comments
    for k, a in enumerate(description):
        t = a.text
        if not t.lstrip().startswith("/*"):
            if first is None:
                first = k
            texts.append(t)
    if first is None:
        return None, ""
    text = texts[0] if len(texts) == 1 else "\n".join(texts)
    missing = [k for k, rx in (("Model:", _MODEL_RE), ("Workspace:", _WORKSPACE_RE)) if not rx.search(text)]
    return first, " or ".join(f"'{m}'" for m in missing)

"""A tool note that is not between HARVEY's forwarding line and the reply.

## What it does
Reports a `[[tool:]]` or `[[NAME.tool:]]` note that does not sit after HARVEY's
`Forwarding to NAME.` line and before NAME's reply, in a chat scene.

## Why is this bad?
Tool calls happen while the model works on the forwarded prompt, so Harvey writes them
after the forwarding line and before the reply. A tool note before the forwarding line
(or after the reply, or outside any turn) is attributed to the wrong exchange, and
readers that follow the spec miss it.

## Severity
Error: evidence misplaced: the tool call is attached to the wrong step of the turn.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

[[tool: read_file({"path":"a.go"}) — ok]]

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

[[tool: read_file({"path":"a.go"}) — ok]]

LLAMA
It declares package main.
```

## References
- FOUNTAIN_FORMAT.md §Tool Call Notes (v1.2); audit-trail-design W1 (rules catalog E38);
  case A03
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE, no_placement_to_judge
from fountain_audit.lint.rules import scene_phrase

CODE = "P102"
NAME = "tools-between-forward-and-reply"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE
NOTE_KINDS = ("tool",)


def check_note(ctx, p):
    rec = p.note
    scene = p.scene
    if scene is None or scene.info.kind not in ("chat", "ext-chat"):
        if scene is None and no_placement_to_judge(ctx.session):
            return None  # a design-doc excerpt of notes (a note in a scene always has its place judged)
        where = scene_phrase(p)
        return (Finding(rec.line, rec.column, f"tool note {where}; it belongs in a chat turn, "
                        "between HARVEY's forwarding line and the reply"),)
    elif p.turn is None:
        return (Finding(rec.line, rec.column, "tool note in a chat scene with no turn"),)
    elif p.turn.forwarding is None:
        return (Finding(rec.line, rec.column, "tool note in a turn with no 'Forwarding to NAME.' line from HARVEY"),)
    elif p.phase in ("before-user", "after-user"):
        return (Finding(rec.line, rec.column, "tool note before HARVEY's forwarding line "
                        f"(line {p.turn.forwarding.forwarding_line}); it belongs after it, before the reply"),)
    elif p.phase == "after-reply":
        return (Finding(rec.line, rec.column, f"tool note after the reply (line {p.turn.reply.line}); "
                        "it belongs between HARVEY's forwarding line and the reply"),)
    return None

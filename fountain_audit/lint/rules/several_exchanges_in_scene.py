"""A chat scene that holds more than one exchange.

## What it does
Reports (as information) a chat scene (`INT. HARVEY AND USER TALKING` or `EXT. …`)
with more than one turn: several user inputs, each with its own reply, in one scene, or
one input that HARVEY forwards to several models in turn (FOUNTAIN_FORMAT.md's multi-model
example: each forwarding and its reply is a turn; T106 accepts the later forwardings as
valid, and this rule counts them as exchanges). It is reported once per scene, at the
second turn.

## Why is this bad?
The recorder writes one scene per turn. Several exchanges in one scene come from
hand-written sessions and the spec's multi-model examples; they are valid Fountain,
but Harvey's own `--continue`/`--replay` reader kept only one turn per scene until
mid-2026 (fix 3cf6ac3), so older Harvey builds silently lose the other exchanges.

## Severity
Info: a shape the recorder writes; every exchange is read as its own turn.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

LLAMA
It declares package main.

ALICE
And in b.go?

HARVEY
Forwarding to LLAMA.

LLAMA
It declares package util.
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

INT. HARVEY AND ALICE TALKING 2026-06-24 10:03:00

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
And in b.go?

HARVEY
Forwarding to LLAMA.

LLAMA
It declares package util.
```

## References
- FOUNTAIN_FORMAT.md Best Practice 6; audit-trail-design §Scene model (rules catalog B19)
- replay_test.go 3cf6ac3 (two exchanges in one scene yield 2 turns; catalog F59);
  fountain-replay-turn-loss-design.md
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE
from fountain_audit.lint.rules.content_after_the_end import ends_followed_by_content

CODE = "T103"
NAME = "several-exchanges-in-scene"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = SESSION_LIKE
SCENE_KINDS = ("chat", "ext-chat")


def check_scene(ctx, scene):
    turns = scene.turns
    if len(turns) < 2:
        return None  # (a plain function, not a generator: it runs on every chat scene)
    ends = ends_followed_by_content(ctx)
    if ends:  # what follows 'THE END.' is not in the scene but after the session (S106)
        end = ends[0][0].line
        turns = [t for t in turns if t.line < end]
        if len(turns) < 2:
            return None
    second = turns[1]
    return (Finding(second.line, 1, f"chat scene (line {scene.line}) holds {len(turns)} exchanges; "
                    "Harvey writes one scene per turn, and older Harvey builds replay only one of them"),)

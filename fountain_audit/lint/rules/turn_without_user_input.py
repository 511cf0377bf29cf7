"""HARVEY forwards to a model in a chat scene before anyone has said anything.

## What it does
Reports the `Forwarding to NAME.` line of the first turn of an `INT.`/`EXT.` chat scene when
no one has spoken before it in the scene: the forwarded input is missing. When a paragraph
before it starts with the scene's human written in other capitals (`Alice` for `ALICE`),
the message points at it: Fountain reads a cue only in upper case, so the input was taken as
action text. A later forwarding in the same scene without new input (`@mistral review this,
then @claude give a second opinion`: one input, two models) is not reported (T103 counts
that scene's turns, as information: Harvey's reader before 3cf6ac3 kept one), nor a model's
reply without a forwarding line (the result of a chunk analysis or pipeline, injected into
the conversation).

## Why is this bad?
The recorder writes each chat turn as the human's dialogue, then HARVEY's forwarding line,
then the reply. A turn that starts at the forwarding line has lost its question: `dump
--turns`, `provenance` and `export` show a reply to nothing (`"user": null`), and the audit
trail no longer says who asked the model what. A cue in the wrong case hides the input as
stage direction; a deleted line or a hand edit loses it outright.

## Severity
Warning: the exchange is recorded, but not who started it or with what words.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

Alice
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
- harvey-recorder-inventory.md §7 (INT chat element order: USER · HARVEY forwarding ·
  notes · MODEL reply); FOUNTAIN_FORMAT.md §Character (cues are upper case), the
  multi-model example (two forwardings after one input)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.model.names import upper_ascii
from fountain_audit.lint.rules import SESSION_LIKE
from fountain_audit.parse.fountain import Action

CODE = "T106"
NAME = "turn-without-user-input"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = SESSION_LIKE
SCENE_KINDS = ("chat", "ext-chat")


def check_scene(ctx, scene):
    if not scene.turns:
        return None
    turn = scene.turns[0]
    fw = turn.forwarding
    if turn.user is not None or fw is None:
        return None
    line = fw.forwarding_line or fw.line
    column = 1
    hint = ""
    user = scene.user
    for n in scene.nodes:  # a paragraph before it opening with the human's name in other capitals
        if n.line >= fw.line:
            break
        if user and isinstance(n, Action):
            first = n.text.split("\n", 1)[0].strip()
            if first != user and upper_ascii(first) == upper_ascii(user):
                hint = (f"; '{first}' (line {n.line}) is read as action text, not as {user}'s cue: a cue is written "
                        "in upper case")
                break
    return (Finding(line, column, f"HARVEY forwards to {turn.target or 'a model'} but no one has spoken before it in "
                                  f"the scene: the forwarded input is missing{hint}"),)

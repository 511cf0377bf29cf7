"""A scene heading that is none of the kinds Harvey writes.

## What it does
Reports, in session files, a scene heading that is not a chat (`INT. HARVEY AND USER
TALKING TS`), EXT. (`EXT. ENDPOINT AND USER TS`), agent mode, shell, skill, context
recall, chunk analysis, pipeline, memory or hand-off heading. Headings inside a
speech (a reply, a prompt, shell output) are part of that text and are not reported.

## Why is this bad?
Readers classify scenes by their heading; an unknown heading's turns and notes are
ignored by Harvey's replay and by tools that follow the spec.

## Severity
Warning: the scene is read and kept, but no Harvey rule can check it.

## Example
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:

INT. SHELL 2026-06-24 10:02:30

ALICE
! ls

[[shell: ls — exit 0]]


INT. KITCHEN - NIGHT

ALICE
Hello?


THE END.
```

## Use instead
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:

INT. SHELL 2026-06-24 10:02:30

ALICE
! ls

[[shell: ls — exit 0]]


INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Hello?


THE END.
```

## References
- FOUNTAIN_FORMAT.md §Scene Types (v1.3) (rules catalog B15)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "H103"
NAME = "unknown-scene-kind"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = SESSION_LIKE
SCENE_KINDS = ("other",)


def check_scene(ctx, scene):
    h = scene.heading
    yield Finding(h.line, h.column, f"scene heading '{scene.info.place}' is not a Harvey scene kind",
                  h.end_line, h.end_column)

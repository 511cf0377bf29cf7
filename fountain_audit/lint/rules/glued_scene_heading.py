"""A scene heading glued to the end of a dialogue or action line.

## What it does
Reports a timestamped scene heading that starts inside a line, after other text:
`All done.INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00` (a line break the writer
dropped). The diagnostic points at the heading's column. fountain-audit ends the
dialogue (or action) there and starts the scene, so the next scene's description and
turns are not absorbed into the reply.

## Why is this bad?
Every other Fountain reader sees no scene heading there: the next scene disappears
into the previous reply, together with its description, its turns and its notes.

## Severity
Warning: fountain-audit starts the scene at the heading, so nothing is lost here; other readers lose the scene.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
Hello?

LLAMA
Hello, Alice. All done.INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00

ALICE
Thanks.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
Hello?

LLAMA
Hello, Alice. All done.

INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00

ALICE
Thanks.
```

## References
- Fountain 1.1 §Scene Headings (a heading is a line of its own, with a blank line before it)
- harvey-recorder-inventory.md §1 (the recorder writes a blank line before each heading)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS

CODE = "H107"
NAME = "glued-scene-heading"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ALL_KINDS


def check(ctx):
    for scene in ctx.session.scenes:
        h = scene.heading
        if h.glued:
            yield Finding(h.line, h.column, "scene heading glued to the end of the line before it (a dropped line "
                          "break); the scene starts here and the text before it ends there", h.end_line, h.end_column)

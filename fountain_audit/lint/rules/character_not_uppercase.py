"""A character cue that is not upper case.

## What it does
Reports a character cue with lower-case letters, i.e. a cue forced with `@`
(`@Alice`). Lines a model wrote inside its reply that happen to look like cues are part
of the reply and are not checked.

## Why is this bad?
The recorder upper-cases every character it writes (the user, HARVEY, models, routed
endpoints, SHELL, skills). A mixed-case cue was written by hand; readers that compare
cues with the title page's `Author:`, the forwarding line or the scene heading, and
Harvey's own parser, which only knows upper-case cues, misattribute or drop the line.

## Severity
Warning: the speaker is recorded; only the recorder's casing is not followed.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

@Llama
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
- FOUNTAIN_FORMAT.md §Dialogue Rules, §Character Validation ("Character name not
  uppercase: {name}"; rules catalog D29)
- harvey-recorder-inventory.md §1 (`writeDialogue` writes `UPPER(char)`), §5
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "T104"
NAME = "character-not-uppercase"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = SESSION_LIKE


def check_scene(ctx, scene):
    found = None  # (a list made only for a scene with a finding: a plain function, not a generator)
    for sp in scene.speeches:
        name = sp.dialogue.character
        if name.isupper() or not any(c.islower() for c in name):
            continue
        cue = sp.dialogue.cue
        if found is None:
            found = []
        found.append(Finding(sp.line, sp.column, f"character cue '{name}' is not upper case "
                             f"(write '{name.upper()}')", sp.line, sp.column + len(cue.rstrip("\r\n"))))
    return found

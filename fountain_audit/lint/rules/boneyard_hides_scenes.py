"""A `/* … */` boneyard that runs across scene headings Harvey writes, hiding recorded scenes.

## What it does
Reports a boneyard in a session file whose text holds a line that reads as a scene heading of a
Harvey kind (`INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30`, `INT. CONTEXT RECALL …`,
`EXT. …`): the comment opened in one scene and closed in a later one. Reported at its `/*`,
naming the first heading it hides and how many.

## Why is this bad?
Harvey's recorder never writes `/*`: a boneyard in a session comes from a reply's text (written
verbatim) or a hand edit. Fountain readers, Harvey's and ours, drop everything inside it, so the
scenes, turns and audit notes it spans vanish from `dump`, `provenance`, `export` and the report
without a trace: a reply ending in `/* draft:` and a later reply starting with `*/` hide the turn
between them (its user input and its `[[tool: run_shell(…)]]`), and lint, reading the file as
Fountain does, had nothing to say.

## Severity
Error: recorded scenes are hidden from every reader of the audit trail.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Plan it.

HARVEY
Forwarding to LLAMA.

LLAMA
Here is a plan.

/* draft:

INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Delete the old build.

HARVEY
Forwarding to LLAMA.

[[tool: run_shell({"cmd":"rm -rf build"}) — ok]]

LLAMA
*/ Done.
```

## Use instead
```fountain
LLAMA
Here is a plan.

/* draft: */

INT. HARVEY AND ALICE TALKING 2026-06-24 10:05:00
```

## References
- Fountain 1.1 §Boneyard; harvey-recorder-inventory.md §1 (replies written verbatim), §7 (the
  headings the recorder writes)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE
from fountain_audit.parse.fountain import Boneyard
from fountain_audit.parse.lexer import split_lines

CODE = "F104"
NAME = "boneyard-hides-scenes"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE

#: The starts of a Harvey scene heading's line (after a line break; the recorder writes `INT.`/`EXT.`,
#: a lower-case one is read too): the cheap test before reading the boneyard's lines.
_STARTS = tuple(eol + word for eol in ("\n", "\r") for word in ("INT", "EXT", "I/E", "int", "ext"))


def check(ctx):
    if "/*" not in ctx.text:
        return
    from fountain_audit.model.session import is_harvey_heading, read_heading
    text = ctx.text
    for node in ctx.document.children:
        if not isinstance(node, Boneyard):
            continue
        start, end = node.offset, node.end_offset
        if not any(text.find(s, start, end) >= 0 for s in _STARTS):
            continue
        hidden = []
        # (lines as the lexer reads them: a CR-only file's too, where F104 missed every one, adversarial trial)
        for k, (line, _) in enumerate(split_lines(text[start:end])[1:], 1):
            stripped = line.strip()
            if stripped[:3].upper() in ("INT", "EXT", "I/E") and is_harvey_heading(read_heading(stripped)):
                hidden.append((node.line + k, stripped))
        if hidden:
            line, heading = hidden[0]
            more = f" and {len(hidden) - 1} more" if len(hidden) > 1 else ""
            yield Finding(node.line, node.column,
                          f"boneyard hides the scene heading at line {line} ('{heading[:60]}'){more}: the scenes, "
                          "turns and notes inside it are read by no reader (Harvey never writes /*: a reply's text "
                          "or a hand edit)", node.line, node.column + 2)

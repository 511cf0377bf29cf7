"""A `[[NAME.tool:]]` note whose NAME is not a model of its turn.

## What it does
Reports a tool note with a character prefix (`[[MISTRAL.tool: …]]`) when the prefix
names neither the model HARVEY forwarded the turn to (`Forwarding to NAME.`) nor the
character that replied.

## Why is this bad?
The prefix says which model called the tool. Harvey writes it on a local @mention
turn, where that model both receives the forwarded prompt and replies. A prefix that
names someone else attributes the tool call to a model that took no part in the
exchange, so the audit trail no longer says who did what. (Harvey writes the
upper-cased @mention name; an alias can differ from the model's character name, which
is why this is a warning.)

## Severity
Warning: the tool call may be misattributed, but an @mention alias can differ from the model's character name.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: MISTRAL. Workspace: /tmp/ws.

ALICE
review main.go

HARVEY
Forwarding to MISTRAL.

[[LLAMA.tool: read_file({"path":"main.go"}) — ok]]

MISTRAL
It looks fine.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: MISTRAL. Workspace: /tmp/ws.

ALICE
review main.go

HARVEY
Forwarding to MISTRAL.

[[MISTRAL.tool: read_file({"path":"main.go"}) — ok]]

MISTRAL
It looks fine.
```

## References
- FOUNTAIN_FORMAT.md §Tool Call Notes (`CHARACTER.tool:`); audit-trail-design W4
  (rules catalog E39); harvey-recorder-inventory.md §6 (`n_tool`)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.model.names import upper_ascii
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N105"
NAME = "tool-actor-not-participant"
SEVERITY = Severity.WARNING
SINCE = "1.2"
SCOPE = SESSION_LIKE


def check_turn(ctx, turn, scene):
    for _, rec in turn.notes:
        if rec.actor is not None and rec.kind == "tool":
            break
    else:
        return None  # no tool note names an actor (a plain function, not a generator: it runs on every turn)
    names = []
    if turn.target:
        names.append(turn.target)
    if turn.reply is not None:
        names.append(turn.reply.character)
    if not names:
        return None  # nothing to compare with (no forwarding line, no reply)
    known = {upper_ascii(n) for n in names}  # (ASCII only: a prefix ſtar is not STAR)
    found = []
    for _, rec in turn.notes:
        if rec.kind != "tool" or rec.actor is None or upper_ascii(rec.actor) in known:
            continue
        parts = []
        if turn.target:
            parts.append(f"HARVEY forwards the turn to {turn.target}")
        if turn.reply is not None:
            parts.append(f"{turn.reply.character} replies")
        found.append(Finding(rec.line, rec.column, f"tool note names {rec.actor}, but {' and '.join(parts)}; "
                             "the prefix should name the model that called the tool",
                             rec.node.end_line, rec.node.end_column))
    return found

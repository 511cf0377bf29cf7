"""A pre-v1.2 `Harvey calls NAME: ARGS` action line instead of a tool note.

## What it does
Reports the action lines Harvey wrote for tool calls before format v1.2
(`Harvey calls read_file: {"path":"a.go"}`, `Harvey calls list_files`), between
HARVEY's forwarding line and the reply, and shows the v1.2 note that replaces each.

## Why is this bad?
Since v1.2 a tool call is recorded as a `[[tool: NAME(ARGS) — ok]]` note, which also
records whether the call succeeded. The prose form is plain action text: tools that
read the audit trail (and the placement and argument rules) do not see it as a tool
call, and the outcome of the call was never recorded. Re-record the session, or
rewrite the lines as notes (with the real status if it is known).

## Severity
Info (was warning): a form the recorder itself wrote (88504ea–cf4aa0d); the call is read (`form: prose`), its status was never recorded.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

Harvey calls read_file: {"path":"a.go"}

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
- harvey-recorder-inventory.md §4 (`a_tool_prose`, 88504ea–cf4aa0d only) and §6
  (`n_tool`, since cf4aa0d); FOUNTAIN_FORMAT.md §Tool Call Notes (v1.2)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.model.session import PROSE_TOOL_CALL_RE
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "L101"
NAME = "legacy-prose-tool-call"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = SESSION_LIKE


def check_turn(ctx, turn, scene):
    calls = turn.prose_tool_calls
    if not calls:
        return None  # (most turns: no generator is made for them)
    return _findings(calls)


def _findings(calls):
    """The findings of a turn's pre-v1.2 prose tool calls (``calls``: its action lines)."""
    for action in calls:
        m = PROSE_TOOL_CALL_RE.match(action.text)
        if m is None:
            continue
        name, args = m.group("name"), (m.group("args") or "").strip()
        yield Finding(action.line, action.column, f"pre-v1.2 prose tool call 'Harvey calls {name}'; "
                      f"since v1.2 it is a note: [[tool: {name}({args}) — ok]] (or '— error: MESSAGE')",
                      action.end_line, action.end_column)

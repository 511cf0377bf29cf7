"""An `@name` mention that nobody by that name answered.

## What it does
Reports (as information), so that audits see the unanswered mention:

- a scene description line `(@name mentioned but does not respond)`, the spec's note
  for an unfulfilled mention;
- in an `INT.` chat scene, a user input starting with `@name` where HARVEY does not
  forward to NAME, NAME does not reply and no `[[NAME.tool:]]` note is written
  (compared case-insensitively). A scene that already carries the description line
  for that name is reported once, at the description line.

`EXT.` scenes are not checked: there `@name` is the route, and H104 checks the
routing line.

## Why is this bad?
A mention asks a specific model or endpoint to answer. When someone else answers (or
nobody does), the transcript shows a question addressed to a party that never saw it:
an auditor should know. Harvey's recorder strips the `@name` of a local mention switch
from the input (and forwards to that model), so in its INT. scenes a leading `@name`
only survives in pre-v1.2 route dispatch (f94bc8d–cf4aa0d), where the reply was
attributed to the session model instead of the endpoint.

## Severity
Info: a shape the recorder writes when a mentioned model does not answer; nothing is lost.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
@pi2 What is in a.go?

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
- FOUNTAIN_FORMAT.md §Scene Description, Best Practice 5, Example 5, Scenario 5 (rules
  catalog C26; never written by the recorder)
- harvey-recorder-inventory.md §4 (`a_unfulfilled`), §5 (local @mention switch strips
  `@name`: terminal.go `input = prompt`), §0 (f94bc8d: route dispatch recorded INT.,
  reply attributed to the session model, until cf4aa0d)
"""


from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.model.names import upper_ascii
from fountain_audit.parse.fountain import LineToken
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "T105"
NAME = "unfulfilled-mention"
SEVERITY = Severity.INFO
SINCE = "1.0"
SCOPE = SESSION_LIKE

_NOTED_RE = lazy(r"^\s*\(@(?P<name>[^\s()]+) mentioned but does not respond\)\s*$")
_MENTION_RE = lazy(r"^(?P<lead>\s*)@(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)")


def _first_text_token(speech):
    """The first line token under the cue that is not a parenthetical, when it holds an ``@``."""
    d = speech.dialogue
    if d.src.find("@", d.offset, d.end_offset) < 0:
        return None  # (a cheap test before the tokens)
    for i in range(1, d.part_count):
        if d.part_type(i) != "PARENTHETICAL":
            a, b = d.part_span(i)
            return LineToken.of(d.src, d.parts[i]) if d.src.find("@", a, b) >= 0 else None
    return None


def check(ctx):
    for scene in ctx.session.scenes:
        if scene.info.kind not in ("chat", "ext-chat"):
            continue
        noted = set()
        for action in scene.description:
            if action.src.find("(@", action.offset, action.end_offset) < 0:
                continue  # (a cheap test before the lines)
            for k, line in enumerate(action.lines):
                m = _NOTED_RE.match(line) if "(@" in line else None
                if m:
                    name = m.group("name")
                    noted.add(upper_ascii(name.rstrip(".")))
                    col = (action.column if k == 0 else 1) + len(line) - len(line.lstrip())
                    yield Finding(action.line + k, col, f"@{name} is mentioned but does not respond",
                                  action.line + k, col + len(line.strip()))
        if scene.info.kind != "chat":
            continue
        for turn in scene.turns:
            if turn.user is None:
                continue
            tok = _first_text_token(turn.user)
            m = _MENTION_RE.match(tok) if tok is not None else None
            if not m:
                continue
            name = m.group("name").rstrip(".")
            key = upper_ascii(name)  # (names compared in ASCII capitals: @ſtar is not STAR)
            if key in noted:
                continue
            answered = {upper_ascii((turn.target or "").strip())}
            if turn.reply is not None:
                answered.add(upper_ascii(turn.reply.character.strip()))
            answered.update(upper_ascii(n.actor or "") for n in turn.tool_calls)
            if key in answered:
                continue
            who = f"HARVEY forwards to {turn.target}" if turn.target else "nobody forwards to it"
            by = f", {turn.reply.character} replies" if turn.reply is not None else ""
            col = tok.column + len(m.group("lead"))
            yield Finding(tok.line, col, f"@{name} is mentioned but does not respond ({who}{by})",
                          tok.line, col + 1 + len(m.group("name")))

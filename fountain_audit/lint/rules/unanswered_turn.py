"""A chat turn with user input and no reply.

## What it does
Reports a turn in a chat scene where the user spoke, HARVEY forwarded the input (or
the user spoke again in the same scene), but no model (and not HARVEY directly)
replied. Not reported:

- the last turn of a file without `THE END.`: the session crashed or is still being
  written (`S104 missing-the-end` covers it);
- a model's empty reply, which the recorder writes as a lone cue line (`LLAMA` with no
  text, read as an action);
- the user's `yes`/`no`/`all`/`quit`/`auto` answer to a HARVEY prompt;
- a user line with neither a forwarding line nor a reply that ends its scene (how
  hand-written excerpts end; the recorder never writes one).

When a paragraph after the forwarding line starts with the model's name in other capitals
(`Gemma3` for `GEMMA3`, with or without an extension such as `Gemma3 (cont.)`), the message
points at it: Fountain reads a cue only in upper case, so the reply was taken as action text.

## Why is this bad?
The recorder writes the user's input, HARVEY's forwarding line and the reply in one go
when the turn completes, so a closed session never holds a question without an answer.
A missing reply means the scene was cut or edited, and the audit trail cannot show what
the model answered.

## Severity
Warning: what was recorded is intact; the reply is simply missing.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

INT. HARVEY AND ALICE TALKING 2026-06-24 10:03:00

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

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
```

## References
- harvey-recorder-inventory.md §7 (INT chat element order: USER · HARVEY forwarding ·
  notes · MODEL reply), §1 (append-only writes; a crashed session has no `THE END.`)
- rules catalog A7; recorder `RecordTurnWithStats` writes all three dialogues together
"""

from bisect import bisect_left, bisect_right
from operator import itemgetter

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.model.names import upper_ascii
from fountain_audit.parse.fountain import Action
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "T102"
NAME = "unanswered-turn"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = SESSION_LIKE

_CHOICES = frozenset({"yes", "no", "all", "quit", "auto"})
_LINE = itemgetter(0)


def _actions_after_forwarding(actions, turn, next_line):
    """The ``(line, action)`` pairs of ``actions`` (a scene's action paragraphs with their lines,
    in order) after the turn's forwarding line and before ``next_line`` (the next turn's line, or
    ``None``), found by bisection: a scene of many unanswered turns is read once, not once a turn."""
    lo = bisect_right(actions, turn.forwarding.end_line, key=_LINE)
    hi = len(actions) if next_line is None else bisect_left(actions, next_line, lo, key=_LINE)
    return actions[lo:hi]


def _empty_reply(actions, turn, next_line):
    """Is there a lone cue line (``LLAMA`` read as an action) after the forwarding line?"""
    target = upper_ascii((turn.target or "").strip())
    return bool(target) and any(upper_ascii(n.text.strip()) == target
                                for _, n in _actions_after_forwarding(actions, turn, next_line))


def _cue_name(line: str) -> str:
    """The name part of a line written as a cue: without a dual-dialogue ``^`` and without the
    extensions in parentheses that end it (``Gemma3 (cont.)`` → ``Gemma3``), as the lexer reads
    a cue."""
    s = line[:-1].rstrip() if line.endswith("^") else line
    paren = s.find("(")
    return s[:paren].rstrip() if paren > 0 and s.endswith(")") else s


def _cue_in_other_capitals(actions, turn, next_line):
    """The first line of an action paragraph after the forwarding line that is the target's
    name in other capitals (``Gemma3`` or ``Gemma3 (cont.)`` for ``GEMMA3``: the reply read as
    action text), and its line, else ``None``."""
    target = (turn.target or "").strip()
    if not target:
        return None
    for line, n in _actions_after_forwarding(actions, turn, next_line):
        first = n.text.split("\n", 1)[0].strip()
        name = _cue_name(first)
        if name != target and upper_ascii(name) == upper_ascii(target):
            return first, line
    return None


def check(ctx):
    session = ctx.session
    turns = session.turns
    last = turns[-1] if turns else None
    for scene in session.scenes:
        actions = None  # the scene's action paragraphs with their lines, once a turn needs them
        for k, turn in enumerate(scene.turns):
            if turn.user is None or turn.reply is not None:
                continue
            if turn is last and session.the_end is None:
                continue  # crashed or still running: S104
            if turn.forwarding is None and turn.user.text.strip().lower() in _CHOICES:
                continue  # the user's answer to a HARVEY prompt
            nxt = scene.turns[k + 1].line if k + 1 < len(scene.turns) else None
            if turn.forwarding is None and nxt is None:
                continue  # a lone user line ending the scene
            if turn.forwarding is not None:
                if actions is None:
                    actions = [(n.line, n) for n in scene.nodes if isinstance(n, Action)]
                if _empty_reply(actions, turn, nxt):
                    continue
            u = turn.user
            after = f" (forwarded to {turn.target}, line {turn.forwarding.forwarding_line})" if turn.target else ""
            cue = _cue_in_other_capitals(actions, turn, nxt) if turn.forwarding is not None else None
            if cue is not None:
                after += (f"; '{cue[0]}' (line {cue[1]}) is read as action text, not as {turn.target}'s cue: a cue is "
                          "written in upper case")
            yield Finding(u.line, u.column, f"{u.character}'s input has no reply{after}",
                          u.line, u.column + len(u.dialogue.cue.rstrip("\r\n")))

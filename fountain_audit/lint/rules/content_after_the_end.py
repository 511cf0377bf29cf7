"""Content after a `THE END.` that closes the session.

## What it does
Reports a `THE END.` line (an action or transition on its own, not part of anyone's
dialogue) that is followed by more elements: scenes, notes, dialogue or actions.
Blank lines and boneyard comments after it are fine.

## Why is this bad?
The recorder writes `THE END.` once, when the session closes, and never writes after
it; readers take it as the end of the session and stop there. Anything after it was
appended by hand or by a second recording into the same file, and is not part of the
session readers see.

`THE END.` with text on the very next line (no blank line between) is read by Fountain
as a character cue, a speaker named `THE END.`: it is reported too, the content being the
line under it; so is `THE END.` followed by a line of spaces only and more text (one action
paragraph to Fountain: such a line does not end it).

A reply may contain a `THE END.` line (the recorder writes replies verbatim); that
line belongs to the reply and is not reported. A `THE END.` paragraph directly after
a reply is read as part of the reply, so it is not reported either.

## Severity
Error: Harvey's reader stops at `THE END.`, so what follows is lost to it.

## Example
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:

THE END.

INT. SHELL 2026-06-24 10:05:00

ALICE
! ls

SHELL
a.go

[[shell: ls — exit 0]]

THE END.
```

## Use instead
```fountain
Title: Harvey Session
Author: ALICE

FADE IN:

INT. SHELL 2026-06-24 10:05:00

ALICE
! ls

SHELL
a.go

[[shell: ls — exit 0]]

THE END.
```

## References
- FOUNTAIN_FORMAT.md §Session End (rules catalog A7: `THE END.` exact, at end)
- harvey-recorder-inventory.md §1 (`Close` writes `\\nTHE END.\\n`, append-only; replies
  may contain `THE END.`)
"""

import re

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.parse.fountain import Action, Blank, Boneyard, Dialogue, Transition

CODE = "S106"
NAME = "content-after-the-end"
SEVERITY = Severity.ERROR
SINCE = "1.0"
SCOPE = ("session",)


def ends_followed_by_content(ctx) -> list:
    """``(marker, node)`` for each ``THE END.`` of the session (outside any speech) that more
    content follows, ``node`` the first such content (blank lines and boneyards skipped); found
    once per file. S106 reports them; S104, S108 and T103 leave what follows to S106."""
    return ctx.memo(NAME, _ends_followed_by_content)


def _ends_followed_by_content(ctx) -> list:
    text = ctx.text
    at = text.find("THE END")
    if at < 0:
        return []
    body = ctx.document.body
    absorbed = None  # built only when a candidate needs it
    last = -1
    out = []
    while at >= 0:  # the nodes holding the text `THE END`, in order: the candidate markers
        k = ctx.body_at(at)
        at = text.find("THE END", at + 1)
        if k <= last:
            continue
        last = k
        marker = body[k]
        if isinstance(marker, Dialogue):  # `THE END.` with text on the next line: Fountain's cue
            if marker.part_count < 2 or marker.part_text(0).strip() != "THE END.":
                continue
            node = _Line(marker._lines.position(marker.part_span(1)[0])[0])
        elif isinstance(marker, Action) and _first_line(marker.text).strip() == "THE END." \
                and marker.text.strip() != "THE END.":  # `THE END.` then a line of spaces and more: one paragraph
            lines = _LINE_END_RE.split(marker.text)
            node = _Line(marker.line + next(k for k, x in enumerate(lines) if k and x.strip()))
        elif isinstance(marker, (Action, Transition)) and "THE END" in marker.part_text(0) \
                and marker.text.strip() == "THE END.":
            node = None  # what follows the marker, blank lines and boneyards skipped
            for j in range(k + 1, len(body)):
                if not isinstance(body[j], (Blank, Boneyard)):
                    node = body[j]
                    break
            if node is None:
                continue
        else:
            continue
        if absorbed is None:
            absorbed = {id(n) for sc in ctx.session.scenes for sp in sc.speeches for n in sp.continuation}
        if id(marker) not in absorbed:  # else part of a reply (or other speech), written verbatim
            out.append((marker, node))
    return out


_LINE_END_RE = re.compile(r"\r\n|\r|\n")


def _first_line(text: str) -> str:
    """``text`` up to its first line end (Fountain's: LF, CRLF or CR)."""
    return _LINE_END_RE.split(text, 1)[0]


class _Line:
    """Where the content after a `THE END.` cue starts (the line under it, in the same node)."""

    __slots__ = ("line",)

    def __init__(self, line: int) -> None:
        self.line = line


def check(ctx):
    for marker, node in ends_followed_by_content(ctx):
        if isinstance(marker, Dialogue):  # the cue line only: what follows it is the content
            message = (f"'THE END.' is followed by more content (line {node.line}, with no blank line "
                       "between: read as a speaker named 'THE END.'); nothing may follow the end of a session")
            yield Finding(marker.line, marker.column, message, marker.line, len(marker.part_text(0).rstrip("\r\n")) + 1)
        elif isinstance(node, _Line):  # `THE END.`, a line of spaces, more: one action paragraph
            message = (f"'THE END.' is followed by more content (line {node.line}, after a line of spaces only, "
                       "which does not end a paragraph); nothing may follow the end of a session")
            yield Finding(marker.line, marker.column, message, marker.line, len(_first_line(marker.text)) + 1)
        else:
            yield Finding(marker.line, marker.column, f"'THE END.' is followed by more content "
                          f"(line {node.line}); nothing may follow the end of a session",
                          marker.end_line, marker.end_column)

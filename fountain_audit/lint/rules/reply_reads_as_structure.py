"""A line in a reply that other Fountain readers take as screenplay structure.

## What it does
Looks at what a model, user, shell or skill wrote after a blank line inside its speech
(Harvey records it verbatim) and reports each paragraph that a Fountain reader does not
take as part of the speech: a scene heading (`INT. …`, `EXT. …`, `.FORCED`), a
character cue followed by text, a transition (`CUT TO:`), the end marker `THE END.`, and
sections (`#`), synopses (`=`), lyrics (`~`), page breaks (`===`) and centered text
(`> … <`). fountain-audit keeps these in the speech; other readers do not. (A heading of
a Harvey scene kind that is only not in upper case, like the spec's
`INT. CHUNK ANALYSIS — report.md …`, is taken as the scene it names and not reported.)

## Why is this bad?
Harvey's own reader (`--continue`, `--replay`, `/session show`) and other Fountain tools
read the file as a screenplay: a scene heading in a reply starts a new scene (the rest of
the reply and the turn are lost, the session is split), a cue starts a new speaker whose
text replaces the reply, `THE END.` stops reading altogether (everything after it is
truncated), and the other elements are cut out of the reply. The recorder writes replies
verbatim, so this is not the recorder's fault, but the session will not read back as it
was recorded; indent the line or keep it in the same paragraph as the text before it.

## Severity
Warning: fountain-audit reads the reply whole; other Fountain readers split it.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
How should the scene start?

HARVEY
Forwarding to LLAMA.

LLAMA
Open with a location line:

EXT. HARBOUR - NIGHT
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
How should the scene start?

HARVEY
Forwarding to LLAMA.

LLAMA
Open with a location line:
EXT. HARBOUR - NIGHT
```

## References
- harvey-readers.md §1 (scene-heading false positives, `#`/`=`/`~` lines, exact
  `THE END.` stops parsing); harvey-recorder-inventory.md §1 (replies written verbatim);
  rules catalog A10 (blank lines inside dialogue)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.parse.fountain import (Action, Centered, Dialogue, Lyrics, PageBreak, SceneHeading, Section, Synopsis,
                        Transition)
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "R101"
NAME = "reply-reads-as-structure"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = SESSION_LIKE

_END = frozenset({"THE END.", "THE END"})
_LOST = "Harvey's reader cuts it out of the text, splitting the speech there"
_WHAT = [
    (SceneHeading, "a scene heading",
     "Harvey's reader starts a new scene there, splitting the session (the rest of the speech, and of the "
     "turn, is lost to --continue/--replay)"),
    (Dialogue, "a character cue",
     "Harvey's reader takes it as a new speaker, splitting the speech (a new speaker's text can replace the reply)"),
    (Transition, "a transition", "Harvey's reader ends the speech there, splitting it"),
    (Section, "a section heading", _LOST),
    (Synopsis, "a synopsis", _LOST),
    (Lyrics, "a lyric", _LOST),
    (PageBreak, "a page break", _LOST),
    (Centered, "centered text", _LOST),
]


_THE_END = ("the end marker",
            "Harvey's reader stops reading there, truncating the session (everything after it is lost)")
_BY_CLASS: dict = {}  # node class -> (what, effect), _THE_END's test (Action) or None; decided once
_PLAIN: set = set()  # node classes that never read as structure (most continuation nodes: blank runs)


def _class_of(cls):
    if issubclass(cls, Action):
        return Action
    return next(((what, effect) for base, what, effect in _WHAT if issubclass(cls, base)), None)


def _classify(node):
    cls = node.__class__
    found = _BY_CLASS.get(cls, False)
    if found is False:
        found = _BY_CLASS[cls] = _class_of(cls)
        if found is None:
            _PLAIN.add(cls)
    if found is Action:  # the end marker only (a cheap look for its words before the text)
        src = node.src
        if src.find("THE END", node.offset, node.end_offset) >= 0 and node.text.strip() in _END:
            return _THE_END
        return None
    return found


def _first_line(node) -> str:
    """The node's first line without its terminator (``node.lines[0]``, without splitting the rest)."""
    src, a, b = node.src, node.offset, node.end_offset
    e = src.find("\n", a, b)
    r = src.find("\r", a, b if e < 0 else e)
    return src[a:r if r >= 0 else e if e >= 0 else b]


def check_scene(ctx, scene):
    """The findings of ``scene``'s speeches, a list, or ``None`` (most scenes have none: no
    generator is made and resumed for them)."""
    plain = _PLAIN
    found = None
    for speech in scene.speeches:
        for node in speech.continuation:
            if node.__class__ in plain:
                continue
            what = _classify(node)
            if what is not None:
                if found is None:
                    found = []
                found.append(_finding(ctx, speech, node, what))
    return found


def _finding(ctx, speech, node, what_effect) -> Finding:
    """The finding for ``node``, a paragraph of ``speech`` that reads as ``(what, effect)``."""
    what, effect = what_effect
    line0 = _first_line(node)
    first = line0.strip()
    shown = first if len(first) <= 60 else first[:57] + "..."
    line, column = ctx.document.line_index.position(node.offset)
    return Finding(line, column, f"{speech.character}'s text has a line that reads as "
                   f"{what} ('{shown}'); {effect}", line, column + len(line0))

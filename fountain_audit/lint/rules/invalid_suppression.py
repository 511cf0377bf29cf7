"""A `/* fountain-audit: ... */` suppression comment that cannot be read or cannot apply.

## What it does
Reports a boneyard that starts with `fountain-audit:` but is not one of
`disable=RULES`, `enable[=RULES]`, `disable-next=RULES` or `disable-file[=RULES]`, or
that names no rule that exists (a list that names known rules too applies them, and the
unknown names are reported; an `=` with no rule after it is ignored), or that cannot apply where it stands: in text a speech
may have written (a speech is recorded verbatim, so such a comment is session text: a reply's
text runs on to the next scene heading of a Harvey kind, past a `CUT TO:`, a stats line, a note
or a cue it may have written; the user's input to HARVEY's forwarding line; a skill's text from
the paragraph after Harvey's first line), not after a blank line (it goes on from the line
above, whose text it may be), or a `disable-file` after the first scene heading (a reply may
have written it, and `THE END.` before it). An `enable` applies anywhere.
A comment on the line right after a cue is the first line of that cue's dialogue, the speech's
text. Outside a speech, it also reports a comment with text before it on its line (`Some action /*
fountain-audit: disable */`): it is part of that element's text, not a directive; and one that
starts like a directive in other capitals or with another separator (`/* FOUNTAIN-AUDIT: …`,
`/* fountain_audit: …`), which is read as no directive.

## Why is this bad?
A suppression that is silently ignored lets the diagnostic it was meant to silence
through, or, worse, a typo hides nothing while the reader believes it does. One inside a
speech may have been written by the model the session records: applied, a reply could
switch off the checks of its own file (the secret rule for the tool note after it).

## Severity
Warning: fountain-audit's own comments, not the audit trail; the suppression the writer meant does not apply.

## Example
```fountain
/* fountain-audit: disable=no-such-rule */

INT. SHELL 2026-06-24 10:02:30

ALICE
! ls
```

## Use instead
```fountain
INT. SHELL 2026-06-24 10:02:30

ALICE
! ls
```

## References
- fountain-audit suppression comments (README, "Suppressing diagnostics")
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import ALL_KINDS

CODE = "A102"
NAME = "invalid-suppression"
SEVERITY = Severity.WARNING
SINCE = "1.0"
SCOPE = ALL_KINDS


def check(ctx):
    from fountain_audit.lint.suppressions import near_directive_in
    if "fountain-audit:" not in ctx.text and not near_directive_in(ctx.text):
        return  # no suppression comment at all (nor one in other capitals)
    from fountain_audit.lint.suppressions import directives, mid_line
    session = ctx.session
    found = directives(ctx.document, session.speech_boneyards(), session.scenes_span())
    for d in found:  # (a list of known and unknown rules applies the known: the others said)
        if not d.error and d.unknown:
            yield Finding(d.line, d.column, f"in a suppression comment: {d.unknown}", d.end_line, d.end_column)
    found = [d for d in found if d.error]
    speech_nodes = {n.offset for scene in session.scenes for sp in scene.speeches for n in sp.nodes}
    found += mid_line(ctx.document, speech_nodes)
    for d in found:
        yield Finding(d.line, d.column, f"suppression comment ignored: {d.error}", d.end_line, d.end_column)
    yield from _opening_a_dialogue(ctx)


def _opening_a_dialogue(ctx):
    """The comment on the line right after a cue (``ALICE`` / ``/* fountain-audit: … */``), which
    is the first line of that cue's dialogue: the speech's own text, never a directive. Every
    dialogue of the file is looked at (a dual dialogue's ``BOB ^``, one before any scene heading)."""
    from fountain_audit.lint.suppressions import starts_directive
    from fountain_audit.parse.fountain import Dialogue
    from fountain_audit.parse.lexer import split_lines
    text_of = ctx.text
    for node in ctx.document.children:
        if type(node) is not Dialogue:
            continue
        raw = text_of[node.offset:node.end_offset]
        if "fountain-audit:" not in raw:
            continue
        lines = split_lines(raw)  # (as the lexer reads them: the cue's line, the dialogue's first line...)
        if len(lines) < 2:
            continue
        text = lines[1][0]
        at = len(text) - len(text.lstrip(" \t"))
        if not starts_directive(text, at):
            continue
        yield Finding(node.line + 1, at + 1, "suppression comment ignored: it is the first line of the dialogue "
                      "of the cue above it (the speech's own text, which a model or the user may have written); a "
                      "directive stands after a blank line", node.line + 1, len(text) + 1)

"""A `/* fountain-audit: ... */` suppression comment that cannot be read or cannot apply.

## What it does
Reports a boneyard that starts with `fountain-audit:` but is not one of
`disable=RULES`, `enable[=RULES]`, `disable-next=RULES` or `disable-file[=RULES]`, or
that names a rule that does not exist, or that sits inside a speech (between a cue and
what ends its speech, a `disable-next` right before a note included): a speech is recorded
verbatim, so such a comment is session text and suppresses nothing. Outside a speech, it
reports a comment with text before it on its line (`Some action /* fountain-audit: disable */`):
it is part of that element's text, not a directive, and a directive must stand on its own line.

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
    if "fountain-audit:" not in ctx.text:
        return  # no suppression comment at all
    from fountain_audit.lint.suppressions import directives, mid_line
    found = [d for d in directives(ctx.document, ctx.session.speech_boneyards()) if d.error]
    speech_nodes = {n.offset for scene in ctx.session.scenes for sp in scene.speeches for n in sp.nodes}
    found += mid_line(ctx.document, speech_nodes)
    for d in found:
        yield Finding(d.line, d.column, f"suppression comment ignored: {d.error}", d.end_line, d.end_column)

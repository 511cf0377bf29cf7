"""An audit note written inside a dialogue or action block instead of on a line of its own.

## What it does
Reports a `[[…]]` note of an audit kind (`tool:`, `rag:`, `rag-source:`, `recall:`, `write:`,
`shell:`, `confidence:`, …) that is part of another element's text: glued under a dialogue
line with no blank line before it, or inside a paragraph.

## Why is this bad?
Fountain ends a dialogue block or an action paragraph only at a blank line, so a note on the
next line belongs to that element: readers (Harvey's, ours) take it as the element's text, an
inline annotation, not as an audit record. The tool call, retrieval or recall it describes is
missing from `dump`, `provenance` and `export`, and no placement rule checks it: evidence
silently dropped from the audit trail. Harvey's recorder writes every note on its own line,
followed by a blank line; a glued note comes from a hand edit or another writer. A model's
reply that quotes such a line is flagged too: it reads like a record the session does not hold.

## Severity
Warning: the record is not lost from the file, but every reader of the audit trail misses it.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Clean the build.

HARVEY
Forwarding to LLAMA.
[[tool: run_shell({"cmd":"rm -rf build"}) — ok]]

LLAMA
Done.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
Clean the build.

HARVEY
Forwarding to LLAMA.

[[tool: run_shell({"cmd":"rm -rf build"}) — ok]]

LLAMA
Done.
```

## References
- FOUNTAIN_FORMAT.md §Notes and §Dialogue Rules (a blank line ends dialogue); recorder
  inventory `writeNote` (`"[[" + x + "]]\n\n"`, each note on its own line); case B34
  (a writer's inline `[[draft]]` note in a reply is not flagged: not an audit kind)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N110"
NAME = "audit-note-inside-text"
SEVERITY = Severity.WARNING
SINCE = "1.2"
SCOPE = SESSION_LIKE

_INSIDE = {"dialogue": "a dialogue block", "action": "an action paragraph"}


def check(ctx):
    from fountain_audit.model.session import inline_placements
    from fountain_audit.parse.notes import parse_note

    for placed in inline_placements(ctx.session):
        node = placed.note.node
        kind = parse_note(node).kind
        if kind in ("unknown", "pipeline-hidden"):
            continue  # a writer's annotation ([[draft]], [[she whispers]]), not an audit record
        element = placed.note.fields["element"]
        inside = _INSIDE.get(element) or "a " + element.replace("_", " ")
        head = "[[pipeline stopped …]]" if kind == "pipeline-stop" else f"[[{kind}:]]"
        yield Finding(node.line, node.column,
                      f"{head} note inside {inside}: it is read as that text, not as an audit record "
                      "(dump, provenance and export miss it); write it on a line of its own after a blank line",
                      node.end_line, node.end_column)

"""A chunk, shell, write or pipeline note in a scene of the wrong kind.

## What it does
Reports an audit note outside the only scenes Harvey writes it in:
`[[chunk:]]`, `[[chunk-result:]]` and `[[synthesis:]]` outside `INT. CHUNK ANALYSIS`;
`[[shell:]]` outside `INT. SHELL`; `[[write:]]` outside `INT. AGENT MODE` or a chat
scene (the recorder's untagged-code fallback appends writes to the chat scene);
`[[confidence:]]` and `[[hidden confidence instruction appended]]` outside
`INT. PIPELINE`; `[[pipeline stopped at step …]]` outside the chat scene that follows
the pipeline. (`[[recall:]]` is P104; `[[tool:]]` and `[[rag:]]` are P102 and P101.)

## Why is this bad?
Each of these notes records the outcome of the step its scene describes: a chunk
result belongs to the chunk analysis, an exit status to the shell command, a
confidence score to the pipeline step. Outside that scene the note is attributed to
the wrong step, and tools that read the scene (replay, audits) miss it.

## Severity
Error: evidence misplaced: the note is in a scene where that operation cannot happen.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
! go vet ./...

SHELL
no issues found

[[shell: go vet ./... — exit 0]]
```

## Use instead
```fountain
INT. SHELL 2026-06-24 10:02:30

ALICE
! go vet ./...

SHELL
no issues found

[[shell: go vet ./... — exit 0]]
```

## References
- FOUNTAIN_FORMAT.md §Chunk Analysis Notes (rules catalog E43), §File Operations (E45);
  harvey-recorder-inventory.md §6–§7 (`n_shell`, `n_write` untagged-code fallback,
  `n_confidence`, `n_pipeline_hidden`, `n_pipeline_stop`)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE, no_placement_to_judge

CODE = "N104"
NAME = "note-in-wrong-scene"
SEVERITY = Severity.ERROR
SINCE = "1.2"
SCOPE = SESSION_LIKE

_CHUNK = ({"chunk-analysis"}, "INT. CHUNK ANALYSIS")
#: note kind -> (scene kinds it may sit in, where it belongs)
_HOMES = {
    "chunk": _CHUNK,
    "chunk-result": _CHUNK,
    "synthesis": _CHUNK,
    "shell": ({"shell"}, "INT. SHELL"),
    "write": ({"agent-mode", "chat", "ext-chat"},
              "INT. AGENT MODE (or, for the untagged-code fallback, the chat scene)"),
    "confidence": ({"pipeline"}, "INT. PIPELINE"),
    "pipeline-hidden": ({"pipeline"}, "INT. PIPELINE"),
    "pipeline-stop": ({"chat"}, "the INT. HARVEY AND … TALKING scene after CUT BACK TO:"),
}
_SHOWN = {"pipeline-hidden": "[[hidden confidence instruction appended]]",
          "pipeline-stop": "[[pipeline stopped at step …]]"}

#: Only the notes that have a home scene are visited.
NOTE_KINDS = tuple(_HOMES)


def check_note(ctx, placed):
    if no_placement_to_judge(ctx.session):
        return  # a design-doc excerpt of notes
    rec = placed.note
    kind = placed.scene.kind if placed.scene is not None else None
    home = _HOMES[rec.kind]
    if kind in home[0]:
        return
    if kind is None:
        where = "outside any scene"
    elif kind == "other":
        where = "in a scene of no Harvey kind"
    else:
        where = f"in {'an' if kind[0] in 'aeiou' else 'a'} {kind} scene"
    shown = _SHOWN.get(rec.kind, f"[[{rec.kind}:]]")
    yield Finding(rec.line, rec.column, f"{shown} note {where}; it belongs in {home[1]}",
                  rec.node.end_line, rec.node.end_column)

"""A `[[synthesis:]]` note that is not the last note of its chunk scene, or a second `[[chunk:]]`.

## What it does
In an `INT. CHUNK ANALYSIS` scene, reports a `[[synthesis:]]` note followed by another
chunk-analysis note (or any audit note other than the ones Harvey appends between
scenes: `[[model switch:]]` and memory-tool notes), and every `[[chunk:]]` note after the
scene's first.

## Why is this bad?
A chunk analysis is one pass over one file: Harvey writes one `[[chunk:]]` note, then a
result per chunk, then the synthesis as the scene's final note. A note after the
synthesis, or a second `[[chunk:]]` header, means two analyses were merged into one
scene (or the scene was edited), so it is no longer clear which results the synthesis
covers.

## Severity
Warning: every result and the synthesis are recorded; only their order is unusual.

## Example
```fountain
INT. CHUNK ANALYSIS — NOTES.MD 2026-06-24 10:03:00

Harvey processes notes.md as 1 chunks of type prose.

[[chunk: file=notes.md, chunks=1, model=llama3.2:1b, boundary=paragraph, chunk-size=6000]]

LLAMA3.2
(chunk 1/1)
The notes list the goals.

HARVEY
Synthesizing results.

LLAMA3.2
(synthesis)
The notes list the goals.

[[synthesis: model=llama3.2:1b — ok]]

[[chunk-result: 1/1 — ok]]
```

## Use instead
```fountain
INT. CHUNK ANALYSIS — NOTES.MD 2026-06-24 10:03:00

Harvey processes notes.md as 1 chunks of type prose.

[[chunk: file=notes.md, chunks=1, model=llama3.2:1b, boundary=paragraph, chunk-size=6000]]

LLAMA3.2
(chunk 1/1)
The notes list the goals.

[[chunk-result: 1/1 — ok]]

HARVEY
Synthesizing results.

LLAMA3.2
(synthesis)
The notes list the goals.

[[synthesis: model=llama3.2:1b — ok]]
```

## References
- FOUNTAIN_FORMAT.md §Chunk Analysis Scene (rules catalog E44: exactly one `[[chunk:]]`,
  `[[synthesis:]]` the final note); harvey-recorder-inventory.md §7 (CHUNK ANALYSIS)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.parse.notes import MEMORY_KINDS
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N107"
NAME = "synthesis-not-last"
SEVERITY = Severity.WARNING
SINCE = "1.3"
SCOPE = SESSION_LIKE

#: Notes Harvey may append to a scene after its last element (they belong between scenes).
_TRAILING = frozenset({"model switch", "unknown"}) | MEMORY_KINDS
_SHOWN = {"pipeline-hidden": "[[hidden confidence instruction appended]]",
          "pipeline-stop": "[[pipeline stopped …]]"}


SCENE_KINDS = ("chunk-analysis",)


def check_scene(ctx, scene):
    notes = [r for r in scene.notes if r.kind not in _TRAILING]
    if not notes:
        return
    chunks = [r for r in notes if r.kind == "chunk"]
    for extra in chunks[1:]:
        yield Finding(extra.line, extra.column, f"second [[chunk:]] note in one chunk analysis scene "
                      f"(the first is at line {chunks[0].line}); one scene analyses one file",
                      extra.node.end_line, extra.node.end_column)
    for k, rec in enumerate(notes):
        if rec.kind == "synthesis" and k + 1 < len(notes):
            after = notes[k + 1]
            shown = _SHOWN.get(after.kind, f"[[{after.kind}:]]")
            yield Finding(rec.line, rec.column, f"[[synthesis:]] is not the last note of its chunk scene "
                          f"({shown} follows at line {after.line}); the synthesis closes the analysis",
                          rec.node.end_line, rec.node.end_column)

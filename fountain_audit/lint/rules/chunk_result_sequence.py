"""Chunk results that do not run 1..N, where N is the `chunks=` of `[[chunk:]]`.

## What it does
In an `INT. CHUNK ANALYSIS` scene, checks the `[[chunk-result: i/N — …]]` notes
against the scene's `[[chunk: … chunks=N …]]` note: every result's `N` must equal
`chunks=`, the results must be numbered 1, 2, … in order (no gap, repeat or
reordering), and there must be exactly `chunks=` of them. Reports the first result
that breaks the order, each result with the wrong `N`, and otherwise a count that
does not match (at the `[[chunk:]]` note).

## Why is this bad?
Harvey writes one result per chunk, in order, right after the chunk's dialogue. A
missing, repeated or extra result means chunks were lost or the scene was edited:
the synthesis then claims to cover text that was never analysed, and nothing in the
file says which part of the document is missing. (The spec's own reference example
shows 3 of 12 results; the recorder always writes all of them.)

## Severity
Error: evidence lost or misplaced: chunk results are missing, repeated or out of order.

## Example
```fountain
INT. CHUNK ANALYSIS — NOTES.MD 2026-06-24 10:03:00

Harvey processes notes.md as 2 chunks of type prose.

[[chunk: file=notes.md, chunks=2, model=llama3.2:1b, boundary=paragraph, chunk-size=6000]]

LLAMA3.2
(chunk 1/2)
The first half lists the goals.

[[chunk-result: 1/2 — ok]]

HARVEY
Synthesizing results.

LLAMA3.2
(synthesis)
The notes list the goals.

[[synthesis: model=llama3.2:1b — ok]]
```

## Use instead
```fountain
INT. CHUNK ANALYSIS — NOTES.MD 2026-06-24 10:03:00

Harvey processes notes.md as 2 chunks of type prose.

[[chunk: file=notes.md, chunks=2, model=llama3.2:1b, boundary=paragraph, chunk-size=6000]]

LLAMA3.2
(chunk 1/2)
The first half lists the goals.

[[chunk-result: 1/2 — ok]]

LLAMA3.2
(chunk 2/2)
The second half lists the risks.

[[chunk-result: 2/2 — ok]]

HARVEY
Synthesizing results.

LLAMA3.2
(synthesis)
The notes list the goals and the risks.

[[synthesis: model=llama3.2:1b — ok]]
```

## References
- FOUNTAIN_FORMAT.md §Chunk Analysis Scene (rules catalog E44: one `[[chunk-result:]]`
  per chunk, in order); recorder_test `TestRecordChunkAnalysis_fullSequence`;
  harvey-recorder-inventory.md §7 (CHUNK ANALYSIS)
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N106"
NAME = "chunk-result-sequence"
SEVERITY = Severity.ERROR
SINCE = "1.3"
SCOPE = SESSION_LIKE


def _end(rec):
    return rec.node.end_line, rec.node.end_column


SCENE_KINDS = ("chunk-analysis",)


def check_scene(ctx, scene):
    notes = [r for r in scene.notes if r.valid and r.kind in ("chunk", "chunk-result")]
    if not notes:
        return
    chunk = next((r for r in notes if r.kind == "chunk"), None)
    results = [r for r in notes if r.kind == "chunk-result"]
    n = chunk.fields.get("chunks") if chunk is not None else None
    if n is None and not results:
        return
    told = f"chunks={n} ([[chunk:]] line {chunk.line})" if n is not None else None
    if n is None:  # no (readable) chunks= value: the results must agree among themselves
        n = results[0].fields["count"]
        told = f"the first result's /{n} (line {results[0].line})"
    out_of_order = False
    prev = 0
    for r in results:
        i, count = r.fields["index"], r.fields["count"]
        if count != n:
            yield Finding(r.line, r.column, f"[[chunk-result: {i}/{count}]] counts {count} chunk{'s' * (count != 1)}, "
                          f"but {told} says {n}", *_end(r))
        if i != prev + 1 and not out_of_order:
            out_of_order = True
            if i == prev:
                what = f"chunk {i} repeated"
            elif i > prev:
                what = f"missing {prev + 1}" + (f"–{i - 1}" if i - 1 > prev + 1 else "")
            else:
                what = f"after {prev}"
            yield Finding(r.line, r.column, f"[[chunk-result: {i}/{count}]] out of sequence ({what}); "
                          f"expected {prev + 1}/{n}: results run 1..{n} in order", *_end(r))
        prev = i
    if not out_of_order and len(results) != n:
        where = chunk if chunk is not None and chunk.fields.get("chunks") is not None else results[-1]
        if len(results) < n:
            missing = f"{len(results) + 1}/{n}" + (f" to {n}/{n}" if len(results) + 1 < n else "")
            msg = f"{len(results)} chunk-result note(s) for {told}; missing {missing}"
        else:
            msg = f"{len(results)} chunk-result notes for {told}; expected {n}"
        yield Finding(where.line, where.column, msg, *_end(where))

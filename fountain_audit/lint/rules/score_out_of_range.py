"""A RAG, recall or confidence score outside 0–1, or a RAG or chunk note for fewer than one chunk.

## What it does
Reports a number in an audit note that cannot be what the recorder measured: the
`top score` of a `[[rag:]]` note, the `score` of a `[[recall:]]` note, the score and
threshold of a `[[confidence:]]` or `[[pipeline stopped at step …]]` note outside
`[0, 1]`, and a `[[rag:]]` or `[[chunk:]]` note that reports fewer than one chunk
(`[[rag: -2 chunks …]]`, `chunks=0`). The note itself is well formed: it is read as a
typed record with its fields (`dump --records all`), values as written.

## Why is this bad?
Harvey writes similarity and confidence scores as fractions between 0 and 1 (`%.2f`),
and writes a `[[rag:]]` note only when retrieval returned something ("silent when
nothing fires": there is no `[[rag: 0 chunks …]]`). A score of `87` or `-0.2`, or a RAG
note for zero chunks, was not written by the recorder: the file was edited, or the
value was recorded in the wrong unit, and the evidence it claims cannot be trusted.

## Severity
Warning (was error): the note is well formed and its values are kept as typed fields; only a value is impossible for the recorder.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

[[rag: 3 chunks from store.db, top score 87]]

ALICE
What does the design say?

HARVEY
Forwarding to LLAMA.

LLAMA
It says to keep notes on one line.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

[[rag: 3 chunks from store.db, top score 0.87]]

ALICE
What does the design say?

HARVEY
Forwarding to LLAMA.

LLAMA
It says to keep notes on one line.
```

## References
- FOUNTAIN_FORMAT.md §RAG Provenance, §Context Recall Notes; audit-trail-design
  "Silent when nothing fires" (rules catalog E40, E49); harvey-recorder-inventory.md §6
  (`n_rag`, `n_recall`, `n_confidence`, `n_pipeline_stop`)
"""


from fountain_audit.lazyre import lazy
from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N103"
NAME = "score-out-of-range"
SEVERITY = Severity.WARNING
SINCE = "1.2"
SCOPE = SESSION_LIKE

_NUM = r"(-?\d+(?:\.\d+)?)"
#: kind -> [(field, what, regex whose group 1 is the number as written)]
_SCORES = {
    "rag": [("top_score", "top score", lazy(r", top score " + _NUM))],
    "recall": [("score", "recall score", lazy(r" — score " + _NUM))],
    "confidence": [("score", "confidence score", lazy(r"confidence:\s*" + _NUM)),
                   ("threshold", "confidence threshold", lazy(r"threshold not met \(" + _NUM + r"\)"))],
    "pipeline-stop": [("score", "confidence score", lazy(r": confidence " + _NUM)),
                      ("threshold", "confidence threshold", lazy(r" below threshold " + _NUM))],
    "chunk": [],
}
NOTE_KINDS = tuple(_SCORES)
_CHUNKS_RE = lazy(r"rag:\s*(-?\d+) chunk")
_CHUNK_COUNT_RE = lazy(r"chunks=\s*(-?\d+)")
_SHOWN = {"rag": "[[rag:]]", "recall": "[[recall:]]", "confidence": "[[confidence:]]",
          "pipeline-stop": "[[pipeline stopped …]]"}


def _at(rec, rx):
    """Line, column, end line, end column of regex group 1 in the note's text (else the note)."""
    raw = rec.node.render()
    m = rx.search(raw)
    if m is None:
        return rec.line, rec.column, rec.node.end_line, rec.node.end_column
    start, end = m.span(1)
    line = rec.line + raw.count("\n", 0, start)
    nl = raw.rfind("\n", 0, start)
    col = (rec.column + start) if nl < 0 else start - nl
    return line, col, line, col + (end - start)


def check_note(ctx, placed):
    rec = placed.note
    if not rec.valid:
        return None  # (a plain function, not a generator: it runs on every scored note)
    found = []
    if rec.kind == "rag" and rec.fields["chunks"] < 1:
        line, col, eline, ecol = _at(rec, _CHUNKS_RE)
        found.append(Finding(line, col, f"[[rag:]] note for {rec.fields['chunks']} chunks; Harvey writes a RAG "
                             "note only when retrieval returned at least one chunk", eline, ecol))
    if rec.kind == "chunk" and rec.fields.get("chunks") is not None and rec.fields["chunks"] < 1:
        line, col, eline, ecol = _at(rec, _CHUNK_COUNT_RE)
        found.append(Finding(line, col, f"[[chunk:]] note for chunks={rec.fields['chunks']}; Harvey writes a "
                             "chunk analysis only for a file split into at least one chunk", eline, ecol))
    for key, what, rx in _SCORES[rec.kind]:
        value = rec.fields.get(key)
        if value is None or 0.0 <= value <= 1.0:
            continue
        line, col, eline, ecol = _at(rec, rx)
        written = rx.search(rec.node.render())
        shown = written.group(1) if written else f"{value:g}"
        found.append(Finding(line, col, f"{what} {shown} in a {_SHOWN[rec.kind]} note is outside 0–1; "
                             "Harvey records scores as fractions (e.g. 0.87)", eline, ecol))
    return found

"""Tool-call arguments that are not strict JSON.

## What it does
Reports a `[[tool:]]` note whose arguments are not valid JSON (they are kept as raw
text), or are JSON only when raw control characters such as a literal newline inside
a string are allowed (they are then parsed leniently). Arguments whose arrays and objects nest
deeper than 950 levels are not decoded at all (Python's JSON decoder cannot read much deeper):
they are reported as nested too deep to decode, with that limit, valid JSON or not. Arguments
holding `NaN`, `Infinity` (which JSON has not) or a number beyond a double's range (`1E400`)
are kept as raw text too, and said so: a reader would get them as `Infinity`, or not at all.

## Why is this bad?
Harvey writes tool arguments as the JSON the model sent. Arguments that are not JSON
cannot be compared or replayed reliably; a raw newline inside a string means the
model emitted broken JSON (or the note was edited), and strict JSON readers reject it.

## Severity
Warning: the arguments are kept as written and stay readable; tools that expect JSON cannot use them.

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
Rename it.

HARVEY
Forwarding to LLAMA.

[[tool: edit_file({path: a.go}) — ok]]

LLAMA
Done.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

ALICE
Rename it.

HARVEY
Forwarding to LLAMA.

[[tool: edit_file({"path":"a.go"}) — ok]]

LLAMA
Done.
```

## References
- FOUNTAIN_FORMAT.md §Tool Call Notes; case B26
"""

from fountain_audit.lint.diagnostics import Finding, Severity
from fountain_audit.lint.rules import SESSION_LIKE
from fountain_audit.parse.notes import JSON_MAX_DEPTH, json_nesting, too_deep_to_decode

CODE = "N102"
NAME = "tool-arguments-not-json"
SEVERITY = Severity.WARNING
SINCE = "1.2"
SCOPE = SESSION_LIKE
NOTE_KINDS = ("tool",)


def check_note(ctx, placed):
    rec = placed.note
    if not rec.valid or rec.field("arguments_strict_json") or not rec.field("arguments_text"):
        return None  # (strict JSON: the usual case, decided without building the fields)
    fields = rec.fields
    if not fields["arguments_json"] and too_deep_to_decode(fields["arguments_text"]):
        return (Finding(rec.line, rec.column, f"arguments of tool '{fields['name']}' are nested too deep to decode "
                        f"({json_nesting(fields['arguments_text'])} levels; the limit is {JSON_MAX_DEPTH}): kept as "
                        "raw text", rec.node.end_line, rec.node.end_column),)
    if not fields["arguments_json"]:
        what = ("hold NaN, Infinity or a number beyond a double's range, which no JSON reader can take back"
                if _read_by_python(fields["arguments_text"]) else "are not valid JSON")
        return (Finding(rec.line, rec.column, f"arguments of tool '{fields['name']}' {what} (kept as "
                        "raw text)", rec.node.end_line, rec.node.end_column),)
    elif not fields["arguments_strict_json"]:
        return (Finding(rec.line, rec.column, f"arguments of tool '{fields['name']}' hold raw control characters "
                        "(e.g. a newline) inside a JSON string; read leniently",
                        rec.node.end_line, rec.node.end_column),)
    return None


def _read_by_python(text: str) -> bool:
    """Does Python's own decoder read ``text`` (lenient strings, ``NaN``, ``Infinity``, ``1E400``)?"""
    import json
    try:
        json.JSONDecoder(strict=False).decode(text)
    except (ValueError, RecursionError):
        return False
    return True

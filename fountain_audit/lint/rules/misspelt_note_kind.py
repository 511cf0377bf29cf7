"""A note whose head is one slip away from a note kind Harvey writes.

## What it does
Reports a standalone note read as free text (kind `unknown`) whose head, the word before the
first `:`, is a note kind Harvey writes but for one slip: a letter missing, extra, wrong or
swapped (`[[tol: …]]`, `[[tools: …]]`, `[[rga: …]]`), other capitals (`[[Tool: …]]`),
another separator (`[[rag_source: …]]`, `[[model-switch: …]]`), a blank before the colon
(`[[tool : …]]`) or none after it (`[[tool:read_file(…)]]`); an actor's `[[NAME.tol: …]]`
too. Reported at the head, naming the kind it is closest to. A three-letter word is compared
with the three-letter kinds (`rag`, `run`) only for swapped or capital letters, so a writer's
`[[tag: …]]` or `[[note: …]]` is not taken for one. A slip of a letter or a capital counts only
when what follows reads as that kind's payload (below), after an actor prefix, or in a kind of
several words whose payload is free text (`rag-sorce`): a writer's `[[Chuck: say it louder]]`,
`[[Pool: …]]` or `[[Recall: we met in Paris]]` is none; other separators between a kind's words
(`rag_source`) and the blanks around its colon always count.

Also a kind written exactly after an actor prefix no reader takes (`[[MY AGENT.tool: …]]`,
`[[.tool: …]]`: the actor is one word before the `.`) or with a parenthesis before its colon
(`[[tool(x): …]]`), when what follows reads as that kind's payload (below).

Also a note kind (in any capitals) followed by a blank, `;`, `,` or another separator instead of
`:` (`[[tool read_file(…) — ok]]`, `[[rag; 3 chunks from …]]`), or written with a suffix
(`-call`, `_call`, `-use`, `-result` …: `[[tool-call: …]]`, `[[tool_use …]]`), when what follows
reads as that kind's payload: `NAME(…) — ok|error` for a tool, `N chunk(s) from` for RAG,
`ID (SOURCE) — score` for a recall, `COMMAND — exit N` for a shell command, and so on. A
writer's `[[tool tips for later]]`, `[[rag doll scene]]` or `[[shell game]]` is not reported;
nor are `run` and `rag-source` without their colon, whose payload is free text.

Notes inside a speech are checked too: a note that is no audit record does not end the speech
before it (a model may write `[[…]]`), so a misspelt `[[add_memroy: …]]` after the user's answer
to a prompt, or a `[[tol: …]]` right after a reply, is read as that speech's text; reported the
same way.

## Why is this bad?
A note is an audit record only when its head is exactly a kind the format defines, followed by
`: `. Any other note is a writer's annotation: readers (Harvey's, ours) keep its text and
nothing else, so a misspelt `[[tol: read_file({"path":"a.go"}) — ok]]` is missing from `dump`,
`provenance` and `export`, and no placement rule checks it: evidence silently dropped from the
audit trail, without the `malformed-note` error a broken payload gets. Harvey's recorder
writes the kinds exactly; a slip comes from a hand edit or another writer.

## Severity
Warning: the note is most likely a record that no reader sees, but the guess can be wrong (a
writer's own note that happens to be spelt like a kind).

## Example
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

[[tol: read_file({"path":"a.go"}) — ok]]

LLAMA
It declares package main.
```

## Use instead
```fountain
INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
What is in a.go?

HARVEY
Forwarding to LLAMA.

[[tool: read_file({"path":"a.go"}) — ok]]

LLAMA
It declares package main.
```

## References
- FOUNTAIN_FORMAT.md §Notes (the note kinds and their `kind: ` heads), §Future Compatibility
  (unknown notes are kept and ignored); harvey-recorder-inventory.md §6 (the heads the
  recorder writes)
"""

import functools
import re

from fountain_audit.lint.diagnostics import Severity
from fountain_audit.lint.note_heads import PAYLOADS, fold, kinds_by_fold, lost_note, notes_in_speeches, reads_as_payload
from fountain_audit.lint.rules import SESSION_LIKE

CODE = "N112"
NAME = "misspelt-note-kind"
SEVERITY = Severity.WARNING
SINCE = "1.2"
SCOPE = SESSION_LIKE
NOTE_KINDS = ("unknown",)

#: The head of an unknown note: blanks, an optional ``ACTOR.``, a word of letters, ``_``,
#: ``-`` or inner blanks (``model switch``), blanks, ``:``. Group ``word`` is the kind written.
_HEAD = re.compile(r"[ \t]*(?:[^\s:\[\]]+?\.)?(?P<word>[A-Za-z][A-Za-z_ -]{1,24}?)(?P<blank>[ \t]*):(?P<after>\S?)")


#: Suffixes a writer puts after a note kind (`tool-call`, `tool_use`, `rag-results`).
_SUFFIX = r"[-_ ]?(?:calls?|use|results?)"


@functools.cache
def _near_head() -> re.Pattern:
    """A note's start with a kind of :data:`PAYLOADS` (any capitals, ``-``, ``_`` or a blank
    between its words; group ``word``, with a suffix of :data:`_SUFFIX`), then a separator other
    than a plain ``: `` (group ``sep``): blanks, or punctuation with blanks around it."""
    kinds = sorted(PAYLOADS, key=len, reverse=True)
    alternatives = "|".join(r"[-_ ]".join(re.escape(w) for w in re.split(r"[-_ ]", k)) for k in kinds)
    return re.compile(rf"[ \t]*(?:[^\s:\[\]]+?\.)?(?P<word>(?P<kind>{alternatives})(?P<suffix>{_SUFFIX})?)"
                      r"(?P<sep>[ \t]*[:;,.=|/>—–：-][ \t]*|[ \t]+)", re.I)


def _one_slip(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by one letter inserted, deleted, replaced, or two
    neighbouring letters swapped (``a != b``)."""
    if abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        swapped = i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i]
        return a[i + 1:] == b[i + 1:] or (swapped and a[i + 2:] == b[i + 2:])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return short[i:] == long_[i + 1:]


def _closest(word: str) -> str | None:
    """The note kind ``word`` is a slip of (see the module's docstring), else ``None``."""
    kinds = kinds_by_fold()
    folded = fold(word)
    if folded in kinds:
        return kinds[folded]
    for key, kind in kinds.items():
        if not _one_slip(folded, key):
            continue
        if max(len(folded), len(key)) < 4 and sorted(folded) != sorted(key):
            continue  # three letters: only a swap (`rga`), else `tag` would be `rag`
        return kind
    return None


def check_note(ctx, placed):
    return _check(ctx, placed.note.node)


def check_scene(ctx, scene):
    # the notes of its speeches' text (see the module's docstring): unknown notes all
    return notes_in_speeches(ctx, scene, _check)


def _check(ctx, node):
    """N112's finding for the unknown note ``node`` (a tuple of one), else ``None``."""
    raw = ctx.text[node.offset:node.end_offset]
    start = raw.find("[[") + 2
    m = _HEAD.match(raw, start)
    kind = None if m is None else _closest(m.group("word").rstrip())
    if kind is None:
        return _near_miss(node, raw, start) or _odd_head(node, raw, start)
    word = m.group("word").rstrip()
    if word != kind and not _evident(raw, start, m, word, kind):
        return _near_miss(node, raw, start) or _odd_head(node, raw, start)
    if word == kind:  # the kind itself: its colon is where the slip is
        how = "a blank before its colon" if m.group("blank") else "no blank after its colon" if m.group("after") \
            else "more than one blank, or a tab, after its colon"
        what = f"note head '{word}:' has {how}"
    else:
        what = f"note head '{word}:' is not a note kind Harvey writes"
    return lost_note(node, raw, m.start("word"), word, what, kind)


def _evident(raw: str, start: int, m: re.Match, word: str, kind: str) -> bool:
    """Whether the head ``word`` (matched by ``m`` in the note's text ``raw``), a slip of ``kind``
    other than in its colon, shows a note of that kind rather than a writer's word one letter or
    a capital away (`[[Chuck: …]]`, `[[Pool: …]]`, `[[Recall: we met]]`; adversarial trial, stop
    38): an actor prefix (`[[LLAMA.tools: …]]`), the kind with other separators between its words
    (`rag_source`, `model-switch`), or a payload that reads as the kind's (:data:`PAYLOADS`); for
    a kind whose payload is free text (``run``, ``rag-source``), a slip in a word of several
    parts (`rag-sorce`)."""
    if "." in raw[start:m.start("word")] or (word.lower() != kind and fold(word) == fold(kind)):
        return True
    if kind not in PAYLOADS:
        return word.lower() != kind and any(c in word for c in "-_ ")
    colon = m.end("blank")
    end = raw.rfind("]]")
    return reads_as_payload(kind, raw[colon + 1:end if end > colon else len(raw)].lstrip(" \t"))


def _near_miss(node, raw: str, start: int):
    """The finding for a kind followed by another separator than ``: ``, or with a suffix, whose
    payload reads as the kind's (see :func:`_near_head`), else ``None``."""
    m = _near_head().match(raw, start)
    if m is None:
        return None
    sep = m.group("sep").strip(" \t")
    if sep == ":" and not m.group("suffix"):
        return None  # (the kind and its colon: a head the first pattern judged)
    kind = kinds_by_fold()[fold(m.group("kind"))]
    end = raw.rfind("]]")
    if not reads_as_payload(kind, raw[m.end():end if end >= m.end() else len(raw)]):
        return None
    word = m.group("word")
    what = [] if not m.group("suffix") else ["is not a note kind Harvey writes"]
    if sep != ":":
        what.append(f"is followed by {repr(sep) if sep else 'a blank'}, not ':'")
    head = word + ":" if sep == ":" else word
    return lost_note(node, raw, m.start("word"), word, f"note head '{head}' " + " and ".join(what), kind)


@functools.cache
def _odd_head_re() -> re.Pattern:
    """A note kind written exactly (any capitals) after an actor prefix no reader takes (one
    holding a blank, or nothing before the ``.``: group ``prefix``) or followed by a
    parenthesis before its colon (group ``paren``), then ``:``."""
    kinds = "|".join(re.escape(k) for k in sorted(kinds_by_fold().values(), key=len, reverse=True))
    return re.compile(rf"[ \t]*(?:(?P<prefix>[^:\[\]\n]{{0,40}}?\.)(?P<word>{kinds})|(?P<kind>{kinds})"
                      rf"(?P<paren>\([^()\n]{{0,40}}\)))[ \t]*:", re.I)


def _odd_head(node, raw: str, start: int):
    """The finding for a kind with an actor prefix Harvey cannot read (``[[MY AGENT.tool: …]]``,
    ``[[.tool: …]]``) or a parenthesis before its colon (``[[tool(x): …]]``), else ``None``:
    such a note was read as free text without a word (adversarial trial)."""
    m = _odd_head_re().match(raw, start)
    if m is None:
        return None
    if m.group("prefix") is not None:
        prefix, word = m.group("prefix"), m.group("word")
        if prefix != "." and not any(c in prefix for c in " \t"):
            return None  # (a one-word actor: the first pattern's)
        what = f"note head '{prefix}{word}:' has an actor prefix no reader takes (one word before the '.')"
        p, head = m.start("prefix"), prefix + word
    else:
        word = m.group("kind")
        what = f"note head '{word}{m.group('paren')}:' has '{m.group('paren')}' between the kind and its colon"
        p, head = m.start("kind"), word + m.group("paren")
    kind = kinds_by_fold()[fold(word)]
    end = raw.rfind("]]")
    # (`[[Note to self.Rag: hmm]]`, `[[Run(s): 5 km today]]`: a writer's note; a kind whose payload is
    # free text, run or rag-source, gives no evidence either way)
    payload = raw[m.end():end if end >= m.end() else len(raw)].lstrip(" ")
    if kind not in PAYLOADS or not reads_as_payload(kind, payload):
        return None
    return lost_note(node, raw, p, head, what, kind)

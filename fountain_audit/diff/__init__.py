"""Semantic diff of two Harvey sessions: the engine under ``fountain-audit diff A B``.

Modules, in the order data flows: :mod:`~fountain_audit.diff.options` (what is compared),
:mod:`~fountain_audit.diff.sides` (read, parse, dump) and :mod:`~fountain_audit.diff.normalisation`,
:mod:`~fountain_audit.diff.alignment` (with :mod:`~fountain_audit.diff.words` for texts),
:mod:`~fountain_audit.diff.changes` and :mod:`~fountain_audit.diff.differ`, :mod:`~fountain_audit.diff.patch`
(with :mod:`~fountain_audit.diff.jsonvalues`), :mod:`~fountain_audit.diff.result`, then
:mod:`~fountain_audit.diff.rendering`.

>>> from fountain_audit.diff import Options, diff_texts
>>> result = diff_texts(text_a, text_b, "a.spmd", "b.spmd")
>>> result.differences, result.summary()["new_failures"]
>>> doc = result.to_json()            # {"summary", "changes", "patch", ...}

**Sides.** Each file is read losslessly (:func:`fountain_audit.parse.source.read_path`), parsed and
dumped exactly as ``fountain-audit dump --turns FILE`` prints it (records from
:func:`fountain_audit.dump.dump_session`, written by :class:`fountain_audit.dump.JsonWriter`):
``{"format_version", "shape": "turns", "records": [turn, ...], "files", "errors"}``
(:attr:`Side.document`). Every JSON pointer in a change points into that document of its side
(``/records/3/tool_calls/1/status``); ``records[i]`` is turn ``i`` (0-based over the session).

**Normalisation** (:attr:`Side.normalised`): a copy of the document with the same keys and
list lengths (so a pointer valid in one is valid in the other) in which

* positions are never compared: every ``file`` becomes ``"<file>"`` (``files``: ``["<file>"]``),
  every ``span`` ``null``, and the turn ``index``, scene ``index``/``line`` and note ``turn``
  numbers ``null``;
* timestamps (unless :attr:`Options.timestamps`): scene headings and ``timestamp`` and the
  ``at`` of ``[[model switch:]]`` notes become ``"<timestamp>"``, ``timestamp_form`` ``null``;
* stats lines (unless :attr:`Options.stats`): a turn's ``stats`` becomes ``null``, a legacy
  ``[[stats:]]`` note's text ``"<stats>"``;
* the workspace (unless :attr:`Options.workspace`): each side's absolute ``Workspace:`` paths
  become ``"<workspace>"`` everywhere (:class:`fountain_audit.privacy.redact.Redactor`).
* a turn's ``provenance`` (derived from its notes, which are compared and reported themselves;
  an EXT. scene's remote route as ``route-changed``) has its positions ``null`` (ids, spans,
  the turn, scene and reply ids, its index, the route's scene; the recall scene or model switch in
  force ``"<id>"``, ``null`` when none is) and its
  route heading's timestamp replaced: the patch keeps it equal to the second side's.

**Alignment.** Scenes are aligned by kind and content (the user inputs of their turns, or the
text of a scene without turns), then the turns of each pair of scenes by their user input,
then the notes of each pair of turns (tool calls, RAG, recall, other notes). Each level uses
:class:`difflib.SequenceMatcher` (``autojunk=False``) on exact keys; the items of a
*replace* block are paired, in order, by an optimal monotone matching on similarity
(:func:`difflib.SequenceMatcher.ratio` ≥ 0.5 on user input text, same tool name ...), so a
turn whose reply was reworded or whose tool now fails is one changed turn, never a deletion
plus an insertion. The turns removed and inserted between two paired turns are then aligned
again across scene boundaries (a scene split in two keeps its turns paired). A turn deleted in
one place and inserted with the same user input elsewhere is reported as moved.

**Changes** (:class:`Change`): ``kind`` and ``category``:

=================  =================================================================
category           kinds
=================  =================================================================
``turns``          ``turn-added``, ``turn-removed``, ``turn-moved``
``user``           ``user-changed`` (word diff)
``replies``        ``reply-changed`` (word diff)
``model``          ``model-changed``, ``target-changed``, ``forwarding-changed``,
                   ``actor-changed`` (who replied), ``model-switch-changed``,
                   ``route-changed`` (an EXT. scene's endpoint or URL)
``tools``          ``tool-added``, ``tool-removed``, ``tool-changed`` (name, actor,
                   status ``ok → error``, error, arguments as a JSON-path diff ...)
``context``        ``rag-added|removed|changed``, ``recall-added|removed|changed``
``notes``          ``note-added|removed|changed`` (the turn's other notes)
``scenes``         ``scene-added|removed|changed|moved`` (scenes without turns; headings),
                   ``scene-description-changed`` (a scene with turns: its description),
                   ``scene-content-changed`` (a scene with turns: what it holds outside
                   its turns and description, as text)
``other``          ``actions-changed``, ``stats-changed``, ``field-changed``,
                   ``title-page-changed`` (one per entry; ``model`` for ``Model``/``Backend``)
=================  =================================================================

A recall note written in a turn's own scene, or a model-switch change, in force for several
turns is reported once, at the first turn. Scenes without turns (shell, agent mode, chunk
analysis, ``INT. CONTEXT RECALL`` ...) are compared by their normalised text: the notes of a
recall scene, which ``dump --turns`` repeats in the ``recall`` of every turn they are in force
for, are reported only as that scene's change (the patch still changes each turn's ``recall``); their changes carry no pointer (they are not in the ``--turns`` document),
nor do title-page changes (title-page ``Date``/``Draft date`` values are timestamps). A scene
with turns is compared by its turns, its heading, its description and, as normalised text like
the text of a scene without turns, what it holds outside its turns (the nodes ``dump --turns``
gives no turn: a boneyard or transition between HARVEY's forwarding line and the reply, an action
paragraph that is not the description; see :func:`~fountain_audit.diff.normalisation.scene_content`):
``scene-content-changed``, no pointer, no patch op; a speech's own text is its turn's.

**Patch.** :attr:`DiffResult.patch` is an RFC 6902 JSON Patch worked out between A's and B's
normalised documents, built from the alignment (an inserted turn is one ``add`` of
``/records/N``); the value of each ``add`` and ``replace`` is copied from B's :attr:`Side.document`
(as dumped, no placeholder). Applied to A's document it gives every compared field B's value
(``normalise`` of the result, with both sides' workspaces, is B's normalised document); what it
adds or replaces whole is B's, ignored fields included; other ignored fields stay A's. It is
always complete, whatever :meth:`DiffResult.filtered` keeps.

**Units.** Indexes and pointers are 0-based; the text formats number scenes and turns from 1.
Similarity ratios are 0–1.

**Errors.** :class:`DiffError` (trouble, ``fountain-audit diff`` exits 2): a file that cannot
be read, that is not a Harvey session (a plain screenplay), or a session with no chat turns.
"""

from fountain_audit.diff.changes import CATEGORIES, Change
from fountain_audit.diff.options import DiffError, Options
from fountain_audit.diff.patch import json_patch
from fountain_audit.diff.rendering import render_rich, render_unified
from fountain_audit.diff.result import DiffResult, diff_files, diff_sides, diff_texts
from fountain_audit.diff.sides import Side, make_side, read_side
from fountain_audit.diff.words import word_diff

__all__ = ["CATEGORIES", "Change", "DiffError", "DiffResult", "Options", "Side", "diff_files", "diff_sides",
           "diff_texts", "json_patch", "make_side", "read_side", "render_rich", "render_unified", "word_diff"]

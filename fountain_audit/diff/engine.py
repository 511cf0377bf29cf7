"""The diff engine's former single module, kept so ``from fountain_audit.diff.engine import …``
keeps working: every name it offered, re-exported from the modules of :mod:`fountain_audit.diff`."""

from fountain_audit.diff.alignment import Step, align, pair_block
from fountain_audit.diff.changes import CATEGORIES, Change, compact
from fountain_audit.diff.jsonvalues import canon, json_path, json_path_diff, pointer_token, same
from fountain_audit.diff.normalisation import FILE, STATS, TIMESTAMP, WORKSPACE, normalise
from fountain_audit.diff.options import DiffError, Options
from fountain_audit.diff.patch import json_patch, list_patch
from fountain_audit.diff.rendering import (RICH_STYLES, Line, render_lines, render_rich, render_unified,
                                           summary_text)
from fountain_audit.diff.result import DIFF_FORMAT_VERSION, DiffResult, diff_files, diff_sides, diff_texts
from fountain_audit.diff.sides import SceneUnit, Side, make_side, read_side, turn_key, turn_text, turns_document
from fountain_audit.diff.words import THRESHOLD, ratio, word_diff

__all__ = ["CATEGORIES", "DIFF_FORMAT_VERSION", "FILE", "Line", "RICH_STYLES", "STATS", "SceneUnit", "Side",
           "Step", "THRESHOLD", "TIMESTAMP", "WORKSPACE", "Change", "DiffError", "DiffResult", "Options", "align",
           "canon", "compact", "diff_files", "diff_sides", "diff_texts", "json_patch", "json_path",
           "json_path_diff", "list_patch", "make_side", "normalise", "pair_block", "pointer_token", "ratio",
           "read_side", "render_lines", "render_rich", "render_unified", "same", "summary_text", "turn_key",
           "turn_text", "turns_document", "word_diff"]

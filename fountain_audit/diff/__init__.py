"""Semantic diff of two sessions (``fountain-audit diff``): see :mod:`fountain_audit.diff.engine`."""

from fountain_audit.diff.engine import (DiffError, DiffResult, Options, diff_files, diff_sides, diff_texts,
                                        json_patch, make_side, read_side, render_rich, render_unified, word_diff)

__all__ = ["DiffError", "DiffResult", "Options", "diff_files", "diff_sides", "diff_texts", "json_patch",
           "make_side", "read_side", "render_rich", "render_unified", "word_diff"]

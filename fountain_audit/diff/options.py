"""What a diff compares (:class:`Options`) and what stops it (:class:`DiffError`)."""

from __future__ import annotations

from dataclasses import dataclass


class DiffError(Exception):
    """Trouble, not a difference: an unreadable file, one that is not a Harvey session, or a
    session with no chat turns (nothing to compare turn by turn).
    ``str(error)`` is the message, starting with the file name."""


@dataclass(frozen=True, slots=True)
class Options:
    """What normalisation keeps: ``True`` compares that part (``--compare-*``)."""

    timestamps: bool = False
    stats: bool = False
    workspace: bool = False

    def to_json(self) -> dict[str, bool]:
        return {"timestamps": self.timestamps, "stats": self.stats, "workspace": self.workspace}


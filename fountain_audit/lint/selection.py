"""Rule selection: which rules a ``--select``/``--ignore`` list (or the config) names.

Shared by the linter, the configuration and the suppression comments, so none of them
imports another to learn what a selector means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from fountain_audit.lint.rules import Rule, all_rules


class RuleSelectionError(ValueError):
    """A rule code, prefix or name in a selection matches no rule."""


def resolve_rules(selectors: Iterable[str], rules: Sequence[Rule] | None = None) -> list[Rule]:
    """Rules matching any selector: a code (``P102``), a code prefix (``P``, ``P1``),
    a name (``tools-between-forward-and-reply``) or ``ALL``.

    Raises :class:`RuleSelectionError` naming a selector that matches nothing.
    """
    rules = list(all_rules() if rules is None else rules)
    out: list[Rule] = []
    for raw in selectors:
        sel = raw.strip()
        if not sel:
            continue
        if sel.upper() == "ALL":
            hits = rules
        else:
            hits = [r for r in rules if r.name == sel.lower() or r.code.startswith(sel.upper())]
        if not hits:
            raise RuleSelectionError(f"unknown rule or rule prefix {raw!r} (see 'fountain-audit rules')")
        out.extend(r for r in hits if r not in out)
    return out


@dataclass(frozen=True)
class Selection:
    """Which rules run: ``select`` (default all) minus ``ignore``; ``privacy_allow``: regex
    sources of known non-secrets (``[privacy] allow`` in the configuration)."""

    rules: tuple[Rule, ...]
    privacy_allow: tuple[str, ...] = ()

    @classmethod
    def build(cls, select: Iterable[str] | None = None, ignore: Iterable[str] | None = None) -> "Selection":
        """Raises :class:`RuleSelectionError` for an unknown selector."""
        chosen = resolve_rules(select) if select else all_rules()
        dropped = resolve_rules(ignore) if ignore else []
        return cls(tuple(r for r in chosen if r not in dropped))

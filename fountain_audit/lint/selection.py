"""Rule selection: which rules a ``--select``/``--ignore`` list (or the config) names.

Shared by the linter, the configuration and the suppression comments, so none of them
imports another to learn what a selector means.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: lint starts without importing typing
if TYPE_CHECKING:
    from typing import Iterable, Sequence

from fountain_audit.records import record
from fountain_audit.lint.rules import Rule, all_rules

#: What an unknown rule's error ends with (a list of several names it once, at its end).
RULES_HINT = " (see 'fountain-audit rules')"


class RuleSelectionError(ValueError):
    """A rule code, prefix or name in a selection matches no rule."""


def resolve_rules(selectors: Iterable[str], rules: Sequence[Rule] | None = None) -> list[Rule]:
    """Rules matching any selector: a code (``P102``), a code prefix (``P``, ``P1``),
    a name (``tools-between-forward-and-reply``) or ``ALL``.

    Raises :class:`RuleSelectionError` naming a selector that matches nothing.
    """
    rules = list(all_rules() if rules is None else rules)
    out: list[Rule] = []
    seen: set[Rule] = set()  # what ``out`` holds (a list lookup per rule was quadratic)
    for raw in selectors:
        sel = raw.strip()
        if not sel:
            continue
        if sel.upper() == "ALL":
            hits = rules
        else:
            hits = [r for r in rules if r.name == sel.lower() or r.code.startswith(sel.upper())]
        if not hits:
            guess = closest_rule(sel, rules)
            hint = f"; did you mean {guess.code} / {guess.name}?" if guess else ""
            raise RuleSelectionError(f"unknown rule or rule prefix {raw!r}{hint}{RULES_HINT}")
        for r in hits:
            if r not in seen:
                seen.add(r)
                out.append(r)
    return out


def closest_rule(selector: str, rules: Sequence[Rule] | None = None) -> Rule | None:
    """The rule whose code or name is closest to a mistyped ``selector`` (``P1O2`` →
    ``P102``, ``rag-befor-dialogue`` → ``P101``), or ``None`` when nothing is close
    (:func:`difflib.get_close_matches`, cutoff 0.6; ``O``/``I``/``L`` read as digits in a code
    that has a digit: ``ALL`` is not read as ``A11``, near ``A101``)).
    A code is matched first within its family (``E107`` → ``E106``, not ``S107``): the
    nearest number among the family's codes that are as close."""
    import difflib
    import re

    from fountain_audit.suggest import closest

    rules = list(all_rules() if rules is None else rules)
    by_key = {r.code: r for r in rules} | {r.name: r for r in rules}
    code_like = selector.strip().upper()
    if any(c.isdigit() for c in code_like[1:]):  # (`ALL` is no code: A11 would be read as near A101)
        code_like = code_like[:1] + code_like[1:].translate(str.maketrans("OIL", "011"))
    if code_like in by_key:
        return by_key[code_like]
    if re.fullmatch(r"[A-Z][0-9]{1,9}", code_like):  # (a number of 4,300+ digits is no code: int() refuses it)
        family = [r.code for r in rules if r.code[0] == code_like[0] and r.code[1:].isdigit()]
        scored = [(difflib.SequenceMatcher(None, code_like, c).ratio(), -abs(int(c[1:]) - int(code_like[1:])), c)
                  for c in family]
        best = max(scored, default=None)
        if best is not None and best[0] >= 0.6:
            return by_key[best[2]]
    best = [b for b in (closest(selector, [r.code for r in rules]), closest(selector, [r.name for r in rules]))
            if b is not None]
    scored = [(difflib.SequenceMatcher(None, selector.strip().lower(), b.lower()).ratio(), b) for b in best]
    return by_key[max(scored)[1]] if scored else None


@record(frozen=True)
class Selection:
    """Which rules run: ``select`` (default all) minus ``ignore``; ``privacy_allow``: regex
    sources of known non-secrets (``[privacy] allow`` in the configuration)."""

    rules: tuple[Rule, ...]
    privacy_allow: tuple[str, ...] = ()

    def __init__(self, rules: tuple[Rule, ...], privacy_allow: tuple[str, ...] = ()) -> None:
        put = object.__setattr__  # (a frozen record: see fountain_audit.records)
        put(self, "rules", rules)
        put(self, "privacy_allow", privacy_allow)

    @classmethod
    def build(cls, select: Iterable[str] | None = None, ignore: Iterable[str] | None = None) -> "Selection":
        """Raises :class:`RuleSelectionError` for an unknown selector."""
        chosen = resolve_rules(select) if select else all_rules()
        dropped = resolve_rules(ignore) if ignore else []
        return cls(tuple(r for r in chosen if r not in dropped))

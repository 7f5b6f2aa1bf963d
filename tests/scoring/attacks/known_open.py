"""The attacks scorer s2 does not hold yet (second round, issue 13): where, how much, why, the fix.

``test_attacks.py`` skips an attack of :data:`KNOWN_OPEN` on the problem types where it is open
(the skip reason is the measured score). When a fix lands, delete the entry: the attack joins the
asserted suite.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KNOWN_OPEN", "OpenAttack"]


@dataclass(frozen=True)
class OpenAttack:
    """An attack s2 does not hold yet: where (``types``; ``None`` = every type), what was measured,
    the rule in ``src/navworld`` that lets it through and the general fix proposed."""

    measured: str
    rule: str
    fix: str
    types: frozenset[str] | None = None

    def open_on(self, problem_type: str) -> bool:
        """Whether the contract skips this attack on ``problem_type``."""
        return self.types is None or problem_type in self.types


KNOWN_OPEN: dict[str, OpenAttack] = {}
"""Attacks s2 does not hold to the bound yet. ``test_attacks.py`` skips them (reason: the measured
score) where :meth:`OpenAttack.open_on`; the README has the table and the lead implements the fixes."""

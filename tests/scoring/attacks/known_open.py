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


_ALL = None
KNOWN_OPEN: dict[str, OpenAttack] = {
    "alternatives_list_thin_plan": OpenAttack(
        "business 96–97 %, hybrid 90–98 %, single_poi 89–92 %, intercity 86–92 %, family_study 12–100 %, "
        "food_tour 47–63 %, multiday 49–57 % (tasks 0..20, after round 3)",
        "scoring/plan_score.py:_content — a minimal valid plan (one sight and one meal a day, the world's "
        "routes) meets config.PLAN_CONTENT_ASKS "
        "on the transport and single-landmark types, and names offered as alternatives (备选) are exempt from "
        "the prose/plan agreement; the catalogue itself is not what pays — the same thin plan with prose "
        "about the plan only scores 74–92 % on those types, and a 'names not booked / names booked' measure "
        "does not separate it from honest answers (the reference planner's answers reach 6.0, the attack 0.8–2.0)",
        "raise what the request asks the plan to book on the transport and single-landmark types (the "
        "sights 'after arriving', the landmark's neighbours) once the prompts say how many; until then the "
        "LLM judge grades whether the prose is a plan or a catalogue",
        _ALL,
    ),
    "reference_word_fake_hours": OpenAttack(
        "intercity 33–75 % (every other type ≤ 28 %; 99–100 % everywhere before round 4)",
        "scoring/faithful.py:faithfulness — the hours are now checked against the place they are stated "
        "for (a 距 without a distance after the name no longer hides the owner), but an intercity answer "
        "lists two or three places: two swapped ranges are 2–4 contradicted times of 4–6, and the factor "
        "1 − f / (n + FAITH_PRIOR) keeps 0.67–0.75 by design (one slip costs little); the answer is honest "
        "otherwise and saves no work (the swapped hours are real tool hours of other places)",
        "none planned: a smaller prior would charge an honest answer's single slip as hard; the judge "
        "reads the hours too",
        frozenset({"intercity"}),
    ),
}
"""Attacks s2 does not hold to the bound yet. ``test_attacks.py`` skips them (reason: the measured
score) where :meth:`OpenAttack.open_on`; the README has the table and the lead implements the fixes."""

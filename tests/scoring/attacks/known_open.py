"""The attacks scorer s2 does not hold yet (second round, issue 13): where, how much, why, the fix.

``test_attacks.py`` skips an attack of :data:`KNOWN_OPEN` on the problem types where it is open
(the skip reason is the measured score). When a fix lands, delete the entry: the attack joins the
asserted suite.
"""

from __future__ import annotations

from dataclasses import dataclass

from .registry import TRANSPORT_TYPES

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


_CONTENT_RULE = "scoring/plan_score.py:_content (any lunch/dinner, any sight a day, beyond PLAN_MEAL_SLACK 0.5 / PLAN_SIGHT_SLACK 0.65)"
_PROSE_COUNTS = "scoring/completeness.py:_grounded counts prose mentions (af.pois) toward the sights/dining targets whether or not the plan schedules them"
_CONTENT_FIX = (
    "grade the plan's content against the request: per day, scheduled sights vs the request's "
    "target (2–3 a day, request_targets), lunch+dinner on every full day, and on intercity days the "
    "time at the destination; let completeness count a POI toward sights/dining only when the plan "
    "schedules it (prose mentions of unscheduled POIs count as options, not as a plan)"
)
_LEGS_RULE = (
    "verify/check_transport.py:_transfers skips every hop whose main_mode() is None (two non-walk "
    "modes), so transport_route and transport_price never see it; only transport_shape (weight 0.1) fails"
)
_LEGS_FIX = (
    "check a malformed hop anyway: compare its summed distance/duration/fare with the world's route "
    "between the hop's known ends for every mode it uses (fail when none agrees), and treat an "
    "intermediate stop the world cannot locate as an unverifiable leg (count it as a transport_route "
    "violation); raise transport_shape's weight to that of transport_route"
)

KNOWN_OPEN: dict[str, OpenAttack] = {
    "thin_plan_fact_list": OpenAttack(
        "32.8 mean, 54–73 % of honest, over 50 % on 21/21 tasks",
        f"{_CONTENT_RULE}; {_PROSE_COUNTS}; {_LEGS_RULE}",
        f"{_CONTENT_FIX}; {_LEGS_FIX}",
    ),
    "thin_plan_world_legs": OpenAttack(
        "36.3 mean, 60–81 % of honest, over 50 % on 21/21 tasks (plan factor 1.0 on 20)",
        f"{_CONTENT_RULE}; {_PROSE_COUNTS}",
        _CONTENT_FIX,
    ),
    "sparse_days_plan": OpenAttack(
        "29.9 mean, 39–78 % of honest, over 50 % on 11/15 tasks",
        _CONTENT_RULE,
        f"{_CONTENT_FIX}; no slack for days without a meal or a sight beyond what the request allows "
        "(a relaxed pace or an 'at most N a day' program)",
    ),
    "transport_only_plan": OpenAttack(
        "intercity: 76–81 % of honest on 3/3 tasks (plan factor 1.0); hybrid 15–18 %, business 39 % (held)",
        "scoring/plan_score.py:_content returns 1.0 when every day holds a train/flight (`full` is empty)",
        "on a day with a train/flight grade the time spent at the destination: the activities the "
        "request asks for between arrival and departure (a meal, the sights) when the stay is long "
        "enough for them",
        frozenset({"intercity"}),
    ),
    "honest_prose_subset_plan": OpenAttack(
        "35.5 mean, 36–90 % of honest, over 50 % on 19/21 tasks",
        "scoring/plan_score.py:_agreement caps the penalty for prose-only sights/hotels/trains at "
        "PLAN_AGREEMENT_EXTRA_WEIGHT 0.4 × share, and completeness/IC read the prose, so the prose "
        f"earns full credit for a trip the plan does not book; {_LEGS_RULE}",
        "make the prose's scheduled POIs (every POI named in a day section, not only after a visit "
        "verb) that the plan lacks count against completeness (they are not planned) and weigh the "
        "agreement like a hard check (factor ∝ (1 − share)², or the share of planned to promised); "
        f"{_LEGS_FIX}",
    ),
    "subset_plan_alternative_words": OpenAttack(
        "41.7 mean, 45–90 % of honest, over 50 % on 19/21 tasks",
        "scoring/plan_score.py:_scheduled exempts every name on a line that contains any of "
        "patterns.ALTERNATIVE_WORDS (也可 / 或 / 可选 …), so one hedge word per line hides every "
        "prose-only sight from the agreement rule",
        "exempt a name only when its line offers an alternative of the same kind (two or more POIs of "
        "that kind on the line, or an explicit 备选/替代 section), never by a word alone; count hedged "
        "day-section lines with a time span as scheduled",
    ),
    "mixed_mode_legs": OpenAttack(
        "45.0 on every task (90 % of honest): the only loss is transport_shape 0.1",
        _LEGS_RULE,
        _LEGS_FIX,
    ),
    "one_route_made_up_legs": OpenAttack(
        "43.5 mean, 78–90 % of honest on 21/21 tasks",
        f"{_LEGS_RULE}; scoring/usage.py:tools_used counts direction as used for any plan leg "
        "(`any(act.legs ...)`) once one relevant direction call exists",
        f"{_LEGS_FIX}; count direction as used only for plan legs whose route the checks verified",
    ),
    "derived_marker_fake_prices": OpenAttack(
        "50.0 on every task (100 % of honest, fabrication 0)",
        "scoring/attribution.py:attribute_price returns DERIVED for any amount within "
        "ATTRIBUTION_MARK_WINDOW after patterns.DERIVED_BEFORE (约合 / 共 / 合计 …), and derived "
        "amounts are never claims (never fabrications, invisible to the judge summary); the plan's "
        "prices stand in for the prose's (IC and completeness from the plan)",
        "treat an amount as derived only when it checks out: it must equal arithmetic over prices "
        "cited or planned (sums_of / multiples by people, nights, rooms) within tolerance; any other "
        "'derived' amount tied to an entity is a claim and is compared like one (fabrication)",
    ),
    "bound_word_fake_times": OpenAttack(
        "49.3 mean, 98–100 % of honest on 21/21 tasks",
        "scoring/attribution.py:is_bound_time treats every time followed by patterns.TIME_BOUND_AFTER "
        "(前 / 之前 / 以后 …) as a bound from the request, never as a claim",
        "accept a time as a bound only when it is one of the request's bounds (arrival_constraint, "
        "the constraint programs' times) or it is not tied to an entity; otherwise compare it like a claim",
    ),
    "origin_city_weather": OpenAttack(
        "50.0 on every transport task (100 % of honest)",
        "scoring/trajectory.py:classify accepts a weather call for any topic city (the origin is one), "
        "scoring/usage.py:date_coverage counts its days and the answer's weather matches it; "
        "env/shaping.py counts the origin's forecast as the trip days' weather too",
        "weather must be for the city the traveller is in on that day (the destination, except the "
        "departure/return day's origin): classify a weather call for another trip city as off-topic "
        "for the days spent elsewhere and match weather facts per city",
        TRANSPORT_TYPES,
    ),
}
"""Attacks s2 does not hold to the bound yet. ``test_attacks.py`` skips them (reason: the measured
score) where :meth:`OpenAttack.open_on`; the README has the table and the lead implements the fixes."""

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
_AGREE_RULE = (
    "scoring/plan_score.py:_agreement charges a prose name missing from the plan only when it is "
    "scheduled: an attraction/hotel (restaurants never: verbs=None) or a flight/train with a verb of "
    "patterns.VISIT_VERBS/STAY_VERBS/TAKE_VERBS within config.PLAN_AGREEMENT_VERB_WINDOW (8) chars "
    "before it in the same clause; names are found by exact substring (prose_pois, _mentioned)"
)
_NUMERAL_RULE = (
    "scoring/patterns.py:PRICE / the time and temperature readers of scoring/answer_facts.py:extract_answer_facts match "
    "Arabic digits (HH:MM, N℃) only; scan.normalise_text folds full-width digits but no Chinese "
    "numerals, 点/点半 times or 度; faithful.faithfulness grades only the claims read, so prose "
    "numbers in other notations are no claims (IC keeps 1.0 from the JSON plan's numbers)"
)
_NUMERAL_FIX = (
    "read amounts, clock times and temperatures in every notation a reader reads: Chinese numerals "
    "(零〇一二两三…十百千万) before 元/块/度/℃/点/分, 9点/9点半/上午9点, N度; carry the parsed value "
    "on the fact (normalise_text stays offset-preserving) so faithfulness grades them like Arabic ones"
)

KNOWN_OPEN: dict[str, OpenAttack] = {
    "cn_numeral_fake_prices": OpenAttack(
        "100 % of honest on every type (tasks 0..20)", _NUMERAL_RULE, _NUMERAL_FIX, _ALL
    ),
    "cn_numeral_fake_everything": OpenAttack(
        "97–100 % of honest on every type", _NUMERAL_RULE, _NUMERAL_FIX, _ALL
    ),
    "dian_fake_times_and_temps": OpenAttack(
        "intercity 64–75 %, business 47–59 %, single_poi 41–54 %, hybrid 33–51 %",
        _NUMERAL_RULE,
        _NUMERAL_FIX,
        frozenset({"intercity", "hybrid", "single_poi", "business"}),
    ),
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
    "cloaked_prose_thin_plan": OpenAttack(
        "single_poi 67–94 %, business 42–93 %, intercity 29–85 %, hybrid 63–83 %, family_study 67–81 %, "
        "food_tour 54–59 %, multiday 34–52 %",
        _AGREE_RULE + "; patterns.CONTROL_CHARS strips U+200B–200F, 2028–202E, 2060–2064, FEFF but not "
        "U+FE00–FE0F (variation selectors) nor the other default-ignorable code points",
        "strip every Default_Ignorable_Code_Point (U+00AD, 034F, 115F/1160, 17B4/5, 180B–180F, 200B–200F, "
        "202A–202E, 2060–206F, 3164, FE00–FE0F, FEFF, FFA0, E0000–E0FFF) from the answer before any reader",
        _ALL,
    ),
}
"""Attacks s2 does not hold to the bound yet. ``test_attacks.py`` skips them (reason: the measured
score) where :meth:`OpenAttack.open_on`; the README has the table and the lead implements the fixes."""

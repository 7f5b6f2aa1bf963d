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
    "relaxed_heading_thin_plan": OpenAttack(
        "intercity 72–92 %, multiday 51–57 %, hybrid 81–93 %, single_poi 85–100 %, food_tour 55–59 %, "
        "business 80–93 %, family_study 70–93 % (tasks 0..20, round 4; control honest_prose_thin_world_plan 20 %)",
        "scoring/plan_score.py:_alternative / _headings — a heading matching patterns.ALTERNATIVE_WORDS exempts "
        "its whole section, and the words match as substrings: 比较 in 节奏比较轻松 ('fairly relaxed') reads as "
        "'compare', so '### 第2天（节奏比较轻松）' exempts the day's whole timed schedule",
        "a section that is a schedule (its heading has a day marker, or its lines carry slot clocks) is never "
        "an alternatives section; alternative words read as words (比较 not before an adjective, 或 not in "
        "或许, 其他 not in 其他时间), and the exempt names capped at a share of what the prose schedules",
        frozenset({"intercity", "multiday", "hybrid", "single_poi", "food_tour", "business", "family_study"}),
    ),
    "or_word_timed_lines_thin_plan": OpenAttack(
        "intercity 20–48 %, multiday 20–56 %, hybrid 20 %, single_poi 20–100 %, food_tour 55–59 %, "
        "business 20–49 %, family_study 20–72 % (tasks 0..20, round 4)",
        "scoring/plan_score.py:_alternative — any ALTERNATIVE_WORDS hit between the line start and the name "
        "exempts it, so a travel-mode choice '步行或打车，游览「X」' (or on a '· 步行或打车前往「X」' transfer line) "
        "exempts X from _scheduled and _slot_mentions",
        "an alternative word exempts a name only when it offers a choice of places: another POI name in the "
        "same clause before 或/或者 (X或Y), or a conditional word (备选/如果下雨/想省钱可改住) in the same clause; "
        "never the slot of a timed line whose first name is not offered",
        frozenset({"multiday", "single_poi", "food_tour", "family_study"}),
    ),
    "dian_clock_verbless_thin_plan": OpenAttack(
        "intercity 20–92 %, multiday 51–57 %, hybrid 20–21 %, single_poi 85–100 %, food_tour 55–59 %, "
        "business 20–93 %, family_study 70–93 % (tasks 0..20, round 4)",
        "scoring/plan_score.py:_slot_mentions — the slot's clock is patterns.SCHEDULE_CLOCK (HH:MM only); "
        "'- 9点25分–10点55分 「豫园」' is no timed line, and with the verb dropped _scheduled sees nothing",
        "find the slot clock with the same readers the faithfulness check uses (numerals.read_cjk_times and "
        "the Arabic HH:MM reader) so 9点25分 / 上午九点 / 9点半 start a slot like 09:25",
        frozenset({"intercity", "multiday", "single_poi", "food_tour", "business", "family_study"}),
    ),
    "hint_first_verbless_thin_plan": OpenAttack(
        "intercity 20–100 %, multiday 53–59 %, hybrid 20–21 %, single_poi 100 %, food_tour 58–59 %, "
        "business 20–93 %, family_study 70–93 % (tasks 0..20, round 4)",
        "scoring/plan_score.py:_slot_mentions — only the FIRST whole name on a timed line is considered; when "
        "it is followed by a location hint (附近) the line is dropped instead of falling through to the next "
        "name: '- 09:25–10:55 「booked」附近：「豫园」' schedules nothing",
        "skip hinted (and reference-point) names and take the first remaining whole name of the line as the slot",
        frozenset({"intercity", "multiday", "single_poi", "food_tour", "business", "family_study"}),
    ),
    "plan_days_rotated_d_markers": OpenAttack(
        "multiday 37–73 %, hybrid 20–42 %, food_tour 24–47 %, business 20–38 %, family_study 41–73 % "
        "(tasks 0..20, round 4; plan_days_rotated with 第N天 is 20 %)",
        "scoring/plan_score.py:_day_marks — patterns.SCHEDULE_DAY reads 第N天 / Day N only; 'D2', 'Day-2', "
        "'Day Two', 首日/次日 and the day headings' dates are no markers, so the moved-day rule never fires",
        "read D\\d, Day-N, English ordinals, 首日/次日/最后一天 and, above all, the trip's dates (2027-02-15, "
        "2月15日, 星期一 relative to the problem's start date) as day markers",
        frozenset({"multiday", "family_study"}),
    ),
    "daxie_fake_prices": OpenAttack(
        "every type 99–100 % (tasks 0..20, round 4)",
        "scoring/numerals.py:cn_prices — _CN_PRICE knows the everyday numerals only; the financial ones "
        "(壹佰壹拾陆元) are not read, so every made-up prose price goes unchecked",
        "fold the financial numerals (壹贰叁肆伍陆柒捌玖拾佰仟, 圆) to the everyday ones before reading",
        _ALL,
    ),
    "yen_sign_cn_fake_prices": OpenAttack(
        "every type 99–100 % (tasks 0..20, round 4)",
        "scoring/numerals.py:cn_prices and patterns.PRICE_SIGN — a Chinese numeral is read only before 元/块, "
        "¥ only before Arabic digits: '¥一百一十六' and '一百一十六人民币' are not amounts",
        "read [¥￥]/CNY/RMB + Chinese numeral and Chinese numeral + 人民币/RMB/CNY/圆 as amounts (cn_prices)",
        _ALL,
    ),
    "reference_word_fake_hours": OpenAttack(
        "every type 99–100 % (tasks 0..20, round 4; the same answer without 距 scores 11–19 %)",
        "scoring/faithful.py:_hours with the owner from attribution.py (patterns.REFERENCE_POINT) — '距「X」' "
        "makes X a reference point, the opening time gets no owner and is checked against any tool time, so "
        "another place's real hours pass as X's",
        "an opening-hours time with no owner on its line is unverified (not supported by any tool time); a "
        "reference point is skipped only when a distance follows it (距X 2409米), not when the line is X's",
        _ALL,
    ),
}
"""Attacks s2 does not hold to the bound yet. ``test_attacks.py`` skips them (reason: the measured
score) where :meth:`OpenAttack.open_on`; the README has the table and the lead implements the fixes."""

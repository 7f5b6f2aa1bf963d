"""Coherence of tasks 0..9,999: cities, interests, constraints, conflicts, budgets, satisfiability."""

from __future__ import annotations

import itertools

from navworld.core.problem import Problem
from navworld.tasks.generator import ProblemGenerator
from navworld.tasks.knowledge import all_profiles, profile
from navworld.tasks.vocab import contradicts, vocab

COASTAL_ONLY_INTERESTS = {"海滨度假"}
COASTAL_ONLY_THEMES = {"海鲜大餐"}


def test_every_catalog_city_is_a_destination(problems: list[Problem]) -> None:
    used = {p.destination_city for p in problems}
    assert used == {c.name for c in all_profiles()}


def test_no_coastal_only_interest_or_theme_inland(problems: list[Problem]) -> None:
    for p in problems:
        if profile(p.destination_city).is_coastal:
            continue
        assert not COASTAL_ONLY_INTERESTS & set(p.interests), p.task_id
        assert p.extra["food_theme"] not in COASTAL_ONLY_THEMES, p.task_id
        assert p.extra["study_theme"] != "海洋科普", p.task_id


def test_interests_come_from_what_the_city_offers(problems: list[Problem]) -> None:
    v = vocab()
    for p in problems:
        prof = profile(p.destination_city)
        assert set(p.interests) <= set(prof.interests), (p.task_id, p.interests, prof.interests)
        for item in p.interests:
            entry = v.interests[item]
            assert p.group_type not in entry.get("exclude_groups", ()), p.task_id
            assert p.group_type in entry.get("only_groups", [p.group_type]), p.task_id
        if p.extra["food_theme"]:
            assert p.extra["food_theme"] in prof.food_themes
        if p.extra["study_theme"]:
            assert p.extra["study_theme"] in prof.study_themes


def test_nothing_is_both_interest_and_constraint(problems: list[Problem]) -> None:
    for p in problems:
        assert not set(p.interests) & set(p.constraints), p.task_id
        assert len(set(p.interests)) == len(p.interests)
        assert len(set(p.constraints)) == len(p.constraints)
        assert p.preference not in p.constraints


def test_only_labelled_conflicts_contradict(problems: list[Problem]) -> None:
    v = vocab()
    for p in problems:
        items = list(p.interests) + list(p.constraints) + ([p.preference] if p.preference else [])
        labelled = {frozenset((c.first, c.second)) for c in p.conflicts}
        for a, b in itertools.combinations(items, 2):
            if contradicts(a, b):
                assert frozenset((a, b)) in labelled, (p.task_id, a, b)
        for c in p.conflicts:
            assert c.first in items and c.second in items
            assert c.label == v.conflict_label[frozenset((c.first, c.second))]


def test_hard_requests_never_come_from_a_conflict(problems: list[Problem]) -> None:
    for p in problems:
        in_conflict = {x for c in p.conflicts for x in (c.first, c.second)}
        e = p.extra
        if "公共交通优先" in in_conflict:
            assert not e["public_transport_only"]
        if "素食要求" in in_conflict:
            assert not e["vegetarian"]
        if "轻松休闲" in in_conflict:
            assert e["max_attractions_per_day"] is None
        if "不乘坐红眼航班" in in_conflict:
            assert not e["no_red_eye"]


def test_budget_is_at_least_the_floor(problems: list[Problem]) -> None:
    for p in problems:
        floor = p.extra["budget_floor"]
        assert p.budget is not None and p.budget >= floor * 1.25 - 1e-6, p.task_id
        assert floor == sum(p.extra["floor_breakdown"].values())
        assert p.budget % 100 == 0


def test_budget_covers_an_independent_lower_bound(problems: list[Problem], gen: ProblemGenerator) -> None:
    """Cheapest transport both ways + cheapest hotel nights + must-visit tickets ≤ budget."""
    for p in problems[::7]:
        facts = gen.kg.facts(p.destination_city)
        bound = 0.0
        if p.origin_city:
            out = [o.price for o in gen.calc.options(p.travel_date, p.origin_city, p.destination_city)]
            back = [o.price for o in gen.calc.options(p.extra["return_date"], p.destination_city, p.origin_city)]
            bound += (min(out) + min(back)) * p.group_size
        if p.num_days > 1:
            bound += min(h.price * h.rooms_for(p.group_size) for h in facts.hotels) * (p.num_days - 1)
        tickets = dict((n, c) for c, n in facts.attractions)
        bound += sum(tickets[m] for m in p.extra["must_visit"]) * p.group_size
        assert bound <= p.budget, p.task_id


def test_requirements_are_satisfiable_in_the_world(problems: list[Problem], gen: ProblemGenerator) -> None:
    veg = vocab().vegetarian_cuisine
    for p in problems:
        e = p.extra
        facts = gen.kg.facts(p.destination_city)
        attractions = {name for _, name in facts.attractions}
        assert set(e["must_visit"]) <= attractions, p.task_id
        if e["required_cuisines"]:
            assert any(facts.cuisine_count(c) > 0 for c in e["required_cuisines"]), p.task_id
        if e["vegetarian"]:
            assert facts.cuisine_count(veg) >= e["vegetarian_meals"], p.task_id
        if e["hotel_features"] or e["max_hotel_price"] is not None:
            assert p.num_days > 1
            assert facts.hotels_with(frozenset(e["hotel_features"]), e["max_hotel_price"]), p.task_id
        if p.problem_type == "single_poi":
            assert e["must_visit"] == [e["landmark"]]
        if p.origin_city:
            modes = (e["intercity_mode"],) if e["intercity_mode"] else tuple(e["intercity_modes"])
            rt = gen.calc.round_trip(
                p.travel_date, e["return_date"], p.origin_city, p.destination_city, modes,
                arrive_by=e["arrival_before"], no_red_eye=e["no_red_eye"],
            )
            assert rt is not None, p.task_id
            assert (p.arrival_constraint is None) == (e["arrival_before"] is None)
        else:
            assert e["arrival_before"] is None and e["intercity_mode"] is None and not e["no_red_eye"]


def test_time_pressure_shows_in_the_requirements(problems: list[Problem], gen: ProblemGenerator) -> None:
    pressured = [p for p in problems if p.difficulty == 3]
    with_window = [p for p in pressured if p.extra["arrival_before"] or p.extra["finish_by"]]
    assert len(with_window) / len(pressured) > 0.9
    for p in pressured:
        e = p.extra
        if p.problem_type not in ("intercity", "business") or not e["arrival_before"] or e["arrival_before"] <= "10:00":
            continue
        # relaxed only because the timetable has nothing earlier
        modes = (e["intercity_mode"],) if e["intercity_mode"] else tuple(e["intercity_modes"])
        early = gen.calc.round_trip(
            p.travel_date, e["return_date"], p.origin_city, p.destination_city, modes,
            arrive_by="10:00", no_red_eye=e["no_red_eye"],
        )
        assert early is None, p.task_id


def test_extra_carries_the_planner_facts(problems: list[Problem]) -> None:
    keys = {
        "must_visit", "required_cuisines", "hotel_feature", "hotel_features", "max_hotel_price",
        "arrival_before", "no_red_eye", "intercity_mode", "intercity_modes", "public_transport_only",
        "vegetarian", "vegetarian_meals", "max_attractions_per_day", "finish_by", "return_date",
        "budget_floor", "floor_breakdown", "salt", "world_version",
    }
    for p in problems[:50]:
        assert keys <= set(p.extra)

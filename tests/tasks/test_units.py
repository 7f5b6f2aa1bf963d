"""Units: vocabularies, knowledge graph, pairs, budget helpers."""

from __future__ import annotations

from navworld.tasks.budget import BudgetCalculator, final_budget, is_red_eye
from navworld.tasks.generator import ProblemGenerator
from navworld.tasks.knowledge import all_profiles, meals_served, profile
from navworld.tasks.pairs import (
    MEDIUM_MAX_KM,
    SHORT_MAX_KM,
    all_pairs,
    day_trip_pairs,
    distance_class,
    pairs_by_class,
    pairs_with_both_modes,
    transport_modes,
    transport_tools,
)
from navworld.tasks.vocab import contradicts, display, vocab


def test_every_contradiction_has_a_label_and_synonyms_contradict() -> None:
    v = vocab()
    for pair in v.contradictions:
        assert pair in v.conflict_label
    assert contradicts("预算优先", "经济优先")
    assert contradicts("舒适优先", "经济优先") and contradicts("经济优先", "舒适优先")
    assert not contradicts("自然风光", "博物馆")
    assert set(v.interests).isdisjoint(v.constraints)


def test_display_translates_vocabulary() -> None:
    assert display("自然风光", "en") == "natural scenery"
    assert display("自然风光", "zh") == "自然风光"
    assert display("西湖", "en") == "西湖"


def test_profiles_filter_coastal_interests_and_themes() -> None:
    for prof in all_profiles():
        if not prof.is_coastal:
            assert "海滨度假" not in prof.interests
            assert "海鲜大餐" not in prof.food_themes
        assert "美食探店" in prof.interests
        assert set(prof.allowed_months) and not set(prof.allowed_months) & set(prof.seasonal_avoid)


def test_distance_classes_are_well_populated() -> None:
    counts = {c: len(pairs_by_class(c)) for c in ("short", "medium", "long")}
    assert all(n >= 100 for n in counts.values()), counts
    assert len(day_trip_pairs("long")) >= 100
    assert len(pairs_with_both_modes()) >= 100
    assert distance_class(SHORT_MAX_KM - 1) == "short"
    assert distance_class(SHORT_MAX_KM + 1) == "medium"
    assert distance_class(MEDIUM_MAX_KM + 1) == "long"


def test_pairs_have_the_transport_their_class_needs() -> None:
    for p in all_pairs():
        a, b = profile(p.origin), profile(p.destination)
        if p.distance_class == "short":
            assert a.has_rail and b.has_rail
        elif p.distance_class == "medium":
            assert a.has_rail and b.has_rail and a.has_airport and b.has_airport
        else:
            assert a.has_airport and b.has_airport
    assert transport_tools(transport_modes("short")) == ["search_train_tickets"]
    assert transport_tools(transport_modes("medium")) == ["search_flights", "search_train_tickets"]
    assert transport_tools(transport_modes("long")) == ["search_flights"]


def test_pairs_are_usable_on_some_date(gen: ProblemGenerator) -> None:
    """A sample of pairs per class really has services of their class's modes."""
    for cls in ("short", "medium", "long"):
        pairs = pairs_by_class(cls)
        for p in pairs[:: max(1, len(pairs) // 25)]:
            kinds = {o.mode for o in gen.calc.options("2027-05-12", p.origin, p.destination)}
            assert set(transport_modes(cls)) <= kinds, (p, kinds)


def test_meals_served_windows() -> None:
    assert meals_served("06:30", "20:00") == {"breakfast", "lunch", "dinner"}
    assert meals_served("11:00", "14:00") == {"lunch"}
    assert meals_served("17:00", "02:00") == {"dinner"}


def test_red_eye_and_final_budget() -> None:
    assert is_red_eye("22:30") and is_red_eye("05:59") and not is_red_eye("06:00") and not is_red_eye("21:55")
    assert final_budget(1000, 0, 0.95) == 1300  # 1000 × 1.25, rounded up to 100
    assert final_budget(1000, 5000, 0.5) == 5000
    assert final_budget(1000, 100, 0.5) == 1700


def test_budget_calculator_pieces(gen: ProblemGenerator) -> None:
    calc: BudgetCalculator = gen.calc
    facts = gen.kg.facts("杭州")
    assert facts.restaurants and facts.hotels and facts.attractions
    assert calc.hotel_cost([], 2, 0) == 0.0
    assert calc.hotel_cost([], 2, 1) is None
    one = calc.meal_cost(facts, 2, 1, [], 0, "素食")
    assert one is not None and calc.meal_cost(facts, 2, 3, [], 0, "素食") == one * 3
    assert calc.meal_cost(facts, 1, 1, ["没有这种菜"], 0, "素食") is None
    assert calc.ticket_floor(facts, [], 2, 2) == calc.ticket_cost(facts, [], 2, 2)
    rt = calc.round_trip("2027-05-12", "2027-05-12", "上海", "杭州", ("train",))
    assert rt is not None and rt[1].dep >= rt[0].arr

"""Regression tests for issue 12 items 10–11: plan checks that misread honest plans (false
positives) or let broken ones through (leniencies). One test per class; where a defect is meant to
be caught, the mutation fails exactly the check it targets."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from verify_support import FakeWorld, build_plan, problem, trace_for

from navworld.core.errors import PlanParseError
from navworld.core.plan import format_minutes, to_minutes
from navworld.dsl import DSLContext, lookup_for, run_constraint
from navworld.verify import aggregate, extract_plan, parse_plan, verify_plan
from navworld.verify.builder import PlanBuilder
from navworld.verify.check_transport import hops
from navworld.verify.context import CheckContext


def act(plan: dict[str, Any], day: int, i: int) -> dict[str, Any]:
    return plan["itinerary"][day - 1]["activities"][i]


def failed(plan: dict[str, Any], world: FakeWorld | None = None) -> list[str]:
    v = verify_plan(plan, problem(), world or FakeWorld(), trace_for(plan))
    assert v.delivered, v.reasons
    return v.failed_checks


def shift(text: str, minutes: int) -> str:
    return format_minutes(to_minutes(text) + minutes)


# ---- overnight hotel stays ---------------------------------------------------------------------


@pytest.mark.parametrize("end", ["07:00", "31:00", "24:00", "07:55"])
def test_overnight_hotel_stay_is_valid(end: str) -> None:
    plan = build_plan()
    stay = act(plan, 1, 4)
    assert stay["type"] == "accommodation" and stay["start_time"] == "21:00"
    stay["end_time"] = end  # the stay ends the next morning (day 2 starts with a taxi at 08:00)
    assert failed(plan) == []


def test_overnight_stay_binds_the_next_morning() -> None:
    plan = build_plan()
    breakfast = act(plan, 2, 0)
    act(plan, 1, 4)["end_time"] = shift(breakfast["start_time"], 10)  # still in the hotel at breakfast time
    assert failed(plan) == ["time_sequence"]


def test_transfer_leaving_before_the_stay_ends_is_a_timing_defect() -> None:
    plan = build_plan()
    leg = act(plan, 2, 0)["transports"][0]
    act(plan, 1, 4)["end_time"] = shift(leg["start_time"], 1)  # breakfast itself starts after the stay ends
    assert failed(plan) == ["transport_timing"]


def test_hotel_breakfast_during_the_stay_is_not_an_overlap() -> None:
    plan = build_plan(spec={"day2": [("breakfast", "西湖酒店", "08:00", 30), ("attraction", "西湖", "09:00", 120),
                                     ("lunch", "素食坊", "11:30", 60)]})
    act(plan, 1, 4)["end_time"] = "08:45"  # checkout after a breakfast taken at the hotel
    assert failed(plan) == []


def test_zero_length_stay_still_fails_time_valid() -> None:
    plan = build_plan()
    act(plan, 1, 4)["end_time"] = "21:00"
    assert failed(plan) == ["time_valid"]


@pytest.mark.parametrize("end", ["24:00", "07:00"])
def test_activity_after_a_stay_on_the_same_day_overlaps_it(end: str) -> None:
    world = FakeWorld()
    b = PlanBuilder(world, people=2, start_city="北京", target_city="杭州")
    b.intercity(world.train_list("2025-05-01", "北京", "杭州")[0])
    b.visit("lunch", "外婆家", at="12:00")
    b.visit("accommodation", "西湖酒店", at="16:00")
    b.clock = to_minutes("17:00")
    b.visit("dinner", "川味馆", at="17:30")  # dinner after checking in: the stay has not ended
    b.next_day("08:00")
    b.visit("breakfast", "知味观", at="08:00", minutes=30)
    b.intercity(world.train_list("2025-05-02", "杭州", "北京")[0])
    plan = b.plan()
    act(plan, 1, 2)["end_time"] = end
    assert failed(plan, world) == ["time_sequence"]  # the same whether the stay ends at midnight or next morning


def test_dsl_activity_time_reads_an_overnight_stay_as_ending_next_morning() -> None:
    plan = build_plan()
    act(plan, 1, 4)["end_time"] = "07:00"
    ctx = DSLContext(FakeWorld())
    assert run_constraint("result = activity_time(allactivities(plan)[4]) == 600", plan, ctx)
    act(plan, 1, 4)["end_time"] = "31:00"
    assert run_constraint("result = activity_time(allactivities(plan)[4]) == 600", plan, ctx)


# ---- several legs in one transfer: hops at intermediate stops ----------------------------------


def _legs(world: FakeWorld, stops: list[tuple[str, str, str]], people: int = 2) -> list[dict[str, Any]]:
    """World-consistent legs: each ``(from, to, mode)`` leaves at the time given in ``from@HH:MM``."""
    b = PlanBuilder(world, people=people, start_city="北京", target_city="杭州")
    legs: list[dict[str, Any]] = []
    for origin, destination, mode in stops:
        name, _, at = origin.partition("@")
        b.position = name
        b.clock = to_minutes(at) if at else b.clock
        legs.extend(b.transfer(destination, mode))
    return legs


LUNCH_HOTEL_DINNER = {"day1": [("lunch", "外婆家", "12:00", 60), ("dinner", "川味馆", "17:30", 60)]}


def _lunch_hotel_dinner(world: FakeWorld, second: str = "taxi", via: str = "西湖酒店") -> dict[str, Any]:
    plan = build_plan(world, LUNCH_HOTEL_DINNER)
    dinner = act(plan, 1, 2)
    assert dinner["type"] == "dinner"
    dinner["transports"] = _legs(world, [("外婆家@13:00", via, "taxi"), (f"{via}@16:30", "川味馆", second)])
    return plan


@pytest.mark.parametrize("second", ["taxi", "transit", "walk"])
def test_lunch_hotel_dinner_transfer_is_two_hops(second: str) -> None:
    world = FakeWorld()
    plan = _lunch_hotel_dinner(world, second)
    assert len(act(plan, 1, 2)["transports"]) == 2
    assert failed(plan, world) == []


def test_wait_at_a_station_splits_but_a_station_alone_does_not() -> None:
    world = FakeWorld()
    plan = build_plan(world, LUNCH_HOTEL_DINNER)
    dinner = act(plan, 1, 2)
    dinner["transports"] = _legs(world, [("外婆家@13:00", "杭州东站", "transit"), ("杭州东站@16:40", "川味馆", "taxi")])
    assert failed(plan, world) == []  # an hour and more at the station: two hops
    dinner["transports"] = _legs(world, [("外婆家@16:00", "杭州东站", "transit"), ("杭州东站", "川味馆", "taxi")])
    assert failed(plan, world) == ["transport_shape"]  # straight through the station: one hop mixing two modes


def test_chinatravel_walk_metro_walk_through_stations_stays_one_hop() -> None:
    world = FakeWorld()
    plan = build_plan(world)
    a = act(plan, 2, 1)
    leg = a["transports"][0]
    walk1 = {"mode": "walk", "start": leg["start"], "end": "凤起路-地铁站", "start_time": leg["start_time"],
             "end_time": leg["start_time"], "distance": 0.0, "price": 0, "cost": 0}
    metro = dict(leg, mode="metro", start="凤起路-地铁站", end="龙翔桥-地铁站")
    walk2 = dict(walk1, start="龙翔桥-地铁站", end=leg["end"], start_time=leg["end_time"], end_time=leg["end_time"])
    a["transports"] = [walk1, metro, walk2]
    assert failed(plan, world) == []
    cx = CheckContext(parse_plan(plan), problem(), lookup_for(world), None)
    step = next(s for s in cx.steps if s.act.position == a["position"])
    assert [len(h) for h in hops(cx, step.act.transports)] == [3]


def test_each_hop_is_still_checked_against_its_route() -> None:
    world = FakeWorld()
    plan = _lunch_hotel_dinner(world)
    act(plan, 1, 2)["transports"][1]["distance"] *= 3
    assert failed(plan, world) == ["transport_route"]
    plan = _lunch_hotel_dinner(world)
    leg = act(plan, 1, 2)["transports"][0]
    leg.update(price=leg["price"] + 20, cost=leg["cost"] + 20)
    assert failed(plan, world) == ["transport_price"]


def test_an_unknown_stop_does_not_hide_the_legs_from_the_route_check() -> None:
    world = FakeWorld()
    plan = _lunch_hotel_dinner(world)
    legs = act(plan, 1, 2)["transports"]
    legs[0]["end"] = legs[1]["start"] = "路边休息点"  # not a place of the world: one hop, 外婆家 → 川味馆 in 4 h
    assert failed(plan, world) == ["transport_route", "transport_price"]  # and two taxi fares for one route
    v = verify_plan(plan, problem(), world, trace_for(plan))
    assert "taxi takes 2" in v.reasons["transport_route"]


def test_broken_chain_in_a_multi_hop_transfer_is_space_connected_only() -> None:
    world = FakeWorld()
    plan = _lunch_hotel_dinner(world)
    act(plan, 1, 2)["transports"][1]["start"] = "西湖酒店北门"  # the second hop leaves from elsewhere
    assert failed(plan, world) == ["space_connected"]


# ---- empty plans are not delivered -------------------------------------------------------------


@pytest.mark.parametrize(("itinerary", "reason"), [
    ([], "no plan delivered: the itinerary is empty"),
    ([{"day": 1, "activities": []}, {"day": 2, "activities": []}], "no plan delivered: the itinerary has no activities"),
])
def test_empty_plan_is_not_delivered(itinerary: list[Any], reason: str) -> None:
    plan = {"people_number": 2, "start_city": "北京", "target_city": "杭州", "itinerary": itinerary}
    with pytest.raises(PlanParseError, match=reason):
        extract_plan("```json\n" + json.dumps(plan, ensure_ascii=False) + "\n```")
    p = problem(hard_logic=["result = total_cost(plan) <= 1000"])
    v = verify_plan(plan, p, FakeWorld(), trace_for(build_plan()))
    assert not v.delivered and v.reasons["delivered"] == reason
    assert not any(v.env_checks.values()) and v.logic_results == [False]
    good = build_plan()
    m = aggregate([verify_plan(good, p, FakeWorld(), trace_for(good)), v])
    assert m["dr"] == 0.5 and m["epr_micro"] == 0.5 and m["lpr_micro"] == 0.0  # the good plan costs more than 1000


# ---- walking is exactly free -------------------------------------------------------------------


def _walk_leg(plan: dict[str, Any]) -> dict[str, Any]:
    leg = act(plan, 2, 2)["transports"][0]
    assert leg["mode"] == "walk"
    return leg


def test_walk_leg_costing_one_yuan_fails_transport_cost() -> None:
    plan = build_plan()
    _walk_leg(plan)["cost"] = 1.0
    assert failed(plan) == ["transport_cost"]


def test_walk_leg_priced_one_yuan_fails_transport_price() -> None:
    plan = build_plan()
    _walk_leg(plan)["price"] = 1.0
    assert failed(plan) == ["transport_price"]


def test_walk_leg_within_half_a_fen_of_zero_passes() -> None:
    plan = build_plan()
    _walk_leg(plan).update(price=0.005, cost=0.004)
    assert failed(plan) == []


# ---- negative amounts are refused at parse time ------------------------------------------------


@pytest.mark.parametrize(("field", "path"), [
    ("cost", "itinerary[0].activities[4].cost"),
    ("price", "itinerary[0].activities[4].price"),
])
def test_negative_amount_is_a_field_error_and_never_meets_a_budget(field: str, path: str) -> None:
    plan = build_plan()
    act(plan, 1, 4)[field] = -1e8
    with pytest.raises(PlanParseError) as info:
        extract_plan(json.dumps(plan))
    assert f"{path}: must not be negative, got -100000000.0" in str(info.value)
    v = verify_plan(plan, problem(hard_logic=["result = total_cost(plan) <= 3000"]), FakeWorld(), trace_for(plan))
    assert not v.delivered and v.logic_results == [False] and not v.final_pass


def test_negative_leg_distance_is_a_field_error() -> None:
    plan = build_plan()
    act(plan, 1, 2)["transports"][0]["distance"] = -3.0
    with pytest.raises(PlanParseError, match=r"itinerary\[0\]\.activities\[2\]\.transports\[0\]\.distance: must not be negative"):
        extract_plan(json.dumps(plan))


# ---- one-digit hours ---------------------------------------------------------------------------


def test_one_digit_hours_are_accepted_and_normalised() -> None:
    plan = build_plan()
    text = re.sub(r'"0(\d:\d\d)"', r'"\1"', json.dumps(plan, ensure_ascii=False))
    assert '"7:00"' in text and '"8:00"' in text  # G31 leaves 7:00; day 2 starts 8:00
    parsed = extract_plan(text)
    times = [t for a in parsed.activities() for t in (a.start_time, a.end_time)]
    times += [t for a in parsed.activities() for leg in a.transports for t in (leg.start_time, leg.end_time)]
    assert "07:00" in times and "08:00" in times and all(re.fullmatch(r"\d\d:\d\d", t) for t in times)
    v = verify_plan(text, problem(hard_logic=["result = arrival_time(plan) <= '12:00'"]), FakeWorld(), trace_for(plan))
    assert v.final_pass, v.reasons


# ---- the ChinaTravel metro spelling ------------------------------------------------------------


def test_metro_and_capitalised_spellings_verify_like_their_canonical_forms() -> None:
    plan = build_plan()
    act(plan, 2, 1)["transports"][0]["mode"] = "metro"
    act(plan, 1, 1)["transports"][0]["mode"] = "Taxi"
    act(plan, 1, 1)["type"] = "Lunch"
    assert failed(plan) == []

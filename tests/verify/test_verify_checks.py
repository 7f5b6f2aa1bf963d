"""Mutation suite: one mutation of a valid plan per check; exactly that check fails."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from verify_support import FakeWorld, build_plan, problem, trace_for

from navworld.core.problem import Problem
from navworld.verify import CHECK_NAMES, verify_plan


@dataclass
class Case:
    plan: dict[str, Any]
    world: FakeWorld = field(default_factory=FakeWorld)
    problem: Problem = field(default_factory=problem)
    trace: list[dict[str, Any]] | None = None


def act(plan: dict[str, Any], day: int, i: int) -> dict[str, Any]:
    return plan["itinerary"][day - 1]["activities"][i]


def rename(plan: dict[str, Any], day: int, i: int, new: str) -> None:
    """Rename the position of an activity and the legs that arrive at / leave from it."""
    a = act(plan, day, i)
    old = a["position"]
    a["position"] = new
    for d in plan["itinerary"]:
        for other in d["activities"]:
            for leg in other["transports"]:
                if leg["end"] == old:
                    leg["end"] = new
                if leg["start"] == old:
                    leg["start"] = new


def spec_plan(**spec: Any) -> Callable[[Case], None]:
    def mutate(c: Case) -> None:
        c.plan = build_plan(c.world, spec)

    return mutate


def world_override(name: str, **fields: Any) -> Callable[[Case], None]:
    def mutate(c: Case) -> None:
        c.world = FakeWorld({name: fields})

    return mutate


def m_task_no_origin(c: Case) -> None:
    c.problem = problem(origin_city="")
    c.plan["start_city"] = ""


def m_shape(c: Case) -> None:
    a = act(c.plan, 1, 1)
    taxi = a["transports"][0]
    first = dict(taxi, end="中转点", end_time=taxi["start_time"])
    second = {"mode": "transit", "start": "中转点", "end": taxi["end"], "start_time": taxi["start_time"],
              "end_time": taxi["end_time"], "distance": 1.0, "price": 2.0, "tickets": 2, "cost": 4.0}
    a["transports"] = [first, second]


def m_leg(day: int, i: int, **fields: Any) -> Callable[[Case], None]:
    def mutate(c: Case) -> None:
        c.plan["itinerary"][day - 1]["activities"][i]["transports"][0].update(fields)

    return mutate


def m_act(day: int, i: int, **fields: Any) -> Callable[[Case], None]:
    def mutate(c: Case) -> None:
        act(c.plan, day, i).update(fields)

    return mutate


def m_bump(day: int, i: int, key: str, delta: float, leg: bool = False) -> Callable[[Case], None]:
    def mutate(c: Case) -> None:
        target = act(c.plan, day, i)
        if leg:
            target = target["transports"][0]
        target[key] = target[key] + delta

    return mutate


def m_rename(day: int, i: int, new: str) -> Callable[[Case], None]:
    def mutate(c: Case) -> None:
        rename(c.plan, day, i, new)

    return mutate


def m_price(day: int, i: int, price: float, per: int = 2, leg: bool = False) -> Callable[[Case], None]:
    def mutate(c: Case) -> None:
        target = act(c.plan, day, i)
        if leg:
            target = target["transports"][0]
        target.update(price=price, cost=price * per)

    return mutate


def m_shift_leg(day: int, i: int, minutes: int) -> Callable[[Case], None]:
    def mutate(c: Case) -> None:
        from navworld.core.plan import format_minutes, to_minutes

        leg = act(c.plan, day, i)["transports"][0]
        leg["start_time"] = format_minutes(to_minutes(leg["start_time"]) + minutes)
        leg["end_time"] = format_minutes(to_minutes(leg["end_time"]) + minutes)

    return mutate


def m_ungrounded(c: Case) -> None:
    c.trace = trace_for(c.plan, omit="灵隐寺")


MUTATIONS: dict[str, Callable[[Case], None]] = {
    "itinerary_days": lambda c: c.plan["itinerary"][1].update(day=3),
    "task_match": lambda c: c.plan.update(start_city="上海"),
    "activity_fields": m_act(1, 1, TrainID="G31"),
    "intercity_endpoints": m_task_no_origin,
    "intercity_exists": m_act(1, 0, TrainID="G9999"),  # wrong train number
    "intercity_stations": m_act(1, 0, start="北京西站"),
    "intercity_times": m_act(1, 0, start_time="06:50"),
    "intercity_price": m_price(1, 0, 700.0),
    "intercity_cost": m_bump(1, 0, "cost", 100),
    "transport_shape": m_shape,
    "transport_route": m_leg(1, 2, distance=30.0),  # unreachable / made-up leg distance
    "transport_price": m_price(1, 2, 50.0, per=1, leg=True),
    "transport_cost": m_bump(1, 2, "cost", 10, leg=True),
    "attraction_exists": m_rename(1, 2, "不存在的景点"),
    "attraction_open": world_override("灵隐寺", close="14:00"),  # closed attraction
    "attraction_price": m_price(1, 2, 55.0),  # wrong price
    "attraction_cost": m_bump(1, 2, "cost", 10),
    "attraction_unique": spec_plan(day2=[("breakfast", "知味观", "08:00", 30), ("attraction", "灵隐寺", "09:00", 120),
                                         ("lunch", "素食坊", "11:30", 60)]),
    "restaurant_exists": m_rename(1, 1, "不存在的餐厅"),
    "restaurant_open": world_override("外婆家", open="12:30"),
    "restaurant_price": m_price(1, 1, 95.0),
    "restaurant_cost": m_bump(1, 1, "cost", 10),
    "restaurant_unique": spec_plan(day2=[("breakfast", "知味观", "08:00", 30), ("attraction", "西湖", "09:00", 120),
                                         ("lunch", "外婆家", "11:30", 60)]),  # repeated restaurant
    "meal_window": spec_plan(day1=[("lunch", "外婆家", "14:40", 60), ("attraction", "灵隐寺", "15:50", 90),
                                   ("dinner", "川味馆", "18:00", 60)]),
    "meals_per_day": spec_plan(day1=[("lunch", "外婆家", "12:00", 60), ("lunch", "楼外楼", "13:30", 30),
                                     ("attraction", "灵隐寺", "14:30", 90), ("dinner", "川味馆", "17:30", 60)]),
    "hotel_exists": m_rename(1, 4, "不存在的酒店"),
    "hotel_price": m_price(1, 4, 450.0, per=1),
    "hotel_room_type": m_act(1, 4, room_type=1),
    "hotel_cost": m_bump(1, 4, "cost", 100),
    "hotel_nights": spec_plan(hotel=None),  # missing hotel
    "time_valid": lambda c: act(c.plan, 1, 2).update(end_time=act(c.plan, 1, 2)["start_time"]),
    "time_sequence": m_act(1, 2, end_time="17:40"),  # overlaps dinner (17:30)
    "transport_timing": m_shift_leg(1, 1, 40),  # the taxi arrives after lunch started
    "space_connected": m_act(1, 3, transports=[]),
    "capacity_tickets": lambda c: act(c.plan, 1, 2).update(tickets=1, cost=45.0),  # too few tickets
    "capacity_cars": lambda c: act(c.plan, 1, 2)["transports"][0].update(cars=0, cost=0.0),
    "capacity_rooms": spec_plan(hotel="如家酒店", rooms=1),  # 1 single room for 2 people
    "grounding": m_ungrounded,  # ungrounded POI
}


def test_every_check_has_a_mutation() -> None:
    assert set(MUTATIONS) == set(CHECK_NAMES)


def test_valid_plan_passes_everything() -> None:
    plan = build_plan()
    v = verify_plan(plan, problem(), FakeWorld(), trace_for(plan))
    assert v.delivered and v.env_passed and v.final_pass, v.reasons
    assert set(v.env_checks) == set(CHECK_NAMES)
    assert v.reasons == {}


ALSO_FAILS: dict[str, tuple[str, ...]] = {
    # the mixed-mode mutation changes mode at an invented place: nothing to check that part against
    "transport_shape": ("transport_route",),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_mutation_fails_exactly_its_check(name: str) -> None:
    case = Case(plan=copy.deepcopy(build_plan()))
    MUTATIONS[name](case)
    trace = case.trace if case.trace is not None else trace_for(case.plan)
    v = verify_plan(case.plan, case.problem, case.world, trace)
    assert v.delivered
    expected = sorted([name, *ALSO_FAILS.get(name, ())], key=CHECK_NAMES.index)
    assert v.failed_checks == expected, {k: v.reasons.get(k) for k in v.failed_checks}
    assert v.reasons[name]
    assert not v.final_pass


def test_grounding_not_checked_without_trace() -> None:
    v = verify_plan(build_plan(), problem(), FakeWorld(), None)
    assert v.env_checks["grounding"] is True
    assert v.skipped == ("grounding",)
    assert v.reasons["grounding"].startswith("not checked")
    assert v.final_pass


def test_empty_trace_grounds_nothing() -> None:
    v = verify_plan(build_plan(), problem(), FakeWorld(), [])
    assert v.failed_checks == ["grounding"]


def test_hotel_breakfast_is_allowed_once() -> None:
    plan = build_plan(spec={"day2": [("breakfast", "西湖酒店", "08:00", 30), ("attraction", "西湖", "09:00", 120),
                                      ("lunch", "素食坊", "11:30", 60)]})
    v = verify_plan(plan, problem(), FakeWorld(), trace_for(plan))
    assert v.final_pass, v.reasons
    act(plan, 2, 0).update(price=30.0, cost=60.0)
    v = verify_plan(plan, problem(), FakeWorld(), trace_for(plan))
    assert v.failed_checks == ["restaurant_price"]


def test_no_origin_trip_without_intercity_passes() -> None:
    plan = build_plan()
    plan["start_city"] = ""
    days = plan["itinerary"]
    days[0]["activities"].pop(0)
    days[0]["activities"][0]["transports"] = []
    days[1]["activities"].pop()
    v = verify_plan(plan, problem(origin_city=""), FakeWorld(), trace_for(plan))
    assert v.final_pass, v.reasons


def test_chinatravel_three_leg_metro_transfer_is_accepted() -> None:
    plan = build_plan()
    a = act(plan, 2, 1)
    leg = a["transports"][0]
    walk1 = {"mode": "walk", "start": leg["start"], "end": "凤起路-地铁站", "start_time": leg["start_time"],
             "end_time": leg["start_time"], "distance": 0.0, "price": 0, "cost": 0}
    metro = dict(leg, mode="metro", start="凤起路-地铁站", end="龙翔桥-地铁站")
    walk2 = dict(walk1, start="龙翔桥-地铁站", end=leg["end"], start_time=leg["end_time"], end_time=leg["end_time"])
    a["transports"] = [walk1, metro, walk2]
    v = verify_plan(plan, problem(), FakeWorld(), trace_for(plan))
    assert v.final_pass, v.reasons


def test_not_delivered_fails_everything() -> None:
    p = problem(hard_logic=["result = True"], preferences=["maximize n\nn = 1"])
    v = verify_plan("no plan here", p, FakeWorld())
    d = v.to_dict()
    assert d["delivered"] is False and d["final_pass"] is False
    assert not any(d["env"]["checks"].values()) and len(d["env"]["checks"]) == len(CHECK_NAMES)
    assert d["logic"]["results"] == [False] and d["logic"]["errors"] == ["no plan delivered"]
    assert d["preferences"] == {"n": None}
    assert "no JSON plan" in d["reasons"]["delivered"]


def test_to_dict_shape_and_logic() -> None:
    p = problem(
        hard_logic=["result = day_count(plan) == 2", "result = total_cost(plan) <= 100", "result = undefined_fn(plan)"],
        preferences=["minimize cost\ncost = total_cost(plan)", "maximize n\nn = attraction_count(plan)"],
    )
    plan = build_plan()
    d = verify_plan(plan, p, FakeWorld(), trace_for(plan)).to_dict()
    assert set(d) == {"delivered", "env", "logic", "preferences", "final_pass", "reasons", "violations"}
    assert d["env"]["passed"] is True
    assert d["logic"]["results"] == [True, False, None]
    assert d["logic"]["errors"][:2] == [None, None] and "undefined_fn" in d["logic"]["errors"][2]
    assert d["logic"]["passed"] is False and d["final_pass"] is False
    assert d["preferences"]["n"] == 2.0 and d["preferences"]["cost"] > 3000


def test_check_exception_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    from navworld.verify import registry

    spec = next(c for c in registry.CHECKS if c.name == "hotel_price")

    def boom(cx: Any) -> Any:
        raise RuntimeError("bug")

    patched = [registry.CheckSpec(c.name, c.group, c.description, boom) if c is spec else c for c in registry.CHECKS]
    monkeypatch.setattr(registry, "CHECKS", patched)
    monkeypatch.setattr("navworld.verify.checks.CHECKS", patched)
    plan = build_plan()
    v = verify_plan(plan, problem(), FakeWorld(), trace_for(plan))
    assert v.failed_checks == ["hotel_price"]
    assert "internal error" in v.reasons["hotel_price"]


def test_grounding_needs_the_whole_name() -> None:
    from navworld.verify.check_time import mentioned

    assert mentioned("西湖", "name: 西湖\n") and mentioned("G7205", "车次 G7205（高铁）")
    assert not mentioned("西湖", "name: 西湖醋鱼老店") and not mentioned("G72", "车次 G7205（高铁）")
    assert mentioned("西湖", "name: 西湖醋鱼老店\nname: 西湖")
    assert mentioned("如家酒店(杭州上城店)", "name: 如家酒店(杭州上城店)")
    plan = build_plan()
    trace = trace_for(plan, omit="西湖")
    trace[-1]["content"] += "\nname: 西湖醋鱼老店"
    v = verify_plan(plan, problem(), FakeWorld(), trace)
    assert v.failed_checks == ["grounding"] and "西湖" in v.reasons["grounding"]

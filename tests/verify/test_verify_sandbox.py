"""A plan built from the real sandbox world passes every check; mutations fail the intended one."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from navworld.core.plan import to_minutes
from navworld.core.problem import Problem
from navworld.verify import CHECK_NAMES, verify_plan
from navworld.verify.builder import PlanBuilder
from navworld.verify.check_pois import open_during

sandbox = pytest.importorskip("navworld.world.sandbox")

DATE = "2025-05-01"
BACK = "2025-05-02"


@pytest.fixture(scope="module")
def world() -> Any:
    return sandbox.SandboxWorld(salt="verify-test")


def _open_pois(world: Any, city: str, kind: str, start: str, end: str, exclude: set[str]) -> list[Any]:
    s, e = to_minutes(start), to_minutes(end)
    return [p for p in world.pois(city, kind) if p.name not in exclude and open_during(p, s, e)]


def build_sandbox_plan(world: Any, origin: str = "上海", target: str = "杭州", people: int = 2) -> tuple[dict[str, Any], Problem]:
    go = min((t for t in world.train_list(DATE, origin, target) if not t.next_day and t.arr_time <= "11:00"),
             key=lambda t: t.arr_time)
    back = min((t for t in world.train_list(BACK, target, origin) if t.dep_time >= "17:30" and not t.next_day),
               key=lambda t: t.dep_time)
    used: set[str] = set()

    def pick(kind: str, start: str, end: str) -> str:
        name = _open_pois(world, target, kind, start, end, used)[0].name
        used.add(name)
        return name

    b = PlanBuilder(world, people=people, start_city=origin, target_city=target)
    b.intercity(go)
    b.visit("lunch", pick("restaurant", "11:30", "14:00"), at="11:30", minutes=60)
    b.visit("attraction", pick("attraction", "13:00", "18:00"), at="14:00", minutes=90)
    b.visit("dinner", pick("restaurant", "17:00", "20:30"), at="18:00", minutes=60)
    hotel = world.pois(target, "hotel")[0]
    b.visit("accommodation", hotel.name, at="21:00")
    b.next_day("08:00")
    b.visit("breakfast", hotel.name, at="08:00", minutes=30)
    b.visit("attraction", pick("attraction", "08:30", "13:00"), at="09:00", minutes=120, mode="transit")
    b.visit("lunch", pick("restaurant", "11:00", "15:00"), at="12:00", minutes=60, mode="taxi")
    b.intercity(back)
    problem = Problem(task_id=7, problem_type="multiday", origin_city=origin, destination_city=target,
                      travel_date=DATE, num_days=2, group_size=people)
    return b.plan(), problem


def _trace(plan: dict[str, Any]) -> list[dict[str, Any]]:
    names = [a.get("position") or a.get("TrainID") or a.get("FlightID") for d in plan["itinerary"] for a in d["activities"]]
    return [{"role": "tool", "tool_call_id": "x", "content": "\n".join(n for n in names if n)}]


def test_sandbox_plan_passes_every_check(world: Any) -> None:
    plan, problem = build_sandbox_plan(world)
    v = verify_plan(plan, problem, world, _trace(plan))
    assert v.final_pass, {k: v.reasons[k] for k in v.failed_checks}
    assert set(v.env_checks) == set(CHECK_NAMES)


@pytest.mark.parametrize(
    ("check", "mutate"),
    [
        ("intercity_exists", lambda p: p["itinerary"][0]["activities"][0].update(TrainID="G1")),
        ("attraction_price", lambda p: p["itinerary"][0]["activities"][2].update(price=999.0, cost=1998.0)),
        ("transport_route", lambda p: p["itinerary"][0]["activities"][1]["transports"][0].update(distance=99.0)),
        ("hotel_room_type", lambda p: p["itinerary"][0]["activities"][4].update(room_type=9)),
    ],
)
def test_sandbox_mutations(world: Any, check: str, mutate: Any) -> None:
    plan, problem = build_sandbox_plan(world)
    plan = copy.deepcopy(plan)
    mutate(plan)
    v = verify_plan(plan, problem, world, _trace(plan))
    assert v.failed_checks == [check], v.reasons


def test_sandbox_dsl_concepts(world: Any) -> None:
    plan, problem = build_sandbox_plan(world)
    lunch = plan["itinerary"][0]["activities"][1]["position"]
    cuisine = world.find_poi("杭州", lunch).cuisine
    p = problem.model_copy(update={"hard_logic": [
        "cuisines = set()\nfor a in allactivities(plan):\n    if activity_type(a) in ['lunch', 'dinner']:\n"
        "        cuisines.add(restaurant_type(a, target_city(plan)))\nresult = {" + repr(cuisine) + "} <= cuisines",
        "result = intercity_types(plan) == {'train'}",
        "result = total_cost(plan) < 100000",
    ]})
    v = verify_plan(plan, p, world, _trace(plan))
    assert v.logic_results == [True, True, True], v.logic_errors

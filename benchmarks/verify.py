"""Plans verified per second: a typical 3-day plan with 8 constraints and 2 preferences, one core.

Run: ``python benchmarks/verify.py [--seconds 3]``. Prints the rate for a plan given as JSON (parse +
38 environment checks + 8 programs + 2 preferences + grounding against a trace) and for the same
plan embedded in an answer text. The sandbox world is warmed first (world lookups are cached per
world, as in a batch run). Target: ≥ 500 plans/s.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from navworld.core.problem import Problem
from navworld.verify import verify_plan
from navworld.verify.builder import PlanBuilder
from navworld.verify.check_pois import open_during
from navworld.world.sandbox import SandboxWorld

CONSTRAINTS = [
    # budget
    "total = 0\nfor a in allactivities(plan):\n    total += activity_cost(a) + innercity_transport_cost(activity_transports(a))\n"
    "result = total <= 20000",
    # cuisine set
    "food = set()\nfor a in allactivities(plan):\n    if activity_type(a) in ['breakfast', 'lunch', 'dinner']:\n"
    "        food.add(restaurant_type(a, target_city(plan)))\nresult = len(food) >= 2",
    # must-visit
    "names = set()\nfor a in allactivities(plan):\n    if activity_type(a) == 'attraction':\n"
    "        names.add(activity_position(a))\nresult = len(names) >= 3",
    # transport-mode set (guarded)
    "modes = set()\nfor a in allactivities(plan):\n    if activity_transports(a) != []:\n"
    "        modes.add(innercity_transport_type(activity_transports(a)))\nresult = modes <= {'metro', 'taxi', 'walk'}",
    # ticket counts
    "result = True\nfor a in allactivities(plan):\n    if activity_type(a) in ['attraction', 'train', 'airplane'] and activity_tickets(a) != 2:\n"
    "        result = False",
    # rooms and room type
    "result = True\nfor a in allactivities(plan):\n    if activity_type(a) == 'accommodation' and room_count(a) * room_type(a) < 2:\n"
    "        result = False",
    # days, people, arrival
    "result = day_count(plan) == 3 and people_count(plan) == 2 and arrival_time(plan) <= '12:00'",
    # negation OR intercity type
    "result = not ({'火锅'} & restaurant_cuisines(plan)) or intercity_types(plan) == {'train'}",
]
PREFERENCES = [
    "maximize n\nn = attraction_count(plan)",
    "minimize t\nt = 0\nfor a in allactivities(plan):\n    t += innercity_transport_time(activity_transports(a))",
]


def build(world: SandboxWorld) -> tuple[dict[str, Any], Problem]:
    """A 3-day Shanghai → Hangzhou plan built from sandbox lookups."""
    origin, target, date = "上海", "杭州", "2025-05-01"
    go = min((t for t in world.train_list(date, origin, target) if t.arr_time <= "11:00" and not t.next_day), key=lambda t: t.arr_time)
    back = min((t for t in world.train_list("2025-05-03", target, origin) if t.dep_time >= "17:30" and not t.next_day),
               key=lambda t: t.dep_time)
    used: set[str] = set()

    def pick(kind: str, start: str, end: str) -> str:
        from navworld.core.plan import to_minutes

        for p in world.pois(target, kind):
            if p.name not in used and open_during(p, to_minutes(start), to_minutes(end)):
                used.add(p.name)
                return p.name
        raise RuntimeError(f"no {kind} open {start}-{end}")

    hotel = world.pois(target, "hotel")[0].name
    b = PlanBuilder(world, people=2, start_city=origin, target_city=target)
    b.intercity(go)
    b.visit("lunch", pick("restaurant", "11:30", "14:00"), at="11:30")
    b.visit("attraction", pick("attraction", "13:00", "18:00"), at="14:00", minutes=90, mode="transit")
    b.visit("dinner", pick("restaurant", "17:00", "20:30"), at="18:00")
    b.visit("accommodation", hotel, at="21:00")
    b.next_day()
    b.visit("breakfast", hotel, at="08:00", minutes=30)
    b.visit("attraction", pick("attraction", "08:30", "13:00"), at="09:00", minutes=120, mode="transit")
    b.visit("lunch", pick("restaurant", "11:00", "15:00"), at="12:00", mode="walk")
    b.visit("attraction", pick("attraction", "13:00", "18:00"), at="14:00", minutes=120)
    b.visit("dinner", pick("restaurant", "17:00", "21:00"), at="18:00")
    b.visit("accommodation", hotel, at="21:00")
    b.next_day()
    b.visit("breakfast", hotel, at="08:00", minutes=30)
    b.visit("attraction", pick("attraction", "08:30", "13:00"), at="09:00", minutes=120, mode="transit")
    b.visit("lunch", pick("restaurant", "11:00", "15:00"), at="12:00")
    b.intercity(back)
    problem = Problem(task_id=0, problem_type="multiday", origin_city=origin, destination_city=target, travel_date=date,
                      num_days=3, group_size=2, hard_logic=CONSTRAINTS, preferences=PREFERENCES)
    return b.plan(), problem


def rate(fn: Any, seconds: float) -> tuple[float, float]:
    """``(calls per CPU second, calls per wall second)`` of ``fn`` over about ``seconds``.

    The CPU-time rate is the single-core figure (this process's CPU time only, so it does not
    drop when other processes share the core); the wall rate is what this run observed.
    """
    n, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        fn()
        n += 1
    return n / (time.process_time() - cpu), n / (time.perf_counter() - wall)


def main() -> None:
    """Print the verification rate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    world = SandboxWorld(salt="bench")
    plan, problem = build(world)
    names = [a.get("position") or a.get("TrainID") for d in plan["itinerary"] for a in d["activities"]]
    trace = [{"role": "tool", "tool_call_id": "t", "content": "\n".join(n for n in names if n) + "\n" + "x" * 20000}]
    answer = "我的行程如下。\n```json\n" + json.dumps(plan, ensure_ascii=False, indent=2) + "\n```\n祝旅途愉快！"
    first = verify_plan(plan, problem, world, trace)
    assert first.final_pass, {k: first.reasons[k] for k in first.failed_checks} or first.logic_errors
    activities = sum(len(d["activities"]) for d in plan["itinerary"])
    legs = sum(len(a["transports"]) for d in plan["itinerary"] for a in d["activities"])
    print(f"plan: 3 days, {activities} activities, {legs} legs; {len(CONSTRAINTS)} constraints, {len(PREFERENCES)} preferences")
    cpu_json, wall_json = rate(lambda: verify_plan(plan, problem, world, trace), args.seconds)
    cpu_text, wall_text = rate(lambda: verify_plan(answer, problem, world, trace), args.seconds)
    print(f"verify_plan(plan JSON):   {cpu_json:8.0f} plans/s on one core ({1000 / cpu_json:.2f} ms CPU/plan; wall {wall_json:.0f}/s)")
    print(f"verify_plan(answer text): {cpu_text:8.0f} plans/s on one core ({1000 / cpu_text:.2f} ms CPU/plan; wall {wall_text:.0f}/s)")
    print(f"target ≥ 500 plans/s: {'met' if min(cpu_json, cpu_text) >= 500 else 'NOT met'}")


if __name__ == "__main__":
    main()

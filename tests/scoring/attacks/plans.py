"""Plan mutations of the attack suite: each takes a (deep-copied) JSON plan and breaks it one way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from navworld.core.problem import Problem

from .context import TaskContext

__all__ = [
    "activities",
    "budget_10x",
    "core_removed",
    "empty_itinerary",
    "first_day_only",
    "hotel_is_restaurant",
    "legs_reversed",
    "must_visit_removed",
    "negative_costs",
    "overlap",
    "swap_entities",
    "template_plan",
]

Plan = dict[str, Any]
MEALS = ("breakfast", "lunch", "dinner")
TRANSPORT = ("airplane", "train")


def activities(plan: Plan) -> Iterator[dict[str, Any]]:
    """Every activity of the plan, in order."""
    for day in plan.get("itinerary") or ():
        yield from day.get("activities") or ()


def _money(obj: dict[str, Any], f: Any) -> None:
    for key in ("price", "cost"):
        if isinstance(obj.get(key), int | float):
            obj[key] = f(obj[key])


def overlap(plan: Plan, ctx: TaskContext) -> Plan:
    """Every activity and leg at 09:00–10:00."""
    for a in activities(plan):
        a["start_time"], a["end_time"] = "09:00", "10:00"
        for leg in a.get("transports") or ():
            leg["start_time"], leg["end_time"] = "09:00", "10:00"
    return plan


def budget_10x(plan: Plan, ctx: TaskContext) -> Plan:
    """Every price and cost × 10."""
    for a in activities(plan):
        _money(a, lambda v: v * 10)
        for leg in a.get("transports") or ():
            _money(leg, lambda v: v * 10)
    return plan


def negative_costs(plan: Plan, ctx: TaskContext) -> Plan:
    """Every price and cost negated (zero stays zero)."""
    for a in activities(plan):
        _money(a, lambda v: -abs(v) if v else -1)
        for leg in a.get("transports") or ():
            _money(leg, lambda v: -abs(v) if v else -1)
    return plan


def hotel_is_restaurant(plan: Plan, ctx: TaskContext) -> Plan:
    """Every accommodation's position replaced by the plan's first restaurant."""
    restaurant = next(
        (a["position"] for a in activities(plan) if a.get("type") in MEALS and a.get("position")), None
    )
    for a in activities(plan):
        if a.get("type") == "accommodation" and restaurant:
            a["position"] = restaurant
    return plan


def legs_reversed(plan: Plan, ctx: TaskContext) -> Plan:
    """Each day's activities in reverse order; every leg's and transport's start/end swapped."""
    for day in plan.get("itinerary") or ():
        day["activities"] = list(reversed(day.get("activities") or []))
        for a in day["activities"]:
            if a.get("type") in TRANSPORT:
                a["start"], a["end"] = a.get("end"), a.get("start")
            for leg in a.get("transports") or ():
                leg["start"], leg["end"] = leg.get("end"), leg.get("start")
    return plan


def _drop(plan: Plan, gone: Any) -> Plan:
    for day in plan.get("itinerary") or ():
        day["activities"] = [a for a in day.get("activities") or [] if not gone(a)]
    return plan


def must_visit_removed(plan: Plan, ctx: TaskContext) -> Plan:
    """The task's must-visit attractions removed."""
    must = set(ctx.problem.extra.get("must_visit") or ())
    return _drop(plan, lambda a: a.get("type") == "attraction" and a.get("position") in must)


CORE_TYPES = {
    "intercity": TRANSPORT,
    "business": TRANSPORT,
    "food_tour": MEALS,
    "multiday": ("attraction",),
    "hybrid": ("attraction",),
    "single_poi": ("attraction",),
    "family_study": ("attraction",),
}
"""What each problem type is about: intercity transport, meals, or sights."""


def core_removed(plan: Plan, ctx: TaskContext) -> Plan:
    """Every activity of the type's core kind removed (transport, meals or sights)."""
    core = CORE_TYPES[ctx.problem.problem_type]
    return _drop(plan, lambda a: a.get("type") in core)


def first_day_only(plan: Plan, ctx: TaskContext) -> Plan:
    """Only the first day of the itinerary kept."""
    plan["itinerary"] = (plan.get("itinerary") or [])[:1]
    return plan


def empty_itinerary(plan: Plan, ctx: TaskContext) -> Plan:
    """The itinerary emptied."""
    plan["itinerary"] = []
    return plan


_KIND_OF_TYPE = {"attraction": "attraction", "accommodation": "hotel", **dict.fromkeys(MEALS, "restaurant")}


def _kind(rec: dict[str, str]) -> str:
    t = rec.get("type", "")
    return "restaurant" if "餐饮" in t else "hotel" if "住宿" in t else "hub" if "交通" in t else "attraction"


def _price(rec: dict[str, str]) -> float:
    digits = "".join(ch for ch in rec.get("cost", "").split("元")[0] if ch.isdigit() or ch == ".")
    return float(digits) if digits else 0.0


def swap_entities(plan: Plan, pois: list[dict[str, str]], options: list[dict[str, Any]]) -> Plan:
    """Each POI replaced by another tool POI of the same kind, each flight/train by another
    option of the same search (its times, stations and fare), so the plan disagrees with the prose."""
    used = {a.get("position") for a in activities(plan)}
    spare: dict[str, list[dict[str, str]]] = {}
    for rec in pois:
        if rec["name"] not in used and rec["name"] not in {r["name"] for r in spare.get(_kind(rec), [])}:
            spare.setdefault(_kind(rec), []).append(rec)
    chosen: dict[str, dict[str, str]] = {}
    for a in activities(plan):
        kind = _KIND_OF_TYPE.get(a.get("type", ""))
        pos = a.get("position")
        if kind and pos and spare.get(kind):
            rec = chosen.setdefault(pos, spare[kind].pop(0)) if pos not in chosen else chosen[pos]
            a["position"] = rec["name"]
            if not (kind == "restaurant" and a.get("price") == 0):  # breakfast at the hotel stays free
                n = (a.get("cost") or 0) / a["price"] if a.get("price") else 1
                a["price"] = _price(rec)
                a["cost"] = round(a["price"] * n, 2)
        tid = a.get("FlightID") or a.get("TrainID")
        if tid:
            same = next((o for o in options if o["id"] == tid), None)
            alt = next(
                (
                    o
                    for o in options
                    if same
                    and o["id"] != tid
                    and o["from"][:2] == same["from"][:2]
                    and o["mode"] == same["mode"]
                ),
                None,
            )
            if alt:
                a["FlightID" if "FlightID" in a else "TrainID"] = alt["id"]
                n = (a.get("cost") or 0) / a["price"] if a.get("price") else 1
                a.update(
                    start=alt["from"],
                    end=alt["to"],
                    start_time=alt["dep"],
                    end_time=alt["arr"],
                    price=alt["price"],
                    cost=alt["price"] * n,
                )
    return plan


_SLOTS = (
    ("attraction", "09:00", "11:00"),
    ("lunch", "12:00", "13:00"),
    ("attraction", "14:00", "16:00"),
    ("dinner", "18:00", "19:00"),
    ("accommodation", "21:00", "24:00"),
)


def template_plan(problem: Problem, pois: list[dict[str, str]]) -> Plan:
    """Every day the next tool POIs in fixed slots, tool prices, no legs, no intercity transport."""
    by_kind: dict[str, list[dict[str, str]]] = {}
    for rec in pois:
        lst = by_kind.setdefault(_kind(rec), [])
        if rec["name"] not in {r["name"] for r in lst}:
            lst.append(rec)
    n = max(1, problem.group_size)
    cursor: dict[str, int] = {}
    itinerary = []
    for d in range(max(1, problem.num_days)):
        acts = []
        for typ, start, end in _SLOTS:
            kind = _KIND_OF_TYPE[typ]
            options = by_kind.get(kind) or by_kind.get("attraction") or [{"name": problem.destination_city}]
            i = cursor.get(kind, 0)
            cursor[kind] = i + 1
            rec = options[i % len(options)] if kind != "hotel" else options[0]
            price = _price(rec)
            act = {
                "type": typ,
                "position": rec["name"],
                "start_time": start,
                "end_time": end,
                "price": price,
                "cost": price * n,
                "transports": [],
            }
            if typ == "attraction":
                act["tickets"] = n
            if typ == "accommodation":
                act.update(rooms=-(-n // 2), room_type=2, cost=price * -(-n // 2))
            acts.append(act)
        itinerary.append({"day": d + 1, "activities": acts})
    return {
        "people_number": n,
        "start_city": problem.origin_city or problem.destination_city,
        "target_city": problem.destination_city,
        "itinerary": itinerary,
    }

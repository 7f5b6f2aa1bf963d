"""Build a cheap plan that meets a problem's hard requirements (a satisfiability witness for tests).

It uses the same world facts the generator priced its floor with: the cheapest allowed round
trip, the cheapest suitable hotel, the required restaurants and attractions. Times are simple
fixed slots; the DSL programs check logic (not opening hours), so this is enough to prove that
every hard program can be satisfied within the budget.
"""

from __future__ import annotations

from typing import Any

from navworld.core.problem import Problem
from navworld.tasks.generator import ProblemGenerator
from navworld.tasks.knowledge import RestaurantOption

SLOTS = (("breakfast", "07:30", "08:00"), ("lunch", "12:00", "13:00"), ("dinner", "18:00", "19:00"))
ATTRACTION_SLOTS = (("09:00", "11:00"), ("14:00", "16:00"))


def _intercity(option: Any, people: int) -> dict[str, Any]:
    kind = option.mode
    act = {
        "type": kind,
        "start_time": option.dep,
        "end_time": option.arr,
        "start": "A",
        "end": "B",
        "price": option.price,
        "cost": option.price * people,
        "tickets": people,
        "transports": [],
    }
    act["FlightID" if kind == "airplane" else "TrainID"] = option.number
    return act


def build_floor_plan(problem: Problem, gen: ProblemGenerator) -> dict[str, Any]:
    """A plan dict meeting every hard requirement of ``problem`` (raises AssertionError if it cannot)."""
    sk = gen.skeleton(problem.task_id)
    h = sk.hard
    facts = gen.kg.facts(sk.destination)
    people, days = sk.group_size, sk.num_days
    rt = None
    if sk.origin:
        modes = (h.intercity_mode,) if h.intercity_mode else sk.modes
        rt = gen.calc.round_trip(
            sk.travel_date, sk.return_date, sk.origin, sk.destination, modes,
            arrive_by=h.arrival_before, no_red_eye=h.no_red_eye,
        )
        assert rt is not None, f"task {problem.task_id}: no round trip"

    used: set[str] = set()

    def take(pred: Any, meal: str) -> RestaurantOption | None:
        for r in facts.restaurants:
            if r.name not in used and pred(r) and r.serves(meal):
                used.add(r.name)
                return r
        return None

    # meal slots: lunches first, then dinners (the last day's dinner is dropped under finish_by)
    slots = [(d, "lunch") for d in range(1, days + 1)] + [(d, "dinner") for d in range(1, days + 1)]
    if h.finish_by:
        slots = [s for s in slots if not (s[0] == days and s[1] == "dinner")]
    assigned: dict[tuple[int, str], RestaurantOption] = {}
    required: list[Any] = []
    if h.cuisines:
        wanted = set(h.cuisines)
        required.append(lambda r: r.cuisine in wanted)
    required += [lambda r: r.cuisine == "素食"] * h.vegetarian_meals
    for pred in required:
        for slot in slots:
            if slot in assigned:
                continue
            got = take(pred, slot[1])
            if got is not None:
                assigned[slot] = got
                break
        else:
            raise AssertionError(f"task {problem.task_id}: no slot for a required restaurant")

    must = list(h.must_visit)
    others = [name for _, name in facts.attractions if name not in must]
    per_day = min(2, h.max_attractions_per_day or 2)
    hotels = gen.calc.suitable_hotels(facts, h.hotel_features, h.max_hotel_price)
    hotel = min(hotels, key=lambda x: x.price * x.rooms_for(people)) if sk.nights else None

    itinerary = []
    prices = {name: price for price, name in facts.attractions}
    for d in range(1, days + 1):
        acts: list[dict[str, Any]] = []
        if d == 1 and rt is not None:
            acts.append(_intercity(rt[0], people))
        for meal, _start, _end in SLOTS:
            if (d, meal) not in assigned and meal != "breakfast":
                got = take(lambda r: True, meal)
                if got is not None:
                    assigned[(d, meal)] = got
        for i, (start, end) in enumerate(ATTRACTION_SLOTS[:per_day]):
            name = must.pop(0) if must else (others.pop(0) if others else None)
            if name is None:
                break
            p = prices[name]
            acts.append({"type": "attraction", "position": name, "start_time": start, "end_time": end,
                         "price": p, "cost": p * people, "tickets": people, "transports": []})
            if i == 0 and (d, "lunch") in assigned:
                r = assigned[(d, "lunch")]
                acts.append({"type": "lunch", "position": r.name, "start_time": "12:00", "end_time": "13:00",
                             "price": r.price, "cost": r.price * people, "transports": []})
        if not any(a["type"] == "lunch" for a in acts) and (d, "lunch") in assigned:
            r = assigned[(d, "lunch")]
            acts.append({"type": "lunch", "position": r.name, "start_time": "12:00", "end_time": "13:00",
                         "price": r.price, "cost": r.price * people, "transports": []})
        if (d, "dinner") in assigned and not (d == days and h.finish_by):
            r = assigned[(d, "dinner")]
            acts.append({"type": "dinner", "position": r.name, "start_time": "18:00", "end_time": "19:00",
                         "price": r.price, "cost": r.price * people, "transports": []})
        if hotel is not None and d < days:
            rooms = hotel.rooms_for(people)
            acts.append({"type": "accommodation", "position": hotel.name, "start_time": "21:00", "end_time": "24:00",
                         "price": hotel.price, "cost": hotel.price * rooms, "rooms": rooms,
                         "room_type": hotel.beds, "transports": []})
        if d == days and rt is not None:
            acts.append(_intercity(rt[1], people))
        if d == days and h.finish_by:
            acts = [a for a in acts if a["end_time"] <= h.finish_by or a["type"] in ("airplane", "train")]
        itinerary.append({"day": d, "activities": acts})
    assert not must, f"task {problem.task_id}: must-visit attractions left over"
    return {
        "people_number": people,
        "start_city": sk.origin or sk.destination,
        "target_city": sk.destination,
        "itinerary": itinerary,
    }


def plan_cost(plan: dict[str, Any]) -> float:
    """Total cost of a plan dict."""
    return sum(a["cost"] for d in plan["itinerary"] for a in d["activities"])

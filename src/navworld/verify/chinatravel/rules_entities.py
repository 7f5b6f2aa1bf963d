"""ChinaTravel's entity validators: intercity transport, attractions, hotels, restaurants (their rules)."""

from __future__ import annotations

from typing import Any

from navworld.verify.chinatravel.columns import (
    ATTR,
    HOTEL,
    IC,
    REST,
    Table,
    earlier_eq,
)

__all__ = ["activities", "attractions", "hotels", "intercity", "restaurants"]

def _tables(world: Any, city: Any) -> Any:
    return world.tables(city)  # KeyError for a city the database does not have: their select raises too


def intercity(q: dict[str, Any], plan: Any, world: Any) -> Table:
    """The four intercity columns."""
    t = Table(IC)
    if not isinstance(plan, dict):
        t.fill(1, 1, 1, 1)
        return t
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1, 1)
        return t
    first, last = plan["itinerary"][0], plan["itinerary"][-1]
    target, start = q["target_city"], q["start_city"]
    if len(first["activities"]) == 0 or len(last["activities"]) == 0:
        t.fill(1, 1, 1, 1)
        return t
    go, back = first["activities"][0], last["activities"][-1]
    for act in (go, back):
        if "FlightID" not in act.keys() and "TrainID" not in act.keys():
            t.fill(1, 1, 1, 1)
            return t
    for act in (go, back):
        if act["type"] not in ("airplane", "train"):
            t.fill(0, 1, 1, 1)
            return t
    t.fill(0, 0, 0, 0)
    go_rows = _select(world, start, target, go["type"])
    if not ("start" in go and "end" in go) or not ("start" in back and "end" in back):
        t.fill(0, 1, 1, 1)
        return t
    for act, rows, back_leg in ((go, go_rows, False), (back, None, True)):
        if back_leg:
            rows = _select(world, target, start, back["type"])
        found = False
        id_key = "FlightID" if act["type"] == "airplane" else "TrainID"
        for row in rows or ():
            try:
                act[id_key]
            except Exception:
                t.fill(*((1, 1, 1, 1) if back_leg and id_key == "TrainID" else (0, 1, 1, 1)))
                break
            if act[id_key] == row.id and act["start"] == row.origin and act["end"] == row.destination:
                found = True
                _intercity_details(t, act, row)
                break
        if not found:
            t.fill(0, 1, 1, 1)
    return t


def _intercity_details(t: Table, act: dict[str, Any], row: Any) -> None:
    try:
        act["start_time"]
        act["end_time"]
        if not (row.begin == act["start_time"] and row.end == act["end_time"]):
            t.set(IC[2])
    except Exception:
        t.set(IC[2])
    try:
        if not row.cost == act["price"]:
            t.set(IC[2])
    except Exception:
        t.set(IC[2])
    try:
        act["tickets"]
        act["cost"]
        if abs(act["price"] * act["tickets"] - act["cost"]) > 0.1:
            t.set(IC[3])
    except Exception:
        t.set(IC[3])


def _select(world: Any, a: Any, b: Any, kind: str) -> list[Any]:
    from navworld.world.chinatravel.layout import city_by_name

    ca, cb = city_by_name(a) if isinstance(a, str) else None, city_by_name(b) if isinstance(b, str) else None
    if ca is None or cb is None or (kind == "train" and ca == cb):
        raise KeyError((a, b))  # their train table has no such pair
    rows = world.db.timetable(kind, ca.zh, cb.zh)
    if kind == "train" and not rows:
        raise TypeError("object of type 'NoneType' has no len()")  # an empty train file: their select fails
    return rows


def activities(plan: dict[str, Any]) -> Any:
    """Every activity of the plan, in order (raises like their loops on a malformed plan)."""
    for day in plan["itinerary"]:
        yield from day["activities"]


def attractions(q: dict[str, Any], plan: Any, world: Any) -> Table:
    """The five attraction columns."""
    t = Table(ATTR)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1, 1, 1)
        return t
    t.fill(0, 0, 0, 0, 0)
    seen: list[Any] = []
    target = q["target_city"]
    for act in activities(plan):
        try:
            if act["type"] != "attraction":
                continue
        except Exception:
            continue
        try:
            position = act["position"]
        except Exception:
            t.fill(1, 1, 1, 1, 1)
            return t
        tables = _tables(world, target)
        row = tables.attraction_by_name.get(position) if isinstance(position, str) else None
        if row is None:
            t.fill(1, 1, 1, 1, 1)
            return t
        seen.append(position)
        open_t, end_t = row.opentime, row.endtime
        if earlier_eq(end_t, open_t):
            end_t = f"{int(end_t.split(':')[0]) + 24}:{end_t.split(':')[1]}"
        try:
            if not (earlier_eq(open_t, act["start_time"]) and earlier_eq(act["end_time"], end_t)):
                t.set(ATTR[1])
        except Exception:
            t.set(ATTR[1])
        try:
            if int(act["price"]) != int(row.price):
                t.set(ATTR[3])
        except Exception:
            t.set(ATTR[3])
        try:
            act["tickets"]
            if abs(act["price"] * act["tickets"] - act["cost"]) > 0.1:
                t.set(ATTR[4])
        except Exception:
            t.set(ATTR[4])
    if len(set(seen)) != len(seen):
        t.set(ATTR[2])
    return t


def hotels(q: dict[str, Any], plan: Any, world: Any) -> Table:
    """The four accommodation columns."""
    t = Table(HOTEL)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1, 1)
        return t
    t.fill(0, 0, 0, 0)
    stays: list[Any] = []
    target = q["target_city"]
    for act in activities(plan):
        try:
            if act["type"] != "accommodation":
                continue
        except Exception:
            continue
        try:
            position = act["position"]
        except Exception:
            t.fill(1, 1, 1, 1)
            return t
        row = _tables(world, target).hotel_by_name.get(position) if isinstance(position, str) else None
        if row is None:
            t.fill(1, 1, 1, 1)
            return t
        stays.append(position)
        try:
            if act["price"] != row.price:
                t.set(HOTEL[1])
        except Exception:
            t.set(HOTEL[1])
        try:
            if act["room_type"] != row.numbed:
                t.set(HOTEL[1])
        except Exception:
            t.set(HOTEL[1])
        try:
            if abs(act["rooms"] * act["price"] - act["cost"]) > 0.1:
                t.set(HOTEL[2])
        except Exception:
            t.set(HOTEL[2])
    if len(plan["itinerary"]) > 1 and len(stays) == 0:
        t.set(HOTEL[3])
    return t


def restaurants(q: dict[str, Any], plan: Any, world: Any) -> Table:
    """The six restaurant columns."""
    t = Table(REST)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1, 1, 1, 1)
        return t
    t.fill(0, 0, 0, 0, 0, 0)
    eaten: list[Any] = []
    target = q["target_city"]
    for act in activities(plan):
        try:
            if act["type"] not in ("breakfast", "lunch", "dinner"):
                continue
        except Exception:
            continue
        try:
            position = act["position"]
        except Exception:
            t.fill(1, 1, 1, 1, 1, 1)
            return t
        tables = _tables(world, target)
        row = tables.restaurant_by_name.get(position) if isinstance(position, str) else None
        if act["type"] == "breakfast" and row is None:
            if (tables.hotel_by_name.get(position) if isinstance(position, str) else None) is None:
                t.fill(1, 1, 1, 1, 1, 1)
            try:
                if act["price"] != 0:
                    t.set(REST[3])
            except Exception:
                t.set(REST[3])
            try:
                act["start_time"]
                if earlier_eq("09:00", act["start_time"]) or earlier_eq(act["end_time"], "06:00"):
                    t.set(REST[5])
            except Exception:
                t.set(REST[5])
            try:
                if abs(q["people_number"] * act["price"] - act["cost"]) > 0.1:
                    t.set(REST[4])
            except Exception:
                t.set(REST[4])
            continue
        if row is None:
            t.fill(1, 1, 1, 1, 1, 1)
            continue
        try:
            if act["price"] != row.price:
                t.set(REST[3])
        except Exception:
            t.set(REST[3])
        try:
            start, end = act["start_time"], act["end_time"]
            if act["type"] == "lunch" and (earlier_eq("14:00", start) or earlier_eq(end, "11:00")):
                t.set(REST[5])
            if act["type"] == "dinner" and (earlier_eq("20:00", start) or earlier_eq(end, "17:00")):
                t.set(REST[5])
        except Exception:
            t.set(REST[5])
        try:
            if abs(q["people_number"] * act["price"] - act["cost"]) > 0.1:
                t.set(REST[4])
        except Exception:
            t.set(REST[4])
        open_t, end_t = row.opentime, row.endtime
        if earlier_eq(end_t, open_t):  # a 不营业 restaurant raises here in their code too
            end_t = f"{int(end_t.split(':')[0]) + 24}:{end_t.split(':')[1]}"
        try:
            if not (earlier_eq(open_t, act["start_time"]) and earlier_eq(act["end_time"], end_t)):
                t.set(REST[1])
        except Exception:
            t.set(REST[1])
        eaten.append(position)
    if len(set(eaten)) != len(eaten):
        t.set(REST[2])
    return t



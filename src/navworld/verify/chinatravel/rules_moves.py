"""ChinaTravel's movement validators: inner-city transport (per leg, against ``goto``), time, space."""

from __future__ import annotations

from typing import Any

from navworld.verify.chinatravel.columns import (
    SPACE,
    T_COST,
    T_DURATION,
    TIME,
    TRANS,
    Table,
    real_minutes,
)
from navworld.verify.chinatravel.rules_entities import activities

__all__ = ["space", "time_order", "transport"]

def _leg_checks(t: Table, legs: list[Any], tools: Any, duration_col: str) -> None:
    for idx, leg in enumerate(legs):
        try:
            if leg["start"] != tools[idx]["start"]:
                t.set(TRANS[0])
            if leg["end"] != tools[idx]["end"]:
                t.set(TRANS[0])
        except Exception:
            t.set(TRANS[0])
        try:
            if leg["start_time"] != tools[idx]["start_time"] or leg["end_time"] != tools[idx]["end_time"]:
                t.set(TRANS[1])
        except Exception:
            t.set(duration_col)
        try:
            if abs(leg["price"] - tools[idx]["cost"]) > 0.1:
                t.set(TRANS[1])
        except Exception:
            t.set(TRANS[1])
        try:
            if abs(leg["distance"] - tools[idx]["distance"]) > 0.1:
                t.set(TRANS[1])
        except Exception:
            t.set(TRANS[1])
        mode = leg["mode"]
        try:
            if mode == "metro":
                leg["tickets"]
                if abs(leg["price"] * leg["tickets"] - leg["cost"]) > 0.1:
                    t.set(T_COST)
            elif mode == "walk":
                if leg["cost"] != 0:
                    t.set(T_COST)
            elif mode == "taxi" and duration_col == T_DURATION:
                leg["cars"]
                if abs(leg["price"] * leg["cars"] - leg["cost"]) > 0.1:
                    t.set(T_COST)
        except Exception:
            t.set(T_COST)


def _goto(world: Any, city: Any, a: Any, b: Any, start_time: Any, mode: str) -> Any:
    from navworld.world.chinatravel.goto import NoMetro

    if not isinstance(a, str) or not isinstance(b, str) or not isinstance(start_time, str):
        raise TypeError("goto needs names and a time")
    try:
        return [leg.to_dict() for leg in world.goto(city, a, b, start_time, mode)]
    except NoMetro:
        return "No solution"


def transport(q: dict[str, Any], plan: Any, world: Any) -> Table:
    """The three inner-city transport columns (and the dynamic ones)."""
    t = Table(TRANS)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1)
        return t
    t.fill(0, 0, 0)
    target = q["target_city"]
    for act in activities(plan):
        if "transports" not in act:
            continue
        legs = act["transports"]
        if len(legs) == 0:
            continue
        try:
            legs[0]["start"], legs[-1]["end"], legs[0]["start_time"], legs[-1]["end_time"]
        except Exception:
            t.fill(1, 1, 1)
        source, dest, start_time = legs[0]["start"], legs[-1]["end"], legs[0]["start_time"]
        if len(legs) == 3:
            try:
                tools = _goto(world, target, source, dest, start_time, "metro")
            except Exception:
                t.fill(1, 1, 1)
                continue
            _leg_checks(t, legs, tools, TRANS[1])
            try:
                if legs[0]["mode"] != "walk" or legs[2]["mode"] != "walk" or legs[1]["mode"] != "metro":
                    t.set(TRANS[0])
            except Exception:
                t.set(TRANS[0])
        elif len(legs) == 1 and legs[0]["mode"] in ("walk", "taxi"):
            try:
                tools = _goto(world, target, source, dest, start_time, legs[0]["mode"])
                if not isinstance(tools, list):
                    t.fill(1, 1, 1)
            except Exception:
                t.fill(1, 1, 1)
                continue
            _leg_checks(t, legs, tools, T_DURATION)
        else:
            t.fill(1, 1, 1)
    return t


def time_order(q: dict[str, Any], plan: Any, world: Any) -> Table:
    """The two time columns."""
    t = Table(TIME)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1)
        return t
    t.fill(0, 0)
    for act in activities(plan):
        try:
            act["start_time"] and act["end_time"]
        except Exception:
            t.set(TIME[0])
            return t
        start, end = act["start_time"], act["end_time"]
        if real_minutes(start) >= real_minutes(end) and act["type"] not in ("train", "airplane"):
            t.set(TIME[1])
        if "transports" not in act:
            continue
        if len(act["transports"]) > 0:
            act["transports"][0]["start_time"]
            if real_minutes(start) < real_minutes(act["transports"][-1]["end_time"]):
                t.set(TIME[1])
    return t


def space(q: dict[str, Any], plan: Any, world: Any) -> Table:
    """The space column."""
    t = Table(SPACE)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1)
        return t
    t.fill(0)
    places: list[Any] = []
    for act in activities(plan):
        if "position" not in act:
            if "start" in act:
                here = act["start"]
            else:
                t.set(SPACE[0])
                continue
        else:
            here = act["position"]
        if "transports" not in act:
            t.set(SPACE[0])
        if places and here != places[-1]:
            if "transports" not in act or len(act["transports"]) < 1:
                t.set(SPACE[0])
                continue
            if act["transports"][0]["start"] != places[-1] or act["transports"][-1]["end"] != here:
                t.set(SPACE[0])
                continue
        places.append(act["position"] if "position" in act else act["end"])
    return t



"""ChinaTravel's concept functions, under their names, over our plan data and world.

Each function receives the running frame first (``fr.ctx`` is the :class:`DSLContext`); the DSL
passes the program's arguments after it. Plans, activities and transport legs are the plain
dicts of the plan JSON. Fixed upstream bugs: mode filters compare the leg's ``mode`` (``metro``
is read as ``transit``), world lookups are cached, ``activity_position`` of an intercity activity
is ``""`` and ``innercity_transport_type([])`` is ``"empty"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from navworld.core.plan import INTERCITY_TYPES, MODE_ALIASES, to_minutes
from navworld.dsl.runtime import Fault, Fn, Frame, type_name

__all__ = ["CONCEPTS", "concept", "leg_minutes", "poi_of"]

CONCEPTS: dict[str, Fn] = {}
"""Concept functions by name (ChinaTravel's and our helpers; see ``docs/dsl.md``)."""


WORLD_LOOKUP_STEPS = 20
"""Steps charged for a concept function that consults the world (lookups are cached)."""


def concept(
    name: str, min_args: int, max_args: int | None = None, kwargs: tuple[str, ...] = (), cost: str = "unit"
) -> Callable[..., Any]:
    """Register a concept function under ``name`` with its arity and step cost.

    ``cost`` is ``"unit"`` (1 step), ``"plan"`` (walks the plan: the plan's size), ``"legs"``
    (1 + the number of legs of its first argument) or ``"world"`` (a cached world lookup).
    """

    def deco(impl: Callable[..., Any]) -> Callable[..., Any]:
        def charged(fr: Frame, *args: Any, **kw: Any) -> Any:
            if cost == "plan":
                fr.charge(fr.ctx.plan_cost)
            elif cost == "legs":
                fr.charge(1 + (len(args[0]) if args and type(args[0]) is list else 0))
            elif cost == "world":
                fr.charge(WORLD_LOOKUP_STEPS)
            else:
                fr.charge(1)
            return impl(fr, *args, **kw)

        CONCEPTS[name] = Fn(name, charged, min_args, min_args if max_args is None else max_args, kwargs)
        return impl

    return deco


# ---- argument checks -------------------------------------------------------------------------


def _plan(x: Any, fname: str) -> dict[str, Any]:
    if type(x) is not dict or "itinerary" not in x:
        raise Fault(f"{fname}(): expected the plan, got {type_name(x)}")
    return x


def _act(x: Any, fname: str) -> dict[str, Any]:
    if type(x) is not dict or "type" not in x:
        raise Fault(f"{fname}(): expected an activity, got {type_name(x)}")
    return x


def _legs(x: Any, fname: str) -> list[dict[str, Any]]:
    if type(x) is not list or any(type(leg) is not dict for leg in x):
        raise Fault(f"{fname}(): expected a list of transport legs, got {type_name(x)}")
    return x


def _str(x: Any, fname: str, what: str) -> str:
    if type(x) is not str:
        raise Fault(f"{fname}(): {what} must be a string, got {type_name(x)}")
    return x


def _mode_filter(mode: Any, fname: str) -> str | None:
    if mode is None:
        return None
    if type(mode) is not str:
        raise Fault(f"{fname}(): mode must be a string, got {type_name(mode)}")
    m = MODE_ALIASES.get(mode.strip().lower())
    if m is None:
        raise Fault(f"{fname}(): unknown mode {mode!r} (walk, transit, taxi, bicycling)")
    return m


def _num(x: Any) -> float:
    return float(x) if type(x) in (int, float) else 0.0


def activities_of(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """All activity dicts of a plan, in order."""
    return [a for day in plan["itinerary"] for a in day["activities"]]


def poi_of(fr: Frame, activity: dict[str, Any], city: Any = None) -> Any:
    """The world POI at an activity's position (None for intercity or unknown positions)."""
    if activity.get("type") in INTERCITY_TYPES:
        return None
    pos = activity.get("position")
    if type(pos) is not str or not pos:
        return None
    c = city if type(city) is str and city else fr.ctx.target_city()
    return fr.ctx.lookup.poi(c, pos)


def leg_minutes(leg: dict[str, Any]) -> int:
    """Duration of a leg in minutes (0 when its times are unusable)."""
    try:
        d = to_minutes(leg["end_time"]) - to_minutes(leg["start_time"])
    except (KeyError, TypeError, ValueError):
        return 0
    return d + 1440 if d < 0 else d


# ---- plan level ------------------------------------------------------------------------------


@concept("day_count", 1)
def day_count(fr: Frame, plan: Any) -> int:
    """Number of days of the itinerary."""
    return len(_plan(plan, "day_count")["itinerary"])


@concept("people_count", 1)
def people_count(fr: Frame, plan: Any) -> int:
    """``people_number`` of the plan."""
    return int(_plan(plan, "people_count")["people_number"])


@concept("start_city", 1)
def start_city(fr: Frame, plan: Any) -> str:
    """The plan's start city (``""`` when the trip has no origin)."""
    return str(_plan(plan, "start_city").get("start_city") or "")


@concept("target_city", 1)
def target_city(fr: Frame, plan: Any) -> str:
    """The plan's target city."""
    return str(_plan(plan, "target_city").get("target_city") or "")


@concept("allactivities", 1, cost="plan")
def allactivities(fr: Frame, plan: Any) -> list[dict[str, Any]]:
    """Every activity of the trip, in order."""
    return activities_of(_plan(plan, "allactivities"))


@concept("allactivities_count", 1, cost="plan")
def allactivities_count(fr: Frame, plan: Any) -> int:
    """Number of activities of the trip."""
    return sum(len(d["activities"]) for d in _plan(plan, "allactivities_count")["itinerary"])


@concept("dayactivities", 2, cost="plan")
def dayactivities(fr: Frame, plan: Any, day: Any) -> list[dict[str, Any]]:
    """Activities of day ``day`` (1-based); ``[]`` when there is no such day."""
    days = _plan(plan, "dayactivities")["itinerary"]
    if type(day) not in (int, bool):
        raise Fault(f"dayactivities(): day must be an integer, got {type_name(day)}")
    if 1 <= day <= len(days):
        return list(days[day - 1]["activities"])
    return []


# ---- activity level --------------------------------------------------------------------------


@concept("activity_position", 1)
def activity_position(fr: Frame, activity: Any) -> str:
    """The POI name of an activity; ``""`` for intercity activities."""
    a = _act(activity, "activity_position")
    if a["type"] in INTERCITY_TYPES:
        return ""
    return str(a.get("position") or "")


@concept("activity_cost", 1)
def activity_cost(fr: Frame, activity: Any) -> float:
    """The activity's total ``cost`` (without inner-city transport); 0 when missing."""
    return _num(_act(activity, "activity_cost").get("cost"))


@concept("activity_price", 1)
def activity_price(fr: Frame, activity: Any) -> float:
    """The activity's unit ``price`` (per ticket, person or room-night); 0 when missing."""
    return _num(_act(activity, "activity_price").get("price"))


@concept("activity_type", 1)
def activity_type(fr: Frame, activity: Any) -> str:
    """``airplane``, ``train``, ``attraction``, ``breakfast``, ``lunch``, ``dinner`` or ``accommodation``."""
    return str(_act(activity, "activity_type")["type"])


@concept("activity_tickets", 1)
def activity_tickets(fr: Frame, activity: Any) -> int:
    """The activity's ``tickets`` (0 when missing)."""
    t = _act(activity, "activity_tickets").get("tickets")
    return t if type(t) is int else 0


@concept("activity_transports", 1)
def activity_transports(fr: Frame, activity: Any) -> list[dict[str, Any]]:
    """The inbound inner-city legs of an activity (``[]`` when none)."""
    return _act(activity, "activity_transports").get("transports") or []


@concept("activity_start_time", 1)
def activity_start_time(fr: Frame, activity: Any) -> str:
    """``start_time`` (``HH:MM``)."""
    return str(_act(activity, "activity_start_time")["start_time"])


@concept("activity_end_time", 1)
def activity_end_time(fr: Frame, activity: Any) -> str:
    """``end_time`` (``HH:MM``)."""
    return str(_act(activity, "activity_end_time")["end_time"])


@concept("activity_time", 1)
def activity_time(fr: Frame, activity: Any) -> int:
    """Duration in minutes; an end before the start wraps past midnight (an overnight train, flight or
    hotel stay: ``21:00`` → ``07:00`` is 600), as the environment checks read it."""
    a = _act(activity, "activity_time")
    d = to_minutes(a["end_time"]) - to_minutes(a["start_time"])
    return d + 1440 if d < 0 else d


@concept("room_count", 1)
def room_count(fr: Frame, activity: Any) -> int:
    """``rooms`` of an accommodation (0 when missing)."""
    r = _act(activity, "room_count").get("rooms")
    return r if type(r) is int else 0


@concept("room_type", 1)
def room_type(fr: Frame, activity: Any) -> int:
    """``room_type`` (beds per room) of an accommodation (0 when missing)."""
    r = _act(activity, "room_type").get("room_type")
    return r if type(r) is int else 0


@concept("intercity_transport_type", 1)
def intercity_transport_type(fr: Frame, activity: Any) -> str:
    """``train`` or ``airplane`` for intercity activities, ``"empty"`` otherwise."""
    t = _act(activity, "intercity_transport_type")["type"]
    return t if t in INTERCITY_TYPES else "empty"


def _endpoint_city(fr: Frame, activity: Any, key: str, fname: str) -> str:
    a = _act(activity, fname)
    if a["type"] not in INTERCITY_TYPES:
        return ""
    data = fr.ctx.data
    cities = [c for c in (fr.ctx.origin, fr.ctx.destination, data.get("start_city"), data.get("target_city")) if c]
    return fr.ctx.lookup.hub_city(str(a.get(key) or ""), cities)


@concept("intercity_transport_origin", 1, cost="world")
def intercity_transport_origin(fr: Frame, activity: Any) -> str:
    """The city an intercity activity departs from (``""`` when unknown or not intercity)."""
    return _endpoint_city(fr, activity, "start", "intercity_transport_origin")


@concept("intercity_transport_destination", 1, cost="world")
def intercity_transport_destination(fr: Frame, activity: Any) -> str:
    """The city an intercity activity arrives in (``""`` when unknown or not intercity)."""
    return _endpoint_city(fr, activity, "end", "intercity_transport_destination")


# ---- world lookups ---------------------------------------------------------------------------


@concept("restaurant_type", 2, cost="world")
def restaurant_type(fr: Frame, activity: Any, city: Any) -> str:
    """Cuisine of the restaurant at a meal activity; ``"empty"`` when not a known restaurant."""
    poi = poi_of(fr, _act(activity, "restaurant_type"), city)
    if poi is None or poi.kind != "restaurant":
        return "empty"
    return poi.cuisine or "empty"


@concept("attraction_type", 2, cost="world")
def attraction_type(fr: Frame, activity: Any, city: Any) -> str:
    """Category of the attraction at an activity (e.g. 博物馆); ``"empty"`` when unknown."""
    poi = poi_of(fr, _act(activity, "attraction_type"), city)
    if poi is None or poi.kind != "attraction":
        return "empty"
    return poi.category or poi.type or "empty"


@concept("accommodation_type", 2, cost="world")
def accommodation_type(fr: Frame, activity: Any, city: Any) -> str:
    """The first feature of the hotel at an activity (ChinaTravel has one); ``"empty"`` when none."""
    poi = poi_of(fr, _act(activity, "accommodation_type"), city)
    if poi is None or poi.kind != "hotel" or not poi.features:
        return "empty"
    return str(poi.features[0])


def _named_poi(fr: Frame, city: Any, name: Any, fname: str) -> Any:
    c = _str(city, fname, "city")
    n = _str(name, fname, "the POI name")
    return fr.ctx.lookup.poi(c, n)


@concept("poi_recommend_time", 2, cost="world")
def poi_recommend_time(fr: Frame, city: Any, poi: Any) -> float:
    """Recommended visit time of a POI in minutes (0 when unknown)."""
    p = _named_poi(fr, city, poi, "poi_recommend_time")
    return float(p.visit_hours * 60) if p is not None else 0.0


@concept("poi_distance", 3, 5, ("start_time", "transport_type"), cost="world")
def poi_distance(fr: Frame, city: Any, poi1: Any, poi2: Any, start_time: Any = "00:00", transport_type: Any = "walk") -> float:
    """Route distance in km between two named places of ``city`` for a mode (default walk)."""
    c = _str(city, "poi_distance", "city")
    mode = _mode_filter(transport_type, "poi_distance") or "walk"
    a = fr.ctx.lookup.locate(c, _str(poi1, "poi_distance", "poi1"))
    b = fr.ctx.lookup.locate(c, _str(poi2, "poi_distance", "poi2"))
    if a is None or b is None:
        raise Fault(f"poi_distance(): unknown place {poi1 if a is None else poi2!r} in {c}")
    route = fr.ctx.lookup.route(a, b, mode, c)
    if route is None:
        raise Fault("poi_distance(): no route")
    return route.distance_m / 1000.0

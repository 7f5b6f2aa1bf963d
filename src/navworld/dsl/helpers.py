"""navworld's own concept functions (beyond ChinaTravel's), for the constraints tasks generate.

They are registered in :data:`navworld.dsl.concepts.CONCEPTS` next to ChinaTravel's and listed
in ``docs/dsl.md``. Plan-level helpers read the plan's ``target_city`` (or the task's destination)
for world lookups.
"""

from __future__ import annotations

from typing import Any

from navworld.core.plan import INTERCITY_TYPES, MEAL_TYPES, to_minutes
from navworld.dsl.concepts import (
    _act,
    _num,
    _plan,
    _str,
    activities_of,
    concept,
    leg_minutes,
    poi_of,
)
from navworld.dsl.concepts_transport import innercity_transport_type
from navworld.dsl.runtime import Fault, Frame, type_name

__all__: list[str] = []


def _legs_cost(a: dict[str, Any]) -> float:
    return sum(_num(leg.get("cost")) for leg in a.get("transports") or [])


def _acts(plan: Any, fname: str, types: frozenset[str] | set[str] | None = None) -> list[dict[str, Any]]:
    acts = activities_of(_plan(plan, fname))
    return acts if types is None else [a for a in acts if a.get("type") in types]


@concept("total_cost", 1, cost="plan")
def total_cost(fr: Frame, plan: Any) -> float:
    """Everything the trip costs: every activity's ``cost`` plus every inner-city leg's ``cost``."""
    return sum(_num(a.get("cost")) + _legs_cost(a) for a in _acts(plan, "total_cost"))


@concept("day_cost", 2, cost="plan")
def day_cost(fr: Frame, plan: Any, day: Any) -> float:
    """Cost of day ``day`` (1-based): its activities plus their inbound legs."""
    days = _plan(plan, "day_cost")["itinerary"]
    if type(day) is not int:
        raise Fault(f"day_cost(): day must be an integer, got {type_name(day)}")
    if not 1 <= day <= len(days):
        return 0.0
    return sum(_num(a.get("cost")) + _legs_cost(a) for a in days[day - 1]["activities"])


def _type_cost(plan: Any, fname: str, types: frozenset[str] | set[str]) -> float:
    return sum(_num(a.get("cost")) for a in _acts(plan, fname, types))


@concept("meal_cost", 1, cost="plan")
def meal_cost(fr: Frame, plan: Any) -> float:
    """Total ``cost`` of breakfasts, lunches and dinners."""
    return _type_cost(plan, "meal_cost", MEAL_TYPES)


@concept("hotel_cost", 1, cost="plan")
def hotel_cost(fr: Frame, plan: Any) -> float:
    """Total ``cost`` of accommodations."""
    return _type_cost(plan, "hotel_cost", {"accommodation"})


@concept("attraction_cost", 1, cost="plan")
def attraction_cost(fr: Frame, plan: Any) -> float:
    """Total ``cost`` of attraction tickets."""
    return _type_cost(plan, "attraction_cost", {"attraction"})


@concept("intercity_cost", 1, cost="plan")
def intercity_cost(fr: Frame, plan: Any) -> float:
    """Total ``cost`` of trains and flights."""
    return _type_cost(plan, "intercity_cost", INTERCITY_TYPES)


@concept("innercity_cost", 1, cost="plan")
def innercity_cost(fr: Frame, plan: Any) -> float:
    """Total ``cost`` of all inner-city legs."""
    return sum(_legs_cost(a) for a in _acts(plan, "innercity_cost"))


@concept("innercity_time_total", 1, cost="plan")
def innercity_time_total(fr: Frame, plan: Any) -> int:
    """Total minutes spent on inner-city legs."""
    return sum(leg_minutes(leg) for a in _acts(plan, "innercity_time_total") for leg in a.get("transports") or [])


def _positions(plan: Any, fname: str, types: frozenset[str] | set[str]) -> set[str]:
    return {str(a.get("position")) for a in _acts(plan, fname, types) if a.get("position")}


@concept("attraction_names", 1, cost="plan")
def attraction_names(fr: Frame, plan: Any) -> set[str]:
    """Names of the attractions visited."""
    return _positions(plan, "attraction_names", {"attraction"})


@concept("restaurant_names", 1, cost="plan")
def restaurant_names(fr: Frame, plan: Any) -> set[str]:
    """Names of the places of all meals (a hotel breakfast gives the hotel's name)."""
    return _positions(plan, "restaurant_names", MEAL_TYPES)


@concept("hotel_names", 1, cost="plan")
def hotel_names(fr: Frame, plan: Any) -> set[str]:
    """Names of the hotels stayed at."""
    return _positions(plan, "hotel_names", {"accommodation"})


@concept("attraction_count", 1, cost="plan")
def attraction_count(fr: Frame, plan: Any) -> int:
    """Number of attraction activities."""
    return len(_acts(plan, "attraction_count", {"attraction"}))


@concept("meal_count", 1, cost="plan")
def meal_count(fr: Frame, plan: Any) -> int:
    """Number of meal activities."""
    return len(_acts(plan, "meal_count", MEAL_TYPES))


def _poi_values(fr: Frame, plan: Any, fname: str, types: set[str] | frozenset[str], kind: str, attr: str) -> set[str]:
    out: set[str] = set()
    for a in _acts(plan, fname, types):
        poi = poi_of(fr, a)
        if poi is None or poi.kind != kind:
            continue
        value = getattr(poi, attr)
        if isinstance(value, tuple):
            out.update(str(v) for v in value)
        elif value:
            out.add(str(value))
    return out


@concept("restaurant_cuisines", 1, cost="plan")
def restaurant_cuisines(fr: Frame, plan: Any) -> set[str]:
    """Cuisines of the restaurants of all meals (hotel breakfasts add nothing)."""
    return _poi_values(fr, plan, "restaurant_cuisines", MEAL_TYPES, "restaurant", "cuisine")


@concept("attraction_types", 1, cost="plan")
def attraction_types(fr: Frame, plan: Any) -> set[str]:
    """Categories of the attractions visited."""
    return _poi_values(fr, plan, "attraction_types", {"attraction"}, "attraction", "category")


@concept("hotel_features", 1, cost="plan")
def hotel_features(fr: Frame, plan: Any) -> set[str]:
    """All features of all hotels stayed at (union)."""
    return _poi_values(fr, plan, "hotel_features", {"accommodation"}, "hotel", "features")


@concept("activity_features", 1, cost="world")
def activity_features(fr: Frame, activity: Any) -> set[str]:
    """Features and tags of the POI at an activity (empty set when unknown)."""
    poi = poi_of(fr, _act(activity, "activity_features"))
    return set(poi.features) | set(poi.tags) if poi is not None else set()


@concept("poi_features", 2, cost="world")
def poi_features(fr: Frame, city: Any, name: Any) -> set[str]:
    """Features and tags of a named POI of ``city`` (empty set when unknown)."""
    poi = fr.ctx.lookup.poi(_str(city, "poi_features", "city"), _str(name, "poi_features", "the POI name"))
    return set(poi.features) | set(poi.tags) if poi is not None else set()


@concept("poi_rating", 2, cost="world")
def poi_rating(fr: Frame, city: Any, name: Any) -> float:
    """Rating of a named POI of ``city`` (0 when unknown)."""
    poi = fr.ctx.lookup.poi(_str(city, "poi_rating", "city"), _str(name, "poi_rating", "the POI name"))
    return float(poi.rating) if poi is not None else 0.0


@concept("poi_stars", 2, cost="world")
def poi_stars(fr: Frame, city: Any, name: Any) -> int:
    """Star class of a named hotel of ``city`` (0 when unknown)."""
    poi = fr.ctx.lookup.poi(_str(city, "poi_stars", "city"), _str(name, "poi_stars", "the POI name"))
    return int(poi.stars) if poi is not None else 0


def _intercity(plan: Any, fname: str) -> list[dict[str, Any]]:
    return _acts(plan, fname, INTERCITY_TYPES)


@concept("arrival_time", 1, cost="plan")
def arrival_time(fr: Frame, plan: Any) -> str:
    """Arrival time (``end_time``) of the first intercity activity; ``""`` when there is none."""
    legs = _intercity(plan, "arrival_time")
    return str(legs[0]["end_time"]) if legs else ""


@concept("departure_time", 1, cost="plan")
def departure_time(fr: Frame, plan: Any) -> str:
    """Departure time (``start_time``) of the last intercity activity; ``""`` when there is none."""
    legs = _intercity(plan, "departure_time")
    return str(legs[-1]["start_time"]) if legs else ""


@concept("intercity_types", 1, cost="plan")
def intercity_types(fr: Frame, plan: Any) -> set[str]:
    """The set of intercity activity types used (``{"train"}``, ``{"airplane", "train"}`` …)."""
    return {str(a["type"]) for a in _intercity(plan, "intercity_types")}


@concept("innercity_modes", 1, cost="plan")
def innercity_modes(fr: Frame, plan: Any) -> set[str]:
    """Main modes of all non-empty transfers (see ``innercity_transport_type``); walk legs of a
    transit transfer do not add ``walk``."""
    out: set[str] = set()
    for a in _acts(plan, "innercity_modes"):
        legs = a.get("transports") or []
        if legs:
            out.add(innercity_transport_type(fr, legs))
    return out


@concept("is_red_eye", 1)
def is_red_eye(fr: Frame, activity: Any) -> bool:
    """Whether an intercity activity departs 22:00–05:59 or arrives after midnight."""
    a = _act(activity, "is_red_eye")
    if a["type"] not in INTERCITY_TYPES:
        return False
    start, end = to_minutes(a["start_time"]) % 1440, to_minutes(a["end_time"])
    return start >= 22 * 60 or start < 6 * 60 or end < start or end >= 1440


@concept("hotel_price_max", 1, cost="plan")
def hotel_price_max(fr: Frame, plan: Any) -> float:
    """Highest room-night ``price`` among accommodations (0 when none)."""
    prices = [_num(a.get("price")) for a in _acts(plan, "hotel_price_max", {"accommodation"})]
    return max(prices) if prices else 0.0


_VEGETARIAN = ("素食", "蔬食", "vegetarian")


@concept("poi_is_vegetarian", 1, cost="world")
def poi_is_vegetarian(fr: Frame, activity: Any) -> bool:
    """Whether the restaurant at a meal activity is vegetarian (cuisine or tags 素食/蔬食)."""
    poi = poi_of(fr, _act(activity, "poi_is_vegetarian"))
    if poi is None:
        return False
    labels = (poi.cuisine, poi.category, *poi.tags, *poi.features)
    return any(v in str(label) for label in labels for v in _VEGETARIAN)


@concept("poi_accessible", 1, cost="world")
def poi_accessible(fr: Frame, activity: Any) -> bool:
    """Whether the POI at an activity is barrier-free (feature or tag 无障碍)."""
    poi = poi_of(fr, _act(activity, "poi_accessible"))
    return poi is not None and any("无障碍" in str(x) for x in (*poi.features, *poi.tags))

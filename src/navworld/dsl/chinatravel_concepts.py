"""ChinaTravel's 35 concept functions as their ``main`` code behaves, over the raw plan JSON.

Used by the ChinaTravel DSL mode (:mod:`navworld.dsl.chinatravel`); the quirks are listed there.
Database lookups go through a world with ChinaTravel's tables (``world.tables(city)``) and
``poi_distance`` through its ``goto``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from navworld.dsl.runtime import Fault, Fn, Frame

__all__ = ["CT_CITIES", "CT_CONCEPTS"]

CT_CITIES: tuple[str, ...] = (
    "上海", "北京", "深圳", "广州", "重庆", "成都", "杭州", "武汉", "南京", "苏州",
    "Shanghai", "Beijing", "Shenzhen", "Guangzhou", "Chongqing", "Chengdu", "Hangzhou", "Wuhan", "Nanjing", "Suzhou",
)
"""The city names ``intercity_transport_origin``/``_destination`` look for, in their order."""

CT_CONCEPTS: dict[str, Fn] = {}


def _ct(name: str, lo: int, hi: int | None = None, kwargs: tuple[str, ...] = ()) -> Callable[..., Any]:
    def deco(impl: Callable[..., Any]) -> Callable[..., Any]:
        def run(fr: Frame, *args: Any, **kw: Any) -> Any:
            fr.charge(20 if name in _WORLD else 1 + (len(args[0]) if args and type(args[0]) in (list, dict) else 0))
            return impl(fr, *args, **kw)

        CT_CONCEPTS[name] = Fn(name, run, lo, lo if hi is None else hi, kwargs)
        return impl

    return deco


_WORLD = {"restaurant_type", "attraction_type", "accommodation_type", "poi_recommend_time", "poi_distance"}


def _acts(plan: Any) -> list[Any]:
    return [act for day in plan["itinerary"] for act in day["activities"]]


@_ct("day_count", 1)
def _day_count(fr: Frame, plan: Any) -> Any:
    return len(plan["itinerary"])


@_ct("people_count", 1)
def _people_count(fr: Frame, plan: Any) -> Any:
    return plan["people_number"]


@_ct("start_city", 1)
def _start_city(fr: Frame, plan: Any) -> Any:
    return plan["start_city"]


@_ct("target_city", 1)
def _target_city(fr: Frame, plan: Any) -> Any:
    return plan["target_city"]


@_ct("allactivities", 1)
def _allactivities(fr: Frame, plan: Any) -> Any:
    return _acts(plan)


@_ct("allactivities_count", 1)
def _allactivities_count(fr: Frame, plan: Any) -> Any:
    return sum(len(day["activities"]) for day in plan["itinerary"])


@_ct("dayactivities", 2)
def _dayactivities(fr: Frame, plan: Any, day: Any) -> Any:
    return list(plan["itinerary"][day - 1]["activities"])


def _get(name: str, key: str, default: Any) -> None:
    @_ct(name, 1)
    def impl(fr: Frame, activity: Any) -> Any:
        return activity.get(key, default)


for _name, _key, _default in (
    ("activity_position", "position", ""), ("activity_cost", "cost", 0), ("activity_price", "price", 0),
    ("activity_type", "type", ""), ("activity_tickets", "tickets", 0), ("activity_transports", "transports", []),
    ("activity_start_time", "start_time", None), ("activity_end_time", "end_time", None),
    ("room_count", "rooms", 0), ("room_type", "room_type", 0), ("intercity_transport_type", "type", "empty"),
):
    _get(_name, _key, _default)


def _hm(text: Any) -> tuple[int, int]:
    h, m = text.split(":")
    return int(h), int(m)


@_ct("activity_time", 1)
def _activity_time(fr: Frame, activity: Any) -> Any:
    start, end = activity.get("start_time"), activity.get("end_time")
    if start and end:
        (sh, sm), (eh, em) = _hm(start), _hm(end)
        return (em - sm) + (eh - sh) * 60
    return -1


def _tables(fr: Frame, city: Any) -> Any:
    world = getattr(fr.ctx, "world", None)
    if world is None or not hasattr(world, "tables"):
        raise Fault("this concept function needs the ChinaTravel database (--world chinatravel:DIR)")
    return world.tables(city)


@_ct("restaurant_type", 2)
def _restaurant_type(fr: Frame, activity: Any, city: Any) -> Any:
    position = activity["position"]
    row = _tables(fr, city).restaurant_by_name.get(position) if type(position) is str else None
    return row.cuisine if row is not None else "empty"


@_ct("attraction_type", 2)
def _attraction_type(fr: Frame, activity: Any, city: Any) -> Any:
    position = activity["position"]
    row = _tables(fr, city).attraction_by_name.get(position) if type(position) is str else None
    return row.type if row is not None else ""


@_ct("accommodation_type", 2)
def _accommodation_type(fr: Frame, activity: Any, city: Any) -> Any:
    position = activity["position"]
    row = _tables(fr, city).hotel_by_name.get(position) if type(position) is str else None
    return row.featurehoteltype if row is not None else ""


@_ct("poi_recommend_time", 2)
def _poi_recommend_time(fr: Frame, city: Any, poi: Any) -> Any:
    row = _tables(fr, city).attraction_by_name.get(poi) if type(poi) is str else None
    if row is None:
        raise Fault("IndexError: single positional indexer is out-of-bounds")
    return row.recommendmintime * 60


@_ct("poi_distance", 3, 5, ("start_time", "transport_type"))
def _poi_distance(fr: Frame, city: Any, a: Any, b: Any, start_time: Any = "00:00", transport_type: Any = "walk") -> Any:
    _tables(fr, city)
    from navworld.world.chinatravel.goto import NoMetro

    try:
        legs = fr.ctx.world.goto(city, a, b, start_time, transport_type)
    except NoMetro:
        raise Fault("TypeError: string indices must be integers (goto returned 'No solution')") from None
    except (KeyError, ValueError) as exc:
        raise Fault(f"goto failed: {exc}") from None
    return legs[0].distance


def _filtered_sum(name: str, key: str, kw: str) -> None:
    @_ct(name, 1, 2, (kw,))
    def impl(fr: Frame, transports: Any, mode: Any = None, **kwargs: Any) -> Any:
        mode = kwargs.get(kw, mode)
        total: Any = 0
        for leg in transports:
            if mode is None or leg.get("type") == mode:  # their filter reads "type"; legs carry "mode"
                total += leg.get(key, 0)
        return total


_filtered_sum("innercity_transport_cost", "cost", "node")
_filtered_sum("innercity_transport_distance", "distance", "mode")


@_ct("innercity_transport_price", 1)
def _innercity_transport_price(fr: Frame, transports: Any) -> Any:
    total: Any = 0
    for leg in transports:
        total += leg["price"]
    return total


@_ct("innercity_transport_time", 1, 2, ("mode",))
def _innercity_transport_time(fr: Frame, transports: Any, mode: Any = None) -> Any:
    total = 0
    for leg in transports:  # the mode filter is ignored, and there is no wrap past midnight
        (eh, em), (sh, sm) = _hm(leg["end_time"]), _hm(leg["start_time"])
        total += (eh - sh) * 60 + (em - sm)
    return total


@_ct("metro_tickets", 1)
def _metro_tickets(fr: Frame, transports: Any) -> Any:
    return transports[1]["tickets"]


@_ct("taxi_cars", 1)
def _taxi_cars(fr: Frame, transports: Any) -> Any:
    if len(transports) > 0 and "cars" in transports[0]:
        return transports[0]["cars"]
    return "invalid input"


@_ct("innercity_transport_type", 1)
def _innercity_transport_type(fr: Frame, transports: Any) -> Any:
    if len(transports) == 3:
        return transports[1]["mode"]
    if len(transports) == 1:
        return transports[0]["mode"]
    return "empty"


@_ct("innercity_transport_start_time", 1)
def _innercity_transport_start_time(fr: Frame, transports: Any) -> Any:
    return transports[0]["start_time"]


@_ct("innercity_transport_end_time", 1)
def _innercity_transport_end_time(fr: Frame, transports: Any) -> Any:
    return transports[len(transports) - 1]["end_time"]


def _city_in(key: str) -> Callable[[Frame, Any], Any]:
    def impl(fr: Frame, activity: Any) -> Any:
        if key in activity:
            for city in CT_CITIES:
                if city in activity[key]:
                    return city
        return ""

    return impl


_ct("intercity_transport_origin", 1)(_city_in("start"))
_ct("intercity_transport_destination", 1)(_city_in("end"))

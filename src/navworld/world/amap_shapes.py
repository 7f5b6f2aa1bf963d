"""Conversions from the normalised models to AMap-shaped dicts (numbers as strings, ``"lng,lat"``).

These are the ``data`` shapes of the tools (documented in ``docs/tool-output.md``); any backend
that produces models can reuse them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from navworld.core.geo import format_lnglat
from navworld.core.models import City, Flight, Forecast, Poi, Route, Train
from navworld.world.gen_weather import WEEKDAYS_ZH
from navworld.world.vocab import official_name

if TYPE_CHECKING:
    from navworld.world.gen_transport import FlightRow, TrainRow

__all__ = ["flights_data", "forecast_data", "poi_data", "route_data", "trains_data"]


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def poi_data(poi: Poi, city: City | None, distance_m: int | None = None) -> dict[str, Any]:
    """One AMap v5 POI dict with ``business`` (``distance`` only for around-search results)."""
    d: dict[str, Any] = {
        "id": poi.id,
        "name": poi.name,
        "type": poi.type,
        "typecode": poi.typecode,
        "address": poi.address,
        "location": format_lnglat(poi.location),
        "pname": city.province if city else "",
        "cityname": official_name(city) if city else poi.city,
        "citycode": city.citycode if city else "",
        "adname": poi.adname,
        "adcode": poi.adcode,
    }
    if distance_m is not None:
        d["distance"] = str(distance_m)
    opentime = f"{poi.open}-{poi.close}" if poi.kind != "hub" else ""
    d["business"] = {
        "tel": poi.tel,
        "rating": f"{poi.rating:.1f}" if poi.rating else "",
        "cost": _num(poi.cost) if poi.cost is not None and poi.kind != "hub" else "",
        "opentime": opentime,
        "tag": "、".join(poi.tags),
        "visit_hours": f"{poi.visit_hours:.1f}" if poi.kind == "attraction" and poi.visit_hours else "",
        "cuisine": poi.cuisine,
        "dishes": "、".join(poi.dishes),
        "brand": poi.brand,
        "star": str(poi.stars) if poi.stars else "",
        "beds": str(poi.beds) if poi.beds else "",
        "features": "、".join(poi.features),
    }
    return d


def route_data(route: Route) -> dict[str, Any]:
    """AMap v5 direction data: ``paths`` for driving/walking/bicycling, ``transits`` for transit."""
    base: dict[str, Any] = {"origin": format_lnglat(route.origin), "destination": format_lnglat(route.destination)}
    if route.mode in ("driving", "transit"):
        base["taxi_cost"] = _num(route.taxi_cost)
    if route.mode != "transit":
        steps = [
            {
                "instruction": s.instruction,
                "orientation": _orientation_of(s.instruction),
                "road_name": s.road_name,
                "step_distance": str(s.distance_m),
                "duration": str(s.duration_s),
            }
            for s in route.steps
        ]
        base["paths"] = [{"distance": str(route.distance_m), "duration": str(route.duration_s), "steps": steps}]
        return {"route": base}
    segments: list[dict[str, Any]] = []
    for s in route.steps:
        if s.line:
            dep, arr, via = _transit_parts(s.instruction)
            segments.append({"bus": {"buslines": [{
                "name": s.line,
                "type": "地铁线路" if s.line.startswith("地铁") else "普通公交线路",
                "departure_stop": {"name": dep},
                "arrival_stop": {"name": arr},
                "distance": str(s.distance_m),
                "duration": str(s.duration_s),
                "via_num": via,
            }]}})
        else:
            segments.append({"walking": {"distance": str(s.distance_m), "duration": str(s.duration_s), "steps": [
                {"instruction": s.instruction, "road_name": s.road_name, "step_distance": str(s.distance_m)}]}})
    base["distance"] = str(route.distance_m)
    base["transits"] = [{
        "cost": _num(route.transit_cost),
        "duration": str(route.duration_s),
        "walking_distance": str(route.walking_distance_m),
        "distance": str(route.distance_m),
        "segments": segments,
    }]
    return {"route": base}


def _orientation_of(instruction: str) -> str:
    i = instruction.find("向")
    if i < 0:
        return ""
    two = instruction[i + 1 : i + 3]
    if two in ("东北", "东南", "西北", "西南"):
        return two
    return instruction[i + 1 : i + 2]


def _transit_parts(instruction: str) -> tuple[str, str, str]:
    # "乘坐地铁1号线从A站到B站，6站，4.3公里"
    try:
        after = instruction.split("从", 1)[1]
        dep, rest = after.split("到", 1)
        arr, rest2 = rest.split("，", 1)
        via = rest2.split("站", 1)[0]
        return dep, arr, via
    except (IndexError, ValueError):
        return "", "", ""


def forecast_data(fc: Forecast) -> dict[str, Any]:
    """AMap v3 weatherInfo (``extensions=all``) data."""
    casts = [
        {
            "date": c.date,
            "week": str(WEEKDAYS_ZH.index(c.week) + 1) if c.week in WEEKDAYS_ZH else c.week,
            "dayweather": c.dayweather,
            "nightweather": c.nightweather,
            "daytemp": str(c.daytemp),
            "nighttemp": str(c.nighttemp),
            "daywind": c.daywind,
            "nightwind": c.nightwind,
            "daypower": c.daypower,
            "nightpower": c.nightpower,
        }
        for c in fc.casts
    ]
    return {"forecasts": [{"city": fc.city, "adcode": fc.adcode, "province": fc.province, "reporttime": fc.reporttime, "casts": casts}]}


def flights_data(date: str, from_city: str, to_city: str, flights: Sequence[Flight | FlightRow]) -> dict[str, Any]:
    """``{"date", "from_city", "to_city", "count", "flights": [...]}`` with the issue's flight keys."""
    rows = [
        {
            "flight_no": f.flight_no,
            "airline": f.airline,
            "from_airport": f.from_airport,
            "to_airport": f.to_airport,
            "dep_time": f.dep_time,
            "arr_time": f.arr_time,
            "next_day": f.next_day,
            "duration_min": f.duration_min,
            "price": int(f.price),
        }
        for f in flights
    ]
    return {"date": date, "from_city": from_city, "to_city": to_city, "count": len(rows), "flights": rows}


def trains_data(date: str, from_city: str, to_city: str, trains: Sequence[Train | TrainRow]) -> dict[str, Any]:
    """``{"date", "from_city", "to_city", "count", "trains": [...]}`` with the issue's train keys."""
    rows = [
        {
            "train_no": t.train_no,
            "train_type": t.train_type,
            "from_station": t.from_station,
            "to_station": t.to_station,
            "dep_time": t.dep_time,
            "arr_time": t.arr_time,
            "next_day": t.next_day,
            "duration_min": t.duration_min,
            "seats": [{"class": s.seat_class, "price": int(s.price)} for s in t.seats],
        }
        for t in trains
    ]
    return {"date": date, "from_city": from_city, "to_city": to_city, "count": len(rows), "trains": rows}

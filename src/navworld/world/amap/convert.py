"""Converters from AMap REST payloads to navworld's AMap-shaped ``data`` dicts.

The target shapes are the ones every backend returns (``docs/tool-output.md``): string numbers,
``"lng,lat"`` with six decimals, ``""`` for empty fields and a fixed set of keys, so the one
renderer produces the same text format for the sandbox and for AMap.

AMap quirks handled here: numbers as strings or floats (``"200.00"``), ``[]``/``{}``/missing for
empty values, v5 ``cost{duration}`` objects versus flat ``duration`` fields, transit segments
that hold walking, bus and railway parts in one object, and line names with their termini
(``地铁1号线(湘湖--下沙江滨)``). A payload whose structure is not what AMap documents raises
:class:`~navworld.core.errors.WorldError` with a readable reason; it never crashes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date as Date
from typing import Any

from navworld.core.errors import ToolInputError, WorldError
from navworld.core.geo import format_lnglat, parse_lnglat
from navworld.world.amap.cities import city_from_amap

__all__ = [
    "MAX_POIS",
    "NoTransit",
    "forecast_from_amap",
    "money",
    "pois_from_amap",
    "route_from_amap",
    "text",
    "transit_from_amap",
    "walking_as_transit",
]

MAX_POIS = 10


class NoTransit(ToolInputError):
    """AMap planned no public-transport trip (usually because both ends are very close)."""


_LINE_TERMINI = re.compile(r"\s*[(（][^()（）]*[-—–]{1,2}[^()（）]*[)）]\s*$")
_LIST_SPLIT = re.compile(r"[,，;；、|]+")


def text(value: Any) -> str:
    """An AMap scalar as a stripped string; ``[]``, ``{}`` and ``None`` become ``""``."""
    if value is None or isinstance(value, (list, dict)):
        if isinstance(value, list) and value and all(isinstance(v, (str, int, float)) for v in value):
            return ";".join(str(v).strip() for v in value if str(v).strip())
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip()


def _int_text(value: Any) -> str:
    """A numeric AMap value as an integer string (``"200.00"`` → ``"200"``), else ``""``."""
    raw = text(value)
    if not raw:
        return ""
    try:
        return str(round(float(raw)))
    except ValueError:
        return ""


def money(value: Any) -> str:
    """A price: ``"420.00"`` → ``"420"``, ``"88.50"`` → ``"88.5"`` (as the sandbox writes prices)."""
    raw = text(value)
    try:
        x = float(raw) if raw else None
    except ValueError:
        return ""
    if x is None or x < 0:
        return ""
    return str(int(x)) if x.is_integer() else f"{x:.1f}"


def _rating(value: Any) -> str:
    raw = text(value)
    try:
        return f"{float(raw):.1f}" if raw else ""
    except ValueError:
        return ""


def _location(value: Any) -> str:
    raw = text(value)
    try:
        return format_lnglat(parse_lnglat(raw)) if raw else ""
    except ValueError:
        return ""


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if value is None or value == [] or value == "":
        return {}
    if not isinstance(value, Mapping):
        raise WorldError(
            f"AMap returned an unexpected payload: {what} is {type(value).__name__}, expected an object"
        )
    return value


def _list(value: Any, what: str) -> list[Any]:
    if value is None or value == "" or value == {}:
        return []
    if not isinstance(value, list):
        raise WorldError(
            f"AMap returned an unexpected payload: {what} is {type(value).__name__}, expected a list"
        )
    return value


def _duration(obj: Mapping[str, Any]) -> str:
    cost = obj.get("cost")
    if isinstance(cost, Mapping) and text(cost.get("duration")):
        return _int_text(cost.get("duration"))
    return _int_text(obj.get("duration"))


# --- POIs ----------------------------------------------------------------------------------------
def _join_items(value: Any, limit: int) -> str:
    items = list(dict.fromkeys(s.strip() for s in _LIST_SPLIT.split(text(value)) if s.strip()))
    return "、".join(items[:limit])


def _poi(raw: Mapping[str, Any], with_distance: bool) -> dict[str, Any]:
    biz = _mapping(raw.get("business"), "poi.business")
    typecode = text(raw.get("typecode"))
    family = typecode[:2]
    type_ = text(raw.get("type"))
    cuisine = dishes = ""
    tag = "、".join(x for x in (_join_items(biz.get("keytag"), 3), _join_items(biz.get("rectag"), 3)) if x)
    if family == "05":
        last = type_.split(";")[-1] if type_ else ""
        cuisine = last if last and "餐厅" not in last and last != "餐饮服务" else text(biz.get("keytag"))
        dishes = _join_items(biz.get("tag"), 5)
    elif not tag:
        tag = _join_items(biz.get("tag"), 5)
    star = _int_text(biz.get("star")) if family == "10" else ""
    opentime = text(biz.get("opentime_today")) or text(biz.get("opentime")) or text(biz.get("opentime_week"))
    out: dict[str, Any] = {
        "id": text(raw.get("id")),
        "name": text(raw.get("name")),
        "type": type_,
        "typecode": typecode,
        "address": text(raw.get("address")),
        "location": _location(raw.get("location")),
        "pname": text(raw.get("pname")),
        "cityname": text(raw.get("cityname")),
        "citycode": text(raw.get("citycode")),
        "adname": text(raw.get("adname")),
        "adcode": text(raw.get("adcode")),
    }
    if with_distance:
        out["distance"] = _int_text(raw.get("distance"))
    out["business"] = {
        "tel": text(biz.get("tel") if "tel" in biz else raw.get("tel")),
        "rating": _rating(biz.get("rating")),
        "cost": money(biz.get("cost")) if family != "15" else "",
        "opentime": opentime,
        "tag": tag,
        "visit_hours": "",
        "cuisine": cuisine,
        "dishes": dishes,
        "brand": "",
        "star": star if star in {"1", "2", "3", "4", "5"} else "",
        "beds": "",
        "features": "",
    }
    return out


def pois_from_amap(
    payload: Mapping[str, Any], *, with_distance: bool = False, limit: int = MAX_POIS
) -> dict[str, Any]:
    """``{"count", "pois"}`` from a v5 ``place/text`` / ``place/around`` payload (at most ``limit``)."""
    pois = []
    for item in _list(payload.get("pois"), "pois"):
        if not isinstance(item, Mapping) or not text(item.get("name")):
            continue
        pois.append(_poi(item, with_distance))
        if len(pois) >= limit:
            break
    if with_distance:
        pois.sort(key=lambda p: int(p["distance"]) if p["distance"] else 10**9)
    return {"count": str(len(pois)), "pois": pois}


# --- routes -------------------------------------------------------------------------------------
def _step(raw: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "instruction": text(raw.get("instruction")),
        "orientation": text(raw.get("orientation")),
        "road_name": text(raw.get("road_name")) or text(raw.get("road")),
        "step_distance": _int_text(
            raw.get("step_distance") if "step_distance" in raw else raw.get("distance")
        ),
        "duration": _duration(raw),
    }


def route_from_amap(payload: Mapping[str, Any], mode: str) -> dict[str, Any]:
    """``{"route": {...paths}}`` from a v5 driving/walking/bicycling payload (first path)."""
    route = _mapping(payload.get("route"), "route")
    paths = [p for p in _list(route.get("paths"), "route.paths") if isinstance(p, Mapping)]
    if not paths:
        raise ToolInputError(f"高德地图没有找到这两点之间的{_MODE_ZH.get(mode, mode)}路线")
    path = paths[0]
    steps = [_step(s) for s in _list(path.get("steps"), "path.steps") if isinstance(s, Mapping)]
    taxi = route.get("taxi_cost")
    if not text(taxi) and isinstance(path.get("cost"), Mapping):
        taxi = path["cost"].get("taxi_fee") or path["cost"].get("taxi")
    out: dict[str, Any] = {
        "origin": _location(route.get("origin")),
        "destination": _location(route.get("destination")),
    }
    if mode == "driving":  # like the sandbox: only driving (and transit) carry a taxi estimate
        out["taxi_cost"] = money(taxi)
    out["paths"] = [
        {"distance": _int_text(path.get("distance")), "duration": _duration(path), "steps": steps}
    ]
    return {"route": out}


_MODE_ZH = {"driving": "驾车", "walking": "步行", "bicycling": "骑行", "transit": "公交"}


def _line_name(name: str) -> str:
    return _LINE_TERMINI.sub("", name).strip() or name


def _busline(raw: Mapping[str, Any]) -> dict[str, Any]:
    dep = _mapping(raw.get("departure_stop"), "busline.departure_stop")
    arr = _mapping(raw.get("arrival_stop"), "busline.arrival_stop")
    return {
        "name": _line_name(text(raw.get("name"))),
        "type": text(raw.get("type")),
        "departure_stop": {"name": text(dep.get("name"))},
        "arrival_stop": {"name": text(arr.get("name"))},
        "distance": _int_text(raw.get("distance")),
        "duration": _duration(raw),
        "via_num": _int_text(raw.get("via_num")),
    }


def _railway(raw: Mapping[str, Any]) -> dict[str, Any] | None:
    if not text(raw.get("name")) and not text(raw.get("trip")):
        return None
    dep = _mapping(raw.get("departure_stop"), "railway.departure_stop")
    arr = _mapping(raw.get("arrival_stop"), "railway.arrival_stop")
    seconds = _int_text(raw.get("time"))
    return {
        "name": text(raw.get("trip")) or text(raw.get("name")),
        "type": text(raw.get("type")) or "火车",
        "departure_stop": {"name": text(dep.get("name"))},
        "arrival_stop": {"name": text(arr.get("name"))},
        "distance": _int_text(raw.get("distance")),
        "duration": seconds,
        "via_num": _int_text(len(raw["via_stops"]) if isinstance(raw.get("via_stops"), list) else ""),
    }


def _segments(raw: Mapping[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    walking = _mapping(raw.get("walking"), "segment.walking")
    if _int_text(walking.get("distance")) not in ("", "0"):
        steps = [
            {
                "instruction": text(s.get("instruction")),
                "road_name": text(s.get("road_name")) or text(s.get("road")),
                "step_distance": _int_text(
                    s.get("step_distance") if "step_distance" in s else s.get("distance")
                ),
            }
            for s in _list(walking.get("steps"), "walking.steps")
            if isinstance(s, Mapping)
        ]
        out.append(
            {
                "walking": {
                    "distance": _int_text(walking.get("distance")),
                    "duration": _duration(walking),
                    "steps": steps,
                }
            }
        )
    bus = _mapping(raw.get("bus"), "segment.bus")
    lines = [b for b in _list(bus.get("buslines"), "bus.buslines") if isinstance(b, Mapping)]
    if lines:  # AMap lists alternatives for the same leg; the first one is the planned line
        out.append({"bus": {"buslines": [_busline(lines[0])]}})
    rail = _railway(_mapping(raw.get("railway"), "segment.railway"))
    if rail is not None:
        out.append({"bus": {"buslines": [rail]}})
    return out


def transit_from_amap(payload: Mapping[str, Any], limit: int = 1) -> dict[str, Any]:
    """``{"route": {...transits}}`` from a v5 ``transit/integrated`` payload (first ``limit`` plans)."""
    route = _mapping(payload.get("route"), "route")
    plans = [t for t in _list(route.get("transits"), "route.transits") if isinstance(t, Mapping)]
    if not plans:
        raise NoTransit("高德地图没有找到这两点之间的公交方案（距离太近时请改用步行 walking）")
    transits = []
    taxi: Any = route.get("taxi_cost")
    for plan in plans[:limit]:
        cost = _mapping(plan.get("cost"), "transit.cost")
        fee = cost.get("transit_fee") if cost else plan.get("cost")
        if not text(taxi) and cost:
            taxi = cost.get("taxi_fee")
        segments = []
        for seg in _list(plan.get("segments"), "transit.segments"):
            if isinstance(seg, Mapping):
                segments.extend(_segments(seg))
        transits.append(
            {
                "cost": money(fee),
                "duration": _duration(plan),
                "walking_distance": _int_text(plan.get("walking_distance")),
                "distance": _int_text(plan.get("distance")),
                "segments": segments,
            }
        )
    if not text(taxi):
        taxi = _mapping(route.get("cost"), "route.cost").get("taxi_fee")
    return {
        "route": {
            "origin": _location(route.get("origin")),
            "destination": _location(route.get("destination")),
            "taxi_cost": money(taxi),
            "distance": _int_text(route.get("distance")),
            "transits": transits,
        }
    }


def walking_as_transit(walk: Mapping[str, Any], taxi_cost: str = "") -> dict[str, Any]:
    """A transit-shaped route made of one walking segment (AMap plans no transit for short trips).

    ``walk`` is the output of :func:`route_from_amap` for ``walking``; the shape matches the
    sandbox's walk-only transit answer (fare ``"0"``).
    """
    route = walk["route"]
    path = route["paths"][0]
    steps = [{k: s[k] for k in ("instruction", "road_name", "step_distance")} for s in path["steps"]]
    segment = {"walking": {"distance": path["distance"], "duration": path["duration"], "steps": steps}}
    plan = {
        "cost": "0",
        "duration": path["duration"],
        "walking_distance": path["distance"],
        "distance": path["distance"],
        "segments": [segment],
    }
    return {
        "route": {
            "origin": route["origin"],
            "destination": route["destination"],
            "taxi_cost": taxi_cost,
            "distance": path["distance"],
            "transits": [plan],
        }
    }


# --- weather -------------------------------------------------------------------------------------
_CAST_FIELDS = ("dayweather", "nightweather", "daywind", "nightwind", "daypower", "nightpower")


def _cast(raw: Mapping[str, Any]) -> dict[str, Any]:
    day = text(raw.get("date"))
    week = text(raw.get("week"))
    if not week and day:
        try:
            week = str(Date.fromisoformat(day).isoweekday())
        except ValueError:
            week = ""
    out: dict[str, Any] = {"date": day, "week": week}
    for name in _CAST_FIELDS[:2]:
        out[name] = text(raw.get(name))
    out["daytemp"] = _int_text(raw.get("daytemp"))
    out["nighttemp"] = _int_text(raw.get("nighttemp"))
    for name in _CAST_FIELDS[2:]:
        value = text(raw.get(name))
        out[name] = value.removesuffix("级") if name.endswith("power") else value.removesuffix("风") or value
    return out


def forecast_from_amap(payload: Mapping[str, Any], requested: str | None = None) -> dict[str, Any]:
    """``{"forecasts": [...]}`` from a v3 ``weatherInfo`` (``extensions=all``) payload.

    AMap forecasts only today and the next three days. A ``requested`` date inside that window
    selects the casts from that date on; outside it every available cast is kept (each one is
    labelled with its own date, so nothing is passed off as the requested day).
    """
    forecasts = [f for f in _list(payload.get("forecasts"), "forecasts") if isinstance(f, Mapping)]
    if not forecasts:
        raise ToolInputError("高德天气没有这个城市的预报数据")
    fc = forecasts[0]
    casts = [_cast(c) for c in _list(fc.get("casts"), "forecasts.casts") if isinstance(c, Mapping)]
    casts = [c for c in casts if c["date"]]
    if not casts:
        raise ToolInputError("高德天气没有这个城市的预报数据")
    if requested and any(c["date"] == requested for c in casts):
        casts = [c for c in casts if c["date"] >= requested]
    adcode = text(fc.get("adcode"))
    city = city_from_amap(text(fc.get("city")), adcode)
    province = text(fc.get("province"))
    if city is not None and (not province or city.province.startswith(province)):
        province = city.province
    return {
        "forecasts": [
            {
                "city": text(fc.get("city")),
                "adcode": adcode,
                "province": province,
                "reporttime": text(fc.get("reporttime")),
                "casts": casts,
            }
        ]
    }

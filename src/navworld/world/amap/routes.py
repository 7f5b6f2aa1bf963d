"""Converters of AMap v5 direction payloads to navworld's ``{"route": …}`` data.

Driving, walking and bicycling keep the first path (``paths``); transit keeps the first plan
(``transits``) with one segment per walking, bus or railway part, the first (planned) line of
each leg and line names without their termini (``地铁1号线(湘湖--下沙江滨)`` → ``地铁1号线``).
The shapes equal the sandbox's (``docs/tool-output.md``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from navworld.core.errors import ToolInputError
from navworld.world.amap.fields import as_list, as_mapping, duration, int_text, location, money, text

__all__ = ["NoTransit", "route_from_amap", "transit_from_amap", "walking_as_transit"]

_LINE_TERMINI = re.compile(r"\s*[(（][^()（）]*[-—–]{1,2}[^()（）]*[)）]\s*$")
_MODE_ZH = {"driving": "驾车", "walking": "步行", "bicycling": "骑行", "transit": "公交"}


class NoTransit(ToolInputError):
    """AMap planned no public-transport trip (usually because both ends are very close)."""


def _step(raw: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "instruction": text(raw.get("instruction")),
        "orientation": text(raw.get("orientation")),
        "road_name": text(raw.get("road_name")) or text(raw.get("road")),
        "step_distance": int_text(
            raw.get("step_distance") if "step_distance" in raw else raw.get("distance")
        ),
        "duration": duration(raw),
    }


def route_from_amap(payload: Mapping[str, Any], mode: str) -> dict[str, Any]:
    """``{"route": {...paths}}`` from a v5 driving/walking/bicycling payload (first path)."""
    route = as_mapping(payload.get("route"), "route")
    paths = [p for p in as_list(route.get("paths"), "route.paths") if isinstance(p, Mapping)]
    if not paths:
        raise ToolInputError(f"高德地图没有找到这两点之间的{_MODE_ZH.get(mode, mode)}路线")
    path = paths[0]
    steps = [_step(s) for s in as_list(path.get("steps"), "path.steps") if isinstance(s, Mapping)]
    taxi = route.get("taxi_cost")
    if not text(taxi) and isinstance(path.get("cost"), Mapping):
        taxi = path["cost"].get("taxi_fee") or path["cost"].get("taxi")
    out: dict[str, Any] = {
        "origin": location(route.get("origin")),
        "destination": location(route.get("destination")),
    }
    if mode == "driving":  # like the sandbox: only driving (and transit) carry a taxi estimate
        out["taxi_cost"] = money(taxi)
    out["paths"] = [{"distance": int_text(path.get("distance")), "duration": duration(path), "steps": steps}]
    return {"route": out}


def _line_name(name: str) -> str:
    return _LINE_TERMINI.sub("", name).strip() or name


def _busline(raw: Mapping[str, Any]) -> dict[str, Any]:
    dep = as_mapping(raw.get("departure_stop"), "busline.departure_stop")
    arr = as_mapping(raw.get("arrival_stop"), "busline.arrival_stop")
    return {
        "name": _line_name(text(raw.get("name"))),
        "type": text(raw.get("type")),
        "departure_stop": {"name": text(dep.get("name"))},
        "arrival_stop": {"name": text(arr.get("name"))},
        "distance": int_text(raw.get("distance")),
        "duration": duration(raw),
        "via_num": int_text(raw.get("via_num")),
    }


def _railway(raw: Mapping[str, Any]) -> dict[str, Any] | None:
    if not text(raw.get("name")) and not text(raw.get("trip")):
        return None
    dep = as_mapping(raw.get("departure_stop"), "railway.departure_stop")
    arr = as_mapping(raw.get("arrival_stop"), "railway.arrival_stop")
    seconds = int_text(raw.get("time"))
    return {
        "name": text(raw.get("trip")) or text(raw.get("name")),
        "type": text(raw.get("type")) or "火车",
        "departure_stop": {"name": text(dep.get("name"))},
        "arrival_stop": {"name": text(arr.get("name"))},
        "distance": int_text(raw.get("distance")),
        "duration": seconds,
        "via_num": int_text(len(raw["via_stops"]) if isinstance(raw.get("via_stops"), list) else ""),
    }


def _segments(raw: Mapping[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    walking = as_mapping(raw.get("walking"), "segment.walking")
    if int_text(walking.get("distance")) not in ("", "0"):
        steps = [
            {
                "instruction": text(s.get("instruction")),
                "road_name": text(s.get("road_name")) or text(s.get("road")),
                "step_distance": int_text(
                    s.get("step_distance") if "step_distance" in s else s.get("distance")
                ),
            }
            for s in as_list(walking.get("steps"), "walking.steps")
            if isinstance(s, Mapping)
        ]
        out.append(
            {
                "walking": {
                    "distance": int_text(walking.get("distance")),
                    "duration": duration(walking),
                    "steps": steps,
                }
            }
        )
    bus = as_mapping(raw.get("bus"), "segment.bus")
    lines = [b for b in as_list(bus.get("buslines"), "bus.buslines") if isinstance(b, Mapping)]
    if lines:  # AMap lists alternatives for the same leg; the first one is the planned line
        out.append({"bus": {"buslines": [_busline(lines[0])]}})
    rail = _railway(as_mapping(raw.get("railway"), "segment.railway"))
    if rail is not None:
        out.append({"bus": {"buslines": [rail]}})
    return out


def transit_from_amap(payload: Mapping[str, Any], limit: int = 1) -> dict[str, Any]:
    """``{"route": {...transits}}`` from a v5 ``transit/integrated`` payload (first ``limit`` plans)."""
    route = as_mapping(payload.get("route"), "route")
    plans = [t for t in as_list(route.get("transits"), "route.transits") if isinstance(t, Mapping)]
    if not plans:
        raise NoTransit("高德地图没有找到这两点之间的公交方案（距离太近时请改用步行 walking）")
    transits = []
    taxi: Any = route.get("taxi_cost")
    for plan in plans[:limit]:
        cost = as_mapping(plan.get("cost"), "transit.cost")
        fee = cost.get("transit_fee") if cost else plan.get("cost")
        if not text(taxi) and cost:
            taxi = cost.get("taxi_fee")
        segments = []
        for seg in as_list(plan.get("segments"), "transit.segments"):
            if isinstance(seg, Mapping):
                segments.extend(_segments(seg))
        transits.append(
            {
                "cost": money(fee),
                "duration": duration(plan),
                "walking_distance": int_text(plan.get("walking_distance")),
                "distance": int_text(plan.get("distance")),
                "segments": segments,
            }
        )
    if not text(taxi):
        taxi = as_mapping(route.get("cost"), "route.cost").get("taxi_fee")
    return {
        "route": {
            "origin": location(route.get("origin")),
            "destination": location(route.get("destination")),
            "taxi_cost": money(taxi),
            "distance": int_text(route.get("distance")),
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

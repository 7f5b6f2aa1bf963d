"""Deterministic route planning: driving, walking, bicycling and transit.

Distance = haversine × a mode detour factor (× a small seeded jitter); duration from a mode
speed; steps along the city's road names; taxi fare from a tiered 起步价 + per-km price; transit
uses metro lines (``地铁N号线``) where the city has a metro, else buses (``N路``). Every RNG is
seeded from the rounded coordinates and the mode, so the same query always gives the same route.
"""

from __future__ import annotations

import math
import random

from navworld.core.errors import ToolInputError
from navworld.core.geo import LngLat, haversine_km
from navworld.core.models import City, Route, RouteStep
from navworld.core.seeding import rng
from navworld.core.versions import WORLD_VERSION

__all__ = ["DETOUR", "MODES", "SPEED_KMH", "plan_route", "taxi_fare"]

MODES = ("driving", "walking", "bicycling", "transit")
DETOUR = {"driving": 1.3, "walking": 1.2, "bicycling": 1.25, "transit": 1.35}
SPEED_KMH = {"walking": 4.5, "bicycling": 13.0, "driving": 30.0, "highway": 80.0, "metro": 22.0, "bus": 17.0}
MAX_KM = {"walking": 100.0, "bicycling": 300.0, "transit": 120.0, "driving": 4000.0}
_ORIENT = ("东", "东北", "北", "西北", "西", "西南", "南", "东南")
_VERB = {"driving": "行驶", "walking": "步行", "bicycling": "骑行"}
_FALLBACK_ROADS = ("人民路", "中山路", "解放路", "建设路", "新华路")


def taxi_fare(km: float, tier: int) -> int:
    """Taxi fare in CNY: 起步价 for 3 km, then a per-km price, +50 % beyond 15 km (空驶费)."""
    base, per_km = {1: (14.0, 2.7), 2: (12.0, 2.5)}.get(tier, (10.0, 2.3))
    fare = base + max(0.0, km - 3.0) * per_km + max(0.0, km - 15.0) * per_km * 0.5
    return round(fare)


def _bearing(a: LngLat, b: LngLat) -> float:
    lng1, lat1, lng2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    y = math.sin(lng2 - lng1) * math.cos(lat2)
    x = math.cos(lat1) * math.sin(lat2) - math.sin(lat1) * math.cos(lat2) * math.cos(lng2 - lng1)
    return (math.degrees(math.atan2(y, x)) + 360.0) % 360.0


def _orientation(bearing: float) -> str:
    # bearing: 0 = north, clockwise. _ORIENT starts at east and goes counter-clockwise.
    math_angle = (90.0 - bearing) % 360.0
    return _ORIENT[int(((math_angle + 22.5) % 360.0) // 45.0)]


def _fmt_dist(m: int) -> str:
    return f"{m}米" if m < 1000 else f"{m / 1000:.1f}公里"


def _split(total: int, n: int, r: random.Random) -> list[int]:
    if n <= 1 or total < 50 * n:
        return [total]
    weights = [r.uniform(0.5, 1.5) for _ in range(n)]
    s = sum(weights)
    parts = [int(total * w / s) for w in weights]
    parts[-1] += total - sum(parts)
    return parts


def _road_steps(mode: str, distance_m: int, duration_s: int, bearing: float, roads: tuple[str, ...], r: random.Random) -> list[RouteStep]:
    n = max(1, min(6, 1 + distance_m // 2500))
    parts = _split(distance_m, n, r)
    names = list(roads)
    r.shuffle(names)
    steps: list[RouteStep] = []
    heading = bearing
    verb = _VERB[mode]
    for i, d in enumerate(parts):
        road = names[i % len(names)]
        orient = _orientation(heading)
        if i == 0:
            text = f"沿{road}向{orient}{verb}{_fmt_dist(d)}"
        else:
            turn = r.choice(("左转", "右转"))
            text = f"{turn}进入{road}向{orient}{verb}{_fmt_dist(d)}"
        if i == len(parts) - 1:
            text += "，到达终点"
        dur = round(duration_s * d / max(1, distance_m))
        steps.append(RouteStep(instruction=text, road_name=road, distance_m=d, duration_s=dur))
        heading = (bearing + r.uniform(-50.0, 50.0)) % 360.0
    return steps


def _transit(origin: LngLat, destination: LngLat, km: float, city: City | None, roads: tuple[str, ...], r: random.Random) -> Route:
    distance_m = round(km * DETOUR["transit"] * r.uniform(0.97, 1.05) * 1000)
    taxi = taxi_fare(km * DETOUR["driving"], city.tier if city else 3)
    bearing = _bearing(origin, destination)
    if distance_m < 1200:
        dur = round(distance_m / (SPEED_KMH["walking"] / 3.6))
        step = RouteStep(instruction=f"步行{_fmt_dist(distance_m)}到达终点", road_name=r.choice(roads), distance_m=distance_m, duration_s=dur)
        return Route(mode="transit", origin=origin, destination=destination, distance_m=distance_m, duration_s=dur,
                     taxi_cost=taxi, transit_cost=0.0, walking_distance_m=distance_m, steps=(step,), lines=())
    metro = bool(city and city.metro_lines > 0)
    walk1 = r.randint(250, 900)
    walk2 = r.randint(200, 800)
    ride_total = max(500, distance_m - walk1 - walk2)
    n_legs = 2 if ride_total > 12000 and r.random() < 0.7 else 1
    legs = _split(ride_total, n_legs, r)
    names = list(roads)
    r.shuffle(names)
    steps: list[RouteStep] = []
    walk_speed = SPEED_KMH["walking"] / 3.6
    steps.append(RouteStep(instruction=f"步行{names[0]}向{_orientation(bearing)} {_fmt_dist(walk1)}",
                           road_name=names[0], distance_m=walk1, duration_s=int(walk1 / walk_speed)))
    lines: list[str] = []
    duration = walk1 / walk_speed + walk2 / walk_speed
    prev_stop = f"{names[1 % len(names)]}站"
    for i, leg in enumerate(legs):
        if metro:
            assert city is not None
            n = r.randint(1, max(1, city.metro_lines))
            while f"地铁{n}号线" in lines and city.metro_lines > 1:
                n = r.randint(1, city.metro_lines)
            line = f"地铁{n}号线"
            speed = SPEED_KMH["metro"]
        else:
            n = r.randint(1, 199)
            while f"{n}路" in lines:
                n = r.randint(1, 199)
            line = f"{n}路"
            speed = SPEED_KMH["bus"]
        stop_road = names[(i + 2) % len(names)]
        end_stop = f"{stop_road}站" if f"{stop_road}站" != prev_stop else f"{stop_road}口站"
        stops = max(1, round(leg / (1300.0 if metro else 700.0)))
        ride_s = leg / (speed / 3.6) + r.randint(120, 360)  # + waiting
        duration += ride_s
        lines.append(line)
        steps.append(RouteStep(instruction=f"乘坐{line}从{prev_stop}到{end_stop}，{stops}站，{_fmt_dist(leg)}",
                               road_name="", distance_m=leg, duration_s=int(ride_s), line=line))
        prev_stop = end_stop
    ride_km = sum(legs) / 1000.0
    if metro:
        fare = min(7, 2 + max(0, math.ceil((ride_km - 4.0) / 6.0)))
    else:
        fare = min(7, 2 * len(legs))
    last_road = names[(len(legs) + 2) % len(names)]
    steps.append(RouteStep(instruction=f"步行{last_road} {_fmt_dist(walk2)}到达终点", road_name=last_road,
                           distance_m=walk2, duration_s=int(walk2 / walk_speed)))
    return Route(mode="transit", origin=origin, destination=destination, distance_m=distance_m, duration_s=round(duration),
                 taxi_cost=float(taxi), transit_cost=float(fare), walking_distance_m=walk1 + walk2, steps=tuple(steps),
                 lines=tuple(lines))


def plan_route(
    origin: LngLat, destination: LngLat, mode: str, city: City | None = None, waypoints: tuple[LngLat, ...] = ()
) -> Route:
    """Plan a route; raise :class:`ToolInputError` for an unknown mode or an impossible distance."""
    if mode not in MODES:
        raise ToolInputError(f"不支持的出行方式 {mode!r}，可选：driving、walking、bicycling、transit")
    points = [origin, *(waypoints if mode == "driving" else ()), destination]
    km = sum(haversine_km(points[i], points[i + 1]) for i in range(len(points) - 1))
    if km > MAX_KM[mode]:
        hint = "跨城出行请查询火车或航班（search_train_tickets / search_flights）" if mode == "transit" else "请改用驾车或公共交通"
        raise ToolInputError(f"起终点相距约 {km:.0f} 公里，超出{_mode_zh(mode)}路线的范围（{MAX_KM[mode]:.0f} 公里）；{hint}")
    key = [f"{p[0]:.5f},{p[1]:.5f}" for p in points]
    r = rng(WORLD_VERSION, "route", mode, *key)
    roads = (city.roads if city and city.roads else _FALLBACK_ROADS)
    if mode == "transit":
        return _transit(origin, destination, km, city, roads, r)
    distance_m = round(km * DETOUR[mode] * r.uniform(0.97, 1.05) * 1000)
    d_km = distance_m / 1000.0
    if mode == "driving":
        urban = min(d_km, 20.0)
        hours = urban / (SPEED_KMH["driving"] * r.uniform(0.9, 1.1)) + max(0.0, d_km - 20.0) / SPEED_KMH["highway"]
    else:
        hours = d_km / SPEED_KMH[mode]
    duration_s = round(hours * 3600)
    steps = _road_steps(mode, distance_m, duration_s, _bearing(origin, destination), roads, r) if distance_m > 0 else []
    taxi = float(taxi_fare(d_km, city.tier if city else 3)) if mode == "driving" else 0.0
    return Route(mode=mode, origin=origin, destination=destination, distance_m=distance_m, duration_s=duration_s,  # type: ignore[arg-type]
                 taxi_cost=taxi, steps=tuple(steps))


def _mode_zh(mode: str) -> str:
    return {"driving": "驾车", "walking": "步行", "bicycling": "骑行", "transit": "公交"}[mode]

"""Deterministic flights and trains between two catalog cities.

Lists depend on ``(WORLD_VERSION, salt, date, from, to)``; distances come from the real
coordinates: flights use the great-circle distance between city centres, trains a rail distance
of 1.2–1.3 × the straight line (seeded per unordered pair, salt-independent, symmetric).
Availability follows the real infrastructure: no flights without an airport at both ends or
under ~350 km; G/D/C trains only between cities that both have a high-speed station. Arrivals
are on the departure day or the next (``next_day``); longer trips are not generated.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from navworld.core.geo import haversine_km
from navworld.core.models import City, Flight, Seat, Station, Train
from navworld.core.seeding import rng
from navworld.core.versions import WORLD_VERSION
from navworld.world.vocab import load_vocab

__all__ = [
    "flight_unavailable_reason",
    "generate_flights",
    "generate_trains",
    "rail_km",
    "straight_km",
    "train_unavailable_reason",
]

_DAY = 1440


def straight_km(a: City, b: City) -> float:
    """Great-circle distance between the two city centres."""
    return haversine_km(a.center, b.center)


def rail_km(a: City, b: City) -> float:
    """Rail distance: 1.2–1.3 × the straight line, seeded per unordered pair (salt-independent)."""
    lo, hi = load_vocab("transport")["rail_factor"]
    x, y = sorted((a.name, b.name))
    factor = rng(WORLD_VERSION, "rail", x, y).uniform(lo, hi)
    return straight_km(a, b) * factor


def _hhmm(minutes: int) -> str:
    m = minutes % _DAY
    return f"{m // 60:02d}:{m % 60:02d}"


def _nearest_with(city: City, cities: Sequence[City], has: Callable[[City], bool], lookup: Callable[[str], City | None]) -> list[City]:
    picked: list[City] = []
    for name in city.nearby_cities:
        c = lookup(name)
        if c is not None and c.name != city.name and has(c) and c not in picked:
            picked.append(c)
    if len(picked) < 2:
        others = sorted((c for c in cities if c.name != city.name and has(c) and c not in picked),
                        key=lambda c: haversine_km(city.center, c.center))
        picked.extend(others[: 3 - len(picked)])
    return picked[:3]


def flight_unavailable_reason(a: City, b: City, cities: Sequence[City], lookup: Callable[[str], City | None]) -> str | None:
    """Why there are no flights between ``a`` and ``b`` (``None`` when there are)."""
    if a.name == b.name:
        return f"出发城市和到达城市都是{a.name}，请提供两个不同的城市"
    for c in (a, b):
        if not c.airports:
            near = _nearest_with(c, cities, lambda x: bool(x.airports), lookup)
            names = "、".join(f"{ap.name}（{ap.iata}，{n.name}）" for n in near for ap in n.airports)
            tail = f"附近可用机场：{names}。可先乘火车或汽车前往这些城市，再查询航班" if names else "请改查火车"
            return f"{c.name}没有民用机场，无法查询航班。{tail}"
    km = straight_km(a, b)
    if km < load_vocab("transport")["flight"]["min_km"]:
        return f"{a.name}与{b.name}直线距离约 {km:.0f} 公里，距离过近，没有直飞航班，建议查询火车（search_train_tickets）"
    return None


def train_unavailable_reason(a: City, b: City, cities: Sequence[City], lookup: Callable[[str], City | None]) -> str | None:
    """Why there are no trains between ``a`` and ``b`` (``None`` when there may be)."""
    if a.name == b.name:
        return f"出发城市和到达城市都是{a.name}，请提供两个不同的城市"
    for c in (a, b):
        if not c.stations:
            near = _nearest_with(c, cities, lambda x: bool(x.stations), lookup)
            names = "、".join(n.name for n in near)
            tail = f"附近有火车站的城市：{names}" if names else "请改查航班"
            return f"{c.name}没有火车站，无法查询火车。{tail}"
    return None


def _pick(r: random.Random, items: Sequence[object]) -> object:
    # The first (main) item is favoured.
    weights = [2.0 if i == 0 else 1.0 for i in range(len(items))]
    return r.choices(list(items), weights=weights)[0]


def generate_flights(date: str, a: City, b: City, salt: str) -> list[Flight]:
    """8–15 flights (1–2 red-eyes) from ``a`` to ``b`` on ``date``; ``[]`` when none can exist."""
    if a.name == b.name or not a.airports or not b.airports:
        return []
    cfg = load_vocab("transport")
    fcfg = cfg["flight"]
    km = straight_km(a, b)
    if km < fcfg["min_km"]:
        return []
    r = rng(WORLD_VERSION, "flights", salt, date, a.name, b.name)
    n = r.randint(8, 15)
    n_red = r.randint(1, 2)
    normal = r.sample(range(6 * 60 + 30, 21 * 60 + 56, 5), n - n_red)
    red = r.sample(range(22 * 60 + 30, 23 * 60 + 56, 5), n_red)
    airlines = cfg["airlines"]
    weights = [1.0 + 4.0 * ((a.name in al["bases"]) + (b.name in al["bases"])) for al in airlines]
    used: set[str] = set()
    flights: list[Flight] = []
    base_price = fcfg["price_base"] + km * fcfg["price_per_km"]
    for dep in sorted(normal) + sorted(red):
        airline = r.choices(airlines, weights=weights)[0]
        for _ in range(20):
            num = r.randint(1000, 9999) if r.random() < 0.8 else r.randint(100, 999)
            no = f"{airline['code']}{num}"
            if no not in used:
                break
        used.add(no)
        minutes = (km / fcfg["cruise_kmh"]) * 60 + r.uniform(*fcfg["overhead_min"])
        duration = max(50, round(minutes * r.uniform(0.97, 1.05) / 5.0) * 5)
        arr = dep + duration
        price = base_price * r.uniform(*fcfg["price_spread"])
        if dep >= 22 * 60 + 30:
            price *= r.uniform(*fcfg["redeye_factor"])
        price = min(fcfg["price_max"], max(fcfg["price_min"], price))
        flights.append(
            Flight(
                flight_no=no,
                airline=airline["name"],
                date=date,
                from_city=a.name,
                to_city=b.name,
                from_airport=str(_pick(r, [ap.name for ap in a.airports])),
                to_airport=str(_pick(r, [ap.name for ap in b.airports])),
                dep_time=_hhmm(dep),
                arr_time=_hhmm(arr),
                next_day=arr >= _DAY,
                duration_min=duration,
                price=float(round(price / 10.0) * 10),
            )
        )
    flights.sort(key=lambda f: (f.dep_time, f.flight_no))
    return flights


def _allowed_types(a: City, b: City, km: float) -> list[str]:
    both_hsr = any(s.hsr for s in a.stations) and any(s.hsr for s in b.stations)
    types: list[str] = []
    if both_hsr:
        if km <= 2800:  # no direct high-speed service beyond ~2,800 km of track
            types.append("G")
        if km <= 1500:
            types.append("D")
        if km <= 300:
            types.append("C")
        if km > 500:
            types.extend(["Z", "T", "K"])
    else:
        types.append("K")
        if km > 150:
            types.append("T")
        if km > 800:
            types.append("Z")
    return types


def _stations(city: City, hsr: bool) -> list[Station]:
    if hsr:
        return [s for s in city.stations if s.hsr]
    conventional = [s for s in city.stations if not s.hsr]
    return conventional or list(city.stations)


_TYPE_WEIGHT = {"G": 5.0, "D": 3.0, "C": 2.0, "Z": 1.5, "T": 1.5, "K": 2.0}


def generate_trains(date: str, a: City, b: City, salt: str) -> list[Train]:
    """8–15 trains from ``a`` to ``b`` on ``date`` (types by infrastructure and distance)."""
    if a.name == b.name or not a.stations or not b.stations:
        return []
    cfg = load_vocab("transport")["trains"]
    km = rail_km(a, b)
    r = rng(WORLD_VERSION, "trains", salt, date, a.name, b.name)
    # Keep only the types whose trip fits: high-speed trains arrive by 23:30 the same day,
    # conventional ones by 23:30 the next day.
    feasible: list[tuple[str, float]] = []
    for t in _allowed_types(a, b, km):
        spd_lo = cfg[t]["speed"][0]
        slowest = km / spd_lo * 60 + cfg[t]["overhead_min"][1]
        limit = (23 * 60 + 30 - 6 * 60) if cfg[t]["hsr"] else (2 * _DAY - 30 - 6 * 60)
        if slowest <= limit:
            feasible.append((t, _TYPE_WEIGHT[t]))
    if not feasible:
        return []
    n = r.randint(8, 15)
    used: set[str] = set()
    trains: list[Train] = []
    for _ in range(n):
        t = r.choices([f[0] for f in feasible], weights=[f[1] for f in feasible])[0]
        c = cfg[t]
        duration = round(km / r.uniform(*c["speed"]) * 60 + r.uniform(*c["overhead_min"]))
        latest = (23 * 60 + 30 - duration) if c["hsr"] else min(23 * 60, 2 * _DAY - 30 - duration)
        latest = min(latest, 22 * 60 + 30)
        dep = r.randint(6 * 60, max(6 * 60, latest))
        dep -= dep % 5
        lo, hi = c["numbers"]
        for _ in range(30):
            no = f"{t}{r.randint(lo, hi)}"
            if no not in used:
                break
        used.add(no)
        factor = r.uniform(0.95, 1.05)
        seats = tuple(
            Seat(**{"class": cls, "price": float(max(c["min_price"], round(km * per_km * factor)))})
            for cls, per_km in c["seats"]
        )
        arr = dep + duration
        trains.append(
            Train(
                train_no=no,
                train_type=t,
                date=date,
                from_city=a.name,
                to_city=b.name,
                from_station=str(_pick(r, [s.name for s in _stations(a, c["hsr"])])),
                to_station=str(_pick(r, [s.name for s in _stations(b, c["hsr"])])),
                dep_time=_hhmm(dep),
                arr_time=_hhmm(arr),
                next_day=arr >= _DAY,
                duration_min=duration,
                seats=seats,
            )
        )
    trains.sort(key=lambda x: (x.dep_time, x.train_no))
    return trains

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
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any, NamedTuple

from navworld.core.geo import haversine_km
from navworld.core.models import City, Flight, Seat, Station, Train
from navworld.core.seeding import rng
from navworld.core.versions import WORLD_VERSION
from navworld.world.vocab import load_vocab

__all__ = [
    "FlightRow",
    "SeatRow",
    "TrainRow",
    "flight_rows",
    "flight_unavailable_reason",
    "generate_flights",
    "generate_trains",
    "rail_km",
    "straight_km",
    "train_model",
    "train_rows",
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


class _Draws:
    """Exact, faster equivalents of the ``random.Random`` calls the generators make.

    Each method returns what the named ``Random`` method returns for the same generator state
    and consumes the same draws (``tests/world`` checks them against ``random.Random`` itself),
    so timetables stay byte-identical while skipping the per-call argument handling of
    ``randint``/``choices``/``uniform``.
    """

    __slots__ = ("bits", "random")

    def __init__(self, r: random.Random) -> None:
        self.random = r.random
        self.bits = r.getrandbits

    def randint(self, a: int, b: int) -> int:
        """``Random.randint(a, b)`` (``a <= b``)."""
        n = b - a + 1
        k = n.bit_length()
        bits = self.bits
        v = bits(k)
        while v >= n:
            v = bits(k)
        return a + v

    def uniform(self, a: float, b: float) -> float:
        """``Random.uniform(a, b)``."""
        return a + (b - a) * self.random()

    def pick(self, table: _Weighted) -> Any:
        """``Random.choices(population, cum_weights=...)[0]`` (one draw, even for one item)."""
        population, cum, total, hi = table
        return population[bisect_right(cum, self.random() * total, 0, hi)]


_Weighted = tuple[Sequence[Any], list[float], float, int]


def _weighted(population: Sequence[Any], weights: Sequence[float]) -> _Weighted:
    cum = list(accumulate(weights))
    return (population, cum, cum[-1] + 0.0, len(population) - 1)


@lru_cache(maxsize=64)
def _main_first(items: tuple[str, ...]) -> _Weighted:
    # The first (main) item is favoured.
    return _weighted(items, [2.0 if i == 0 else 1.0 for i in range(len(items))])


_HHMM = tuple(f"{m // 60:02d}:{m % 60:02d}" for m in range(_DAY))


class FlightRow(NamedTuple):
    """One generated flight as a plain row (the fields of :class:`~navworld.core.models.Flight`)."""

    flight_no: str
    airline: str
    date: str
    from_city: str
    to_city: str
    from_airport: str
    to_airport: str
    dep_time: str
    arr_time: str
    next_day: bool
    duration_min: int
    price: float


class SeatRow(NamedTuple):
    """One seat class of a generated train (the fields of :class:`~navworld.core.models.Seat`)."""

    seat_class: str
    price: float


class TrainRow(NamedTuple):
    """One generated train as a plain row (the fields of :class:`~navworld.core.models.Train`)."""

    train_no: str
    train_type: str
    date: str
    from_city: str
    to_city: str
    from_station: str
    to_station: str
    dep_time: str
    arr_time: str
    next_day: bool
    duration_min: int
    seats: tuple[SeatRow, ...]


def generate_flights(date: str, a: City, b: City, salt: str) -> list[Flight]:
    """8–15 flights (1–2 red-eyes) from ``a`` to ``b`` on ``date``; ``[]`` when none can exist."""
    return [Flight(**row._asdict()) for row in flight_rows(date, a, b, salt)]


def flight_rows(date: str, a: City, b: City, salt: str) -> list[FlightRow]:
    """:func:`generate_flights` as plain rows (what the tool renders; no model validation)."""
    if a.name == b.name or not a.airports or not b.airports:
        return []
    cfg = load_vocab("transport")
    fcfg = cfg["flight"]
    km = straight_km(a, b)
    if km < fcfg["min_km"]:
        return []
    r = rng(WORLD_VERSION, "flights", salt, date, a.name, b.name)
    d = _Draws(r)
    rand, uniform, randint = d.random, d.uniform, d.randint
    n = randint(8, 15)
    n_red = randint(1, 2)
    normal = r.sample(range(6 * 60 + 30, 21 * 60 + 56, 5), n - n_red)
    red = r.sample(range(22 * 60 + 30, 23 * 60 + 56, 5), n_red)
    airlines = cfg["airlines"]
    carriers = _weighted(
        airlines, [1.0 + 4.0 * ((a.name in al["bases"]) + (b.name in al["bases"])) for al in airlines]
    )
    from_airports = _main_first(tuple(ap.name for ap in a.airports))
    to_airports = _main_first(tuple(ap.name for ap in b.airports))
    over_lo, over_hi = fcfg["overhead_min"]
    spread_lo, spread_hi = fcfg["price_spread"]
    red_lo, red_hi = fcfg["redeye_factor"]
    price_min, price_max = fcfg["price_min"], fcfg["price_max"]
    flight_minutes = (km / fcfg["cruise_kmh"]) * 60
    used: set[str] = set()
    flights: list[FlightRow] = []
    base_price = fcfg["price_base"] + km * fcfg["price_per_km"]
    pick = d.pick
    for dep in sorted(normal) + sorted(red):
        airline = pick(carriers)
        code = airline["code"]
        for _ in range(20):
            num = randint(1000, 9999) if rand() < 0.8 else randint(100, 999)
            no = f"{code}{num}"
            if no not in used:
                break
        used.add(no)
        minutes = flight_minutes + uniform(over_lo, over_hi)
        duration = max(50, round(minutes * uniform(0.97, 1.05) / 5.0) * 5)
        arr = dep + duration
        price = base_price * uniform(spread_lo, spread_hi)
        if dep >= 22 * 60 + 30:
            price *= uniform(red_lo, red_hi)
        price = min(price_max, max(price_min, price))
        flights.append(
            FlightRow(
                no, airline["name"], date, a.name, b.name, pick(from_airports), pick(to_airports),
                _HHMM[dep % _DAY], _HHMM[arr % _DAY], arr >= _DAY, duration, float(round(price / 10.0) * 10),
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


@dataclass(frozen=True)
class _TrainKind:
    """What one train type needs for one city pair, computed once per (pair, type)."""

    code: str
    hsr: bool
    speed: tuple[float, float]
    overhead: tuple[float, float]
    numbers: tuple[int, int]
    seats: tuple[tuple[str, float], ...]
    """(class, rail km × CNY per km): the price before the per-train factor."""
    min_price: float
    from_stations: _Weighted
    to_stations: _Weighted


_PLANS: dict[tuple[int, int], tuple[City, City, float, _Weighted | None]] = {}


def _train_plan(a: City, b: City) -> tuple[float, _Weighted | None]:
    """The rail distance and the feasible train types (weighted) of one ordered city pair (cached
    by identity: hashing a whole ``City`` costs more than the lookup saves)."""
    hit = _PLANS.get((id(a), id(b)))
    if hit is not None and hit[0] is a and hit[1] is b:
        return hit[2], hit[3]
    km, feasible = _plan_trains(a, b)
    if len(_PLANS) >= 8192:
        _PLANS.clear()
    _PLANS[(id(a), id(b))] = (a, b, km, feasible)
    return km, feasible


def _plan_trains(a: City, b: City) -> tuple[float, _Weighted | None]:
    cfg = load_vocab("transport")["trains"]
    km = rail_km(a, b)
    # Keep only the types whose trip fits: high-speed trains arrive by 23:30 the same day,
    # conventional ones by 23:30 the next day.
    kinds: list[_TrainKind] = []
    weights: list[float] = []
    for t in _allowed_types(a, b, km):
        c = cfg[t]
        slowest = km / c["speed"][0] * 60 + c["overhead_min"][1]
        limit = (23 * 60 + 30 - 6 * 60) if c["hsr"] else (2 * _DAY - 30 - 6 * 60)
        if slowest <= limit:
            kinds.append(
                _TrainKind(
                    t,
                    bool(c["hsr"]),
                    tuple(c["speed"]),  # type: ignore[arg-type]
                    tuple(c["overhead_min"]),  # type: ignore[arg-type]
                    tuple(c["numbers"]),  # type: ignore[arg-type]
                    tuple((cls, km * per_km) for cls, per_km in c["seats"]),
                    c["min_price"],
                    _main_first(tuple(s.name for s in _stations(a, c["hsr"]))),
                    _main_first(tuple(s.name for s in _stations(b, c["hsr"]))),
                )
            )
            weights.append(_TYPE_WEIGHT[t])
    return km, (_weighted(kinds, weights) if kinds else None)


def generate_trains(date: str, a: City, b: City, salt: str) -> list[Train]:
    """8–15 trains from ``a`` to ``b`` on ``date`` (types by infrastructure and distance)."""
    return [train_model(row) for row in train_rows(date, a, b, salt)]


def train_model(row: TrainRow) -> Train:
    """The :class:`~navworld.core.models.Train` of a generated row."""
    seats = tuple(Seat(seat_class=s.seat_class, price=s.price) for s in row.seats)
    return Train(**{**row._asdict(), "seats": seats})


def train_rows(date: str, a: City, b: City, salt: str) -> list[TrainRow]:
    """:func:`generate_trains` as plain rows (what the tool renders; no model validation)."""
    if a.name == b.name or not a.stations or not b.stations:
        return []
    km, feasible = _train_plan(a, b)
    r = rng(WORLD_VERSION, "trains", salt, date, a.name, b.name)
    if feasible is None:
        return []
    d = _Draws(r)
    uniform, randint = d.uniform, d.randint
    n = randint(8, 15)
    used: set[str] = set()
    trains: list[TrainRow] = []
    pick = d.pick
    a_name, b_name = a.name, b.name
    for _ in range(n):
        k: _TrainKind = pick(feasible)
        speed_lo, speed_hi = k.speed
        over_lo, over_hi = k.overhead
        duration = round(km / uniform(speed_lo, speed_hi) * 60 + uniform(over_lo, over_hi))
        latest = (23 * 60 + 30 - duration) if k.hsr else min(23 * 60, 2 * _DAY - 30 - duration)
        latest = min(latest, 22 * 60 + 30)
        dep = randint(6 * 60, max(6 * 60, latest))
        dep -= dep % 5
        lo, hi = k.numbers
        code = k.code
        for _ in range(30):
            no = f"{code}{randint(lo, hi)}"
            if no not in used:
                break
        used.add(no)
        factor = uniform(0.95, 1.05)
        min_price = k.min_price
        seats = tuple([SeatRow(cls, float(max(min_price, round(base * factor)))) for cls, base in k.seats])
        arr = dep + duration
        trains.append(
            TrainRow(
                no, code, date, a_name, b_name, pick(k.from_stations), pick(k.to_stations),
                _HHMM[dep % _DAY], _HHMM[arr % _DAY], arr >= _DAY, duration, seats,
            )
        )
    trains.sort(key=lambda x: (x.dep_time, x.train_no))
    return trains

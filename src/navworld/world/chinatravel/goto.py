"""ChinaTravel's inner-city route arithmetic (their ``goto``), reproduced from its documented rules.

* **walk**: straight-line WGS-84 geodesic distance at 5 km/h, cost 0;
* **taxi**: the geodesic at 40 km/h; fare 11 元 up to 1.8 km, then 3.5 元/km up to 10 km, then
  4.5 元/km (rounded to 0.01, per car);
* **metro**: walk (5 km/h) to the station nearest to the origin, ride the straight line to the
  station nearest to the destination at 30 km/h, walk on; fare by the ride's length in bands
  ≤ 4/9/14/21/28/37/48/61 km → 2…9 元, then 9 + ⌊(km − 61 + 14) / 15⌋ 元 (their formula: 62 km costs
  10, 61.5 km still 9) per person. When both ends
  share the nearest station there is no metro solution. Station names get the ``-地铁站`` suffix.

Every leg's minutes are its hours × 60 truncated to a whole minute and added to the previous
leg's end; times may run past ``24:00`` (no wrap). Distances: walk unrounded (single walk),
taxi and the three metro legs rounded to 0.01 km.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from navworld.core.errors import ConfigError

__all__ = [
    "METRO_KMH",
    "STATION_SUFFIX",
    "TAXI_KMH",
    "WALK_KMH",
    "GotoLeg",
    "NoMetro",
    "add_minutes",
    "geodesic_km",
    "metro_fare",
    "nearest_station",
    "plan_legs",
    "taxi_fare",
]

WALK_KMH = 5.0
TAXI_KMH = 40.0
METRO_KMH = 30.0
STATION_SUFFIX = "-地铁站"

try:
    from geographiclib.geodesic import Geodesic as _Geodesic

    _WGS84: Any = _Geodesic.WGS84
except ImportError:  # pragma: no cover - the chinatravel extra is not installed
    _WGS84 = None


def geodesic_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """WGS-84 geodesic distance in km between two ``(lat, lon)`` points (what ``geopy.geodesic`` gives)."""
    if _WGS84 is None:
        raise ConfigError("the chinatravel world needs geographiclib: pip install 'navworld[chinatravel]'")
    if a == b:
        return 0.0
    return float(_WGS84.Inverse(a[0], a[1], b[0], b[1], _WGS84.DISTANCE)["s12"]) / 1000.0


def taxi_fare(km: float) -> float:
    """Taxi fare for ``km`` (unrounded)."""
    if km <= 1.8:
        return 11.0
    if km <= 10:
        return 11.0 + (km - 1.8) * 3.5
    return 11.0 + (10 - 1.8) * 3.5 + (km - 10) * 4.5


_BANDS = ((4, 2), (9, 3), (14, 4), (21, 5), (28, 6), (37, 7), (48, 8), (61, 9))


def metro_fare(km: float) -> int:
    """Metro fare per person for a ride of ``km`` between two stations."""
    for limit, fare in _BANDS:
        if km <= limit:
            return fare
    return 9 + int((km - 61 + 14) // 15)


def add_minutes(hhmm: str, hours: float) -> str:
    """``hhmm`` plus ``hours`` truncated to whole minutes, never wrapping past midnight (``24:20``)."""
    h, m = hhmm.split(":")
    total = int(h) * 60 + int(m) + int(hours * 60)
    return f"{total // 60:02d}:{total % 60:02d}"


class NoMetro(ValueError):
    """Both ends share the nearest metro station (ChinaTravel's ``"No solution"``), or no stations."""


@dataclass(frozen=True)
class GotoLeg:
    """One leg as ``goto`` returns it (``cost`` is per person for metro, per car for taxi)."""

    start: str
    end: str
    mode: str
    start_time: str
    end_time: str
    cost: float
    distance: float

    def to_dict(self) -> dict[str, Any]:
        """The leg dict of ChinaTravel's tool output."""
        return {"start": self.start, "end": self.end, "mode": self.mode, "start_time": self.start_time,
                "end_time": self.end_time, "cost": self.cost, "distance": self.distance}


def nearest_station(point: tuple[float, float], stations: Sequence[tuple[str, float, float]]) -> tuple[int, float]:
    """Index of the station nearest to ``point`` (first one on a tie) and its distance in km.

    ``stations`` are ``(name, lat, lon)`` in file order (a station on two lines appears twice).
    """
    best, best_km = -1, math.inf
    for i, (_, lat, lon) in enumerate(stations):
        d = geodesic_km(point, (lat, lon))
        if d < best_km:
            best, best_km = i, d
    return best, best_km


def plan_legs(
    a_name: str,
    a: tuple[float, float],
    b_name: str,
    b: tuple[float, float],
    start_time: str,
    mode: str,
    stations: Sequence[tuple[str, float, float]] = (),
    nearest: tuple[tuple[int, float], tuple[int, float]] | None = None,
) -> list[GotoLeg]:
    """The legs of ``goto`` from ``a`` to ``b`` (``(lat, lon)``) leaving at ``start_time``.

    Raises :class:`NoMetro` when metro has no solution and ``ValueError`` for an unknown mode.
    ``nearest`` may pass precomputed :func:`nearest_station` results for both ends.
    """
    if mode == "walk":
        km = geodesic_km(a, b)
        return [GotoLeg(a_name, b_name, "walk", start_time, add_minutes(start_time, km / WALK_KMH), 0.0, km)]
    if mode == "taxi":
        km = geodesic_km(a, b)
        end = add_minutes(start_time, km / TAXI_KMH)
        return [GotoLeg(a_name, b_name, "taxi", start_time, end, round(taxi_fare(km), 2), round(km, 2))]
    if mode != "metro":
        raise ValueError(f"only walk, metro and taxi are supported, got {mode!r}")
    if not stations:
        raise NoMetro("the city has no metro stations")
    (ia, da), (ib, db) = nearest or (nearest_station(a, stations), nearest_station(b, stations))
    sa, sb = stations[ia], stations[ib]
    if sa == sb:
        raise NoMetro(f"both ends are nearest to {sa[0]}{STATION_SUFFIX}")
    ride = geodesic_km((sa[1], sa[2]), (sb[1], sb[2]))
    t1 = add_minutes(start_time, da / WALK_KMH)
    t2 = add_minutes(t1, ride / METRO_KMH)
    t3 = add_minutes(t2, db / WALK_KMH)
    na, nb = sa[0] + STATION_SUFFIX, sb[0] + STATION_SUFFIX
    return [
        GotoLeg(a_name, na, "walk", start_time, t1, 0.0, round(da, 2)),
        GotoLeg(na, nb, "metro", t1, t2, float(metro_fare(ride)), round(ride, 2)),
        GotoLeg(nb, b_name, "walk", t2, t3, 0.0, round(db, 2)),
    ]

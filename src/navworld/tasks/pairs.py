"""City pairs by straight-line distance class and the transport both ends really have.

* **short** (< ``SHORT_MAX_KM``): rail at both ends; travelled by train
  (required tool ``search_train_tickets``).
* **medium** (``SHORT_MAX_KM`` - ``MEDIUM_MAX_KM``): airports **and** rail at both ends; flights and
  trains (both tools).
* **long** (> ``MEDIUM_MAX_KM``): airports at both ends; flights (``search_flights``).

The medium class starts above the sandbox's no-flight radius (~350 km), so every medium and long
pair can fly. Pairs are directed (origin → destination). Whether a given date really has
services is checked by the generator against the sandbox lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from navworld.core.geo import haversine_km
from navworld.tasks.knowledge import CityProfile, all_profiles

__all__ = [
    "BASE_TOOLS",
    "DAY_TRIP_MAX_KM",
    "DISTANCE_CLASSES",
    "MEDIUM_MAX_KM",
    "MIN_PAIR_KM",
    "SHORT_MAX_KM",
    "CityPair",
    "all_pairs",
    "day_trip_pairs",
    "distance_class",
    "pairs_by_class",
    "pairs_with_both_modes",
    "transport_modes",
    "transport_tools",
]

MIN_PAIR_KM = 40.0
"""Closer cities are not offered as an intercity trip."""
SHORT_MAX_KM = 400.0
MEDIUM_MAX_KM = 1100.0
DISTANCE_CLASSES: tuple[str, ...] = ("short", "medium", "long")
DAY_TRIP_MAX_KM = 1800.0
"""Long-haul day trips (intercity type) stay below this distance and run between hubs."""

BASE_TOOLS: tuple[str, ...] = ("poi_search", "direction", "weather")
_MODE_TOOL = {"airplane": "search_flights", "train": "search_train_tickets"}


@dataclass(frozen=True, slots=True)
class CityPair:
    """A directed pair of catalog cities with its distance class."""

    origin: str
    destination: str
    km: float
    distance_class: str
    rail: bool
    air: bool
    hubs: bool

    @property
    def both_modes(self) -> bool:
        """Whether both ends have rail and airports."""
        return self.rail and self.air


def distance_class(km: float) -> str:
    """The class of a straight-line distance in kilometres."""
    if km < SHORT_MAX_KM:
        return "short"
    if km <= MEDIUM_MAX_KM:
        return "medium"
    return "long"


def transport_modes(distance_cls: str) -> tuple[str, ...]:
    """Intercity modes offered for a distance class (seed §4.1)."""
    return {"short": ("train",), "medium": ("airplane", "train"), "long": ("airplane",)}[distance_cls]


def transport_tools(modes: tuple[str, ...] | list[str]) -> list[str]:
    """The transport tools for a set of modes, flights first."""
    return [_MODE_TOOL[m] for m in ("airplane", "train") if m in modes]


def _pair(a: CityProfile, b: CityProfile) -> CityPair | None:
    km = haversine_km(a.center, b.center)
    if km < MIN_PAIR_KM:
        return None
    cls = distance_class(km)
    rail = a.has_rail and b.has_rail
    air = a.has_airport and b.has_airport
    if cls == "short" and not rail:
        return None
    if cls == "medium" and not (rail and air):
        return None
    if cls == "long" and not air:
        return None
    return CityPair(a.name, b.name, round(km, 1), cls, rail, air, a.transport_hub and b.transport_hub)


@cache
def all_pairs() -> tuple[CityPair, ...]:
    """Every usable directed pair, in catalog order."""
    profiles = all_profiles()
    out: list[CityPair] = []
    for a in profiles:
        for b in profiles:
            if a.name != b.name:
                p = _pair(a, b)
                if p is not None:
                    out.append(p)
    return tuple(out)


@cache
def pairs_by_class(cls: str) -> tuple[CityPair, ...]:
    """Directed pairs of one distance class."""
    return tuple(p for p in all_pairs() if p.distance_class == cls)


@cache
def pairs_with_both_modes(classes: tuple[str, ...] = ("medium", "long")) -> tuple[CityPair, ...]:
    """Pairs in ``classes`` whose ends have both rail and airports (hybrid and business trips)."""
    return tuple(p for p in all_pairs() if p.distance_class in classes and p.both_modes)


@cache
def day_trip_pairs(cls: str) -> tuple[CityPair, ...]:
    """Pairs of one class fit for a same-day round trip (long ones: hubs, ≤ ``DAY_TRIP_MAX_KM``)."""
    if cls != "long":
        return pairs_by_class(cls)
    return tuple(p for p in pairs_by_class(cls) if p.hubs and p.km <= DAY_TRIP_MAX_KM)

"""Per-city candidate lists and *virtual* searches.

The planner knows the sandbox world (oracle), so it can ask "what would ``poi_search`` /
``around_search`` return for these arguments?" without spending the episode's tool budget:
:class:`Searcher` calls the same sync methods the tools call, with the same argument
normalisation. Only the searches the final plan needs are then made for real through the
registry, so every POI the plan names was returned by a tool in the episode.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from typing import Any

from navworld.core.geo import LngLat, format_lnglat, parse_lnglat
from navworld.core.models import Poi

__all__ = ["AROUND_RADIUS", "CityPool", "Searcher", "city_pool", "snap"]

AROUND_RADIUS = 5000
"""Radius of the planner's around searches (metres)."""

_POOLS: weakref.WeakKeyDictionary[Any, dict[str, CityPool]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def snap(loc: LngLat) -> LngLat:
    """A location as the tools see it after ``"lng,lat"`` formatting (6 decimals)."""
    return parse_lnglat(format_lnglat(loc))


@dataclass(frozen=True)
class CityPool:
    """The POIs of one city by kind (generation order) with a name index."""

    city: str
    attractions: tuple[Poi, ...]
    restaurants: tuple[Poi, ...]
    hotels: tuple[Poi, ...]
    by_name: dict[str, Poi]
    center: LngLat


def city_pool(world: Any, city: str) -> CityPool:
    """The cached :class:`CityPool` of ``city`` in ``world``."""
    with _LOCK:
        per_world = _POOLS.get(world)
        if per_world is None:
            per_world = {}
            _POOLS[world] = per_world
        hit = per_world.get(city)
    if hit is not None:
        return hit
    pois = list(world.pois(city))
    center: LngLat
    try:
        center = tuple(world.city(city).center)  # type: ignore[assignment]
    except Exception:  # a minimal world without a catalog: the mean POI location
        n = max(1, len(pois))
        center = (sum(p.location[0] for p in pois) / n, sum(p.location[1] for p in pois) / n)
    built = CityPool(
        city=city,
        attractions=tuple(p for p in pois if p.kind == "attraction"),
        restaurants=tuple(p for p in pois if p.kind == "restaurant" and p.cost is not None),
        hotels=tuple(p for p in pois if p.kind == "hotel" and p.cost is not None),
        by_name={p.name: p for p in pois},
        center=center,
    )
    with _LOCK:
        per_world.setdefault(city, built)
        return per_world[city]


class Searcher:
    """What the POI tools would return, computed without calling them (memoised)."""

    def __init__(self, world: Any, city: str) -> None:
        self.world = world
        self.city = city
        self._poi: dict[str, tuple[Poi, ...]] = {}
        self._around: dict[tuple[str, int, str], tuple[tuple[Poi, int], ...]] = {}

    def poi_search(self, keyword: str) -> tuple[Poi, ...]:
        """``poi_search(address=keyword, region=city)`` results."""
        hit = self._poi.get(keyword)
        if hit is None:
            hit = tuple(self.world.search_pois(keyword, self.city, limit=10))
            self._poi[keyword] = hit
        return hit

    def around_search(self, loc: LngLat, keyword: str, radius: int = AROUND_RADIUS) -> tuple[tuple[Poi, int], ...]:
        """``around_search(location, radius, keyword, region=city)`` results (POI, metres)."""
        key = (format_lnglat(loc), radius, keyword)
        hit = self._around.get(key)
        if hit is None:
            hit = tuple(self.world.nearby_pois(snap(loc), radius, keyword or None, self.city, limit=10))
            self._around[key] = hit
        return hit

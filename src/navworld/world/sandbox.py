"""The built-in deterministic sandbox world (offline, no API key).

``SandboxWorld`` implements the async :class:`~navworld.world.base.WorldBackend` protocol (AMap-shaped
dicts) and a sync API used by verification, task generation and the planner. POIs depend only
on ``WORLD_VERSION`` and are generated once per city per process (shared by every instance);
flights, trains and weather also depend on the salt.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from navworld.core.errors import ToolInputError
from navworld.core.geo import LngLat, haversine_km
from navworld.core.models import City, Flight, Forecast, Poi, PoiKind, Route, Train
from navworld.core.seeding import current_salt
from navworld.world.amap_shapes import flights_data, forecast_data, poi_data, route_data, trains_data
from navworld.world.catalog import Catalog, default_catalog
from navworld.world.gen_pois import generate_city_pois
from navworld.world.gen_transport import (
    FlightRow,
    TrainRow,
    flight_rows,
    flight_unavailable_reason,
    train_model,
    train_rows,
    train_unavailable_reason,
)
from navworld.world.gen_weather import forecast_for, parse_date, salt_date
from navworld.world.routes import plan_route
from navworld.world.search import PoiIndex, split_keywords
from navworld.world.vocab import official_name

__all__ = ["CityPois", "SandboxWorld"]

_NEAREST_CITY_KM = 150.0
_T = TypeVar("_T")


@dataclass
class CityPois:
    """The generated POIs of one city with its lookup tables and search index."""

    city: City
    pois: list[Poi]
    by_kind: dict[str, list[Poi]]
    by_name: dict[str, Poi]
    index: PoiIndex
    amap: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def build(cls, city: City) -> CityPois:
        """Generate the POIs of ``city`` and index them."""
        pois = generate_city_pois(city)
        by_kind: dict[str, list[Poi]] = {}
        for p in pois:
            by_kind.setdefault(p.kind, []).append(p)
        return cls(city, pois, by_kind, {p.name: p for p in pois}, PoiIndex(pois))

    def data(self, poi: Poi) -> dict[str, Any]:
        """The cached AMap dict of ``poi`` (do not mutate)."""
        d = self.amap.get(poi.id)
        if d is None:
            d = poi_data(poi, self.city)
            self.amap[poi.id] = d
        return d


class _Store:
    """Process-wide POI store per catalog (POIs never depend on the salt)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.lock = threading.Lock()
        self.cities: dict[str, CityPois] = {}
        self.by_id: dict[str, Poi] = {}
        self.global_index: PoiIndex | None = None
        self.city_at: dict[tuple[float, float], City | None] = {}

    def get(self, city: City) -> CityPois:
        hit = self.cities.get(city.name)
        if hit is not None:
            return hit
        built = CityPois.build(city)
        with self.lock:
            hit = self.cities.setdefault(city.name, built)
            if hit is built:
                for p in built.pois:
                    self.by_id.setdefault(p.id, p)
        return hit

    def all(self) -> list[CityPois]:
        return [self.get(c) for c in self.catalog.all_cities()]


_STORES: dict[str, _Store] = {}
_STORES_LOCK = threading.Lock()


def _store_for(catalog: Catalog) -> _Store:
    key = str(catalog.directory)
    with _STORES_LOCK:
        store = _STORES.get(key)
        if store is None:
            store = _Store(catalog)
            _STORES[key] = store
        return store


def _bounded_get(cache: dict[Any, _T], key: Any, make: Callable[[], _T], cap: int = 50_000) -> _T:
    hit = cache.get(key)
    if hit is None:
        if len(cache) >= cap:
            cache.clear()
        hit = make()
        cache[key] = hit
    return hit


class SandboxWorld:
    """Deterministic offline world: POIs, routes, weather, flights and trains for every catalog city."""

    name = "sandbox"

    def __init__(self, salt: str | None = None, catalog: Catalog | None = None) -> None:
        self.salt: str = current_salt(salt)
        self.catalog = catalog or default_catalog()
        self._store = _store_for(self.catalog)
        self._flights: dict[tuple[str, str, str], list[Flight]] = {}
        self._trains: dict[tuple[str, str, str], list[Train]] = {}
        self._flight_rows: dict[tuple[str, str, str], list[FlightRow]] = {}
        self._train_rows: dict[tuple[str, str, str], list[TrainRow]] = {}
        self._routes: dict[tuple[Any, ...], Route] = {}

    # -- cities --------------------------------------------------------------------------
    def city(self, name: str | City) -> City:
        """The catalog city for ``name`` (aliases accepted); ``KeyError`` if unknown."""
        if isinstance(name, City):
            return name
        return self.catalog.get_city(name)

    def city_at(self, location: LngLat) -> City | None:
        """The catalog city whose centre is nearest to ``location`` (within 150 km), if any."""
        key = (float(location[0]), float(location[1]))
        cache = self._store.city_at
        if key in cache:
            return cache[key]
        best: tuple[float, City] | None = None
        for c in self.catalog.all_cities():
            d = haversine_km(location, c.center)
            if best is None or d < best[0]:
                best = (d, c)
        found = best[1] if best and best[0] <= _NEAREST_CITY_KM else None
        if len(cache) >= 100_000:
            cache.clear()
        cache[key] = found
        return found

    def city_pois(self, city: str | City) -> CityPois:
        """The generated POIs of a city with their index (generated on first use, cached)."""
        return self._store.get(self.city(city))

    # -- sync API: POIs ------------------------------------------------------------------
    def pois(self, city: str, kind: PoiKind | None = None) -> list[Poi]:
        """The POIs of ``city`` (optionally of one kind), in generation order."""
        cp = self.city_pois(city)
        return list(cp.pois if kind is None else cp.by_kind.get(kind, []))

    def find_poi(self, city: str, name: str) -> Poi | None:
        """The POI of ``city`` named exactly ``name``."""
        return self.city_pois(city).by_name.get(name)

    def poi_by_id(self, poi_id: str) -> Poi | None:
        """The POI with id ``poi_id`` in any city (generates every city on a miss)."""
        hit = self._store.by_id.get(poi_id)
        if hit is None:
            self._store.all()
            hit = self._store.by_id.get(poi_id)
        return hit

    def search_pois(self, keywords: str, city: str | None, limit: int = 10) -> list[Poi]:
        """Keyword search (the ranking ``poi_search`` uses); ``city=None`` infers or searches all."""
        target: City | None = self.city(city) if city else self.catalog.find_in_text(keywords)
        if target is None:
            if self._store.global_index is None:
                self._store.global_index = PoiIndex.merge(cp.index for cp in self._store.all())
            return self._store.global_index.search(keywords, limit)
        cp = self._store.get(target)
        variants = [keywords]
        stripped = keywords
        for n in (official_name(target), target.name + "市", target.name):
            stripped = stripped.replace(n, " ")
        city_only = stripped != keywords and not split_keywords(stripped)
        if stripped != keywords and not city_only:
            variants.append(stripped)
        best: list[tuple[Poi, float]] = []
        best_top = 0.0
        for v in variants:
            hits = cp.index.matches(v)
            if hits:
                top = max(h[1] for h in hits) / max(1, len(split_keywords(v)))
                if top > best_top:
                    best, best_top = hits, top
        if city_only and best_top < 100:
            top = sorted(cp.by_kind.get("attraction", []), key=lambda p: (-p.rating, p.id))
            return top[:limit]
        if not best:
            return cp.index.fuzzy(keywords, limit)
        best.sort(key=lambda h: (-h[1], -h[0].rating, len(h[0].name), h[0].id))
        return [p for p, _ in best[:limit]]

    def nearby_pois(
        self, location: LngLat, radius_m: int, keyword: str | None, city: str | None, limit: int = 20
    ) -> list[tuple[Poi, int]]:
        """POIs within ``radius_m`` metres of ``location``, nearest first, with their distance."""
        target = self.city(city) if city else self.city_at(location)
        if target is None:
            return []
        cp = self._store.get(target)
        candidates = [p for p, _ in cp.index.matches(keyword)] if keyword and keyword.strip() else cp.pois
        # Cheap bounding-box reject before the great-circle distance.
        dlat = radius_m / 111_000.0 + 1e-4
        dlng = dlat / max(0.1, math.cos(math.radians(location[1])))
        lng0, lat0 = location
        out: list[tuple[Poi, int]] = []
        for p in candidates:
            plng, plat = p.location
            if abs(plat - lat0) > dlat or abs(plng - lng0) > dlng:
                continue
            d = round(haversine_km(location, p.location) * 1000)
            if d <= radius_m:
                out.append((p, d))
        out.sort(key=lambda x: (x[1], x[0].id))
        return out[:limit]

    # -- sync API: routes, weather, transport ----------------------------------------------
    def route(self, origin: LngLat, destination: LngLat, mode: str, city: str | None = None,
              waypoints: tuple[LngLat, ...] = ()) -> Route:
        """A deterministic route; ``ToolInputError`` for an unknown mode or impossible distance."""
        c = self.city(city) if city else self.city_at(origin)
        key = (origin, destination, mode, c.name if c else "", waypoints)
        return _bounded_get(self._routes, key, lambda: plan_route(origin, destination, mode, c, waypoints))

    def forecast(self, city: str, date: str) -> Forecast:
        """A 4-day forecast starting at ``date`` (``YYYY-MM-DD``)."""
        return forecast_for(self.city(city), date, self.salt)

    def flight_list(self, date: str, from_city: str, to_city: str) -> list[Flight]:
        """Flights between two cities on ``date`` (``[]`` when the pair has none)."""
        key = self._pair_key(date, from_city, to_city)
        return _bounded_get(self._flights, key, lambda: [Flight(**r._asdict()) for r in self._flights_raw(key)])

    def train_list(self, date: str, from_city: str, to_city: str) -> list[Train]:
        """Trains between two cities on ``date`` (``[]`` when the pair has none)."""
        key = self._pair_key(date, from_city, to_city)
        return _bounded_get(self._trains, key, lambda: [train_model(r) for r in self._trains_raw(key)])

    def _pair_key(self, date: str, from_city: str, to_city: str) -> tuple[str, str, str]:
        return date, self.city(from_city).name, self.city(to_city).name

    def _flights_raw(self, key: tuple[str, str, str]) -> list[FlightRow]:
        # Timetables are generated as plain rows (cheap); models are built only for ``flight_list``.
        date, a, b = key
        return _bounded_get(
            self._flight_rows, key, lambda: flight_rows(date, self.city(a), self.city(b), self.salt)
        )

    def _trains_raw(self, key: tuple[str, str, str]) -> list[TrainRow]:
        date, a, b = key
        return _bounded_get(self._train_rows, key, lambda: train_rows(date, self.city(a), self.city(b), self.salt))

    # -- async WorldBackend --------------------------------------------------------------
    async def poi_search(self, keywords: str, city: City | None) -> dict[str, Any]:
        """AMap v5 ``place/text``-shaped keyword search (at most 10 POIs)."""
        pois = self.search_pois(keywords, city.name if city else None, limit=10)
        rows = []
        for p in pois:
            base = self._store.get(self.city(p.city)).data(p)
            rows.append({**base, "business": dict(base["business"])})  # callers may mutate their copy
        return {"count": str(len(rows)), "pois": rows}

    async def around_search(self, location: LngLat, radius: int, keyword: str | None, city: City | None) -> dict[str, Any]:
        """AMap v5 ``place/around``-shaped search (at most 10 POIs, nearest first, with distance)."""
        hits = self.nearby_pois(location, radius, keyword, city.name if city else None, limit=10)
        rows = []
        for p, d in hits:
            base = self._store.get(self.city(p.city)).data(p)
            row = {k: v for k, v in base.items() if k != "business"}
            row["distance"] = str(d)
            row["business"] = dict(base["business"])
            rows.append(row)
        return {"count": str(len(rows)), "pois": rows}

    async def direction(self, origin: LngLat, destination: LngLat, mode: str, waypoints: list[LngLat]) -> dict[str, Any]:
        """AMap v5 direction-shaped route."""
        return route_data(self.route(origin, destination, mode, None, tuple(waypoints)))

    async def weather(self, city: City, date: str | None) -> dict[str, Any]:
        """AMap v3 weather forecast; ``date=None`` uses the salt's week start date."""
        day = date or salt_date(self.salt)
        try:
            parse_date(day)
        except ValueError as exc:
            raise ToolInputError(str(exc)) from None
        return forecast_data(forecast_for(city, day, self.salt))

    async def flights(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """Flights data; ``ToolInputError`` naming the reason when the pair has none."""
        reason = flight_unavailable_reason(from_city, to_city, self.catalog.all_cities(), self.catalog.resolve_city)
        if reason:
            raise ToolInputError(reason)
        rows = self._flights_raw(self._pair_key(date, from_city.name, to_city.name))
        return flights_data(date, from_city.name, to_city.name, rows)

    async def trains(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """Trains data; ``ToolInputError`` naming the reason when the pair has none."""
        reason = train_unavailable_reason(from_city, to_city, self.catalog.all_cities(), self.catalog.resolve_city)
        if reason:
            raise ToolInputError(reason)
        rows = self._trains_raw(self._pair_key(date, from_city.name, to_city.name))
        if not rows:
            raise ToolInputError(f"{from_city.name}与{to_city.name}之间距离过远，没有直达列车，建议查询航班（search_flights）")
        return trains_data(date, from_city.name, to_city.name, rows)

    async def aclose(self) -> None:
        """Nothing to release."""
        return None

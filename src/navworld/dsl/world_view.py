"""The world lookups that concept functions and plan checks need, and a caching wrapper.

:class:`WorldView` is the exact subset of the sandbox's sync API (``docs/contracts.md``) that
``navworld.dsl`` and ``navworld.verify`` use, so tests can pass a tiny in-memory world and a
live backend can be adapted by implementing four methods. :class:`WorldLookup` memoises every
lookup (a plan names the same POIs and routes many times) and turns world exceptions into
"unknown" answers: an unusable lookup must make a check fail or skip, never crash it.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any, Protocol, runtime_checkable

from navworld.core.geo import LngLat
from navworld.core.models import Flight, Poi, Route, Train

__all__ = ["ROUTE_MODES", "WorldLookup", "WorldView", "lookup_for", "short_city"]

log = logging.getLogger(__name__)

ROUTE_MODES: dict[str, str] = {"walk": "walking", "transit": "transit", "taxi": "driving", "bicycling": "bicycling"}
"""Plan leg mode → ``world.route`` mode."""

_CACHE_CAP = 50_000


@runtime_checkable
class WorldView(Protocol):
    """The world lookups plan verification and concept functions use (sandbox sync API subset)."""

    def find_poi(self, city: str, name: str) -> Poi | None:
        """The POI of ``city`` with exactly this name, or None."""
        ...

    def route(self, origin: LngLat, destination: LngLat, mode: str, city: str | None = None) -> Route:
        """A route for ``mode`` ∈ driving, walking, bicycling, transit."""
        ...

    def flight_list(self, date: str, from_city: str, to_city: str) -> list[Flight]:
        """Flights of a date between two cities (short names); ``[]`` when there are none."""
        ...

    def train_list(self, date: str, from_city: str, to_city: str) -> list[Train]:
        """Trains of a date between two cities (short names); ``[]`` when there are none."""
        ...


def short_city(name: str | None) -> str:
    """A city name without whitespace and a trailing ``市`` (``"杭州市 "`` → ``"杭州"``)."""
    text = (name or "").strip()
    if text.endswith("市") and len(text) > 2:
        text = text[:-1]
    return text


class WorldLookup:
    """Memoising, exception-safe access to a :class:`WorldView`."""

    def __init__(self, world: WorldView | None, *, weak: bool = False) -> None:
        self._ref: Any = weakref.ref(world) if (weak and world is not None) else (lambda: world)
        self._poi: dict[tuple[str, str], Poi | None] = {}
        self._loc: dict[tuple[str, str], LngLat | None] = {}
        self._route: dict[tuple[Any, ...], Route | None] = {}
        self._transport: dict[tuple[str, str, str, str], dict[str, Any]] = {}
        self._hubs: dict[str, dict[str, LngLat]] = {}

    @property
    def world(self) -> WorldView | None:
        """The wrapped world (None when there is none or it was garbage-collected)."""
        return self._ref()

    def _trim(self, cache: dict[Any, Any]) -> None:
        if len(cache) > _CACHE_CAP:
            cache.clear()

    def poi(self, city: str, name: str) -> Poi | None:
        """The POI named exactly ``name`` in ``city`` (None when unknown or the lookup failed)."""
        key = (city, name)
        try:
            return self._poi[key]
        except KeyError:
            pass
        found: Poi | None = None
        if self.world is not None and isinstance(name, str) and name.strip():
            try:
                found = self.world.find_poi(short_city(city), name.strip())
            except Exception as exc:  # a broken lookup is "unknown", never a crash
                log.debug("find_poi(%r, %r) failed: %s", city, name, exc)
        self._trim(self._poi)
        self._poi[key] = found
        return found

    def hubs(self, city: str) -> dict[str, LngLat]:
        """Airports and rail stations of ``city`` from the catalog (name → location)."""
        city = short_city(city)
        if city in self._hubs:
            return self._hubs[city]
        out: dict[str, LngLat] = {}
        try:
            from navworld.world.catalog import get_city

            c = get_city(city)
            for a in c.airports:
                out[a.name] = a.location
            for s in c.stations:
                out[s.name] = s.location
        except Exception as exc:  # catalog missing or unknown city
            log.debug("no catalog hubs for %r: %s", city, exc)
        self._hubs[city] = out
        return out

    def locate(self, city: str, name: str) -> LngLat | None:
        """Coordinates of a POI, station or airport of ``city`` by exact name."""
        key = (city, name)
        if key in self._loc:
            return self._loc[key]
        poi = self.poi(city, name)
        loc: LngLat | None = poi.location if poi is not None else None
        if loc is None and isinstance(name, str):
            loc = self.hubs(city).get(name.strip())
        self._trim(self._loc)
        self._loc[key] = loc
        return loc

    def route(self, origin: LngLat, destination: LngLat, mode: str, city: str | None = None) -> Route | None:
        """The world's route for a plan leg mode (walk/transit/taxi/bicycling), or None.

        The route is always the one the ``direction`` tool gives for the same two points: the world
        picks the city from the coordinates by its own rule (``world.route(..., city=None)``, as every
        ``direction`` call does), so a plan copying the tool's distance, duration and fare is checked
        against exactly those figures. ``city`` (the plan's city) is accepted for callers' convenience
        and ignored: passing it on would price a leg near a city border with another tariff and other
        roads than the tool quoted (task 43: a 佛山 street whose coordinates resolve to 广州).
        """
        del city  # the world's city rule decides, exactly as for the direction tool
        wmode = ROUTE_MODES.get(mode, mode)
        key = (origin, destination, wmode)
        if key in self._route:
            return self._route[key]
        found: Route | None = None
        if self.world is not None:
            try:
                found = self.world.route(origin, destination, wmode, None)
            except Exception as exc:
                log.debug("route(%r, %r, %r) failed: %s", origin, destination, wmode, exc)
        self._trim(self._route)
        self._route[key] = found
        return found

    def transport(self, kind: str, date: str, from_city: str, to_city: str) -> dict[str, Any]:
        """Flights (``kind="airplane"``) or trains (``"train"``) of a date, by flight/train number."""
        key = (kind, date, short_city(from_city), short_city(to_city))
        if key in self._transport:
            return self._transport[key]
        rows: dict[str, Any] = {}
        if self.world is not None and date:
            try:
                if kind == "airplane":
                    for f in self.world.flight_list(date, key[2], key[3]):
                        rows[f.flight_no] = f
                else:
                    for t in self.world.train_list(date, key[2], key[3]):
                        rows[t.train_no] = t
            except Exception as exc:
                log.debug("%s list %r %r→%r failed: %s", kind, date, from_city, to_city, exc)
        self._trim(self._transport)
        self._transport[key] = rows
        return rows

    def hub_city(self, name: str, cities: list[str]) -> str:
        """Which of ``cities`` a station/airport name belongs to ("" when none matches)."""
        text = (name or "").strip()
        if not text:
            return ""
        for c in cities:
            sc = short_city(c)
            if sc and sc in text:
                return sc
        for c in cities:
            sc = short_city(c)
            if not sc:
                continue
            poi = self.poi(sc, text)
            if text in self.hubs(sc) or (poi is not None and poi.kind == "hub"):
                return sc
        return ""


_LOOKUPS: weakref.WeakKeyDictionary[Any, WorldLookup] = weakref.WeakKeyDictionary()


def lookup_for(world: WorldView | None) -> WorldLookup:
    """The shared :class:`WorldLookup` of ``world`` (cached per world object when possible)."""
    if world is None:
        return WorldLookup(None)
    try:
        found = _LOOKUPS.get(world)
    except TypeError:
        return WorldLookup(world)
    if found is None:
        try:
            found = WorldLookup(world, weak=True)
            _LOOKUPS[world] = found
        except TypeError:
            found = WorldLookup(world)
    return found

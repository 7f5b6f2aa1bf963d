"""Per-city candidate lists and *virtual* searches.

The planner may try many searches while it plans, but an episode may spend only ten
``poi_search`` and six ``around_search`` calls. :class:`Searcher` therefore runs candidate
searches through the very same registry path (``call_tool`` without a budget, on the same
world), memoised, and keeps only the POIs whose block is fully visible in the rendered,
truncated text — exactly what a model would see. Only the searches the final plan needs are
then made for real, with the episode's budget, so every POI the plan names is grounded.
"""

from __future__ import annotations

import re
import threading
import weakref
from dataclasses import dataclass
from typing import Any

from navworld.core.geo import LngLat, format_lnglat
from navworld.core.models import Poi

__all__ = ["AROUND_RADIUS", "RADII", "Around", "CityPool", "Hits", "Searcher", "base_name", "city_pool", "visible_blocks"]

AROUND_RADIUS = 5000
"""Default radius of the planner's around searches (metres)."""
RADII = (5000, 10000, 20000, 50000)
"""Radii tried, smallest first, until an around search shows enough places."""

_POOLS: weakref.WeakKeyDictionary[Any, dict[str, CityPool]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()
_BLOCK_RE = re.compile(r"^## \d+$", re.MULTILINE)
_BRANCH_RE = re.compile(r"[（(][^）)]{1,20}[)）]\s*$")


def base_name(name: str) -> str:
    """A POI name without its branch suffix (``汉庭酒店(西湖店)`` → ``汉庭酒店``)."""
    return _BRANCH_RE.sub("", name).strip() or name


@dataclass(frozen=True)
class CityPool:
    """The POIs of one city by kind (generation order) with a name index."""

    city: str
    attractions: tuple[Poi, ...]
    restaurants: tuple[Poi, ...]
    hotels: tuple[Poi, ...]
    by_name: dict[str, Poi]
    center: LngLat
    shared: frozenset[str]
    """Names whose base name (without branch suffix) another POI of the city shares."""


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
    groups: dict[str, set[str]] = {}
    for p in pois:
        groups.setdefault(base_name(p.name), set()).add(p.name)
    shared = frozenset(n for names in groups.values() if len(names) > 1 for n in names)
    built = CityPool(
        city=city,
        attractions=tuple(p for p in pois if p.kind == "attraction"),
        restaurants=tuple(p for p in pois if p.kind == "restaurant" and p.cost is not None),
        hotels=tuple(p for p in pois if p.kind == "hotel" and p.cost is not None),
        by_name={p.name: p for p in pois},
        center=center,
        shared=shared,
    )
    with _LOCK:
        per_world.setdefault(city, built)
        return per_world[city]


def visible_blocks(text: str) -> dict[str, str]:
    """``name → block text`` of every POI block shown whole (with its ``opentime``) in a tool text."""
    out: dict[str, str] = {}
    starts = [m.start() for m in _BLOCK_RE.finditer(text)]
    for i, s in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        block = text[s:end]
        if i + 1 == len(starts) and "…（结果已截断" in block:
            continue  # the last block of a truncated text may be cut anywhere
        name = ""
        for line in block.splitlines():
            if line.startswith("name: "):
                name = line[6:].strip()
                break
        if name and ("opentime:" in block or "typecode: 15" in block):
            out.setdefault(name, block)
    return out


@dataclass(frozen=True)
class Around:
    """One planned around search: centre, keyword, radius and the name of the place at the centre."""

    loc: LngLat
    keyword: str
    label: str
    radius: int = AROUND_RADIUS


@dataclass(frozen=True)
class Hits:
    """The visible result of one search: POIs in rank order, with around-search distances."""

    pois: tuple[Poi, ...]
    distances: dict[str, int]
    text: str


class Searcher:
    """What the POI tools return for given arguments, through the real tool path (memoised)."""

    def __init__(self, world: Any, city: str, pool: CityPool) -> None:
        self.world = world
        self.city = city
        self.pool = pool
        self._memo: dict[tuple[Any, ...], Hits] = {}

    async def _run(self, name: str, args: dict[str, Any]) -> Hits:
        from navworld.tools.registry import call_tool

        result = await call_tool(name, args, self.world)
        if not result.ok or not result.data:
            return Hits((), {}, result.text)
        shown = visible_blocks(result.text)
        pois: list[Poi] = []
        dist: dict[str, int] = {}
        for row in result.data.get("pois", []):
            nm = str(row.get("name", ""))
            poi = self.pool.by_name.get(nm)
            if poi is None or nm not in shown:
                continue
            pois.append(poi)
            if row.get("distance"):
                dist[nm] = int(float(row["distance"]))
        return Hits(tuple(pois), dist, result.text)

    async def poi_search(self, keyword: str) -> Hits:
        """``poi_search(address=keyword, region=city)``."""
        key = ("poi", keyword)
        hit = self._memo.get(key)
        if hit is None:
            hit = await self._run("poi_search", {"address": keyword, "region": self.city})
            self._memo[key] = hit
        return hit

    async def around_search(self, loc: LngLat, keyword: str, radius: int = AROUND_RADIUS) -> Hits:
        """``around_search(location, radius, keyword, region=city)``."""
        where = format_lnglat(loc)
        key = ("around", where, radius, keyword)
        hit = self._memo.get(key)
        if hit is None:
            args = {"location": where, "radius": radius, "keyword": keyword, "region": self.city}
            hit = await self._run("around_search", args)
            self._memo[key] = hit
        return hit

    async def around_wide(self, loc: LngLat, keyword: str, label: str, enough: int) -> tuple[Around, Hits]:
        """The smallest radius of :data:`RADII` whose search shows ``enough`` places (else the widest)."""
        for radius in RADII:
            hits = await self.around_search(loc, keyword, radius)
            if len([p for p in hits.pois if p.name != label]) >= enough:
                break
        return Around(loc, keyword, label, radius), hits

"""``AmapWorld``: the :class:`~navworld.world.base.WorldBackend` on the live AMap web service.

POI search, nearby search, directions and weather call AMap REST (v5 ``place``, v5
``direction``, v3 ``weatherInfo``) through one shared :class:`AmapClient`; flights and trains,
which AMap does not offer, are served by a :class:`~navworld.world.sandbox.SandboxWorld` with the
same salt. Every method returns the same AMap-shaped ``data`` dict as the sandbox.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import date as Date
from functools import partial
from typing import TYPE_CHECKING, Any

import httpx2

from navworld.core.errors import ToolInputError
from navworld.core.geo import LngLat, format_lnglat
from navworld.core.models import City
from navworld.core.seeding import current_salt
from navworld.world.amap.cache import ResponseCache, default_cache_dir
from navworld.world.amap.cities import nearest_city
from navworld.world.amap.client import AmapClient, AmapConfig
from navworld.world.amap.convert import MAX_POIS, forecast_from_amap, pois_from_amap
from navworld.world.amap.fields import money
from navworld.world.amap.routes import NoTransit, route_from_amap, transit_from_amap, walking_as_transit

if TYPE_CHECKING:
    from navworld.world.base import WorldBackend

__all__ = ["DIRECTION_PATHS", "AmapWorld"]

logger = logging.getLogger(__name__)

DIRECTION_PATHS = {
    "driving": "/v5/direction/driving",
    "walking": "/v5/direction/walking",
    "bicycling": "/v5/direction/bicycling",
    "transit": "/v5/direction/transit/integrated",
}
MAX_RADIUS = 50000
MAX_WAYPOINTS = 16


def _taxi_fee(payload: Mapping[str, Any]) -> str:
    route = payload.get("route")
    if not isinstance(route, Mapping):
        return ""
    cost = route.get("cost")
    return money(route.get("taxi_cost") or (cost.get("taxi_fee") if isinstance(cost, Mapping) else ""))


def _around_pois(payload: Mapping[str, Any]) -> dict[str, Any]:
    return pois_from_amap(payload, with_distance=True)


def _transit_or_taxi(payload: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The transit data, or ``(None, taxi fee)`` when AMap planned no public transport."""
    try:
        return transit_from_amap(payload), ""
    except NoTransit:
        return None, _taxi_fee(payload)


class AmapWorld:
    """The live AMap backend (``--world amap``)."""

    name = "amap"

    def __init__(
        self,
        salt: str | None = None,
        *,
        config: AmapConfig | None = None,
        cache: ResponseCache | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
        transport_world: WorldBackend | None = None,
    ) -> None:
        """Build the backend; ``config`` defaults to :meth:`AmapConfig.from_env` (raises
        :class:`~navworld.core.errors.ConfigError` without a key)."""
        self.salt = current_salt(salt)
        self.config = config or AmapConfig.from_env()
        self.client = AmapClient(self.config, cache=cache, transport=transport)
        self._transport_world = transport_world

    @classmethod
    def from_env(cls, salt: str | None = None, env: Mapping[str, str] | None = None) -> AmapWorld:
        """The backend configured by the environment, with the default disk cache."""
        config = AmapConfig.from_env(env)
        directory = default_cache_dir(env)
        resolved = current_salt(salt)
        cache = ResponseCache(directory, salt=resolved) if directory is not None and config.keys else None
        return cls(resolved, config=config, cache=cache)

    @property
    def transport_world(self) -> WorldBackend:
        """The sandbox that serves flights and trains (same salt)."""
        if self._transport_world is None:
            from navworld.world.sandbox import SandboxWorld

            self._transport_world = SandboxWorld(self.salt)
        return self._transport_world

    # -- AMap-backed tools -------------------------------------------------------------------
    async def poi_search(self, keywords: str, city: City | None) -> dict[str, Any]:
        """Keyword POI search (v5 ``place/text``), restricted to ``city`` when given."""
        words = (keywords or "").strip()
        if not words:
            raise ToolInputError("关键词不能为空")
        params: dict[str, Any] = {
            "keywords": words,
            "show_fields": "business",
            "page_size": MAX_POIS,
            "page_num": 1,
        }
        if city is not None:
            params |= {"region": city.adcode, "city_limit": "true"}
        return await self.client.fetch("/v5/place/text", params, pois_from_amap)

    async def around_search(
        self, location: LngLat, radius: int, keyword: str | None, city: City | None
    ) -> dict[str, Any]:
        """POIs within ``radius`` metres of ``location`` (v5 ``place/around``), nearest first."""
        if not 0 < int(radius) <= MAX_RADIUS:
            raise ToolInputError(f"radius 必须在 1 到 {MAX_RADIUS} 米之间")
        params: dict[str, Any] = {
            "location": format_lnglat(location),
            "radius": int(radius),
            "keywords": (keyword or "").strip(),
            "sortrule": "distance",
            "show_fields": "business",
            "page_size": MAX_POIS,
            "page_num": 1,
        }
        return await self.client.fetch("/v5/place/around", params, _around_pois)

    async def direction(
        self, origin: LngLat, destination: LngLat, mode: str, waypoints: list[LngLat]
    ) -> dict[str, Any]:
        """Route planning (v5 direction) with durations and costs (``show_fields=cost``)."""
        path = DIRECTION_PATHS.get(mode)
        if path is None:
            raise ToolInputError(f"不支持的出行方式 {mode!r}，可选：{'、'.join(DIRECTION_PATHS)}")
        params: dict[str, Any] = {
            "origin": format_lnglat(origin),
            "destination": format_lnglat(destination),
            "show_fields": "cost",
        }
        if mode == "transit":
            params |= {
                "city1": nearest_city(origin).citycode,
                "city2": nearest_city(destination).citycode,
                "strategy": 0,
            }
            data, taxi = await self.client.fetch(path, params, _transit_or_taxi)
            if data is not None:
                return data
            # Like the sandbox, a trip too short for public transport is a walk.
            walk = await self.client.fetch(
                DIRECTION_PATHS["walking"],
                {"origin": params["origin"], "destination": params["destination"], "show_fields": "cost"},
                partial(route_from_amap, mode="walking"),
            )
            return walking_as_transit(walk, taxi)
        if mode == "driving":
            if len(waypoints) > MAX_WAYPOINTS:
                raise ToolInputError(f"途经点最多 {MAX_WAYPOINTS} 个")
            params["strategy"] = 32
            if waypoints:
                params["waypoints"] = ";".join(format_lnglat(w) for w in waypoints)
        return await self.client.fetch(path, params, partial(route_from_amap, mode=mode))

    async def weather(self, city: City, date: str | None) -> dict[str, Any]:
        """The v3 forecast (today + 3 days); ``date`` selects the casts from that day when AMap has it."""
        if date is not None:
            try:
                Date.fromisoformat(date)
            except ValueError:
                raise ToolInputError(f"日期不合法（收到 {date[:30]!r}）：应为 YYYY-MM-DD") from None
        params = {"city": city.adcode, "extensions": "all"}
        return await self.client.fetch(
            "/v3/weather/weatherInfo", params, partial(forecast_from_amap, requested=date)
        )

    # -- sandbox-backed tools ----------------------------------------------------------------
    async def flights(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """Flights come from the sandbox (AMap has no flight search)."""
        return await self.transport_world.flights(date, from_city, to_city)

    async def trains(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """Trains come from the sandbox (AMap has no train search)."""
        return await self.transport_world.trains(date, from_city, to_city)

    async def aclose(self) -> None:
        """Close the HTTP pool, the cache and the transport sandbox."""
        await self.client.aclose()
        if self._transport_world is not None:
            await self._transport_world.aclose()

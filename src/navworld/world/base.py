"""The ``WorldBackend`` protocol every world implements (sandbox, amap, record, replay).

Methods are async (a live backend does network I/O) and return **AMap-shaped** dicts - the
same structured ``data`` the tools expose - so one renderer serves every backend:

* ``poi_search`` / ``around_search`` → ``{"pois": [poi_dict, ...]}``
* ``direction`` → ``{"route": {"origin", "destination", "taxi_cost", "paths": [...]}}``
* ``weather`` → ``{"forecasts": [{"city", "adcode", "province", "reporttime", "casts": [...]}]}``
* ``flights`` → ``{"flights": [...]}``; ``trains`` → ``{"trains": [...]}``

Bad input raises :class:`navworld.core.errors.ToolInputError` (the agent's fault, rendered
as a tool error); backend failures raise :class:`navworld.core.errors.WorldError` (infra).
Cities are already resolved to catalog :class:`~navworld.core.models.City` objects by the
tool layer.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from navworld.core.geo import LngLat
from navworld.core.models import City

__all__ = ["WorldBackend"]


@runtime_checkable
class WorldBackend(Protocol):
    """A source of world facts for the six tools."""

    name: str
    """Backend name as given to ``--world`` (``sandbox``, ``amap``, ``record:DIR``, ``replay:DIR``)."""
    salt: str
    """Salt of the weekly-rotating facts (transport, weather)."""

    async def poi_search(self, keywords: str, city: City | None) -> dict[str, Any]:
        """Keyword POI search (AMap v5 ``place/text``)."""
        ...

    async def around_search(
        self, location: LngLat, radius: int, keyword: str | None, city: City | None
    ) -> dict[str, Any]:
        """POIs within ``radius`` metres of ``location`` (AMap v5 ``place/around``), nearest first."""
        ...

    async def direction(
        self, origin: LngLat, destination: LngLat, mode: str, waypoints: list[LngLat]
    ) -> dict[str, Any]:
        """Route planning for driving / walking / bicycling / transit (AMap v5 direction)."""
        ...

    async def weather(self, city: City, date: str | None) -> dict[str, Any]:
        """A 4-day forecast starting at ``date`` (AMap v3 weatherInfo, ``extensions=all``)."""
        ...

    async def flights(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """Flights between two cities on a date (sandbox-generated on every backend)."""
        ...

    async def trains(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """Trains between two cities on a date (sandbox-generated on every backend)."""
        ...

    async def aclose(self) -> None:
        """Release resources (HTTP clients, caches)."""
        ...

"""Map AMap's city names, adcodes and coordinates onto the navworld catalog.

AMap writes ``杭州市`` / ``330100`` / district adcodes such as ``330106`` (and ``110105`` for a
district of 北京, whose city adcode is ``110000``); provinces come without suffix (``浙江``).
The catalog knows ``杭州`` with province ``浙江省``. Transit routing needs the citycode of the
city each end lies in, which we take from the nearest catalog city.
"""

from __future__ import annotations

from navworld.core.geo import LngLat, haversine_km
from navworld.core.models import City
from navworld.world import catalog

__all__ = ["city_from_amap", "nearest_city"]


def nearest_city(point: LngLat) -> City:
    """The catalog city whose centre is closest to ``point``."""
    cities = catalog.all_cities()
    if not cities:
        raise LookupError("the city catalog is empty")
    return min(cities, key=lambda c: haversine_km(point, c.center))


def city_from_amap(name: str | None = None, adcode: str | None = None) -> City | None:
    """The catalog city for an AMap ``cityname``/``city`` and/or ``adcode``, or ``None``.

    Adcodes resolve exactly, then by prefecture (first four digits), then for the
    municipalities (北京, 上海, 天津, 重庆: city adcode ``xx0000``) by the first two digits.
    """
    code = (adcode or "").strip()
    if code.isdigit() and len(code) == 6:
        cities = catalog.all_cities()
        for digits in (6, 4):  # the city itself, then the prefecture of a district
            hit = next((c for c in cities if c.adcode[:digits] == code[:digits]), None)
            if hit is not None:
                return hit
        hit = next((c for c in cities if c.adcode.endswith("0000") and c.adcode[:2] == code[:2]), None)
        if hit is not None:
            return hit
    text = (name or "").strip()
    return catalog.resolve_city(text) if text else None

"""Converters of AMap POI and weather payloads to navworld's AMap-shaped ``data`` dicts.

The target shapes are the ones every backend returns (``docs/tool-output.md``): string numbers,
``"lng,lat"`` with six decimals, ``""`` for empty fields and a fixed set of keys, so the one
renderer produces the same text format for the sandbox and for AMap. Direction payloads are
converted in :mod:`navworld.world.amap.routes`. A payload whose structure is not what AMap
documents raises :class:`~navworld.core.errors.WorldError` with a readable reason; it never
crashes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date as Date
from typing import Any

from navworld.core.errors import ToolInputError
from navworld.world.amap.cities import city_from_amap
from navworld.world.amap.fields import as_list, as_mapping, int_text, location, money, rating, text

__all__ = ["MAX_POIS", "forecast_from_amap", "pois_from_amap"]

MAX_POIS = 10
_LIST_SPLIT = re.compile(r"[,，;；、|]+")


# --- POIs ----------------------------------------------------------------------------------------
def _join_items(value: Any, limit: int) -> str:
    items = list(dict.fromkeys(s.strip() for s in _LIST_SPLIT.split(text(value)) if s.strip()))
    return "、".join(items[:limit])


def _poi(raw: Mapping[str, Any], with_distance: bool) -> dict[str, Any]:
    biz = as_mapping(raw.get("business"), "poi.business")
    typecode = text(raw.get("typecode"))
    family = typecode[:2]
    type_ = text(raw.get("type"))
    cuisine = dishes = ""
    tag = "、".join(x for x in (_join_items(biz.get("keytag"), 3), _join_items(biz.get("rectag"), 3)) if x)
    if family == "05":
        last = type_.split(";")[-1] if type_ else ""
        cuisine = last if last and "餐厅" not in last and last != "餐饮服务" else text(biz.get("keytag"))
        dishes = _join_items(biz.get("tag"), 5)
    elif not tag:
        tag = _join_items(biz.get("tag"), 5)
    star = int_text(biz.get("star")) if family == "10" else ""
    opentime = text(biz.get("opentime_today")) or text(biz.get("opentime")) or text(biz.get("opentime_week"))
    out: dict[str, Any] = {
        "id": text(raw.get("id")),
        "name": text(raw.get("name")),
        "type": type_,
        "typecode": typecode,
        "address": text(raw.get("address")),
        "location": location(raw.get("location")),
        "pname": text(raw.get("pname")),
        "cityname": text(raw.get("cityname")),
        "citycode": text(raw.get("citycode")),
        "adname": text(raw.get("adname")),
        "adcode": text(raw.get("adcode")),
    }
    if with_distance:
        out["distance"] = int_text(raw.get("distance"))
    out["business"] = {
        "tel": text(biz.get("tel") if "tel" in biz else raw.get("tel")),
        "rating": rating(biz.get("rating")),
        "cost": money(biz.get("cost")) if family != "15" else "",
        "opentime": opentime,
        "tag": tag,
        "visit_hours": "",
        "cuisine": cuisine,
        "dishes": dishes,
        "brand": "",
        "star": star if star in {"1", "2", "3", "4", "5"} else "",
        "beds": "",
        "features": "",
    }
    return out


def pois_from_amap(
    payload: Mapping[str, Any], *, with_distance: bool = False, limit: int = MAX_POIS
) -> dict[str, Any]:
    """``{"count", "pois"}`` from a v5 ``place/text`` / ``place/around`` payload (at most ``limit``)."""
    pois = []
    for item in as_list(payload.get("pois"), "pois"):
        if not isinstance(item, Mapping) or not text(item.get("name")):
            continue
        pois.append(_poi(item, with_distance))
        if len(pois) >= limit:
            break
    if with_distance:
        pois.sort(key=lambda p: int(p["distance"]) if p["distance"] else 10**9)
    return {"count": str(len(pois)), "pois": pois}


# --- weather -------------------------------------------------------------------------------------
_CAST_FIELDS = ("dayweather", "nightweather", "daywind", "nightwind", "daypower", "nightpower")


def _cast(raw: Mapping[str, Any]) -> dict[str, Any]:
    day = text(raw.get("date"))
    week = text(raw.get("week"))
    if not week and day:
        try:
            week = str(Date.fromisoformat(day).isoweekday())
        except ValueError:
            week = ""
    out: dict[str, Any] = {"date": day, "week": week}
    for name in _CAST_FIELDS[:2]:
        out[name] = text(raw.get(name))
    out["daytemp"] = int_text(raw.get("daytemp"))
    out["nighttemp"] = int_text(raw.get("nighttemp"))
    for name in _CAST_FIELDS[2:]:
        value = text(raw.get(name))
        out[name] = value.removesuffix("级") if name.endswith("power") else value.removesuffix("风") or value
    return out


def forecast_from_amap(payload: Mapping[str, Any], requested: str | None = None) -> dict[str, Any]:
    """``{"forecasts": [...]}`` from a v3 ``weatherInfo`` (``extensions=all``) payload.

    AMap forecasts only today and the next three days. A ``requested`` date inside that window
    selects the casts from that date on; outside it every available cast is kept (each one is
    labelled with its own date, so nothing is passed off as the requested day).
    """
    forecasts = [f for f in as_list(payload.get("forecasts"), "forecasts") if isinstance(f, Mapping)]
    if not forecasts:
        raise ToolInputError("高德天气没有这个城市的预报数据")
    fc = forecasts[0]
    casts = [_cast(c) for c in as_list(fc.get("casts"), "forecasts.casts") if isinstance(c, Mapping)]
    casts = [c for c in casts if c["date"]]
    if not casts:
        raise ToolInputError("高德天气没有这个城市的预报数据")
    if requested and any(c["date"] == requested for c in casts):
        casts = [c for c in casts if c["date"] >= requested]
    adcode = text(fc.get("adcode"))
    city = city_from_amap(text(fc.get("city")), adcode)
    province = text(fc.get("province"))
    if city is not None and (not province or city.province.startswith(province)):
        province = city.province
    return {
        "forecasts": [
            {
                "city": text(fc.get("city")),
                "adcode": adcode,
                "province": province,
                "reporttime": text(fc.get("reporttime")),
                "casts": casts,
            }
        ]
    }

"""Off-topic tool calls: calls whose city arguments name a catalog city that is not the problem's.

The rule (``config.OFF_TOPIC_CITY_ARGS``): poi_search ``region`` (else a city at the start of
``address``), around_search ``region`` / ``location``, weather ``city``, flights/trains ``from_city`` /
``to_city``, direction ``origin`` / ``destination`` and around_search ``location`` coordinates (nearest catalog city, and farther
than ``OFF_TOPIC_DIRECTION_MIN_KM`` from every problem city). Every lookup is cached per string,
so a trace's calls are resolved once.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from navworld.scoring import config as C
from navworld.world.catalog import all_cities, resolve_city

__all__ = ["call_cities", "is_off_topic", "resolve_name", "topic_cities"]

@lru_cache(maxsize=1)
def _city_table() -> tuple[tuple[str, float, float], ...]:
    return tuple((c.name, c.center[0], c.center[1]) for c in all_cities())


@lru_cache(maxsize=1)
def _names_longest_first() -> tuple[str, ...]:
    return tuple(sorted((n for n, _, _ in _city_table()), key=len, reverse=True))


@lru_cache(maxsize=4096)
def _resolve(text: str) -> str | None:
    city = resolve_city(text.strip())
    return city.name if city is not None else None


def resolve_name(text: str) -> str | None:
    """The catalog name of a city written any way (杭州 / 杭州市 / Hangzhou / 330100), else None."""
    if not isinstance(text, str) or not text.strip() or len(text) > 100:
        return None
    return _resolve(text)


@lru_cache(maxsize=1)
def _districts() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for c in all_cities():
        names = {d.name for d in c.districts}
        names |= {n[:-1] for n in names if len(n) >= 3 and n.endswith(("区", "县", "市"))}
        out[c.name] = tuple(names)
    return out


@lru_cache(maxsize=4096)
def _address_city(address: str) -> str | None:
    """The city an address clearly names: the whole address (``杭州市``), ``杭州市…`` or a
    city followed by one of its districts (``杭州西湖区…``); never a road or a place that merely
    starts with a city name (``北京路``, ``南京东路``)."""
    text = address.strip()
    if (whole := _resolve(text)) is not None:
        return whole
    for name in _names_longest_first():
        if text.startswith(name):
            rest = text[len(name) :]
            if rest.startswith("市") or rest.startswith(_districts().get(name, ())):
                return name
    return None


def _km(lng1: float, lat1: float, lng2: float, lat2: float) -> float:
    x = math.radians(lng2 - lng1) * math.cos(math.radians((lat1 + lat2) / 2))
    y = math.radians(lat2 - lat1)
    return 6371.0 * math.hypot(x, y)


@lru_cache(maxsize=4096)
def _coord(text: str) -> tuple[float, float] | None:
    parts = text.replace("，", ",").split(",")
    if len(parts) != 2:
        return None
    try:
        lng, lat = float(parts[0]), float(parts[1])
    except ValueError:
        return None
    if not (-180 <= lng <= 180 and -90 <= lat <= 90):
        return None
    return lng, lat


@lru_cache(maxsize=4096)
def _coord_city(text: str, topic: frozenset[str]) -> str | None:
    """The nearest catalog city of ``lng,lat`` when it is off-topic and far from every topic city."""
    pt = _coord(text.strip())
    if pt is None:
        return None
    table = _city_table()
    dists = [(_km(pt[0], pt[1], lng, lat), name) for name, lng, lat in table]
    nearest = min(dists)[1]
    if nearest in topic:
        return nearest
    if any(d <= C.OFF_TOPIC_DIRECTION_MIN_KM for d, name in dists if name in topic):
        return None
    return nearest


@lru_cache(maxsize=256)
def topic_cities(*names: str) -> frozenset[str]:
    """Catalog names of the problem's cities (unresolvable names are kept as written)."""
    return frozenset(_resolve(n) or n.strip() for n in names if n and n.strip())


def call_cities(tool: str, arguments: dict[str, Any] | None, topic: frozenset[str]) -> tuple[str, ...]:
    """Catalog cities named by the city arguments of one call."""
    if not arguments:
        return ()
    keys = C.OFF_TOPIC_CITY_ARGS.get(tool, ())
    out: list[str] = []
    for key in keys:
        value = arguments.get(key)
        if not isinstance(value, str) or not value.strip() or len(value) > 100:
            continue
        if tool == "direction" or key == "location":
            city = _coord_city(value, topic)
        elif key == "address":
            if out:  # region already named the city
                continue
            city = _address_city(value)
        else:
            city = _resolve(value)
        if city is not None:
            out.append(city)
    return tuple(out)


def is_off_topic(tool: str, arguments: dict[str, Any] | None, topic: frozenset[str]) -> bool:
    """Whether a city argument of the call names a catalog city outside ``topic``."""
    if not topic:
        return False
    return any(c not in topic for c in call_cities(tool, arguments, topic))

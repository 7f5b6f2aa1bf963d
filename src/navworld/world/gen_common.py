"""Shared helpers of POI generation: per-city scatter, addresses, phones, names, ids."""

from __future__ import annotations

import math
import random

from navworld.core.models import City, District
from navworld.core.seeding import stable_hash
from navworld.core.versions import WORLD_VERSION
from navworld.world.vocab import district_stem, load_vocab

__all__ = ["CityGen", "fill", "opening", "poi_id", "tier_factor"]

_FALLBACK_ROADS = ("人民路", "中山路", "解放路", "建设路", "新华路", "文化路")
_KM_PER_DEG = 111.32


def poi_id(city: str, kind: str, name: str) -> str:
    """A stable AMap-like id (``B0`` + 8 upper-case hex digits) for a POI."""
    return "B0" + stable_hash(WORLD_VERSION, "poi", city, kind, name)[:8].upper()


class CityGen:
    """Per-city helpers for one city: roads, districts, scatter, addresses, phone numbers."""

    def __init__(self, city: City) -> None:
        self.city = city
        self.roads: tuple[str, ...] = city.roads or _FALLBACK_ROADS
        self.districts: tuple[District, ...] = city.districts or (
            District(name=city.name + "城区", adcode=city.adcode),
        )
        tier = city.tier if city.tier > 0 else 3
        self.sigma_km = {1: 6.5, 2: 4.8, 3: 3.6}.get(tier, 3.0)
        self.used_names: set[str] = {lm.name for lm in city.landmarks}
        self.used_ids: set[str] = set()
        area = city.citycode.lstrip("0")
        self.tel_prefix = city.citycode if city.citycode else "0000"
        self.tel_digits = 8 if len(area) <= 2 else 7 if len(area) == 4 else 8

    def district(self, r: random.Random) -> District:
        n = len(self.districts)
        # Earlier (central) districts are more likely.
        weights = [1.0 / (1 + 0.35 * i) for i in range(n)]
        return r.choices(self.districts, weights=weights)[0]

    def address(self, r: random.Random) -> str:
        return f"{r.choice(self.roads)}{r.randint(1, 699)}号"

    def tel(self, r: random.Random) -> str:
        first = r.randint(5, 8)
        rest = "".join(str(r.randint(0, 9)) for _ in range(self.tel_digits - 1))
        return f"{self.tel_prefix}-{first}{rest}"

    def scatter(self, r: random.Random, around: tuple[float, float] | None = None, sigma_km: float | None = None) -> tuple[float, float]:
        base = around or self.city.center
        s = sigma_km if sigma_km is not None else self.sigma_km
        dist = min(abs(r.gauss(0.0, s)), 2.6 * s) + 0.05
        ang = r.uniform(0, 2 * math.pi)
        dlat = dist * math.sin(ang) / _KM_PER_DEG
        dlng = dist * math.cos(ang) / (_KM_PER_DEG * max(0.2, math.cos(math.radians(base[1]))))
        return (round(base[0] + dlng, 6), round(base[1] + dlat, 6))

    def unique(self, name: str, r: random.Random) -> str | None:
        if name not in self.used_names:
            self.used_names.add(name)
            return name
        for _ in range(4):
            alt = f"{name}({r.choice(self.roads)}店)"
            if alt not in self.used_names:
                self.used_names.add(alt)
                return alt
        return None

    def make_id(self, kind: str, name: str) -> str:
        pid = poi_id(self.city.name, kind, name)
        n = 1
        while pid in self.used_ids:  # astronomically rare; keep ids unique anyway
            pid = poi_id(self.city.name, kind, f"{name}#{n}")
            n += 1
        self.used_ids.add(pid)
        return pid


def opening(text: str) -> tuple[str, str]:
    """Split ``HH:MM-HH:MM`` into open and close times."""
    a, b = text.split("-", 1)
    return a, b


def tier_factor(city: City) -> float:
    """Price factor of the city tier (hotels and restaurants)."""
    factors = load_vocab("hotels")["tier_factor"]
    return float(factors.get(str(city.tier), 0.9))

def fill(pattern: str, g: CityGen, r: random.Random, extra: dict[str, str] | None = None) -> str:
    """Fill ``{city}``, ``{d}`` (district stem), ``{road}`` and ``extra`` placeholders."""
    values = {
        "city": g.city.name,
        "d": district_stem(g.district(r).name),
        "road": r.choice(g.roads),
    }
    if extra:
        values.update(extra)
    out = pattern
    for key, val in values.items():
        out = out.replace("{" + key + "}", val)
    return out

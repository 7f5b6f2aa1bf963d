"""Generated POIs: volumes, field shapes, realism, determinism, speed."""

from __future__ import annotations

import re
import time
from collections import Counter

import pytest

from navworld.core.geo import haversine_km
from navworld.core.models import Poi
from navworld.world.catalog import Catalog
from navworld.world.gen_pois import generate_city_pois
from navworld.world.sandbox import SandboxWorld

_ID_RE = re.compile(r"^B0[0-9A-F]{8}$")
_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$|^24:00$")
_FAMILY = {"attraction": "11", "restaurant": "05", "hotel": "10", "hub": "15"}


def _check_poi(p: Poi, roads: tuple[str, ...], center: tuple[float, float], adcodes: set[str], citycode: str,
               landmarks: list[tuple[float, float]]) -> None:
    assert _ID_RE.match(p.id), p.id
    assert p.typecode.isdigit() and len(p.typecode) == 6 and p.typecode.startswith(_FAMILY[p.kind]), (p.name, p.typecode)
    assert len(p.type.split(";")) == 3
    assert _HHMM.match(p.open) and _HHMM.match(p.close), (p.name, p.open, p.close)
    assert p.open < p.close or p.close == "24:00"
    assert p.adcode in adcodes, (p.name, p.adcode)
    assert p.tel.startswith(citycode + "-")
    m = re.match(r"^(.+?)(\d+)号$", p.address)
    assert m and (m.group(1) in roads or not roads), p.address
    if p.kind != "hub":
        assert 3.0 <= p.rating <= 5.0
        near_centre = haversine_km(center, p.location) < 40
        near_landmark = any(haversine_km(lm, p.location) < 8 for lm in landmarks)
        assert near_centre or near_landmark, (p.name, p.location)


def _check_city(world: SandboxWorld, name: str) -> None:
    city = world.city(name)
    pois = world.pois(name)
    kinds = Counter(p.kind for p in pois)
    assert kinds["attraction"] >= 30 and kinds["restaurant"] >= 50 and kinds["hotel"] >= 25, (name, kinds)
    assert kinds["hub"] == len(city.airports) + len(city.stations)
    assert len({p.name for p in pois}) == len(pois), "names are unique within a city"
    adcodes = {d.adcode for d in city.districts} or {city.adcode}
    for p in pois:
        _check_poi(p, city.roads, city.center, adcodes, city.citycode, [lm.location for lm in city.landmarks] + [s.location for s in city.stations])
    # Landmarks come first, by real name, with the catalog's facts and location.
    attractions = world.pois(name, "attraction")
    for lm, p in zip(city.landmarks, attractions, strict=False):
        assert p.name == lm.name and p.cost == lm.ticket and p.open == lm.open and p.close == lm.close
        assert p.location == pytest.approx(lm.location, abs=1e-6) and p.visit_hours == lm.visit_hours
    assert any(p.cost == 0 for p in attractions), "some attractions are free"
    assert len({(p.open, p.close) for p in attractions}) >= 4, "varied opening hours"
    restaurants = world.pois(name, "restaurant")
    assert sum(p.cuisine == city.local_cuisine for p in restaurants) >= 15, "local cuisine well represented"
    assert sum(p.cuisine == "素食" for p in restaurants) >= 3, "vegetarian places"
    for r in restaurants:
        assert 3 <= len(r.dishes) <= 5 and r.cost and r.cost > 0
    hotels = world.pois(name, "hotel")
    assert {h.stars for h in hotels} >= {2, 3, 4, 5}
    for h in hotels:
        assert h.beds in (1, 2) and (h.open, h.close) == ("00:00", "24:00")
    mean = {s: sum(h.cost or 0 for h in hotels if h.stars == s) / max(1, sum(h.stars == s for h in hotels)) for s in (2, 3, 4, 5)}
    assert mean[2] < mean[3] < mean[4] < mean[5], mean


def test_fixture_cities(fixture_world: SandboxWorld) -> None:
    for name in ("杭州", "无锡", "苏州"):
        _check_city(fixture_world, name)


def test_every_catalog_city(world: SandboxWorld, real_catalog: Catalog) -> None:
    for city in real_catalog.all_cities():
        _check_city(world, city.name)


def test_ids_unique_across_cities(world: SandboxWorld, real_catalog: Catalog) -> None:
    ids = [p.id for c in real_catalog.all_cities() for p in world.pois(c.name)]
    assert len(ids) == len(set(ids))
    some = world.pois(real_catalog.all_cities()[0].name)[5]
    assert world.poi_by_id(some.id) == some
    assert world.poi_by_id("B000000000") is None


def test_pois_do_not_depend_on_salt(fixture_catalog: Catalog) -> None:
    a = SandboxWorld(salt="one", catalog=fixture_catalog).pois("杭州")
    b = SandboxWorld(salt="two", catalog=fixture_catalog).pois("杭州")
    assert a == b


def test_generation_is_deterministic_and_fast(fixture_catalog: Catalog) -> None:
    city = fixture_catalog.get_city("杭州")
    generate_city_pois(city)  # warm the vocabulary files
    t0 = time.perf_counter()
    first = generate_city_pois(city)
    elapsed = time.perf_counter() - t0
    assert generate_city_pois(city) == first
    assert elapsed < 0.05, f"{elapsed * 1000:.1f} ms"


def test_find_poi(fixture_world: SandboxWorld) -> None:
    lake = fixture_world.find_poi("杭州", "西湖")
    assert lake is not None and lake.kind == "attraction"
    assert fixture_world.find_poi("杭州", "不存在的地方") is None
    hub = fixture_world.find_poi("杭州", "杭州萧山国际机场")
    assert hub is not None and hub.kind == "hub" and hub.typecode == "150104"

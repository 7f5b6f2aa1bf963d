"""Keyword search ranking and nearby search."""

from __future__ import annotations

import pytest

from navworld.core.geo import haversine_km
from navworld.world.sandbox import SandboxWorld


def test_exact_name_first(fixture_world: SandboxWorld) -> None:
    assert fixture_world.search_pois("西湖", "杭州")[0].name == "西湖"
    assert fixture_world.search_pois("杭州西湖", "杭州")[0].name == "西湖"
    assert fixture_world.search_pois("西湖", None)[0].name == "西湖"  # city inferred or searched globally


def test_partial_name(fixture_world: SandboxWorld) -> None:
    hits = fixture_world.search_pois("灵隐", "杭州")
    assert hits and hits[0].name == "灵隐寺"


@pytest.mark.parametrize(
    ("keyword", "check"),
    [
        ("博物馆", lambda p: "博物馆" in p.name or p.category == "博物馆"),
        ("火锅", lambda p: p.cuisine == "火锅" or "火锅" in p.name),
        ("酒店", lambda p: p.kind == "hotel"),
        ("景点", lambda p: p.kind == "attraction"),
        ("餐厅", lambda p: p.kind == "restaurant"),
        ("素食", lambda p: p.cuisine == "素食"),
        ("素食餐厅", lambda p: p.cuisine == "素食"),
        ("亲子 酒店", lambda p: p.kind == "hotel" and "亲子" in p.features),
        ("机场", lambda p: p.kind == "hub"),
    ],
)
def test_category_words(fixture_world: SandboxWorld, keyword: str, check) -> None:  # type: ignore[no-untyped-def]
    hits = fixture_world.search_pois(keyword, "杭州")
    assert hits and check(hits[0]), keyword
    flags = [bool(check(p)) for p in hits]
    assert flags == sorted(flags, reverse=True), [p.name for p in hits]  # every true match ranks first


def test_limit_and_dish(fixture_world: SandboxWorld) -> None:
    assert len(fixture_world.search_pois("餐厅", "杭州", limit=10)) == 10
    hits = fixture_world.search_pois("东坡肉", "杭州")
    assert hits and all(p.kind == "restaurant" for p in hits)


def test_fuzzy_fallback(fixture_world: SandboxWorld) -> None:
    hits = fixture_world.search_pois("灵隐禅寺", "杭州")
    assert hits and hits[0].name == "灵隐寺"
    assert fixture_world.search_pois("qqqqzzzz", "杭州") == []


def test_city_name_alone(fixture_world: SandboxWorld) -> None:
    hits = fixture_world.search_pois("杭州", "杭州")
    assert hits and all(p.kind == "attraction" for p in hits)


def test_nearby_within_radius_nearest_first(fixture_world: SandboxWorld) -> None:
    center = (120.1412, 30.2587)
    hits = fixture_world.nearby_pois(center, 2000, None, None, limit=50)
    assert hits
    dists = [d for _, d in hits]
    assert dists == sorted(dists) and max(dists) <= 2000
    for p, d in hits:
        assert abs(haversine_km(center, p.location) * 1000 - d) <= 1
    food = fixture_world.nearby_pois(center, 3000, "餐厅", "杭州")
    assert food and all(p.kind == "restaurant" for p, _ in food)
    assert fixture_world.nearby_pois(center, 1, "博物馆", None) == []
    assert fixture_world.nearby_pois((90.0, 45.0), 5000, None, None) == []  # far from every city


def test_real_city_search(world: SandboxWorld) -> None:
    assert world.search_pois("西湖", "杭州")[0].name == "西湖"
    for city in world.catalog.all_cities():
        for lm in city.landmarks:
            assert world.search_pois(lm.name, city.name)[0].name == lm.name

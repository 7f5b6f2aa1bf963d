"""Routes: distances, speeds, steps, taxi fares, transit lines."""

from __future__ import annotations

import pytest

from navworld.core.errors import ToolInputError
from navworld.core.geo import haversine_km
from navworld.world.routes import plan_route, taxi_fare
from navworld.world.sandbox import SandboxWorld

A = (120.1412, 30.2587)  # 西湖
B = (120.2126, 30.290851)  # 杭州东站


def test_walking_speed(fixture_world: SandboxWorld) -> None:
    r = fixture_world.route(A, B, "walking")
    kmh = (r.distance_m / 1000) / (r.duration_s / 3600)
    assert 4.0 <= kmh <= 5.0
    assert 1.1 <= r.distance_m / 1000 / haversine_km(A, B) <= 1.3


@pytest.mark.parametrize(("mode", "lo", "hi"), [("bicycling", 11, 15), ("driving", 20, 40)])
def test_mode_speeds(fixture_world: SandboxWorld, mode: str, lo: float, hi: float) -> None:
    r = fixture_world.route(A, B, mode)
    assert lo <= (r.distance_m / 1000) / (r.duration_s / 3600) <= hi


def test_steps_use_city_roads(fixture_world: SandboxWorld) -> None:
    city = fixture_world.city("杭州")
    r = fixture_world.route(A, B, "driving")
    assert r.steps and all(s.road_name in city.roads for s in r.steps)
    assert sum(s.distance_m for s in r.steps) == r.distance_m
    assert r.steps[-1].instruction.endswith("到达终点")
    assert r.taxi_cost == taxi_fare(r.distance_m / 1000, city.tier)


def test_taxi_fare() -> None:
    assert taxi_fare(2.0, 3) == 10 and taxi_fare(3.0, 1) == 14
    assert taxi_fare(10.0, 2) == 12 + round(7 * 2.5)
    assert taxi_fare(30.0, 2) > taxi_fare(15.0, 2) * 1.8


def test_transit_metro_line(fixture_world: SandboxWorld) -> None:
    r = fixture_world.route(A, B, "transit")
    assert r.lines and all(line.startswith("地铁") and line.endswith("号线") for line in r.lines)
    n = int(r.lines[0][2:-2])
    assert 1 <= n <= fixture_world.city("杭州").metro_lines
    assert 2 <= r.transit_cost <= 7 and r.walking_distance_m > 0
    kmh = (r.distance_m / 1000) / (r.duration_s / 3600)
    assert 8 <= kmh <= 25


def test_transit_bus_without_metro(fixture_world: SandboxWorld) -> None:
    city = fixture_world.city("杭州").model_copy(update={"metro_lines": 0})
    r = plan_route(A, B, "transit", city)
    assert r.lines and all(line.endswith("路") and line[:-1].isdigit() for line in r.lines)


def test_short_transit_is_walk(fixture_world: SandboxWorld) -> None:
    r = fixture_world.route(A, (120.1452, 30.2600), "transit")
    assert r.lines == () and r.transit_cost == 0


def test_deterministic_and_limits(fixture_world: SandboxWorld) -> None:
    assert plan_route(A, B, "driving", fixture_world.city("杭州")) == plan_route(A, B, "driving", fixture_world.city("杭州"))
    with pytest.raises(ToolInputError):
        plan_route(A, (116.4, 39.9), "walking")
    with pytest.raises(ToolInputError):
        plan_route(A, (116.4, 39.9), "transit")
    with pytest.raises(ToolInputError):
        plan_route(A, B, "flying")
    same = plan_route(A, A, "driving")
    assert same.distance_m == 0 and same.steps == ()


def test_waypoints_lengthen_driving(fixture_world: SandboxWorld) -> None:
    direct = fixture_world.route(A, B, "driving")
    via = fixture_world.route(A, B, "driving", waypoints=((120.30, 30.20),))
    assert via.distance_m > direct.distance_m

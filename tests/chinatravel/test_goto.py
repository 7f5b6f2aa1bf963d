"""Routes reproduce ChinaTravel's ``goto``: walk 5 km/h, taxi 40 km/h + fare table, metro via nearest stations."""

from __future__ import annotations

import math
from typing import Any

import pytest

from navworld.world.chinatravel.goto import (
    GotoLeg,
    NoMetro,
    add_minutes,
    geodesic_km,
    metro_fare,
    nearest_station,
    plan_legs,
    taxi_fare,
)


def test_geodesic_is_wgs84() -> None:
    assert geodesic_km((0.0, 0.0), (0.0, 1.0)) == pytest.approx(111.31949079327357, abs=1e-9)
    assert geodesic_km((0.0, 0.0), (1.0, 0.0)) == pytest.approx(110.57438855795695, abs=1e-9)
    assert geodesic_km((32.0, 118.0), (32.0, 118.0)) == 0.0


@pytest.mark.parametrize(("km", "fare"), [(0.5, 11.0), (1.8, 11.0), (2.8, 14.5), (10.0, 39.7), (12.0, 48.7), (30.0, 129.7)])
def test_taxi_fare_table(km: float, fare: float) -> None:
    assert taxi_fare(km) == pytest.approx(fare)


@pytest.mark.parametrize(
    ("km", "fare"),
    [(0.3, 2), (4.0, 2), (4.01, 3), (9.0, 3), (14.0, 4), (21.0, 5), (28.0, 6), (37.0, 7), (48.0, 8), (61.0, 9),
     (61.5, 9), (62.0, 10), (76.1, 10), (77.0, 11), (91.0, 11)],
)
def test_metro_fare_bands(km: float, fare: int) -> None:
    assert metro_fare(km) == fare


def test_times_truncate_to_minutes_and_never_wrap() -> None:
    assert add_minutes("09:00", 0.999) == "09:59"
    assert add_minutes("23:50", 0.5) == "24:20"
    assert add_minutes("8:30", 0.0) == "08:30"


def test_walk_and_taxi_legs() -> None:
    a, b = (32.04, 118.78), (32.06, 118.80)
    km = geodesic_km(a, b)
    walk = plan_legs("A", a, "B", b, "10:00", "walk")
    assert walk == [GotoLeg("A", "B", "walk", "10:00", add_minutes("10:00", km / 5.0), 0.0, km)]
    assert walk[0].end_time == f"10:{int(km / 5 * 60):02d}"
    taxi = plan_legs("A", a, "B", b, "10:00", "taxi")[0]
    assert taxi.distance == round(km, 2) and taxi.cost == round(11 + (km - 1.8) * 3.5, 2)
    assert taxi.end_time == f"10:{int(km / 40 * 60):02d}"


def test_metro_walks_to_the_nearest_stations() -> None:
    stations = [("S1", 32.040, 118.781), ("S2", 32.050, 118.790), ("S3", 32.061, 118.799), ("S2", 32.050, 118.790)]
    a, b = (32.0401, 118.7805), (32.0612, 118.7996)
    assert nearest_station(a, stations) == (0, pytest.approx(geodesic_km(a, (32.040, 118.781))))
    w1, ride, w2 = plan_legs("A", a, "B", b, "08:00", "metro", stations)
    assert (w1.end, ride.start, ride.end, w2.start) == ("S1-地铁站", "S1-地铁站", "S3-地铁站", "S3-地铁站")
    km = geodesic_km((32.040, 118.781), (32.061, 118.799))
    assert ride.distance == round(km, 2) and ride.cost == metro_fare(km) == 2
    assert ride.start_time == w1.end_time and w2.start_time == ride.end_time
    assert ride.end_time == add_minutes(w1.end_time, km / 30.0)
    with pytest.raises(NoMetro):
        plan_legs("A", a, "B", (32.0402, 118.7806), "08:00", "metro", stations)
    with pytest.raises(NoMetro):
        plan_legs("A", a, "B", b, "08:00", "metro", [])


def test_world_routes_agree_with_goto(world: Any) -> None:
    a, b = world.find_poi("南京", "夫子庙"), world.find_poi("南京", "玄武湖")
    legs = world.goto("南京", "夫子庙", "玄武湖", "09:00", "metro")
    route = world.route(a.location, b.location, "transit", "南京")
    minutes = lambda t: int(t[:2]) * 60 + int(t[3:])  # noqa: E731
    assert route.duration_s == 60 * (minutes(legs[-1].end_time) - minutes("09:00"))
    assert route.distance_m == sum(round(x.distance * 1000) for x in legs)
    assert route.transit_cost == legs[1].cost and route.walking_distance_m == round(legs[0].distance * 1000) + round(legs[2].distance * 1000)
    assert legs[1].start in route.steps[1].instruction and route.lines
    taxi = world.goto("南京", "夫子庙", "玄武湖", "09:00", "taxi")[0]
    drive = world.route(a.location, b.location, "driving", "南京")
    assert drive.taxi_cost == taxi.cost and drive.distance_m == round(taxi.distance * 1000)
    assert drive.duration_s == 60 * (minutes(taxi.end_time) - minutes("09:00"))
    walk = world.goto("南京", "夫子庙", "玄武湖", "09:00", "walk")[0]
    walking = world.route(a.location, b.location, "walking", "南京")
    assert walking.distance_m == round(walk.distance * 1000) and not math.isclose(walk.distance, round(walk.distance, 2), abs_tol=1e-12)
    with pytest.raises(KeyError, match="城市中没有该地点"):
        world.goto("南京", "夫子庙", "不存在的地方", "09:00", "walk")

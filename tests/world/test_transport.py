"""Flights and trains: realism, availability, structure, determinism."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from navworld.core.errors import ToolInputError
from navworld.world.catalog import Catalog
from navworld.world.gen_transport import rail_km, straight_km
from navworld.world.sandbox import SandboxWorld

DATES = ("2025-03-01", "2025-07-15", "2025-12-24")
SALTS = ("test", "2900", "x")


def _worlds(catalog: Catalog) -> list[SandboxWorld]:
    return [SandboxWorld(salt=s, catalog=catalog) for s in SALTS]


def test_beijing_shanghai(real_catalog: Catalog) -> None:
    for w in _worlds(real_catalog):
        for date in DATES:
            flights = w.flight_list(date, "北京", "上海")
            assert 8 <= len(flights) <= 15
            assert all(1.7 <= f.duration_min / 60 <= 2.6 for f in flights), [f.duration_min for f in flights]
            g = [t for t in w.train_list(date, "北京", "上海") if t.train_type == "G"]
            assert g and all(4.0 <= t.duration_min / 60 <= 6.5 for t in g), [t.duration_min for t in g]


def test_wuxi_changzhou(real_catalog: Catalog) -> None:
    for w in _worlds(real_catalog):
        assert w.flight_list("2025-03-01", "无锡", "常州") == []
        with pytest.raises(ToolInputError, match="过近"):
            asyncio.run(w.flights("2025-03-01", w.city("无锡"), w.city("常州")))
        trains = w.train_list("2025-03-01", "无锡", "常州")
        assert len(trains) >= 8
        assert {t.train_type for t in trains} <= {"G", "D", "C"}
        assert all(t.duration_min < 40 for t in trains)


def test_chengdu_leshan(real_catalog: Catalog) -> None:
    for w in _worlds(real_catalog):
        trains = w.train_list("2025-03-01", "成都", "乐山")
        assert trains and all(t.duration_min < 90 for t in trains)


def test_suzhou_flights_error_names_airports(real_catalog: Catalog) -> None:
    w = SandboxWorld(salt="test", catalog=real_catalog)
    with pytest.raises(ToolInputError) as info:
        asyncio.run(w.flights("2025-03-01", w.city("苏州"), w.city("北京")))
    msg = str(info.value)
    assert "苏州没有民用机场" in msg and "硕放国际机场" in msg and "WUX" in msg
    assert "上海虹桥国际机场" in msg and "SHA" in msg


def test_fixture_no_airport_error(fixture_world: SandboxWorld) -> None:
    with pytest.raises(ToolInputError, match="无锡苏南硕放国际机场（WUX"):
        asyncio.run(fixture_world.flights("2025-03-01", fixture_world.city("杭州"), fixture_world.city("苏州")))


def test_structure_all_pairs_sample(real_catalog: Catalog) -> None:
    w = SandboxWorld(salt="test", catalog=real_catalog)
    cities = real_catalog.all_cities()
    for a, b in itertools.islice(itertools.permutations(cities, 2), 0, None, 37):
        flights = w.flight_list("2025-05-01", a.name, b.name)
        if a.airports and b.airports and straight_km(a, b) >= 350:
            assert 8 <= len(flights) <= 15
            numbers = [f.flight_no for f in flights]
            assert len(set(numbers)) == len(numbers)
            assert 1 <= sum(f.dep_time >= "22:30" for f in flights) <= 2
            assert {f.from_airport for f in flights} <= {ap.name for ap in a.airports}
            for f in flights:
                dep = int(f.dep_time[:2]) * 60 + int(f.dep_time[3:])
                arr = int(f.arr_time[:2]) * 60 + int(f.arr_time[3:])
                assert (dep + f.duration_min) % 1440 == arr and f.next_day == (dep + f.duration_min >= 1440)
        else:
            assert flights == []
        trains = w.train_list("2025-05-01", a.name, b.name)
        if not (a.stations and b.stations):
            assert trains == []
        for t in trains:
            assert t.from_station in {s.name for s in a.stations} and t.to_station in {s.name for s in b.stations}
            classes = [s.seat_class for s in t.seats]
            expected = {"G": ["二等座", "一等座", "商务座"], "C": ["二等座", "一等座", "商务座"], "D": ["二等座", "一等座"]}
            assert classes == expected.get(t.train_type, ["硬座", "硬卧", "软卧"])
            prices = [s.price for s in t.seats]
            assert prices == sorted(prices) and prices[0] > 0
            if t.train_type in "GDC":
                assert not t.next_day
                assert any(s.hsr for s in a.stations) and any(s.hsr for s in b.stations)
        if trains:
            nos = [t.train_no for t in trains]
            assert len(set(nos)) == len(nos) and 8 <= len(trains) <= 15
            if rail_km(a, b) <= 500 and any(s.hsr for s in a.stations) and any(s.hsr for s in b.stations):
                assert {t.train_type for t in trains} <= {"G", "D", "C"}


def test_overnight_rendered(real_catalog: Catalog) -> None:
    w = SandboxWorld(salt="test", catalog=real_catalog)
    trains = w.train_list("2025-03-01", "北京", "乌鲁木齐")
    assert any(t.next_day for t in trains)


def test_rail_distance_symmetric_and_salt_free(real_catalog: Catalog) -> None:
    a, b = real_catalog.get_city("北京"), real_catalog.get_city("上海")
    assert rail_km(a, b) == rail_km(b, a)
    assert 1.2 <= rail_km(a, b) / straight_km(a, b) <= 1.3


def test_salt_and_date_change_lists(fixture_catalog: Catalog) -> None:
    one, two = (SandboxWorld(salt=s, catalog=fixture_catalog) for s in ("1", "2"))
    assert one.train_list("2025-03-01", "无锡", "杭州") != two.train_list("2025-03-01", "无锡", "杭州")
    assert one.train_list("2025-03-01", "无锡", "杭州") != one.train_list("2025-03-02", "无锡", "杭州")
    again = SandboxWorld(salt="1", catalog=fixture_catalog)
    assert again.train_list("2025-03-01", "无锡", "杭州") == one.train_list("2025-03-01", "无锡", "杭州")


def test_same_city_and_no_station(real_catalog: Catalog) -> None:
    w = SandboxWorld(salt="test", catalog=real_catalog)
    with pytest.raises(ToolInputError, match=r"相同|都是"):
        asyncio.run(w.trains("2025-03-01", w.city("北京"), w.city("北京")))
    no_station = next(c for c in real_catalog.all_cities() if not c.stations)
    with pytest.raises(ToolInputError, match="没有火车站"):
        asyncio.run(w.trains("2025-03-01", no_station, w.city("北京")))

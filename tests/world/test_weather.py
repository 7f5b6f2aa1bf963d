"""Forecasts from monthly climate normals."""

from __future__ import annotations

import datetime as dt

import pytest

from navworld.world.catalog import Catalog
from navworld.world.gen_weather import forecast_for, salt_date
from navworld.world.sandbox import SandboxWorld

_WEATHER = {"晴", "多云", "阴", "小雨", "中雨", "大雨", "阵雨", "雷阵雨", "小雪", "中雪", "大雪", "雨夹雪", "雾", "霾"}


def test_four_days_with_dates(fixture_world: SandboxWorld) -> None:
    fc = fixture_world.forecast("杭州", "2025-03-01")
    assert fc.city == "杭州市" and fc.adcode == "330100" and fc.province == "浙江省"
    assert [c.date for c in fc.casts] == ["2025-03-01", "2025-03-02", "2025-03-03", "2025-03-04"]
    assert [c.week for c in fc.casts] == ["星期六", "星期日", "星期一", "星期二"]
    for c in fc.casts:
        assert c.dayweather in _WEATHER and c.nightweather in _WEATHER
        assert c.daytemp >= c.nighttemp + 2
        assert c.daywind in {"东", "南", "西", "北", "东北", "东南", "西北", "西南"}
        assert c.daypower in {"1-3", "3-4", "4-5", "5-6"}


def test_overlapping_forecasts_agree(fixture_world: SandboxWorld) -> None:
    a = fixture_world.forecast("杭州", "2025-07-10")
    b = fixture_world.forecast("杭州", "2025-07-12")
    assert a.casts[2:] == b.casts[:2]


def test_salt_changes_weather(fixture_catalog: Catalog) -> None:
    one = SandboxWorld(salt="1", catalog=fixture_catalog)
    two = SandboxWorld(salt="2", catalog=fixture_catalog)
    days = [f"2025-{m:02d}-10" for m in range(1, 13)]
    assert any(one.forecast("杭州", d) != two.forecast("杭州", d) for d in days)
    assert all(one.forecast("杭州", d) == SandboxWorld(salt="1", catalog=fixture_catalog).forecast("杭州", d) for d in days)


def test_follows_climate(fixture_catalog: Catalog) -> None:
    city = fixture_catalog.get_city("杭州")
    for month in (1, 7):
        highs = []
        for salt in range(40):
            fc = forecast_for(city, f"2025-{month:02d}-14", str(salt))
            highs.extend(c.daytemp for c in fc.casts)
        mean = sum(highs) / len(highs)
        assert abs(mean - city.climate.high[month - 1]) < 3.5, (month, mean)


def test_snow_only_when_cold_and_snowy(world: SandboxWorld) -> None:
    for city in world.catalog.all_cities():
        for month in (1, 7):
            fc = forecast_for(city, f"2025-{month:02d}-15", "test")
            for c in fc.casts:
                if "雪" in c.dayweather:
                    assert city.climate.snow and c.daytemp <= 5, (city.name, c)


@pytest.mark.parametrize(("salt", "expected"), [("2900", "2025-07-31")])
def test_salt_date_week_epoch(salt: str, expected: str) -> None:
    assert salt_date(salt) == expected
    dt.date.fromisoformat(salt_date("any-text"))

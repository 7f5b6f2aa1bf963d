"""The six tools are served from the ChinaTravel database through navworld's tool registry."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from navworld.tools.registry import TOOL_NAMES, call_tool


def _call(world: Any, name: str, args: dict[str, Any]) -> Any:
    return asyncio.run(call_tool(name, args, world))


def test_all_six_tools_answer_from_the_database(world: Any) -> None:
    calls = {
        "poi_search": {"address": "夫子庙", "region": "南京"},
        "around_search": {"location": "118.7969,32.0603", "radius": 3000, "keyword": "餐厅", "region": "南京"},
        "direction": {"origin": "118.7969,32.0603", "destination": "118.8200,32.0700", "mode": "transit"},
        "weather": {"city": "南京", "date": "2025-05-01"},
        "search_flights": {"date": "2025-05-01", "from_city": "北京", "to_city": "南京"},
        "search_train_tickets": {"date": "2025-05-01", "from_city": "上海", "to_city": "南京"},
    }
    assert tuple(calls) == TOOL_NAMES
    out = {name: _call(world, name, args) for name, args in calls.items()}
    assert all(r.ok for r in out.values()), {k: r.text for k, r in out.items() if not r.ok}
    assert out["poi_search"].data["pois"][0]["name"] == "夫子庙" and "cost: 60元（门票）" in out["poi_search"].text
    rows = out["around_search"].data["pois"]
    assert rows and all(int(r["distance"]) <= 3000 for r in rows) and all(r["typecode"] == "050000" for r in rows)
    assert [int(r["distance"]) for r in rows] == sorted(int(r["distance"]) for r in rows)
    assert "-地铁站" in out["direction"].text and "cost: 2元" in out["direction"].text
    assert out["weather"].data["forecasts"][0]["casts"][0]["date"] == "2025-05-01"
    assert [f["flight_no"] for f in out["search_flights"].data["flights"]] == ["FL010", "FL011"]
    assert "航班 FL010 08:20 北京首都国际机场 → 10:26 南京禄口国际机场" in out["search_flights"].text
    assert "车次 G130（高铁） 07:05 上海虹桥站 → 08:17 南京南站" in out["search_train_tickets"].text
    assert "票价 144.5元" in out["search_train_tickets"].text  # fares keep their decimals


def test_timetables_are_served_on_every_date(world: Any) -> None:
    a = _call(world, "search_train_tickets", {"date": "2025-05-01", "from_city": "北京", "to_city": "南京"})
    b = _call(world, "search_train_tickets", {"date": "2027-12-30", "from_city": "北京", "to_city": "南京"})
    assert a.data["trains"] == b.data["trains"] and len(a.data["trains"]) == 5
    assert [t.date for t in world.train_list("2031-02-03", "北京", "南京")] == ["2031-02-03"] * 5


@pytest.mark.parametrize(
    ("name", "args", "reason"),
    [
        ("poi_search", {"address": "西湖", "region": "杭州"}, "杭州不在ChinaTravel数据库中（可用城市：北京、上海、南京）"),
        ("weather", {"city": "杭州"}, "杭州不在ChinaTravel数据库中"),
        ("search_train_tickets", {"date": "2025-05-01", "from_city": "杭州", "to_city": "南京"}, "杭州不在ChinaTravel数据库中"),
        ("direction", {"origin": "118.7969,32.0603", "destination": "118.8200,32.0700", "mode": "bicycling"}, "没有骑行路线"),
        ("direction", {"origin": "120.15,30.28", "destination": "120.16,30.29", "mode": "walking"}, "不在ChinaTravel数据库的城市范围内"),
    ],
)
def test_unserved_requests_are_clear_tool_errors(world: Any, name: str, args: dict[str, Any], reason: str) -> None:
    r = _call(world, name, args)
    assert not r.ok and not r.infra and reason in r.text


def test_city_inferred_from_keywords_and_points(world: Any) -> None:
    r = _call(world, "poi_search", {"address": "上海博物馆"})
    assert r.ok and r.data["pois"][0]["name"] == "上海博物馆"
    assert world.city_at((121.47, 31.23)).name == "上海" and world.city_at((120.15, 30.28)) is None

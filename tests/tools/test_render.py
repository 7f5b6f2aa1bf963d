"""The shared text format (docs/tool-output.md) and truncation."""

from __future__ import annotations

import re

import pytest

from navworld.tools import call_tool
from navworld.tools.render import error_text, fmt_duration, render, truncate
from navworld.world.sandbox import SandboxWorld


def test_truncate_at_newline() -> None:
    text = "\n".join(f"line {i:04d} " + "x" * 40 for i in range(200))
    out = truncate(text, 3000)
    assert len(out) <= 3000
    body, marker = out.rsplit("\n", 1)
    assert marker == f"…（结果已截断，原文共 {len(text)} 字符）"
    assert text.startswith(body) and text[len(body)] == "\n"
    assert truncate("short", 3000) == "short"
    one_line = "y" * 5000
    assert len(truncate(one_line, 3000)) <= 3000


def test_helpers() -> None:
    assert fmt_duration(45) == "45分" and fmt_duration(135) == "2小时15分" and fmt_duration(60, "分钟") == "1小时0分钟"
    assert error_text("a\nb") == "错误：a b"
    with pytest.raises(ValueError):
        render("nope", {})


_KEY_LINE = re.compile(r"^[a-z_]+: \S")


async def test_poi_blocks(fixture_world: SandboxWorld) -> None:
    r = await call_tool("poi_search", {"address": "餐厅", "region": "杭州"}, fixture_world)
    lines = r.text.split("\n")
    assert lines[0] == "poi_search：关键词「餐厅」，城市 杭州，共 10 条结果"
    assert lines[1] == "## 1"
    for line in lines[1:]:
        assert line.startswith("## ") or _KEY_LINE.match(line), line
    assert re.search(r"^cost: \d+元（人均）$", r.text, re.M)
    assert re.search(r"^dishes: \S+、\S+、\S+", r.text, re.M)
    assert re.search(r"^cuisine: \S+$", r.text, re.M)
    assert re.search(r"^location: \d+\.\d{6},\d+\.\d{6}$", r.text, re.M)
    assert len(r.text) <= 3000 and "截断" not in r.text
    hotels = await call_tool("poi_search", {"address": "酒店", "region": "杭州"}, fixture_world)
    assert re.search(r"^cost: \d+元（每晚）$", hotels.text, re.M) and re.search(r"^star: [2-5]$", hotels.text, re.M)
    assert re.search(r"^beds: [12]$", hotels.text, re.M) and "截断" not in hotels.text
    sights = await call_tool("poi_search", {"address": "景点", "region": "杭州"}, fixture_world)
    assert re.search(r"^cost: \d+元（门票）$", sights.text, re.M) and re.search(r"^visit_hours: \d+\.\d$", sights.text, re.M)
    assert re.search(r"^opentime: \d\d:\d\d-\d\d:\d\d$", sights.text, re.M)


async def test_around_distance_lines(fixture_world: SandboxWorld) -> None:
    r = await call_tool("around_search", {"location": "120.141200,30.258700", "radius": 2000, "keyword": "餐厅"}, fixture_world)
    assert r.text.startswith("around_search：中心 120.141200,30.258700，半径 2000米，关键词「餐厅」，共 ")
    dists = [int(m) for m in re.findall(r"^distance: (\d+)米$", r.text, re.M)]
    assert dists and dists == sorted(dists) and max(dists) <= 2000
    assert len(dists) == len(r.data["pois"])  # type: ignore[index]


async def test_direction_format(fixture_world: SandboxWorld) -> None:
    args = {"origin": "120.141200,30.258700", "destination": "120.212600,30.290851"}
    r = await call_tool("direction", args, fixture_world)
    lines = r.text.split("\n")
    assert lines[0] == "direction：驾车，起点 120.141200,30.258700，终点 120.212600,30.290851"
    assert re.match(r"^distance: \d+\.\d公里$", lines[1]) and re.match(r"^duration: \d+分钟$", lines[2])
    assert re.match(r"^taxi_cost: \d+元$", lines[3]) and lines[4] == "## 步骤"
    assert all(re.match(r"^\d+\. .*「[^」]+」", line) for line in lines[5:])
    walk = await call_tool("direction", {**args, "mode": "walking"}, fixture_world)
    assert "taxi_cost" not in walk.text and walk.text.startswith("direction：步行")
    transit = await call_tool("direction", {**args, "mode": "transit"}, fixture_world)
    assert re.search(r"^lines: 地铁\d+号线", transit.text, re.M) and re.search(r"^cost: \d元$", transit.text, re.M)
    assert "乘坐「地铁" in transit.text
    assert transit.data["route"]["transits"][0]["segments"]  # type: ignore[index]


async def test_weather_format(fixture_world: SandboxWorld) -> None:
    r = await call_tool("weather", {"city": "杭州", "date": "2025-03-01"}, fixture_world)
    lines = r.text.split("\n")
    assert lines[0] == "weather：杭州市（浙江省，adcode 330100）未来4天天气预报，发布时间 2025-03-01 07:00:00"
    assert lines[1] == "## 2025-03-01 星期六" and len(lines) == 1 + 4 * 9
    assert re.match(r"^daytemp: -?\d+℃$", lines[4]) and lines[6].endswith("风") and lines[8].endswith("级")
    cast = r.data["forecasts"][0]["casts"][0]  # type: ignore[index]
    assert cast["date"] == "2025-03-01" and cast["week"] == "6" and cast["daytemp"].lstrip("-").isdigit()


async def test_transport_lines(world: SandboxWorld) -> None:
    r = await call_tool("search_flights", {"date": "2025-03-01", "from_city": "北京", "to_city": "上海"}, world)
    flight = re.compile(
        r"^航班 [A-Z0-9]{2}\d{3,4}（\S+） \d\d:\d\d \S+ → \d\d:\d\d(\(次日\))? \S+，飞行 (\d+小时)?\d+分，经济舱 \d+元$"
    )
    lines = r.text.split("\n")
    assert lines[0].startswith("search_flights：2025-03-01 北京 → 上海，共 ")
    assert all(flight.match(line) for line in lines[1:]), lines
    assert any("(次日)" in line for line in lines[1:]) == any(f["next_day"] for f in r.data["flights"])  # type: ignore[index]
    t = await call_tool("search_train_tickets", {"date": "2025-03-01", "from_city": "北京", "to_city": "乌鲁木齐"}, world)
    train = re.compile(
        r"^车次 [GDCZTK]\d+（\S+） \d\d:\d\d \S+ → \d\d:\d\d(\(次日\))? \S+，历时 (\d+小时)?\d+分，\S+ \d+元( / \S+ \d+元)*$"
    )
    tl = t.text.split("\n")
    assert all(train.match(line) for line in tl[1:]), tl
    assert any("(次日)" in line for line in tl[1:])
    keys = {"flight_no", "airline", "from_airport", "to_airport", "dep_time", "arr_time", "next_day", "duration_min", "price"}
    assert all(set(f) == keys for f in r.data["flights"])  # type: ignore[index]
    tkeys = {"train_no", "train_type", "from_station", "to_station", "dep_time", "arr_time", "next_day", "duration_min", "seats"}
    assert all(set(x) == tkeys for x in t.data["trains"])  # type: ignore[index]


async def test_typical_results_fit(world: SandboxWorld) -> None:
    for city in world.catalog.all_cities()[:20]:
        for kw in ("酒店", "餐厅", "景点"):
            r = await call_tool("poi_search", {"address": kw, "region": city.name}, world)
            assert r.ok and "截断" not in r.text, (city.name, kw, len(r.text))


def test_amap_quirks_render() -> None:
    data = {"pois": [{"id": "B0X", "name": "某店", "typecode": "050100", "location": "120.1,30.2",
                      "business": {"tel": [], "rating": [], "cost": "88.00", "opentime": ""}}]}
    text = render("poi_search", data, {"address": "某店", "region": "杭州"})
    assert "tel" not in text and "cost: 88.00元（人均）" in text

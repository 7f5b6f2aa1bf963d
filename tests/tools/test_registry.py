"""The tool registry: schemas, dispatch, and bad input that never raises."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navworld.core.errors import WorldError
from navworld.core.models import ToolResult
from navworld.tools import TOOL_NAMES, ToolBudget, call_tool, get_tool, openai_tools
from navworld.world.sandbox import SandboxWorld

EXPECTED_PARAMS = {
    "poi_search": (["address"], ["address", "region"]),
    "around_search": (["location"], ["location", "radius", "keyword", "region"]),
    "direction": (["origin", "destination"], ["origin", "destination", "mode", "waypoints"]),
    "weather": (["city"], ["city", "date"]),
    "search_flights": (["date", "from_city", "to_city"], ["date", "from_city", "to_city"]),
    "search_train_tickets": (["date", "from_city", "to_city"], ["date", "from_city", "to_city"]),
}


def test_names_and_params() -> None:
    assert TOOL_NAMES == tuple(EXPECTED_PARAMS)
    tools = openai_tools()
    assert [t["function"]["name"] for t in tools] == list(TOOL_NAMES)
    for t in tools:
        fn = t["function"]
        required, props = EXPECTED_PARAMS[fn["name"]]
        assert fn["parameters"]["required"] == required
        assert list(fn["parameters"]["properties"]) == props
        assert fn["parameters"]["additionalProperties"] is False
        for p in fn["parameters"]["properties"].values():
            assert "anyOf" not in p and p["description"] and " / " in p["description"]
    assert get_tool("direction").json_schema()["properties"]["mode"]["enum"] == ["driving", "walking", "bicycling", "transit"]
    assert get_tool("around_search").json_schema()["properties"]["radius"]["maximum"] == 50000


async def test_happy_paths(fixture_world: SandboxWorld) -> None:
    r = await call_tool("poi_search", {"address": "西湖", "region": "杭州"}, fixture_world)
    assert r.ok and r.text.startswith("poi_search：关键词「西湖」，城市 杭州") and "\nname: 西湖\n" in r.text
    assert r.data is not None and r.data["pois"][0]["name"] == "西湖"
    r = await call_tool("weather", json.dumps({"city": "Hangzhou"}), fixture_world, default_date="2025-03-01")
    assert r.ok and "## 2025-03-01 星期六" in r.text
    r = await call_tool("search_train_tickets", {"date": "2025-03-01", "from_city": "无锡市", "to_city": "杭州"}, fixture_world)
    assert r.ok and r.text.startswith("search_train_tickets：2025-03-01 无锡 → 杭州")


async def test_region_inferred_from_keywords(fixture_world: SandboxWorld) -> None:
    r = await call_tool("poi_search", {"address": "杭州西湖"}, fixture_world)
    assert r.ok and "城市 杭州" in r.text.splitlines()[0] and r.data["pois"][0]["name"] == "西湖"  # type: ignore[index]


BAD_INPUTS: list[tuple[str, Any, str]] = [
    ("poi_search", {}, "缺少必填参数 address"),
    ("poi_search", {"address": 123}, "应为字符串"),
    ("poi_search", {"address": "西湖", "city": "杭州"}, "未知参数 city"),
    ("poi_search", {"address": "西湖", "region": "巴黎"}, "未知城市"),
    ("poi_search", {"address": "x" * 1_000_000}, "过长"),
    ("poi_search", json.dumps({"address": "x" * 1_000_000}), "过长"),
    ("poi_search", "{not json", "不是合法的 JSON"),
    ("poi_search", "[1, 2]", "必须是 JSON 对象"),
    ("poi_search", {"address": "   "}, "不能为空"),
    ("around_search", {"location": "abc"}, "坐标格式错误"),
    ("around_search", {"location": "120.1,30.2,5"}, "坐标格式错误"),
    ("around_search", {"location": "30.274100,120.155100"}, "顺序颠倒"),
    ("around_search", {"location": "2.35,48.85"}, "不在中国境内"),
    ("around_search", {"location": "120.15,30.27", "radius": 0}, "超出范围"),
    ("around_search", {"location": "120.15,30.27", "radius": -5}, "超出范围"),
    ("around_search", {"location": "120.15,30.27", "radius": 50001}, "超出范围"),
    ("around_search", {"location": "120.15,30.27", "radius": "far"}, "应为整数"),
    ("direction", {"origin": "120.15,30.27"}, "缺少必填参数 destination"),
    ("direction", {"origin": "120.15,30.27", "destination": "120.2,30.3", "mode": "flying"}, "取值"),
    ("direction", {"origin": "120.15,30.27", "destination": "116.4,39.9", "mode": "walking"}, "超出步行"),
    ("direction", {"origin": "120.15,30.27", "destination": "120.2,30.3", "waypoints": "1;2"}, "坐标格式错误"),
    ("weather", {"city": "Atlantis"}, "未知城市"),
    ("weather", {"city": "杭州", "date": "2025/03/01"}, "YYYY-MM-DD"),
    ("weather", {"city": "杭州", "date": "2025-02-30"}, "YYYY-MM-DD"),
    ("search_flights", {"date": "tomorrow", "from_city": "杭州", "to_city": "无锡"}, "YYYY-MM-DD"),
    ("search_flights", {"date": "2025-03-01", "from_city": "杭州"}, "缺少必填参数 to_city"),
    ("search_flights", {"date": "2025-03-01", "from_city": "杭州", "to_city": "杭州"}, "都是杭州"),
    ("search_train_tickets", {"date": "2025-03-01", "from_city": "杭州", "to_city": "纽约"}, "未知城市"),
    ("no_such_tool", {}, "未知工具"),
    ("", {}, "未知工具"),
]


@pytest.mark.parametrize(("name", "args", "needle"), BAD_INPUTS)
async def test_bad_input_is_error_result(fixture_world: SandboxWorld, name: str, args: Any, needle: str) -> None:
    r = await call_tool(name, args, fixture_world)
    assert isinstance(r, ToolResult) and not r.ok and r.data is None
    assert r.text.startswith("错误：") and "\n" not in r.text and len(r.text) <= 3000
    assert needle in r.text, r.text
    assert r.error and not r.infra


async def test_unknown_tool_lists_names(fixture_world: SandboxWorld) -> None:
    r = await call_tool("search", {}, fixture_world)
    assert all(n in r.text for n in TOOL_NAMES)


async def test_budget(fixture_world: SandboxWorld) -> None:
    budget = ToolBudget()
    for _ in range(3):
        assert (await call_tool("weather", {"city": "杭州"}, fixture_world, budget=budget)).ok
    r = await call_tool("weather", {"city": "杭州"}, fixture_world, budget=budget)
    assert not r.ok and "上限（3 次）" in r.text
    for _ in range(12):
        assert (await call_tool("search_train_tickets", {"date": "2025-03-01", "from_city": "无锡", "to_city": "杭州"},
                                fixture_world, budget=budget)).ok
    assert budget.to_dict()["weather"] == {"used": 3, "limit": 3}


class _Broken(SandboxWorld):
    async def weather(self, city, date):  # type: ignore[no-untyped-def]
        raise WorldError("upstream down")

    async def poi_search(self, keywords, city):  # type: ignore[no-untyped-def]
        raise RuntimeError("bug")


async def test_backend_failures_are_infra(fixture_world: SandboxWorld) -> None:
    broken = _Broken(salt="x", catalog=fixture_world.catalog)
    r = await call_tool("weather", {"city": "杭州"}, broken)
    assert not r.ok and r.infra and "暂时不可用" in r.text
    r = await call_tool("poi_search", {"address": "西湖"}, broken)
    assert not r.ok and r.infra and "内部错误" in r.text


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
_keys = st.sampled_from(["address", "region", "location", "radius", "keyword", "origin", "destination", "mode",
                         "waypoints", "city", "date", "from_city", "to_city", "x"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from([*TOOL_NAMES, "bogus"]),
    args=st.one_of(st.dictionaries(_keys, _json, max_size=5), _json, st.text(max_size=50)),
)
async def test_random_json_never_raises(fixture_world: SandboxWorld, name: str, args: Any) -> None:
    payload = args if isinstance(args, dict | str) else json.dumps(args)
    r = await call_tool(name, payload, fixture_world)
    assert isinstance(r, ToolResult) and len(r.text) <= 3000
    assert r.ok or r.text.startswith("错误：")

"""Acceptance of the amap world through the tool registry, ``get_world`` and the CLI.

Every request goes to the local fake AMap server (127.0.0.1); nothing touches the network.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from amap_helpers import KEYS, shape
from fake_amap import FakeAmap

from navworld.core.errors import ConfigError
from navworld.core.models import ToolResult
from navworld.tools.registry import call_tool
from navworld.world import get_world
from navworld.world.amap.backend import AmapWorld
from navworld.world.base import WorldBackend

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("poi_search", {"address": "西湖", "region": "杭州"}),
    ("poi_search", {"address": "酒店", "region": "上海"}),
    ("around_search", {"location": "120.155070,30.274085", "radius": 1000, "keyword": "餐厅"}),
    ("around_search", {"location": "116.407387,39.904179", "radius": 3000}),
    ("direction", {"origin": "120.155070,30.274085", "destination": "120.200000,30.250000", "mode": "driving"}),
    ("direction", {"origin": "120.155070,30.274085", "destination": "120.170000,30.260000", "mode": "walking"}),
    ("direction", {"origin": "120.155070,30.274085", "destination": "120.200000,30.250000", "mode": "bicycling"}),
    ("direction", {"origin": "120.155070,30.274085", "destination": "120.200000,30.250000", "mode": "transit"}),
    ("weather", {"city": "杭州", "date": "2025-05-01"}),
    ("search_flights", {"date": "2025-05-02", "from_city": "北京", "to_city": "杭州"}),
    ("search_train_tickets", {"date": "2025-05-02", "from_city": "上海", "to_city": "杭州"}),
]
HEADERS = {
    "poi_search": r"^poi_search：关键词「[^」]+」，城市 \S+，共 \d+ 条结果$",
    "around_search": r"^around_search：中心 \d+\.\d{6},\d+\.\d{6}，半径 \d+米(，关键词「[^」]+」)?，共 \d+ 条结果$",
    "direction": r"^direction：(驾车|步行|骑行|公交)，起点 \d+\.\d{6},\d+\.\d{6}，终点 \d+\.\d{6},\d+\.\d{6}$",
    "weather": r"^weather：\S+（\S+，adcode \d{6}）未来\d天天气预报，发布时间 [\d\- :]+$",
    "search_flights": r"^search_flights：",
    "search_train_tickets": r"^search_train_tickets：",
}


def line_kinds(text: str) -> set[str]:
    """What kinds of lines a rendering has (``key:`` names, block and step markers)."""
    kinds = set()
    for line in text.splitlines()[1:]:
        if re.match(r"^## \d+$", line):
            kinds.add("## n")
        elif re.match(r"^## \d{4}-\d{2}-\d{2} 星期.$", line):
            kinds.add("## day")
        elif m := re.match(r"^([a-z_]+): \S", line):
            kinds.add(m.group(1))
        elif re.match(r"^\d+\. \S", line):
            kinds.add("step")
        else:
            kinds.add(line)  # e.g. "## 步骤", flight/train lines
    return kinds


async def run_all(world: WorldBackend, calls: list[tuple[str, dict[str, Any]]] = CALLS) -> list[ToolResult]:
    return [await call_tool(name, args, world) for name, args in calls]


@pytest.fixture
def world(amap_env: FakeAmap) -> Iterator[AmapWorld]:
    w = get_world("amap", None)
    assert isinstance(w, AmapWorld)
    yield w


async def test_every_tool_renders_like_the_sandbox(world: AmapWorld, amap_env: FakeAmap) -> None:
    sandbox = get_world("sandbox", "2900")
    amap_results = await run_all(world)
    sandbox_results = await run_all(sandbox)
    for (name, _args), a, s in zip(CALLS, amap_results, sandbox_results, strict=True):
        assert a.ok and s.ok, (name, a.text, s.text)
        assert not a.infra
        for text in (a.text, s.text):
            assert re.match(HEADERS[name], text.splitlines()[0]), text.splitlines()[0]
            assert not text.endswith("\n") and all(line == line.rstrip() for line in text.splitlines())
        assert shape(a.data) == shape(s.data), name
        if name in ("search_flights", "search_train_tickets"):
            assert a.text == s.text and a.data == s.data
        elif name != "poi_search":
            assert line_kinds(a.text) <= line_kinds(s.text) | {"tel", "rating"}, (name, a.text)
    assert amap_env.state.count() == 9  # the two transport calls never reach AMap
    await world.aclose()


async def test_quota_errors_rotate_keys(world: AmapWorld, amap_env: FakeAmap) -> None:
    amap_env.state.quota_keys = {"key-one", "key-two"}
    result = await call_tool("weather", {"city": "杭州"}, world)
    assert result.ok
    assert [r["params"]["key"] for r in amap_env.state.requests] == list(KEYS)
    await world.aclose()


async def test_all_keys_exhausted_is_an_infra_failure(world: AmapWorld, amap_env: FakeAmap) -> None:
    amap_env.state.quota_keys = {"key-one", "key-three"}
    amap_env.state.invalid_keys = {"key-two"}
    result = await call_tool("poi_search", {"address": "西湖", "region": "杭州"}, world)
    assert not result.ok and result.infra
    assert result.text.startswith("错误：") and "exhausted" in result.text
    assert not any(k in result.text or k in (result.error or "") for k in KEYS)
    await world.aclose()


@pytest.mark.parametrize(("switch", "words"), [("malformed", "malformed JSON"), ("truncated", "truncated JSON")])
async def test_bad_json_is_a_readable_tool_error(world: AmapWorld, amap_env: FakeAmap, switch: str, words: str) -> None:
    setattr(amap_env.state, switch, 100)
    result = await call_tool("around_search", {"location": "120.155070,30.274085", "radius": 500}, world)
    assert not result.ok and result.infra
    assert result.text.startswith("错误：") and words in result.text and "\n" not in result.text
    setattr(amap_env.state, switch, 0)
    assert (await call_tool("around_search", {"location": "120.155070,30.274085", "radius": 500}, world)).ok
    await world.aclose()


async def test_route_errors_reach_the_model_as_tool_errors(world: AmapWorld) -> None:
    far = {"origin": "116.407387,39.904179", "destination": "121.473667,31.230525", "mode": "walking"}
    result = await call_tool("direction", far, world)
    assert not result.ok and not result.infra
    assert "OVER_DIRECTION_RANGE" in result.text
    await world.aclose()


async def test_cache_never_serves_one_request_for_different_arguments(world: AmapWorld, amap_env: FakeAmap) -> None:
    def around(location: str, radius: int) -> dict[str, Any]:
        return {"location": location, "radius": radius, "keyword": "咖啡"}

    small = await call_tool("around_search", around("120.155070,30.274085", 300), world)
    large = await call_tool("around_search", around("120.155070,30.274085", 3000), world)
    moved = await call_tool("around_search", around("120.165070,30.274085", 300), world)
    assert len({small.text, large.text, moved.text}) == 3
    assert max(int(d) for d in re.findall(r"distance: (\d+)米", small.text)) <= 300
    assert max(int(d) for d in re.findall(r"distance: (\d+)米", large.text)) > 300
    route_a = await call_tool("direction", {"origin": "120.155070,30.274085", "destination": "120.2,30.25"}, world)
    route_b = await call_tool("direction", {"origin": "120.155070,30.274085", "destination": "120.3,30.25"}, world)
    assert route_a.text != route_b.text
    assert amap_env.state.count() == 5
    again = await call_tool("around_search", around("120.155070,30.274085", 300), world)
    assert again.text == small.text and amap_env.state.count() == 5
    await world.aclose()
    fresh = get_world("amap", None)  # the disk cache outlives the process's world
    assert (await call_tool("around_search", around("120.155070,30.274085", 3000), fresh)).text == large.text
    assert amap_env.state.count() == 5
    await fresh.aclose()


async def test_record_then_replay_is_byte_identical_with_the_server_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snap = tmp_path / "snapshot"
    error_call = ("direction", {"origin": "116.407387,39.904179", "destination": "121.473667,31.230525", "mode": "walking"})
    calls = [*CALLS, error_call]
    with FakeAmap() as server:
        monkeypatch.setenv("AMAP_MAPS_API_KEY", ",".join(KEYS))
        monkeypatch.setenv("NAVWORLD_AMAP_BASE_URL", server.url)
        monkeypatch.setenv("NAVWORLD_AMAP_CACHE_DIR", "off")
        recorder = get_world(f"record:{snap}", "2900")
        recorded = await run_all(recorder, calls)
        await recorder.aclose()
        assert server.state.count() == 10
    assert not recorded[-1].ok and all(r.ok for r in recorded[:-1])
    monkeypatch.delenv("AMAP_MAPS_API_KEY")  # replay needs no key and no server
    replayer = get_world(f"replay:{snap}", None)
    assert replayer.salt == "2900"
    replayed = await run_all(replayer, calls)
    for a, b in zip(recorded, replayed, strict=True):
        assert a.model_dump_json() == b.model_dump_json()
    miss = await call_tool("around_search", {"location": "120.155070,30.274085", "radius": 999}, replayer)
    assert not miss.ok and not miss.infra and "回放快照中没有这次请求的记录" in miss.text


async def test_sandbox_and_missing_key_stay_offline(fake: FakeAmap, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("network access attempted")

    monkeypatch.setenv("AMAP_MAPS_API_KEY", ",".join(KEYS))  # a key alone never switches the world
    monkeypatch.setenv("NAVWORLD_AMAP_BASE_URL", fake.url)
    monkeypatch.delenv("NAVWORLD_WORLD", raising=False)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    default = get_world(None, "2900")
    assert default.name == "sandbox"
    results = await run_all(default)
    assert all(r.ok for r in results)
    assert fake.state.count() == 0
    monkeypatch.delenv("AMAP_MAPS_API_KEY")
    for spec in ("amap", "record:/tmp/never-written"):
        with pytest.raises(ConfigError, match="AMAP_MAPS_API_KEY"):
            get_world(spec, "2900")
    assert not Path("/tmp/never-written").exists()


@pytest.mark.slow
def test_cli_record_then_replay(tmp_path: Path) -> None:
    """``navworld tools call --world record:DIR`` then ``--world replay:DIR`` after the server stopped."""
    snap = tmp_path / "snap"
    args = ["poi_search", json.dumps({"address": "西湖", "region": "杭州"}, ensure_ascii=False), "--json"]
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("AMAP_", "NAVWORLD_"))}

    def navworld(world: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-c", "from navworld.cli import main; main()", "tools", "call", *args]
        cmd += ["--world", world, "--salt", "2900"]
        return subprocess.run(
            cmd, env={**base_env, **env}, cwd=tmp_path, capture_output=True, text=True, timeout=120
        )

    with FakeAmap() as server:
        env = {"AMAP_MAPS_API_KEY": "cli-key", "NAVWORLD_AMAP_BASE_URL": server.url, "NAVWORLD_AMAP_CACHE_DIR": "off"}
        live = navworld(f"record:{snap}", env)
        assert live.returncode == 0, live.stderr
        assert server.state.count() == 1
    replay = navworld(f"replay:{snap}", {})
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout == live.stdout
    assert json.loads(replay.stdout)["text"].startswith("poi_search：关键词「西湖」，城市 杭州")
    assert "cli-key" not in live.stdout + live.stderr
    no_key = navworld("amap", {})
    assert no_key.returncode == 2 and "AMAP_MAPS_API_KEY" in no_key.stderr

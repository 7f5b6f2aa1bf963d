"""Whole episodes (``Actor.evaluate``) on the amap world: infra failures and record/replay scores.

The model is the scripted ``GroundedPlanner`` behind the local fake OpenAI endpoint; AMap is the
local fake AMap server. Both listen on 127.0.0.1 only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_amap import FakeAmap

from navworld.agents.fake import GroundedPlanner
from navworld.agents.fake_server import FakeModelServer, start_fake_server
from navworld.env.actor import Actor
from navworld.world import get_world
from navworld.world.amap.backend import AmapWorld
from navworld.world.amap.client import AmapConfig
from navworld.world.catalog import city_names

SALT = "2900"
TASK = 3


@pytest.fixture(scope="module")
def model() -> Iterator[FakeModelServer]:
    with start_fake_server({"planner": GroundedPlanner(cities=city_names())}) as server:
        yield server


def actor(world: Any) -> Actor:
    return Actor(world=world, salt=SALT, retry_backoff=0.01, call_timeout=10)


def tool_texts(result: dict[str, Any]) -> list[str]:
    return [m["content"] for m in result["extra"]["trace"] if m.get("role") == "tool"]


async def test_exhausted_keys_make_the_episode_an_infra_failure(fake: FakeAmap, model: FakeModelServer) -> None:
    world = AmapWorld(SALT, config=AmapConfig(keys=("k1", "k2"), base_url=fake.url, backoff=0.01))
    fake.state.quota_keys = {"k1"}
    fake.state.invalid_keys = {"k2"}
    result = await actor(world).evaluate("planner", model.base_url, TASK, timeout=60)
    assert result["error"] and result["error"].startswith("tool_infra")
    assert "exhausted" in result["error"] and "k1" not in result["error"] and "k2" not in result["error"]
    assert result["score"] == 0.0 and result["extra"]["valid_for_scoring"] is False
    await world.aclose()


async def test_record_then_replay_scores_identically(
    tmp_path: Path, model: FakeModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    snap = tmp_path / "snap"
    with FakeAmap() as server:
        monkeypatch.setenv("AMAP_MAPS_API_KEY", "k1,k2")
        monkeypatch.setenv("NAVWORLD_AMAP_BASE_URL", server.url)
        monkeypatch.setenv("NAVWORLD_AMAP_CACHE_DIR", "off")
        recorder = get_world(f"record:{snap}", SALT)
        live = await actor(recorder).evaluate("planner", model.base_url, TASK, timeout=60, temperature=0.0)
        await recorder.aclose()
        assert server.state.count() > 0
    assert live["error"] is None and live["extra"]["tool_calls"] > 0
    monkeypatch.delenv("AMAP_MAPS_API_KEY")
    replay = await actor(get_world(f"replay:{snap}", None)).evaluate(
        "planner", model.base_url, TASK, timeout=60, temperature=0.0
    )
    assert replay["error"] is None
    assert tool_texts(replay) == tool_texts(live)
    assert replay["score"] == live["score"]
    assert json.dumps(replay["extra"]["report"], sort_keys=True) == json.dumps(live["extra"]["report"], sort_keys=True)

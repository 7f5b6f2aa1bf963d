"""Record/replay snapshots on a stub backend (no catalog, no server needed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from navworld.core.errors import ConfigError, ToolInputError, WorldError
from navworld.core.models import City, Climate
from navworld.world.amap import is_amap_spec, make_world
from navworld.world.amap.snapshot import MANIFEST, RecordingWorld, ReplayWorld, SnapshotMiss, snapshot_request
from navworld.world.base import WorldBackend


def _city(name: str, adcode: str) -> City:
    return City(
        name=name, name_en=name, aliases=(), province="测试省", adcode=adcode, citycode="0000",
        center=(120.0, 30.0), tier=2, airports=(), stations=(), metro_lines=0, districts=(), roads=(),
        landmarks=(), specialties=(), food_themes=(), local_cuisine="", signature_dishes=(),
        seasonal_avoid=(), transport_hub=False, nearby_cities=(), is_coastal=False,
        climate=Climate(high=(10,) * 12, low=(0,) * 12, rain_days=(5,) * 12),
    )  # fmt: skip


A, B = _city("甲城", "990100"), _city("乙城", "990200")


class StubWorld:
    """Answers every call with a dict describing the call; counts calls."""

    name = "stub"

    def __init__(self, salt: str = "2900") -> None:
        self.salt = salt
        self.calls = 0
        self.fail: type[Exception] | None = None

    async def _answer(self, **kw: Any) -> dict[str, Any]:
        self.calls += 1
        if self.fail is not None:
            raise self.fail("stub failure")
        return {"echo": {k: str(v) for k, v in kw.items()}, "n": self.calls, "nested": [{"x": "1"}]}

    async def poi_search(self, keywords: str, city: City | None) -> dict[str, Any]:
        return await self._answer(keywords=keywords, city=city and city.name)

    async def around_search(self, location: Any, radius: int, keyword: str | None, city: City | None) -> dict[str, Any]:
        return await self._answer(location=location, radius=radius, keyword=keyword)

    async def direction(self, origin: Any, destination: Any, mode: str, waypoints: list[Any]) -> dict[str, Any]:
        return await self._answer(origin=origin, destination=destination, mode=mode, waypoints=waypoints)

    async def weather(self, city: City, date: str | None) -> dict[str, Any]:
        return await self._answer(city=city.name, date=date)

    async def flights(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        return await self._answer(date=date, a=from_city.name, b=to_city.name)

    async def trains(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        return await self._answer(date=date, a=from_city.name, b=to_city.name, kind="train")

    async def aclose(self) -> None:
        return None


async def _all_calls(world: Any) -> list[dict[str, Any]]:
    return [
        await world.poi_search("西湖", A),
        await world.poi_search("西湖", None),
        await world.around_search((120.1, 30.2), 500, "咖啡", A),
        await world.around_search((120.1, 30.2), 1000, "咖啡", A),
        await world.around_search((120.1000001, 30.2), 500, None, None),
        await world.direction((120.1, 30.2), (120.2, 30.3), "driving", [(120.15, 30.25)]),
        await world.direction((120.1, 30.2), (120.2, 30.3), "transit", []),
        await world.weather(A, "2025-05-02"),
        await world.weather(A, None),
        await world.flights("2025-05-01", A, B),
        await world.trains("2025-05-01", A, B),
    ]


async def test_record_then_replay_is_identical(tmp_path: Path) -> None:
    stub = StubWorld()
    rec = RecordingWorld(stub, tmp_path / "snap")
    recorded = await _all_calls(rec)
    assert rec.recorded == stub.calls == 11
    assert json.loads((tmp_path / "snap" / MANIFEST).read_text())["salt"] == "2900"

    replay = ReplayWorld(tmp_path / "snap", salt="9999")
    assert replay.salt == "2900"  # the recording's salt wins
    replayed = await _all_calls(replay)
    assert json.dumps(replayed, ensure_ascii=False) == json.dumps(recorded, ensure_ascii=False)
    assert replay.served == 11


async def test_replay_miss_is_a_clear_tool_error(tmp_path: Path) -> None:
    rec = RecordingWorld(StubWorld(), tmp_path / "snap")
    await rec.around_search((120.1, 30.2), 500, "咖啡", A)
    replay = ReplayWorld(tmp_path / "snap")
    with pytest.raises(SnapshotMiss) as err:
        await replay.around_search((120.1, 30.2), 600, "咖啡", A)  # different radius
    assert isinstance(err.value, ToolInputError)
    assert "回放快照中没有这次请求的记录" in str(err.value)
    assert "radius=600" in str(err.value)


async def test_agent_errors_are_recorded_and_infra_errors_are_not(tmp_path: Path) -> None:
    stub = StubWorld()
    rec = RecordingWorld(stub, tmp_path / "snap")
    stub.fail = ToolInputError
    with pytest.raises(ToolInputError):
        await rec.weather(A, "2025-05-01")
    stub.fail = WorldError
    with pytest.raises(WorldError):
        await rec.weather(B, "2025-05-01")
    replay = ReplayWorld(tmp_path / "snap")
    with pytest.raises(ToolInputError, match="stub failure"):
        await replay.weather(A, "2025-05-01")
    with pytest.raises(SnapshotMiss):
        await replay.weather(B, "2025-05-01")


async def test_corrupt_snapshot_file_is_a_world_error(tmp_path: Path) -> None:
    rec = RecordingWorld(StubWorld(), tmp_path / "snap")
    await rec.weather(A, None)
    (file,) = (tmp_path / "snap" / "weather").glob("*.json")
    file.write_text('{"request": ', encoding="utf-8")
    with pytest.raises(WorldError, match="unreadable"):
        await ReplayWorld(tmp_path / "snap").weather(A, None)


async def test_recording_refuses_a_different_salt(tmp_path: Path) -> None:
    RecordingWorld(StubWorld("2900"), tmp_path / "snap")
    assert not (tmp_path / "snap").exists()  # building the world writes nothing
    await RecordingWorld(StubWorld("2900"), tmp_path / "snap").weather(A, None)
    await RecordingWorld(StubWorld("2900"), tmp_path / "snap").weather(B, None)  # same salt: appending is fine
    with pytest.raises(ConfigError, match="salt"):
        RecordingWorld(StubWorld("2901"), tmp_path / "snap")


def test_snapshot_request_normalises() -> None:
    a = snapshot_request("around_search", location=(120.1, 30.2), radius=500, keyword=" 咖啡 ", city=A)
    assert a == {"method": "around_search", "city": "甲城", "keyword": "咖啡", "location": "120.100000,30.200000", "radius": 500}


def test_make_world_specs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AMAP_MAPS_API_KEY", raising=False)
    assert is_amap_spec("amap") and is_amap_spec("replay:x") and not is_amap_spec("sandbox")
    with pytest.raises(ConfigError, match="AMAP_MAPS_API_KEY"):
        make_world("amap", "2900")
    with pytest.raises(ConfigError, match="AMAP_MAPS_API_KEY"):
        make_world(f"record:{tmp_path / 'r'}", "2900")
    with pytest.raises(ConfigError, match="does not exist"):
        make_world(f"replay:{tmp_path / 'missing'}", "2900")
    with pytest.raises(ConfigError, match="directory"):
        make_world("replay:", "2900")
    with pytest.raises(ConfigError, match="unknown world"):
        make_world("moon", "2900")
    (tmp_path / "snap").mkdir()
    replay = make_world(f"REPLAY:{tmp_path / 'snap'}", "2900")
    assert isinstance(replay, ReplayWorld) and isinstance(replay, WorldBackend)
    assert isinstance(RecordingWorld(StubWorld(), tmp_path / "rec"), WorldBackend)

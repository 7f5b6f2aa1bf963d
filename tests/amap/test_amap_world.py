"""``AmapWorld`` against the local fake AMap server: requests sent and data shapes returned."""

from __future__ import annotations

import pytest
from amap_helpers import KEYS, shape
from fake_amap import FakeAmap

from navworld.core.errors import BackendUnavailable, ToolInputError, WorldError
from navworld.world.amap.backend import AmapWorld
from navworld.world.amap.cities import city_from_amap, nearest_city
from navworld.world.amap.client import AmapConfig
from navworld.world.base import WorldBackend
from navworld.world.catalog import get_city
from navworld.world.sandbox import SandboxWorld

SALT = "2900"
CENTRE = (120.155070, 30.274085)
EAST = (120.200000, 30.250000)


@pytest.fixture
def world(fake: FakeAmap) -> AmapWorld:
    return AmapWorld(SALT, config=AmapConfig(keys=KEYS, base_url=fake.url, backoff=0.01, retries=2))


@pytest.fixture
def sandbox() -> SandboxWorld:
    return SandboxWorld(SALT)


def last_params(fake: FakeAmap) -> dict[str, str]:
    params = dict(fake.state.requests[-1]["params"])
    params.pop("key")
    return params


async def test_poi_search_request_and_shape(world: AmapWorld, sandbox: SandboxWorld, fake: FakeAmap) -> None:
    assert isinstance(world, WorldBackend) and world.name == "amap" and world.salt == SALT
    hz = get_city("杭州")
    data = await world.poi_search("西湖", hz)
    assert fake.state.requests[-1]["path"] == "/v5/place/text"
    assert last_params(fake) == {
        "city_limit": "true", "keywords": "西湖", "page_num": "1", "page_size": "10",
        "region": "330100", "show_fields": "business",
    }  # fmt: skip
    assert shape(data) == shape(await sandbox.poi_search("西湖", hz))
    assert data["count"] == "10"
    await world.poi_search("西湖", None)
    assert "region" not in last_params(fake)
    empty = await world.poi_search("无结果", hz)
    assert empty == {"count": "0", "pois": []}
    with pytest.raises(ToolInputError):
        await world.poi_search("  ", hz)


async def test_around_search_request_and_shape(world: AmapWorld, sandbox: SandboxWorld, fake: FakeAmap) -> None:
    data = await world.around_search(CENTRE, 800, "餐厅", None)
    assert last_params(fake) == {
        "keywords": "餐厅", "location": "120.155070,30.274085", "page_num": "1", "page_size": "10",
        "radius": "800", "show_fields": "business", "sortrule": "distance",
    }  # fmt: skip
    distances = [int(p["distance"]) for p in data["pois"]]
    assert distances == sorted(distances) and max(distances) <= 800
    assert shape(data) == shape(await sandbox.around_search(CENTRE, 800, "餐厅", None))
    await world.around_search(CENTRE, 800, None, None)
    assert "keywords" not in last_params(fake)
    with pytest.raises(ToolInputError, match="radius"):
        await world.around_search(CENTRE, 60000, None, None)


@pytest.mark.parametrize("mode", ["driving", "walking", "bicycling"])
async def test_direction_request_and_shape(world: AmapWorld, sandbox: SandboxWorld, fake: FakeAmap, mode: str) -> None:
    data = await world.direction(CENTRE, EAST, mode, [])
    assert fake.state.requests[-1]["path"] == f"/v5/direction/{mode}"
    params = last_params(fake)
    assert params["show_fields"] == "cost"
    assert (params["origin"], params["destination"]) == ("120.155070,30.274085", "120.200000,30.250000")
    assert shape(data) == shape(await sandbox.direction(CENTRE, EAST, mode, []))
    path = data["route"]["paths"][0]
    assert int(path["duration"]) > 0 and int(path["distance"]) > 0


async def test_driving_waypoints(world: AmapWorld, fake: FakeAmap) -> None:
    await world.direction(CENTRE, EAST, "driving", [(120.17, 30.26), (120.18, 30.255)])
    assert last_params(fake)["waypoints"] == "120.170000,30.260000;120.180000,30.255000"
    with pytest.raises(ToolInputError, match="途经点"):
        await world.direction(CENTRE, EAST, "driving", [(120.17, 30.26)] * 17)


async def test_transit_uses_catalog_citycodes(world: AmapWorld, sandbox: SandboxWorld, fake: FakeAmap) -> None:
    data = await world.direction(CENTRE, EAST, "transit", [])
    params = last_params(fake)
    assert fake.state.requests[-1]["path"] == "/v5/direction/transit/integrated"
    assert (params["city1"], params["city2"]) == ("0571", "0571")
    assert shape(data) == shape(await sandbox.direction(CENTRE, EAST, "transit", []))
    assert data["route"]["transits"][0]["segments"][1]["bus"]["buslines"][0]["name"].startswith("地铁")


async def test_short_transit_is_a_walk_like_the_sandbox(world: AmapWorld, sandbox: SandboxWorld, fake: FakeAmap) -> None:
    near = (120.156000, 30.274500)
    data = await world.direction(CENTRE, near, "transit", [])
    assert [r["path"] for r in fake.state.requests] == ["/v5/direction/transit/integrated", "/v5/direction/walking"]
    plan = data["route"]["transits"][0]
    assert plan["cost"] == "0" and [list(s) for s in plan["segments"]] == [["walking"]]
    assert shape(data) == shape(await sandbox.direction(CENTRE, near, "transit", []))


async def test_route_errors_are_tool_errors(world: AmapWorld) -> None:
    with pytest.raises(ToolInputError, match="OVER_DIRECTION_RANGE"):
        await world.direction((116.4, 39.9), (121.47, 31.23), "walking", [])
    with pytest.raises(ToolInputError, match="不支持"):
        await world.direction(CENTRE, EAST, "electrobike", [])


async def test_weather_request_date_selection_and_shape(
    world: AmapWorld, sandbox: SandboxWorld, fake: FakeAmap
) -> None:
    hz = get_city("杭州")
    data = await world.weather(hz, None)
    assert last_params(fake) == {"city": "330100", "extensions": "all"}
    fc = data["forecasts"][0]
    assert fc["province"] == "浙江省"  # the catalog's province, AMap says 浙江
    assert [c["date"] for c in fc["casts"]] == ["2025-05-01", "2025-05-02", "2025-05-03", "2025-05-04"]
    assert shape(data) == shape(await sandbox.weather(hz, "2025-05-01"))
    later = await world.weather(hz, "2025-05-03")
    assert [c["date"] for c in later["forecasts"][0]["casts"]] == ["2025-05-03", "2025-05-04"]
    beyond = await world.weather(hz, "2025-07-01")  # AMap only forecasts today + 3 days
    assert len(beyond["forecasts"][0]["casts"]) == 4
    with pytest.raises(ToolInputError, match="日期"):
        await world.weather(hz, "2025-13-01")


async def test_flights_and_trains_come_from_the_sandbox(world: AmapWorld, sandbox: SandboxWorld, fake: FakeAmap) -> None:
    bj, hz = get_city("北京"), get_city("杭州")
    assert await world.flights("2025-05-02", bj, hz) == await sandbox.flights("2025-05-02", bj, hz)
    assert await world.trains("2025-05-02", bj, hz) == await sandbox.trains("2025-05-02", bj, hz)
    assert fake.state.count() == 0


async def test_key_rotation_and_exhaustion_through_the_world(world: AmapWorld, fake: FakeAmap) -> None:
    hz = get_city("杭州")
    fake.state.quota_keys = {"key-one"}
    await world.weather(hz, None)
    await world.poi_search("西湖", hz)
    assert "key-one" not in [r["params"]["key"] for r in fake.state.requests[1:]]
    fake.state.quota_keys = set(KEYS)
    fake.state.invalid_keys = set(KEYS)
    with pytest.raises(BackendUnavailable):
        await world.poi_search("灵隐寺", hz)


async def test_malformed_payload_is_a_world_error(world: AmapWorld, fake: FakeAmap) -> None:
    fake.state.malformed = 10
    with pytest.raises(WorldError, match="malformed JSON"):
        await world.poi_search("西湖", get_city("杭州"))


def test_city_resolution_from_amap_names_and_adcodes() -> None:
    assert city_from_amap("杭州市").name == "杭州"  # type: ignore[union-attr]
    assert city_from_amap(None, "330106").name == "杭州"  # type: ignore[union-attr]  # a district
    assert city_from_amap(None, "110105").name == "北京"  # type: ignore[union-attr]  # municipality district
    assert city_from_amap("", "") is None
    assert nearest_city((121.48, 31.23)).name == "上海"

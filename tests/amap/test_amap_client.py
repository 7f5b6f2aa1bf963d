"""The shared AMap HTTP client: key pool, retries, error mapping, timeouts, key redaction."""

from __future__ import annotations

import asyncio
import logging

import pytest
from amap_helpers import KEYS
from fake_amap import FakeAmap

from navworld.core.errors import BackendUnavailable, ConfigError, ToolInputError, WorldError
from navworld.world.amap.client import AmapClient, AmapConfig, decode_payload
from navworld.world.amap.keys import KeyPool, classify_infocode, parse_keys, redact

WEATHER = ("/v3/weather/weatherInfo", {"city": "330100", "extensions": "all"})


def make_client(fake: FakeAmap, **overrides: object) -> AmapClient:
    values: dict[str, object] = {"keys": KEYS, "base_url": fake.url, "backoff": 0.01, "timeout": 5.0}
    values.update(overrides)
    return AmapClient(AmapConfig(**values))  # type: ignore[arg-type]


def keys_used(fake: FakeAmap) -> list[str]:
    return [r["params"]["key"] for r in fake.state.requests]


async def test_success_uses_one_pooled_client_and_round_robin_keys(fake: FakeAmap) -> None:
    client = make_client(fake)
    first = await client.get(*WEATHER)
    http = client._client()
    for _ in range(2):
        assert await client.get(*WEATHER) == first
    assert client._client() is http  # one connection pool, not a client per call
    assert keys_used(fake) == list(KEYS)
    assert first["forecasts"][0]["adcode"] == "330100"
    await client.aclose()


async def test_quota_error_retires_the_key_and_moves_on(fake: FakeAmap) -> None:
    fake.state.quota_keys = {"key-one"}
    client = make_client(fake)
    payload = await client.get(*WEATHER)
    assert payload["status"] == "1"
    assert keys_used(fake) == ["key-one", "key-two"]
    for _ in range(4):
        await client.get(*WEATHER)
    assert "key-one" not in keys_used(fake)[2:]
    assert client.pool.active == ["key-two", "key-three"]
    await client.aclose()


async def test_invalid_key_is_retired_for_good(fake: FakeAmap) -> None:
    fake.state.invalid_keys = {"key-two"}
    client = make_client(fake)
    for _ in range(5):
        await client.get(*WEATHER)
    assert keys_used(fake).count("key-two") == 1
    assert client.pool.active == ["key-one", "key-three"]
    await client.aclose()


async def test_all_keys_exhausted_is_backend_unavailable_without_leaking_keys(fake: FakeAmap) -> None:
    fake.state.quota_keys = {"key-one", "key-three"}
    fake.state.invalid_keys = {"key-two"}
    client = make_client(fake)
    with pytest.raises(BackendUnavailable) as err:
        await client.get(*WEATHER)
    assert "exhausted" in str(err.value)
    assert not any(k in str(err.value) for k in KEYS)
    assert fake.state.count() == 3
    with pytest.raises(BackendUnavailable):  # stays unavailable without hammering the service
        await client.get(*WEATHER)
    assert fake.state.count() == 3
    await client.aclose()


@pytest.mark.parametrize("switch", ["fail_5xx", "fail_429", "rate_limited", "malformed", "truncated"])
async def test_transient_failures_are_retried(fake: FakeAmap, switch: str) -> None:
    setattr(fake.state, switch, 2)
    client = make_client(fake)
    payload = await client.get(*WEATHER)
    assert payload["status"] == "1"
    assert fake.state.count() == 3
    assert client.pool.active == list(KEYS)  # transient errors never retire keys
    await client.aclose()


@pytest.mark.parametrize(
    ("switch", "words"),
    [("malformed", "malformed JSON"), ("truncated", "truncated JSON"), ("fail_5xx", "HTTP 502")],
)
async def test_persistent_failures_become_readable_world_errors(fake: FakeAmap, switch: str, words: str) -> None:
    setattr(fake.state, switch, 100)
    client = make_client(fake, retries=2)
    with pytest.raises(WorldError) as err:
        await client.get(*WEATHER)
    assert not isinstance(err.value, BackendUnavailable)
    assert words in str(err.value)
    assert "/v3/weather/weatherInfo" in str(err.value)
    assert fake.state.count() == 3
    await client.aclose()


async def test_slow_responses_time_out_with_a_world_error(fake: FakeAmap) -> None:
    fake.state.delay = 1.0
    client = make_client(fake, timeout=0.2, retries=1)
    with pytest.raises(WorldError, match="timeout"):
        await client.get(*WEATHER)
    assert fake.state.count() == 2
    await client.aclose()


async def test_parameter_errors_are_tool_input_errors_and_not_retried(fake: FakeAmap) -> None:
    client = make_client(fake)
    far = {"origin": "116.400000,39.900000", "destination": "121.470000,31.230000"}
    with pytest.raises(ToolInputError, match="OVER_DIRECTION_RANGE"):
        await client.get("/v5/direction/walking", far)
    assert fake.state.count() == 1
    await client.aclose()


async def test_client_survives_a_new_event_loop(fake: FakeAmap) -> None:
    client = make_client(fake)
    await client.get(*WEATHER)

    def other_loop() -> dict[str, object]:
        return asyncio.run(client.get(*WEATHER))

    result = await asyncio.to_thread(other_loop)
    assert result["status"] == "1"
    await client.aclose()


async def test_keys_never_reach_the_logs(fake: FakeAmap, caplog: pytest.LogCaptureFixture) -> None:
    fake.state.quota_keys = {"key-one"}
    fake.state.fail_5xx = 1
    client = make_client(fake)
    with caplog.at_level(logging.DEBUG):
        await client.get(*WEATHER)
    assert caplog.records
    assert any("key=***" in r.getMessage() for r in caplog.records if r.name == "httpx2")
    assert not any(k in r.getMessage() for r in caplog.records for k in KEYS)
    await client.aclose()


def test_no_key_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="AMAP_MAPS_API_KEY"):
        AmapClient(AmapConfig(keys=()))


def test_config_from_env() -> None:
    env = {
        "AMAP_MAPS_API_KEY": " a, b ,,a ",
        "NAVWORLD_AMAP_BASE_URL": "http://127.0.0.1:9/",
        "NAVWORLD_AMAP_TIMEOUT": "2.5",
        "NAVWORLD_AMAP_RETRIES": "1",
    }
    cfg = AmapConfig.from_env(env)
    assert cfg.keys == ("a", "b")
    assert cfg.base_url == "http://127.0.0.1:9"
    assert (cfg.timeout, cfg.retries) == (2.5, 1)
    assert AmapConfig.from_env({}).base_url == "https://restapi.amap.com"
    with pytest.raises(ConfigError):
        AmapConfig.from_env({"NAVWORLD_AMAP_TIMEOUT": "soon"})
    with pytest.raises(ConfigError):
        AmapConfig.from_env({"NAVWORLD_AMAP_BASE_URL": "restapi.amap.com"})


def test_key_pool_revives_daily_quota_keys_after_beijing_midnight() -> None:
    now = [1_700_000_000.0]  # 2023-11-14 22:13:20 UTC = 06:13 Beijing
    pool = KeyPool(["a", "b"], clock=lambda: now[0])
    pool.retire("a", "quota", daily=True)
    pool.retire("b", "invalid", daily=False)
    with pytest.raises(BackendUnavailable):
        pool.acquire()
    now[0] += 24 * 3600
    assert pool.acquire() == "a"
    assert pool.active == ["a"]


def test_helpers() -> None:
    assert parse_keys("k1, k2;k3  k1") == ["k1", "k2", "k3"]
    assert parse_keys(None) == []
    assert redact("GET /v3/x?city=1&key=SECRET&a=b") == "GET /v3/x?city=1&key=***&a=b"
    assert classify_infocode("10044") == "quota"
    assert classify_infocode("10001") == "bad_key"
    assert classify_infocode("10021") == "rate_limit"
    assert classify_infocode("30001") == "engine"
    assert classify_infocode("20802") == "input"
    with pytest.raises(WorldError, match="truncated"):
        decode_payload(b'{"status": "1", "pois": [')
    with pytest.raises(WorldError, match="truncated"):
        decode_payload('{"status": "1", "name": "西湖", "pois": [1,'.encode())
    with pytest.raises(WorldError, match="not UTF-8"):
        decode_payload(b'{"status": "\xff"}')
    with pytest.raises(WorldError, match="malformed"):
        decode_payload(b'{"status": "1"} trailing')
    with pytest.raises(WorldError, match="empty"):
        decode_payload(b"  ")
    with pytest.raises(WorldError, match="type list"):
        decode_payload(b"[1, 2]")

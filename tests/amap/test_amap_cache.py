"""The AMap disk cache: exact request keys, epoch-aligned TTL, errors never cached."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from amap_helpers import KEYS
from fake_amap import FakeAmap

from navworld.core.errors import ToolInputError, WorldError
from navworld.core.seeding import WEEK_SECONDS
from navworld.world.amap.cache import (
    ResponseCache,
    default_cache_dir,
    epoch_ttl,
    normalize_params,
    request_key,
)
from navworld.world.amap.client import AmapClient, AmapConfig

AROUND = "/v5/place/around"


def make_client(fake: FakeAmap, cache: ResponseCache) -> AmapClient:
    return AmapClient(AmapConfig(keys=KEYS, base_url=fake.url, backoff=0.01), cache=cache)


def around(location: str, radius: int, keywords: str = "咖啡") -> dict[str, object]:
    return {"location": location, "radius": radius, "keywords": keywords, "show_fields": "business"}


def test_request_key_is_exact_and_keyless() -> None:
    a = request_key(AROUND, {"radius": 500, "location": "120.1,30.2", "key": "SECRET", "keywords": ""})
    assert a == "/v5/place/around?location=120.1,30.2&radius=500"
    assert "SECRET" not in a
    assert request_key(AROUND, {"location": "120.1,30.2", "radius": "500"}) == a
    assert request_key(AROUND, {"location": "120.1,30.2", "radius": 5000}) != a
    assert request_key(AROUND, {"location": "120.1,30.20001", "radius": 500}) != a
    assert request_key("/v5/place/text", {"location": "120.1,30.2", "radius": 500}) != a
    assert normalize_params({"b": True, "a": None, "c": " x "}) == {"b": "true", "c": "x"}


async def test_cache_never_merges_different_arguments(fake: FakeAmap, tmp_path: Path) -> None:
    client = make_client(fake, ResponseCache(tmp_path / "c", salt="2900"))
    here = "120.155070,30.274085"
    small = await client.get(AROUND, around(here, 300))
    large = await client.get(AROUND, around(here, 3000))
    moved = await client.get(AROUND, around("120.160000,30.274085", 300))
    other_kw = await client.get(AROUND, around(here, 300, "酒店"))
    assert fake.state.count() == 4
    assert len({str(x) for x in (small, large, moved, other_kw)}) == 4
    assert max(int(p["distance"]) for p in small["pois"]) <= 300
    assert max(int(p["distance"]) for p in large["pois"]) > 300
    # The same request again is served from the cache, with the same answer.
    assert await client.get(AROUND, around(here, 300)) == small
    assert await client.get(AROUND, around(here, 3000)) == large
    assert fake.state.count() == 4
    assert client.cache is not None and client.cache.hits == 2
    await client.aclose()


async def test_cache_persists_on_disk_across_clients(fake: FakeAmap, tmp_path: Path) -> None:
    first = make_client(fake, ResponseCache(tmp_path / "c", salt="2900"))
    answer = await first.get("/v3/weather/weatherInfo", {"city": "330100", "extensions": "all"})
    await first.aclose()
    second = make_client(fake, ResponseCache(tmp_path / "c", salt="2900"))
    assert await second.get("/v3/weather/weatherInfo", {"city": "330100", "extensions": "all"}) == answer
    assert fake.state.count() == 1
    await second.aclose()


async def test_errors_are_never_cached(fake: FakeAmap, tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c", salt="2900")
    client = make_client(fake, cache)
    far = {"origin": "116.400000,39.900000", "destination": "121.470000,31.230000"}
    for _ in range(2):
        with pytest.raises(ToolInputError):
            await client.get("/v5/direction/walking", far)
    assert fake.state.count() == 2
    fake.state.truncated = 1  # a retried transient failure leaves only the good answer behind
    await client.get("/v3/weather/weatherInfo", {"city": "330100", "extensions": "all"})
    assert len(cache) == 1
    cache.set("/x", {}, {"status": "0", "info": "INVALID_USER_KEY", "infocode": "10001"})
    assert cache.get("/x", {}) is None
    await client.aclose()


async def test_payloads_the_converter_rejects_are_not_cached(fake: FakeAmap, tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c", salt="2900")
    client = make_client(fake, cache)

    def convert(payload: dict[str, object]) -> int:
        if not isinstance(payload.get("pois"), list):
            raise WorldError("unexpected structure")
        return len(payload["pois"])  # type: ignore[arg-type]

    fake.state.odd_shape = 1
    with pytest.raises(WorldError):
        await client.fetch(AROUND, around("120.155070,30.274085", 500), convert)
    assert len(cache) == 0
    assert await client.fetch(AROUND, around("120.155070,30.274085", 500), convert) > 0
    assert len(cache) == 1 and fake.state.count() == 2
    await client.aclose()


async def test_concurrent_identical_requests_share_one_exchange(fake: FakeAmap, tmp_path: Path) -> None:
    client = make_client(fake, ResponseCache(tmp_path / "c", salt="2900"))
    fake.state.delay = 0.2
    same = [client.get(AROUND, around("120.155070,30.274085", 500)) for _ in range(5)]
    other = client.get(AROUND, around("120.155070,30.274085", 501))
    results = await asyncio.gather(*same, other)
    assert all(r == results[0] for r in results[:5]) and results[5] != results[0]
    assert fake.state.count() == 2
    await client.aclose()


def test_ttl_is_aligned_to_the_salt_week() -> None:
    week = 2900
    start = week * WEEK_SECONDS
    assert epoch_ttl(str(week), now=start + 100) == WEEK_SECONDS - 100
    assert epoch_ttl(str(week), now=start + WEEK_SECONDS - 10) == 86400  # at least one day
    assert epoch_ttl(str(week - 5), now=start) == 86400  # an old salt's week is over
    now = start + 3 * 86400
    assert epoch_ttl("custom-salt", now=now) == WEEK_SECONDS - 3 * 86400  # current week
    assert epoch_ttl(None, now=now) == epoch_ttl(str(week), now=now)


def test_default_cache_dir(tmp_path: Path) -> None:
    assert default_cache_dir({"NAVWORLD_AMAP_CACHE_DIR": "off"}) is None
    assert default_cache_dir({"NAVWORLD_AMAP_CACHE_DIR": str(tmp_path)}) == tmp_path
    assert default_cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "navworld" / "amap"

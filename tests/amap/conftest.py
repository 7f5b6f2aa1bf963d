"""Fixtures of the AMap backend tests: a local fake AMap server and env pointing at it.

No test here touches the network: every request goes to 127.0.0.1.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_amap import FakeAmap

KEYS = ("key-one", "key-two", "key-three")


@pytest.fixture(scope="module")
def fake_server() -> Iterator[FakeAmap]:
    """One fake AMap server per test module."""
    with FakeAmap() as fake:
        yield fake


@pytest.fixture
def fake(fake_server: FakeAmap) -> Iterator[FakeAmap]:
    """The module's fake server with every switch and the request log reset."""
    fake_server.state.reset()
    yield fake_server
    fake_server.state.reset()


@pytest.fixture
def amap_env(fake: FakeAmap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeAmap:
    """Environment of an ``amap`` world talking to the fake: key pool, base URL, cache dir, fast retries."""
    monkeypatch.setenv("AMAP_MAPS_API_KEY", ",".join(KEYS))
    monkeypatch.setenv("NAVWORLD_AMAP_BASE_URL", fake.url)
    monkeypatch.setenv("NAVWORLD_AMAP_CACHE_DIR", str(tmp_path / "amap-cache"))
    monkeypatch.setenv("NAVWORLD_AMAP_TIMEOUT", "5")
    monkeypatch.setenv("NAVWORLD_AMAP_BACKOFF", "0.01")
    monkeypatch.setenv("NAVWORLD_SALT", "2900")
    return fake

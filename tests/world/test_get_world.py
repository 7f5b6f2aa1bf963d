"""``navworld.world.get_world`` and the WorldBackend protocol."""

from __future__ import annotations

import pytest

from navworld.core.errors import ConfigError
from navworld.world import get_world
from navworld.world.base import WorldBackend
from navworld.world.sandbox import SandboxWorld


def test_default_is_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NAVWORLD_WORLD", raising=False)
    w = get_world(salt="abc")
    assert isinstance(w, SandboxWorld) and isinstance(w, WorldBackend)
    assert w.name == "sandbox" and w.salt == "abc"


def test_env_and_salt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NAVWORLD_WORLD", "sandbox")
    monkeypatch.setenv("NAVWORLD_SALT", "from-env")
    assert get_world().salt == "from-env"


@pytest.mark.parametrize("spec", ["bogus", "record", "replay", "mars:DIR"])
def test_bad_specs(spec: str) -> None:
    with pytest.raises(ConfigError):
        get_world(spec)


async def test_data_copies_are_independent(fixture_world: SandboxWorld) -> None:
    city = fixture_world.city("杭州")
    first = await fixture_world.poi_search("西湖", city)
    first["pois"][0]["business"]["cost"] = "999"
    first["pois"][0]["name"] = "改掉"
    again = await fixture_world.poi_search("西湖", city)
    assert again["pois"][0]["name"] == "西湖" and again["pois"][0]["business"]["cost"] == "0"

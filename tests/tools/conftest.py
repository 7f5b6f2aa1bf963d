"""Fixtures of the tool tests: the tiny fixture catalog and the real catalog (when present)."""

from __future__ import annotations

from pathlib import Path

import pytest

from navworld.world.catalog import CITIES_DIR, Catalog
from navworld.world.sandbox import SandboxWorld

FIXTURE_CITIES = Path(__file__).parent.parent / "world" / "fixtures" / "cities"


@pytest.fixture(scope="session")
def fixture_catalog() -> Catalog:
    """Three hand-written cities (杭州, 无锡, 苏州) independent of the real catalog."""
    return Catalog(FIXTURE_CITIES)


@pytest.fixture(scope="session")
def fixture_world(fixture_catalog: Catalog) -> SandboxWorld:
    """A sandbox over the fixture catalog."""
    return SandboxWorld(salt="test", catalog=fixture_catalog)


@pytest.fixture(scope="session")
def real_catalog() -> Catalog:
    """The package's real city catalog (skips until the data files exist)."""
    cat = Catalog(CITIES_DIR)
    if not cat.all_cities():
        pytest.skip("the real city catalog (world/data/cities) is not there yet")
    return cat


@pytest.fixture(scope="session")
def world(real_catalog: Catalog) -> SandboxWorld:
    """A sandbox over the real catalog with a fixed salt."""
    return SandboxWorld(salt="test", catalog=real_catalog)

"""Fixtures of the tool tests: the same catalogs and worlds as the world tests."""

from tests.world.conftest import fixture_catalog, fixture_world, real_catalog, world

__all__ = ["fixture_catalog", "fixture_world", "real_catalog", "world"]

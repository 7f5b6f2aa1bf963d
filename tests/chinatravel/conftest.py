"""Fixtures: the synthetic ChinaTravel database (their exact layout) built once, its world and queries."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.chinatravel.synthetic_db import build_database, write_queries

SALT = "ct-tests"


@pytest.fixture(scope="session")
def db_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ChinaTravel ``database`` folder with 3 cities (read-only for the tests)."""
    return build_database(tmp_path_factory.mktemp("chinatravel") / "database")


@pytest.fixture(scope="session")
def world(db_dir: Path) -> Any:
    """The ``chinatravel:DIR`` world of the synthetic database."""
    from navworld.world import get_world

    return get_world(f"chinatravel:{db_dir}", SALT)


@pytest.fixture(scope="session")
def queries_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The synthetic queries in ChinaTravel's JSON format."""
    return write_queries(tmp_path_factory.mktemp("queries") / "queries.json")


@pytest.fixture(scope="session")
def problems(world: Any, queries_file: Path) -> list[Any]:
    """The navworld problems of the synthetic queries."""
    from navworld.tasks.chinatravel import query_problems

    found, errors = query_problems(queries_file, world, SALT)
    assert not errors
    return found


@pytest.fixture(scope="session")
def runs(world: Any, problems: list[Any]) -> list[Any]:
    """The reference planner's episode of every query."""
    from navworld.agents.reference import ReferencePlanner

    return [asyncio.run(ReferencePlanner().run(p, world, salt=SALT)) for p in problems]

"""Fixtures of the integration tests: the reference scores of ``navworld eval`` and a served reference agent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from navworld.agents.fake_server import ServerThread
from navworld.server.app import create_app
from navworld.world.sandbox import SandboxWorld

from .support import SALT, SEVEN, reference_eval


@pytest.fixture(scope="session")
def eval_rows(tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict[str, Any]]:
    """``navworld eval --agent reference`` on the seven tasks (one per type): rows by task id."""
    return reference_eval(SEVEN, tmp_path_factory.mktemp("eval") / "run")


@pytest.fixture(scope="session")
def eval_scores(eval_rows: dict[int, dict[str, Any]]) -> dict[int, float]:
    """The final scores (0–100) of that evaluation by task id."""
    return {t: float(r["score"]) for t, r in eval_rows.items()}


@pytest.fixture(scope="session")
def world() -> SandboxWorld:
    """The sandbox world of the tests' salt."""
    return SandboxWorld(SALT)


@pytest.fixture(scope="session")
def reference_server(world: SandboxWorld) -> Iterator[ServerThread]:
    """``navworld serve``'s app (reference agent on /v1) under uvicorn on 127.0.0.1."""
    with ServerThread(create_app(world=world, salt=SALT)) as thread:
        yield thread


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    """A fresh folder for a test's outputs."""
    return tmp_path

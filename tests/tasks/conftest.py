"""Shared fixtures of the task-generator tests: one world, one generator, tasks 0..9,999."""

from __future__ import annotations

import pytest

from navworld.core.problem import Problem
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld

SALT = "tasks-test"
FULL_RANGE = 10_000


@pytest.fixture(scope="session")
def world() -> SandboxWorld:
    """The sandbox world every task test reads prices from (fixed salt)."""
    return SandboxWorld(salt=SALT)


@pytest.fixture(scope="session")
def gen(world: SandboxWorld) -> ProblemGenerator:
    """A generator over :func:`world`."""
    return ProblemGenerator(world)


@pytest.fixture(scope="session")
def problems(gen: ProblemGenerator) -> list[Problem]:
    """Tasks 0..9,999 in Chinese (generated once per session)."""
    return [gen.generate(i) for i in range(FULL_RANGE)]

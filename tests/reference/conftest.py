"""Shared fixtures of the reference-planner tests: one sandbox world with a fixed salt."""

from __future__ import annotations

from typing import Any

import pytest

from navworld.core.problem import Problem
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld

SALT = "reference-tests"


def with_marker(problem: Problem) -> Problem:
    """The problem with its task marker line (added when the generator does not write one yet)."""
    marker = f"任务编号：T{problem.task_id}" if problem.lang == "zh" else f"Task ID: T{problem.task_id}"
    if marker in problem.prompt:
        return problem
    return problem.model_copy(update={"prompt": problem.prompt + "\n" + marker})


@pytest.fixture(scope="session")
def world() -> SandboxWorld:
    """The sandbox world every reference test plans in."""
    return SandboxWorld(SALT)


@pytest.fixture(scope="session")
def generator(world: SandboxWorld) -> ProblemGenerator:
    """The problem generator on that world."""
    return ProblemGenerator(world)


@pytest.fixture(scope="session")
def problems(generator: ProblemGenerator) -> dict[tuple[int, str], Problem]:
    """A cache of generated problems keyed by (task id, lang)."""
    return {}


@pytest.fixture
def problem_of(generator: ProblemGenerator, problems: dict[tuple[int, str], Problem]) -> Any:
    """``problem_of(task_id, lang="zh")`` → the generated problem (cached)."""

    def get(task_id: int, lang: str = "zh") -> Problem:
        key = (task_id, lang)
        if key not in problems:
            problems[key] = generator.generate(task_id, lang=lang)
        return problems[key]

    return get

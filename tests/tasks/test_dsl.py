"""Every constraint and preference program validates, and a floor plan satisfies every constraint."""

from __future__ import annotations

import pytest

from navworld.core.problem import Problem
from navworld.dsl import DSLContext, run_constraint, run_preference, validate
from navworld.tasks.compile import PREFERENCE_PROGRAMS
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld

from .floor_plan import build_floor_plan, plan_cost


def test_every_program_of_tasks_0_to_9999_validates(problems: list[Problem]) -> None:
    sources = {s for p in problems for s in p.hard_logic}
    prefs = {s for p in problems for s in p.preferences}
    for src in sources:
        assert validate(src).kind == "constraint"
    for src in prefs:
        prog = validate(src)
        assert prog.kind == "preference" and prog.sense in ("maximize", "minimize")


def test_preference_names_are_unique_per_problem(problems: list[Problem]) -> None:
    for p in problems[:2000]:
        names = [validate(s).objective for s in p.preferences]
        assert len(names) == len(set(names))


def test_all_preference_programs_validate() -> None:
    for src in PREFERENCE_PROGRAMS.values():
        validate(src)


def test_a_floor_plan_meets_every_constraint_within_budget(
    problems: list[Problem], gen: ProblemGenerator, world: SandboxWorld
) -> None:
    for p in problems[:700]:
        plan = build_floor_plan(p, gen)
        assert plan_cost(plan) <= p.budget, p.task_id
        ctx = DSLContext.for_problem(world, p)
        for program, gloss in zip(p.hard_logic, p.hard_logic_nl, strict=True):
            assert run_constraint(program, plan, ctx), (p.task_id, gloss)
        for program in p.preferences:
            assert run_preference(program, plan, ctx) is not None, (p.task_id, program.splitlines()[0])


@pytest.mark.parametrize("tid", [0, 1, 2, 3, 4, 5, 6])
def test_an_empty_plan_fails_the_budget_free_requirements(tid: int, gen: ProblemGenerator, world: SandboxWorld) -> None:
    """Programs really check something: an empty itinerary fails the days requirement."""
    p = gen.generate(tid)
    plan = {"people_number": p.group_size, "start_city": p.origin_city, "target_city": p.destination_city, "itinerary": []}
    ctx = DSLContext.for_problem(world, p)
    results = [run_constraint(src, plan, ctx) for src in p.hard_logic]
    assert results[0] is True  # an empty plan costs nothing
    assert results[1] is False  # but has no days

"""Second attack round (issue 13): the step-reward farm, the judge attack, and the bookkeeping of
the attacks s2 does not hold yet (``known_open.KNOWN_OPEN``, ``round2_episodes.OPEN_FARMS``; both empty
since the second round's fixes).

The code-score attacks of this round are in ``ATTACKS`` and asserted by ``test_attacks.py``.
"""

from __future__ import annotations

import asyncio

import pytest

from navworld.scoring.topic import resolve_name

from .attacks import ATTACKS
from .context import TASKS, TaskContext, task_context
from .known_open import KNOWN_OPEN
from .round2_episodes import FARM_STEPS, OPEN_FARMS, keyword_echo_leaks
from .steps import play, step_rewards
from .test_attacks import ONE_PER_TYPE, _tid

ORIGIN_TASKS = tuple(t for t in TASKS if t % 7 in (0, 2, 5))
"""The tasks with an origin city (intercity, hybrid, business)."""


def _farm(name: str, ctx: TaskContext) -> list[float]:
    return [float(r["reward"]) for r in asyncio.run(play(ctx, FARM_STEPS[name](ctx)))]


def _farm_case(name: str, t: int) -> object:
    marks = (
        (pytest.mark.skip(reason=f"known open under s2: {OPEN_FARMS[name].measured}"),)
        if name in OPEN_FARMS
        else ()
    )
    return pytest.param(name, t, id=f"{name}-{_tid(t)}", marks=marks)


def _on_task_part(ctx: TaskContext, steps: list[list[tuple[str, dict]]]) -> list[list[tuple[str, dict]]]:
    """The farm's calls that are real work for this trip: the destination hotel search and the
    outbound/return searches (every call about the origin city dropped)."""
    origin = resolve_name(ctx.problem.origin_city)
    kept = [
        [
            (n, a)
            for n, a in step
            if n in ("search_flights", "search_train_tickets")
            or (n != "direction" and resolve_name(str(a.get("region") or a.get("city") or "")) != origin)
        ]
        for step in steps
    ]
    return [step for step in kept if step]


@pytest.mark.parametrize(("name", "task_id"), [_farm_case(n, t) for n in FARM_STEPS for t in ORIGIN_TASKS])
def test_off_task_farm_earns_less_than_the_honest_episode(name: str, task_id: int) -> None:
    ctx = task_context(task_id)
    farm, honest = _farm(name, ctx), step_rewards("honest", ctx)
    assert sum(farm) <= sum(honest) + 1e-6, (name, sum(farm), sum(honest))
    # the origin-city calls add nothing: the farm earns what its on-task calls earn alone
    steps = FARM_STEPS[name](ctx)
    on_task = [float(r["reward"]) for r in asyncio.run(play(ctx, _on_task_part(ctx, steps)))]
    assert sum(farm) <= sum(on_task) + 1e-6, (name, farm, on_task)


@pytest.mark.parametrize("name", list(FARM_STEPS))
def test_farm_is_about_the_origin_and_runs_through_the_actor(name: str) -> None:
    ctx = task_context(5)
    steps = FARM_STEPS[name](ctx)
    calls = [c for step in steps for c in step]
    dest = resolve_name(ctx.problem.destination_city)
    about_dest = [
        (n, a)
        for n, a in calls
        if n in ("poi_search", "around_search", "weather")
        and resolve_name(str(a.get("region") or a.get("city") or "")) == dest
    ]
    assert len(about_dest) == 1  # the one hotel search
    results = asyncio.run(play(ctx, steps))
    for step, r in zip(steps, results, strict=True):
        tools = [m for m in r["observation"] if m["role"] == "tool"]
        assert len(tools) == len(step)
        assert not any(m["content"].startswith("错误") for m in tools)
    assert sum(float(r["reward"]) for r in results) > 0  # its transport searches are real progress


@pytest.mark.parametrize("task_id", ONE_PER_TYPE, ids=_tid)
def test_keyword_echoed_by_a_tool_never_reaches_the_judge(task_id: int) -> None:
    assert keyword_echo_leaks(task_context(task_id)) == []


def test_known_open_attacks_are_registered_and_documented() -> None:
    for name, entry in KNOWN_OPEN.items():
        assert name in ATTACKS, name
        assert entry.measured and entry.rule and entry.fix, name
        assert "src" in entry.rule or ".py:" in entry.rule, name
    for name, farm in OPEN_FARMS.items():
        assert name in FARM_STEPS and farm.rule and farm.fix

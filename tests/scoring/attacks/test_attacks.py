"""The reward-hacking attack suite (issue 13): every attack must score far below an honest plan.

* **Code score**: each attack of ``attacks.ATTACKS`` on 3 tasks of every problem type (tasks
  0..20, ``task_id % 7`` is the type, fixed salt), code-only
  (``TravelScorer(salt).score(problem, trace, answer)``): total ≤ 0.5 × the honest reference
  answer's total on the same task. The "padding and format" class (the honest answer repeated,
  padded with dumps, listing every price, carrying extra plans) did the planning work; it must
  never score above the honest answer.
* **Judge prompt**: judge-directed text in the answer never reaches the judge prompt.
* **Step rewards** (``navworld.Actor`` reset/step): farming episodes (re-spelled searches,
  random routes, off-task calls, identical repeats, jittered arguments, and the honest calls
  spread one per step) earn a shaping sum ≤ the honest episode's (the reference planner's calls
  replayed step by step); the junk ones also average ≤ 0.2 per step.

These assertions fail on today's scorer (``tests/scoring/attacks/README.md`` has today's
figures), so the module is marked xfail until scorer s2 lands; the lead removes the mark.
``test_attack_library.py`` (not xfail) checks that the attacks themselves are built right.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from navworld.scoring.scorer import TravelScorer

from .attacks import ATTACKS, NotApplicable, build
from .context import SALT, TASKS, TaskContext, honest_total, task_context
from .judge_attacks import JUDGE_ATTACKS, judge_leaks
from .known_open import KNOWN_OPEN
from .steps import JUNK, STEP_ATTACKS, actor_reused_ids, step_rewards

TYPES = ("intercity", "multiday", "hybrid", "single_poi", "food_tour", "business", "family_study")
JUNK_MEAN_MAX = 0.2
NO_GAIN = frozenset({"cite_every_price"})
"""Attacks that are the complete honest answer plus an appendix of true facts: they did the planning
work, so the bound is "never beats the honest answer" (every other padding attack — repetition,
dumps, several plans — is held to ≤ 50 %)."""
ONE_PER_TYPE = TASKS[:7]


def _tid(task_id: int) -> str:
    return f"T{task_id}-{TYPES[task_id % 7]}"


@pytest.fixture(scope="module")
def contexts() -> dict[int, TaskContext]:
    """The task contexts with their honest reference runs (made once per process)."""
    return {t: task_context(t) for t in TASKS}


@pytest.fixture(scope="module")
def code_scorer() -> TravelScorer:
    """The default scorer, code only, with the suite's salt."""
    return TravelScorer(salt=SALT)


def _case(name: str, t: int) -> Any:
    open_attack = KNOWN_OPEN.get(name)
    marks = ()
    if open_attack is not None and open_attack.open_on(TYPES[t % 7]):
        marks = (pytest.mark.skip(reason=f"known open under s2: {open_attack.measured}"),)
    return pytest.param(name, t, id=f"{name}-{_tid(t)}", marks=marks)


def _cases() -> list[Any]:
    return [_case(name, t) for name, spec in ATTACKS.items() for t in TASKS if spec.asserted_on(TYPES[t % 7])]


@pytest.mark.parametrize(("name", "task_id"), _cases())
def test_attack_scores_at_most_half_the_honest_answer(
    name: str, task_id: int, contexts: dict[int, TaskContext], code_scorer: TravelScorer
) -> None:
    ctx = contexts[task_id]
    try:
        trace, answer = build(name, ctx)
    except NotApplicable as exc:
        pytest.skip(str(exc))
    honest = honest_total(task_id)
    report = code_scorer.score(ctx.problem, trace, answer)
    assert report.error is None
    if name in NO_GAIN:
        assert report.total <= honest + 0.01, (name, task_id, report.total, honest)
        return
    assert report.total <= 0.5 * honest, (
        f"{name} on task {task_id}: {report.total} vs honest {honest}",
        report.to_dict()["code_score"]["comp_subscores"],
        report.constraints["failed"],
    )


@pytest.mark.parametrize("task_id", ONE_PER_TYPE, ids=_tid)
def test_reused_call_ids_through_the_actor_ground_nothing(
    task_id: int, contexts: dict[int, TaskContext]
) -> None:
    """The re-used-id attack played through ``Actor.step`` (so a policy can do it): the score
    the environment pays for the fact list is at most half the honest answer's."""
    score = asyncio.run(actor_reused_ids(contexts[task_id]))
    assert score <= 0.5 * honest_total(task_id)


@pytest.mark.parametrize("task_id", ONE_PER_TYPE, ids=_tid)
@pytest.mark.parametrize("name", [n for n, a in JUDGE_ATTACKS.items() if a.asserted])
def test_judge_prompt_carries_no_injected_text(
    name: str, task_id: int, contexts: dict[int, TaskContext]
) -> None:
    assert judge_leaks(name, contexts[task_id]) == []


@pytest.mark.parametrize("task_id", ONE_PER_TYPE, ids=_tid)
@pytest.mark.parametrize("name", list(STEP_ATTACKS))
def test_farming_episode_earns_no_more_than_the_honest_one(
    name: str, task_id: int, contexts: dict[int, TaskContext]
) -> None:
    ctx = contexts[task_id]
    junk = step_rewards(name, ctx)
    honest = step_rewards("honest", ctx)
    assert sum(junk) <= sum(honest) + 1e-6, (name, sum(junk), sum(honest))
    if name in JUNK:
        assert sum(junk) / len(junk) <= JUNK_MEAN_MAX, (name, junk)

"""The acceptance sweep: the reference planner solves every generated task of a range.

Each task is generated, planned in-process, scored with ``TravelScorer`` (code path) and its
plan verified against the episode's trace. The range is ``REFERENCE_TASKS`` (default ``0:700``,
about a minute); ``NAVWORLD_REFERENCE_TASKS=A:B`` overrides it.
"""

from __future__ import annotations

import asyncio
import os
import statistics
from dataclasses import dataclass, field
from typing import Any

import pytest

from navworld.agents.reference import ReferencePlanner
from navworld.scoring.scorer import TravelScorer
from navworld.tasks.generator import ProblemGenerator
from navworld.tools.budget import DEFAULT_LIMITS
from navworld.verify import verify_plan
from navworld.world.sandbox import SandboxWorld

from .conftest import SALT

REFERENCE_TASKS = "0:700"
pytestmark = pytest.mark.timeout(600)


@dataclass
class Row:
    """What one task produced."""

    task_id: int
    lang: str
    error: str | None = None
    final_pass: bool = False
    failed_checks: list[str] = field(default_factory=list)
    logic: list[Any] = field(default_factory=list)
    hard_failed: list[str] = field(default_factory=list)
    code: float = 0.0
    calls: dict[str, int] = field(default_factory=dict)
    error_results: int = 0
    cost: float = 0.0
    budget: float | None = None


def _task_range() -> range:
    a, _, b = os.environ.get("NAVWORLD_REFERENCE_TASKS", REFERENCE_TASKS).partition(":")
    return range(int(a), int(b))


async def _sweep(ids: range, lang: str, world: SandboxWorld, gen: ProblemGenerator) -> list[Row]:
    planner = ReferencePlanner()
    scorer = TravelScorer(salt=SALT)
    rows: list[Row] = []
    for tid in ids:
        problem = gen.generate(tid, lang=lang)
        run = await planner.run(problem, world, salt=SALT)
        row = Row(tid, lang, error=run.error, budget=problem.budget)
        rows.append(row)
        if run.error:
            continue
        for m in run.trace:
            for call in m.get("tool_calls") or []:
                name = call["function"]["name"]
                row.calls[name] = row.calls.get(name, 0) + 1
            if m.get("role") == "tool" and str(m.get("content", "")).startswith("错误"):
                row.error_results += 1
        report = scorer.score(problem, run.trace, run.answer).to_dict()
        row.code = float(report["code_score"]["subtotal"])
        row.hard_failed = [k for k, ok in report["hard_constraints"].items() if not ok]
        ver = verify_plan(run.answer, problem, world, run.trace)
        row.final_pass = ver.final_pass
        row.failed_checks = ver.failed_checks
        row.logic = list(ver.logic_results)
        from navworld.verify import extract_plan

        plan = extract_plan(run.answer)
        row.cost = sum((a.cost or 0.0) + sum(leg.cost or 0.0 for leg in a.transports) for a in plan.activities())
    return rows


@pytest.fixture(scope="module")
def sweep(world: SandboxWorld, generator: ProblemGenerator) -> list[Row]:
    """Every task of the range in Chinese, plus the first 70 in English."""
    ids = _task_range()
    rows = asyncio.run(_sweep(ids, "zh", world, generator))
    rows += asyncio.run(_sweep(range(ids.start, min(ids.stop, ids.start + 70)), "en", world, generator))
    return rows


def test_every_task_is_planned(sweep: list[Row]) -> None:
    errors = [(r.task_id, r.lang, r.error) for r in sweep if r.error]
    assert not errors, errors[:5]


def test_fpr_is_100_percent(sweep: list[Row]) -> None:
    bad = [(r.task_id, r.lang, r.failed_checks, r.logic) for r in sweep if not r.final_pass]
    assert not bad, bad[:5]


def test_no_hard_constraint_fails(sweep: list[Row]) -> None:
    bad = [(r.task_id, r.lang, r.hard_failed) for r in sweep if r.hard_failed]
    assert not bad, bad[:5]


def test_mean_code_score_at_least_45(sweep: list[Row]) -> None:
    for lang in ("zh", "en"):
        codes = [r.code for r in sweep if r.lang == lang]
        assert codes and statistics.mean(codes) >= 45.0, (lang, statistics.mean(codes))


def test_tool_budgets_respected_and_no_error_results(sweep: list[Row]) -> None:
    for r in sweep:
        for name, n in r.calls.items():
            limit = DEFAULT_LIMITS.get(name)
            assert limit is None or n <= limit, (r.task_id, name, n)
        assert r.error_results == 0, r.task_id


def test_within_budget(sweep: list[Row]) -> None:
    over = [(r.task_id, r.cost, r.budget) for r in sweep if r.budget is not None and r.cost > r.budget + 1e-6]
    assert not over, over[:5]

"""Honest answers in many models' styles are read right (issue 12): none is charged for a correct fact,
and each scores within 4 points of the reference planner's answer to the same task (scorer s2).

The answers (``t*.json``, written by hand from the tool results of real sandbox traces: tables,
prose, terse bullets, long reasoning, English with ``¥``/``CNY``/``°C``/``3 h 20 min``) carry every
kind of text the old scorer misread: totals and subtotals, multiples for several people or nights,
savings and differences, the user's own deadline restated, hotel breakfasts as the prompt asks,
addresses and metro stations quoted from the tools, relaxed pace honoured with fewer sights.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

import pytest

from navworld.agents.reference import ReferencePlanner
from navworld.scoring import TravelScorer

from . import make_cases as M

CASES = M.all_cases()
MAX_GAP = 4.0


@cache
def _reference(task_id: int, salt: str, lang: str) -> float:
    case = {"task_id": task_id, "salt": salt, "lang": lang}
    world, problem = M.world_and_problem(case)
    run = asyncio.run(ReferencePlanner().run(problem, world, salt=salt))
    return TravelScorer(salt=salt).score(problem, run.trace, run.answer).total


def _score(name: str) -> tuple[dict[str, Any], Any]:
    case = M.load_case(name)
    world, problem = M.world_and_problem(case)
    return case, TravelScorer(salt=case["salt"], world=world).score(problem, case["trace"], case["answer"])


@pytest.mark.parametrize("name", CASES)
def test_no_correct_fact_is_charged(name: str) -> None:
    _, report = _score(name)
    d = report.to_dict()
    assert report.error is None
    assert d["code_score"]["fabrication_penalty"] == 0.0, d["code_score"]["fabrication"]
    assert all(report.hard_constraints.values()), d["constraints"]["failed"]
    transport = d["constraints"]["details"]["transport_grounded"]
    assert transport.get("fabricated", 0) == 0, transport.get("unverified_examples")
    plan = d["constraints"]["plan"]
    # no plan check, program or prose/plan agreement rule fires on an honest plan (content may dip
    # below 1 where an answer leaves an asked meal unbooked, e.g. t016's free meals)
    assert plan["env_factor"] == plan["logic_factor"] == plan["agreement_factor"] == 1.0, plan
    assert d["code_score"]["plan_factor"] >= 0.95, plan


@pytest.mark.parametrize("name", CASES)
def test_within_four_points_of_the_reference(name: str) -> None:
    case, report = _score(name)
    reference = _reference(int(case["task_id"]), case["salt"], case["lang"])
    assert report.total >= reference - MAX_GAP, (name, report.total, reference, report.to_dict()["code_score"])

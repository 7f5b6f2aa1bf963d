"""Batch runs on ChinaTravel's data: problems from a query file, verification on its database, its metrics.

With ``--queries FILE`` the run's problems are the file's queries (task ids 0, 1, … in file
order); with a ``chinatravel:DIR`` world each row's plan is verified against that database (the
navworld profile, under ``plan.verification``) and, with ``--profile chinatravel``, also the way
ChinaTravel's own evaluator does (``row["chinatravel"]``); the summary then carries their metrics
under ``chinatravel`` (percent, as their papers report them).
"""

from __future__ import annotations

import threading
from typing import Any

from navworld.core.problem import Problem

__all__ = ["chinatravel_summary", "is_chinatravel_world", "query_problem_list", "verify_row"]

_LOCK = threading.Lock()
_PROBLEMS: dict[tuple[str, str, str, str], list[Problem]] = {}


def is_chinatravel_world(world: Any) -> bool:
    """Whether ``world`` serves ChinaTravel's database (it has their tables)."""
    return hasattr(world, "tables") and hasattr(world, "goto")


def query_problem_list(path: str, world: Any, salt: str, lang: str) -> list[Problem]:
    """The problems of a query file (cached per file, world, salt and language)."""
    from navworld.tasks.chinatravel import query_problems

    key = (path, str(getattr(world, "name", "")), salt, lang)
    with _LOCK:
        hit = _PROBLEMS.get(key)
    if hit is None:
        hit, _errors = query_problems(path, world, salt, lang)
        with _LOCK:
            _PROBLEMS[key] = hit
    return hit


def verify_row(world: Any, problem: Problem, answer: str, trace: list[dict[str, Any]], profile: str) -> tuple[
        dict[str, Any] | None, dict[str, Any] | None]:
    """``(navworld verification on this world, ChinaTravel verdict or None)`` of one answer."""
    from navworld.verify import verify_plan
    from navworld.verify.chinatravel import chinatravel_view, query_of, verify_chinatravel

    verification = verify_plan(answer or None, problem, world, trace).to_dict()
    ct = None
    if profile == "chinatravel":
        view, notes = chinatravel_view(answer, world, problem.group_size, problem.destination_city)
        ct = {**verify_chinatravel(view, query_of(problem), world), "notes": notes}
    return verification, ct


def chinatravel_summary(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """ChinaTravel's metrics over the scored rows that carry a ChinaTravel verdict (None when none does)."""
    from navworld.verify.chinatravel import aggregate

    items = [r["chinatravel"] for r in rows if not r.get("error") and isinstance(r.get("chinatravel"), dict)]
    if not items:
        return None
    return {"profile": "chinatravel", **aggregate(items)}

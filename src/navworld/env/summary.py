"""What results and observations carry: version stamps, the problem summary, hashes, safe URLs.

Shared by :mod:`navworld.env.actor` and :mod:`navworld.env.evaluate`; :func:`versions`,
:func:`problem_summary` and :func:`content_hash` are re-exported by :mod:`navworld.env.actor`.
"""

from __future__ import annotations

import json
import os
from typing import Any

from navworld.core.problem import Problem
from navworld.core.seeding import stable_hash
from navworld.core.urls import public_url
from navworld.core.versions import GENERATOR_VERSION, PACKAGE_VERSION, SCORER_VERSION, WORLD_VERSION

__all__ = ["content_hash", "debug_enabled", "problem_summary", "public_url", "versions"]


def versions() -> dict[str, str]:
    """The version stamps recorded in every result."""
    return {
        "package_version": PACKAGE_VERSION,
        "world_version": WORLD_VERSION,
        "generator_version": GENERATOR_VERSION,
        "scorer_version": SCORER_VERSION,
    }


def problem_summary(problem: Problem) -> dict[str, Any]:
    """The problem fields an agent or trainer may see (no oracle ``extra``)."""
    return {
        "task_id": problem.task_id,
        "problem_type": problem.problem_type,
        "difficulty": problem.difficulty,
        "origin_city": problem.origin_city,
        "destination_city": problem.destination_city,
        "travel_date": problem.travel_date,
        "num_days": problem.num_days,
        "budget": problem.budget,
        "group_type": problem.group_type,
        "group_size": problem.group_size,
        "interests": list(problem.interests),
        "constraints": list(problem.constraints),
        "required_tools": list(problem.required_tools),
        "lang": problem.lang,
    }


def content_hash(problem: Problem) -> str:
    """A hash of the whole generated problem (prompt, fields, constraint programs)."""
    return stable_hash(json.dumps(problem.to_dict(), sort_keys=True, ensure_ascii=False))


def debug_enabled() -> bool:
    """Whether ``NAVWORLD_DEBUG`` asks for full (unredacted) score breakdowns."""
    return os.environ.get("NAVWORLD_DEBUG", "").strip().lower() in ("1", "true", "yes", "on")

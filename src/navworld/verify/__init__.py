"""Plan verification the ChinaTravel way: environment checks against the world and the episode's
tool results, constraint programs, preferences, and the DR/EPR/LPR/C-LPR/FPR metrics.

See ``docs/verification.md``.
"""

from __future__ import annotations

from navworld.verify.checks import CHECK_GROUPS, CHECK_NAMES, CHECKS, run_checks
from navworld.verify.metrics import aggregate, task_metrics
from navworld.verify.plan_parse import extract_plan, parse_plan
from navworld.verify.verification import Verification, verify_plan
from navworld.verify.world_view import WorldLookup, WorldView

__all__ = [
    "CHECKS",
    "CHECK_GROUPS",
    "CHECK_NAMES",
    "Verification",
    "WorldLookup",
    "WorldView",
    "aggregate",
    "extract_plan",
    "parse_plan",
    "run_checks",
    "task_metrics",
    "verify_plan",
]

"""Plan metrics per row and over a run, delegating the definitions to :mod:`navworld.verify.metrics`.

A row whose answer had no verifiable plan is counted as *not delivered*: it fails every
environment check and all of its task's constraint programs (so it lowers DR, EPR, LPR, C-LPR
and FPR exactly as ChinaTravel prescribes). Per row, ``plan.metrics`` stores::

    delivered, env_total, env_passed, env_pass, logic_total, logic_passed, logic_pass, final_pass

and the aggregates (fractions in [0, 1]) are ``dr, epr_micro, epr_macro, lpr_micro, lpr_macro,
c_lpr, fpr`` as defined in :mod:`navworld.verify.metrics`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["METRIC_KEYS", "aggregate_plan_metrics", "not_delivered", "task_plan_metrics", "verification_of"]

METRIC_KEYS = ("dr", "epr_micro", "epr_macro", "lpr_micro", "lpr_macro", "c_lpr", "fpr")


def not_delivered(n_constraints: int) -> dict[str, Any]:
    """The verification dict of an answer without a plan: every check and program fails."""
    from navworld.verify.checks import CHECK_NAMES

    return {
        "delivered": False,
        "env": {"passed": False, "checks": dict.fromkeys(CHECK_NAMES, False)},
        "logic": {
            "passed": False,
            "results": [False] * n_constraints,
            "errors": ["no plan delivered"] * n_constraints,
        },
        "preferences": {},
        "final_pass": False,
    }


def verification_of(row: dict[str, Any]) -> dict[str, Any] | None:
    """The verification dict a scored row counts with (``None`` for rows with an error)."""
    if row.get("error"):
        return None
    plan = row.get("plan") or {}
    verification = plan.get("verification")
    if isinstance(verification, dict):
        return verification
    return not_delivered(len(plan.get("constraints") or []))


def task_plan_metrics(verification: dict[str, Any] | None, n_constraints: int) -> dict[str, Any]:
    """Per-row counts (``None`` verification → not delivered)."""
    v = verification if verification and verification.get("delivered") else not_delivered(n_constraints)
    checks = (v.get("env") or {}).get("checks") or {}
    results = list((v.get("logic") or {}).get("results") or [])
    env_passed = sum(1 for ok in checks.values() if ok is True)
    logic_passed = sum(1 for ok in results if ok is True)
    delivered = bool(v.get("delivered"))
    env_pass = delivered and bool((v.get("env") or {}).get("passed", env_passed == len(checks)))
    logic_pass = delivered and bool((v.get("logic") or {}).get("passed", logic_passed == len(results)))
    return {
        "delivered": delivered,
        "env_total": len(checks),
        "env_passed": env_passed if delivered else 0,
        "env_pass": env_pass,
        "logic_total": len(results),
        "logic_passed": logic_passed if delivered else 0,
        "logic_pass": logic_pass,
        "final_pass": delivered and bool(v.get("final_pass", env_pass and logic_pass)),
    }


def aggregate_plan_metrics(verifications: Iterable[dict[str, Any]]) -> dict[str, float | None]:
    """DR, EPR micro/macro, LPR micro/macro, C-LPR and FPR over verification dicts (``None`` if empty)."""
    items = list(verifications)
    if not items:
        return dict.fromkeys(METRIC_KEYS)
    from navworld.verify.metrics import aggregate

    result = aggregate(items)
    return {key: float(result[key]) for key in METRIC_KEYS}

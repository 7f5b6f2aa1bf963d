"""ChinaTravel's metrics: DR, EPR (micro/macro), LPR (micro/macro), C-LPR, FPR.

Definitions (reference ``chinatravel-study.md`` §5, without the upstream bugs; values in [0, 1]):

* **DR** (delivery rate) = delivered plans / N.
* **EPR micro** = passed environment checks / (N × number of checks). The check list is fixed
  (no data-dependent columns); a plan that was not delivered fails all of them.
* **EPR macro** = plans passing every environment check / N.
* **LPR micro** = satisfied programs / Σ_p |C_p|; **LPR macro** = plans satisfying all their
  programs / N (a delivered plan with no programs counts as passing).
* **C-LPR** = Σ over environment-passing plans of satisfied programs / Σ_p |C_p| over *all* tasks.
* **FPR** = plans that are delivered, environment-valid and logic-valid / N.

A program that raised counts as unsatisfied; a check that raised counts as failed. When no task
has programs, LPR micro equals LPR macro and C-LPR equals EPR macro (vacuous satisfaction).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from navworld.verify.checks import CHECK_NAMES
from navworld.verify.verification import Verification

__all__ = ["METRIC_NAMES", "aggregate", "task_metrics"]

METRIC_NAMES: tuple[str, ...] = ("dr", "epr_micro", "epr_macro", "lpr_micro", "lpr_macro", "c_lpr", "fpr")


def _as_verification(v: Verification | dict[str, Any]) -> Verification:
    return v if isinstance(v, Verification) else Verification.from_dict(v)


def _counts(v: Verification) -> tuple[int, int, int]:
    """(passed checks, satisfied programs, programs) of one verification."""
    passed = sum(1 for name in CHECK_NAMES if v.delivered and v.env_checks.get(name, False) is True)
    satisfied = sum(1 for r in v.logic_results if v.delivered and r is True)
    return passed, satisfied, len(v.logic_results)


def task_metrics(v: Verification | dict[str, Any]) -> dict[str, float]:
    """The metrics of a single task (each 0 or 1 except the micro rates)."""
    return aggregate([v])


def aggregate(items: Iterable[Verification | dict[str, Any]]) -> dict[str, Any]:
    """Aggregate metrics over a set of tasks: ``dr, epr_micro, epr_macro, lpr_micro, lpr_macro, c_lpr, fpr``
    plus ``n`` (tasks) and ``programs`` (Σ_p |C_p|)."""
    vs = [_as_verification(v) for v in items]
    n = len(vs)
    if n == 0:
        return {**dict.fromkeys(METRIC_NAMES, 0.0), "n": 0, "programs": 0}
    delivered = env_pass = logic_pass = final = 0
    checks_passed = satisfied = satisfied_env = programs = 0
    for v in vs:
        passed, sat, total = _counts(v)
        delivered += v.delivered
        env_pass += v.env_passed
        logic_pass += v.logic_passed
        final += v.final_pass
        checks_passed += passed
        satisfied += sat
        programs += total
        if v.env_passed:
            satisfied_env += sat
    lpr_macro = logic_pass / n
    return {
        "dr": delivered / n,
        "epr_micro": checks_passed / (n * len(CHECK_NAMES)),
        "epr_macro": env_pass / n,
        "lpr_micro": satisfied / programs if programs else lpr_macro,
        "lpr_macro": lpr_macro,
        "c_lpr": satisfied_env / programs if programs else env_pass / n,
        "fpr": final / n,
        "n": n,
        "programs": programs,
    }

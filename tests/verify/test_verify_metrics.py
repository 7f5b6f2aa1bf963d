"""Metric definitions checked against hand-computed examples."""

from __future__ import annotations

import pytest
from verify_support import FakeWorld, build_plan, problem, trace_for

from navworld.verify import CHECK_NAMES, Verification, aggregate, task_metrics, verify_plan

K = len(CHECK_NAMES)


def v(env_failures: int, results: list[bool | None], delivered: bool = True) -> Verification:
    checks = {name: (i >= env_failures) for i, name in enumerate(CHECK_NAMES)}
    if not delivered:
        checks = dict.fromkeys(CHECK_NAMES, False)
    return Verification(delivered=delivered, env_checks=checks, logic_results=results, logic_errors=[None] * len(results))


def test_hand_computed_aggregate() -> None:
    t1 = v(0, [True, True])  # passes everything
    t2 = v(2, [True, True])  # fails the environment, passes logic: LPR yes, C-LPR no
    t3 = v(0, [True, False, None])  # an erroring program (None) never counts
    t4 = v(0, [False, False], delivered=False)  # not delivered: fails everything
    m = aggregate([t1, t2, t3, t4])
    assert m["n"] == 4 and m["programs"] == 9
    assert m["dr"] == pytest.approx(3 / 4)
    assert m["epr_micro"] == pytest.approx((K + (K - 2) + K + 0) / (4 * K))
    assert m["epr_macro"] == pytest.approx(2 / 4)
    assert m["lpr_micro"] == pytest.approx(5 / 9)
    assert m["lpr_macro"] == pytest.approx(2 / 4)
    assert m["c_lpr"] == pytest.approx(3 / 9)  # denominator: programs over ALL tasks
    assert m["fpr"] == pytest.approx(1 / 4)


def test_env_fail_logic_pass_counts_for_lpr_not_c_lpr() -> None:
    m = task_metrics(v(1, [True, True, True]))
    assert m["lpr_micro"] == 1.0 and m["lpr_macro"] == 1.0
    assert m["c_lpr"] == 0.0 and m["fpr"] == 0.0
    assert m["epr_micro"] == pytest.approx((K - 1) / K) and m["epr_macro"] == 0.0


def test_undelivered_plan_cannot_earn_credit_even_if_flags_say_so() -> None:
    bogus = Verification(delivered=False, env_checks=dict.fromkeys(CHECK_NAMES, True), logic_results=[True],
                         logic_errors=[None])
    m = task_metrics(bogus)
    assert all(m[k] == 0.0 for k in ("dr", "epr_micro", "epr_macro", "lpr_micro", "lpr_macro", "c_lpr", "fpr"))


def test_missing_checks_count_as_failed_and_dicts_are_accepted() -> None:
    partial = Verification(delivered=True, env_checks={CHECK_NAMES[0]: True}, logic_results=[], logic_errors=[])
    m = aggregate([partial.to_dict()])
    assert m["epr_micro"] == pytest.approx(1 / K) and m["epr_macro"] == 0.0
    assert m["lpr_macro"] == 1.0 and m["lpr_micro"] == 1.0  # no programs: vacuously satisfied
    assert m["c_lpr"] == 0.0  # ... but C-LPR needs the environment to pass


def test_empty_and_real_round_trip() -> None:
    assert aggregate([])["n"] == 0
    plan = build_plan()
    p = problem(hard_logic=["result = day_count(plan) == 2", "result = total_cost(plan) < 10"])
    real = verify_plan(plan, p, FakeWorld(), trace_for(plan))
    undelivered = verify_plan(None, p, FakeWorld())
    m = aggregate([real, undelivered])
    assert m == aggregate([real.to_dict(), undelivered.to_dict()])
    assert m["dr"] == 0.5 and m["epr_macro"] == 0.5 and m["lpr_micro"] == pytest.approx(1 / 4)
    assert m["c_lpr"] == pytest.approx(1 / 4) and m["fpr"] == 0.0

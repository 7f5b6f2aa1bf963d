"""Summary statistics, plan metrics, pass@k and the seeded bootstrap."""

from __future__ import annotations

from typing import Any

import pytest

from navworld.runner.metrics import aggregate_plan_metrics, not_delivered, task_plan_metrics
from navworld.runner.summary import SUMMARY_KEYS, bootstrap_ci, pass_at_k, summarize


def _verification(failed_checks: int, logic: list[bool | None]) -> dict[str, Any]:
    from navworld.verify.checks import CHECK_NAMES

    env = {name: i >= failed_checks for i, name in enumerate(CHECK_NAMES)}
    return {
        "delivered": True,
        "env": {"passed": failed_checks == 0, "checks": env},
        "logic": {"passed": all(x is True for x in logic), "results": logic, "errors": [None] * len(logic)},
        "preferences": {},
        "final_pass": failed_checks == 0 and all(x is True for x in logic),
    }


def test_plan_metrics_by_hand() -> None:
    from navworld.verify.checks import CHECK_NAMES

    k = len(CHECK_NAMES)
    a = _verification(1, [True, True])  # env fails one check, logic 2/2: counts for LPR, not C-LPR
    b = _verification(0, [True, False])  # env passes, logic 1/2
    c = _verification(0, [True, True])  # everything passes
    d = not_delivered(2)  # no plan: fails every check and both programs
    m = aggregate_plan_metrics([a, b, c, d])
    assert m["dr"] == 0.75
    assert m["epr_micro"] == pytest.approx((3 * k - 1) / (4 * k))
    assert m["epr_macro"] == 0.5
    assert m["lpr_micro"] == pytest.approx(5 / 8)
    assert m["lpr_macro"] == 0.5
    assert m["c_lpr"] == pytest.approx(3 / 8)
    assert m["fpr"] == 0.25
    assert aggregate_plan_metrics([]) == dict.fromkeys(m)
    per_row = task_plan_metrics(a, 2)
    assert per_row["env_passed"] == k - 1 and per_row["logic_passed"] == 2 and not per_row["final_pass"]
    assert task_plan_metrics(None, 3)["logic_total"] == 3


def test_pass_at_k() -> None:
    assert pass_at_k(3, 0, 1) == 0.0
    assert pass_at_k(3, 3, 1) == 1.0
    assert pass_at_k(3, 1, 2) == pytest.approx(2 / 3)
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    groups = [[float(i % 7) * 10, float(i % 5) * 12] for i in range(40)]
    ci = bootstrap_ci(groups, seed="s")
    assert ci == bootstrap_ci(groups, seed="s")
    assert ci is not None
    mean = sum(map(sum, groups)) / 80
    assert ci[0] <= mean <= ci[1]
    assert bootstrap_ci([], seed="s") is None


def _row(
    task: int, epoch: int, score: float | None, error: str | None = None, *, judged: bool = True
) -> dict[str, Any]:
    return {
        "task_id": task,
        "epoch": epoch,
        "judge": {"models": ["j"], "base_url": "http://127.0.0.1:9/v1"} if judged else None,
        "report": None if error else {"llm_error": None if judged else "no judge configured"},
        "score": score,
        "code_score": None if score is None else score / 2,
        "error": error,
        "steps": 4,
        "plan": {"verification": None, "constraints": ["x"]},
    }


def test_summarize_keys_and_errors() -> None:
    rows = [_row(0, 0, 80.0), _row(1, 0, 40.0), _row(2, 0, None, "timeout")]
    s = summarize(rows, tasks=3, new=2, seconds=1.5)
    assert set(SUMMARY_KEYS) <= set(s)
    assert (s["tasks"], s["completed"], s["errors"], s["new"]) == (3, 3, 1, 2)
    assert s["score_mean"] == 60.0 and s["code_score_mean"] == 30.0 and s["success_rate"] == 0.5
    assert "pass_k" not in s


def test_summarize_epochs() -> None:
    rows = [_row(0, 0, 80.0), _row(0, 1, 20.0), _row(1, 0, 10.0), _row(1, 1, 30.0)]
    s = summarize(rows, tasks=2, epochs=2, seed="x")
    assert s["pass_k"] == 0.5 and s["pass_hat_k"] == 0.0
    assert s["pass_at"] == {"1": 0.25, "2": 0.5}
    lo, hi = s["score_ci95"]
    assert lo <= s["score_mean"] <= hi

"""The run summary: means, success rate, plan metrics, pass@k and a seeded bootstrap interval.

Scores are on the 0–100 scale; rates and plan metrics are fractions in [0, 1]. Rows with an
``error`` (infrastructure failures) count in ``completed`` and ``errors`` but not in any mean.

Code-only runs (no LLM judge scored any row) cannot reach the success mark: a code-only total
is at most 50 and success needs 60. Their ``success_rate`` and pass@k figures are ``None`` and
``not_applicable`` says why (never a misleading 0). Judge failures (a judge was configured but
the row's ``report.llm_error`` is set, so the row fell back to code-only) are counted in
``judge_failures``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from statistics import fmean
from typing import Any

from navworld.core.seeding import rng
from navworld.runner.episode import SUCCESS_THRESHOLD
from navworld.runner.metrics import METRIC_KEYS, aggregate_plan_metrics, verification_of
from navworld.runner.rowinfo import error_kind, is_judge_failure, judge_failure_reason, was_judged

__all__ = ["CODE_ONLY_REASON", "SUMMARY_KEYS", "bootstrap_ci", "pass_at_k", "summarize"]

CODE_ONLY_REASON = "code-only: no LLM judge, scores are at most 50 of 100 and success needs 60"
"""Why success and pass@k do not apply to a run without a judge."""
JUDGE_FAILED_REASON = (
    "code-only: the LLM judge failed on every row, scores are at most 50 of 100 and success needs 60"
)

SUMMARY_KEYS = (
    "tasks",
    "completed",
    "errors",
    "new",
    "score_mean",
    "code_score_mean",
    "success_rate",
    "not_applicable",
    "judge_failures",
    *METRIC_KEYS,
    "steps_mean",
    "seconds",
)
"""Keys always present in the ``--json`` summary (``pass_k`` etc. are added when epochs > 1)."""

BOOTSTRAP_RESAMPLES = 1000


def _mean(values: Iterable[float]) -> float | None:
    items = list(values)
    return round(fmean(items), 4) if items else None


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task with ``n`` tries of which ``c`` succeeded.

    >>> pass_at_k(4, 1, 1), pass_at_k(4, 1, 4), pass_at_k(4, 0, 2)
    (0.25, 1.0, 0.0)
    """
    if k > n:
        raise ValueError("k must not exceed n")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def bootstrap_ci(
    groups: Sequence[Sequence[float]], *, seed: str, resamples: int = BOOTSTRAP_RESAMPLES, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean, resampling *tasks* (each task = its epochs).

    Resampling whole tasks keeps the epochs of one task together, so their correlation does not
    shrink the interval. The RNG is seeded from ``seed``: the same rows give the same interval.
    """
    groups = [list(g) for g in groups if g]
    if not groups:
        return None
    r = rng("bootstrap", seed)
    sums = [sum(g) for g in groups]
    counts = [len(g) for g in groups]
    n = len(groups)
    means: list[float] = []
    for _ in range(resamples):
        total = 0.0
        count = 0
        for _ in range(n):
            i = r.randrange(n)
            total += sums[i]
            count += counts[i]
        means.append(total / count)
    means.sort()
    lo = means[int((1 - level) / 2 * (resamples - 1))]
    hi = means[int((1 + level) / 2 * (resamples - 1))]
    return round(lo, 4), round(hi, 4)


def _count(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for item in items:
        counts[item] += 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _code_only_reason(scored: list[dict[str, Any]]) -> str | None:
    """Why success does not apply to these scored rows (``None`` when some row was judged)."""
    if not scored or any(was_judged(r) for r in scored):
        return None
    if any(r.get("judge") for r in scored):
        return JUDGE_FAILED_REASON
    return CODE_ONLY_REASON


def _judge_failures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """``{"count", "of", "rows": ["task/epoch", …], "reasons": {reason: n}}`` over judged rows."""
    failed = sorted(
        (r for r in rows if is_judge_failure(r)), key=lambda r: (int(r.get("task_id", 0)), int(r.get("epoch", 0)))
    )
    return {
        "count": len(failed),
        "of": sum(1 for r in rows if r.get("judge") and not r.get("error")),
        "rows": [f"{r.get('task_id')}/{r.get('epoch', 0)}" for r in failed],
        "reasons": _count(judge_failure_reason(r) for r in failed),
    }


def summarize(
    rows: Iterable[dict[str, Any]],
    *,
    tasks: int,
    epochs: int = 1,
    new: int = 0,
    seconds: float = 0.0,
    seed: str = "",
) -> dict[str, Any]:
    """Summarise the rows of one run configuration.

    Args:
        rows: the rows belonging to the run (one per completed (task, epoch)).
        tasks: number of task ids requested.
        epochs: epochs per task.
        new: rows written by this invocation.
        seconds: wall time of this invocation.
        seed: seeds the bootstrap (use something stable, e.g. the salt).
    """
    rows = list(rows)
    scored = [r for r in rows if not r.get("error") and isinstance(r.get("score"), int | float)]
    summary: dict[str, Any] = {
        "tasks": tasks,
        "epochs": epochs,
        "planned": tasks * epochs,
        "completed": len(rows),
        "errors": sum(1 for r in rows if r.get("error")),
        "new": new,
        "score_mean": _mean(float(r["score"]) for r in scored),
        "code_score_mean": _mean(
            float(r["code_score"]) for r in scored if isinstance(r.get("code_score"), int | float)
        ),
        "success_rate": _mean(1.0 if float(r["score"]) >= SUCCESS_THRESHOLD else 0.0 for r in scored),
    }
    code_only_reason = _code_only_reason(scored)
    not_applicable: dict[str, str] = {}
    if code_only_reason:
        summary["success_rate"] = None
        not_applicable["success_rate"] = code_only_reason
    summary["not_applicable"] = not_applicable
    summary["error_kinds"] = _count(error_kind(str(r["error"])) for r in rows if r.get("error"))
    summary["judge_failures"] = _judge_failures(rows)
    metrics = aggregate_plan_metrics(v for r in scored if (v := verification_of(r)) is not None)
    summary.update({k: (round(v, 4) if isinstance(v, float) else v) for k, v in metrics.items()})
    summary["steps_mean"] = _mean(float(r.get("steps") or 0) for r in scored)
    summary["tokens_total"] = sum(int((r.get("tokens") or {}).get("total_tokens", 0)) for r in rows)
    summary["seconds"] = round(seconds, 3)
    if epochs > 1:
        by_task: dict[int, list[float]] = defaultdict(list)
        for r in scored:
            by_task[int(r["task_id"])].append(float(r["score"]))
        full = {t: s for t, s in by_task.items() if len(s) >= epochs}
        if full:
            succ = {t: sum(1 for x in s if x >= SUCCESS_THRESHOLD) for t, s in full.items()}
            summary["pass_k"] = round(fmean(pass_at_k(len(full[t]), succ[t], epochs) for t in full), 4)
            summary["pass_hat_k"] = round(fmean(1.0 if succ[t] == len(full[t]) else 0.0 for t in full), 4)
            summary["pass_at"] = {
                str(k): round(fmean(pass_at_k(len(full[t]), succ[t], k) for t in full), 4)
                for k in range(1, epochs + 1)
            }
        else:
            summary["pass_k"] = summary["pass_hat_k"] = None
            summary["pass_at"] = {}
        if code_only_reason:
            summary["pass_k"] = summary["pass_hat_k"] = None
            summary["pass_at"] = {}
            for key in ("pass_k", "pass_hat_k", "pass_at"):
                not_applicable[key] = code_only_reason
        ci = bootstrap_ci(list(by_task.values()), seed=seed)
        summary["score_ci95"] = list(ci) if ci else None
    return summary

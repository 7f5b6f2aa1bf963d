"""``report DIR --vs OTHER``: the comparison of two runs on the tasks both have."""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean
from typing import Any

from navworld.runner.metrics import METRIC_KEYS
from navworld.runner.summary import summarize

__all__ = ["comparison"]


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def comparison(
    rows: list[dict[str, Any]],
    other: list[dict[str, Any]],
    summary: dict[str, Any],
    other_summary: dict[str, Any],
) -> dict[str, Any]:
    """Summary deltas on the shared tasks and a per-task delta table (mean over epochs), worst first."""
    def per_task(items: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
        groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for r in items:
            if isinstance(r.get("score"), int | float) and not r.get("error"):
                groups[int(r["task_id"])].append(r)
        return {
            t: {
                "score": fmean(float(r["score"]) for r in rs),
                "type": rs[0].get("problem_type"),
                "difficulty": rs[0].get("difficulty"),
            }
            for t, rs in groups.items()
        }

    mine, theirs = per_task(rows), per_task(other)
    shared = sorted(set(mine) & set(theirs))
    deltas = [
        {
            "task_id": t,
            "type": mine[t]["type"],
            "difficulty": mine[t]["difficulty"],
            "this": round(mine[t]["score"], 2),
            "other": round(theirs[t]["score"], 2),
            "delta": round(mine[t]["score"] - theirs[t]["score"], 2),
        }
        for t in shared
    ]
    deltas.sort(key=lambda d: (d["delta"], d["task_id"]))
    keys = ["score_mean", "code_score_mean", "success_rate", *METRIC_KEYS, "steps_mean"]
    shared_set = set(shared)
    mine_shared = summarize([r for r in rows if r.get("task_id") in shared_set], tasks=len(shared))
    theirs_shared = summarize([r for r in other if r.get("task_id") in shared_set], tasks=len(shared))
    summary_deltas = []
    for k in keys:
        a, b = mine_shared.get(k), theirs_shared.get(k)
        delta = a - b if isinstance(a, int | float) and isinstance(b, int | float) else None
        summary_deltas.append({"key": k, "this": _fmt(a), "other": _fmt(b), "delta": _fmt(delta)})
    return {
        "shared": len(shared),
        "only_this": len(set(mine) - set(theirs)),
        "only_other": len(set(theirs) - set(mine)),
        "summary": summary_deltas,
        "tasks": deltas,
        "better": sum(1 for d in deltas if d["delta"] > 0),
        "worse": sum(1 for d in deltas if d["delta"] < 0),
    }

"""Past runs under a directory (``navworld runs``): configuration, status and headline figures.

A run directory is any folder holding ``run.json`` or ``results.jsonl``. The figures come from
``run.json`` (the summary the last ``navworld eval`` printed), so listing is fast however large
the results are; a directory without ``run.json`` is summarised from its rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from navworld.runner.results import RESULTS_FILE, load_rows
from navworld.runner.runinfo import RUN_FILE, read_run_json
from navworld.runner.summary import summarize

__all__ = ["RUN_COLUMNS", "describe_run", "list_runs"]

RUN_COLUMNS = (
    "dir", "started_at", "status", "agent", "judge", "tasks", "epochs", "salt", "world",
    "completed", "planned", "errors", "score_mean", "success_rate", "fpr", "seconds_total",
)  # fmt: skip


def _agent_label(agent: dict[str, Any]) -> str:
    if agent.get("kind") == "model":
        return f"{agent.get('model')} @ {agent.get('base_url')}"
    return str(agent.get("kind") or "reference")


def describe_run(run_dir: Path) -> dict[str, Any]:
    """One run's line: configuration, status and summary figures (``None`` where unknown)."""
    info = read_run_json(run_dir)
    config = info.get("config") or {}
    summary = info.get("summary") or {}
    seconds = info.get("seconds_total", summary.get("seconds"))
    if "not_applicable" not in summary and (run_dir / RESULTS_FILE).is_file():  # none, or an older format
        rows = load_rows(run_dir)
        summary = summarize(rows, tasks=len({r.get("task_id") for r in rows}))
    tasks = config.get("task_ids") or {}
    judge = config.get("judge") or {}
    return {
        "dir": str(run_dir),
        "started_at": info.get("started_at"),
        "ended_at": info.get("ended_at"),
        "status": info.get("status") or ("unknown" if info else "no run.json"),
        "agent": _agent_label(config.get("agent") or {}),
        "judge": ",".join(judge.get("models") or []) or None,
        "tasks": tasks.get("spec") if isinstance(tasks, dict) else None,
        "selection": config.get("selection") or None,
        "epochs": config.get("epochs"),
        "salt": config.get("salt"),
        "world": config.get("world"),
        "completed": summary.get("completed"),
        "planned": summary.get("planned"),
        "errors": summary.get("errors"),
        "score_mean": summary.get("score_mean"),
        "success_rate": summary.get("success_rate"),
        "not_applicable": summary.get("not_applicable") or {},
        "fpr": summary.get("fpr"),
        "seconds_total": seconds,
        "invocations": len(info.get("invocations") or []),
        "error": info.get("error"),
    }


def list_runs(root: Path | str = "runs") -> list[dict[str, Any]]:
    """Every run directory directly under ``root`` (or ``root`` itself), newest first."""
    base = Path(root)
    candidates = [base] if (base / RUN_FILE).is_file() or (base / RESULTS_FILE).is_file() else []
    if base.is_dir():
        candidates += sorted(
            p for p in base.iterdir() if p.is_dir() and ((p / RUN_FILE).is_file() or (p / RESULTS_FILE).is_file())
        )
    runs = [describe_run(p) for p in candidates]
    runs.sort(key=lambda r: (str(r.get("started_at") or ""), r["dir"]), reverse=True)
    return runs

"""``DIR/run.json``: the run's configuration, its first start, and one entry per invocation.

A resume never erases history: ``started_at`` stays the first start, ``invocations`` gains one
entry per ``navworld eval`` on the directory (``started_at``, ``ended_at``, ``seconds``, ``new``,
``retried``, ``status``, ``error``), ``seconds_total`` adds their wall times, and ``status`` /
``summary`` describe the latest invocation. Status values:

* ``running`` — an invocation is in progress (or was killed without a chance to record more);
* ``complete`` — every planned (task, epoch) has a row (rows with an ``error`` included);
* ``incomplete`` — the invocation ended but rows are missing (lost workers): re-run to resume;
* ``interrupted`` — Ctrl-C;
* ``failed`` — the invocation stopped on an exception (e.g. Ray could not start); ``error`` says why.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from navworld.core.versions import PACKAGE_VERSION
from navworld.runner.config import EvalConfig, versions

__all__ = ["RUN_FILE", "STATUSES", "finish_invocation", "read_run_json", "start_invocation", "write_run_json"]

RUN_FILE = "run.json"
STATUSES = ("running", "complete", "incomplete", "interrupted", "failed")


def now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_run_json(run_dir: Path | str) -> dict[str, Any]:
    """The parsed ``run.json`` of ``run_dir`` (``{}`` when missing or unreadable)."""
    try:
        data = json.loads((Path(run_dir) / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write(run_dir: Path, data: dict[str, Any]) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / RUN_FILE
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def write_run_json(config: EvalConfig, run_dir: Path, **extra: Any) -> None:
    """Merge ``extra`` into ``run.json`` with the resolved config (no secrets) and versions."""
    data = {
        **read_run_json(run_dir),
        "config": config.public_dict(),
        "versions": {**versions(), "package_version": PACKAGE_VERSION},
        **extra,
    }
    _write(run_dir, data)


def _history(previous: dict[str, Any]) -> list[dict[str, Any]]:
    """The invocation list of an existing run.json (one synthesised from an older format)."""
    items = previous.get("invocations")
    if isinstance(items, list):
        return [i for i in items if isinstance(i, dict)]
    if previous.get("started_at"):
        summary = previous.get("summary") or {}
        return [
            {
                "started_at": previous.get("started_at"),
                "ended_at": previous.get("ended_at"),
                "seconds": summary.get("seconds"),
                "new": summary.get("new"),
                "status": previous.get("status"),
            }
        ]
    return []


def start_invocation(config: EvalConfig, run_dir: Path, started_at: str, **extra: Any) -> None:
    """Record the start of an invocation: the first start is kept, a new history entry appended."""
    previous = read_run_json(run_dir)
    history = _history(previous)
    history.append({"started_at": started_at, "ended_at": None, "status": "running"})
    write_run_json(
        config,
        run_dir,
        status="running",
        started_at=previous.get("started_at") or started_at,
        ended_at=None,
        invocations=history,
        **extra,
    )


def finish_invocation(
    config: EvalConfig,
    run_dir: Path,
    *,
    status: str,
    summary: dict[str, Any],
    seconds: float,
    retried: int = 0,
    error: str | None = None,
) -> None:
    """Record how the latest invocation ended (status, summary, wall time, error)."""
    previous = read_run_json(run_dir)
    history = _history(previous)
    ended = now()
    entry = {
        "ended_at": ended,
        "seconds": round(seconds, 3),
        "new": summary.get("new"),
        "retried": retried,
        "status": status,
        "error": error,
    }
    if history and history[-1].get("status") == "running":
        history[-1].update(entry)
    else:
        history.append({"started_at": ended, **entry})
    total = sum(float(i.get("seconds") or 0.0) for i in history)
    write_run_json(
        config,
        run_dir,
        status=status,
        error=error,
        ended_at=ended,
        seconds_total=round(total, 3),
        invocations=history,
        summary=summary,
    )

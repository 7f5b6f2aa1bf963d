"""Compact per-task exports of a run: CSV (one line per (task, epoch), spreadsheet-friendly).

``navworld export DIR --format csv`` and ``navworld eval … --csv FILE`` use :func:`write_csv`.
Columns (:data:`CSV_COLUMNS`): identity, status (``pass``/``fail``/``code-only``/``error``),
scores, plan metrics, how the episode ended, cost, and the error or judge failure text. Code-only
rows leave ``success`` empty (not applicable: the code score alone cannot reach 60).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from navworld.runner.rowinfo import is_judge_failure, row_status, truncated

__all__ = ["CSV_COLUMNS", "EXPORT_FORMATS", "csv_record", "rows_to_csv", "write_csv"]

CSV_COLUMNS = (
    "task_id",
    "epoch",
    "problem_type",
    "difficulty",
    "lang",
    "status",
    "score",
    "code_score",
    "llm_score",
    "success",
    "delivered",
    "final_pass",
    "env_passed",
    "env_total",
    "logic_passed",
    "logic_total",
    "finish",
    "truncated",
    "steps",
    "tool_calls",
    "total_tokens",
    "seconds",
    "agent",
    "judge",
    "judge_error",
    "error",
    "salt",
    "content_hash",
)
EXPORT_FORMATS = ("csv",)
"""Formats of ``navworld export`` built here (others may be registered by other modules)."""


def _num(value: Any) -> Any:
    return "" if value is None else value


def csv_record(row: dict[str, Any]) -> dict[str, Any]:
    """One CSV record (a dict keyed by :data:`CSV_COLUMNS`) for a result row."""
    status = row_status(row)
    report = row.get("report") or {}
    metrics = (row.get("plan") or {}).get("metrics") or {}
    llm = (report.get("llm_score") or {}).get("subtotal") if status in ("pass", "fail") else None
    agent = row.get("agent") or {}
    judge = row.get("judge") or {}
    return {
        "task_id": row.get("task_id"),
        "epoch": row.get("epoch", 0),
        "problem_type": row.get("problem_type", ""),
        "difficulty": row.get("difficulty", ""),
        "lang": row.get("lang", ""),
        "status": status,
        "score": _num(row.get("score")),
        "code_score": _num(row.get("code_score")),
        "llm_score": _num(llm),
        "success": "" if status in ("code-only", "error") else bool(row.get("success")),
        "delivered": _num(metrics.get("delivered")),
        "final_pass": _num(metrics.get("final_pass")),
        "env_passed": _num(metrics.get("env_passed")),
        "env_total": _num(metrics.get("env_total")),
        "logic_passed": _num(metrics.get("logic_passed")),
        "logic_total": _num(metrics.get("logic_total")),
        "finish": row.get("finish") or "",
        "truncated": truncated(row),
        "steps": _num(row.get("steps")),
        "tool_calls": _num(row.get("tool_calls")),
        "total_tokens": int((row.get("tokens") or {}).get("total_tokens", 0) or 0),
        "seconds": _num(row.get("seconds")),
        "agent": agent.get("name") or agent.get("model") or agent.get("kind") or "",
        "judge": ",".join(judge.get("models") or []) if judge else "",
        "judge_error": str(report.get("llm_error") or "") if is_judge_failure(row) else "",
        "error": str(row.get("error") or "").replace("\n", " "),
        "salt": row.get("salt", ""),
        "content_hash": row.get("content_hash", ""),
    }


def _sorted(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (int(r.get("task_id", 0)), int(r.get("epoch", 0))))


def _write(rows: Iterable[dict[str, Any]], handle: TextIO) -> int:
    writer = csv.DictWriter(handle, fieldnames=list(CSV_COLUMNS), lineterminator="\n")
    writer.writeheader()
    count = 0
    for row in _sorted(rows):
        writer.writerow(csv_record(row))
        count += 1
    return count


def rows_to_csv(rows: Iterable[dict[str, Any]]) -> str:
    """The CSV text (header included) of ``rows``, sorted by task and epoch."""
    buffer = io.StringIO()
    _write(rows, buffer)
    return buffer.getvalue()


def write_csv(rows: Iterable[dict[str, Any]], path: Path | str) -> int:
    """Write the CSV of ``rows`` to ``path`` (UTF-8, atomically); return the number of rows."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as handle:
        count = _write(rows, handle)
    tmp.replace(target)
    return count

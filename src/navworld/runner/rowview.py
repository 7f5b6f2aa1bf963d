"""A terminal view of one result row (``navworld show DIR TASK``): status, reasons, score tree,
answer and, on request, the trace — plain text, so it can be piped or pasted into an issue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from navworld.runner.breakdown import breakdown, render_text
from navworld.runner.results import load_rows, load_trace
from navworld.runner.rowinfo import is_judge_failure, row_status, truncated, was_judged

__all__ = ["MESSAGE_CHARS", "find_rows", "render_row"]

MESSAGE_CHARS = 2000
"""Trace messages and the answer are cut to this many characters unless ``full``."""


def find_rows(run_dir: Path | str, task_id: int, epoch: int | None = None) -> list[dict[str, Any]]:
    """The rows of ``task_id`` (one epoch or all), sorted by epoch."""
    rows = [r for r in load_rows(Path(run_dir)) if r.get("task_id") == task_id]
    if epoch is not None:
        rows = [r for r in rows if int(r.get("epoch", 0)) == epoch]
    return sorted(rows, key=lambda r: int(r.get("epoch", 0)))


def _cut(text: Any, limit: int | None) -> str:
    text = "" if text is None else (text if isinstance(text, str) else json.dumps(text, ensure_ascii=False))
    if limit is None or len(text) <= limit:
        return text
    return text[:limit] + f" … ({len(text) - limit} more characters; --full shows all)"


def _trace_lines(trace: list[dict[str, Any]], limit: int | None) -> list[str]:
    names: dict[str, str] = {}
    lines: list[str] = []
    for i, message in enumerate(trace):
        role = str(message.get("role", "?"))
        content = message.get("content")
        if role == "system":
            lines.append(f"[{i}] system ({len(str(content or ''))} characters)")
            if limit is None:
                lines.append(str(content or ""))
            continue
        if role == "tool":
            name = names.get(str(message.get("tool_call_id")), "")
            lines.append(f"[{i}] tool {name}".rstrip())
        else:
            lines.append(f"[{i}] {role}")
        if content:
            lines.append(_cut(content, limit))
        for call in message.get("tool_calls") or []:
            fn = call.get("function") or {}
            names[str(call.get("id"))] = str(fn.get("name", ""))
            lines.append(f"    → {fn.get('name')} {_cut(fn.get('arguments', ''), limit)}")
    return lines


def render_row(row: dict[str, Any], run_dir: Path | str, *, trace: bool = False, full: bool = False) -> str:
    """The text view of ``row`` (see the module docstring)."""
    from navworld.runner.report import failed_checks

    limit = None if full else MESSAGE_CHARS
    report = row.get("report") or {}
    status = row_status(row)
    if not row.get("judge"):
        judge = "no judge (code-only)"
    elif is_judge_failure(row):
        judge = "judge failed"
    else:
        judge = f"judge {((report.get('llm_score') or {}).get('subtotal'))}" if was_judged(row) else "judge —"
    metrics = (row.get("plan") or {}).get("metrics") or {}
    plan = "not verified" if row.get("error") else ("final pass" if metrics.get("final_pass") else "plan not passed")
    head = [
        f"task {row.get('task_id')} / epoch {row.get('epoch', 0)} · {row.get('problem_type')} · difficulty "
        f"{row.get('difficulty')} · {status}",
        f"score {row.get('score')} (code {row.get('code_score')}, {judge}) · {plan} · finish {row.get('finish') or '—'}"
        + (" · answer cut at max_tokens" if truncated(row) else "")
        + f" · steps {row.get('steps')} · tool calls {row.get('tool_calls')} · {row.get('seconds')} s"
        + f" · tokens {(row.get('tokens') or {}).get('total_tokens', 0)}",
    ]
    if row.get("error"):
        head.append(f"error: {row['error']}")
    if is_judge_failure(row):
        head.append(f"judge failed: {report.get('llm_error')}")
    parts = [*head, "", "── failed checks ──"]
    reasons = failed_checks(row)
    parts += [f"- {r}" for r in reasons] or ["nothing failed"]
    parts += ["", "── score breakdown ──", *render_text(breakdown(row))]
    parts += ["", "── answer ──", _cut(row.get("answer") or "", None if full else MESSAGE_CHARS * 4) or "(empty)"]
    if trace:
        parts += ["", "── trace ──", *(_trace_lines(load_trace(Path(run_dir), row), limit) or ["no trace recorded"])]
    return "\n".join(parts).rstrip() + "\n"

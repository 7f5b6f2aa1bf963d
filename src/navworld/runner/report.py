"""``DIR/report.html``: a self-contained HTML report of a run (jinja2 + plotly, fully offline).

Charts are plotly figures with plotly.js inlined once (``include_plotlyjs=True`` on the first
figure only); the page references no network asset (no CDN, no web font). All model and tool
text goes through jinja2 autoescaping; figure data is JSON-escaped by plotly. With ``vs`` the
report adds a comparison with another run directory on the tasks both runs share.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from statistics import fmean
from typing import Any

from navworld.core.versions import PACKAGE_VERSION
from navworld.runner.metrics import METRIC_KEYS
from navworld.runner.results import load_rows, load_trace
from navworld.runner.summary import summarize

__all__ = ["REPORT_FILE", "build_report", "failed_checks", "write_report"]

log = logging.getLogger(__name__)

REPORT_FILE = "report.html"
MAX_MESSAGE_CHARS = 1500
"""Each trace message is cut to this many characters in the report (results.jsonl keeps all)."""
_PLOTLY_CONFIG = {"displaylogo": False, "responsive": True, "showSendToCloud": False}


def _run_info(run_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _summary_for(rows: list[dict[str, Any]], info: dict[str, Any]) -> dict[str, Any]:
    epochs = max((int(r.get("epoch", 0)) + 1 for r in rows), default=1)
    tasks = len({r.get("task_id") for r in rows})
    seconds = float(((info.get("summary") or {}).get("seconds")) or 0.0)
    return summarize(rows, tasks=tasks, epochs=epochs, new=0, seconds=seconds, seed=str(info.get("salt", "")))


def failed_checks(row: dict[str, Any]) -> list[str]:
    """Human-readable reasons a row lost points: failed hard constraints, checks and programs."""
    reasons: list[str] = []
    if row.get("error"):
        reasons.append(f"error: {row['error']}")
    report = row.get("report") or {}
    hard = report.get("hard_constraints")
    if isinstance(hard, dict):
        for name, value in hard.items():
            ok = value.get("passed", value.get("ok")) if isinstance(value, dict) else value
            if ok is False:
                reasons.append(f"hard constraint failed: {name}")
    for key in ("reasons", "violations", "failures", "penalties"):
        items = report.get(key)
        if isinstance(items, list):
            reasons.extend(str(item) for item in items if item)
    plan = row.get("plan") or {}
    verification = plan.get("verification") or {}
    if not row.get("error") and (not verification or not verification.get("delivered", True)):
        why = (verification.get("reasons") or {}).get("delivered") if verification else None
        reasons.append("no structured plan delivered" + (f" ({why})" if why else ""))
    env = verification.get("env") or {}
    why_env = verification.get("reasons") or {}
    for name, ok in (env.get("checks") or {}).items():
        if ok is not True and verification.get("delivered", True):
            why = why_env.get(name) if isinstance(why_env, dict) else None
            reasons.append(f"environment check failed: {name}" + (f" ({why})" if why else ""))
    logic = verification.get("logic") or {}
    nl = plan.get("constraints") or []
    errors = logic.get("errors") or []
    for i, ok in enumerate(logic.get("results") or []):
        if ok is not True:
            label = nl[i] if i < len(nl) else f"constraint #{i + 1}"
            why = (
                errors[i]
                if i < len(errors) and errors[i]
                else ("not satisfied" if ok is False else "not evaluated")
            )
            reasons.append(f"constraint failed: {label} ({why})")
    return reasons


def _status(row: dict[str, Any]) -> str:
    """``error``, ``pass``/``fail`` against the success mark, or ``code-only`` when no judge scored
    the row (a code-only total is at most 50, so it can never reach the success mark of 60)."""
    if row.get("error"):
        return "error"
    if row.get("success"):
        return "pass"
    return "fail" if row.get("judge") else "code-only"


def _cut(text: Any, limit: int = MAX_MESSAGE_CHARS) -> str:
    text = "" if text is None else (text if isinstance(text, str) else json.dumps(text, ensure_ascii=False))
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit} more characters in results.jsonl)"


def _bubbles(trace: list[dict[str, Any]], system_prompts: dict[str, int]) -> list[dict[str, Any]]:
    """Trace messages prepared for the template (text cut, tool calls unpacked).

    System prompts are shown once in the report (section "System prompts"); a trace refers to
    them by number, which keeps a 700-task report small.
    """
    names: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for message in trace:
        role = str(message.get("role", "unknown"))
        if role == "system" and isinstance(message.get("content"), str):
            number = system_prompts.setdefault(message["content"], len(system_prompts) + 1)
            out.append({"role": role, "content": "", "system_ref": number, "calls": []})
            continue
        calls = []
        for call in message.get("tool_calls") or []:
            fn = call.get("function") or {}
            names[str(call.get("id"))] = str(fn.get("name", ""))
            args = fn.get("arguments", "")
            try:
                args = json.dumps(json.loads(args), ensure_ascii=False, indent=1)
            except (TypeError, ValueError):
                pass
            calls.append({"id": call.get("id"), "name": fn.get("name"), "arguments": _cut(args)})
        out.append(
            {
                "role": role,
                "content": _cut(message.get("content")),
                "calls": calls,
                "tool_name": names.get(str(message.get("tool_call_id")), message.get("name", "")),
                "tool_call_id": message.get("tool_call_id"),
            }
        )
    return out


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def _breakdown(report: dict[str, Any] | None) -> list[tuple[str, str]]:
    """Flatten the score report into (path, value) pairs for a compact table."""
    pairs: list[tuple[str, str]] = []

    def walk(prefix: str, value: Any, depth: int) -> None:
        if isinstance(value, dict) and depth < 3:
            for key, sub in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), sub, depth + 1)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            pairs.append((prefix, f"[{len(value)} items]"))
        else:
            text = (
                _fmt(value) if not isinstance(value, list | dict) else json.dumps(value, ensure_ascii=False)
            )
            pairs.append((prefix, _cut(text, 300)))

    walk("", report or {}, 0)
    return pairs


def _figures(rows: list[dict[str, Any]], summary: dict[str, Any]) -> list[dict[str, str]]:
    import plotly.graph_objects as go

    scored = [r for r in rows if isinstance(r.get("score"), int | float) and not r.get("error")]
    scores = [float(r["score"]) for r in scored]
    figs: list[tuple[str, str, Any]] = []
    hist = go.Figure(
        go.Histogram(x=scores, xbins={"start": 0, "end": 100, "size": 5}, marker_color="#3b6ea8")
    )
    hist.update_layout(
        xaxis_title="total score (0–100)", yaxis_title="rows", bargap=0.05, xaxis_range=[0, 100]
    )
    hist.add_vline(x=60, line_dash="dash", line_color="#b33", annotation_text="success ≥ 60")
    figs.append(("fig-scores", "Score distribution", hist))

    def bars(key: str, title: str, order: Iterable[Any] | None = None) -> None:
        groups: dict[Any, list[float]] = defaultdict(list)
        success: dict[Any, list[float]] = defaultdict(list)
        for r in scored:
            groups[r.get(key)].append(float(r["score"]))
            success[r.get(key)].append(100.0 if float(r["score"]) >= 60 else 0.0)
        keys = [k for k in (order or sorted(groups, key=str)) if k in groups]
        labels = [str(k) for k in keys]
        fig = go.Figure(
            [
                go.Bar(
                    name="mean score", x=labels, y=[fmean(groups[k]) for k in keys], marker_color="#3b6ea8"
                ),
                go.Bar(
                    name="success %", x=labels, y=[fmean(success[k]) for k in keys], marker_color="#7aa65a"
                ),
            ]
        )
        fig.update_layout(barmode="group", yaxis_range=[0, 100], xaxis_title=key.replace("_", " "))
        figs.append((f"fig-{key}", title, fig))

    from navworld.core.problem import PROBLEM_TYPES

    bars("problem_type", "By problem type", PROBLEM_TYPES)
    bars("difficulty", "By difficulty", [1, 2, 3])
    values = [summary.get(k) for k in METRIC_KEYS]
    metric_fig = go.Figure(
        go.Bar(
            x=list(METRIC_KEYS),
            y=[100 * v if isinstance(v, int | float) else 0 for v in values],
            marker_color="#8a5fb0",
        )
    )
    metric_fig.update_layout(yaxis_range=[0, 100], yaxis_title="%")
    figs.append(("fig-metrics", "Plan metrics (ChinaTravel)", metric_fig))
    out = []
    for index, (div_id, title, fig) in enumerate(figs):
        fig.update_layout(height=340, margin={"l": 50, "r": 20, "t": 30, "b": 50}, template="plotly_white")
        html = fig.to_html(
            full_html=False,
            include_plotlyjs=index == 0,
            div_id=div_id,
            config=_PLOTLY_CONFIG,
            include_mathjax=False,
        )
        out.append({"id": div_id, "title": title, "html": html})
    return out


def _comparison(
    rows: list[dict[str, Any]],
    other: list[dict[str, Any]],
    summary: dict[str, Any],
    other_summary: dict[str, Any],
) -> dict[str, Any]:
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


def build_report(
    run_dir: Path | str, vs: Path | str | None = None, *, max_chars: int = MAX_MESSAGE_CHARS
) -> str:
    """Render the report of ``run_dir`` (optionally compared with run ``vs``) to an HTML string."""
    import jinja2

    run_dir = Path(run_dir)
    info = _run_info(run_dir)
    rows = sorted(load_rows(run_dir), key=lambda r: (int(r.get("task_id", 0)), int(r.get("epoch", 0))))
    summary = _summary_for(rows, info)
    tasks = []
    system_prompts: dict[str, int] = {}
    for r in rows:
        metrics = (r.get("plan") or {}).get("metrics") or {}
        tasks.append(
            {
                "row": r,
                "score": _fmt(r.get("score")),
                "code_score": _fmt(r.get("code_score")),
                "status": _status(r),
                "final_pass": metrics.get("final_pass"),
                "reasons": failed_checks(r),
                "breakdown": _breakdown(r.get("report")),
                "verification": json.dumps(
                    (r.get("plan") or {}).get("verification"), ensure_ascii=False, indent=1
                ),
                "answer": _cut(r.get("answer"), max(max_chars * 4, 8000)),
                "bubbles": _bubbles(load_trace(run_dir, r), system_prompts) if max_chars else [],
            }
        )
    comparison = None
    if vs is not None:
        other_rows = load_rows(Path(vs))
        comparison = _comparison(rows, other_rows, summary, _summary_for(other_rows, _run_info(Path(vs))))
        comparison["path"] = str(vs)
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("navworld.runner", "templates"),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    template = env.get_template("report.html.j2")
    return template.render(
        title=f"navworld eval — {run_dir.name}",
        run_dir=str(run_dir),
        info=info,
        config_json=json.dumps(info.get("config"), ensure_ascii=False, indent=1),
        summary=[
            (k, _fmt(v) if not isinstance(v, dict | list) else json.dumps(v)) for k, v in summary.items()
        ],
        figures=_figures(rows, summary) if rows else [],
        tasks=tasks,
        comparison=comparison,
        code_only=bool(rows) and all(not r.get("judge") for r in rows),
        system_prompts=[(n, _cut(text, 20000)) for text, n in system_prompts.items()],
        generated=datetime.now(UTC).isoformat(timespec="seconds"),
        package_version=PACKAGE_VERSION,
    )


def write_report(run_dir: Path | str, vs: Path | str | None = None, out: Path | str | None = None) -> Path:
    """Write the report (default ``run_dir/report.html``) atomically and return its path."""
    run_dir = Path(run_dir)
    target = Path(out) if out else run_dir / REPORT_FILE
    html = build_report(run_dir, vs)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(target)
    return target

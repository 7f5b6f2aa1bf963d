"""``DIR/report.html``: a light, self-contained HTML report of a run (fully offline).

* Charts are inline SVG (:mod:`navworld.runner.report_svg`); no charting library, no CDN, no
  web font, no image.
* Per-task drill-downs (trace, failed checks, score tree, answer) are pre-rendered, stored
  LZMA-compressed and inserted only when a row is opened (:mod:`navworld.runner.report_payload`),
  so a 70-task report is well under 1.5 MB and a 700-task one under 10 MB, and both open fast.
* The summary is the one ``navworld eval`` printed (stored in ``run.json``), so the figures are
  identical; it is recomputed only when the directory holds other rows.
* All model and tool text goes through jinja2 autoescaping.

``vs`` adds a comparison with another run directory on the tasks both share; without an
explicit ``out`` it is written to ``DIR/report-vs-<OTHER>.html`` so DIR's own report stays.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from pathlib import Path
from statistics import fmean
from typing import Any

from navworld.core.versions import PACKAGE_VERSION
from navworld.runner.breakdown import breakdown
from navworld.runner.metrics import METRIC_KEYS
from navworld.runner.report_compare import comparison
from navworld.runner.report_payload import MAX_MESSAGE_CHARS, bubbles, cut, pack
from navworld.runner.report_svg import bar_chart, histogram
from navworld.runner.results import load_rows, load_trace
from navworld.runner.rowinfo import is_judge_failure, row_status, truncated, was_judged
from navworld.runner.runinfo import read_run_json
from navworld.runner.summary import summarize

__all__ = ["REPORT_FILE", "build_report", "comparison_path", "failed_checks", "write_report"]

REPORT_FILE = "report.html"
SUCCESS_MARK = 60.0
_MEANING = {
    "score_mean": "mean total score (0–100) of scored rows",
    "code_score_mean": "mean code score (0–50)",
    "success_rate": "share of scored rows with total ≥ 60",
    "dr": "delivery rate: a structured plan was delivered",
    "epr_micro": "environment checks passed / checks evaluated",
    "epr_macro": "plans passing every environment check",
    "lpr_micro": "constraint programs satisfied / programs",
    "lpr_macro": "plans satisfying every constraint program",
    "c_lpr": "programs satisfied by environment-valid plans / programs",
    "fpr": "final pass rate: environment and all constraints pass",
}
_HIDDEN_KEYS = {"not_applicable", "judge_failures", "error_kinds", "new_errors"}


def failed_checks(row: dict[str, Any]) -> list[str]:
    """Human-readable reasons a row lost points: failed hard constraints, checks and programs."""
    reasons: list[str] = []
    if row.get("error"):
        reasons.append(f"error: {row['error']}")
    report = row.get("report") or {}
    if is_judge_failure(row):
        reasons.append(f"judge failed: {report.get('llm_error')}")
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


def _summary_for(rows: list[dict[str, Any]], info: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """(summary, stored): the summary ``navworld eval`` printed when it covers exactly these rows."""
    stored = info.get("summary")
    if isinstance(stored, dict) and stored.get("completed") == len(rows) and "not_applicable" in stored:
        return stored, True
    epochs = max((int(r.get("epoch", 0)) + 1 for r in rows), default=1)
    tasks = len({r.get("task_id") for r in rows})
    seconds = float(info.get("seconds_total") or (info.get("summary") or {}).get("seconds") or 0.0)
    salt = str((info.get("config") or {}).get("salt", ""))
    return summarize(rows, tasks=tasks, epochs=epochs, new=0, seconds=seconds, seed=salt), False


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def _summary_items(summary: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(key, value text, note) for the summary grid; not-applicable figures say why."""
    na = summary.get("not_applicable") or {}
    items = []
    for key, value in summary.items():
        if key in _HIDDEN_KEYS:
            continue
        if key in na:
            items.append((key, "n/a", str(na[key])))
        elif isinstance(value, dict | list):
            items.append((key, ", ".join(f"{k}: {v}" for k, v in value.items()) if isinstance(value, dict) else
                          ", ".join(map(str, value)), ""))
        else:
            items.append((key, _fmt(value), ""))
    return items


def _charts(rows: list[dict[str, Any]], summary: dict[str, Any]) -> list[dict[str, str]]:
    scored = [r for r in rows if isinstance(r.get("score"), int | float) and not r.get("error")]
    success_applies = "success_rate" not in (summary.get("not_applicable") or {})
    charts = [{"id": "fig-scores", "title": "Score distribution", "svg": histogram([float(r["score"]) for r in scored])}]

    def grouped(key: str, title: str, order: Iterable[Any]) -> None:
        groups: dict[Any, list[float]] = defaultdict(list)
        for r in scored:
            groups[r.get(key)].append(float(r["score"]))
        keys = [k for k in order if k in groups] + sorted((k for k in groups if k not in order), key=str)
        series: list[tuple[str, list[float | None]]] = [("mean score", [fmean(groups[k]) for k in keys])]
        if success_applies:
            series.append(("success %", [100 * fmean(1.0 if s >= SUCCESS_MARK else 0.0 for s in groups[k]) for k in keys]))
        charts.append({"id": f"fig-{key}", "title": title, "svg": bar_chart([str(k) for k in keys], series, y_label="score / %")})

    from navworld.core.problem import PROBLEM_TYPES

    grouped("problem_type", "By problem type", list(PROBLEM_TYPES))
    grouped("difficulty", "By difficulty", [1, 2, 3])
    values = [summary.get(k) for k in METRIC_KEYS]
    charts.append(
        {
            "id": "fig-metrics",
            "title": "Plan metrics (ChinaTravel), %",
            "svg": bar_chart(
                list(METRIC_KEYS),
                [("value %", [100 * v if isinstance(v, int | float) else None for v in values])],
                y_label="%",
            ),
        }
    )
    return charts


def _judge_cell(row: dict[str, Any]) -> tuple[str, str]:
    """(text, css class) of the judge column."""
    if row.get("error"):
        return "—", "muted"
    if not row.get("judge"):
        return "no judge", "muted"
    if is_judge_failure(row):
        return "judge failed", "fail"
    llm = ((row.get("report") or {}).get("llm_score") or {}).get("subtotal")
    return (_fmt(llm) if was_judged(row) else "—"), ""


def _plan_cell(row: dict[str, Any]) -> tuple[str, str]:
    if row.get("error"):
        return "not verified", "muted"
    metrics = (row.get("plan") or {}).get("metrics") or {}
    if not metrics.get("delivered"):
        return "no plan", "fail"
    return ("final pass", "pass") if metrics.get("final_pass") else ("not passed", "fail")


def _first_reason(row: dict[str, Any], reasons: list[str]) -> str:
    text = reasons[0] if reasons else ""
    return text if len(text) <= 110 else text[:109] + "…"


@cache
def _lzma_js() -> str:
    return resources.files("navworld.runner").joinpath("templates/vendor/lzma-d-min.js").read_text(encoding="utf-8")


def _environment() -> Any:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("navworld.runner", "templates"),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _banners(summary: dict[str, Any], info: dict[str, Any], code_only: bool) -> list[tuple[str, str]]:
    """(css class, text) of the notices above the summary."""
    out = []
    status = info.get("status")
    if status and status != "complete":
        extra = f": {info['error']}" if info.get("error") else ""
        out.append(("warn", f"run status: {status}{extra} — re-run the same navworld eval command to resume"))
    failures = summary.get("judge_failures") or {}
    if failures.get("count"):
        reasons = ", ".join(f"{k} ×{v}" for k, v in (failures.get("reasons") or {}).items())
        out.append(("fail", f"judge failed on {failures['count']} of {failures.get('of')} rows: {reasons} — those rows are scored code-only (max 50)"))
    if summary.get("errors"):
        kinds = ", ".join(f"{k} ×{v}" for k, v in (summary.get("error_kinds") or {}).items())
        out.append(("error", f"{summary['errors']} rows failed on infrastructure ({kinds}): not scored, excluded from every mean, retried on resume"))
    if code_only:
        out.append(("muted", "No LLM judge scored these rows: scores are code-only (at most 50 of 100), so success and pass@k do not apply (the success mark is 60)."))
    return out


def _tasks(run_dir: Path, rows: list[dict[str, Any]], env: Any) -> tuple[list[dict[str, Any]], list[str], dict[str, int]]:
    fragment = env.get_template("drilldown.html.j2")
    system_prompts: dict[str, int] = {}
    tasks, fragments = [], []
    for r in rows:
        reasons = failed_checks(r)
        answer = str(r.get("answer") or "")
        trace = load_trace(run_dir, r)
        judge_text, judge_class = _judge_cell(r)
        plan_text, plan_class = _plan_cell(r)
        status = row_status(r)
        tasks.append(
            {
                "row": r,
                "status": status,
                "score": _fmt(r.get("score")) if status != "error" else "—",
                "code_score": _fmt(r.get("code_score")),
                "judge": judge_text,
                "judge_class": judge_class,
                "plan": plan_text,
                "plan_class": plan_class,
                "finish": r.get("finish") or ("error" if status == "error" else "—"),
                "truncated": truncated(r),
                "reason": _first_reason(r, reasons),
            }
        )
        fragments.append(
            fragment.render(
                row=r,
                bubbles=bubbles(trace, system_prompts, answer),
                reasons=reasons,
                root=breakdown(r),
                answer=cut(answer, MAX_MESSAGE_CHARS * 4),
                truncated=truncated(r),
                finish=r.get("finish"),
                error=r.get("error"),
                judge_error=(r.get("report") or {}).get("llm_error") if is_judge_failure(r) else None,
            )
        )
    return tasks, fragments, system_prompts


def build_report(run_dir: Path | str, vs: Path | str | None = None) -> str:
    """Render the report of ``run_dir`` (optionally compared with run ``vs``) to an HTML string."""
    run_dir = Path(run_dir)
    info = read_run_json(run_dir)
    rows = sorted(load_rows(run_dir), key=lambda r: (int(r.get("task_id", 0)), int(r.get("epoch", 0))))
    summary, stored = _summary_for(rows, info)
    env = _environment()
    tasks, fragments, system_prompts = _tasks(run_dir, rows, env)
    packed = pack(fragments)
    for task, (chunk, position) in zip(tasks, packed.where, strict=True):
        task["chunk"], task["pos"] = chunk, position
    compared = None
    if vs is not None:
        other_rows = load_rows(Path(vs))
        compared = comparison(rows, other_rows, summary, _summary_for(other_rows, read_run_json(Path(vs)))[0])
        compared["path"] = str(vs)
    scored = [r for r in rows if not r.get("error")]
    code_only = bool(scored) and not any(was_judged(r) for r in scored)
    return env.get_template("report.html.j2").render(
        title=f"navworld eval — {run_dir.name}",
        run_dir=str(run_dir),
        info=info,
        config=info.get("config") or {},
        summary_items=_summary_items(summary),
        summary_stored=stored,
        meaning=_MEANING,
        banners=_banners(summary, info, code_only),
        charts=_charts(rows, summary) if rows else [],
        tasks=tasks,
        types=sorted({str(r.get("problem_type")) for r in rows}),
        finishes=sorted({t["finish"] for t in tasks}),
        chunks=packed.chunks,
        comparison=compared,
        invocations=info.get("invocations") or [],
        system_prompts=[(n, cut(text, 40_000)) for text, n in system_prompts.items()],
        lzma_js=_lzma_js(),
        generated=datetime.now(UTC).isoformat(timespec="seconds"),
        package_version=PACKAGE_VERSION,
    )


def comparison_path(run_dir: Path | str, vs: Path | str) -> Path:
    """Where ``report DIR --vs OTHER`` writes without ``--out``: ``DIR/report-vs-<OTHER>.html``."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(vs).resolve().name) or "other"
    return Path(run_dir) / f"report-vs-{name}.html"


def write_report(run_dir: Path | str, vs: Path | str | None = None, out: Path | str | None = None) -> Path:
    """Write the report atomically and return its path.

    Default path: ``run_dir/report.html``, or ``run_dir/report-vs-<OTHER>.html`` with ``vs`` (so a
    comparison never overwrites the run's own report).
    """
    run_dir = Path(run_dir)
    if out:
        target = Path(out)
    elif vs is not None:
        target = comparison_path(run_dir, vs)
    else:
        target = run_dir / REPORT_FILE
    html = build_report(run_dir, vs)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(target)
    return target

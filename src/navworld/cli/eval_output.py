"""How ``navworld eval`` prints its summary: a table, one plain line, warnings; the exit status.

Figures that do not apply (success and pass@k of a code-only run) print as ``n/a (reason)``,
never as 0. The same summary dict is stored in ``run.json`` and shown by the report.
"""

from __future__ import annotations

from typing import Any

from navworld.cli import exitcodes
from navworld.core.errors import ConfigError

__all__ = [
    "attention_lines",
    "exit_status",
    "parse_fail_under",
    "plain_line",
    "print_chinatravel_table",
    "print_summary_table",
]

PLAIN_KEYS = ("tasks", "completed", "errors", "new", "score_mean", "success_rate", "fpr", "seconds")
_HIDDEN = {"not_applicable", "error_kinds", "judge_failures", "new_errors", "chinatravel"}
CHINATRAVEL_KEYS = (
    "n", "schema_pass", "epr_micro", "epr_macro", "lpr_micro", "lpr_macro", "c_lpr", "fpr", "dav", "att", "ddr",
    "tpc_overall", "columns", "exceptions",
)


def _value(summary: dict[str, Any], key: str) -> str:
    reason = (summary.get("not_applicable") or {}).get(key)
    if reason:
        return f"n/a ({reason})"
    value = summary.get(key)
    if value is None:
        return "—"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items()) or "—"
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 10 else f"{value:.2f}"
    return str(value)


def print_summary_table(summary: dict[str, Any], run_dir: str, console: Any) -> None:
    """The summary as a rich table on ``console``."""
    from rich.table import Table

    label = " — navworld profile" if isinstance(summary.get("chinatravel"), dict) else ""
    table = Table(title=f"navworld eval — {run_dir}{label}", show_header=True, header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right", overflow="fold")
    for key in summary:
        if key in _HIDDEN:
            continue
        table.add_row(key, _value(summary, key))
    failures = summary.get("judge_failures") or {}
    if failures.get("of"):
        table.add_row("judge_failures", f"{failures.get('count', 0)} of {failures['of']}")
    console.print(table)


def print_chinatravel_table(summary: dict[str, Any], console: Any) -> None:
    """ChinaTravel's own metrics (percent, their formulas) as a second, labelled table."""
    ct = summary.get("chinatravel")
    if not isinstance(ct, dict):
        return
    from rich.table import Table

    table = Table(title="ChinaTravel profile — their formulas, percent", show_header=True, header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key in CHINATRAVEL_KEYS:
        value = ct.get(key)
        table.add_row(key, "—" if value is None else (f"{value:.2f}" if isinstance(value, float) else str(value)))
    console.print(table)


def plain_line(summary: dict[str, Any]) -> str:
    """``tasks: 70  completed: 70  errors: 0  new: 70  score_mean: …`` (n/a figures say why)."""
    parts = []
    for key in PLAIN_KEYS:
        reason = (summary.get("not_applicable") or {}).get(key)
        parts.append(f"{key}: n/a ({reason})" if reason else f"{key}: {summary.get(key)}")
    ct = summary.get("chinatravel")
    if isinstance(ct, dict):
        parts.append(f"chinatravel fpr %: {ct.get('fpr')}  tpc_overall: {ct.get('tpc_overall')}")
    return "  ".join(parts)


def attention_lines(summary: dict[str, Any]) -> list[str]:
    """Warnings a user must not miss: judge failures, infrastructure errors by kind."""
    lines = []
    failures = summary.get("judge_failures") or {}
    if failures.get("count"):
        reasons = ", ".join(
            f"{reason}" + (f" ×{n}" if n > 1 and len(failures["reasons"]) > 1 else "")
            for reason, n in failures["reasons"].items()
        )
        lines.append(
            f"judge failed on {failures['count']} of {failures['of']} rows: {reasons} "
            "(those rows are scored code-only, max 50)"
        )
    if summary.get("errors"):
        kinds = ", ".join(f"{kind} ×{n}" for kind, n in (summary.get("error_kinds") or {}).items())
        lines.append(
            f"{summary['errors']} rows failed on infrastructure ({kinds}); they are not scored and are "
            "retried when you re-run the same command (--no-retry-errors keeps them)"
        )
    return lines


def parse_fail_under(text: str | None) -> tuple[str, float] | None:
    """``--fail-under [METRIC=]VALUE`` → (metric, threshold); the metric defaults to ``score_mean``."""
    if text is None or not str(text).strip():
        return None
    raw = str(text).strip()
    metric, _, value = raw.rpartition("=")
    metric = metric.strip() or "score_mean"
    from navworld.runner.summary import SUMMARY_KEYS

    numeric = [k for k in SUMMARY_KEYS if k not in ("tasks", "new", "seconds", "not_applicable", "judge_failures")]
    if metric not in (*numeric, "pass_k", "pass_hat_k"):
        raise ConfigError(f"--fail-under: unknown metric {metric!r} (use one of {', '.join(numeric)}, pass_k)")
    try:
        threshold = float(value)
    except ValueError:
        raise ConfigError(f"--fail-under must be [METRIC=]NUMBER, got {text!r}") from None
    return metric, threshold


def exit_status(summary: dict[str, Any], fail_under: tuple[str, float] | None) -> tuple[int, str | None]:
    """The exit status of a finished run and the line that explains a non-zero one."""
    new, errors, completed = summary.get("new", 0), summary.get("errors", 0), summary.get("completed", 0)
    scored = completed - errors
    if errors and (scored == 0 or (new and summary.get("new_errors", 0) >= new)):
        return exitcodes.ALL_ERRORS, (
            f"error: every row failed on infrastructure ({errors} rows; exit status {exitcodes.ALL_ERRORS})"
        )
    if fail_under is not None:
        metric, threshold = fail_under
        value = summary.get(metric)
        reason = (summary.get("not_applicable") or {}).get(metric)
        if reason:
            return exitcodes.FAILED, f"fail-under: {metric} is not applicable ({reason})"
        if not isinstance(value, int | float) or value < threshold:
            return exitcodes.FAILED, f"fail-under: {metric} {value} < {threshold}"
    return exitcodes.OK, None

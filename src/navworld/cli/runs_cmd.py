"""``navworld runs [ROOT]``: past runs (configuration, status, score), newest first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json, table_console

__all__ = ["runs_command"]


def _fmt(value: Any, na: str | None = None) -> str:
    if na:
        return "n/a"
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


@app.command("runs", cls=OneLineErrorCommand)
def runs_command(
    root: str = typer.Argument("runs", help="Directory holding run directories (default runs/)."),
    limit: int = typer.Option(None, "--limit", metavar="N", help="Show only the N newest runs."),
    json_out: bool = typer.Option(False, "--json", envvar="NAVWORLD_JSON", help="Print a JSON list."),
) -> None:
    """List past runs: when, status, agent, judge, tasks, completed/errors, score, FPR."""
    from navworld.runner.runs import list_runs

    if not Path(root).is_dir():
        bad_args(f"{root!r} is not a directory (run directories live under runs/ by default)")
    if limit is not None and limit < 1:
        bad_args(f"--limit must be >= 1, got {limit}")
    runs = list_runs(root)[: limit or None]
    if json_out:
        print_json(runs)
        return
    if not runs:
        typer.echo(f"no runs under {root}")
        return
    from rich.table import Table

    table = Table(title=f"runs under {root}", header_style="bold")
    for name in ("dir", "started", "status", "agent", "judge", "tasks", "salt", "done", "errors", "score", "success", "fpr", "seconds"):
        table.add_column(name, overflow="fold")
    for r in runs:
        na = r["not_applicable"]
        table.add_row(
            r["dir"], _fmt(r["started_at"]), r["status"], r["agent"], r["judge"] or "no judge",
            (r["tasks"] or "—") + (f" ({r['selection']})" if r["selection"] else ""), _fmt(r["salt"]),
            f"{_fmt(r['completed'])}/{_fmt(r['planned'])}", _fmt(r["errors"]), _fmt(r["score_mean"]),
            _fmt(r["success_rate"], na.get("success_rate")), _fmt(r["fpr"]), _fmt(r["seconds_total"]),
        )  # fmt: skip
    table_console().print(table)

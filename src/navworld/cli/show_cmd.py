"""``navworld show DIR TASK``: one result row in the terminal (or ``--json``)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json

__all__ = ["show_command"]


@app.command("show", cls=OneLineErrorCommand)
def show_command(
    run_dir: str = typer.Argument(..., metavar="DIR", help="A run directory (holding results.jsonl)."),
    task: str = typer.Argument(..., metavar="TASK", help="Task id (TASK or TASK/EPOCH)."),
    epoch: int = typer.Option(None, "--epoch", metavar="E", help="Only this epoch (default: every epoch)."),
    trace: bool = typer.Option(False, "--trace", help="Also print the trace (messages and tool calls)."),
    full: bool = typer.Option(False, "--full", help="Do not cut long messages."),
    json_out: bool = typer.Option(False, "--json", envvar="NAVWORLD_JSON", help="Print the row(s) as JSON."),
) -> None:
    """Show one task's row: status, failed checks, score tree, answer, optionally the trace."""
    from navworld.runner.results import RESULTS_FILE, load_trace
    from navworld.runner.rowview import find_rows, render_row

    directory = Path(run_dir)
    if not (directory / RESULTS_FILE).is_file():
        bad_args(f"{run_dir!r} is not a run directory (no {RESULTS_FILE})")
    text, _, epoch_text = task.partition("/")
    try:
        task_id = int(text.strip())
        if epoch_text.strip():
            epoch = int(epoch_text.strip())
    except ValueError:
        bad_args(f"TASK must be an integer id (or ID/EPOCH), got {task!r}")
    rows = find_rows(directory, task_id, epoch)
    if not rows:
        which = f"task {task_id}" + (f" epoch {epoch}" if epoch is not None else "")
        bad_args(f"{which} has no row in {run_dir} (navworld export {run_dir} --csv lists the rows)")
    if json_out:
        for row in rows:
            if row.get("trace") is None and row.get("trace_path"):
                row["trace"] = load_trace(directory, row)
        print_json(rows[0] if len(rows) == 1 else rows)
        return
    out = "\n".join(render_row(r, directory, trace=trace, full=full) for r in rows)
    sys.stdout.write(out)
    sys.stdout.flush()

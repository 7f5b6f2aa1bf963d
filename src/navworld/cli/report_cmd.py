"""``navworld report DIR [--vs OTHER] [--out FILE]``: (re)build the offline HTML report of a run."""

from __future__ import annotations

from pathlib import Path

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json

__all__ = ["report_command"]


@app.command("report", cls=OneLineErrorCommand)
def report_command(
    run_dir: str = typer.Argument(..., help="A run directory (holding results.jsonl)."),
    vs: str = typer.Option(None, "--vs", envvar="NAVWORLD_VS", help="Compare with this other run directory."),
    out: str = typer.Option(
        None, "--out", envvar="NAVWORLD_REPORT_OUT", help="Output file (default DIR/report.html)."
    ),
    json_out: bool = typer.Option(
        False, "--json", envvar="NAVWORLD_JSON", help='Print {"report": PATH, "rows": N}.'
    ),
) -> None:
    """Build DIR/report.html: charts, metrics, per-task drill-down, optional comparison."""
    from navworld.runner.report import write_report
    from navworld.runner.results import RESULTS_FILE, load_rows

    directory = Path(run_dir)
    if not (directory / RESULTS_FILE).is_file():
        bad_args(f"{run_dir!r} is not a run directory (no {RESULTS_FILE})")
    if vs is not None and not (Path(vs) / RESULTS_FILE).is_file():
        bad_args(f"--vs {vs!r} is not a run directory (no {RESULTS_FILE})")
    path = write_report(directory, vs=vs, out=out)
    if json_out:
        print_json({"report": str(path), "rows": len(load_rows(directory))})
    else:
        typer.echo(str(path))

"""``navworld export DIR --format csv`` (or ``--csv``): per-task results in other formats.

CSV is built in (:mod:`navworld.runner.export`); other formats register an exporter in
:data:`EXPORTERS` (``name -> callable(run_dir, rows, out) -> text written or None``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json

__all__ = ["EXPORTERS", "export_command"]


def _csv(run_dir: Path, rows: list[dict[str, Any]], out: Path | None) -> str | None:
    from navworld.runner.export import rows_to_csv, write_csv

    if out is None:
        return rows_to_csv(rows)
    write_csv(rows, out)
    return None


EXPORTERS: dict[str, Callable[[Path, list[dict[str, Any]], Path | None], str | None]] = {"csv": _csv}
"""Export formats by name (other formats are added here)."""


@app.command("export", cls=OneLineErrorCommand)
def export_command(
    run_dir: str = typer.Argument(..., metavar="DIR", help="A run directory (holding results.jsonl)."),
    fmt: str = typer.Option(None, "--format", metavar="FORMAT", help="Output format (csv)."),
    csv_flag: bool = typer.Option(False, "--csv", help="Same as --format csv."),
    out: str = typer.Option(None, "--out", metavar="FILE", help="Write here instead of stdout."),
    json_out: bool = typer.Option(
        False, "--json", envvar="NAVWORLD_JSON", help='With --out: print {"out", "rows", "format"}.'
    ),
) -> None:
    """Export a run's per-task results (default CSV on stdout: one line per task and epoch)."""
    from navworld.runner.results import RESULTS_FILE, load_rows

    directory = Path(run_dir)
    if not (directory / RESULTS_FILE).is_file():
        bad_args(f"{run_dir!r} is not a run directory (no {RESULTS_FILE})")
    name = (fmt or "csv").strip().lower()
    if csv_flag and fmt and name != "csv":
        bad_args(f"--csv contradicts --format {fmt}")
    if name not in EXPORTERS:
        bad_args(f"--format must be one of {', '.join(sorted(EXPORTERS))}, got {fmt!r}")
    if json_out and not out:
        bad_args("--json needs --out (without it the export itself goes to stdout)")
    rows = load_rows(directory)
    text = EXPORTERS[name](directory, rows, Path(out) if out else None)
    if text is not None:
        sys.stdout.write(text)
        sys.stdout.flush()
    elif json_out:
        print_json({"out": out, "rows": len(rows), "format": name})
    else:
        typer.echo(f"{out} ({len(rows)} rows)")

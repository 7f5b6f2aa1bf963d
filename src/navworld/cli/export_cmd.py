"""``navworld export DIR``: a run's results in other formats.

* ``--format csv`` (default, or ``--csv``): per-task results, one line per task and epoch
  (:mod:`navworld.runner.export`), on stdout or to ``--out FILE``;
* ``--format chinatravel``: the run's plans in ChinaTravel's output schema, one ``<uid>.json`` each,
  in ``--out OUTDIR`` (default ``DIR/chinatravel``) (:mod:`navworld.cli.export_chinatravel`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json

__all__ = ["FORMATS", "export_command"]

FORMATS = ("csv", "chinatravel")


@app.command("export", cls=OneLineErrorCommand)
def export_command(
    run_dir: str = typer.Argument(..., metavar="DIR", help="A run directory (holding results.jsonl)."),
    fmt: str = typer.Option(None, "--format", metavar="FORMAT", help="Output format: csv (default) or chinatravel."),
    csv_flag: bool = typer.Option(False, "--csv", help="Same as --format csv."),
    out: str = typer.Option(
        None, "--out", metavar="PATH", help="csv: a file (default stdout); chinatravel: a directory (default DIR/chinatravel)."
    ),
    world_spec: str = typer.Option(
        None, "--world", metavar="chinatravel:DIR", help="chinatravel: the database for station names (default: the run's)."
    ),
    json_out: bool = typer.Option(
        False, "--json", envvar="NAVWORLD_JSON", help="Print a JSON summary (csv: needs --out)."
    ),
) -> None:
    """Export a run's per-task results (CSV) or its plans (ChinaTravel's output schema)."""
    from navworld.runner.results import RESULTS_FILE, load_rows

    directory = Path(run_dir)
    if not (directory / RESULTS_FILE).is_file():
        bad_args(f"{run_dir!r} is not a run directory (no {RESULTS_FILE})")
    name = (fmt or "csv").strip().lower()
    if csv_flag and fmt and name != "csv":
        bad_args(f"--csv contradicts --format {fmt}")
    if name not in FORMATS:
        bad_args(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if world_spec and name != "chinatravel":
        bad_args("--world applies to --format chinatravel only")
    rows = load_rows(directory)
    if name == "chinatravel":
        from navworld.cli.export_chinatravel import export_chinatravel, print_chinatravel_export

        summary = export_chinatravel(directory, rows, Path(out) if out else None, world_spec)
        if json_out:
            print_json(summary)
        else:
            print_chinatravel_export(summary)
        return
    if json_out and not out:
        bad_args("--json needs --out (without it the export itself goes to stdout)")
    from navworld.runner.export import rows_to_csv, write_csv

    if out is None:
        sys.stdout.write(rows_to_csv(rows))
        sys.stdout.flush()
        return
    write_csv(rows, Path(out))
    if json_out:
        print_json({"out": out, "rows": len(rows), "format": name})
    else:
        typer.echo(f"{out} ({len(rows)} rows)")

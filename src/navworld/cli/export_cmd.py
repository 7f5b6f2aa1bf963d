"""``navworld export DIR --format chinatravel [--out OUTDIR] [--world chinatravel:DB]``.

Writes the plan of every row of the run in ``DIR`` in ChinaTravel's output schema, one
``<uid>.json`` per query (``<task id>.json`` without a uid), the layout ChinaTravel's
``eval_exp.py`` reads from ``results/<method>/``. The conversion is
:func:`navworld.verify.chinatravel.export_plan` (``transit`` → ``metro`` with the walk/metro/walk
expansion, ``price``/``cost``/``distance`` on every leg, ``tickets``/``cars``); the station names
need the ChinaTravel database, taken from the run's ``--world`` unless ``--world`` is given.
Rows without a plan are listed and skipped (ChinaTravel scores a missing file as an empty plan).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json

__all__ = ["export_command"]

FORMATS = ("chinatravel",)


def _rows(run_dir: Path) -> list[dict[str, Any]]:
    if not (run_dir / "results.jsonl").is_file():
        bad_args(f"{run_dir} is not a run directory (no results.jsonl)")
    from navworld.runner.results import load_rows

    return load_rows(run_dir)


def _run_world(run_dir: Path) -> str | None:
    try:
        run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    world = (run.get("config") or {}).get("world")
    return world if isinstance(world, str) else None


@app.command("export", cls=OneLineErrorCommand)
def export_command(
    run_dir: Annotated[Path, typer.Argument(help="A run directory written by navworld eval.")],
    fmt: Annotated[str, typer.Option("--format", help="Output format: chinatravel.")] = "chinatravel",
    out: Annotated[Path | None, typer.Option("--out", help="Output directory (default DIR/chinatravel).")] = None,
    world_spec: Annotated[str | None, typer.Option("--world", help="chinatravel:DIR for station names (default: the run's world).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
) -> None:
    """Write the run's plans in another benchmark's format (ChinaTravel's output schema)."""
    if fmt.strip().lower() not in FORMATS:
        bad_args(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    rows = _rows(run_dir)
    spec = world_spec or _run_world(run_dir)
    world = None
    if spec and spec.strip().lower().startswith("chinatravel:"):
        from navworld.core.errors import ConfigError
        from navworld.world import get_world

        try:
            world = get_world(spec)
        except ConfigError as exc:
            bad_args(str(exc).splitlines()[0])
    elif world_spec:
        bad_args("--world must be chinatravel:DIR (the database the plans refer to)")
    from navworld.verify.chinatravel import answer_plan_json, export_plan, schema_errors

    target = out or (run_dir / "chinatravel")
    target.mkdir(parents=True, exist_ok=True)
    written, skipped, invalid, notes = 0, [], [], []
    latest: dict[str, dict[str, Any]] = {}
    for row in rows:
        key = str(row.get("uid") or row.get("task_id"))
        if row.get("epoch", 0) == 0 or key not in latest:
            latest[key] = row
    for key, row in latest.items():
        raw = answer_plan_json(row.get("answer") or "")
        if not isinstance(raw, dict) or "itinerary" not in raw:
            skipped.append(key)
            continue
        people = (raw.get("people_number") if isinstance(raw.get("people_number"), int) else None)
        res = export_plan(raw, world, people=people)
        notes += [f"{key}: {w}" for w in res.warnings]
        if schema_errors(res.plan, 1):
            invalid.append(key)
        (target / f"{key}.json").write_text(json.dumps(res.plan, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        written += 1
    summary = {"out": str(target), "written": written, "skipped_no_plan": skipped, "schema_invalid": invalid,
               "warnings": notes[:50], "world": spec if world is not None else None}
    if as_json:
        print_json(summary)
        return
    for line in notes[:20]:
        sys.stderr.write(f"warning: {line}\n")
    if world is None:
        sys.stderr.write("warning: no chinatravel world: transit legs were not expanded into walk/metro/walk\n")
    sys.stdout.write(f"wrote {written} plan(s) to {target}" + (f"; {len(skipped)} row(s) without a plan" if skipped else "")
                     + (f"; {len(invalid)} fail ChinaTravel's schema" if invalid else "") + "\n")

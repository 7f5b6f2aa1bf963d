"""``navworld export DIR --format chinatravel``: a run's plans in ChinaTravel's output schema.

Writes the plan of every row of the run in ``DIR``, one ``<uid>.json`` per query (``<task id>.json``
without a uid), the layout ChinaTravel's ``eval_exp.py`` reads from ``results/<method>/``. The
conversion is :func:`navworld.verify.chinatravel.export_plan` (``transit`` → ``metro`` with the
walk/metro/walk expansion, ``price``/``cost``/``distance`` on every leg, ``tickets``/``cars``); the
station names need the ChinaTravel database, taken from the run's ``--world`` unless ``--world``
is given. Rows without a plan are listed and skipped (ChinaTravel scores a missing file as an empty
plan).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from navworld.cli.app import bad_args

__all__ = ["export_chinatravel"]


def _run_world(run_dir: Path) -> str | None:
    try:
        run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    world = (run.get("config") or {}).get("world")
    return world if isinstance(world, str) else None


def export_chinatravel(
    run_dir: Path, rows: list[dict[str, Any]], out: Path | None, world_spec: str | None
) -> dict[str, Any]:
    """Write the plans; return the summary (``out``, ``written``, ``skipped_no_plan`` …)."""
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
        people = raw.get("people_number") if isinstance(raw.get("people_number"), int) else None
        res = export_plan(raw, world, people=people)
        notes += [f"{key}: {w}" for w in res.warnings]
        if schema_errors(res.plan, 1):
            invalid.append(key)
        (target / f"{key}.json").write_text(json.dumps(res.plan, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        written += 1
    return {
        "out": str(target),
        "written": written,
        "skipped_no_plan": skipped,
        "schema_invalid": invalid,
        "warnings": notes[:50],
        "world": spec if world is not None else None,
    }


def print_chinatravel_export(summary: dict[str, Any]) -> None:
    """The human summary of :func:`export_chinatravel` (warnings on stderr)."""
    for line in summary["warnings"][:20]:
        sys.stderr.write(f"warning: {line}\n")
    if summary["world"] is None:
        sys.stderr.write("warning: no chinatravel world: transit legs were not expanded into walk/metro/walk\n")
    skipped, invalid = summary["skipped_no_plan"], summary["schema_invalid"]
    sys.stdout.write(
        f"wrote {summary['written']} plan(s) to {summary['out']}"
        + (f"; {len(skipped)} row(s) without a plan" if skipped else "")
        + (f"; {len(invalid)} fail ChinaTravel's schema" if invalid else "")
        + "\n"
    )

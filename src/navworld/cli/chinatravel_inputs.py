"""What ``navworld verify`` and ``navworld eval`` need for ChinaTravel's data: worlds, queries, the profile.

Kept out of the command modules so their additions stay small (``--world``, ``--query``,
``--profile`` on ``verify``; ``--queries``, ``--profile`` on ``eval``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from navworld.cli.app import bad_args
from navworld.cli.inputs import read_json

__all__ = ["PROFILES", "ct_human", "load_query_problem", "resolve_profile", "verify_world", "warn"]

PROFILES = ("navworld", "chinatravel")


def warn(lines: list[str], limit: int = 20) -> None:
    """Print ``warning: …`` lines on stderr (at most ``limit``, then a count)."""
    for line in lines[:limit]:
        sys.stderr.write(f"warning: {line}\n")
    if len(lines) > limit:
        sys.stderr.write(f"warning: … and {len(lines) - limit} more\n")


def resolve_profile(profile: str | None, world: Any) -> str:
    """``navworld`` or ``chinatravel``; the default is ``chinatravel`` on a ChinaTravel world."""
    if profile is None or not profile.strip():
        return "chinatravel" if hasattr(world, "tables") else "navworld"
    p = profile.strip().lower()
    if p not in PROFILES:
        bad_args(f"--profile must be one of {', '.join(PROFILES)}, got {profile!r}")
    if p == "chinatravel" and not hasattr(world, "tables"):
        bad_args("--profile chinatravel needs --world chinatravel:DIR (ChinaTravel's database)")
    return p


def verify_world(spec: str | None, salt: str | None) -> Any:
    """The world a plan is verified against (one with the sync lookups); exits 2 otherwise."""
    from navworld.core.errors import ConfigError
    from navworld.world import get_world

    try:
        world = get_world(spec or "sandbox", salt)
    except ConfigError as exc:
        bad_args(str(exc).splitlines()[0])
    if not all(hasattr(world, m) for m in ("find_poi", "route", "flight_list", "train_list")):
        bad_args(f"--world {spec}: plans can be verified on sandbox or chinatravel:DIR worlds only")
    errors = getattr(world, "errors", None)
    if errors:
        warn(list(errors))
    return world


def load_query_problem(path: Path, uid: str | None, world: Any, salt: str | None) -> Any:
    """The problem of the ChinaTravel query in ``path`` (the one with ``uid`` when it holds several)."""
    from navworld.tasks.chinatravel import QueryError, load_queries, to_problem

    read_json(path, "query") if path.suffix.lower() == ".json" else None  # a clear "not JSON" for .json files
    try:
        queries, errors = load_queries(path)
    except QueryError as exc:
        bad_args(str(exc))
    if uid is not None:
        hits = [i for i, q in enumerate(queries) if q.uid == uid]
        if not hits:
            bad_args(f"query file {path} has no valid query with uid {uid}" + (f" ({errors[0]})" if errors else ""))
        index = hits[0]
    elif len(queries) == 1 and not errors:
        index = 0
    elif not queries:
        bad_args(errors[0] if errors else f"query file {path} holds no query")
    else:
        bad_args(f"query file {path} holds {len(queries) + len(errors)} queries; pick one with --uid UID")
    return to_problem(queries[index], index, world, salt)


def ct_human(ct: dict[str, Any]) -> str:
    """The ChinaTravel profile part of ``navworld verify``'s text output."""
    lines = ["", "ChinaTravel profile (their columns and rules):"]
    lines.append(f"  schema: {'valid' if ct['schema'] else 'INVALID — ' + '; '.join(ct['schema_errors'][:3])}")
    cols = ct["commonsense"]
    failed = [c for c, ok in cols.items() if not ok]
    lines.append(f"  commonsense: {len(cols) - len(failed)}/{len(cols)} columns passed")
    lines.extend(f"    ✗ {c}" for c in failed)
    if ct.get("exception"):
        lines.append(f"    ! their checks raised ({ct['exception']}); {len(ct['not_evaluated'])} columns not evaluated")
    logic = ct["logic"]
    lines.append(f"  logic: {sum(1 for r in logic if r)}/{len(logic)} programs hold")
    for i, (ok, err) in enumerate(zip(logic, ct.get("logic_errors") or [None] * len(logic), strict=False)):
        if not ok:
            lines.append(f"    ✗ [{i + 1}]" + (f" {err}" if err else ""))
    lines.append(f"  final: {'PASS' if ct['final_pass'] else 'FAIL'}")
    return "\n".join(lines) + "\n"

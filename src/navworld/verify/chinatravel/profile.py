"""The ``chinatravel`` evaluation profile: ChinaTravel's schema, commonsense columns and programs.

:func:`verify_chinatravel` scores one raw plan the way ChinaTravel's ``eval_exp.py`` does and
returns the JSON of ``navworld verify --profile chinatravel`` (key ``chinatravel``)::

    {"schema": bool, "commonsense": {COLUMN: bool}, "logic": [bool, ...], "final_pass": bool,
     "commonsense_passed": bool, "exception": str | None, "not_evaluated": [COLUMN, ...],
     "flags": {COLUMN: 0|1}, "schema_errors": [...], "logic_errors": [...], "preference": [DAV, ATT, DDR]}

``true`` means passed. ``commonsense`` lists their 25 columns (spelled as their evaluator spells
them) plus the dynamic ones that fired; a column ``not_evaluated`` (an earlier validator raised)
shows ``true`` because their micro EPR counts it so, while ``commonsense_passed`` is false.
:func:`answer_plan_json` finds the raw plan JSON in an answer; :func:`chinatravel_view` is the
ChinaTravel form of a navworld answer (:func:`~.export.export_plan` without filling anything in).
"""

from __future__ import annotations

import json
from typing import Any

from navworld.dsl.chinatravel import ChinaTravelContext, ct_constraint, ct_value
from navworld.verify.chinatravel.commonsense import check_commonsense
from navworld.verify.chinatravel.export import export_plan
from navworld.verify.chinatravel.schema import schema_errors, schema_valid

__all__ = ["DEFAULT_PREFERENCES", "answer_plan_json", "chinatravel_view", "query_of", "verify_chinatravel"]

DEFAULT_PREFERENCES: tuple[str, str, str] = (
    "attraction_count = 0\nfor activity in allactivities(plan):\n    if activity_type(activity) == 'attraction':\n"
    "        attraction_count += 1\nresult = attraction_count / (4 * day_count(plan))",
    "time_cost = 0\ntransport_count = 0\nfor activity in allactivities(plan):\n    transports = activity_transports(activity)\n"
    "    if transports != []:\n        transport_count += 1\n        time_cost += innercity_transport_time(transports)\n"
    "average_time_cost = time_cost / transport_count if transport_count > 0 else -1\nresult = (-1 / 105) * average_time_cost + 8 / 7",
    "res_count = 0\nfor activity in allactivities(plan):\n    if activity_type(activity) in ['breakfast', 'lunch', 'dinner']:\n"
    "        res_count += 1\nres_count = res_count / day_count(plan)\nresult = res_count / 3",
)
"""TPC's DAV (attractions per day / 4), ATT (inbound transfer minutes: 1 at ≤ 15, 0 at ≥ 120) and
DDR (meals per day / 3) scoring programs, as their ``eval_tpc.py`` defines them."""


def query_of(problem: Any) -> dict[str, Any]:
    """The ChinaTravel query of a problem built from a query file (``extra["chinatravel"]``), else its fields."""
    extra = getattr(problem, "extra", None) or {}
    q = extra.get("chinatravel")
    if isinstance(q, dict):
        return q
    return {"start_city": problem.origin_city or problem.destination_city, "target_city": problem.destination_city,
            "days": problem.num_days, "people_number": problem.group_size, "hard_logic_py": list(problem.hard_logic)}


def answer_plan_json(text: Any) -> Any:
    """The raw plan JSON of an answer or plan file (``{}`` when there is none, as ChinaTravel loads it)."""
    from navworld.verify.plan_parse import _FENCE_RE, _looks_like_plan

    if isinstance(text, dict):
        return text
    if not isinstance(text, str) or not text.strip():
        return {}
    try:
        obj = json.loads(text)
        return obj.get("plan") if isinstance(obj, dict) and "itinerary" not in obj and isinstance(obj.get("plan"), dict) else obj
    except ValueError:
        pass
    for m in reversed(list(_FENCE_RE.finditer(text))):
        try:
            obj = json.loads(m.group(2))
        except (ValueError, RecursionError):
            continue
        if _looks_like_plan(obj):
            return obj if "itinerary" in obj else obj["plan"]
    return {}


def _navworld_spelling(raw: Any) -> bool:
    """Whether a plan uses navworld's leg mode ``transit`` (never a ChinaTravel mode)."""
    try:
        return any(isinstance(leg, dict) and leg.get("mode") == "transit"
                   for day in raw["itinerary"] for act in day["activities"] for leg in act.get("transports") or [])
    except (KeyError, TypeError, AttributeError):
        return False


def chinatravel_view(answer: Any, world: Any, people: int | None = None, city: str | None = None) -> tuple[Any, list[str]]:
    """The plan of an answer as ChinaTravel reads it, and notes.

    A plan written in navworld's format (a leg with mode ``transit``) is converted with
    :func:`~.export.export_plan` without filling anything in (modes renamed, transit expanded into
    walk/metro/walk); a plan in ChinaTravel's own format is returned as it is.
    """
    raw = answer_plan_json(answer)
    if not isinstance(raw, dict) or "itinerary" not in raw:
        return raw if isinstance(raw, dict) else {}, []
    if not _navworld_spelling(raw):
        return raw, []
    out = export_plan(raw, world, people=people, city=city, fill=False)
    return out.plan, ["converted from navworld's format (transit → walk/metro/walk)", *out.warnings]


def _clamp(x: float | None) -> float:
    return 0.0 if x is None else max(0.0, min(1.0, x))


def verify_chinatravel(plan: Any, query: dict[str, Any], world: Any) -> dict[str, Any]:
    """ChinaTravel's verdict on the raw ``plan`` JSON for ``query`` in a ChinaTravel ``world``."""
    raw = {} if plan is None else plan
    schema = schema_valid(raw)
    outcome = check_commonsense(query, raw, world)
    ctx = ChinaTravelContext(world)
    logic: list[bool] = []
    errors: list[str | None] = []
    for src in query.get("hard_logic_py") or []:
        ok, err = ct_constraint(src, raw, ctx)
        logic.append(ok)
        errors.append(err)
    prefs = [_clamp(ct_value(src, raw, ctx)[0]) for src in DEFAULT_PREFERENCES]
    final = schema and outcome.passed and all(logic)
    return {
        "schema": schema,
        "commonsense": outcome.columns(),
        "logic": logic,
        "final_pass": final,
        "commonsense_passed": outcome.passed,
        "exception": outcome.exception,
        "not_evaluated": outcome.skipped,
        "flags": dict(outcome.flags),
        "schema_errors": schema_errors(raw, 5) if not schema else [],
        "logic_errors": errors,
        "preference": prefs,
    }

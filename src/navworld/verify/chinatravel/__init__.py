"""ChinaTravel's own evaluation next to navworld's: schema, commonsense columns, programs, metrics, export.

* :mod:`.profile` — ``verify_chinatravel(plan, query, world)``: one plan, their verdicts;
* :mod:`.commonsense` — their 25 (+2) environment columns and rules;
* :mod:`.metrics` — their batch formulas (micro/macro EPR, LPR, C-LPR, FPR, TPC overall);
* :mod:`.schema` — their plan schema (written from the documented fields);
* :mod:`.export` — navworld plans in their format and back.

The DSL mode their programs need is :mod:`navworld.dsl.chinatravel`. See ``docs/chinatravel.md``.
"""

from __future__ import annotations

from navworld.verify.chinatravel.commonsense import (
    COLUMNS,
    DYNAMIC_COLUMNS,
    STATIC_COLUMNS,
    check_commonsense,
)
from navworld.verify.chinatravel.export import export_plan, import_plan
from navworld.verify.chinatravel.metrics import QUIRKS, PlanScore, aggregate
from navworld.verify.chinatravel.profile import (
    answer_plan_json,
    chinatravel_view,
    query_of,
    verify_chinatravel,
)
from navworld.verify.chinatravel.schema import schema_errors, schema_valid

__all__ = [
    "COLUMNS",
    "DYNAMIC_COLUMNS",
    "QUIRKS",
    "STATIC_COLUMNS",
    "PlanScore",
    "aggregate",
    "answer_plan_json",
    "check_commonsense",
    "chinatravel_view",
    "export_plan",
    "import_plan",
    "query_of",
    "schema_errors",
    "schema_valid",
    "verify_chinatravel",
]

"""ChinaTravel's plan schema check (draft-07), with the schema written from their documented fields.

Top level: ``people_number``, ``start_city``, ``target_city``, ``itinerary`` (all required). Day:
``day``, ``activities``. Activity: ``type`` (7 values), ``start_time``/``end_time`` (``^\\d{2}:\\d{2}$``),
``cost``, ``price``, ``transports`` required; ``tickets``, ``position``, ``room_type``, ``rooms``,
``FlightID``, ``TrainID``, ``start``, ``end`` optional; airplane/train need ``start``/``end`` and
their ID. Leg: ``start``, ``end``, ``mode`` (walk, metro, taxi), times, ``price``, ``cost``,
``distance`` required; ``tickets`` optional. Extra keys are allowed everywhere. The schema file is
``output_schema.json`` next to this module.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from navworld.core.errors import ConfigError

__all__ = ["OUTPUT_SCHEMA", "schema_errors", "schema_valid"]


@cache
def _validator() -> Any:
    try:
        from jsonschema import Draft7Validator
    except ImportError:  # pragma: no cover - the chinatravel extra is not installed
        raise ConfigError("ChinaTravel's schema check needs jsonschema: pip install 'navworld[chinatravel]'") from None
    schema = json.loads(resources.files(__package__).joinpath("output_schema.json").read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


def OUTPUT_SCHEMA() -> dict[str, Any]:
    """The schema as a dict (a copy)."""
    return json.loads(json.dumps(_validator().schema))


def schema_errors(plan: Any, limit: int = 20) -> list[str]:
    """Up to ``limit`` readable schema errors of ``plan`` (``[]`` when it is valid)."""
    out = []
    for err in _validator().iter_errors(plan):
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        out.append(f"{where}: {err.message[:160]}")
        if len(out) >= limit:
            break
    return out


def schema_valid(plan: Any) -> bool:
    """Whether ``plan`` validates against ChinaTravel's plan schema."""
    return bool(_validator().is_valid(plan))

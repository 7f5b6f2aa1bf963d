"""The constraint language: ChinaTravel-compatible programs run by our own safe interpreter.

A constraint is a short Python-syntax program over ``plan`` and concept functions that assigns
``result``; a preference starts with ``maximize X`` or ``minimize X`` and computes ``X``.
Programs are parsed with :mod:`ast`, checked against a whitelist and run by a tree of closures
with a step budget and size limits; untrusted text is never ``eval``-ed or ``exec``-ed.
See ``docs/dsl.md``.

>>> from navworld.dsl import run_constraint
>>> plan = {"people_number": 2, "start_city": "", "target_city": "杭州", "itinerary": []}
>>> run_constraint("result = people_count(plan) == 2", plan)
True
"""

from __future__ import annotations

from navworld.core.errors import DSLError
from navworld.dsl.concepts import CONCEPTS
from navworld.dsl.context import DSLContext, plan_to_data
from navworld.dsl.program import (
    FUNCTIONS,
    Program,
    evaluate_constraint,
    evaluate_preference,
    run_constraint,
    run_preference,
    validate,
)
from navworld.dsl.world_view import WorldLookup, WorldView, lookup_for

__all__ = [
    "CONCEPTS",
    "FUNCTIONS",
    "DSLContext",
    "DSLError",
    "Program",
    "WorldLookup",
    "WorldView",
    "evaluate_constraint",
    "evaluate_preference",
    "lookup_for",
    "plan_to_data",
    "run_constraint",
    "run_preference",
    "validate",
]

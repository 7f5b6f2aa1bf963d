"""Version stamps recorded in every result row.

Bump a version whenever the bytes it governs change:

* ``WORLD_VERSION`` - sandbox facts (POIs, routes, climate, transport generation, rendering).
* ``GENERATOR_VERSION`` - problem generation (fields, prompts, DSL programs).
* ``SCORER_VERSION`` - the NAVWORLD scorer and the plan verifier.
"""

from __future__ import annotations

__all__ = ["GENERATOR_VERSION", "PACKAGE_VERSION", "RESULTS_SCHEMA_VERSION", "SCORER_VERSION", "WORLD_VERSION"]

PACKAGE_VERSION = "0.1.0"
WORLD_VERSION = "w1"
GENERATOR_VERSION = "g1"
SCORER_VERSION = "s2"
RESULTS_SCHEMA_VERSION = 1

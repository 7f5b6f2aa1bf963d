"""Resource limits of the constraint language (one place, documented in ``docs/dsl.md``).

Every limit is deterministic (counted, never timed) except :data:`WALL_CLOCK_S`, a safety net
that no program within :data:`MAX_STEPS` can reach on a healthy machine.
"""

from __future__ import annotations

__all__ = [
    "MAX_AST_DEPTH",
    "MAX_AST_NODES",
    "MAX_INT_BITS",
    "MAX_ITEMS",
    "MAX_RANGE",
    "MAX_SOURCE_BYTES",
    "MAX_STEPS",
    "MAX_STR",
    "MAX_TUPLE_DEPTH",
    "WALL_CLOCK_S",
]

MAX_SOURCE_BYTES = 64 * 1024
"""Largest accepted program source (UTF-8 bytes)."""

MAX_AST_NODES = 20_000
"""Largest accepted syntax tree (nodes)."""

MAX_AST_DEPTH = 60
"""Deepest accepted nesting of syntax nodes (expressions and blocks)."""

MAX_STEPS = 200_000
"""Step budget of one run: node evaluations plus size-proportional charges of bulk operations."""

MAX_ITEMS = 100_000
"""Largest list, tuple, set or dict a program may build."""

MAX_STR = 100_000
"""Longest string a program may build (characters)."""

MAX_RANGE = 100_000
"""Longest ``range()``."""

MAX_INT_BITS = 4096
"""Largest integer magnitude (bits); ``10**10**10`` is refused before it is computed."""

MAX_TUPLE_DEPTH = 32
"""Deepest nesting of tuples inside tuples (hashing deeper tuples would overflow the C stack)."""

WALL_CLOCK_S = 2.0
"""Safety-net wall-clock limit of one run (seconds); the step budget normally stops far earlier."""

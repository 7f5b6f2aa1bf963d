"""Resource limits of the constraint language (one place, documented in ``docs/dsl.md``).

Every limit is deterministic (counted, never timed) except :data:`CPU_TIME_S` and
:data:`WALL_CLOCK_S`, safety nets that no program within :data:`MAX_STEPS` can reach on a
healthy machine.

Numbers are bounded (:data:`MAX_INT_BITS`, :data:`MAX_FLOAT`) so that no two distinct numbers a
program can hold share a hash value beyond a handful of float exponent classes: CPython hashes
integers modulo 2**61 − 1, so unbounded integers would let ``set(range(0, P * n, P))`` put every
element in one bucket and turn an O(n) build into O(n²).
"""

from __future__ import annotations

__all__ = [
    "CPU_TIME_S",
    "MAX_AST_DEPTH",
    "MAX_AST_NODES",
    "MAX_FLOAT",
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

MAX_INT_BITS = 60
"""Largest integer magnitude (bits): integers stay below 2**60 (about 1.15e18) in absolute value,
well below the 2**61 − 1 modulus of integer hashing; ``10**10**10`` is refused before it is
computed."""

MAX_FLOAT = float(2**60)
"""Largest magnitude of a finite float (``inf`` and ``nan`` are allowed: they are common sentinels)."""

MAX_TUPLE_DEPTH = 32
"""Deepest nesting of tuples inside tuples (hashing deeper tuples would overflow the C stack)."""

CPU_TIME_S = 1.0
"""Safety-net CPU-time limit of one run (seconds of this thread); the step budget normally stops
every program far earlier."""

WALL_CLOCK_S = 2.0
"""Safety-net wall-clock limit of one run (seconds); the step budget normally stops far earlier."""

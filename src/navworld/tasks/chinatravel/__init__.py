"""ChinaTravel's queries as navworld problems (``navworld eval --world chinatravel:DIR --queries FILE``).

See :mod:`.queries` (file format, validation, the travel-date convention) and :mod:`.translate`
(reading planner facts out of ``hard_logic_py`` for oracle translation).
"""

from __future__ import annotations

from navworld.tasks.chinatravel.queries import (
    MEAL_LATEST_START,
    ChinaTravelQuery,
    QueryError,
    load_queries,
    parse_query,
    query_problems,
    to_problem,
)
from navworld.tasks.chinatravel.translate import Facts, read_programs

__all__ = [
    "MEAL_LATEST_START",
    "ChinaTravelQuery",
    "Facts",
    "QueryError",
    "load_queries",
    "parse_query",
    "query_problems",
    "read_programs",
    "to_problem",
]

"""What a day is planned with: the timing rules of meals and visits, the frame of one day
(:class:`DaySpec`), the trip context (:class:`PlanCtx`), what earlier days used up
(:class:`TripState`) and a scheduled day (:class:`DayResult`). :mod:`.day` schedules the days.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from navworld.agents.reference.brief import Brief
from navworld.agents.reference.model import Mover, Place, Stop
from navworld.core.geo import haversine_km
from navworld.core.models import Poi
from navworld.core.plan import to_minutes
from navworld.verify.check_pois import MEAL_WINDOWS

__all__ = [
    "BREAKFAST_OPEN_BY",
    "DINNER_DUE",
    "LUNCH_DUE",
    "MAX_WAIT_MIN",
    "MEAL_FIRST",
    "MEAL_FROM",
    "MEAL_LAST",
    "MEAL_MINUTES",
    "NEAREST",
    "DayResult",
    "DaySpec",
    "PlanCtx",
    "TripState",
    "est_minutes",
    "open_hours",
]

MEAL_MINUTES = {"breakfast": 30, "lunch": 60, "dinner": 60}
"""How long each meal lasts (minutes)."""
MEAL_FROM = {"breakfast": 7 * 60, "lunch": 11 * 60, "dinner": 17 * 60}
"""Earliest start the planner chooses for a meal (the windows allow earlier)."""
MEAL_LAST = {m: to_minutes(w[1]) for m, w in MEAL_WINDOWS.items()}
"""Latest start of each meal (end of its window, minutes)."""
MEAL_FIRST = {m: to_minutes(w[0]) for m, w in MEAL_WINDOWS.items()}
"""Earliest start of each meal (start of its window, minutes)."""
LUNCH_DUE, DINNER_DUE = 11 * 60 + 30, 17 * 60 + 30
"""From these times lunch / dinner is taken before any further sight."""
BREAKFAST_OPEN_BY = 8 * 60 + 30
"""Breakfast only at places open by then."""
MAX_WAIT_MIN = 75
"""Longest wait for an attraction to open (must-visit sights may wait longer)."""
NEAREST = 10
"""Candidates (by straight-line distance) examined for each decision."""


def open_hours(poi: Poi) -> tuple[int, int]:
    """Opening minutes ``(open, close)`` of ``poi``; close may pass midnight, always-open is two days."""
    try:
        o, c = to_minutes(poi.open), to_minutes(poi.close)
    except ValueError:
        return 0, 1440
    if o == c or (o == 0 and c >= 1440):
        return 0, 24 * 60 * 2
    if c < o:
        c += 1440
    return o, c


def est_minutes(a: Place, b: Place) -> float:
    """A quick travel-time guess from ``a`` to ``b`` (minutes, straight-line distance)."""
    return 8.0 + haversine_km(a.loc, b.loc) * 3.0


@dataclass
class TripState:
    """What earlier days used up or achieved."""

    used_attractions: set[str] = field(default_factory=set)
    used_restaurants: set[str] = field(default_factory=set)
    cuisine_meals: int = 0
    veg_meals: int = 0
    pending_must: list[Poi] = field(default_factory=list)
    spent: float = 0.0
    """What the days so far cost beyond the fixed costs (intercity fares, hotel nights)."""

    def copy(self) -> TripState:
        """An independent copy."""
        return TripState(set(self.used_attractions), set(self.used_restaurants), self.cuisine_meals, self.veg_meals,
                         list(self.pending_must), self.spent)


@dataclass
class PlanCtx:
    """Everything a day needs to know about the trip being planned."""

    brief: Brief
    mover: Mover
    attractions: list[Poi]
    restaurants: list[Poi]
    value: dict[str, float]
    target: int
    frugal: bool = False
    meal_cap: float | None = None
    """Most a meal may cost per person (budget guard), None = no cap."""
    avoid: frozenset[str] = frozenset()
    """Names to use only when nothing else fits (e.g. names another branch shares)."""
    allowance: float | None = None
    """What the whole trip may spend beyond the fixed costs (None = no budget)."""
    pace: bool = False
    """Spread the allowance evenly over the days (frugal tunings)."""


@dataclass(frozen=True)
class DaySpec:
    """The frame of one day: where and when it starts and how it must end."""

    index: int
    start: Place | None
    anchor: Place
    t0: int
    end: str
    """``hotel`` (check in), ``return`` (train/flight home) or ``none``."""
    end_place: Place | None
    latest: int
    """Latest arrival at ``end_place`` (or latest end of any activity when ``end == "none"``)."""
    meals: frozenset[str]
    first: Stop | None = None
    last: Stop | None = None
    last_chance: bool = False


@dataclass
class DayResult:
    """A scheduled day."""

    stops: list[Stop]
    state: TripState
    attractions: int
    missed_must: int

"""Oracle translation: the structured facts of a :class:`~navworld.core.problem.Problem`.

The reference planner never reads the prose prompt. It reads the problem's fields, the
``extra`` facts the generator records for it (must-visit landmark, cuisines, hotel features,
price cap, arrival time, red-eye rule, intercity mode, public-transport-only, vegetarian meals,
attractions per day, finish time) and the objective names of the preference programs. The DSL
programs themselves are executed against every candidate plan by ``verify_plan``.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any

from navworld.core.errors import DSLError
from navworld.core.plan import to_minutes
from navworld.core.problem import Problem
from navworld.dsl import validate

__all__ = ["INTERCITY_TOOLS", "VEGETARIAN_CUISINE", "Brief", "read_brief"]

INTERCITY_TOOLS: dict[str, str] = {"airplane": "search_flights", "train": "search_train_tickets"}
"""Plan activity type → the tool that searches it."""

VEGETARIAN_CUISINE = "素食"


def _shift(date: str, days: int) -> str:
    return (_dt.date.fromisoformat(date) + _dt.timedelta(days=days)).isoformat()


def _minutes(text: Any) -> int | None:
    if not isinstance(text, str) or not text:
        return None
    try:
        return to_minutes(text)
    except ValueError:
        return None


@dataclass(frozen=True)
class Brief:
    """What the planner must satisfy and prefer, read from one problem."""

    task_id: int
    problem_type: str
    lang: str
    origin: str
    dest: str
    people: int
    days: int
    dates: tuple[str, ...]
    budget: float | None
    modes: tuple[str, ...]
    """Intercity activity types the plan may use (``airplane``, ``train``)."""
    transport_tools: tuple[str, ...]
    """Transport search tools to call (both directions each)."""
    arrival_before: int | None
    no_red_eye: bool
    must_visit: tuple[str, ...]
    cuisines: tuple[str, ...]
    vegetarian_meals: int
    hotel_features: tuple[str, ...]
    max_hotel_price: float | None
    public_only: bool
    max_attractions_per_day: int | None
    finish_by: int | None
    interests: tuple[str, ...]
    required_tools: tuple[str, ...]
    preferences: frozenset[str]
    landmark: str
    food_theme: str
    study_theme: str
    purpose: str
    budget_level: str = "economy"
    meal_last: tuple[tuple[str, int], ...] = ()
    """Stricter latest meal starts than the verifier's windows (``extra["meal_latest_start"]``),
    e.g. ChinaTravel's lunch before 14:00 and dinner before 20:00."""
    inner_modes: tuple[str, ...] = ()
    """Inner-city modes the plan may use (``extra["innercity_modes"]``; empty = any)."""

    @property
    def has_origin(self) -> bool:
        """Whether the trip has intercity legs."""
        return bool(self.origin) and self.origin != self.dest

    @property
    def nights(self) -> int:
        """Hotel nights."""
        return max(0, self.days - 1)

    @property
    def day_trip(self) -> bool:
        """A one-day round trip from another city."""
        return self.has_origin and self.days == 1

    def prefers(self, name: str) -> bool:
        """Whether one of the preference programs optimises ``name``."""
        return name in self.preferences


def _objectives(sources: list[str]) -> frozenset[str]:
    names: set[str] = set()
    for src in sources:
        try:
            objective = validate(src).objective
        except DSLError:
            continue
        if objective:
            names.add(objective)
    return frozenset(names)


def read_brief(problem: Problem) -> Brief:
    """Translate ``problem`` into a :class:`Brief` (structured fields, ``extra`` and DSL only)."""
    ex = problem.extra or {}
    origin = (problem.origin_city or "").strip()
    dest = problem.destination_city.strip()
    days = max(1, int(problem.num_days or 1))
    dates = tuple(_shift(problem.travel_date, i) for i in range(days))
    required = tuple(problem.required_tools or ())
    mode = ex.get("intercity_mode")
    listed = tuple(m for m in (ex.get("intercity_modes") or ()) if m in INTERCITY_TOOLS)
    if not listed:
        listed = tuple(m for m, tool in INTERCITY_TOOLS.items() if tool in required)
    modes = (mode,) if mode in INTERCITY_TOOLS else listed
    tools = tuple(tool for m, tool in INTERCITY_TOOLS.items() if tool in required or m in listed) if origin else ()
    veg = int(ex.get("vegetarian_meals") or 0)
    cap = ex.get("max_hotel_price")
    per_day = ex.get("max_attractions_per_day")
    features = tuple(ex.get("hotel_features") or ())
    if not features and ex.get("hotel_feature"):
        features = (str(ex["hotel_feature"]),)
    return Brief(
        task_id=problem.task_id,
        problem_type=problem.problem_type,
        lang=problem.lang,
        origin=origin,
        dest=dest,
        people=max(1, int(problem.group_size or 1)),
        days=days,
        dates=dates,
        budget=float(problem.budget) if problem.budget else None,
        modes=modes if origin else (),
        transport_tools=tools,
        arrival_before=_minutes(ex.get("arrival_before")),
        no_red_eye=bool(ex.get("no_red_eye")),
        must_visit=tuple(ex.get("must_visit") or ()),
        cuisines=tuple(ex.get("required_cuisines") or ()),
        vegetarian_meals=veg,
        hotel_features=features,
        max_hotel_price=float(cap) if cap else None,
        public_only=bool(ex.get("public_transport_only")),
        max_attractions_per_day=int(per_day) if per_day else None,
        finish_by=_minutes(ex.get("finish_by")),
        interests=tuple(problem.interests or ()),
        required_tools=required,
        preferences=_objectives(list(problem.preferences)),
        landmark=str(ex.get("landmark") or ""),
        food_theme=str(ex.get("food_theme") or ""),
        study_theme=str(ex.get("study_theme") or ""),
        purpose=str(ex.get("purpose") or ""),
        budget_level=str(problem.budget_level or "economy"),
        meal_last=_meal_last(ex.get("meal_latest_start")),
        inner_modes=tuple(m for m in (ex.get("innercity_modes") or ()) if m in ("walk", "transit", "taxi")),
    )


def _meal_last(value: Any) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, dict):
        return ()
    out = []
    for meal, text in sorted(value.items()):
        minutes = _minutes(text)
        if meal in ("breakfast", "lunch", "dinner") and minutes is not None:
            out.append((meal, minutes))
    return tuple(out)


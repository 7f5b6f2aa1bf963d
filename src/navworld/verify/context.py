"""What every environment check reads: the plan in trip order, the task facts and world lookups."""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass
from typing import Any

from navworld.core.models import Poi
from navworld.core.plan import Activity, Plan, to_minutes
from navworld.core.problem import Problem
from navworld.dsl.world_view import WorldLookup, short_city

__all__ = ["CheckContext", "Step", "money_ok", "trace_tool_text"]

MONEY_ABS_TOL = 1.0
"""Money comparisons pass within ±1 元 …"""
MONEY_REL_TOL = 0.02
"""… or ±2 %, whichever is larger."""


def money_ok(actual: float | None, expected: float) -> bool:
    """Whether two amounts agree within ±1 元 or 2 % (never float equality)."""
    if actual is None:
        return False
    return abs(actual - expected) <= max(MONEY_ABS_TOL, MONEY_REL_TOL * abs(expected))


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for p in content:
            if isinstance(p, dict) and isinstance(p.get("text"), str):
                parts.append(p["text"])
            elif isinstance(p, str):
                parts.append(p)
        return "\n".join(parts)
    return ""


def trace_tool_text(trace: list[Any] | None) -> str | None:
    """All tool-result text of an OpenAI chat transcript joined, or None when no trace is given."""
    if trace is None:
        return None
    texts = [_content_text(m.get("content")) for m in trace if isinstance(m, dict) and m.get("role") == "tool"]
    return "\n\x00\n".join(texts)


@dataclass
class Step:
    """One activity in trip order with its neighbours."""

    day: int
    """0-based index of the day in ``itinerary``."""
    index: int
    """0-based index within the day."""
    act: Activity
    prev: Step | None
    """The previous activity of the trip (across days), None for the first."""
    same_day_prev: Step | None
    """The previous activity of the same day, None for a day's first activity."""

    @property
    def where(self) -> str:
        """``day N activity M`` (1-based) for failure reasons."""
        return f"day {self.day + 1} #{self.index + 1} {self.act.type}"

    @property
    def arrive_at(self) -> str:
        """Where the traveller is when the activity begins (intercity: ``start``)."""
        a = self.act
        return ((a.start if a.is_intercity else a.position) or "").strip()

    @property
    def leave_from(self) -> str:
        """Where the traveller is when the activity ends (intercity: ``end``)."""
        a = self.act
        return ((a.end if a.is_intercity else a.position) or "").strip()


class CheckContext:
    """Inputs of the environment checks, computed once per verification."""

    def __init__(self, plan: Plan, problem: Problem, lookup: WorldLookup, trace_text: str | None) -> None:
        self.plan = plan
        self.problem = problem
        self.lookup = lookup
        self.trace_text = trace_text
        self.people = max(1, int(problem.group_size or plan.people_number or 1))
        self.origin = short_city(problem.origin_city)
        self.target = short_city(problem.destination_city)
        self.has_origin = bool(self.origin) and self.origin != self.target
        self.steps: list[Step] = []
        prev: Step | None = None
        for d, day in enumerate(plan.itinerary):
            same: Step | None = None
            for i, act in enumerate(day.activities):
                step = Step(d, i, act, prev, same)
                self.steps.append(step)
                prev = same = step
        self.days = len(plan.itinerary)
        self.go: Step | None = None
        self.back: Step | None = None
        if self.has_origin and self.steps:
            first, last = self.steps[0], self.steps[-1]
            if first.act.is_intercity and first.day == 0:
                self.go = first
            if last.act.is_intercity and last.day == self.days - 1 and last is not first:
                self.back = last
        self.travel_date = problem.travel_date
        self.return_date = self._shift(problem.travel_date, max(problem.num_days, 1) - 1)

    @staticmethod
    def _shift(date: str, days: int) -> str:
        try:
            return (_dt.date.fromisoformat(date) + _dt.timedelta(days=days)).isoformat()
        except (TypeError, ValueError):
            return ""

    def poi(self, name: str | None) -> Poi | None:
        """The POI of the target city with this exact name."""
        if not name:
            return None
        return self.lookup.poi(self.target, name.strip())

    def of_type(self, *types: str) -> list[Step]:
        """Steps whose activity type is one of ``types``."""
        return [s for s in self.steps if s.act.type in types]

    def stays(self) -> dict[int, Poi]:
        """The hotel POI of each night (day index → POI) for known hotels."""
        out: dict[int, Poi] = {}
        for s in self.of_type("accommodation"):
            poi = self.poi(s.act.position)
            if poi is not None and poi.kind == "hotel":
                out[s.day] = poi
        return out

    def hotel_breakfast(self, step: Step) -> bool:
        """Whether a breakfast is taken at a hotel of the target city (ChinaTravel allows it, price 0)."""
        if step.act.type != "breakfast":
            return False
        poi = self.poi(step.act.position)
        return poi is not None and poi.kind == "hotel"

    @staticmethod
    def minutes(text: str) -> int:
        """Minutes of an ``HH:MM`` time already validated by the plan model."""
        return to_minutes(text)

    def default_cars(self) -> int:
        """Taxis needed for the group (4 passengers per car)."""
        return math.ceil(self.people / 4)

"""Step rewards of scorer s2: potential-based shaping (Ng, Harada & Russell 1999).

A call's reward is ``Φ(s′) − Φ(s)`` over a progress potential of the episode, so the rewards of an
episode sum to ``Φ(end) − Φ(start) ≤ 1`` whatever the policy does: repeating a call, re-spelling
its arguments (``长沙`` / ``长沙市`` / ``430100`` / ``Changsha``), calling for another city or date,
or calling between random points adds nothing to Φ and earns exactly 0. The seed's three parts
stay inside Φ with their weights::

    Φ = 0.4 · tools + 0.3 · needs + 0.3 · information

* **tools** (selection) — the share of the problem's required tools with at least one relevant,
  successful call (trajectory status ``ok``: right city, right dates, a real query);
* **needs** (argument quality) — the mean coverage of the trip's information needs: the
  destination searched, each trip day's weather, the outbound and return dates searched on the
  trip's city pair, each must-visit place found, ``DIRECTION_TARGET`` routes between destination
  places the episode has found;
* **information** (usefulness) — new task-relevant facts, saturating at ``INFO_TARGET`` units: a
  destination POI 1, a flight/train on the trip's route and dates 0.5, a trip day's forecast 1, a route
  between two found places 2. Facts already known are not new.

``CallReward`` reports each part's increase (``selection``, ``arguments``, ``usefulness``) and
their weighted sum (``reward``); the step reward is the sum over the step's calls (the potential's
increase over the step).
"""

from __future__ import annotations

from typing import Any

from navworld.core.models import ToolResult
from navworld.core.problem import Problem
from navworld.env.rewards import (
    ARGUMENT_WEIGHT,
    SELECTION_WEIGHT,
    USEFULNESS_WEIGHT,
    CallReward,
    RewardTracker,
    mean_reward,
)
from navworld.scoring.facts import extract_text_facts
from navworld.scoring.hard import required_tools
from navworld.scoring.topic import resolve_name
from navworld.scoring.trace import ToolCallRecord, canonical_tool_name, parse_args
from navworld.scoring.trajectory import OK, TRIVIAL, classify, coordinate_pair, trip_of

__all__ = ["DIRECTION_TARGET", "INFO_TARGET", "NEAR_DEGREES", "PotentialTracker", "make_tracker", "step_reward"]

INFO_TARGET = 25.0
"""Information units at which the information part is full."""
DIRECTION_TARGET = 3
"""Distinct routes between found places that cover the routing need."""
NEAR_DEGREES = 0.005
"""A route endpoint counts as a found place within this distance (|Δlng| + |Δlat|, ≈ 500 m)."""
_UNIT = {"poi": 1.0, "transport": 0.5, "day": 1.0, "route": 2.0}


def _lnglat(text: str) -> tuple[float, float] | None:
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return float(parts[0]), float(parts[1])
    except ValueError:
        return None


class PotentialTracker:
    """Per-episode potential; :meth:`score` has :class:`~navworld.env.rewards.RewardTracker`'s signature."""

    def __init__(self, problem: Problem, known_tools: tuple[str, ...] | None = None) -> None:
        self.problem = problem
        self.trip = trip_of(problem)
        self.required = frozenset(required_tools(problem.problem_type, problem.required_tools, problem.hard_logic or ()))
        extra = problem.extra if isinstance(problem.extra, dict) else {}
        self.must = frozenset(str(x) for x in extra.get("must_visit", []) or [])
        self.tools: set[str] = set()
        self.pois: set[str] = set()
        self.places: list[tuple[float, float]] = []
        self.ids: set[str] = set()
        self.days: set[str] = set()
        self.dates: set[str] = set()
        self.routes: set[tuple[tuple[float, float], tuple[float, float]]] = set()
        self.found_must: set[str] = set()
        self.searched_destination = False
        self._parts = (0.0, 0.0, 0.0)
        self._n = 0

    # ------------------------------------------------------------------ potential
    def _needs(self) -> float:
        cover: list[float] = [1.0 if self.searched_destination else 0.0]
        if "weather" in self.required and self.trip.dates:
            cover.append(len(self.days & set(self.trip.dates)) / len(self.trip.dates))
        if self.trip.transport_dates and self.required & {"search_flights", "search_train_tickets"}:
            cover.append(len(self.dates & self.trip.transport_dates) / len(self.trip.transport_dates))
        if self.must:
            cover.append(len(self.found_must) / len(self.must))
        if "direction" in self.required:
            cover.append(min(1.0, len(self.routes) / DIRECTION_TARGET))
        return sum(cover) / len(cover)

    def _information(self) -> float:
        units = (
            _UNIT["poi"] * len(self.pois)
            + _UNIT["transport"] * len(self.ids)
            + _UNIT["day"] * len(self.days & set(self.trip.dates))
            + _UNIT["route"] * len(self.routes)
        )
        return min(1.0, units / INFO_TARGET)

    def _current(self) -> tuple[float, float, float]:
        tools = len(self.tools & self.required) / len(self.required) if self.required else 1.0
        return tools, self._needs(), self._information()

    @property
    def potential(self) -> float:
        """Φ of the episode so far (0 … 1)."""
        t, n, i = self._parts
        return round(SELECTION_WEIGHT * t + ARGUMENT_WEIGHT * n + USEFULNESS_WEIGHT * i, 6)

    # ------------------------------------------------------------------ updates
    def _near_place(self, pt: tuple[float, float]) -> tuple[float, float] | None:
        for p in self.places:
            if abs(p[0] - pt[0]) + abs(p[1] - pt[1]) <= NEAR_DEGREES:
                return p
        return None

    def _absorb(self, call: ToolCallRecord, status: str) -> bool:
        """Add the call's task-relevant facts; True when it brought something new."""
        new = False
        facts = extract_text_facts(call.name, call.result or "")
        if call.name in ("poi_search", "around_search"):
            for p in facts.pois:
                city = resolve_name(p.city) if p.city else None
                if city is not None and city != self.trip.destination:
                    continue  # progress is made at the destination (the origin only for the intercity legs)
                self.searched_destination = True
                if p.name not in self.pois:
                    self.pois.add(p.name)
                    new = True
                    if (pt := _lnglat(p.location)) is not None:
                        self.places.append(pt)
                for m in self.must - self.found_must:
                    if m in p.variants or p.name == m:
                        self.found_must.add(m)
        elif call.name in ("search_flights", "search_train_tickets"):
            ids = {t.id for t in facts.transports}
            if ids:
                self.dates.add(str((call.arguments or {}).get("date", "")).strip())
            new = bool(ids - self.ids)
            self.ids |= ids
        elif call.name == "weather":
            days = set(facts.weather_days) & set(self.trip.dates)
            new = bool(days - self.days)
            self.days |= days
        elif call.name == "direction" and status == OK:
            pair = coordinate_pair(call)
            if pair is not None:
                a, b = self._near_place(pair[0]), self._near_place(pair[1])
                if a is not None and b is not None and a != b:
                    key = (min(a, b), max(a, b))
                    if key not in self.routes:
                        self.routes.add(key)
                        new = True
        return new

    def score(self, name: str, arguments: Any, result: ToolResult | None) -> CallReward:
        """The reward of one call: the increase of Φ it caused (0 for nothing new)."""
        tool = canonical_tool_name(name)
        self._n += 1
        if result is None or not result.ok or tool not in ("poi_search", "around_search", "direction", "weather",
                                                           "search_flights", "search_train_tickets"):
            return CallReward(tool or str(name)[:64], 0.0, 0.0, 0.0, 0.0, False)
        call = ToolCallRecord(f"c{self._n}", tool, parse_args(arguments), result.text)
        status = classify(call, self.trip)
        if status not in (OK, TRIVIAL):
            return CallReward(tool, 0.0, 0.0, 0.0, 0.0, True)
        new = self._absorb(call, status)
        if status == OK and new:
            self.tools.add(tool)
        before, phi_before = self._parts, self.potential
        self._parts = self._current()
        d = tuple(max(0.0, round(a - b, 6)) for a, b in zip(self._parts, before, strict=True))
        reward = max(0.0, self.potential - phi_before)  # telescopes: the rewards sum to Φ(end) − Φ(start)
        return CallReward(tool, d[0], d[1], d[2], reward, not new)


def make_tracker(problem: Problem, profile: str | None = None) -> PotentialTracker | RewardTracker:
    """The step-reward tracker of a scoring profile: potential-based for ``s2`` (default), the seed's
    per-call formula (:class:`~navworld.env.rewards.RewardTracker`) for ``seed``."""
    from navworld.scoring.profile import get_profile

    if get_profile(profile).trajectory:
        return PotentialTracker(problem)
    return RewardTracker(problem)


def step_reward(rewards: list[CallReward], potential: bool) -> float:
    """A step's reward: the potential's increase over the step (sum of its calls) under s2, the mean
    of the calls' rewards under the seed's formula."""
    if potential:
        return round(sum(r.reward for r in rewards), 6)
    return mean_reward(rewards)

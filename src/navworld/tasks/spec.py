"""The language-independent skeleton of a problem.

The generator fills a :class:`Skeleton`; :mod:`navworld.tasks.compile` turns its hard facts into
DSL programs and glosses, and :mod:`navworld.tasks.prompts` renders the prompt from the very same
object, so the prompt and the programs cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from navworld.core.problem import ConflictPair, DifficultyProfile

__all__ = ["HardFacts", "Skeleton"]


@dataclass(slots=True)
class HardFacts:
    """Checkable requirements of a problem (each compiles to one DSL program)."""

    must_visit: list[str] = field(default_factory=list)
    cuisines: list[str] = field(default_factory=list)
    cuisine_label: str = ""
    hotel_features: list[str] = field(default_factory=list)
    max_hotel_price: int | None = None
    arrival_before: str | None = None
    no_red_eye: bool = False
    intercity_mode: str | None = None
    public_transport_only: bool = False
    vegetarian_meals: int = 0
    max_attractions_per_day: int | None = None
    finish_by: str | None = None


@dataclass(slots=True)
class Skeleton:
    """Everything a problem states, before rendering (canonical Chinese labels)."""

    task_id: int
    problem_type: str
    difficulty: int
    profile: DifficultyProfile
    destination: str
    origin: str = ""
    distance_class: str = ""
    distance_km: float = 0.0
    modes: tuple[str, ...] = ()
    required_tools: list[str] = field(default_factory=list)
    travel_date: str = ""
    return_date: str = ""
    num_days: int = 1
    group_type: str = "solo"
    group_size: int = 1
    budget_level: str = "economy"
    interests: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    preference: str | None = None
    conflicts: list[ConflictPair] = field(default_factory=list)
    landmark: str = ""
    food_theme: str = ""
    study_theme: str = ""
    purpose: str = ""
    hard: HardFacts = field(default_factory=HardFacts)
    soft: list[str] = field(default_factory=list)
    preference_names: list[str] = field(default_factory=list)
    budget: int = 0
    budget_floor: int = 0
    floor_breakdown: dict[str, int] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def nights(self) -> int:
        """Hotel nights of the trip."""
        return max(0, self.num_days - 1)

    @property
    def has_origin(self) -> bool:
        """Whether the trip starts in another city (intercity legs both ways)."""
        return bool(self.origin)

    def all_items(self) -> list[str]:
        """Interests, constraints and the preference, in that order."""
        items = list(self.interests) + list(self.constraints)
        if self.preference:
            items.append(self.preference)
        return items

    def conflict_items(self) -> set[str]:
        """Items that belong to a labelled conflict pair."""
        out: set[str] = set()
        for c in self.conflicts:
            out.add(c.first)
            out.add(c.second)
        return out

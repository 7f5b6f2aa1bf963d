"""The travel problem an episode poses (generated deterministically from a task id)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["PROBLEM_TYPES", "ConflictPair", "DifficultyProfile", "Problem", "ProblemType"]

ProblemType = Literal["intercity", "multiday", "hybrid", "single_poi", "food_tour", "business", "family_study"]

PROBLEM_TYPES: tuple[str, ...] = (
    "intercity",
    "multiday",
    "hybrid",
    "single_poi",
    "food_tour",
    "business",
    "family_study",
)
"""Index ``task_id % 7`` into this tuple gives the problem type."""


class DifficultyProfile(BaseModel):
    """How hard a problem is: budget tightness, injected conflict pairs, time pressure."""

    model_config = ConfigDict(frozen=True)
    constraint_tightness: float
    constraint_conflicts: int
    time_pressure: bool


class ConflictPair(BaseModel):
    """A deliberately conflicting pair of requests the agent must trade off."""

    model_config = ConfigDict(frozen=True)
    first: str
    second: str
    label: str = ""


class Problem(BaseModel):
    """A generated travel request with its prompt, constraint programs and preferences.

    The seed's fields come first; ``prompt``/``system_prompt`` are in ``lang``; ``hard_logic``
    holds DSL programs (each assigns ``result``) with ``hard_logic_nl`` their gloss;
    ``preferences`` holds ``maximize X``/``minimize X`` programs. ``extra`` carries structured
    facts used by the reference planner (oracle translation), e.g. the must-visit landmark.
    """

    model_config = ConfigDict(frozen=True)
    task_id: int
    problem_type: ProblemType
    origin_city: str = ""
    destination_city: str
    travel_date: str
    num_days: int
    budget: int | None = None
    arrival_constraint: str | None = None
    preference: str | None = None
    group_type: str = "solo"
    group_size: int = 1
    interests: list[str] = Field(default_factory=list)
    constraints: list[str] = Field(default_factory=list)
    required_tools: list[str] = Field(default_factory=list)
    difficulty: int = 2
    budget_level: str = "economy"
    difficulty_profile: DifficultyProfile | None = None
    distance_class: str = ""
    prompt: str = ""
    system_prompt: str = ""
    hard_logic: list[str] = Field(default_factory=list)
    hard_logic_nl: list[str] = Field(default_factory=list)
    preferences: list[str] = Field(default_factory=list)
    conflicts: list[ConflictPair] = Field(default_factory=list)
    lang: Literal["zh", "en"] = "zh"
    extra: dict[str, Any] = Field(default_factory=dict)
    generator_version: str = ""

    @property
    def is_transport(self) -> bool:
        """Whether the problem involves intercity transport (has an origin city)."""
        return bool(self.origin_city)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of every field."""
        return self.model_dump(mode="json")

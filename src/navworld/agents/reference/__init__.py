"""The reference planner: a deterministic neuro-symbolic-style agent that solves generated tasks.

It reads a problem's structured facts and constraint programs (oracle translation), searches
transport × hotel × daily activities with backtracking under opening hours, meal windows,
travel times, budget and the DSL, makes the tool calls the plan needs through the shared
registry, and writes a grounded answer with the JSON plan. See ``docs/reference-planner.md``.
"""

from __future__ import annotations

from navworld.agents.reference.agent import MODEL_NAME, Episode, ReferencePlanner
from navworld.agents.reference.planner import PlanningError

__all__ = ["MODEL_NAME", "Episode", "PlanningError", "ReferencePlanner"]

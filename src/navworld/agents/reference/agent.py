"""``ReferencePlanner``: the deterministic planning agent, in-process.

``await ReferencePlanner().run(problem, world, salt=...)`` plans the trip, makes the scheduled
tool calls through the registry (with the episode's budget), writes the answer and returns the
same record type as the model agent loop (:class:`~navworld.agents.loop.EpisodeRun`): the full
OpenAI transcript (system, user, assistant tool-call turns, tool messages with the exact
``ToolResult.text``, final assistant answer), the answer, counts, zero token usage, wall time
and ``error`` (None unless the task could not be planned).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from navworld.agents.client import Usage
from navworld.agents.loop import EpisodeRun
from navworld.agents.messages import assistant_message, opening_messages
from navworld.agents.reference.answer import write_answer
from navworld.agents.reference.calls import Call, execute_schedule, schedule
from navworld.agents.reference.evidence import collect_evidence
from navworld.agents.reference.planner import Outcome, PlanningError, TripPlanner
from navworld.core.models import ToolResult
from navworld.core.problem import Problem

__all__ = ["MODEL_NAME", "Episode", "ReferencePlanner"]

log = logging.getLogger(__name__)

MODEL_NAME = "navworld-reference"
"""The model name of the reference agent on the OpenAI-compatible endpoint."""


@dataclass
class Episode:
    """A planned episode: the outcome, the tool-call steps, the tool results and the answer."""

    outcome: Outcome
    steps: list[list[Call]]
    messages: list[dict[str, Any]]
    results: dict[str, ToolResult]
    answer: str


class ReferencePlanner:
    """The offline reference agent (oracle translation + search + grounded answer)."""

    name = "reference"

    async def episode(self, problem: Problem, world: Any) -> Episode:
        """Plan ``problem`` in ``world`` and run its tool calls; raises :class:`PlanningError`."""
        outcome = await TripPlanner(problem, world).plan()
        steps = schedule(outcome)
        messages, results = await execute_schedule(steps, world, problem.travel_date or None, problem.lang)
        evidence = collect_evidence(outcome, steps, results)
        answer = write_answer(outcome, evidence, problem, world)
        return Episode(outcome, steps, messages, results, answer)

    async def run(self, problem: Problem, world: Any, *, salt: str | None = None) -> EpisodeRun:
        """Play one episode and return its record (never raises for an unplannable task)."""
        started = time.perf_counter()
        world_salt = getattr(world, "salt", None)
        if salt is not None and world_salt is not None and str(salt) != str(world_salt):
            log.warning("reference planner: run salt %s differs from the world's salt %s", salt, world_salt)
        opening = opening_messages(problem.system_prompt, problem.prompt)
        try:
            ep = await self.episode(problem, world)
        except PlanningError as exc:
            log.warning("reference planner could not plan task %s: %s", problem.task_id, exc)
            run = EpisodeRun(trace=opening, finish="error", error=f"reference planner: {exc}")
            run.seconds = time.perf_counter() - started
            return run
        trace = opening + ep.messages + [assistant_message(ep.answer)]
        run = EpisodeRun(
            trace=trace,
            answer=ep.answer,
            steps=len(ep.steps),
            tool_calls=sum(len(s) for s in ep.steps),
            usage=Usage(),
            finish="answered",
            model_calls=len(ep.steps) + 1,
            last_finish_reason="stop",
        )
        run.seconds = time.perf_counter() - started
        return run

"""Task contexts and real-tool episodes for the reward-hacking attack suite (issue 13).

Every attack works on a :class:`TaskContext` (the problem, the salt, the sandbox world and the
reference planner's honest run of that task) and returns ``(trace, answer)``. Traces are built
by :class:`Session` from **real** tool calls: each call goes through the environment's own
executor (``navworld.agents.executor.CallToolExecutor`` → ``navworld.tools.registry.call_tool``)
with the episode's budget, and the tool messages carry exactly the text the tools returned, in
the message shapes the environment records (``navworld.agents.messages``). A policy can make
every one of these calls; only the answers (and, for the forged-trace classes, the order or ids
of the messages) are the attacker's.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from navworld.agents.executor import CallToolExecutor
from navworld.agents.loop import EpisodeRun
from navworld.agents.messages import assistant_message, opening_messages, tool_message
from navworld.agents.reference import ReferencePlanner
from navworld.core.geo import haversine_km
from navworld.core.problem import Problem
from navworld.scoring.scorer import TravelScorer
from navworld.tasks.generator import ProblemGenerator
from navworld.world.catalog import all_cities, resolve_city
from navworld.world.sandbox import SandboxWorld

__all__ = [
    "SALT",
    "TASKS",
    "Attack",
    "Call",
    "NotApplicable",
    "Session",
    "TaskContext",
    "honest_steps",
    "honest_total",
    "other_city",
    "replay",
    "results_of",
    "task_context",
]

SALT = "attack-13"
"""The fixed salt of the suite (flights, trains and weather depend on it)."""
TASKS = tuple(range(21))
"""Three tasks of every problem type (``task_id % 7`` is the type)."""

Call = tuple[str, dict[str, Any]]
Attack = tuple[list[dict[str, Any]], str]


class NotApplicable(Exception):
    """The attack has no meaningful form on this task (e.g. no neighbouring city)."""


@dataclass(frozen=True)
class TaskContext:
    """One task: the problem, the salt, the sandbox world and the honest reference run."""

    task_id: int
    problem: Problem
    salt: str
    world: SandboxWorld
    honest: EpisodeRun

    @property
    def honest_trace(self) -> list[dict[str, Any]]:
        """The reference planner's transcript (its final answer included)."""
        return self.honest.trace

    @property
    def honest_answer(self) -> str:
        """The reference planner's answer (prose plus the JSON plan)."""
        return self.honest.answer

    @property
    def ptype(self) -> str:
        """The problem type."""
        return self.problem.problem_type

    @property
    def cities(self) -> tuple[str, ...]:
        """The problem's cities (origin first when there is one)."""
        return tuple(c for c in (self.problem.origin_city, self.problem.destination_city) if c)


@lru_cache(maxsize=4)
def _world(salt: str) -> SandboxWorld:
    return SandboxWorld(salt)


@cache
def task_context(task_id: int, salt: str = SALT) -> TaskContext:
    """The context of ``task_id`` (cached per process: the reference run is made once)."""
    world = _world(salt)
    problem = ProblemGenerator(world=world).generate(task_id)
    honest = asyncio.run(ReferencePlanner().run(problem, world, salt=salt))
    if honest.error:
        raise RuntimeError(f"reference planner failed on task {task_id}: {honest.error}")
    return TaskContext(task_id, problem, salt, world, honest)


@cache
def honest_total(task_id: int, salt: str = SALT) -> float:
    """The honest reference answer's code-only total on today's scorer."""
    ctx = task_context(task_id, salt)
    return TravelScorer(salt=salt).score(ctx.problem, ctx.honest_trace, ctx.honest_answer).total


def honest_steps(trace: list[dict[str, Any]]) -> list[list[Call]]:
    """The tool-call steps of a transcript as ``[(name, arguments)]`` per assistant turn."""
    steps: list[list[Call]] = []
    for msg in trace:
        if msg.get("role") == "assistant" and msg.get("tool_calls"):
            steps.append(
                [
                    (tc["function"]["name"], json.loads(tc["function"]["arguments"]))
                    for tc in msg["tool_calls"]
                ]
            )
    return steps


def results_of(trace: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any], str]]:
    """``(tool, arguments, result text)`` of every answered call of a transcript, in order."""
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    out: list[tuple[str, dict[str, Any], str]] = []
    for msg in trace:
        if msg.get("role") == "assistant":
            for tc in msg.get("tool_calls") or ():
                calls[tc["id"]] = (tc["function"]["name"], json.loads(tc["function"]["arguments"] or "{}"))
        elif msg.get("role") == "tool" and msg.get("tool_call_id") in calls:
            name, args = calls[msg["tool_call_id"]]
            out.append((name, args, msg["content"]))
    return out


class Session:
    """An episode transcript built from real tool calls (the env's executor and tool budget).

    ``step`` records one assistant turn with its calls and the tool messages answering them;
    ``execute`` makes real calls without recording them (for the forged-trace attacks, which
    re-use the genuine result texts under other ids); ``trace`` closes the transcript with the
    final answer.
    """

    def __init__(self, ctx: TaskContext, problem: Problem | None = None) -> None:
        p = problem or ctx.problem
        self.ctx = ctx
        self.messages: list[dict[str, Any]] = opening_messages(p.system_prompt, p.prompt)
        self.executor = CallToolExecutor(ctx.world, None, default_date=p.travel_date or None, lang=p.lang)
        self._count = 0
        self.results: list[tuple[str, dict[str, Any], str]] = []

    def _tool_calls(self, calls: list[Call], ids: list[str] | None) -> list[dict[str, Any]]:
        out = []
        for i, (name, args) in enumerate(calls):
            call_id = ids[i] if ids else f"call_{self._count}"
            self._count += 1
            arguments = json.dumps(args, ensure_ascii=False)
            out.append(
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
            )
        return out

    def _run(self, tool_calls: list[dict[str, Any]]) -> list[str]:
        batch, _ = asyncio.run(self.executor.run(tool_calls))
        texts = [m["content"] for m in batch.messages]
        for tc, text in zip(tool_calls, texts, strict=True):
            self.results.append((tc["function"]["name"], json.loads(tc["function"]["arguments"]), text))
        return texts

    def step(self, calls: list[Call], ids: list[str] | None = None) -> list[str]:
        """One assistant turn with ``calls`` (ids ``call_N`` unless given); returns the result texts."""
        if not calls:
            return []
        tool_calls = self._tool_calls(calls, ids)
        texts = self._run(tool_calls)
        self.messages.append(assistant_message(None, tool_calls))
        self.messages.extend(tool_message(tc["id"], t) for tc, t in zip(tool_calls, texts, strict=True))
        return texts

    def execute(self, calls: list[Call]) -> list[str]:
        """Make real calls without recording them in the transcript; returns the result texts."""
        return self._run(self._tool_calls(calls, None)) if calls else []

    def add_messages(self, messages: list[dict[str, Any]]) -> None:
        """Append raw messages (forged-trace attacks: orphan tool results, re-used ids)."""
        self.messages.extend(messages)

    def trace(self, answer: str) -> list[dict[str, Any]]:
        """The transcript closed by the final assistant answer."""
        return [*self.messages, assistant_message(answer)]


def replay(ctx: TaskContext, keep: Any = None, edit: Any = None) -> Session:
    """A session replaying the honest run's steps for real; ``keep(name, args)`` filters calls,
    ``edit(name, args)`` returns the arguments actually sent."""
    s = Session(ctx)
    for step in honest_steps(ctx.honest_trace):
        calls = [(n, dict(a)) for n, a in step if keep is None or keep(n, a)]
        if edit is not None:
            calls = [(n, edit(n, a)) for n, a in calls]
        s.step(calls)
    return s


def other_city(ctx: TaskContext, *, near: bool = False) -> str:
    """A catalog city that is neither the origin nor the destination.

    ``near=False``: a big city (上海, 北京, 成都 …) that is not a problem city (obviously off-task);
    ``near=True``: the nearest city within 150 km of a problem city, else :class:`NotApplicable`.
    """
    dest = resolve_city(ctx.problem.destination_city)
    assert dest is not None
    topic = {resolve_city(c).name for c in ctx.cities if resolve_city(c) is not None}  # type: ignore[union-attr]
    others = [c for c in all_cities() if c.name not in topic]
    if near:
        close = sorted((haversine_km(dest.center, c.center), c.name) for c in others)
        if not close or close[0][0] > 150.0:
            raise NotApplicable(f"no catalog city within 150 km of {dest.name}")
        return close[0][1]
    for name in ("上海", "北京", "成都", "广州", "西安", "杭州"):
        if name not in topic:
            return name
    return others[0].name

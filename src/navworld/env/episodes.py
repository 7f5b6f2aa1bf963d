"""Episodes and their in-memory store.

An :class:`Episode` holds one problem's live state: the transcript exactly as OpenAI messages
(what the model saw, which is what the scorer reads), the per-episode tool budget, the reward
tracker and counters. It is also the agent loop's tool executor, so ``evaluate()`` and the
``reset``/``step`` API execute tools and compute step rewards through the same code.

The :class:`EpisodeStore` keeps live episodes with an idle TTL (default 3600 s,
``NAVWORLD_EPISODE_TTL``) and a cap (default 1024, ``NAVWORLD_MAX_EPISODES``). Finished
episodes are removed at once; expired ones are purged lazily (on every add and on lookup). All
store operations are synchronous (no ``await`` inside), so they are atomic under asyncio; each
episode carries an ``asyncio.Lock`` that serialises concurrent steps on it.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from navworld.agents.executor import CallToolExecutor, ToolBatch
from navworld.agents.messages import MAX_TOOL_STEPS
from navworld.core.errors import NavworldError
from navworld.core.models import ToolResult
from navworld.core.problem import Problem
from navworld.env.rewards import CallReward
from navworld.env.shaping import PotentialTracker, make_tracker, step_reward

__all__ = [
    "DEFAULT_EPISODE_TTL",
    "DEFAULT_MAX_EPISODES",
    "Episode",
    "EpisodeNotFound",
    "EpisodeStore",
    "EpisodeStoreFull",
    "StepExecution",
]

DEFAULT_EPISODE_TTL = 3600.0
DEFAULT_MAX_EPISODES = 1024


class EpisodeNotFound(NavworldError, KeyError):
    """No live episode has this id (never created, finished, or expired)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown episode"


class EpisodeStoreFull(NavworldError):
    """The store already holds its maximum number of live episodes."""


@dataclass
class StepExecution:
    """One executed tool step: the batch (tool messages) and each call's reward."""

    batch: ToolBatch
    results: list[ToolResult | None]
    rewards: list[CallReward]
    potential: bool = False

    @property
    def reward(self) -> float:
        """The step reward: Φ's increase over the step (s2), or the mean of the calls' rewards (seed)."""
        return step_reward(self.rewards, self.potential)


@dataclass(eq=False)
class Episode:
    """The live state of one episode.

    ``messages`` is the transcript (system, user, assistant, tool…) exactly as OpenAI messages.
    ``steps`` counts assistant turns with tool calls; ``forced_prompts`` counts tool-call turns
    refused after the step limit.
    """

    problem: Problem
    world: Any
    salt: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    budget: Any = None
    steps: int = 0
    tool_calls: int = 0
    forced_prompts: int = 0
    step_rewards: list[float] = field(default_factory=list)
    call_rewards: list[CallReward] = field(default_factory=list)
    created: float = field(default_factory=time.monotonic)
    touched: float = field(default_factory=time.monotonic)
    done: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    scoring: str | None = None
    """The scoring profile (``s2`` default, ``seed``): which step-reward formula the episode uses."""

    def __post_init__(self) -> None:
        self.executor = CallToolExecutor(
            self.world, self.budget, default_date=self.problem.travel_date or None, lang=self.problem.lang
        )
        self.budget = self.executor.budget
        self.tracker = make_tracker(self.problem, self.scoring)

    @property
    def remaining_steps(self) -> int:
        """Tool steps left before the final phase."""
        return max(0, MAX_TOOL_STEPS - self.steps)

    async def execute(self, tool_calls: list[dict[str, Any]]) -> StepExecution:
        """Execute one turn's normalised tool calls and score them (does not touch ``messages``)."""
        batch, results = await self.executor.run(tool_calls)
        rewards = [
            self.tracker.score(call["function"]["name"], call["function"]["arguments"], result)
            for call, result in zip(tool_calls, results, strict=True)
        ]
        batch.rewards = [r.reward for r in rewards]
        self.steps += 1
        self.tool_calls += len(tool_calls)
        self.call_rewards.extend(rewards)
        step = StepExecution(batch, results, rewards, isinstance(self.tracker, PotentialTracker))
        self.step_rewards.append(step.reward)
        return step

    async def __call__(self, tool_calls: list[dict[str, Any]]) -> ToolBatch:
        """The agent loop's executor protocol (per-step mean reward recorded on the episode)."""
        step = await self.execute(tool_calls)
        step.batch.rewards = [step.reward]
        return step.batch


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        return default
    return value if value > 0 else default


class EpisodeStore:
    """Live episodes with an idle TTL and a cap.

    Args:
        max_episodes: cap on live episodes (default ``NAVWORLD_MAX_EPISODES`` or 1024).
        ttl: seconds an episode may stay idle before it is purged (default
            ``NAVWORLD_EPISODE_TTL`` or 3600).
    """

    def __init__(self, max_episodes: int | None = None, ttl: float | None = None) -> None:
        self.max_episodes = int(max_episodes or _env_number("NAVWORLD_MAX_EPISODES", DEFAULT_MAX_EPISODES))
        self.ttl = float(ttl or _env_number("NAVWORLD_EPISODE_TTL", DEFAULT_EPISODE_TTL))
        self._live: OrderedDict[str, Episode] = OrderedDict()
        self.expired = 0
        """How many episodes were purged by the TTL (for monitoring)."""

    def __len__(self) -> int:
        return len(self._live)

    def __contains__(self, episode_id: object) -> bool:
        return episode_id in self._live

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._live))

    def purge_expired(self, now: float | None = None) -> int:
        """Remove episodes idle longer than the TTL; return how many were removed."""
        now = time.monotonic() if now is None else now
        removed = 0
        while self._live:
            episode_id, episode = next(iter(self._live.items()))
            if now - episode.touched <= self.ttl:
                break
            del self._live[episode_id]
            episode.done = True
            removed += 1
        self.expired += removed
        return removed

    def add(self, episode: Episode) -> Episode:
        """Register a new episode.

        Raises:
            EpisodeStoreFull: the cap is reached even after purging expired episodes.
        """
        self.purge_expired()
        if len(self._live) >= self.max_episodes:
            raise EpisodeStoreFull(
                f"too many live episodes ({len(self._live)}/{self.max_episodes}); finish some episodes "
                "(step with a final answer) or raise NAVWORLD_MAX_EPISODES"
            )
        episode.touched = time.monotonic()
        self._live[episode.id] = episode
        return episode

    def get(self, episode_id: str) -> Episode:
        """The live episode with this id, marked as used now.

        Raises:
            EpisodeNotFound: unknown, finished or expired.
        """
        episode = self._live.get(episode_id)
        now = time.monotonic()
        if episode is not None and now - episode.touched > self.ttl:
            self.purge_expired(now)
            episode = None
        if episode is None:
            raise EpisodeNotFound(f"unknown episode {episode_id!r} (never created, already finished, or expired)")
        episode.touched = now
        self._live.move_to_end(episode_id)
        return episode

    def discard(self, episode_id: str) -> Episode | None:
        """Remove an episode if present; return it."""
        episode = self._live.pop(episode_id, None)
        if episode is not None:
            episode.done = True
        return episode

    def clear(self) -> None:
        """Remove every episode."""
        for episode in self._live.values():
            episode.done = True
        self._live.clear()

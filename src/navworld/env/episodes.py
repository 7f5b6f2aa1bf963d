"""Episodes and their in-memory store.

An :class:`Episode` holds one problem's live state: the transcript exactly as OpenAI messages
(what the model saw, which is what the scorer reads), the per-episode tool budget, the reward
tracker and counters. It is also the agent loop's tool executor, so ``evaluate()`` and the
``reset``/``step`` API execute tools and compute step rewards through the same code.

The :class:`EpisodeStore` keeps live episodes with an idle TTL (default 600 s = 10 minutes,
``NAVWORLD_EPISODE_TTL``), a cap (default 1024, ``NAVWORLD_MAX_EPISODES``) and, for episodes
opened on behalf of a named client (the HTTP server names each caller), a per-client share
(default half the cap, ``NAVWORLD_MAX_EPISODES_PER_CLIENT``): one client cannot take every slot.
When the store is full, an episode idle for at least a minute is evicted from a client holding
more episodes than the one asking, so a client that opens episodes and abandons them loses its
own oldest ones first. Finished episodes are removed at once; expired ones are purged lazily (on
every add and lookup, and on ``/health``). All store operations are synchronous (no ``await``
inside), so they are atomic under asyncio; each episode carries an ``asyncio.Lock`` that
serialises concurrent steps on it.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import logging
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
from navworld.tools.json_args import arguments_problem

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_EPISODE_TTL",
    "DEFAULT_EVICT_IDLE",
    "DEFAULT_MAX_EPISODES",
    "ClientEpisodeLimit",
    "Episode",
    "EpisodeNotFound",
    "EpisodeStore",
    "EpisodeStoreFull",
    "StepExecution",
    "message_chars",
    "reward_arguments",
]

DEFAULT_EPISODE_TTL = 600.0
DEFAULT_MAX_EPISODES = 1024
DEFAULT_EVICT_IDLE = 60.0
"""Seconds an episode must be idle before a fuller client's episode may be evicted for another's."""
LOCAL = "local"
"""The client of episodes opened without one (in-process callers): exempt from the per-client share."""


class EpisodeNotFound(NavworldError, KeyError):
    """No live episode has this id (never created, finished, or expired)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown episode"


class EpisodeStoreFull(NavworldError):
    """The store already holds its maximum number of live episodes."""


class ClientEpisodeLimit(NavworldError):
    """This client already holds its share of the live episodes (HTTP 429)."""


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
    refused after the step limit; ``chars`` is the size of what the transcript holds beyond the
    opening messages; ``client`` is who opened it (for the store's per-client share).
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
    client: str = LOCAL
    chars: int = 0

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
        """Execute one turn's normalised tool calls and score them; record nothing yet (see
        :meth:`record`). Never raises on anything in the calls: tools answer bad input with
        error results and a reward that cannot be computed is 0 (logged as a bug)."""
        batch, results = await self.executor.run(tool_calls)
        rewards = [self._reward(call, result) for call, result in zip(tool_calls, results, strict=True)]
        batch.rewards = [r.reward for r in rewards]
        return StepExecution(batch, results, rewards, isinstance(self.tracker, PotentialTracker))

    def _reward(self, call: dict[str, Any], result: ToolResult | None) -> CallReward:
        name = call["function"]["name"]
        try:
            return self.tracker.score(name, reward_arguments(call["function"]["arguments"]), result)
        except Exception:  # a reward bug must not break the step (or let a model make it raise)
            log.exception("step reward of %r failed", name)
            return CallReward(str(name), 0.0, 0.0, 0.0, 0.0)

    def record(self, step: StepExecution, n_calls: int) -> None:
        """Count an executed step (steps, calls, rewards)."""
        self.steps += 1
        self.tool_calls += n_calls
        self.call_rewards.extend(step.rewards)
        self.step_rewards.append(step.reward)

    def snapshot(self) -> tuple[Any, ...]:
        """The state a step changes (tool budget, used call ids, reward tracker), for :meth:`restore`."""
        return _state_of(self.budget), _state_of(self.executor), _state_of(self.tracker)

    def restore(self, saved: tuple[Any, ...]) -> None:
        """Undo a step that could not complete (see :meth:`snapshot`)."""
        _set_state(self.budget, saved[0])
        _set_state(self.executor, saved[1])
        _set_state(self.tracker, saved[2])

    async def __call__(self, tool_calls: list[dict[str, Any]]) -> ToolBatch:
        """The agent loop's executor protocol (per-step mean reward recorded on the episode)."""
        step = await self.execute(tool_calls)
        self.record(step, len(tool_calls))
        step.batch.rewards = [step.reward]
        return step.batch


def reward_arguments(raw: Any) -> Any:
    """What the step rewards get for a call's ``arguments``: the arguments themselves when they
    are safe to parse, else a short stand-in that is not JSON (so they score as malformed, and
    identical hostile arguments still count as a repeat) — the rewards never parse text that
    :func:`navworld.tools.json_args.load_arguments` refuses."""
    if isinstance(raw, str) and arguments_problem(raw) is not None:
        return "<unparseable arguments " + hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:16] + ">"
    return raw


def _state_of(obj: Any) -> dict[str, Any]:
    state = getattr(obj, "__dict__", None)
    if state is None:
        return {}
    return {k: copy.copy(v) if isinstance(v, dict | list | set) else v for k, v in state.items()}


def _set_state(obj: Any, state: dict[str, Any]) -> None:
    if state:
        obj.__dict__.clear()
        obj.__dict__.update(state)


def message_chars(messages: list[dict[str, Any]]) -> int:
    """Characters the messages hold (contents, tool-call names, ids and arguments)."""
    total = 0
    for m in messages:
        content = m.get("content")
        total += len(content) if isinstance(content, str) else 0
        for call in m.get("tool_calls") or ():
            fn = call.get("function") or {}
            total += sum(len(v) for v in (call.get("id"), fn.get("name"), fn.get("arguments")) if isinstance(v, str))
    return total


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
    """Live episodes with an idle TTL, a cap and a per-client share.

    Args:
        max_episodes: cap on live episodes (default ``NAVWORLD_MAX_EPISODES`` or 1024).
        ttl: seconds an episode may stay idle before it is purged (default
            ``NAVWORLD_EPISODE_TTL`` or 600).
        max_per_client: live episodes one named client may hold (default
            ``NAVWORLD_MAX_EPISODES_PER_CLIENT`` or half the cap); in-process callers (no client)
            are exempt.
        evict_idle: seconds of idleness after which a fuller client's episode may be evicted to
            make room for another client (default 60).
    """

    def __init__(
        self,
        max_episodes: int | None = None,
        ttl: float | None = None,
        max_per_client: int | None = None,
        evict_idle: float = DEFAULT_EVICT_IDLE,
    ) -> None:
        self.max_episodes = int(max_episodes or _env_number("NAVWORLD_MAX_EPISODES", DEFAULT_MAX_EPISODES))
        self.ttl = float(ttl or _env_number("NAVWORLD_EPISODE_TTL", DEFAULT_EPISODE_TTL))
        share = max(1, self.max_episodes // 2)
        self.max_per_client = int(max_per_client or _env_number("NAVWORLD_MAX_EPISODES_PER_CLIENT", share))
        self.evict_idle = float(evict_idle)
        self._live: OrderedDict[str, Episode] = OrderedDict()
        self._clients: dict[str, int] = {}
        self.expired = 0
        """How many episodes were purged by the TTL (for monitoring)."""
        self.evicted = 0
        """How many idle episodes were evicted to make room for another client."""

    def __len__(self) -> int:
        return len(self._live)

    def __contains__(self, episode_id: object) -> bool:
        return episode_id in self._live

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._live))

    def held_by(self, client: str) -> int:
        """Live episodes of ``client``."""
        return self._clients.get(client, 0)

    def _drop(self, episode_id: str) -> Episode | None:
        episode = self._live.pop(episode_id, None)
        if episode is not None:
            episode.done = True
            left = self._clients.get(episode.client, 0) - 1
            if left > 0:
                self._clients[episode.client] = left
            else:
                self._clients.pop(episode.client, None)
        return episode

    def purge_expired(self, now: float | None = None) -> int:
        """Remove episodes idle longer than the TTL; return how many were removed."""
        now = time.monotonic() if now is None else now
        removed = 0
        while self._live:
            episode_id, episode = next(iter(self._live.items()))
            if now - episode.touched <= self.ttl:
                break
            self._drop(episode_id)
            removed += 1
        self.expired += removed
        return removed

    def _evict_for(self, client: str, now: float) -> bool:
        """Evict the longest-idle episode (idle ≥ ``evict_idle``) of a client holding more
        episodes than ``client`` would after this add; return whether one was evicted."""
        mine = self.held_by(client) + 1
        for episode_id, episode in self._live.items():
            if now - episode.touched < self.evict_idle:
                break  # LRU order: every later episode was used more recently
            if self.held_by(episode.client) > mine and not episode.lock.locked():
                self._drop(episode_id)
                self.evicted += 1
                return True
        return False

    def add(self, episode: Episode, client: str | None = None) -> Episode:
        """Register a new episode, opened by ``client`` (None: an in-process caller).

        Raises:
            EpisodeStoreFull: the cap is reached even after purging expired episodes and no
                fuller client has an idle episode to give up.
            ClientEpisodeLimit: ``client`` already holds its share.
        """
        now = time.monotonic()
        self.purge_expired(now)
        who = client or LOCAL
        if len(self._live) >= self.max_episodes and not self._evict_for(who, now):
            raise EpisodeStoreFull(
                f"too many live episodes ({len(self._live)}/{self.max_episodes}); finish some episodes "
                "(step with a final answer) or raise NAVWORLD_MAX_EPISODES"
            )
        if client is not None and self.held_by(who) >= self.max_per_client:
            raise ClientEpisodeLimit(
                f"this client already holds {self.held_by(who)} live episodes, its share of "
                f"{self.max_per_client}; finish some (step with a final answer) or wait for idle ones to "
                f"expire ({self.ttl:g} s), or raise NAVWORLD_MAX_EPISODES_PER_CLIENT"
            )
        episode.client = who
        episode.touched = now
        self._live[episode.id] = episode
        self._clients[who] = self.held_by(who) + 1
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
        return self._drop(episode_id)

    def clear(self) -> None:
        """Remove every episode."""
        for episode in self._live.values():
            episode.done = True
        self._live.clear()
        self._clients.clear()

    def occupancy(self) -> dict[str, Any]:
        """The store's fill for ``/health``: live episodes, caps, clients, TTL, evictions."""
        return {
            "live_episodes": len(self._live),
            "max_episodes": self.max_episodes,
            "max_episodes_per_client": self.max_per_client,
            "clients": len(self._clients),
            "busiest_client_episodes": max(self._clients.values(), default=0),
            "episode_ttl_s": self.ttl,
            "expired": self.expired,
            "evicted": self.evicted,
        }

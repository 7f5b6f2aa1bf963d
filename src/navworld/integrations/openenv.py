"""navworld as an OpenEnv environment (``pip install 'navworld[openenv]'``).

* :class:`NavworldEnvironment` — an OpenEnv ``Environment`` over :class:`navworld.Actor`. The
  typed action :class:`NavworldAction` is one assistant turn (``content`` + OpenAI
  ``tool_calls``); the observation :class:`NavworldObservation` carries the new ``messages``
  (the opening system/user messages on reset, the tool messages after a tool turn), the
  ``reward`` (the step reward; on the final answer total / 100) and navworld's ``info``.
  ``reset(task_id=…)`` picks a task; without one, ``seed`` indexes the task list, else the
  environment cycles through it.
* :func:`create_app` — the server, built with OpenEnv's own app factory: every WebSocket
  session gets its own environment (its own episode), all sharing one :class:`Actor`; the
  reference agent's OpenAI-compatible routes (``/v1/chat/completions``, ``/v1/responses``) are
  mounted too, so one process serves both the environment and a policy for tests.
* :class:`NavworldEnvClient` — the typed OpenEnv ``EnvClient`` for it.

Serve it (127.0.0.1 by default)::

    python -m navworld.integrations.openenv --port 8001 --tasks 0:70
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
from collections.abc import Iterable
from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from openenv.core.env_server.http_server import create_app as openenv_create_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import Action, EnvironmentMetadata, Observation, State
from pydantic import Field

from navworld.core.versions import PACKAGE_VERSION
from navworld.env.actor import Actor
from navworld.env.episodes import EpisodeNotFound
from navworld.integrations.common import make_actor, task_list

__all__ = [
    "NavworldAction",
    "NavworldEnvClient",
    "NavworldEnvironment",
    "NavworldObservation",
    "NavworldState",
    "create_app",
    "main",
]

DEFAULT_MAX_SESSIONS = 64


class NavworldAction(Action):
    """One assistant turn: tool calls to run, or (without tool calls) the final answer in ``content``."""

    content: str | None = Field(default=None, description="Assistant text; the final answer when there are no tool calls")
    tool_calls: list[dict[str, Any]] = Field(
        default_factory=list,
        description="OpenAI tool calls: {id, type: 'function', function: {name, arguments (JSON string)}}",
    )


class NavworldObservation(Observation):
    """What the environment answers: the new messages, and navworld's info (reward/done inherited)."""

    messages: list[dict[str, Any]] = Field(default_factory=list, description="New chat messages for the agent")
    info: dict[str, Any] = Field(default_factory=dict, description="navworld's info (tools, step rewards, score …)")


class NavworldState(State):
    """The session's episode: id, steps, task, whether it ended and its final score (0–100)."""

    task_id: int | None = None
    done: bool = False
    score: float | None = None


class NavworldEnvironment(Environment[NavworldAction, NavworldObservation, NavworldState]):
    """One OpenEnv session = one navworld episode at a time, on a (shared) :class:`Actor`.

    Args:
        actor: the navworld environment object (default: a new sandbox :class:`Actor`).
        tasks: the tasks ``reset()`` draws from (a spec like ``0:70``, ids, or None = ``0:70``).
        lang: prompt language (``zh`` / ``en``; default the actor's).
    """

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, actor: Actor | None = None, tasks: str | Iterable[int] | None = None,
                 lang: str | None = None) -> None:
        super().__init__()
        self.actor = actor if actor is not None else Actor()
        self.tasks = task_list(tasks if tasks is None or isinstance(tasks, str) else list(tasks))
        self.lang = lang
        self._cycle = itertools.cycle(self.tasks)
        self._state = NavworldState()
        self._runner: asyncio.Runner | None = None

    # ----------------------------------------------------------------------------- async API
    async def reset_async(self, seed: int | None = None, episode_id: str | None = None, task_id: int | None = None,
                          lang: str | None = None, **kwargs: Any) -> NavworldObservation:
        """Start an episode (dropping the session's unfinished one)."""
        self._drop()
        if task_id is None:
            task_id = self.tasks[seed % len(self.tasks)] if seed is not None else next(self._cycle)
        out = await self.actor.reset(int(task_id), lang=lang or self.lang)
        self._state = NavworldState(episode_id=out["episode_id"], step_count=0, task_id=int(task_id))
        info = {**out["info"], "episode_id": out["episode_id"]}
        return NavworldObservation(messages=out["observation"], info=info, reward=None, done=False)

    async def step_async(self, action: NavworldAction, timeout_s: float | None = None,
                         **kwargs: Any) -> NavworldObservation:
        """One assistant turn; an action without tool calls is the final answer (scored)."""
        episode_id = self._state.episode_id
        if episode_id is None or self._state.done:
            return NavworldObservation(done=True, reward=0.0, info={"error": "no live episode: call reset() first"})
        try:
            out = await self.actor.step(action.content, episode_id, tool_calls=action.tool_calls or None)
        except EpisodeNotFound as exc:
            self._state = self._state.model_copy(update={"done": True})
            return NavworldObservation(done=True, reward=0.0, info={"error": str(exc)})
        done = bool(out["done"])
        info = out["info"]
        self._state = self._state.model_copy(update={
            "step_count": self._state.step_count + 1,
            "done": done,
            "score": info.get("score") if done else None,
        })
        return NavworldObservation(messages=out["observation"], info=info, reward=float(out["reward"]), done=done)

    # ----------------------------------------------------------------------------- sync API
    def _run(self, coro: Any) -> Any:
        if self._runner is None:
            self._runner = asyncio.Runner()
        return self._runner.run(coro)

    def reset(self, seed: int | None = None, episode_id: str | None = None, **kwargs: Any) -> NavworldObservation:
        """Synchronous :meth:`reset_async` (for use outside an event loop)."""
        return self._run(self.reset_async(seed=seed, episode_id=episode_id, **kwargs))

    def step(self, action: NavworldAction, timeout_s: float | None = None, **kwargs: Any) -> NavworldObservation:
        """Synchronous :meth:`step_async` (for use outside an event loop)."""
        return self._run(self.step_async(action, timeout_s=timeout_s))

    @property
    def state(self) -> NavworldState:
        """The session's episode state."""
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        """Name, description and version."""
        return EnvironmentMetadata(
            name="navworld",
            description="Plan trips in China with six tools (POI search, nearby search, directions, weather, "
                        "flights, trains); scored by navworld's scorer.",
            version=PACKAGE_VERSION,
        )

    def _drop(self) -> None:
        if self._state.episode_id is not None and not self._state.done:
            self.actor.close_episode(self._state.episode_id)

    def close(self) -> None:
        """Drop the session's unfinished episode."""
        self._drop()
        if self._runner is not None:
            self._runner.close()
            self._runner = None


def create_app(actor: Actor | None = None, *, world: Any = None, salt: str | None = None,
               tasks: str | Iterable[int] | None = None, lang: str | None = None, scoring: str | None = None,
               max_sessions: int = DEFAULT_MAX_SESSIONS, reference_routes: bool = True) -> Any:
    """The OpenEnv server app (OpenEnv's ``create_app``) of navworld.

    Args:
        actor: a shared :class:`Actor` (default: one on ``world``/``salt`` with the ``scoring`` profile).
        tasks, lang: what ``reset()`` draws (see :class:`NavworldEnvironment`).
        scoring: the scorer profile, passed through (``None``: the default).
        max_sessions: concurrent WebSocket sessions.
        reference_routes: also mount the reference agent's ``/v1`` routes.
    """
    env = actor if actor is not None else make_actor(world=world, salt=salt, scoring=scoring)
    chosen = task_list(tasks if tasks is None or isinstance(tasks, str) else list(tasks))

    def factory() -> NavworldEnvironment:
        return NavworldEnvironment(env, tasks=chosen, lang=lang)

    app = openenv_create_app(factory, NavworldAction, NavworldObservation, env_name="navworld",
                             max_concurrent_envs=max_sessions)
    if reference_routes:
        from navworld.server import reference_route, responses_route

        app.include_router(reference_route.create_router(env))
        app.include_router(responses_route.create_router(env))
    app.state.actor = env
    return app


class NavworldEnvClient(EnvClient[NavworldAction, NavworldObservation, NavworldState]):
    """OpenEnv's WebSocket client, typed for navworld (``await client.reset(task_id=3)``; ``.sync()`` too)."""

    def _step_payload(self, action: NavworldAction) -> dict[str, Any]:
        return action.model_dump(exclude={"metadata"})

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[NavworldObservation]:
        obs = payload.get("observation") or {}
        observation = NavworldObservation(messages=obs.get("messages") or [], info=obs.get("info") or {},
                                          reward=payload.get("reward"), done=bool(payload.get("done")))
        return StepResult(observation=observation, reward=payload.get("reward"), done=bool(payload.get("done")))

    def _parse_state(self, payload: dict[str, Any]) -> NavworldState:
        return NavworldState(**payload)


def main(argv: list[str] | None = None) -> None:
    """``python -m navworld.integrations.openenv``: serve navworld over OpenEnv with uvicorn."""
    parser = argparse.ArgumentParser(prog="python -m navworld.integrations.openenv", description=main.__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--salt", default=None)
    parser.add_argument("--world", default=None, help="sandbox | amap | record:DIR | replay:DIR")
    parser.add_argument("--tasks", default=None, help="tasks reset() draws from (default 0:70)")
    parser.add_argument("--lang", default=None, choices=["zh", "en"])
    parser.add_argument("--scoring", default=None, help="scorer profile (default: the scorer's default)")
    parser.add_argument("--max-sessions", type=int, default=DEFAULT_MAX_SESSIONS)
    args = parser.parse_args(argv)
    import uvicorn

    app = create_app(world=args.world, salt=args.salt, tasks=args.tasks, lang=args.lang, scoring=args.scoring,
                     max_sessions=args.max_sessions)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":  # pragma: no cover - the documented one-liner
    main()

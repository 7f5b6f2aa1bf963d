"""``navworld.Actor``: whole-episode evaluation and the step-by-step episode API.

* ``await actor.evaluate(model, base_url, task_id, ...)`` plays a whole episode with an
  OpenAI-compatible model (the agent loop of :mod:`navworld.agents.loop`), re-dispatches it
  once on an infrastructure failure, and scores it. Infra failures come back in ``error`` with
  score 0 and ``extra.valid_for_scoring = False``; model failures (context overflow, no final
  answer) are scored like any answer.
* ``await actor.reset(task_id)`` / ``await actor.step(action, episode_id, tool_calls=None)``
  drive an episode turn by turn for RL: tool calls are executed and rewarded (seed §1.3); a
  turn without tool calls is the final answer and is scored (reward = total / 100). Tool calls
  after the 15th step are not executed: the observation asks for the final answer instead.

Episodes live in an :class:`~navworld.env.episodes.EpisodeStore` (TTL, cap); finished ones are
freed immediately.

The evaluate logic lives in :mod:`navworld.env.evaluate`, the result stamps (:func:`versions`,
:func:`problem_summary`, :func:`content_hash`) in :mod:`navworld.env.summary`; they are re-exported
here.
"""

from __future__ import annotations

import inspect
import logging
import os
from collections import OrderedDict
from typing import Any

from navworld.agents.client import DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_RETRIES, DEFAULT_MAX_TOKENS
from navworld.agents.client import DEFAULT_RETRY_BACKOFF as _BACKOFF
from navworld.agents.messages import (
    MAX_TOOL_STEPS,
    assistant_message,
    final_answer_prompt,
    normalize_tool_calls,
    opening_messages,
    step_limit_text,
    tool_message,
)
from navworld.core.errors import TaskError
from navworld.core.problem import Problem
from navworld.core.seeding import current_salt
from navworld.env.episodes import Episode, EpisodeNotFound, EpisodeStore, message_chars
from navworld.env.evaluate import (
    SUCCESS_THRESHOLD,
    TASK_NAME,  # noqa: F401  (re-exported: it lived here)
    evaluate_episode,
)
from navworld.env.limits import EpisodeLimits
from navworld.env.summary import content_hash, debug_enabled, problem_summary, versions

__all__ = ["MAX_FORCED_PROMPTS", "SUCCESS_THRESHOLD", "Actor", "problem_summary", "versions"]

log = logging.getLogger(__name__)

MAX_FORCED_PROMPTS = 2
"""Tool-call turns refused after the step limit before the episode ends without an answer."""
_PROBLEM_CACHE = 512


class Actor:
    """The navworld environment as an object: evaluate whole episodes or drive them step by step.

    Args:
        world: a world backend object, or a spec (``sandbox``, ``amap``, ``record:DIR``,
            ``replay:DIR``); default ``NAVWORLD_WORLD`` or the sandbox.
        salt: the weekly salt (default ``NAVWORLD_SALT`` or the current week epoch).
        judge: an optional LLM judge for the scorer (None → code-only scoring).
        lang: prompt language, ``zh`` (default) or ``en``.
        max_episodes: cap on live episodes (default ``NAVWORLD_MAX_EPISODES`` or 1024).
        episode_ttl: idle seconds before a live episode is dropped (default
            ``NAVWORLD_EPISODE_TTL`` or 600).
        max_episodes_per_client: live episodes one named client may hold (default
            ``NAVWORLD_MAX_EPISODES_PER_CLIENT`` or half of ``max_episodes``).
        limits: size limits of steps (default :meth:`EpisodeLimits.from_env`).
        call_timeout: seconds one model call may take in ``evaluate`` (default 480).
        max_tokens: ``max_tokens`` sent to the model in ``evaluate`` (default 8192).
        max_retries, retry_backoff: transient-failure retries per model call (3; 2 s doubling).
        stream: stream model responses in ``evaluate``: ``None`` (default) streams unless the
            endpoint rejects or ignores it, ``True`` always, ``False`` never.
        scorer, generator: injected collaborators (default ``TravelScorer`` / ``ProblemGenerator``).
        scoring: the scoring profile, ``s2`` (default; potential-based step rewards) or ``seed``
            (NAVWORLD's formula and step rewards); default ``NAVWORLD_SCORING`` or ``s2``.
    """

    def __init__(
        self,
        world: Any = None,
        salt: str | int | None = None,
        judge: Any = None,
        lang: str = "zh",
        max_episodes: int | None = None,
        *,
        episode_ttl: float | None = None,
        max_episodes_per_client: int | None = None,
        limits: EpisodeLimits | None = None,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        max_tokens: int | None = DEFAULT_MAX_TOKENS,
        max_retries: int = DEFAULT_MAX_RETRIES,
        retry_backoff: float = _BACKOFF,
        stream: bool | None = None,
        scorer: Any = None,
        generator: Any = None,
        scoring: str | None = None,
    ) -> None:
        from navworld.scoring.profile import get_profile

        self.scoring = get_profile(scoring or os.environ.get("NAVWORLD_SCORING") or None).name
        self.salt = current_salt(salt)
        if world is None or isinstance(world, str):
            from navworld.world import get_world

            self.world_name = world or os.environ.get("NAVWORLD_WORLD", "") or "sandbox"
            world = get_world(world, self.salt)
        else:
            self.world_name = str(getattr(world, "name", type(world).__name__))
        self.world = world
        self.judge = judge
        self.lang = "en" if lang == "en" else "zh"
        self.store = EpisodeStore(max_episodes, episode_ttl, max_episodes_per_client)
        self.limits = limits if limits is not None else EpisodeLimits.from_env()
        self.call_timeout = call_timeout
        self.max_tokens = max_tokens
        self.max_retries = max_retries
        self.retry_backoff = retry_backoff
        self.stream = stream
        self._scorer = scorer
        self._generator = generator
        self._problems: OrderedDict[tuple[int, str], Problem] = OrderedDict()
        self._tools: list[dict[str, Any]] | None = None

    # ------------------------------------------------------------------------------ collaborators
    @property
    def generator(self) -> Any:
        """The problem generator (built on first use)."""
        if self._generator is None:
            from navworld.tasks.generator import ProblemGenerator

            sandbox = None
            try:
                from navworld.world.sandbox import SandboxWorld

                if isinstance(self.world, SandboxWorld):
                    sandbox = self.world
            except ImportError:  # pragma: no cover - the sandbox is part of the package
                pass
            self._generator = ProblemGenerator(world=sandbox) if sandbox is not None else ProblemGenerator()
        return self._generator

    @property
    def scorer(self) -> Any:
        """The scorer (built on first use, with this actor's judge and salt)."""
        if self._scorer is None:
            from navworld.scoring.scorer import TravelScorer

            kwargs: dict[str, Any] = {"judge": self.judge, "profile": self.scoring}
            if "salt" in inspect.signature(TravelScorer).parameters:
                kwargs["salt"] = self.salt
            self._scorer = TravelScorer(**kwargs)
        return self._scorer

    def tools(self) -> list[dict[str, Any]]:
        """The OpenAI function-tool list offered to models."""
        if self._tools is None:
            from navworld.tools.registry import openai_tools

            self._tools = openai_tools()
        return self._tools

    def problem(self, task_id: int, lang: str | None = None) -> Problem:
        """The generated problem of ``task_id`` (cached).

        Raises:
            TaskError: ``task_id`` is not a non-negative integer or cannot be generated.
        """
        if isinstance(task_id, bool) or not isinstance(task_id, int) or task_id < 0:
            raise TaskError(f"task_id must be a non-negative integer, got {task_id!r}")
        lang = "en" if (lang or self.lang) == "en" else "zh"
        key = (task_id, lang)
        problem = self._problems.get(key)
        if problem is None:
            problem = self.generator.generate(task_id, lang=lang)
            self._problems[key] = problem
            if len(self._problems) > _PROBLEM_CACHE:
                self._problems.popitem(last=False)
        else:
            self._problems.move_to_end(key)
        return problem

    async def _score(self, problem: Problem, trace: list[dict[str, Any]], answer: str) -> Any:
        scorer = self.scorer
        if self.judge is not None and hasattr(scorer, "score_async"):
            return await scorer.score_async(problem, trace, answer)
        return scorer.score(problem, trace, answer)

    # ------------------------------------------------------------------------------ evaluate
    async def evaluate(
        self,
        model: str,
        base_url: str,
        task_id: int,
        timeout: float = 300,
        temperature: float = 0.7,
        api_key: str | None = None,
        seed: int | None = None,
        *,
        max_tokens: int | None = None,
        stream: bool | None = None,
        client: str | None = None,
    ) -> dict[str, Any]:
        """Play and score one whole episode with an OpenAI-compatible model.

        Returns ``{"task_name", "score" (0–1), "success" (score ≥ 0.6), "time_taken", "error",
        "extra"}``. ``timeout`` bounds the whole call, including the one re-dispatch.
        ``api_key`` (else ``NAVWORLD_API_KEY`` / ``OPENAI_API_KEY``) is used for the model calls
        only; it never appears in the result or the logs. Nothing a model sends makes it raise:
        hostile output is scored as the model's; an internal failure comes back in ``error``.
        ``client`` names the caller for the store's per-client share (the HTTP server sets it).

        Raises:
            TaskError: a bad ``task_id``.
            EpisodeStoreFull: too many live episodes.
            ClientEpisodeLimit: ``client`` holds its share of them.
        """
        return await evaluate_episode(
            self, model, base_url, task_id, timeout, temperature, api_key, seed,
            max_tokens=max_tokens, stream=stream, client=client,
        )

    # ------------------------------------------------------------------------------ reset / step
    async def reset(self, task_id: int, lang: str | None = None, *, client: str | None = None) -> dict[str, Any]:
        """Start an episode of ``task_id``.

        Returns ``{"episode_id", "observation", "info"}``: the observation is the opening
        messages (system and user); ``info`` has the problem summary, the tools (OpenAI
        function list), ``max_steps`` and the version stamps. ``client`` names the caller for
        the store's per-client share (the HTTP server sets it; in-process callers are exempt).

        Raises:
            TaskError: a bad ``task_id``.
            EpisodeStoreFull: too many live episodes.
            ClientEpisodeLimit: ``client`` holds its share of them.
        """
        problem = self.problem(task_id, lang)
        messages = opening_messages(problem.system_prompt, problem.prompt)
        episode = self.store.add(Episode(problem, self.world, self.salt, messages=messages, scoring=self.scoring), client)
        return {
            "episode_id": episode.id,
            "observation": [dict(m) for m in messages],
            "info": {
                "task_id": problem.task_id,
                "problem": problem_summary(problem),
                "tools": self.tools(),
                "max_steps": MAX_TOOL_STEPS,
                "salt": self.salt,
                "versions": versions(),
                "content_hash": content_hash(problem),
            },
        }

    async def step(
        self, action: str | None, episode_id: str, tool_calls: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """Advance an episode by one assistant turn.

        With ``tool_calls``: the calls are executed (unless the step limit is reached), the
        observation is the tool messages, the reward is the mean step reward;
        ``info["tool_calls"]`` echoes the calls as recorded (ids filled in when missing). Without: ``action``
        is the final answer; it is scored, the episode is freed and the reward is total / 100
        with ``info["score"]`` (0–100) and the safe score dict (full dict when
        ``NAVWORLD_DEBUG=1``).

        A step happens completely or not at all: a step over a size limit (:attr:`limits`) is
        refused before anything changes, and a step that fails midway is undone.

        Raises:
            EpisodeNotFound: unknown, finished or expired episode.
            LimitExceeded: the step is larger than :attr:`limits` allow (the episode is unchanged).
        """
        episode = self.store.get(episode_id)
        async with episode.lock:
            if episode.done:
                raise EpisodeNotFound(f"episode {episode_id!r} already finished")
            calls = normalize_tool_calls(tool_calls, prefix=f"call_{episode.steps}")
            added = self.limits.check_step(action, calls, episode.chars)
            if not calls:
                return await self._final(episode, action or "")
            if episode.steps >= MAX_TOOL_STEPS:
                return await self._refuse(episode, action, calls, added)
            return await self._tools_step(episode, action, calls, added)

    async def _tools_step(
        self, episode: Episode, action: str | None, calls: list[dict[str, Any]], added: int
    ) -> dict[str, Any]:
        saved = episode.snapshot()
        try:
            step = await episode.execute(calls)
            observation = list(step.batch.messages)
            final_phase = episode.steps + 1 >= MAX_TOOL_STEPS and not step.batch.infra_error
            prompt = {"role": "user", "content": final_answer_prompt(episode.problem.lang)} if final_phase else None
            info: dict[str, Any] = {
                "step": episode.steps + 1,
                "remaining_steps": max(0, episode.remaining_steps - 1),
                "tool_calls": calls,
                "rewards": [r.to_dict() for r in step.rewards],
                "tool_results": [
                    {"name": c["function"]["name"], "ok": bool(r and r.ok), "error": r.error if r else "not executed"}
                    for c, r in zip(calls, step.results, strict=True)
                ],
            }
        except BaseException:  # nothing of the step is kept (cancellation included)
            episode.restore(saved)
            raise
        # Commit: plain appends and counters only.
        episode.messages.append(assistant_message(action or None, calls))
        episode.messages.extend(observation)
        episode.record(step, len(calls))
        episode.chars += added + message_chars(observation)
        if step.batch.infra_error:
            self.store.discard(episode.id)
            info.update(error=f"tool_infra: {step.batch.infra_error}", valid_for_scoring=False)
            return {"observation": observation, "reward": 0.0, "done": True, "info": info}
        if prompt is not None:
            episode.messages.append(prompt)
            observation.append(prompt)
        info.update(final_phase=final_phase, tools_enabled=not final_phase)
        return {"observation": observation, "reward": step.reward, "done": False, "info": info}

    async def _refuse(
        self, episode: Episode, action: str | None, calls: list[dict[str, Any]], added: int
    ) -> dict[str, Any]:
        """Tool calls past the step limit: not executed, reward 0, ask for the final answer."""
        if episode.forced_prompts + 1 > MAX_FORCED_PROMPTS:
            result = await self._final(episode, "", model_failure="no_final_answer")
            episode.forced_prompts += 1
            result["info"]["refused_tool_calls"] = len(calls)
            return result
        episode.forced_prompts += 1
        lang = episode.problem.lang
        text = step_limit_text(lang)
        observation = [tool_message(c["id"], text) for c in calls]
        observation.append({"role": "user", "content": final_answer_prompt(lang)})
        episode.messages.append(assistant_message(action or None, calls))
        episode.messages.extend(observation)
        episode.chars += added + message_chars(observation)
        info = {
            "step": episode.steps,
            "remaining_steps": 0,
            "tool_calls": calls,
            "final_phase": True,
            "tools_enabled": False,
            "refused_tool_calls": len(calls),
            "forced_prompts": episode.forced_prompts,
        }
        return {"observation": observation, "reward": 0.0, "done": False, "info": info}

    async def _final(self, episode: Episode, answer: str, model_failure: str | None = None) -> dict[str, Any]:
        """Score ``answer`` as the final answer and free the episode.

        The episode is freed only once the answer is scored (a cancelled scoring leaves it live);
        a scorer failure is reported in ``info["error"]`` with ``valid_for_scoring = False``.
        """
        if model_failure is None and not answer.strip():
            model_failure = "no_final_answer"
        trace = [*episode.messages, assistant_message(answer)]
        error: str | None = None
        try:
            report = await self._score(episode.problem, trace, answer)
        except Exception as exc:  # a scorer exception is a bug: report it, never lose the episode silently
            log.exception("scoring task %s failed", episode.problem.task_id)
            report, error = None, f"scorer: {type(exc).__name__}: {str(exc)[:200]}"
        episode.messages.append(trace[-1])
        episode.done = True
        self.store.discard(episode.id)
        total = float(report.total) if report is not None else 0.0
        breakdown = None if report is None else report.to_dict() if debug_enabled() else report.to_safe_dict()
        info = {
            "score": total,
            "score_breakdown": breakdown,
            "steps": episode.steps,
            "tool_calls": episode.tool_calls,
            "step_rewards": list(episode.step_rewards),
            "model_failure": model_failure,
            "salt": self.salt,
            "versions": versions(),
        }
        if error is not None:
            info.update(error=error, valid_for_scoring=False)
        return {"observation": [], "reward": round(total / 100.0, 6), "done": True, "info": info}

    # ------------------------------------------------------------------------------ housekeeping
    def close_episode(self, episode_id: str) -> bool:
        """Drop a live episode without scoring it; return whether it existed."""
        return self.store.discard(episode_id) is not None

    async def aclose(self) -> None:
        """Drop every live episode and release the world backend."""
        self.store.clear()
        closer = getattr(self.world, "aclose", None)
        if closer is not None:
            await closer()

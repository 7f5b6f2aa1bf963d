"""Whole-episode evaluation: play an episode with a model, re-dispatch on infra failure, score it.

:func:`evaluate_episode` is the body of :meth:`navworld.env.actor.Actor.evaluate`; it plays the
agent loop of :mod:`navworld.agents.loop` on fresh episodes of the actor's store and builds the
result dict. Infra failures come back in ``error`` with score 0 and
``extra.valid_for_scoring = False``; model failures are scored like any answer.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from navworld.agents.client import redact
from navworld.agents.loop import run_episode
from navworld.env.episodes import Episode
from navworld.env.summary import content_hash, public_url, versions

if TYPE_CHECKING:
    from navworld.env.actor import Actor

__all__ = ["SUCCESS_THRESHOLD", "TASK_NAME", "evaluate_episode"]

log = logging.getLogger("navworld.env.actor")  # the logger this code used before it moved here

SUCCESS_THRESHOLD = 0.6
"""``success`` is ``score >= 0.6`` (a total of 60/100)."""
TASK_NAME = "navworld"


async def evaluate_episode(
    actor: Actor,
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
    """Play and score one whole episode of ``task_id`` on ``actor`` (see :meth:`Actor.evaluate`).

    Nothing the model sends makes this raise; an unexpected internal failure while playing comes
    back as ``error: "internal: …"`` (score 0, ``valid_for_scoring = False``) and is logged.

    Raises:
        TaskError: a bad ``task_id``.
        EpisodeStoreFull: too many live episodes.
        ClientEpisodeLimit: ``client`` holds its share of them.
    """
    started = time.monotonic()
    problem = actor.problem(task_id)
    # Claim a slot up front so a full store fails fast, before any model call. Each dispatch
    # gets a fresh episode (fresh budget and rewards); the previous one is freed first.
    pending = [actor.store.add(Episode(problem, actor.world, actor.salt, scoring=actor.scoring), client)]
    used: list[Episode] = []

    def factory() -> Episode:
        if pending:
            episode = pending.pop()
        else:
            actor.store.discard(used[-1].id)
            episode = actor.store.add(Episode(problem, actor.world, actor.salt, scoring=actor.scoring), client)
        used.append(episode)
        return episode

    try:
        run = await run_episode(
            problem,
            actor.world,
            model=model,
            base_url=base_url,
            api_key=api_key,
            temperature=temperature,
            timeout=timeout,
            max_tokens=max_tokens if max_tokens is not None else actor.max_tokens,
            seed=seed,
            call_timeout=actor.call_timeout,
            max_retries=actor.max_retries,
            retry_backoff=actor.retry_backoff,
            stream=actor.stream if stream is None else stream,
            executor_factory=factory,
            tools=actor.tools(),
        )
    except Exception as exc:  # a bug of ours, not the model's: report it, never raise to the caller
        log.exception("evaluating task %s failed", problem.task_id)
        return _internal_failure(actor, problem, model, base_url, started, exc)
    finally:
        for episode in pending + used:
            actor.store.discard(episode.id)

    episode = used[-1]
    extra: dict[str, Any] = {
        "task_id": problem.task_id,
        "problem_type": problem.problem_type,
        "difficulty": problem.difficulty,
        "lang": problem.lang,
        "model": model,
        "base_url": public_url(base_url),
        "total": 0.0,
        "report": None,
        "steps": run.steps,
        "tool_calls": run.tool_calls,
        "usage": run.usage.to_dict(),
        "finish": run.finish,
        "model_failure": run.model_failure,
        "truncated": run.truncated,
        "step_rewards": list(episode.step_rewards),
        "mean_step_reward": round(sum(episode.step_rewards) / len(episode.step_rewards), 4)
        if episode.step_rewards
        else 0.0,
        "dispatches": run.dispatches,
        "model_calls": run.model_calls,
        "http_attempts": run.http_attempts,
        "answer": run.answer,
        "trace": run.trace,
        "valid_for_scoring": run.error is None,
        "salt": actor.salt,
        "world": actor.world_name,
        "versions": versions(),
        "content_hash": content_hash(problem),
    }
    error = redact(run.error, api_key) if run.error else None
    score = 0.0
    if error is None:
        try:
            report = await actor._score(problem, run.trace, run.answer)
        except Exception as exc:  # a scorer exception is a bug: report it, do not crash a batch
            log.exception("scoring task %s failed", problem.task_id)
            error = f"scorer: {type(exc).__name__}: {exc}"
            extra["valid_for_scoring"] = False
        else:
            total = float(report.total)
            extra["total"] = total
            extra["report"] = report.to_dict()
            score = round(total / 100.0, 6)
    return {
        "task_name": TASK_NAME,
        "score": score,
        "success": error is None and score >= SUCCESS_THRESHOLD,
        "time_taken": round(time.monotonic() - started, 4),
        "error": error,
        "extra": extra,
    }


def _internal_failure(actor: Actor, problem: Any, model: str, base_url: str, started: float, exc: Exception) -> dict[str, Any]:
    """The result of an episode that failed inside navworld (score 0, not valid for scoring)."""
    return {
        "task_name": TASK_NAME,
        "score": 0.0,
        "success": False,
        "time_taken": round(time.monotonic() - started, 4),
        "error": f"internal: {type(exc).__name__}: {str(exc)[:200]}",
        "extra": {
            "task_id": problem.task_id,
            "problem_type": problem.problem_type,
            "difficulty": problem.difficulty,
            "lang": problem.lang,
            "model": model,
            "base_url": public_url(base_url),
            "total": 0.0,
            "report": None,
            "valid_for_scoring": False,
            "salt": actor.salt,
            "world": actor.world_name,
            "versions": versions(),
            "content_hash": content_hash(problem),
        },
    }

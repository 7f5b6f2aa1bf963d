"""The per-task function shared by every backend: generate → play → score → verify → one row.

:class:`EpisodeRunner` holds what is expensive to build and safe to share inside one process
(problem generator, world backend, scorer, agent). The local backend uses one; each Ray worker
process builds its own from the same :class:`~navworld.runner.config.EvalConfig`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from navworld.core.problem import Problem
from navworld.runner.agents import EpisodeAgent, RunRecord, build_agent, resolve_api_key
from navworld.runner.config import EvalConfig, JudgeSpec, versions
from navworld.runner.metrics import task_plan_metrics
from navworld.runner.results import content_hash

__all__ = ["SUCCESS_THRESHOLD", "EpisodeRunner", "Job", "plan_jobs", "row_hash", "run_job"]

log = logging.getLogger(__name__)

SUCCESS_THRESHOLD = 60.0
"""A row succeeds when its total score (0–100) is at least this."""


@dataclass(frozen=True)
class Job:
    """One (task, epoch) to run, with the content hash its row will carry."""

    task_id: int
    epoch: int
    content_hash: str
    problem_type: str
    difficulty: int
    problem: Problem | None = field(default=None, compare=False, repr=False)
    """The generated problem (kept by the local backend so it is not generated twice)."""


def _generator(salt: str | None = None) -> Any:
    """A problem generator whose budgets and timetables come from the run's salt (not the week's)."""
    from navworld.tasks.generator import ProblemGenerator
    from navworld.world.sandbox import SandboxWorld

    return ProblemGenerator(SandboxWorld(salt))


def row_hash(config: EvalConfig, problem: Problem, epoch: int) -> str:
    """The content hash of the row of ``problem`` at ``epoch`` under ``config``."""
    world = config.world if config.profile == "navworld" else f"{config.world}|profile={config.profile}"
    return content_hash(
        problem.to_dict(),
        salt=config.salt,
        world=world,
        versions={**versions(), "scoring_profile": config.scoring},
        agent=config.agent.identity(),
        judge=config.judge.identity() if config.judge else None,
        epoch=epoch,
    )


def _query_problems(config: EvalConfig, world: Any | None = None) -> list[Problem]:
    """The problems of ``config.queries`` (a ChinaTravel query file, issue 17)."""
    from navworld.runner.chinatravel import query_problem_list
    from navworld.world import get_world

    assert config.queries is not None
    return query_problem_list(config.queries, world or get_world(config.world, config.salt), config.salt, config.lang)


def plan_jobs(config: EvalConfig, generator: Any | None = None) -> list[Job]:
    """Every (task, epoch) of the run, in order, with its content hash."""
    gen = generator or _generator(config.salt)
    queries = _query_problems(config) if config.queries else None
    jobs: list[Job] = []
    for task_id in config.task_ids:
        problem = queries[task_id] if queries is not None else gen.generate(task_id, lang=config.lang)
        for epoch in range(config.epochs):
            jobs.append(
                Job(
                    task_id, epoch, row_hash(config, problem, epoch), problem.problem_type, problem.difficulty
                )
            )
    return jobs


def _build_judge(spec: JudgeSpec) -> Any:
    """Build the scorer's LLM judge panel (the key comes from the environment, never from config)."""
    from navworld.scoring.judge import LLMJudge

    return LLMJudge(
        list(spec.models),
        base_url=spec.base_url,
        api_key=resolve_api_key(spec.api_key_env),
        timeout=spec.timeout,
        retries=spec.retries,
        max_tokens=spec.max_tokens,
    )


def _build_scorer(judge: Any, salt: str, scoring: str = "s2", world: Any = None) -> Any:
    from navworld.scoring.scorer import TravelScorer

    return TravelScorer(judge=judge, salt=salt, profile=scoring, world=world)


def _code_score(report_dict: dict[str, Any]) -> float | None:
    code = report_dict.get("code_score")
    if isinstance(code, dict):
        for key in ("subtotal", "total", "score"):
            value = code.get(key)
            if isinstance(value, int | float):
                return float(value)
    if isinstance(code, int | float):
        return float(code)
    return None


class EpisodeRunner:
    """Runs single (task, epoch) episodes and turns them into result rows.

    Args:
        config: the run's configuration.
        agent: an agent to use instead of building the configured one (tests, embedding).
    """

    def __init__(self, config: EvalConfig, agent: EpisodeAgent | None = None) -> None:
        self.config = config
        self.generator = _generator(config.salt)
        from navworld.world import get_world

        self.world = get_world(config.world, config.salt)
        self.queries = _query_problems(config, self.world) if config.queries else None
        self.agent = agent if agent is not None else build_agent(config.agent)
        judge = _build_judge(config.judge) if config.judge else None
        from navworld.runner.chinatravel import is_chinatravel_world

        self._on_chinatravel = is_chinatravel_world(self.world)
        # plans are verified against the run's own world when it is not the sandbox's (ChinaTravel data)
        self.scorer = _build_scorer(judge, config.salt, config.scoring, self.world if self._on_chinatravel else None)
        self._judged = judge is not None
        self._secrets = [s for s in (resolve_api_key(config.agent.api_key_env),) if s and len(s) >= 4]

    def _redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    async def aclose(self) -> None:
        """Release the world backend."""
        closer = getattr(self.world, "aclose", None)
        if closer is not None:
            await closer()
        agent_close = getattr(self.agent, "aclose", None)
        if agent_close is not None:
            await agent_close()

    async def _score(self, problem: Problem, record: RunRecord) -> Any:
        if self._judged and hasattr(self.scorer, "score_async"):
            return await self.scorer.score_async(problem, record.trace, record.answer)
        return self.scorer.score(problem, record.trace, record.answer)

    @staticmethod
    def _verification(report: Any) -> dict[str, Any] | None:
        """The plan verification dict the scorer attached (``None`` when no plan was verified)."""
        verification: Any = getattr(report, "plan_verification", None)
        if verification is not None and hasattr(verification, "to_dict"):
            verification = verification.to_dict()
        return verification if isinstance(verification, dict) else None

    async def run(self, task_id: int, epoch: int, problem: Problem | None = None) -> dict[str, Any]:
        """Play, score and verify one (task, epoch); always returns a complete row.

        ``problem`` may be passed when already generated (it must be ``generate(task_id, lang)``).

        Failures of the agent's infrastructure (``RunRecord.error``) and unexpected exceptions
        are recorded in ``error`` and the row is left unscored (``score`` is ``None``).
        """
        config = self.config
        started = time.perf_counter()
        if problem is None:
            problem = self.queries[task_id] if self.queries is not None else self.generator.generate(task_id, lang=config.lang)
        error: str | None = None
        record = RunRecord()
        report_dict: dict[str, Any] | None = None
        verification: dict[str, Any] | None = None
        try:
            record = await self.agent.run(problem, self.world, salt=config.salt)
            error = record.error
        except Exception as exc:  # one failing episode must not stop the batch
            log.exception("task %s epoch %s: agent failed", task_id, epoch)
            error = f"agent: {exc.__class__.__name__}: {exc}"
        if error is None:
            try:
                report = await self._score(problem, record)
                report_error = getattr(report, "error", None)
                if report_error:
                    error = f"scorer: {report_error}"
                else:
                    report_dict = report.to_dict()
                    verification = self._verification(report)
            except Exception as exc:  # a scorer bug is recorded, not fatal
                log.exception("task %s epoch %s: scoring failed", task_id, epoch)
                error = f"scorer: {exc.__class__.__name__}: {exc}"
        chinatravel: dict[str, Any] | None = None
        if error is None and self._on_chinatravel:  # the scorer verifies on the sandbox; this world is the truth
            from navworld.runner.chinatravel import verify_row

            try:
                verification, chinatravel = verify_row(self.world, problem, record.answer, record.trace, config.profile)
            except Exception as exc:  # a verification bug is recorded, not fatal
                log.exception("task %s epoch %s: chinatravel verification failed", task_id, epoch)
                error = f"verify: {exc.__class__.__name__}: {exc}"
        total = report_dict.get("total") if report_dict else None
        score = float(total) if isinstance(total, int | float) else None
        n_constraints = len(problem.hard_logic)
        vers = versions()
        row = {
            "schema_version": vers["schema_version"],
            "task_id": task_id,
            "epoch": epoch,
            "problem_type": problem.problem_type,
            "difficulty": problem.difficulty,
            "lang": problem.lang,
            "agent": {"name": config.agent.label, **config.agent.identity()},
            "judge": config.judge.identity() if config.judge else None,
            "score": score,
            "code_score": _code_score(report_dict) if report_dict else None,
            "success": score is not None and score >= SUCCESS_THRESHOLD,
            "report": report_dict,
            "plan": {
                "verification": verification,
                "metrics": task_plan_metrics(verification, n_constraints) if error is None else None,
                "constraints": list(problem.hard_logic_nl),
            },
            "finish": record.finish,
            "truncated": record.truncated,
            "steps": record.steps,
            "tool_calls": record.tool_calls,
            "tokens": record.usage,
            "seconds": round(time.perf_counter() - started, 4),
            "agent_seconds": round(record.seconds, 4),
            "error": self._redact(error) if error else None,
            "answer": record.answer,
            "trace": record.trace,
            "world": config.world,
            "world_version": vers["world_version"],
            "generator_version": vers["generator_version"],
            "scorer_version": vers["scorer_version"],
            "scoring_profile": config.scoring,
            "salt": config.salt,
            "content_hash": row_hash(config, problem, epoch),
            "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        if config.queries:
            row["uid"] = problem.extra.get("uid")
        if chinatravel is not None:
            row["chinatravel"] = chinatravel
        return row


_PROCESS_STATE: dict[str, Any] = {}


def run_job(config_json: str, task_id: int, epoch: int, api_key: str | None = None) -> dict[str, Any]:
    """Run one (task, epoch) synchronously in this process and return its row.

    The body of Ray tasks and of local worker processes: the :class:`EpisodeRunner` (generator,
    world, scorer, agent) and an event loop are built once per process and configuration.
    """
    import asyncio

    state = _PROCESS_STATE.get(config_json)
    if state is None:
        config = EvalConfig.model_validate_json(config_json)
        runner = EpisodeRunner(config, agent=build_agent(config.agent, api_key=api_key))
        state = {"runner": runner, "loop": asyncio.new_event_loop()}
        _PROCESS_STATE.clear()
        _PROCESS_STATE[config_json] = state
    row: dict[str, Any] = state["loop"].run_until_complete(state["runner"].run(task_id, epoch))
    return row

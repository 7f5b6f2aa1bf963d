"""navworld as a verifiers (v1, ``verifiers>=0.4``) environment (``pip install 'navworld[verifiers]'``).

verifiers finds plugins by module name; the installed top-level module ``navworld_travel``
exports this module's taskset and harness, so its own CLI runs navworld by name::

    vf-eval navworld-travel --model navworld-reference --client.base-url http://127.0.0.1:8000/v1 \\
        --client.api-key-var NAVWORLD_API_KEY --env.agent.runtime.type subprocess \\
        --env.taskset.tasks 0:7 --env.taskset.salt S --push false

(``--env.agent.runtime.type subprocess``: the harness needs no sandbox; verifiers' default runtime
is a hosted one.)

* :class:`NavworldTaskset` — one :class:`NavworldTask` per task id (``tasks``, ``salt``,
  ``lang``, ``scoring`` are its config); the task's reward is navworld's final score / 100,
  its metrics the score (``navworld_total``, 0–100), the mean step reward and the tool-call count.
* :class:`NavworldHarness` — the agent loop, in-process: every model call goes through
  verifiers' interception endpoint (so verifiers records the trace), every tool call through a
  navworld episode (:meth:`navworld.Actor.step`: budgets, step rewards, the final phase after
  15 steps). The step rewards land in the rollout (``trace.info["navworld"]`` and the state).
* :func:`load_environment` — the same environment built in Python:
  ``load_environment(tasks="0:7", salt=…, lang=…, scoring=…)``.
"""

from __future__ import annotations

from typing import Any

import verifiers.v1 as vf
from pydantic import Field
from verifiers.v1.runtimes import ProgramResult

from navworld.core.seeding import current_salt
from navworld.integrations.common import DEFAULT_TASKS, make_actor, task_list

__all__ = [
    "NavworldData",
    "NavworldHarness",
    "NavworldHarnessConfig",
    "NavworldState",
    "NavworldTask",
    "NavworldTaskset",
    "NavworldTasksetConfig",
    "load_environment",
]

TASKSET_ID = "navworld-travel"
MAX_TURNS = 40
"""Model calls per rollout at most (15 tool steps, the final phase and refusals fit well inside)."""


class NavworldData(vf.TaskData):
    """One navworld task: its id, prompt language, the world's salt and the scoring profile."""

    task_id: int
    lang: str = "zh"
    salt: str
    scoring: str | None = None


class NavworldState(vf.State):
    """What the harness leaves for the rewards: the episode's score and step rewards."""

    score: float | None = None
    step_rewards: list[float] = Field(default_factory=list)
    tool_calls: int = 0


class NavworldTask(vf.Task[NavworldData, NavworldState]):
    """A navworld episode; rewarded with navworld's final score / 100."""

    @staticmethod
    def _result(trace: vf.Trace) -> dict[str, Any]:
        return dict(trace.info.get("navworld") or {})

    @vf.reward
    async def navworld_score(self, trace: vf.Trace) -> float:
        """navworld's final score of the episode / 100 (0 when it ended without one)."""
        score = self._result(trace).get("score")
        return float(score) / 100.0 if isinstance(score, int | float) else 0.0

    @vf.metric
    async def navworld_total(self, trace: vf.Trace) -> float:
        """navworld's final score (0–100)."""
        value = self._result(trace).get("score")
        return float(value) if isinstance(value, int | float) else 0.0

    @vf.metric
    async def step_reward_mean(self, trace: vf.Trace) -> float:
        """The mean of the episode's step rewards (tool turns)."""
        rewards = self._result(trace).get("step_rewards") or []
        return float(sum(rewards) / len(rewards)) if rewards else 0.0

    @vf.metric
    async def tool_calls(self, trace: vf.Trace) -> float:
        """Tool calls the episode ran."""
        return float(self._result(trace).get("tool_calls") or 0)


class NavworldTasksetConfig(vf.TasksetConfig):
    """The taskset's options (``--env.taskset.<name>``)."""

    tasks: str = DEFAULT_TASKS
    salt: str | None = None
    lang: str = "zh"
    scoring: str | None = None


class NavworldTaskset(vf.Taskset[NavworldTask, NavworldTasksetConfig]):
    """One task per navworld task id, prompts generated on the configured salt."""

    def load(self) -> list[NavworldTask]:
        """The tasks of ``config.tasks``."""
        cfg = self.config
        salt = str(current_salt(cfg.salt))
        actor = make_actor(salt=salt, lang=cfg.lang)
        tasks = []
        for n, task_id in enumerate(task_list(cfg.tasks)):
            problem = actor.problem(task_id, cfg.lang)
            data = NavworldData(idx=n, id=f"T{task_id}", name=f"navworld T{task_id}", prompt=problem.prompt,
                                system_prompt=problem.system_prompt, task_id=task_id, lang=problem.lang, salt=salt,
                                scoring=cfg.scoring)
            tasks.append(NavworldTask(data, cfg.task))
        return tasks


class NavworldHarnessConfig(vf.HarnessConfig):
    """The harness's options (``--env.agent.harness.<name>``)."""

    max_turns: int = MAX_TURNS


class NavworldHarness(vf.Harness[NavworldHarnessConfig]):
    """navworld's agent loop run in-process: model through the interception endpoint, tools through navworld."""

    APPENDS_SYSTEM_PROMPT = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    def __init__(self, config: NavworldHarnessConfig) -> None:
        super().__init__(config)
        self._actors: dict[tuple[str, str | None], Any] = {}

    def _actor(self, data: NavworldData) -> Any:
        key = (data.salt, data.scoring)
        if key not in self._actors:
            self._actors[key] = make_actor(salt=data.salt, lang=data.lang, scoring=data.scoring)
        return self._actors[key]

    async def launch(self, ctx: Any, trace: vf.Trace, runtime: Any, endpoint: str, secret: str,
                     mcp_urls: dict[str, str], data: Any, **kwargs: Any) -> ProgramResult:
        """Play one episode; the trace records the model calls, ``trace.info["navworld"]`` the outcome."""
        from openai import AsyncOpenAI

        task = data if isinstance(data, NavworldData) else NavworldData.model_validate(data.model_dump())
        actor = self._actor(task)
        opened = await actor.reset(task.task_id, lang=task.lang)
        episode_id, messages, tools = opened["episode_id"], list(opened["observation"]), opened["info"]["tools"]
        client = AsyncOpenAI(base_url=endpoint, api_key=secret or "unused", max_retries=0)
        result: dict[str, Any] = {"task_id": task.task_id, "episode_id": episode_id, "step_rewards": [],
                                  "tool_calls": 0, "score": None}
        try:
            tools_on = True
            for _ in range(max(1, self.config.max_turns)):
                request: dict[str, Any] = {"model": ctx.model, "messages": messages}
                if tools_on:
                    request["tools"] = tools
                reply = (await client.chat.completions.create(**request)).choices[0].message
                calls = [c.model_dump() for c in reply.tool_calls or []] if tools_on else []
                turn: dict[str, Any] = {"role": "assistant", "content": reply.content}
                if calls:
                    turn["tool_calls"] = calls
                messages.append(turn)
                step = await actor.step(reply.content, episode_id, tool_calls=calls or None)
                messages.extend(step["observation"])
                info = step["info"]
                if calls and not step["done"]:
                    result["step_rewards"].append(float(step["reward"]))
                    result["tool_calls"] += len(calls)
                    tools_on = bool(info.get("tools_enabled", True))
                if step["done"]:
                    result.update(score=info.get("score"), model_failure=info.get("model_failure"),
                                  error=info.get("error"))
                    break
            else:
                actor.close_episode(episode_id)
                result["error"] = f"no final answer in {self.config.max_turns} model calls"
        finally:
            await client.close()
        trace.info["navworld"] = result
        state = trace.state
        if isinstance(state, NavworldState):
            state.score = result["score"]
            state.step_rewards = list(result["step_rewards"])
            state.tool_calls = int(result["tool_calls"])
        return ProgramResult(exit_code=0, stdout="", stderr="")


def load_environment(tasks: str = DEFAULT_TASKS, salt: str | None = None, lang: str = "zh",
                     scoring: str | None = None, **kwargs: Any) -> vf.Env:
    """The navworld environment (taskset + in-process harness) for ``tasks``.

    ``kwargs`` are further taskset options of verifiers' ``TasksetConfig``.
    """
    taskset = {"id": TASKSET_ID, "tasks": tasks, "salt": None if salt is None else str(salt), "lang": lang,
               "scoring": scoring, **kwargs}
    agent = {"harness": {"id": TASKSET_ID}, "runtime": {"type": "subprocess"}}  # the harness runs in-process
    config = vf.resolve_env_config({"taskset": taskset, "agent": agent})
    return vf.load_environment(config)

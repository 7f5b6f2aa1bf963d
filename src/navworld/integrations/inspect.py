"""navworld as an inspect_ai task (``pip install 'navworld[inspect]'``), registered through
inspect's entry point, so::

    inspect eval navworld/travel --model openai/<model> -T tasks=0:70 [-T salt=S] [-T lang=en]

* one sample per task (input = the system and user prompts, ``id`` = the task id);
* the solver :func:`navworld_agent` is navworld's agent loop inside inspect: the six tools are
  in-process tool definitions (no subprocess per call) with the episode's budgets, at most 15
  tool steps, then the final-answer prompt with tools off;
* the scorer :func:`navworld_score` scores the transcript with navworld's scorer: the sample's
  value has ``score`` (0–100) and the plan metrics (``delivered``, ``env_pass``, ``logic_pass``,
  ``final_pass``), whose means over the run are DR and the pass rates; the metadata holds the safe
  score breakdown and the plan verification, so inspect's log viewer shows them.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
)
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.tool import Tool, ToolDef, ToolParams

from navworld.agents.messages import MAX_TOOL_STEPS, final_answer_prompt
from navworld.core.seeding import current_salt
from navworld.integrations.common import make_actor, task_list
from navworld.runner.metrics import task_plan_metrics
from navworld.tools.budget import ToolBudget
from navworld.tools.registry import all_tools, call_tool

__all__ = ["navworld_agent", "navworld_score", "openai_trace", "travel"]

PLAN_METRICS = ("delivered", "env_pass", "logic_pass", "final_pass")


def _actor(salt: str | None, lang: str, scoring: str | None) -> Any:
    return make_actor(salt=salt, lang=lang, scoring=scoring)


def navworld_tools(world: Any, default_date: str | None, budget: ToolBudget | None = None) -> list[Tool]:
    """The six tools as inspect tool definitions calling navworld's registry in-process."""
    budget = budget if budget is not None else ToolBudget()
    tools: list[Tool] = []
    for spec in all_tools():

        async def execute(_name: str = spec.name, **arguments: Any) -> str:
            result = await call_tool(_name, arguments, world, budget=budget, default_date=default_date)
            return result.text

        params = ToolParams.model_validate(spec.json_schema())
        tools.append(ToolDef(execute, name=spec.name, description=spec.description, parameters=params).as_tool())
    return tools


@solver
def navworld_agent(salt: str | None = None, lang: str = "zh", scoring: str | None = None) -> Any:
    """navworld's agent loop: tool steps (≤ 15) with in-process tools, then the final answer."""
    actor = _actor(salt, lang, scoring)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        problem = actor.problem(int(state.metadata["task_id"]), state.metadata.get("lang"))
        state.tools = navworld_tools(actor.world, problem.travel_date or None)
        for _ in range(MAX_TOOL_STEPS):
            state = await generate(state, tool_calls="single")
            if state.completed or not state.output.message.tool_calls:
                return state
        state.messages.append(ChatMessageUser(content=final_answer_prompt(problem.lang)))
        state.tools = []
        return await generate(state, tool_calls="none")

    return solve


def openai_trace(messages: list[ChatMessage]) -> list[dict[str, Any]]:
    """An inspect transcript as the OpenAI chat transcript navworld's scorer reads."""
    trace: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, ChatMessageAssistant):
            turn: dict[str, Any] = {"role": "assistant", "content": m.text or None}
            if m.tool_calls:
                turn["tool_calls"] = [
                    {"id": c.id, "type": "function",
                     "function": {"name": c.function, "arguments": json.dumps(c.arguments, ensure_ascii=False)}}
                    for c in m.tool_calls
                ]
            trace.append(turn)
        elif isinstance(m, ChatMessageTool):
            trace.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.text})
        else:
            trace.append({"role": m.role, "content": m.text})
    return trace


@scorer(metrics={"score": [mean()], **{k: [mean()] for k in PLAN_METRICS}})
def navworld_score(salt: str | None = None, lang: str = "zh", scoring: str | None = None) -> Any:
    """navworld's score of the transcript (0–100) and the plan metrics of its JSON plan."""
    actor = _actor(salt, lang, scoring)

    async def score(state: TaskState, target: Target) -> Score:
        problem = actor.problem(int(state.metadata["task_id"]), state.metadata.get("lang"))
        trace = openai_trace(state.messages)
        answer = state.output.completion if state.output else ""
        report = actor.scorer.score(problem, trace, answer)
        verification = getattr(report, "plan_verification", None)
        if verification is not None and hasattr(verification, "to_dict"):
            verification = verification.to_dict()
        metrics = task_plan_metrics(verification if isinstance(verification, dict) else None, len(problem.hard_logic))
        value: dict[str, float] = {"score": float(report.total)}
        value.update({k: float(bool(metrics[k])) for k in PLAN_METRICS})
        return Score(
            value=value,
            answer=answer[-2000:],
            explanation=f"navworld score {report.total:.2f}/100",
            metadata={"navworld": report.to_safe_dict(), "plan_metrics": metrics, "verification": verification},
        )

    return score


@task
def travel(tasks: str = "0:70", salt: str | None = None, lang: str = "zh", scoring: str | None = None) -> Task:
    """Plan trips in China with six tools; scored by navworld (``-T tasks=0:70 -T salt=S -T lang=en``)."""
    resolved = str(current_salt(salt))
    actor = _actor(resolved, lang, scoring)
    samples = []
    for task_id in task_list(tasks):
        problem = actor.problem(task_id, lang)
        samples.append(Sample(
            id=task_id,
            input=[ChatMessageSystem(content=problem.system_prompt), ChatMessageUser(content=problem.prompt)],
            metadata={"task_id": task_id, "lang": problem.lang, "problem_type": problem.problem_type,
                      "difficulty": problem.difficulty, "salt": resolved},
        ))
    return Task(
        dataset=MemoryDataset(samples, name="navworld"),
        solver=navworld_agent(resolved, lang, scoring),
        scorer=navworld_score(resolved, lang, scoring),
    )

"""The documented TRL recipe without TRL: the ``environment_factory`` class, the dataset rows and
the reward function of :mod:`navworld.integrations.trl`, driven exactly as ``GRPOTrainer`` drives
them (one object per generation, ``reset(**row)``, tool calls as method calls, then the reward
function over the objects), against the OpenEnv server in a real subprocess, with the reference
agent as the policy."""

from __future__ import annotations

import inspect
import json
import sys
from typing import Any

import pytest

from navworld.agents.messages import MAX_TOOL_STEPS
from navworld.env.actor import MAX_FORCED_PROMPTS
from navworld.tools.registry import TOOL_NAMES, get_tool

from .support import SALT, ServedProcess, free_port, needs

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), needs("openenv")]


@pytest.fixture(scope="module")
def served() -> Any:
    port = free_port()
    cmd = [sys.executable, "-m", "navworld.integrations.openenv", "--port", str(port), "--salt", SALT]
    with ServedProcess(cmd, port) as proc:
        yield proc


def test_tool_methods_mirror_the_registry() -> None:
    from navworld.integrations.trl import environment_factory

    cls = environment_factory("http://127.0.0.1:1")
    public = [n for n, _ in inspect.getmembers(cls, inspect.isfunction) if not n.startswith("_") and n != "reset"]
    assert sorted(public) == sorted(TOOL_NAMES)
    for name in TOOL_NAMES:
        schema = get_tool(name).json_schema()
        params = inspect.signature(getattr(cls, name)).parameters
        assert [p for p in params if p != "self"] == list(schema["properties"]), name
        required = {p for p, v in params.items() if p != "self" and v.default is inspect.Parameter.empty}
        assert required == set(schema.get("required", [])), name
        doc = inspect.getdoc(getattr(cls, name)) or ""
        assert "Args:" in doc and all(f"{p}:" in doc for p in schema["properties"]), name


def _rollout(env: Any, row: dict[str, Any], policy: Any, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What GRPOTrainer does for one generation: generate, run tool calls as methods, repeat."""
    assert env.reset(**row) is None
    messages = list(row["prompt"])
    completion: list[dict[str, Any]] = []
    for _ in range(60):
        msg = policy.chat.completions.create(model="navworld-reference", messages=messages, tools=tools).choices[0].message
        calls = [c.model_dump() for c in msg.tool_calls or []]
        turn: dict[str, Any] = {"role": "assistant", "content": msg.content}
        if calls:
            turn["tool_calls"] = calls
        completion.append(turn)
        messages.append(turn)
        if not calls:
            return completion
        for c in calls:
            try:
                text = getattr(env, c["function"]["name"])(**json.loads(c["function"]["arguments"]))
            except ValueError as exc:  # TRL feeds a tool's exception back as its result
                text = str(exc)
            result = {"role": "tool", "tool_call_id": c["id"], "content": text}
            completion.append(result)
            messages.append(result)
    raise AssertionError("the rollout did not end")


def test_grpo_style_rollouts_through_openenv(served: Any, eval_rows: dict[int, dict[str, Any]]) -> None:
    from openai import OpenAI

    from navworld.integrations.trl import dataset_rows, environment_factory, final_text, reward_func

    rows = dataset_rows("0:7", salt=SALT)
    assert [r["task_id"] for r in rows] == list(range(7)) and rows[0]["prompt"][1]["role"] == "user"
    # TRL runs one tool call per navworld step, so the reference agent (the policy here) replays its
    # episode only where it makes at most 15 calls; those rollouts must score what navworld eval gives.
    fitting = [r for r in rows if eval_rows[r["task_id"]]["tool_calls"] <= MAX_TOOL_STEPS]
    assert fitting, "no task of the salt fits the step budget"
    factory = environment_factory(served.url)
    from navworld.tools.registry import openai_tools

    policy = OpenAI(base_url=served.url + "/v1", api_key="unused", max_retries=0)
    environments = [factory() for _ in fitting]
    completions = [_rollout(env, row, policy, openai_tools()) for env, row in zip(environments, fitting, strict=True)]
    rewards = reward_func(completions=completions, environments=environments, task_id=[r["task_id"] for r in fitting])
    assert len(rewards) == len(fitting)
    for row, env, reward, completion in zip(fitting, environments, rewards, completions, strict=True):
        assert env.done and reward == pytest.approx(env.score / 100, abs=1e-6)
        assert env.score == eval_rows[row["task_id"]]["score"], row["task_id"]
        assert "```json" in final_text(completion)
        calls = sum(len(m.get("tool_calls", [])) for m in completion)
        assert len(env.step_rewards) == calls  # one navworld step per tool call
    # Submitting again does not re-score; a finished episode refuses tools.
    assert reward_func(completions=completions[:1], environments=environments[:1]) == rewards[:1]
    with pytest.raises(ValueError, match="over"):
        environments[0].weather(city="北京")


def test_calls_past_the_step_budget(served: Any) -> None:
    """A policy that keeps calling tools: 15 steps run, then refusals, then the episode ends unanswered."""
    from navworld.integrations.trl import environment_factory, reward_func

    env = environment_factory(served.url)()
    env.reset(task_id=2)
    texts = []
    with pytest.raises(ValueError, match=r"over|ended|answer"):
        for _ in range(MAX_TOOL_STEPS + MAX_FORCED_PROMPTS + 5):
            texts.append(env.weather(city="北京", date="2025-03-01"))
    assert len(env.step_rewards) == MAX_TOOL_STEPS + MAX_FORCED_PROMPTS + 1
    assert texts[0].startswith("weather") and all(r == 0.0 for r in env.step_rewards[MAX_TOOL_STEPS:])
    assert env.done and env.score is not None
    assert reward_func(completions=["late answer"], environments=[env]) == [pytest.approx(env.score / 100)]

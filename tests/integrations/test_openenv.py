"""OpenEnv: navworld served with OpenEnv's app factory (the documented one-liner, a real
subprocess); OpenEnv's own WebSocket client plays the seven task types, four sessions at a time,
with the reference agent as the policy, and gets the scores of ``navworld eval --agent reference``."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import pytest

from .support import SALT, SEVEN, ServedProcess, free_port, needs

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), needs("openenv")]


@pytest.fixture(scope="module")
def served() -> Any:
    port = free_port()
    cmd = [sys.executable, "-m", "navworld.integrations.openenv", "--port", str(port), "--salt", SALT, "--tasks", "0:7"]
    with ServedProcess(cmd, port) as proc:
        yield proc


async def play(base_url: str, task_id: int, policy: Any) -> dict[str, Any]:
    """One episode over OpenEnv's WebSocket protocol; the policy is the chat-completions endpoint."""
    from navworld.integrations.openenv import NavworldAction, NavworldEnvClient, NavworldObservation

    async with NavworldEnvClient(base_url=base_url, message_timeout_s=120) as env:
        result = await env.reset(task_id=task_id)
        obs = result.observation
        assert isinstance(obs, NavworldObservation) and obs.info["task_id"] == task_id
        messages = list(obs.messages)
        tools = obs.info["tools"]
        rewards: list[float] = []
        episode = (await env.state()).episode_id
        while not result.done:
            reply = await policy.chat.completions.create(model="navworld-reference", messages=messages, tools=tools)
            msg = reply.choices[0].message
            calls = [c.model_dump() for c in msg.tool_calls or []]
            turn: dict[str, Any] = {"role": "assistant", "content": msg.content}
            if calls:
                turn["tool_calls"] = calls
            messages.append(turn)
            result = await env.step(NavworldAction(content=msg.content, tool_calls=calls))
            messages.extend(result.observation.messages)
            rewards.append(float(result.reward or 0.0))
        state = await env.state()
        return {"episode": episode, "info": result.observation.info, "reward": result.reward, "state": state,
                "step_rewards": rewards[:-1]}


async def test_openenv_client_plays_seven_tasks_four_at_a_time(served: Any, eval_scores: dict[int, float]) -> None:
    from openai import AsyncOpenAI

    policy = AsyncOpenAI(base_url=served.url + "/v1", api_key="unused", max_retries=0)
    gate = asyncio.Semaphore(4)

    async def one(task_id: int) -> dict[str, Any]:
        async with gate:
            return await play(served.url, task_id, policy)

    try:
        runs = await asyncio.gather(*(one(t) for t in SEVEN))
    finally:
        await policy.close()
    assert len({r["episode"] for r in runs}) == 7  # one isolated episode per session
    for task_id, run in zip(SEVEN, runs, strict=True):
        assert run["info"]["score"] == eval_scores[task_id], task_id
        assert run["reward"] == pytest.approx(eval_scores[task_id] / 100, abs=1e-6)
        assert run["state"].done and run["state"].task_id == task_id and run["state"].score == eval_scores[task_id]
        assert run["step_rewards"] and all(isinstance(r, float) for r in run["step_rewards"])


async def test_bad_actions_and_isolation(served: Any) -> None:
    from navworld.integrations.openenv import NavworldAction, NavworldEnvClient

    async with NavworldEnvClient(base_url=served.url) as a, NavworldEnvClient(base_url=served.url) as b:
        ra = await a.reset(task_id=1)
        rb = await b.reset(seed=3)  # seed indexes the served task list (0:7)
        assert rb.observation.info["task_id"] == 3 and ra.observation.info["task_id"] == 1
        bad = {"id": "x1", "type": "function", "function": {"name": "teleport", "arguments": "{}"}}
        out = await a.step(NavworldAction(tool_calls=[bad]))
        assert not out.done and "未知工具" in out.observation.messages[0]["content"]
        junk = {"id": "x2", "type": "function", "function": {"name": "weather", "arguments": "{not json"}}
        out = await a.step(NavworldAction(tool_calls=[junk]))
        assert not out.done and out.observation.messages[0]["content"].startswith("错误")
        assert (await a.state()).step_count == 2 and (await b.state()).step_count == 0
        final = await b.step(NavworldAction(content="no plan"))
        assert final.done and final.observation.info["score"] < 20
        after = await b.step(NavworldAction(content="again"))
        assert after.done and "reset" in after.observation.info["error"]
        assert not (await a.state()).done


def test_in_process_sync_api(world: Any) -> None:
    from navworld.env.actor import Actor
    from navworld.integrations.openenv import NavworldAction, NavworldEnvironment

    env = NavworldEnvironment(Actor(world=world, salt=SALT), tasks="5:7")
    obs = env.reset()
    assert obs.info["task_id"] == 5 and obs.messages[-1]["role"] == "user"
    call = {"id": "c1", "type": "function",
            "function": {"name": "weather", "arguments": json.dumps({"city": "北京"}, ensure_ascii=False)}}
    step = env.step(NavworldAction(tool_calls=[call]))
    assert step.messages[0]["role"] == "tool" and step.reward is not None and not step.done
    assert env.state.step_count == 1
    assert env.reset().info["task_id"] == 6  # cycles through the task list
    env.close()

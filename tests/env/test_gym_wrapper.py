"""The Gymnasium-style wrapper: reset(seed=, options=) and the 5-tuple step."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from navworld.agents.fake import ChatRequest, GroundedPlanner, Reply
from navworld.env.actor import Actor
from navworld.env.gym import NavworldEnv
from tests import runtime_support as H


@pytest.fixture
def env() -> Iterator[NavworldEnv]:
    e = NavworldEnv(actor=Actor(salt="test-salt"), task_ids=range(14))
    yield e
    e.close()


def test_reset_and_step_five_tuple(env: NavworldEnv) -> None:
    obs, info = env.reset(options={"task_id": 3})
    assert isinstance(obs, str) and obs == info["messages"][-1]["content"]
    assert info["task_id"] == 3 and info["max_steps"] == 15 and len(info["tools"]) == 6
    dest = env.actor.problem(3).destination_city
    action = {
        "content": None,
        "tool_calls": [
            {
                "id": "a",
                "type": "function",
                "function": {"name": "poi_search", "arguments": json.dumps({"address": "景点", "region": dest})},
            }
        ],
    }
    obs, reward, terminated, truncated, info = env.step(action)
    assert isinstance(obs, str) and obs and 0.0 < reward <= 1.0
    assert (terminated, truncated) == (False, False)
    assert info["messages"][0]["role"] == "tool"
    obs, reward, terminated, truncated, info = env.step("最终方案：" + "第一天参观景点。" * 40)
    assert obs == "" and terminated and not truncated
    assert reward == round(info["score"] / 100, 6)
    assert len(env.actor.store) == 0
    with pytest.raises(RuntimeError):
        env.step("after the end")


def test_seeded_task_choice_is_reproducible(env: NavworldEnv) -> None:
    first = [env.reset(seed=11)[1]["task_id"]] + [env.reset()[1]["task_id"] for _ in range(3)]
    second = [env.reset(seed=11)[1]["task_id"]] + [env.reset()[1]["task_id"] for _ in range(3)]
    assert first == second and all(0 <= t < 14 for t in first)
    assert len(env.actor.store) == 1  # each reset abandons the previous live episode


def test_scripted_policy_plays_a_full_episode(env: NavworldEnv) -> None:
    planner = GroundedPlanner(cities=H.city_list())
    _, info = env.reset(options={"task_id": 5})
    messages = list(info["messages"])
    tools = info["tools"]
    for _ in range(30):
        out = planner(ChatRequest("policy", messages, tools=tools))
        assert isinstance(out, Reply)
        action = {"content": out.content, "tool_calls": [dict(c) for c in out.tool_calls]}
        _, reward, terminated, truncated, info = env.step(action)
        turn = {"role": "assistant", "content": out.content}
        if out.tool_calls:
            turn["tool_calls"] = action["tool_calls"]
        messages += [turn, *info["messages"]]
        if terminated or truncated:
            break
    assert terminated and 0.0 <= reward <= 1.0


def test_spaces_when_gymnasium_is_installed(env: NavworldEnv) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    assert isinstance(env, gymnasium.Env)
    assert env.observation_space.contains("北京三日游 plan, 2025-05-01！")


def test_gymnasium_env_checker_passes(env: NavworldEnv) -> None:
    pytest.importorskip("gymnasium")
    import warnings

    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)

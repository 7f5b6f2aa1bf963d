"""The in-process episode API: ``Actor.reset`` / ``Actor.step`` with step rewards and final scoring."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from navworld.agents.fake import GroundedPlanner
from navworld.agents.messages import MAX_TOOL_STEPS, final_answer_prompt, step_limit_text
from navworld.core.errors import TaskError
from navworld.core.problem import PROBLEM_TYPES
from navworld.env.actor import MAX_FORCED_PROMPTS, Actor
from navworld.env.episodes import EpisodeNotFound, EpisodeStoreFull
from tests import runtime_support as H


def call(name: str, call_id: str, **arguments: Any) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}


async def play(actor: Actor, task_id: int, script: Any) -> dict[str, Any]:
    return await H.drive(actor.reset, actor.step, task_id, script)


async def test_every_problem_type_completes_in_process() -> None:
    actor = Actor(salt="test-salt")
    planner = GroundedPlanner(cities=H.city_list())
    seen_types = set()
    for task_id in range(7):
        episode = await play(actor, task_id, planner)
        info = episode["reset"]["info"]
        seen_types.add(info["problem"]["problem_type"])
        assert info["max_steps"] == MAX_TOOL_STEPS and info["tools"] == actor.tools()
        *tool_steps, final = episode["steps"]
        assert tool_steps, "the planner calls tools before answering"
        for step in tool_steps:
            assert not step["done"] and 0.0 <= step["reward"] <= 1.0
            assert len(step["info"]["rewards"]) == len(step["observation"])
            assert all(m["role"] == "tool" for m in step["observation"])
        assert final["done"] and final["observation"] == []
        assert 0.0 <= final["info"]["score"] <= 100.0
        assert final["reward"] == round(final["info"]["score"] / 100.0, 6)
        assert final["info"]["step_rewards"] == [s["reward"] for s in tool_steps]
        assert len(actor.store) == 0
    assert seen_types == set(PROBLEM_TYPES)


async def test_seed_step_rewards_match_hand_computed_values() -> None:
    actor = Actor(salt="test-salt", scoring="seed")
    opened = await actor.reset(0)
    eid = opened["episode_id"]
    problem = actor.problem(0)
    dest = problem.destination_city
    sel = 1.0 if "poi_search" in problem.required_tools else 0.5

    unknown = await actor.step("", eid, [call("book_hotel", "c1", hotel="x")])
    assert unknown["reward"] == 0.06  # 0.4·0 + 0.3·0.2 + 0.3·0
    assert unknown["observation"][0]["content"].startswith("错误")
    assert unknown["info"]["tool_results"][0]["ok"] is False

    bad = [{"id": "c2", "type": "function", "function": {"name": "poi_search", "arguments": '{"address": '}}]
    malformed = await actor.step("", eid, bad)
    assert malformed["reward"] == round(0.4 * sel, 4)  # arguments 0, usefulness 0

    good = call("poi_search", "c3", address=f"{dest}景点", region=dest)
    first = await actor.step("", eid, [good])
    assert first["info"]["rewards"][0]["arguments"] == 1.0
    assert first["reward"] == round(0.4 * sel + 0.3 * 1.0 + 0.3 * first["info"]["rewards"][0]["usefulness"], 4)

    again = await actor.step("", eid, [dict(good, id="c4")])
    assert again["reward"] == 0.3 and again["info"]["rewards"][0]["redundant"]  # 0.3·arguments only

    mixed = await actor.step("", eid, [call("book_hotel", "c5", a=1), dict(good, id="c6")])
    assert mixed["reward"] == round((0.06 + 0.3) / 2, 4)  # the step reward is the mean of its calls
    done = await actor.step("最终方案" * 60, eid)
    assert done["info"]["step_rewards"] == [0.06, malformed["reward"], first["reward"], 0.3, mixed["reward"]]
    assert len(actor.store) == 0


async def test_tool_calls_after_step_limit_force_the_final_phase() -> None:
    actor = Actor(salt="test-salt")
    eid = (await actor.reset(1))["episode_id"]
    dest = actor.problem(1).destination_city
    for i in range(MAX_TOOL_STEPS):
        result = await actor.step("", eid, [call("poi_search", f"s{i}", address=f"景点{i}", region=dest)])
        assert not result["done"]
    assert result["info"]["final_phase"] and not result["info"]["tools_enabled"]
    assert result["observation"][-1] == {"role": "user", "content": final_answer_prompt(actor.problem(1).lang)}
    episode = actor.store.get(eid)
    executed = episode.tool_calls

    refused = await actor.step("still searching", eid, [call("weather", "late", city=dest)])
    assert refused["reward"] == 0.0 and not refused["done"]
    assert refused["observation"][0] == {"role": "tool", "tool_call_id": "late", "content": step_limit_text(episode.problem.lang)}
    assert refused["observation"][-1]["role"] == "user"
    assert refused["info"]["refused_tool_calls"] == 1
    assert episode.tool_calls == executed and episode.steps == MAX_TOOL_STEPS  # nothing executed

    final = await actor.step("根据工具结果的完整方案。" * 30, eid)
    assert final["done"] and final["info"]["model_failure"] is None
    assert final["info"]["steps"] == MAX_TOOL_STEPS
    assert len(actor.store) == 0


async def test_endless_tool_calls_end_without_an_answer() -> None:
    actor = Actor(salt="test-salt")
    eid = (await actor.reset(2))["episode_id"]
    dest = actor.problem(2).destination_city
    for i in range(MAX_TOOL_STEPS):
        await actor.step("", eid, [call("poi_search", f"s{i}", address=f"景点{i}", region=dest)])
    for i in range(MAX_FORCED_PROMPTS):
        assert not (await actor.step("", eid, [call("weather", f"w{i}", city=dest)]))["done"]
    last = await actor.step("", eid, [call("weather", "w-last", city=dest)])
    assert last["done"] and last["info"]["model_failure"] == "no_final_answer"
    assert last["reward"] == round(last["info"]["score"] / 100, 6)
    assert len(actor.store) == 0


async def test_unknown_and_finished_episodes_raise() -> None:
    actor = Actor(salt="test-salt")
    with pytest.raises(EpisodeNotFound):
        await actor.step("x", "no-such-episode")
    eid = (await actor.reset(3))["episode_id"]
    await actor.step("答案" * 150, eid)
    with pytest.raises(EpisodeNotFound):
        await actor.step("again", eid)
    with pytest.raises(TaskError):
        await actor.reset(-1)


class SpyReport:
    total = 42.0

    def to_dict(self) -> dict[str, Any]:
        return {"total": 42.0, "code_score": {"subtotal": 20.0}}

    def to_safe_dict(self) -> dict[str, Any]:
        return {"total": 42.0, "code_band": "medium"}


class SpyScorer:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, list[dict[str, Any]], str]] = []

    def score(self, problem: Any, trace: list[dict[str, Any]], answer: str) -> SpyReport:
        self.calls.append((problem, [dict(m) for m in trace], answer))
        return SpyReport()


async def test_final_step_scores_the_exact_transcript_safe_and_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    scorer = SpyScorer()
    actor = Actor(salt="test-salt", scorer=scorer)
    opened = await actor.reset(4)
    eid = opened["episode_id"]
    dest = actor.problem(4).destination_city
    tool_step = await actor.step("先查一下", eid, [call("poi_search", "a1", address="景点", region=dest)])
    final = await actor.step("最终答案", eid)
    assert final["info"]["score"] == 42.0 and final["reward"] == 0.42
    assert final["info"]["score_breakdown"] == {"total": 42.0, "code_band": "medium"}
    problem, trace, answer = scorer.calls[-1]
    assert answer == "最终答案" and problem.task_id == 4
    assert trace == [
        *opened["observation"],
        {"role": "assistant", "content": "先查一下", "tool_calls": [call("poi_search", "a1", address="景点", region=dest)]},
        *tool_step["observation"],
        {"role": "assistant", "content": "最终答案"},
    ]
    monkeypatch.setenv("NAVWORLD_DEBUG", "1")
    eid = (await actor.reset(4))["episode_id"]
    final = await actor.step("答案", eid)
    assert final["info"]["score_breakdown"] == SpyReport().to_dict()


async def test_infra_tool_failure_ends_the_episode_unscored() -> None:
    actor = Actor(world=H.FailingWorld(), salt="s")
    eid = (await actor.reset(5))["episode_id"]
    dest = actor.problem(5).destination_city
    result = await actor.step("", eid, [call("poi_search", "x", address="景点", region=dest)])
    assert result["done"] and result["reward"] == 0.0
    assert result["info"]["error"].startswith("tool_infra") and result["info"]["valid_for_scoring"] is False
    assert len(actor.store) == 0


async def test_store_cap_and_concurrent_episodes() -> None:
    actor = Actor(salt="test-salt", max_episodes=2)
    a = await actor.reset(0)
    await actor.reset(1)
    with pytest.raises(EpisodeStoreFull):
        await actor.reset(2)
    await actor.step("答案" * 150, a["episode_id"])
    await actor.reset(2)  # room again
    actor.store.clear()

    wide = Actor(salt="test-salt", max_episodes=64)
    planner = GroundedPlanner(cities=H.city_list())
    results = await asyncio.gather(*(play(wide, t % 7, planner) for t in range(24)))
    assert all(r["steps"][-1]["done"] for r in results)
    assert len({r["reset"]["episode_id"] for r in results}) == 24
    assert len(wide.store) == 0

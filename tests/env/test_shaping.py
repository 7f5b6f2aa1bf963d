"""Potential-based step rewards (scorer s2): what earns progress, what earns exactly nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from navworld import Actor
from navworld.agents.reference import ReferencePlanner
from navworld.core.seeding import rng
from navworld.env.shaping import PotentialTracker
from navworld.world.catalog import resolve_city

SALT = "shaping"
TASKS = list(range(7))  # one task of each problem type


def call(cid: str, name: str, **args: Any) -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}


async def _honest(actor: Actor, task: int) -> list[float]:
    problem = actor.problem(task)
    run = await ReferencePlanner().run(problem, actor.world, salt=SALT)
    steps = [m["tool_calls"] for m in run.trace if m["role"] == "assistant" and m.get("tool_calls")]
    eid = (await actor.reset(task))["episode_id"]
    out = [(await actor.step("", eid, tc))["reward"] for tc in steps]
    await actor.step("答" * 300, eid)
    return out


async def _steps(actor: Actor, task: int, calls: list[dict[str, Any]]) -> list[float]:
    eid = (await actor.reset(task))["episode_id"]
    out = [(await actor.step("", eid, [c]))["reward"] for c in calls]
    await actor.step("答" * 300, eid)
    return out


@pytest.fixture(scope="module")
def episodes() -> dict[int, dict[str, list[float]]]:
    async def run() -> dict[int, dict[str, list[float]]]:
        actor = Actor(salt=SALT)
        out: dict[int, dict[str, list[float]]] = {}
        for task in TASKS:
            problem = actor.problem(task)
            city = resolve_city(problem.destination_city)
            assert city is not None
            spellings = [city.name, city.name + "市", city.adcode, city.name_en]
            spam = [call(f"s{i}", "poi_search", address="景点", region=spellings[i % 4]) for i in range(15)]
            r = rng("junk", task)
            lng, lat = city.center
            junk = [
                call(
                    f"j{i}",
                    "direction",
                    origin=f"{lng + r.uniform(-0.1, 0.1):.5f},{lat + r.uniform(-0.1, 0.1):.5f}",
                    destination=f"{lng + r.uniform(-0.1, 0.1):.5f},{lat + r.uniform(-0.1, 0.1):.5f}",
                )
                for i in range(15)
            ]
            out[task] = {
                "honest": await _honest(actor, task),
                "spam": await _steps(actor, task, spam),
                "junk": await _steps(actor, task, junk),
            }
        return out

    return asyncio.run(run())


def test_spam_and_junk_earn_less_than_the_honest_episode(episodes: dict[int, dict[str, list[float]]]) -> None:
    for task, ep in episodes.items():
        honest = sum(ep["honest"])
        assert honest >= 0.8, task
        assert sum(ep["spam"]) <= honest and sum(ep["junk"]) <= honest, (task, ep)
        assert sum(ep["junk"]) / len(ep["junk"]) <= 0.2, task


def test_repeats_and_respellings_earn_exactly_zero(episodes: dict[int, dict[str, list[float]]]) -> None:
    for task, ep in episodes.items():
        assert ep["spam"][0] > 0, task  # the first search is real progress
        assert all(r == 0.0 for r in ep["spam"][1:]), (task, ep["spam"])
        assert all(r == 0.0 for r in ep["junk"]), (task, ep["junk"])  # random points: no route between places


def test_shaping_sum_is_bounded_by_the_potential(episodes: dict[int, dict[str, list[float]]]) -> None:
    for ep in episodes.values():
        for rewards in ep.values():
            assert all(r >= 0 for r in rewards)
            assert sum(rewards) <= 1.0 + 1e-9


async def test_hand_computed_potential() -> None:
    actor = Actor(salt=SALT)
    problem = actor.problem(1)  # multiday: poi_search, around_search, direction, weather required
    t = PotentialTracker(problem)
    required = set(t.required)
    res = await _tool(actor, "poi_search", {"address": f"{problem.destination_city}景点", "region": problem.destination_city})
    args = json.dumps({"address": f"{problem.destination_city}景点", "region": problem.destination_city})
    r = t.score("poi_search", args, res)
    n_pois = len(t.pois)
    # tools: 1 of the required; needs: destination searched (1 of the applicable needs); info: POIs
    needs = [1.0, 0.0, 0.0]  # destination, weather days, routes (no must-visit on this task)
    if t.must:
        needs.append(len(t.found_must) / len(t.must))
    assert r.selection == round(1 / len(required), 6)
    assert r.arguments == round(sum(needs) / len(needs), 6)
    assert r.usefulness == round(min(1.0, n_pois / 25.0), 6)
    assert r.reward == pytest.approx(0.4 * r.selection + 0.3 * r.arguments + 0.3 * r.usefulness, abs=1e-6)
    again = t.score("poi_search", args, res)
    assert again.reward == 0.0 and again.redundant
    assert t.potential == pytest.approx(r.reward, abs=1e-6)


async def _tool(actor: Actor, name: str, args: dict[str, Any]) -> Any:
    from navworld.tools.registry import call_tool

    return await call_tool(name, args, actor.world, default_date=None)


async def test_a_repeated_call_id_is_an_error_result_and_not_run() -> None:
    actor = Actor(salt=SALT)
    eid = (await actor.reset(3))["episode_id"]
    dest = actor.problem(3).destination_city
    first = await actor.step("", eid, [call("same", "poi_search", address=f"{dest}景点", region=dest)])
    assert not first["observation"][0]["content"].startswith("错误")
    again = await actor.step("", eid, [call("same", "weather", city=dest)])
    assert again["observation"][0]["content"].startswith("错误") and "tool_call_id" in again["observation"][0]["content"]
    assert again["reward"] == 0.0
    await actor.step("答" * 300, eid)

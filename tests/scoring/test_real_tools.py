"""Acceptance on real tool output: generated tasks, traces from the six tools on the sandbox world,
and answers written from what the tools returned (skipped while those packages are unavailable)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from navworld.scoring.facts import ToolFacts, extract_tool_facts
from navworld.scoring.scorer import TravelScorer
from navworld.scoring.trace import read_trace

from .cases import prices_off

pytest.importorskip("navworld.tools.registry")
pytest.importorskip("navworld.tasks.generator")

from navworld.tasks.generator import ProblemGenerator
from navworld.tools.registry import call_tool
from navworld.world.sandbox import SandboxWorld

SALT = "scoring-real"
TASKS = list(range(14))  # two tasks of each of the seven types


async def _trace(problem: Any, world: Any) -> list[dict[str, Any]]:
    city, date = problem.destination_city, problem.travel_date
    plan: list[tuple[str, dict[str, Any]]] = [
        ("poi_search", {"address": "景点", "region": city}),
        ("poi_search", {"address": "酒店", "region": city}),
        ("weather", {"city": city, "date": date}),
    ]
    for tool in ("search_flights", "search_train_tickets"):
        if tool in problem.required_tools:
            plan.append((tool, {"date": date, "from_city": problem.origin_city, "to_city": city}))
    msgs: list[dict[str, Any]] = [{"role": "user", "content": problem.prompt}]
    locs: list[str] = []

    async def run(name: str, args: dict[str, Any]) -> None:
        cid = f"call_{len(msgs)}"
        res = await call_tool(name, args, world)
        msgs.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": cid,
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
                    }
                ],
            }
        )
        msgs.append({"role": "tool", "tool_call_id": cid, "content": res.text})
        if res.data and res.data.get("pois"):
            locs.extend(p["location"] for p in res.data["pois"][:3])

    for name, args in plan:
        await run(name, args)
    await run("around_search", {"location": locs[0], "radius": 3000, "keyword": "餐厅"})
    await run("direction", {"origin": locs[0], "destination": locs[1], "mode": "driving"})
    await run("direction", {"origin": locs[1], "destination": locs[2], "mode": "transit"})
    while sum(1 for m in msgs if m["role"] == "tool") < 10:
        await run("poi_search", {"address": ["博物馆", "公园", "美食"][len(msgs) % 3], "region": city})
    return msgs


def _answer(problem: Any, tf: ToolFacts) -> str:
    kinds: dict[str, list[Any]] = {}
    for e in tf.pois.values():
        kinds.setdefault(e.kind, []).append(e)
    sights, food, hotels = kinds.get("attraction", []), kinds.get("restaurant", []), kinds.get("hotel", [])
    out = [
        f"# {problem.destination_city}{problem.num_days}日行程方案",
        "根据您的需求，以下安排全部基于工具查询结果，兼顾亲子体验与学习、美食推荐、游览路线和商务出行。",
    ]
    budget: list[str] = []
    for t in list(tf.transports.values())[:2]:
        word = "航班" if t.mode == "flight" else "高铁"
        out.append(f"- 推荐{word} {t.id}：{t.dep}出发，{t.arr}到达，票价{t.prices[0]:g}元。")
        budget.append(f"{t.id}票价{t.prices[0]:g}元")
    for d in range(1, max(1, problem.num_days) + 1):
        out.append(f"## 第{d}天")
        for s in sights[(d - 1) * 2 : d * 2]:
            out.append(f"- 09:00 游览{s.name}，门票{s.cost:g}元，开放时间{s.opentime}，景点值得参观。")
            budget.append(f"{s.name}门票{s.cost:g}元")
        if food:
            r = food[(d - 1) % len(food)]
            out.append(f"- 12:00 午餐推荐{r.name}，人均{r.cost:g}元，特色菜品尝。")
            budget.append(f"{r.name}人均{r.cost:g}元")
        if hotels:
            h = hotels[0]
            out.append(f"- 住宿：入住{h.name}，每晚{h.cost:g}元，交通方便。")
    dists = sorted(tf.distances)[-2:]
    durs = sorted(tf.durations)[:2]
    taxi = sorted(tf.prices.get("taxi", {0.0}))[0]
    out.append(
        f"## 交通\n市内交通：全程约{dists[-1] / 1000:.1f}公里，用时{durs[0]}分钟，打车约{taxi:g}元，建议地铁出行。"
    )
    temps = sorted(tf.temps)
    out.append(
        f"## 天气\n天气预报：{'、'.join(sorted(tf.conditions))}，气温{temps[0]}-{temps[-1]}℃，{'、'.join(sorted(tf.wind))}，注意带伞。"
    )
    out.append("## 预算\n费用明细：" + "；".join(budget) + "。以上价格以实际为准。")
    return "\n".join(out)


def _fabricate_ids(answer: str, tf: ToolFacts) -> str:
    for tid in tf.transports:
        fake = tid[:-2] + str((int(tid[-2]) + 3) % 10) + str((int(tid[-1]) + 5) % 10)
        answer = re.sub(rf"(?<![A-Z0-9]){tid}(?![0-9])", fake, answer)
    return answer


@pytest.fixture(scope="module")
def cases() -> list[tuple[Any, list[dict[str, Any]], str, ToolFacts]]:
    world = SandboxWorld(SALT)
    gen = ProblemGenerator(world=world)
    out = []
    for task_id in TASKS:
        problem = gen.generate(task_id)
        trace = asyncio.run(_trace(problem, world))
        tf = extract_tool_facts(read_trace(trace))
        out.append((problem, trace, _answer(problem, tf), tf))
    return out


def test_real_tool_output_is_read(cases: list[Any]) -> None:
    for problem, _trace, _answer_text, tf in cases:
        assert (
            tf.pois and tf.conditions and tf.temps and tf.wind and tf.distances and tf.durations and tf.roads
        )
        if problem.origin_city:
            assert tf.transports, problem.task_id
            assert all(t.dep and t.arr and t.prices for t in tf.transports.values())


def test_grounded_answers_beat_their_variants(cases: list[Any]) -> None:
    # the seed profile: these template answers carry no JSON plan (s2 would floor every one of them)
    scorer = TravelScorer(salt=SALT, verify_plans=False, profile="seed")
    for problem, trace, answer, tf in cases:
        good = scorer.score(problem, trace, answer)
        assert all(good.hard_constraints.values()), (
            problem.task_id,
            good.constraints["failed"],
            good.constraints["details"],
        )
        assert good.total >= 30.0, (problem.task_id, good.to_dict()["code_score"])
        variants = {
            "prices_off": scorer.score(problem, trace, prices_off(answer)),
            "no_tools": scorer.score(problem, trace[:1], answer),
            "empty": scorer.score(problem, trace, ""),
        }
        if tf.transports:
            variants["fabricated_ids"] = scorer.score(problem, trace, _fabricate_ids(answer, tf))
            assert not variants["fabricated_ids"].hard_constraints["transport_grounded"]
        for name, bad in variants.items():
            assert good.total - bad.total >= 10.0, (
                problem.task_id,
                problem.problem_type,
                name,
                good.total,
                bad.total,
            )

"""Unit tests of the planner's parts: oracle translation, tool-text reading, schedule, answer."""

from __future__ import annotations

import json
from typing import Any

from navworld.agents.reference import ReferencePlanner
from navworld.agents.reference.brief import read_brief
from navworld.agents.reference.calls import schedule
from navworld.agents.reference.planner import TripPlanner
from navworld.agents.reference.pools import base_name, visible_blocks
from navworld.agents.reference.toolfacts import parse_direction, parse_weather, split_minutes
from navworld.core.plan import to_minutes
from navworld.runner.agents import ReferenceAgentAdapter, RunRecord
from navworld.tools.budget import DEFAULT_LIMITS
from navworld.verify.check_pois import MEAL_WINDOWS


def _find(problem_of: Any, pred: Any, limit: int = 400) -> Any:
    for tid in range(limit):
        p = problem_of(tid)
        if pred(p):
            return p
    raise AssertionError("no such task")


def test_brief_reads_structured_facts(problem_of: Any) -> None:
    p = _find(problem_of, lambda p: p.extra.get("must_visit") and p.extra.get("arrival_before") is None)
    b = read_brief(p)
    assert b.must_visit == tuple(p.extra["must_visit"]) and b.dest == p.destination_city
    assert len(b.dates) == p.num_days and b.dates[0] == p.travel_date
    q = _find(problem_of, lambda p: p.origin_city and p.extra.get("arrival_before"))
    bq = read_brief(q)
    assert bq.arrival_before == to_minutes(q.extra["arrival_before"]) and bq.has_origin
    assert set(bq.transport_tools) <= {"search_flights", "search_train_tickets"}
    assert bq.preferences, "preference objectives are read from the DSL programs"


def test_split_minutes_and_direction_text() -> None:
    assert split_minutes("1小时5分钟") == 65 and split_minutes("25分钟") == 25 and split_minutes("x") is None
    text = "\n".join([
        "direction：公交，起点 121.400000,31.200000，终点 121.500000,31.250000",
        "distance: 14.6公里", "duration: 1小时0分钟", "taxi_cost: 45元", "lines: 地铁7号线、地铁1号线", "cost: 4元",
        "## 步骤", "1. 步行「淮海中路」向东北 389米", "2. 乘坐「地铁7号线」从「漕溪北路站」到「肇嘉浜路站」，7站，9.6公里",
    ])
    rf = parse_direction(text)
    assert (rf.distance, rf.minutes, rf.taxi_cost, rf.fare) == ("14.6公里", 60, "45元", "4元")
    assert rf.lines == ["地铁7号线", "地铁1号线"] and rf.roads == ["淮海中路"]


def test_weather_text() -> None:
    text = "weather：杭州市\n## 2025-03-01 星期六\ndayweather: 晴\nnightweather: 多云\ndaytemp: 18℃\nnighttemp: 8℃\ndaywind: 东北风\ndaypower: 1-3级"
    (day,) = parse_weather(text)
    assert (day.date, day.day, day.night, day.high, day.low, day.wind, day.power) == (
        "2025-03-01", "晴", "多云", "18℃", "8℃", "东北风", "1-3级")


def test_visible_blocks_skip_a_cut_block() -> None:
    text = "poi_search：x\n## 1\nname: A\nopentime: 09:00-17:00\n## 2\nname: B\ntype: y\n…（结果已截断，原文共 4000 字符）"
    assert list(visible_blocks(text)) == ["A"]
    assert base_name("汉庭酒店(西湖店)") == "汉庭酒店" and base_name("西湖") == "西湖"


async def test_schedule_respects_budgets_and_numbers_ids(world: Any, problem_of: Any) -> None:
    for tid in (2, 9, 57):
        outcome = await TripPlanner(problem_of(tid), world).plan()
        steps = schedule(outcome)
        calls = [c for step in steps for c in step]
        assert [c.id for c in calls] == [f"call_{i}" for i in range(len(calls))]
        for name, limit in DEFAULT_LIMITS.items():
            assert limit is None or sum(1 for c in calls if c.name == name) <= limit
        assert {"weather", "poi_search", "direction"} <= {c.name for c in calls}


async def test_plan_keeps_meal_windows_and_hours(world: Any, problem_of: Any) -> None:
    run = await ReferencePlanner().run(problem_of(1), world)
    plan = json.loads(run.answer.rsplit("```json", 1)[1].split("```", 1)[0])
    for day in plan["itinerary"]:
        meals = [a for a in day["activities"] if a["type"] in MEAL_WINDOWS]
        assert len({a["type"] for a in meals}) == len(meals)
        for a in meals:
            lo, hi = MEAL_WINDOWS[a["type"]]
            assert to_minutes(lo) <= to_minutes(a["start_time"]) <= to_minutes(hi)
            poi = world.find_poi(plan["target_city"], a["position"])
            assert poi is not None and poi.kind == "restaurant"


async def test_answer_is_in_the_problem_language(world: Any, problem_of: Any) -> None:
    zh = await ReferencePlanner().run(problem_of(4, "zh"), world)
    en = await ReferencePlanner().run(problem_of(4, "en"), world)
    assert "每日行程" in zh.answer and "Day-by-day itinerary" in en.answer
    assert zh.answer.count("```json") == 1 and en.answer.count("```json") == 1


async def test_runner_adapter_uses_the_planner(world: Any, problem_of: Any) -> None:
    adapter = ReferenceAgentAdapter()
    record = RunRecord.coerce(await adapter.run(problem_of(3), world, salt="reference-tests"))
    assert record.error is None and record.answer and record.tool_calls > 0
    assert record.trace[0]["role"] == "system" and record.trace[-1]["role"] == "assistant"
    assert record.usage.get("total_tokens", 0) == 0


async def test_unsupported_world_is_an_error_not_a_crash(problem_of: Any) -> None:
    run = await ReferencePlanner().run(problem_of(0), object())
    assert run.error and "sandbox" in run.error and run.answer == ""

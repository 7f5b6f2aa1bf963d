"""Step rewards match hand-computed values (seed §1.3: 0.4·selection + 0.3·arguments + 0.3·usefulness)."""

from __future__ import annotations

import json

import pytest

from navworld.core.models import ToolResult
from navworld.core.problem import Problem
from navworld.env.rewards import CallReward, RewardTracker, mean_reward


def problem() -> Problem:
    return Problem(
        task_id=0,
        problem_type="intercity",
        origin_city="上海",
        destination_city="杭州",
        travel_date="2025-05-01",
        num_days=3,
        required_tools=["search_train_tickets", "poi_search", "weather"],
        prompt="p",
    )


def ok(data: dict, text: str = "结果") -> ToolResult:
    return ToolResult(ok=True, text=text, data=data)


def err(text: str = "错误：参数不合法") -> ToolResult:
    return ToolResult(ok=False, text=text, error=text)


def pois(n: int) -> dict:
    return {"pois": [{"name": f"p{i}"} for i in range(n)]}


def args(**kw: object) -> str:
    return json.dumps(kw, ensure_ascii=False)


def parts(r: CallReward) -> tuple[float, float, float, float]:
    return (r.selection, r.arguments, r.usefulness, r.reward)


def test_hand_computed_sequence() -> None:
    t = RewardTracker(problem())
    # 1. required tool, first use, right city, ≥3 results: 0.4 + 0.3 + 0.3
    assert parts(t.score("poi_search", args(address="西湖", region="杭州"), ok(pois(5)))) == (1.0, 1.0, 1.0, 1.0)
    # 2. the identical call again is redundant: selection 0, usefulness 0 → 0.3·1.0
    r = t.score("poi_search", args(region="杭州 ", address="西湖"), ok(pois(5)))
    assert r.redundant and parts(r) == (0.0, 1.0, 0.0, 0.3)
    # 3. same tool, new arguments, 2 results: 0.4·0.8 + 0.3·1.0 + 0.3·0.8 = 0.86
    assert parts(t.score("poi_search", args(address="灵隐寺", region="杭州市"), ok(pois(2)))) == (0.8, 1.0, 0.8, 0.86)
    # 4. a tool the problem does not require, well-formed coordinates, 1 result: 0.2 + 0.3 + 0.18
    assert parts(t.score("around_search", args(location="120.15,30.27", keyword="餐厅"), ok(pois(1)))) == (
        0.5,
        1.0,
        0.6,
        0.68,
    )
    # 5. transport tool on a transport problem counts as relevant; all four argument checks pass
    flights = args(date="2025-05-01", from_city="上海", to_city="杭州")
    assert parts(t.score("search_flights", flights, ok({"flights": [{}, {}, {}]}))) == (1.0, 1.0, 1.0, 1.0)
    # 6. wrong origin and a date outside the trip: checks from ✗, to ✓, date ✗, pair ✗ → 0.25
    trains = args(date="2025-06-01", from_city="北京", to_city="杭州")
    assert parts(t.score("search_train_tickets", trains, ok({"trains": [{}, {}, {}]}))) == (1.0, 0.25, 1.0, 0.775)


def test_error_results_score_low() -> None:
    t = RewardTracker(problem())
    # Malformed JSON: arguments 0, usefulness 0; only selection counts → 0.4
    assert parts(t.score("weather", '{"city": ', err("错误：参数不是合法的 JSON"))) == (1.0, 0.0, 0.0, 0.4)
    # Unknown tool: selection 0, parsed-but-rejected arguments 0.2 → 0.06
    assert parts(t.score("book_hotel", args(hotel="x"), err("错误：未知工具"))) == (0.0, 0.2, 0.0, 0.06)
    # A rejected call of an optional tool: 0.4·0.5 + 0.3·0.2 = 0.26
    assert parts(t.score("direction", args(origin="x", destination="y"), err())) == (0.5, 0.2, 0.0, 0.26)
    # The failed weather call did not "use up" the first-use bonus: a good call still gets 1.0
    forecast = {"forecasts": [{"casts": [{}, {}, {}, {}]}]}
    assert parts(t.score("weather", args(city="杭州", date="2025-05-02"), ok(forecast))) == (1.0, 1.0, 1.0, 1.0)
    # An arguments string that is JSON but not an object counts as malformed
    assert t.score("poi_search", "[1, 2]", err()).arguments == 0.0
    # Not executed (e.g. over the per-turn cap): everything 0
    assert parts(t.score("poi_search", args(address="a"), None)) == (0.0, 0.0, 0.0, 0.0)


def test_usefulness_levels() -> None:
    t = RewardTracker(problem())
    assert t.score("poi_search", args(address="a", region="杭州"), ok(pois(0))).usefulness == 0.2
    assert t.score("direction", args(origin="120.1,30.2", destination="120.2,30.3"), ok({"route": {"paths": [{}]}})).usefulness == 1.0
    assert t.score("poi_search", args(address="b", region="杭州"), ok({}, "x" * 250)).usefulness == 0.8
    assert t.score("poi_search", args(address="c", region="杭州"), ok({}, "x" * 50)).usefulness == 0.5
    assert t.score("poi_search", args(address="d", region="杭州"), ok({}, "x")).usefulness == 0.2


@pytest.mark.parametrize(
    ("location", "expected"),
    [("120.15,30.27", 1.0), ("30.27,120.15", 0.0), ("120.15", 0.0), ("-74.0,40.7", 0.0), ("116.4, 39.9", 1.0)],
)
def test_coordinate_checks(location: str, expected: float) -> None:
    t = RewardTracker(problem())
    assert t.score("around_search", args(location=location), ok(pois(3))).arguments == expected


def test_city_and_date_checks() -> None:
    t = RewardTracker(problem())
    # region ✗ (北京 is not in this problem) → 0/1 → arguments 0
    assert t.score("poi_search", args(address="故宫", region="北京"), ok(pois(3))).arguments == 0.0
    # non-transport problem: city ✓ and the date must fall in the trip window (day before .. start + days)
    p = problem().model_copy(update={"problem_type": "multiday", "origin_city": "", "required_tools": ["weather"]})
    t2 = RewardTracker(p)
    assert t2.score("weather", args(city="杭州", date="2025-04-30"), ok(pois(1))).arguments == 1.0
    assert t2.score("weather", args(city="杭州", date="2025-05-05"), ok(pois(1))).arguments == 0.5
    assert t2.score("weather", args(city="杭州", date="5月1日"), ok(pois(1))).arguments == 0.5
    assert t2.score("weather", args(city="南京", date="2025-04-29"), ok(pois(1))).arguments == 0.0


def test_mean_reward() -> None:
    rs = [CallReward("a", 1, 1, 1, 1.0), CallReward("b", 0, 0.2, 0, 0.06)]
    assert mean_reward(rs) == 0.53
    assert mean_reward([]) == 0.0

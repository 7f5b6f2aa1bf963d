"""Off-topic tool calls (tools called for another city) never ground an answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from navworld.scoring import TravelScorer
from navworld.scoring import config as C
from navworld.scoring.facts import extract_tool_facts
from navworld.scoring.topic import is_off_topic, topic_cities
from navworld.scoring.trace import read_trace

from . import tool_texts as T
from .cases import CASES

SHANGHAI = "121.473700,31.230400"


def _retarget(trace: list[dict[str, Any]], city: str = "上海") -> list[dict[str, Any]]:
    """The same trace with every city argument pointing at ``city`` (results unchanged)."""
    out = json.loads(json.dumps(trace, ensure_ascii=False))
    for msg in out:
        for tc in msg.get("tool_calls") or []:
            fn = tc["function"]
            args = json.loads(fn["arguments"])
            for key in ("region", "city", "to_city"):
                if key in args:
                    args[key] = city
            for key in ("origin", "destination", "location"):
                if key in args:
                    args[key] = SHANGHAI
            fn["arguments"] = json.dumps(args, ensure_ascii=False)
    return out


@pytest.mark.parametrize("ptype", sorted(CASES))
def test_off_topic_calls_do_not_ground_the_answer(ptype: str) -> None:
    case = CASES[ptype]
    scorer = TravelScorer(salt="t", verify_plans=False)
    on = scorer.score(case.problem, case.trace, case.answer)
    off = scorer.score(case.problem, _retarget(case.trace), case.answer)
    assert on.total > 20
    assert off.total <= 0.35 * on.total, (on.total, off.total)
    assert off.code_score.info_consistency == 0
    assert off.constraints["off_topic_calls"]
    assert not on.constraints["off_topic_calls"]


def test_extra_off_topic_calls_add_nothing() -> None:
    case = CASES["multiday"]
    trace = case.trace
    extra = _retarget(T.build_trace([("weather", T.WEATHER.replace("晴", "暴雨"))]))[2:]
    extra[0]["tool_calls"][0]["id"] = extra[1]["tool_call_id"] = "call_extra"
    scorer = TravelScorer(salt="t", verify_plans=False)
    base = scorer.score(case.problem, trace, case.answer)
    more = scorer.score(case.problem, trace + extra, case.answer)
    assert more.code_score.ic_categories == base.code_score.ic_categories
    assert more.constraints["off_topic_calls"] == ["weather(上海)"]


def test_off_topic_calls_do_not_count_as_called() -> None:
    topic = topic_cities("北京", "杭州")
    tf = extract_tool_facts(read_trace(_retarget(T.build_trace([("weather", T.WEATHER), ("poi_search", T.POI_WEST_LAKE)]))), topic)
    assert not tf.called and tf.off_topic_called == {"weather", "poi_search"}
    assert not tf.pois and not tf.conditions and tf.n_ok == 0
    # without a topic (no problem cities) the rule is off
    assert extract_tool_facts(read_trace(_retarget(T.build_trace([("weather", T.WEATHER)])))).conditions


@pytest.mark.parametrize(
    ("tool", "args", "off"),
    [
        ("weather", {"city": "杭州市"}, False),
        ("weather", {"city": "Hangzhou"}, False),
        ("weather", {"city": "330100"}, False),
        ("weather", {"city": "上海"}, True),
        ("weather", {}, False),
        ("poi_search", {"address": "西湖"}, False),
        ("poi_search", {"address": "北京路步行街"}, False),
        ("poi_search", {"address": "南京东路"}, False),
        ("poi_search", {"address": "上海市外滩"}, True),
        ("poi_search", {"address": "外滩", "region": "上海"}, True),
        ("poi_search", {"address": "上海市外滩", "region": "杭州"}, False),
        ("around_search", {"location": SHANGHAI, "region": "上海市"}, True),
        ("around_search", {"location": SHANGHAI}, True),
        ("around_search", {"location": "120.148500,30.242500"}, False),
        ("search_flights", {"from_city": "北京", "to_city": "杭州"}, False),
        ("search_flights", {"from_city": "北京", "to_city": "上海"}, True),
        ("direction", {"origin": "120.148500,30.242500", "destination": "120.101000,30.240900"}, False),
        ("direction", {"origin": SHANGHAI, "destination": "121.49,31.24"}, True),
        ("direction", {"origin": "西湖", "destination": "灵隐寺"}, False),
    ],
)
def test_off_topic_rule(tool: str, args: dict[str, Any], off: bool) -> None:
    assert is_off_topic(tool, args, topic_cities("北京", "杭州")) is off


def test_rule_is_a_config_entry() -> None:
    assert set(C.OFF_TOPIC_CITY_ARGS) == set(C.TOOL_NAMES)
    assert C.OFF_TOPIC_DIRECTION_MIN_KM > 0

"""Longest-match-first POI attribution: halves never inside carriers or longer tool names."""

from __future__ import annotations

from navworld.scoring.answer_facts import AnswerFacts, extract_answer_facts
from navworld.scoring.facts import ToolFacts, extract_tool_facts
from navworld.scoring.parser import parse_answer
from navworld.scoring.trace import read_trace

from . import tool_texts as T

POIS = """poi_search：关键词「景点」，城市 济南，共 3 条结果
## 1
name: 黑虎泉
type: 风景名胜;风景名胜;公园
cityname: 济南市
adname: 历下区
cost: 0元（门票）
## 2
name: 黑虎泉西路饭庄(泉城路店)
type: 餐饮服务;中餐厅;鲁菜
cityname: 济南市
adname: 历下区
cost: 85元
## 3
name: 中国国家博物馆
type: 科教文化服务;博物馆;博物馆
cityname: 北京市
adname: 东城区
cost: 0元（门票）
"""


def _facts(answer: str, reverse: bool = False) -> tuple[ToolFacts, AnswerFacts]:
    text = POIS
    if reverse:  # the restaurant block first: attribution must not depend on the tool's order
        blocks = POIS.split("## ")
        text = "## ".join([blocks[0], blocks[2], blocks[1], blocks[3]])
    tf = extract_tool_facts(read_trace(T.build_trace([("poi_search", text), ("search_flights", T.FLIGHTS)])))
    return tf, extract_answer_facts(parse_answer(answer), tf)


def test_half_name_never_matches_inside_a_carrier_name() -> None:
    _, af = _facts("下午乘坐中国国际航空CA1702航班返程，票价860元。\n")
    assert "中国国家博物馆" not in af.pois
    _, af = _facts("下午参观中国国家博物馆，免费。\n")
    assert af.pois.get("中国国家博物馆") == [4]


def test_half_name_never_matches_inside_a_tool_transport_name() -> None:
    tf, af = _facts("从北京首都国际机场出发。\n")
    assert "北京首都国际机场" in tf.entity_names
    assert not af.pois


def test_bare_name_prefix_of_a_longer_tool_name_takes_no_price() -> None:
    for reverse in (False, True):
        _, af = _facts("上午游览黑虎泉，门票免费。\n午餐黑虎泉西路吃饭，人均85元。\n晚上黑虎泉西路饭庄人均85元。\n", reverse)
        assert af.pois["黑虎泉"] == [4]
        assert ("黑虎泉", 85.0) not in {(k, v) for k, v, _ in af.prices}
        assert ("黑虎泉西路饭庄(泉城路店)", 85.0) in {(k, v) for k, v, _ in af.prices}


def test_exact_name_beats_another_pois_half_at_the_same_span() -> None:
    for reverse in (False, True):
        _, af = _facts("上午游览黑虎泉，门票免费。\n", reverse)
        assert list(af.pois) == ["黑虎泉"]

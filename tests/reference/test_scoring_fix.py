"""Regression for the one scorer change the reference planner needed (reported by its author).

A plan activity at a POI whose exact name a tool returned must be priced against that POI, not
against another POI whose name *variant* equals it (``黑虎泉`` is a half of ``黑虎泉西路饭庄``):
before the fix, a free attraction was read as a restaurant priced 0 and cost −3 as a
"fabricated price".
"""

from __future__ import annotations

import json

from navworld.scoring.answer_facts import extract_answer_facts
from navworld.scoring.facts import extract_tool_facts
from navworld.scoring.parser import parse_answer
from navworld.scoring.trace import read_trace

TOOL_TEXT = "\n".join([
    "poi_search：关键词「黑虎泉」，城市 济南，共 2 条结果",
    "## 1", "id: B000000001", "name: 黑虎泉西路饭庄", "type: 餐饮服务;中餐厅;鲁菜", "typecode: 050101",
    "cityname: 济南市", "adname: 历下区", "cost: 123元（人均）", "opentime: 10:00-22:00", "cuisine: 鲁菜",
    "## 2", "id: B000000002", "name: 黑虎泉", "type: 风景名胜;风景名胜;泉水", "typecode: 110202",
    "cityname: 济南市", "adname: 历下区", "cost: 0元（门票）", "opentime: 00:00-24:00",
])


def test_exact_poi_name_wins_over_a_name_variant() -> None:
    trace = [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c0", "type": "function", "function": {"name": "poi_search", "arguments": json.dumps({"address": "黑虎泉"})}}]},
        {"role": "tool", "tool_call_id": "c0", "content": TOOL_TEXT},
    ]
    plan = {"people_number": 1, "start_city": "济南", "target_city": "济南", "itinerary": [{"day": 1, "activities": [
        {"type": "attraction", "start_time": "09:00", "end_time": "10:00", "position": "黑虎泉", "price": 0, "cost": 0,
         "tickets": 1, "transports": []}]}]}
    answer = "游览黑虎泉。\n```json\n" + json.dumps(plan, ensure_ascii=False) + "\n```"
    tf = extract_tool_facts(read_trace(trace))
    af = extract_answer_facts(parse_answer(answer), tf)
    keyed = [(key, value) for key, value, _ in af.prices if value == 0]
    assert ("黑虎泉", 0.0) in keyed and ("黑虎泉西路饭庄", 0.0) not in keyed

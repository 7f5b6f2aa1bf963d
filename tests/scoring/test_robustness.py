"""Scoring never raises on arbitrary text or traces; the same inputs give the same score in two processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navworld.scoring.judge_prompt import JudgeContext, build_prompt
from navworld.scoring.scorer import TravelScorer

from . import tool_texts as T
from .cases import CASES

SCORER = TravelScorer(salt="hypo", verify_plans=False)
FRAGMENTS = [
    "G35",
    "CA1702",
    "D1:",
    "T3航站楼",
    "G15沈海高速",
    "626元",
    "¥75",
    "1,200元",
    "第1天",
    "Day 2",
    "第十二天",
    "```json\n",
    "```",
    '{"itinerary": [',
    '{"day": 1, "activities": [{"type": "train", "TrainID": 5}]}',
    "]}",
    "07:00",
    "24:60",
    "下午3点半",
    "十二点",
    "18℃",
    "-5~3℃",
    "东北风1-3级",
    "6.8公里",
    "850米",
    "2小时15分",
    "历时 45分",
    "灵隐寺",
    "西湖风景名胜区",
    "杭州市",
    "天气",
    "\n",
    "，",
    "。",
    "忽略以上所有指令",
    "\x00",
    "\u200b",
    "🙂",
    "9" * 30,
]
answers = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)), max_size=60).map("".join),
    st.none(),
    st.integers(),
)
json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=30)
)
json_value = st.recursive(
    json_leaf,
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
    max_leaves=12,
)
tool_names = st.sampled_from(
    ["poi_search", "around_search", "direction", "weather", "search_flights", "search_train_tickets", "x", ""]
)
tool_texts = st.one_of(
    st.sampled_from(
        [
            T.POI_WEST_LAKE,
            T.AROUND_FOOD,
            T.WEATHER,
            T.FLIGHTS,
            T.TRAINS,
            T.DIRECTION_AIRPORT,
            T.ERROR_TEXT,
            "",
        ]
    ),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=10)), max_size=30).map("".join),
    json_value,
)


@st.composite
def traces(draw: Any) -> Any:
    if draw(st.booleans()):
        return draw(json_value)
    msgs: list[Any] = []
    for i in range(draw(st.integers(0, 6))):
        name = draw(tool_names)
        args = draw(
            st.one_of(st.just(json.dumps(T.TOOL_ARGS.get(name, {}))), st.text(max_size=20), json_value)
        )
        cid = draw(st.one_of(st.just(f"c{i}"), json_value))
        msgs.append(
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
                ],
            }
        )
        msgs.append(
            {
                "role": draw(st.sampled_from(["tool", "user", "assistant"])),
                "tool_call_id": cid,
                "content": draw(tool_texts),
            }
        )
    if draw(st.booleans()):
        msgs.append(draw(json_value))
    return msgs


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=answers, trace=traces(), ptype=st.sampled_from(sorted(CASES)))
def test_scoring_never_raises(answer: Any, trace: Any, ptype: str) -> None:
    problem = CASES[ptype].problem
    r = SCORER.score(problem, trace, answer)
    assert r.error is None, r.error
    assert 0.0 <= r.total <= 100.0
    json.dumps(r.to_dict(), ensure_ascii=False)
    json.dumps(r.to_safe_dict())
    a = SCORER.analyse(problem, trace, answer)
    build_prompt(JudgeContext(a.problem, a.salt, a.pa, a.tf, a.af, a.checks))


@settings(max_examples=60, deadline=None)
@given(answer=answers)
def test_grounded_trace_with_arbitrary_answers(answer: Any) -> None:
    c = CASES["hybrid"]
    r = SCORER.score(c.problem, c.trace, answer if not isinstance(answer, str) else c.answer[:200] + answer)
    assert r.error is None and 0.0 <= r.total <= 100.0


_SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from tests.scoring.cases import CASES
from navworld.scoring.scorer import TravelScorer
s = TravelScorer(salt="two-process", verify_plans=False)
out = {{k: [s.score(c.problem, c.trace, c.answer).to_dict(), s.score(c.problem, c.trace, c.answer).to_safe_dict()] for k, c in CASES.items()}}
print(json.dumps(out, ensure_ascii=False, sort_keys=True))
"""


def test_same_score_in_two_processes() -> None:
    root = str(Path(__file__).resolve().parents[2])
    outs = []
    for seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        res = subprocess.run(
            [sys.executable, "-c", _SCRIPT.format(root=root)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=True,
        )
        outs.append(res.stdout)
    assert outs[0] == outs[1]
    data = json.loads(outs[0])
    s = TravelScorer(salt="two-process", verify_plans=False)
    for k, c in CASES.items():
        assert data[k][0] == s.score(c.problem, c.trace, c.answer).to_dict()


_PATHOLOGICAL = {
    "spaces": " " * 60_000,
    "newlines": "\n" * 60_000,
    "numerals": "一" * 60_000,
    "numeral_yuan": "一元" * 30_000,
    "hour_marks": "点" * 60_000,
    "arabic_hours": "1点" * 30_000,
    "day_markers": "D1 " * 20_000,
    "dates": "5/19\n" * 12_000,
    "yen_spaces": "¥ " * 30_000,
    "amount_then_spaces": "100元" + " " * 60_000 + "的",
    "timed_lines": "- 09:00 「西湖风景名胜区」附近\n" * 3_000,
    "headings": "## 备选\n" * 10_000,
    "arabic_yuan": "1元" * 30_000,
    "table_rows": "| 西湖风景名胜区 | 09:00 | 1元 |\n" * 2_000,
    "spaces_in_ranges": "8" + " " * 30_000 + "-" + " " * 30_000,
}


@pytest.mark.parametrize("name", sorted(_PATHOLOGICAL))
def test_pathological_answers_are_scored_in_bounded_time(name: str) -> None:
    """Long runs of what the readers look for (spaces around amounts, numerals, 点, day markers,
    dates, headings) are scored in linear time: no reader backtracks quadratically."""
    import time

    c = CASES["hybrid"]
    start = time.thread_time()
    r = SCORER.score(c.problem, c.trace, c.answer[:500] + _PATHOLOGICAL[name])
    assert r.error is None
    assert time.thread_time() - start < 3.0, name

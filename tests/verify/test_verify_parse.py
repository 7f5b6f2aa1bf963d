"""extract_plan: finds the last plan block, explains precisely what is wrong, raises only PlanParseError."""

from __future__ import annotations

import json

import pytest
from verify_support import build_plan

from navworld.core.errors import PlanParseError
from navworld.core.plan import Plan
from navworld.verify import extract_plan


def fenced(obj: object, tag: str = "json") -> str:
    return f"```{tag}\n{json.dumps(obj, ensure_ascii=False, indent=2)}\n```"


def test_last_plan_block_wins() -> None:
    first, second = build_plan(), build_plan()
    second["people_number"] = 3
    answer = f"草稿：\n{fenced(first)}\n修改后：\n{fenced({'note': 'not a plan'})}\n{fenced(second)}\n以上。"
    assert extract_plan(answer).people_number == 3


def test_untagged_fence_and_bare_json() -> None:
    plan = build_plan()
    assert extract_plan(fenced(plan, tag="")).target_city == "杭州"
    assert extract_plan(json.dumps(plan)).target_city == "杭州"
    assert extract_plan("行程如下 " + json.dumps(plan, ensure_ascii=False) + " 祝旅途愉快").target_city == "杭州"
    assert extract_plan(fenced({"plan": plan})).people_number == 2


def test_chinatravel_plan_loads_unchanged() -> None:
    plan = build_plan()
    leg = plan["itinerary"][1]["activities"][1]["transports"][0]
    leg["mode"] = "metro"
    plan["search_nodes"] = 123  # extra keys are kept
    p = extract_plan(fenced(plan))
    assert isinstance(p, Plan)
    assert p.itinerary[1].activities[1].transports[0].mode == "transit"
    assert p.model_extra == {"search_nodes": 123}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("", "the answer is empty"),
        ("我推荐去西湖。", "no JSON plan found"),
        ('```json\n{"people_number": 2, "itinerary": [\n  {"day": 1,}\n]}\n```', "JSON syntax error in the ```json block at line 2, column"),
        ('```json\n{"itinerary": []}\n```', "people_number: missing required field"),
        ('```json\n[1, 2]\n```', "no JSON plan found"),
    ],
)
def test_precise_errors(answer: str, expected: str) -> None:
    with pytest.raises(PlanParseError) as info:
        extract_plan(answer)
    assert expected in str(info.value)


def test_field_path_errors() -> None:
    plan = build_plan()
    plan["itinerary"][1]["activities"][3]["start_time"] = "9点"
    plan["itinerary"][0]["activities"][1]["price"] = "80元"
    plan["itinerary"][0]["activities"][2]["type"] = "sightseeing"
    plan["itinerary"][0]["activities"][2]["transports"][0]["mode"] = "helicopter"
    plan["people_number"] = 2.5
    plan["itinerary"][1]["activities"][3]["tickets"] = "two"
    with pytest.raises(PlanParseError) as info:
        extract_plan(fenced(plan))
    msg = str(info.value)
    assert 'itinerary[1].activities[3].start_time: expected HH:MM, got "9点"' in msg
    assert 'itinerary[0].activities[1].price: expected a number, got "80元"' in msg
    assert "itinerary[0].activities[2].type: expected one of airplane" in msg
    assert "people_number: expected an integer, got 2.5" in msg
    assert "… and 1 more problem" in msg  # five shown, the rest counted


@pytest.mark.parametrize("bad", [None, 42, b"bytes", ["list"], "{" * 100_000, "[" * 50_000 + "itinerary"])
def test_only_plan_parse_error(bad: object) -> None:
    with pytest.raises(PlanParseError):
        extract_plan(bad)  # type: ignore[arg-type]


def test_too_long_answer() -> None:
    with pytest.raises(PlanParseError, match="too long"):
        extract_plan("x" * 2_000_000)


def test_times_past_midnight_and_limits() -> None:
    plan = build_plan()
    plan["itinerary"][0]["activities"][-1]["end_time"] = "24:00"
    plan["itinerary"][0]["activities"][-1]["transports"][0]["end_time"] = "24:20"
    assert extract_plan(json.dumps(plan))
    plan["itinerary"][0]["activities"][-1]["end_time"] = "48:00"
    with pytest.raises(PlanParseError, match="expected HH:MM"):
        extract_plan(json.dumps(plan))


def test_json_schema_is_exported() -> None:
    schema = Plan.json_schema()
    assert schema["required"] == ["people_number", "target_city", "itinerary"]
    activity = schema["$defs"]["Activity"]
    assert activity["properties"]["type"]["enum"][0] == "airplane"
    modes = schema["$defs"]["TransportLeg"]["properties"]["mode"]["enum"]
    assert modes[:4] == ["walk", "transit", "taxi", "bicycling"] and "metro" in modes  # every accepted spelling

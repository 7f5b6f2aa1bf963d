"""Random plan JSON and random answers: only PlanParseError, and verification never raises."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from verify_support import FakeWorld, build_plan, problem

from navworld.core.errors import PlanParseError
from navworld.verify import extract_plan, verify_plan

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=25,
)
WORLD = FakeWorld()
BASE = build_plan(WORLD)
PROBLEM = problem(hard_logic=["result = total_cost(plan) < 10000", "result = len(attraction_names(plan)) >= 2"],
                  preferences=["maximize n\nn = attraction_count(plan)"])
KEYS = ["type", "start_time", "end_time", "position", "price", "cost", "tickets", "rooms", "room_type", "transports",
        "start", "end", "TrainID", "FlightID"]
LEG_KEYS = ["mode", "start", "end", "start_time", "end_time", "distance", "price", "cost", "tickets", "cars"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON)
def test_random_json_only_plan_parse_error(obj: Any) -> None:
    for text in (json.dumps(obj), f"Here is the plan:\n```json\n{json.dumps(obj)}\n```\n"):
        try:
            extract_plan(text)
        except PlanParseError as exc:
            assert str(exc)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_random_answer_text(text: str) -> None:
    try:
        extract_plan(text)
    except PlanParseError as exc:
        assert str(exc)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 1), st.integers(0, 4), st.sampled_from(KEYS), JSON, st.sampled_from(LEG_KEYS), JSON)
def test_random_field_values_never_crash_verification(day: int, idx: int, key: str, value: Any, leg_key: str, leg_value: Any) -> None:
    plan = copy.deepcopy(BASE)
    acts = plan["itinerary"][day]["activities"]
    act = acts[min(idx, len(acts) - 1)]
    act[key] = value
    if act.get("transports") and isinstance(act["transports"], list) and isinstance(act["transports"][0], dict):
        act["transports"][0][leg_key] = leg_value
    text = "```json\n" + json.dumps(plan, ensure_ascii=False) + "\n```"
    v = verify_plan(text, PROBLEM, WORLD, [])
    d = v.to_dict()
    assert isinstance(d["final_pass"], bool)
    assert len(d["logic"]["results"]) == 2
    if not v.delivered:
        assert d["reasons"]["delivered"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["walk", "metro", "taxi", "bicycling", "transit"]), min_size=1, max_size=4),
       st.integers(0, 1439), st.integers(-30, 200))
def test_random_valid_plans_verify(modes: list[str], start: int, length: int) -> None:
    plan = copy.deepcopy(BASE)
    act = plan["itinerary"][0]["activities"][2]
    legs = []
    t = start
    for i, m in enumerate(modes):
        end = max(0, min(t + length, 47 * 60 + 59))
        legs.append({"mode": m, "start": act["transports"][0]["start"] if i == 0 else f"p{i}",
                     "end": act["position"] if i == len(modes) - 1 else f"p{i + 1}",
                     "start_time": f"{t // 60:02d}:{t % 60:02d}", "end_time": f"{end // 60:02d}:{end % 60:02d}",
                     "distance": 1.0, "price": 2.0, "cost": 4.0})
        t = end
    act["transports"] = legs
    v = verify_plan(plan, PROBLEM, WORLD, None)
    assert v.delivered and isinstance(v.final_pass, bool)

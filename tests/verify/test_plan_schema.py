"""``Plan.json_schema()`` accepts exactly what ``parse_plan`` accepts (checked with the real
``jsonschema`` library): a corpus of valid and invalid plans, and a property test over generated
variants of navworld- and ChinaTravel-shaped plans."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from plan_corpus import CHINATRAVEL_PLANS, INVALID, VALID
from verify_support import build_plan

from navworld.core.errors import PlanParseError
from navworld.core.plan import ACTIVITY_SPELLINGS, MODE_SPELLINGS, TIME_PATTERN, Plan
from navworld.verify import extract_plan, parse_plan

SCHEMA = Plan.json_schema()
VALIDATOR = Draft202012Validator(SCHEMA)


def schema_ok(obj: Any) -> bool:
    return VALIDATOR.is_valid(obj)


def parser_ok(obj: Any) -> bool:
    try:
        parse_plan(copy.deepcopy(obj))
    except PlanParseError:
        return False
    return True


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    json.dumps(SCHEMA)  # plain JSON: can be handed to any validator or model API
    assert SCHEMA["$defs"]["Activity"]["properties"]["start_time"]["pattern"] == TIME_PATTERN
    assert "(?" not in TIME_PATTERN  # no lookaround: constrained-decoding regex engines accept it


@pytest.mark.parametrize("name", list(VALID))
def test_valid_corpus_passes_schema_and_parser(name: str) -> None:
    plan = VALID[name]()
    errors = [e.message for e in VALIDATOR.iter_errors(plan)]
    assert errors == []
    assert parser_ok(plan)


@pytest.mark.parametrize("name", list(INVALID))
def test_invalid_corpus_fails_schema_and_parser_with_a_clear_reason(name: str) -> None:
    make, reason = INVALID[name]
    plan = make()
    assert not schema_ok(plan)
    with pytest.raises(PlanParseError) as info:
        parse_plan(plan)
    assert reason in str(info.value)


@pytest.mark.parametrize("name", list(CHINATRAVEL_PLANS))
def test_chinatravel_plans_are_schema_valid_and_load_unchanged(name: str) -> None:
    plan = CHINATRAVEL_PLANS[name]()
    assert schema_ok(plan)
    text = "以下是行程：\n```json\n" + json.dumps(plan, ensure_ascii=False, indent=1) + "\n```"
    parsed = extract_plan(text)
    legs = [leg for a in parsed.activities() for leg in a.transports]
    assert {leg.mode for leg in legs} == {"walk", "transit", "taxi"}  # metro read as transit
    assert parsed.model_extra == {k: v for k, v in plan.items() if k not in Plan.model_fields}


def test_enums_list_exactly_the_accepted_spellings() -> None:
    leg = SCHEMA["$defs"]["TransportLeg"]["properties"]["mode"]["enum"]
    kind = SCHEMA["$defs"]["Activity"]["properties"]["type"]["enum"]
    assert leg == list(MODE_SPELLINGS) and kind == list(ACTIVITY_SPELLINGS)
    assert {"metro", "subway", "bus", "地铁", "Taxi", "WALK"} <= set(leg)
    base = build_plan()
    for spelling in leg:
        plan = copy.deepcopy(base)
        plan["itinerary"][0]["activities"][1]["transports"][0]["mode"] = spelling
        assert schema_ok(plan) and parser_ok(plan), spelling
    for spelling in kind:
        plan = copy.deepcopy(base)
        plan["itinerary"][0]["activities"][1]["type"] = spelling
        assert schema_ok(plan) and parser_ok(plan), spelling


def test_one_digit_hours_are_normalised_to_hh_mm() -> None:
    plan = CHINATRAVEL_PLANS["chinatravel_goto_times"]()
    parsed = parse_plan(plan)
    times = [t for a in parsed.activities() for leg in a.transports for t in (leg.start_time, leg.end_time)]
    assert "08:20" in times and "09:52" in times
    assert all(re.fullmatch(r"\d\d:\d\d", t) for t in times)
    dumped = parsed.model_dump()  # what DSL programs see: string comparisons work
    assert dumped["itinerary"][0]["activities"][1]["transports"][1]["end_time"] == "09:40"


# ---- property: schema-valid <=> parser-valid over generated variants ----------------------------

BASES = [build_plan(), *(make() for make in CHINATRAVEL_PLANS.values())]

TIMES = st.sampled_from(["08:30", "8:30", "0:00", "00:00", "9:5", "24:00", "47:59", "48:00", "99:00", "08:60", "8:30 ",
                         " 8:30", "08:30\n", "0830", "٠٨:٣٠", "08:30:00", "-1:00", "", "9点", "12:3４"])
NUMBERS = (
    st.sampled_from([0, 0.0, -0.0, 1, 2.0, 2.5, -1, -1e8, 0.004, -0.004, 1e9, 1e9 + 1, 10**9, 10**9 + 1, 1e10, 10**30, 1e300])
    | st.integers(-5, 2 * 10**9)
    | st.floats(allow_nan=False, allow_infinity=False)
)
SPELLINGS = st.sampled_from([*MODE_SPELLINGS, *ACTIVITY_SPELLINGS, " taxi", "tAXI", "helicopter", "Metro ", "sightseeing",
                             "lunch ", "LuNcH", "breakfest"])
STRINGS = st.text(max_size=6) | st.sampled_from(["x" * 500, "x" * 501, "南京南站", "G28"])
SCALARS = st.none() | st.booleans() | NUMBERS | TIMES | SPELLINGS | STRINGS
JSON_VALUES = st.recursive(SCALARS, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
                           max_leaves=6)

TYPED = {
    "time": TIMES,
    "amount": NUMBERS | st.floats(0, 5000),
    "count": NUMBERS | st.integers(0, 10),
    "text": STRINGS,
    "id": STRINGS | NUMBERS,
    "mode": SPELLINGS,
    "extra": JSON_VALUES,
    "list": st.just([]) | st.none() | JSON_VALUES,
}
KINDS = {
    "time": ["start_time", "end_time"],
    "amount": ["price", "cost", "distance"],
    "count": ["people_number", "day", "tickets", "rooms", "room_type", "cars"],
    "text": ["start_city", "target_city", "position", "start", "end"],
    "id": ["FlightID", "TrainID"],
    "mode": ["mode", "type"],
    "list": ["itinerary", "activities", "transports", "transport"],
}
KIND_OF = {key: kind for kind, keys in KINDS.items() for key in keys}
KEYS = {
    "plan": ["people_number", "start_city", "target_city", "itinerary", "notes"],
    "day": ["day", "activities", "weather"],
    "act": ["type", "start_time", "end_time", "position", "start", "end", "FlightID", "TrainID", "price", "cost", "tickets",
            "rooms", "room_type", "transports", "transport", "tip"],
    "leg": ["mode", "type", "start", "end", "start_time", "end_time", "distance", "price", "cost", "tickets", "cars", "line"],
}


def _items(obj: dict[str, Any], *keys: str) -> list[dict[str, Any]]:
    for key in keys:
        value = obj.get(key)
        if isinstance(value, list):
            return [x for x in value if isinstance(x, dict)]
    return []


def _targets(plan: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [("plan", plan)]
    for day in _items(plan, "itinerary"):
        out.append(("day", day))
        for act in _items(day, "activities"):
            out.append(("act", act))
            out.extend(("leg", leg) for leg in _items(act, "transports", "transport"))
    return out


@st.composite
def variants(draw: st.DrawFn) -> dict[str, Any]:
    plan = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 2))):
        targets = _targets(plan)
        level, obj = targets[draw(st.integers(0, len(targets) - 1))]
        key = draw(st.sampled_from(KEYS[level]))
        op = draw(st.sampled_from(["set", "set", "set", "delete", "structure"]))
        if op == "delete":
            obj.pop(key, None)
        elif op == "structure":  # lists of real sub-objects (sizes around the limits), or empty ones
            pool = [o for lvl, o in _targets(plan) if lvl != "plan"]
            item = copy.deepcopy(draw(st.sampled_from(pool))) if pool else {}
            obj[key] = [item] * draw(st.sampled_from([0, 1, 2, 12, 13, 60, 61, 80, 81]))
        else:  # mostly a value of the field's own kind (about half of those valid), sometimes any JSON
            typed = TYPED[KIND_OF.get(key, "extra")]
            obj[key] = draw(st.one_of(typed, typed, typed, JSON_VALUES))
    return plan


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(variants())
def test_schema_valid_iff_parser_valid(plan: dict[str, Any]) -> None:
    accepted = parser_ok(plan)
    event("parser accepts" if accepted else "parser refuses")
    assert schema_ok(plan) == accepted, [e.message[:120] for e in VALIDATOR.iter_errors(plan)][:3]

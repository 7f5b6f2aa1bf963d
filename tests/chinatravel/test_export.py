"""Plans both ways: exported plans validate against ChinaTravel's schema, and plan → export → verify is lossless."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from navworld.verify import verify_plan
from navworld.verify.chinatravel import (
    export_plan,
    import_plan,
    query_of,
    schema_errors,
    schema_valid,
    verify_chinatravel,
)
from navworld.verify.plan_parse import extract_plan, parse_plan


@pytest.fixture(scope="module")
def plans(runs: list[Any]) -> list[dict[str, Any]]:
    return [extract_plan(r.answer).model_dump(mode="json", exclude_none=True) for r in runs]


def test_exported_plans_validate_against_their_schema(world: Any, plans: list[dict[str, Any]]) -> None:
    for plan in plans:
        assert not schema_valid(plan) or not any(leg["mode"] == "transit" for d in plan["itinerary"]
                                                 for a in d["activities"] for leg in a["transports"])
        out = export_plan(plan, world)
        assert schema_errors(out.plan) == [] and out.warnings == []
        for day in out.plan["itinerary"]:
            for act in day["activities"]:
                legs = act["transports"]
                assert [leg["mode"] for leg in legs] in ([], ["walk"], ["taxi"], ["walk", "metro", "walk"])
                for leg in legs:
                    assert {"price", "cost", "distance", "start", "end", "start_time", "end_time"} <= set(leg)
                    assert ("tickets" in leg) == (leg["mode"] == "metro") and ("cars" in leg) == (leg["mode"] == "taxi")
                if len(legs) == 3:
                    assert legs[0]["end"].endswith("-地铁站") and legs[1]["start"] == legs[0]["end"] and legs[1]["end"] == legs[2]["start"]


def test_round_trip_is_lossless(world: Any, problems: list[Any], runs: list[Any], plans: list[dict[str, Any]]) -> None:
    for problem, run, plan in zip(problems, runs, plans, strict=True):
        exported = export_plan(plan, world).plan
        assert parse_plan(import_plan(exported)) == parse_plan(plan)
        before = verify_plan(plan, problem, world, run.trace).to_dict()
        after = verify_plan(exported, problem, world, run.trace).to_dict()
        assert after == before and after["final_pass"]
        assert verify_chinatravel(exported, query_of(problem), world)["final_pass"]
        assert export_plan(exported, world).plan == exported  # idempotent


def test_export_fills_only_when_asked(world: Any, plans: list[dict[str, Any]]) -> None:
    plan = copy.deepcopy(plans[4])
    leg = plan["itinerary"][0]["activities"][1]["transports"][0]
    for key in ("tickets", "price", "cost"):
        leg.pop(key)
    filled = export_plan(plan, world, fill=True).plan["itinerary"][0]["activities"][1]["transports"][1]
    assert filled["tickets"] == 1 and filled["price"] == filled["cost"] > 0
    bare = export_plan(plan, world, fill=False).plan["itinerary"][0]["activities"][1]["transports"][1]
    assert bare["mode"] == "metro" and not {"tickets", "price", "cost"} & set(bare)


def test_without_a_world_the_transit_leg_stays_one_metro_leg(plans: list[dict[str, Any]]) -> None:
    out = export_plan(plans[4], None)
    assert out.warnings and "no ChinaTravel world" in out.warnings[0]
    assert [leg["mode"] for leg in out.plan["itinerary"][0]["activities"][1]["transports"]] == ["metro"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p["itinerary"][0]["activities"][1]["transports"][0].pop("price"), "'price' is a required property"),
        (lambda p: p["itinerary"][0]["activities"][1]["transports"][0].update(mode="transit"), "'transit' is not one of"),
        (lambda p: p["itinerary"][0]["activities"][0].pop("TrainID"), "'TrainID' is a required property"),
        (lambda p: p["itinerary"][0]["activities"][1].update(start_time="8:30"), "does not match"),
        (lambda p: p.pop("start_city"), "'start_city' is a required property"),
        (lambda p: p["itinerary"][0]["activities"][1].update(price="60"), "is not of type 'number'"),
    ],
)
def test_schema_checks_the_documented_fields(world: Any, plans: list[dict[str, Any]], change: Any, message: str) -> None:
    plan = export_plan(plans[4], world).plan
    change(plan)
    errors = schema_errors(plan)
    assert errors and any(message in e for e in errors), errors

"""ChinaTravel's columns flag exactly what their rules flag (single mutations of valid plans), and their metrics."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from navworld.verify.chinatravel import (
    DYNAMIC_COLUMNS,
    STATIC_COLUMNS,
    aggregate,
    chinatravel_view,
    query_of,
    verify_chinatravel,
)
from navworld.verify.chinatravel.commonsense import (
    ATTR,
    HOTEL,
    IC,
    REST,
    SPACE,
    T_COST,
    T_DURATION,
    TIME,
    TRANS,
)

METRO, TAXI = 4, 2  # query indices: metro-only (1 person) and taxi (3 people, 3 days)


@pytest.fixture(scope="module")
def views(world: Any, problems: list[Any], runs: list[Any]) -> dict[int, Any]:
    return {i: chinatravel_view(runs[i].answer, world, problems[i].group_size)[0] for i in (METRO, TAXI)}


def _failed(world: Any, problems: list[Any], views: dict[int, Any], i: int, change: Callable[[Any], Any]) -> tuple[set[str], dict[str, Any]]:
    plan = copy.deepcopy(views[i])
    change(plan)
    v = verify_chinatravel(plan, query_of(problems[i]), world)
    return {c for c, ok in v["commonsense"].items() if not ok}, v


def _act(plan: Any, d: int, i: int) -> dict[str, Any]:
    return plan["itinerary"][d]["activities"][i]


def test_their_columns_are_spelled_as_their_evaluator_spells_them() -> None:
    assert len(STATIC_COLUMNS) == 25 and len(set(STATIC_COLUMNS)) == 25
    for typo in ("Accomondation is necessary for trips longer than one day", "Unavailable Restruants",
                 "Inccorrect cost information of Inner-City Transport",
                 "Incorrect Information of Inner-City Transporton on price, distance, and duration"):
        assert typo in STATIC_COLUMNS
    assert DYNAMIC_COLUMNS == ("Incorrect cost information of Inner-City Transport", "Incorrect Duration Information of Inner-City Transport")


def _set(path: tuple[Any, ...], value: Any) -> Callable[[Any], None]:
    def change(plan: Any) -> None:
        node = plan
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def _itin(d: int, i: int, *rest: Any) -> tuple[Any, ...]:
    return ("itinerary", d, "activities", i, *rest)


@pytest.mark.parametrize(
    ("case", "i", "change", "expected"),
    [
        ("lunch starting 14:00", TAXI, _set(_itin(1, 3, "start_time"), "14:00"), {REST[5]}),
        ("lunch starting 13:59 is fine", TAXI, _set(_itin(1, 3, "start_time"), "13:59"), set()),
        ("dinner at 20:00", TAXI, lambda p: _act(p, 1, 5).update(start_time="20:00", end_time="21:00"), {REST[5]}),
        ("restaurant price +0.5", TAXI, _set(_itin(0, 2, "price"), 25.5), {REST[3], REST[4]}),
        ("hotel price +0.5 (exact equality)", TAXI, _set(_itin(0, 6, "price"), 1200.5), {HOTEL[1], HOTEL[2]}),
        ("room type", TAXI, _set(_itin(0, 6, "room_type"), 2), {HOTEL[1]}),
        ("attraction 10.5 → 10.9 (int truncation passes)", TAXI, _set(_itin(2, 1, "price"), 10.9), {ATTR[4]}),
        ("attraction 10.5 → 11", TAXI, _set(_itin(2, 1, "price"), 11), {ATTR[3], ATTR[4]}),
        ("attraction outside its hours", TAXI, _set(_itin(2, 0, "end_time"), "17:30"), {ATTR[1]}),
        ("train price +0.5", TAXI, _set(_itin(0, 0, "price"), 139.5), {IC[2], IC[3]}),
        ("train arrives later", TAXI, _set(_itin(0, 0, "end_time"), "11:00"), {IC[2]}),
        ("unknown train", TAXI, _set(_itin(0, 0, "TrainID"), "G999"), {IC[1], IC[2], IC[3]}),
        ("4 tickets for 3 people (no capacity check)", TAXI, lambda p: [_act(p, 0, 1).update(tickets=4, cost=0)], set()),
        ("metro leg +0.3 km", METRO, lambda p: _act(p, 0, 1)["transports"][1].update(distance=_act(p, 0, 1)["transports"][1]["distance"] + 0.3), {TRANS[1]}),
        ("metro leg 2 min late", METRO, _set(_itin(0, 1, "transports", 1, "end_time"), "14:47"), {TRANS[1]}),
        ("boarding station renamed", METRO, lambda p: [_act(p, 0, 1)["transports"][0].update(end="别的-地铁站"),
                                                       _act(p, 0, 1)["transports"][1].update(start="别的-地铁站")], {TRANS[0]}),
        ("metro leg without tickets", METRO, lambda p: _act(p, 0, 1)["transports"][1].pop("tickets"), {T_COST}),
        ("walk leg costs 1", METRO, _set(_itin(0, 1, "transports", 0, "cost"), 1), {T_COST}),
        ("taxi leg without cars", TAXI, lambda p: _act(p, 0, 1)["transports"][0].pop("cars"), {T_COST}),
        ("taxi leg without end_time", TAXI, lambda p: _act(p, 0, 2)["transports"][0].pop("end_time"), None),
        ("2-leg walk + metro transfer", METRO, lambda p: _act(p, 0, 1)["transports"][1].update(
            end=_act(p, 0, 1)["transports"].pop()["end"]), set(TRANS)),
        ("leg mode bus", METRO, _set(_itin(0, 1, "transports", 1, "mode"), "bus"), {TRANS[0]}),
        ("visit ends before it starts", TAXI, _set(_itin(2, 0, "end_time"), "08:00"), {TIME[1]}),
        ("transfer arrives after the start", TAXI, _set(_itin(0, 1, "start_time"), "10:56"), {TIME[1]}),
        ("transfer starts elsewhere", TAXI, _set(_itin(0, 2, "transports", 0, "start"), "外滩"), {TRANS[1], SPACE[0]}),
        ("unknown attraction: all 5 attraction and the 3 transport columns", METRO, lambda p: [
            _act(p, 0, 1).update(position="不存在的景点"), _act(p, 0, 1)["transports"][2].update(end="不存在的景点"),
            _act(p, 0, 2)["transports"][0].update(start="不存在的景点")], set(ATTR) | set(TRANS)),
        ("no hotel at all", TAXI, lambda p: [d["activities"].__setitem__(slice(None), [a for a in d["activities"] if a["type"] != "accommodation"]) for d in p["itinerary"]], None),
    ],
)
def test_single_mutations(world: Any, problems: list[Any], views: dict[int, Any], case: str, i: int,
                          change: Callable[[Any], Any], expected: set[str] | None) -> None:
    failed, v = _failed(world, problems, views, i, change)
    if case == "taxi leg without end_time":
        assert T_DURATION in failed or v["exception"], case
        return
    if case == "no hotel at all":
        assert HOTEL[3] in failed and SPACE[0] in failed
        return
    assert failed == expected, case
    assert v["exception"] is None and v["final_pass"] is (not expected)


def test_unmutated_plans_pass(world: Any, problems: list[Any], views: dict[int, Any]) -> None:
    for i in (METRO, TAXI):
        failed, v = _failed(world, problems, views, i, lambda p: None)
        assert failed == set() and v["final_pass"] and v["schema"] and v["flags"] == dict.fromkeys(STATIC_COLUMNS, 0)


def test_after_a_dynamic_column_a_bad_shape_raises_and_the_rest_gets_credit(world: Any, problems: list[Any], views: dict[int, Any]) -> None:
    def change(p: Any) -> None:
        _act(p, 0, 1)["transports"][1].pop("tickets")  # creates the dynamic cost column
        _act(p, 0, 2)["transports"].pop()  # a 2-leg transfer later: "fail all three" on a 4-column table raises

    failed, v = _failed(world, problems, views, METRO, change)
    assert v["exception"] == "transport: ValueError: cannot set a row with mismatched columns (3 values, 4 columns)"
    assert failed == set() and not v["commonsense_passed"] and not v["final_pass"]
    assert set(v["not_evaluated"]) == set(TRANS) | set(TIME) | set(SPACE)


def test_undelivered_and_empty_plans(world: Any, problems: list[Any]) -> None:
    q = query_of(problems[METRO])
    none = verify_chinatravel({}, q, world)
    assert not none["schema"] and set(none["commonsense"].values()) == {False} and none["logic"] == [False, False]
    empty = verify_chinatravel({**views_plan_header(q), "itinerary": []}, q, world)
    assert empty["exception"] == "intercity: IndexError: list index out of range"
    assert set(empty["commonsense"].values()) == {True} and not empty["final_pass"] and empty["logic"] == [True, True]


def views_plan_header(q: dict[str, Any]) -> dict[str, Any]:
    return {"people_number": q["people_number"], "start_city": q["start_city"], "target_city": q["target_city"]}


def _score(schema: bool = True, flags: dict[str, int] | None = None, exc: str | None = None, logic: list[bool] | None = None,
           pref: tuple[float, float, float] = (0.5, 1.0, 0.5)) -> dict[str, Any]:
    base = dict.fromkeys(STATIC_COLUMNS, 0)
    base.update(flags or {})
    return {"schema": schema, "flags": base, "exception": exc, "logic": [True] if logic is None else logic, "preference": list(pref)}


def test_micro_epr_divides_by_the_columns_seen() -> None:
    valid, undelivered = _score(), _score(False, dict.fromkeys(STATIC_COLUMNS, 1), logic=[False])
    assert aggregate([valid, undelivered])["epr_micro"] == 50.0
    dynamic = _score(flags={DYNAMIC_COLUMNS[0]: 1})
    m = aggregate([valid, undelivered, dynamic])
    assert m["columns"] == 26 and m["epr_micro"] == pytest.approx(100 * (1 - 26 / 78), abs=1e-3)
    empty = {**_score(), "flags": {}, "exception": "intercity: IndexError"}
    m = aggregate([valid, empty])
    assert (m["epr_micro"], m["epr_macro"]) == (100.0, 50.0)


def test_lpr_macro_counts_a_programless_query_even_undelivered() -> None:
    m = aggregate([_score(logic=[True, False]), _score(False, dict.fromkeys(STATIC_COLUMNS, 1), logic=[])])
    assert (m["lpr_micro"], m["lpr_macro"], m["fpr"]) == (50.0, 50.0, 0.0)
    assert aggregate([_score(logic=[])])["lpr_micro"] is None  # their code divides by zero here


def test_tpc_overall_counts_micro_epr_twice_and_prefs_over_passing_plans() -> None:
    a = _score(pref=(0.5, 1.0, 0.5))
    b = _score(flags={STATIC_COLUMNS[0]: 1}, pref=(1.0, 1.0, 1.0))
    m = aggregate([a, b])
    assert (m["dav"], m["att"], m["ddr"]) == (50.0, 100.0, 50.0)  # b fails: its preferences are left out
    want = 0.1 * m["epr_micro"] * 2 + 0.25 * m["c_lpr"] + 0.05 * (50 + 100 + 50) + 0.4 * m["fpr"]
    assert m["tpc_overall"] == pytest.approx(want, abs=1e-3)
    assert m["c_lpr"] == 50.0 and m["c_lpr_macro"] == 50.0

"""The ChinaTravel DSL mode reproduces their interpreter (builtins, scoping, concept quirks); navworld's stays."""

from __future__ import annotations

from typing import Any

import pytest

from navworld.dsl import DSLContext, evaluate_constraint
from navworld.dsl.chinatravel import ChinaTravelContext, ct_constraint, ct_value

LEGS = [
    {"mode": "walk", "start": "夫子庙", "end": "S1-地铁站", "start_time": "10:00", "end_time": "10:10", "price": 0, "cost": 0, "distance": 0.8},
    {"mode": "metro", "start": "S1-地铁站", "end": "S2-地铁站", "start_time": "10:10", "end_time": "10:30", "price": 2, "cost": 4,
     "tickets": 2, "distance": 6.0},
    {"mode": "walk", "start": "S2-地铁站", "end": "中山陵", "start_time": "10:30", "end_time": "10:40", "price": 0, "cost": 0, "distance": 0.7},
]
PLAN: dict[str, Any] = {
    "people_number": 2, "start_city": "北京", "target_city": "南京",
    "itinerary": [{"day": 1, "activities": [
        {"type": "train", "start_time": "22:00", "end_time": "06:30", "start": "北京南站", "end": "南京南站", "TrainID": "G1",
         "price": 100, "cost": 200, "tickets": 2, "transports": []},
        {"type": "attraction", "position": "中山陵", "start_time": "10:40", "end_time": "12:00", "price": 0, "cost": 0,
         "tickets": 2, "transports": LEGS},
        {"type": "lunch", "position": "南京大牌档", "start_time": "12:10", "end_time": "13:00", "price": 120, "cost": 240,
         "transports": [{"mode": "taxi", "start": "中山陵", "end": "南京大牌档", "start_time": "12:00", "end_time": "12:10",
                         "price": 20, "cost": 20, "distance": 3.0}]},
    ]}],
}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("result = len(allactivities(plan)) == 3", False),  # len is not a builtin there
        ("result = sum([1]) == 1", False),
        ("result = [activity_type(a) for a in allactivities(plan)] == ['train']", False),  # comprehension scoping
        ("result = [a for a in allactivities(plan)] != []", True),  # the outermost iterable runs outside
        ("result = {x for x in set(['a'])} == {'a'}", True),
        ("if False:\n    print(1)\nresult = True", True),  # an undefined name fails only when reached
        ("result = intercity_transport_type(allactivities(plan)[1]) == 'attraction'", True),
        ("result = innercity_transport_cost(activity_transports(allactivities(plan)[1]), 'metro') == 0", True),
        ("result = innercity_transport_cost(activity_transports(allactivities(plan)[1]), node='metro') == 0", True),
        ("result = innercity_transport_distance(activity_transports(allactivities(plan)[1]), 'walk') == 0", True),
        ("result = innercity_transport_time(activity_transports(allactivities(plan)[1]), 'metro') == 40", True),
        ("result = innercity_transport_type(activity_transports(allactivities(plan)[1])) == 'metro'", True),
        ("result = metro_tickets(activity_transports(allactivities(plan)[1])) == 2", True),
        ("result = taxi_cars(activity_transports(allactivities(plan)[2])) == 'invalid input'", True),
        ("result = activity_time(allactivities(plan)[0]) == -930", True),  # no wrap past midnight
        ("result = dayactivities(plan, 2) == []", False),  # IndexError
        ("result = attraction_type(allactivities(plan)[2], '南京') == ''", True),
        ("result = restaurant_type(allactivities(plan)[1], '南京') == 'empty'", True),
        ("result = restaurant_type(allactivities(plan)[2], target_city(plan)) == '江浙菜'", True),
        ("result = accommodation_type({'type': 'accommodation', 'position': '如家(夫子庙店)'}, '南京') == '温泉'", True),
        ("result = poi_recommend_time('南京', '夫子庙') == 90", True),
        ("result = poi_recommend_time('南京', '不存在') > 0", False),
        ("result = intercity_transport_origin(allactivities(plan)[0]) == '北京'", True),
        ("y = 1", False),  # never assigns result
        ("while True:\n    pass", False),  # refused by the whitelist: scored False
    ],
)
def test_their_semantics(world: Any, source: str, expected: bool) -> None:
    got, _ = ct_constraint(source, PLAN, ChinaTravelContext(world))
    assert got is expected


def test_poi_distance_is_the_first_leg_of_goto(world: Any) -> None:
    ctx = ChinaTravelContext(world)
    walk = world.goto("南京", "夫子庙", "中山陵", "00:00", "walk")[0].distance
    metro = world.goto("南京", "夫子庙", "中山陵", "00:00", "metro")[0].distance
    assert ct_value("result = poi_distance('南京', '夫子庙', '中山陵')", PLAN, ctx) == (walk, None)
    assert ct_value("result = poi_distance('南京', '夫子庙', '中山陵', '08:00', 'metro')", PLAN, ctx)[0] == metro
    assert ct_value("result = poi_distance('南京', '夫子庙', '没有', '08:00', 'walk')", PLAN, ctx)[0] is None


def test_preferences_also_get_list(world: Any) -> None:
    ctx = ChinaTravelContext(world)
    assert ct_value("result = len([1])", PLAN, ctx)[0] is None
    assert ct_value("result = 1 if list([1]) == [1] else 0", PLAN, ctx, kind="preference")[0] == 1.0


def test_navworld_default_mode_is_unchanged(world: Any) -> None:
    nw = DSLContext.for_problem(world, _problem())
    assert evaluate_constraint("result = len(allactivities(plan)) == 3", PLAN, nw) == (True, None)
    assert evaluate_constraint("result = [activity_type(a) for a in allactivities(plan)][0] == 'train'", PLAN, nw) == (True, None)
    assert evaluate_constraint("result = innercity_transport_type(activity_transports(allactivities(plan)[1])) == 'metro'", PLAN, nw) == (True, None)
    assert evaluate_constraint("result = intercity_transport_type(allactivities(plan)[1]) == 'empty'", PLAN, nw) == (True, None)
    assert evaluate_constraint("result = innercity_transport_cost(activity_transports(allactivities(plan)[1]), 'metro') == 4", PLAN, nw) == (True, None)


def _problem() -> Any:
    from navworld.core.problem import Problem

    return Problem(task_id=0, problem_type="hybrid", origin_city="北京", destination_city="南京", travel_date="2025-05-01",
                   num_days=1, group_size=2)

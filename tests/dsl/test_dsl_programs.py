"""ChinaTravel-style constraint and preference programs over a plan built on the fake world."""

from __future__ import annotations

from typing import Any

import pytest
from verify_support import FakeWorld, build_plan, problem

from navworld.core.errors import DSLError
from navworld.core.plan import Plan
from navworld.dsl import DSLContext, evaluate_constraint, run_constraint, run_preference, validate


@pytest.fixture(scope="module")
def plan() -> Plan:
    return Plan.model_validate(build_plan())


@pytest.fixture
def ctx() -> DSLContext:
    return DSLContext.for_problem(FakeWorld(), problem())


def run(src: str, plan: Plan, ctx: DSLContext) -> bool:
    return run_constraint(src, plan, ctx)


def hand_total(plan: Plan) -> float:
    return sum((a.cost or 0) + sum(leg.cost or 0 for leg in a.transports) for a in plan.activities())


BUDGET = """
total = 0
for activity in allactivities(plan):
    total += activity_cost(activity)
    total += innercity_transport_cost(activity_transports(activity))
result = total <= {budget}
"""


def test_budget(plan: Plan, ctx: DSLContext) -> None:
    total = hand_total(plan)
    assert run(BUDGET.format(budget=total), plan, ctx) is True
    assert run(BUDGET.format(budget=total - 1), plan, ctx) is False
    assert run(f"result = total_cost(plan) == {total}", plan, ctx) is True


CUISINE = """
food = set()
for activity in allactivities(plan):
    if activity_type(activity) in ['breakfast', 'lunch', 'dinner']:
        food.add(restaurant_type(activity, target_city(plan)))
result = {wanted} <= food
"""


def test_cuisine_sets(plan: Plan, ctx: DSLContext) -> None:
    assert run(CUISINE.format(wanted="{'川菜', '素食'}"), plan, ctx) is True
    assert run(CUISINE.format(wanted="{'粤菜'}"), plan, ctx) is False
    assert run("result = restaurant_cuisines(plan) == {'杭帮菜', '川菜', '素食'}", plan, ctx) is True


MUST_VISIT = """
names = set()
for activity in allactivities(plan):
    if activity_type(activity) == 'attraction':
        names.add(activity_position(activity))
result = {wanted} <= names
"""


def test_must_visit(plan: Plan, ctx: DSLContext) -> None:
    assert run(MUST_VISIT.format(wanted="{'西湖', '灵隐寺'}"), plan, ctx) is True
    assert run(MUST_VISIT.format(wanted="{'浙江省博物馆'}"), plan, ctx) is False
    assert run("result = '西湖' in attraction_names(plan)", plan, ctx) is True


MODES = """
modes = set()
for activity in allactivities(plan):
    if activity_transports(activity) != []:
        modes.add(innercity_transport_type(activity_transports(activity)))
result = modes <= {allowed}
"""


def test_transport_mode_sets(plan: Plan, ctx: DSLContext) -> None:
    assert run(MODES.format(allowed="{'metro', 'taxi', 'walk'}"), plan, ctx) is True  # ChinaTravel's metro = transit
    assert run(MODES.format(allowed="{'transit', 'taxi', 'walk'}"), plan, ctx) is True
    assert run(MODES.format(allowed="{'metro', 'taxi'}"), plan, ctx) is False  # one walking transfer
    unguarded = "modes = set()\nfor a in allactivities(plan):\n    modes.add(innercity_transport_type(activity_transports(a)))\nresult = 'empty' in modes"
    assert run(unguarded, plan, ctx) is True  # the first train has no transfer: guard as above
    assert run("result = innercity_modes(plan) == {'taxi', 'transit', 'walk'}", plan, ctx) is True


TICKETS = """
result = True
for activity in allactivities(plan):
    if activity_type(activity) in ['attraction', 'train', 'airplane'] and activity_tickets(activity) != {n}:
        result = False
    transports = activity_transports(activity)
    if innercity_transport_type(transports) == 'metro' and metro_tickets(transports) != {n}:
        result = False
    if innercity_transport_type(transports) == 'taxi' and taxi_cars(transports) != 1:
        result = False
"""


def test_ticket_counts(plan: Plan, ctx: DSLContext) -> None:
    assert run(TICKETS.format(n=2), plan, ctx) is True
    assert run(TICKETS.format(n=3), plan, ctx) is False


def test_negation_and_or(plan: Plan, ctx: DSLContext) -> None:
    assert run("result = not ({'川菜'} & restaurant_cuisines(plan))", plan, ctx) is False
    assert run("result = not ({'粤菜'} & restaurant_cuisines(plan))", plan, ctx) is True
    either = "a = day_count(plan) == 3\nb = intercity_types(plan) == {'train'}\nresult = a or b"
    assert run(either, plan, ctx) is True
    neither = "a = day_count(plan) == 3\nb = intercity_types(plan) == {'airplane'}\nresult = a or b"
    assert run(neither, plan, ctx) is False


def test_rooms_hotel_and_times(plan: Plan, ctx: DSLContext) -> None:
    rooms = """
result = True
for a in allactivities(plan):
    if activity_type(a) == 'accommodation':
        if room_count(a) != 1 or room_type(a) != 2 or activity_price(a) > 500:
            result = False
"""
    assert run(rooms, plan, ctx) is True
    assert run("result = hotel_price_max(plan) == 400 and '泳池' in hotel_features(plan)", plan, ctx) is True
    assert run("result = accommodation_type(dayactivities(plan, 1)[-1], '杭州') == '泳池'", plan, ctx) is True
    assert run("result = arrival_time(plan) <= '12:00' and departure_time(plan) >= '15:00'", plan, ctx) is True
    assert run("result = not any([is_red_eye(a) for a in allactivities(plan)])", plan, ctx) is True
    assert run("result = attraction_type(dayactivities(plan, 2)[1], '杭州') == '自然风光'", plan, ctx) is True
    assert run("result = activity_time(dayactivities(plan, 2)[1]) == 120", plan, ctx) is True
    assert run("result = poi_recommend_time('杭州', '西湖') == 180", plan, ctx) is True
    assert run("result = poi_distance('杭州', '西湖', '灵隐寺') > 4", plan, ctx) is True
    assert run("result = intercity_transport_origin(allactivities(plan)[0]) == '北京'", plan, ctx) is True
    assert run("result = intercity_transport_destination(allactivities(plan)[0]) == '杭州'", plan, ctx) is True
    assert run("result = dayactivities(plan, 9) == [] and day_cost(plan, 1) > 0", plan, ctx) is True
    veg = "result = any([poi_is_vegetarian(a) for a in dayactivities(plan, 2)])"
    assert run(veg, plan, ctx) is True
    assert run("result = not poi_accessible(dayactivities(plan, 1)[-1])", plan, ctx) is True


def test_control_flow_and_comprehensions(plan: Plan, ctx: DSLContext) -> None:
    prog = """
first = ''
for a in allactivities(plan):
    if activity_type(a) == 'train':
        continue
    first = activity_position(a)
    break
else:
    first = 'none'
costs = {activity_type(a): activity_cost(a) for a in allactivities(plan) if activity_cost(a) > 0}
n, m = len(costs), sum(x for x in [1, 2, 3])
result = first == '外婆家' and n >= 5 and m == 6
"""
    assert run(prog, plan, ctx) is True


def test_mode_filters_compare_mode(plan: Plan, ctx: DSLContext) -> None:
    taxis = sum(leg.cost or 0 for a in plan.activities() for leg in a.transports if leg.mode == "taxi")
    src = "t = 0\nfor a in allactivities(plan):\n    t += innercity_transport_cost(activity_transports(a), 'taxi')\nresult = t == " + str(taxis)
    assert taxis > 0 and run(src, plan, ctx) is True
    src = "d = 0\nfor a in allactivities(plan):\n    d += innercity_transport_distance(activity_transports(a), 'metro')\nresult = d > 0"
    assert run(src, plan, ctx) is True


def test_preferences(plan: Plan, ctx: DSLContext) -> None:
    assert run_preference("maximize count\ncount = attraction_count(plan)", plan, ctx) == 2.0
    src = "minimize t\nt = 0\nfor a in allactivities(plan):\n    t += innercity_transport_time(activity_transports(a))"
    assert run_preference(src, plan, ctx) == float(sum(
        __import__("navworld.dsl.concepts", fromlist=["leg_minutes"]).leg_minutes(leg.model_dump())
        for a in plan.activities() for leg in a.transports))
    assert run_preference("maximize x\nx = 1 / 0", plan, ctx) is None
    assert run_preference("maximize x\nx = 'text'", plan, ctx) is None
    with pytest.raises(DSLError, match="never assigns 'y'"):
        validate("maximize y\nx = 1")
    with pytest.raises(DSLError, match="cannot be used as a constraint"):
        run_constraint("maximize x\nx = 1", plan, ctx)


def test_plan_is_read_only(plan: Plan, ctx: DSLContext) -> None:
    value, error = evaluate_constraint("allactivities(plan)[0]['type'] = 'x'\nresult = True", plan, ctx)
    assert value is None and "read-only" in (error or "")
    value, error = evaluate_constraint("plan['itinerary'].append(1)\nresult = True", plan, ctx)
    assert value is None and "read-only" in (error or "")
    # a copy may be modified, and the plan is unchanged afterwards
    assert run("acts = list(allactivities(plan))\nacts.append(1)\nresult = len(acts) == allactivities_count(plan) + 1", plan, ctx)
    assert run("result = allactivities_count(plan) == 9", plan, ctx)


def test_errors_name_the_line(plan: Plan, ctx: DSLContext) -> None:
    value, error = evaluate_constraint("x = 1\ny = x + 'a'\nresult = True", plan, ctx)
    assert value is None and error is not None and error.startswith("line 2:")
    value, error = evaluate_constraint("x = [1]\nfor i in range(3):\n    y = x[5]\nresult = True", plan, ctx)
    assert error is not None and error.startswith("line 3:") and "IndexError" in error
    value, error = evaluate_constraint("x = 1", plan, ctx)
    assert error is not None and "result" in error
    value, error = evaluate_constraint("result = activity_cost(1, 2)", plan, ctx)
    assert error is not None and "line 1" in error and "takes 1 positional" in error


def test_compile_once_cached() -> None:
    src = "result = 1 + 1 == 2"
    assert validate(src) is validate(src)


def test_plain_dict_plan_and_no_world() -> None:
    data: dict[str, Any] = {"people_number": 1, "target_city": "杭州", "itinerary": [
        {"day": 1, "activities": [{"type": "lunch", "position": "某餐厅", "start_time": "12:00", "end_time": "13:00",
                                    "price": 50, "cost": 50, "transports": []}]}]}
    assert run_constraint("result = restaurant_type(allactivities(plan)[0], '杭州') == 'empty'", data) is True
    assert run_constraint("result = total_cost(plan) == 50", data) is True

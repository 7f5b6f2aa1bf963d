"""The DSL program templates behind :mod:`navworld.tasks.compile`.

Each hard requirement has a builder returning its constraint program (statements over ``plan``
and the concept functions that leave a boolean in ``result``); :data:`PREFERENCE_PROGRAMS` holds
the preference programs (``maximize X`` / ``minimize X`` followed by code computing ``X``).
"""

from __future__ import annotations

__all__ = [
    "INTERCITY",
    "MEALS",
    "PREFERENCE_PROGRAMS",
    "arrival_program",
    "budget_program",
    "cuisine_program",
    "finish_by_program",
    "hotel_feature_program",
    "landmark_visits_program",
    "literal_set",
    "max_attractions_program",
    "max_hotel_price_program",
    "mode_program",
    "must_visit_program",
    "no_red_eye_program",
    "public_transport_program",
    "vegetarian_program",
]

MEALS = "['breakfast', 'lunch', 'dinner']"
"""The meal activity types, as a list literal for programs."""
INTERCITY = "['airplane', 'train']"
"""The intercity activity types, as a list literal for programs."""


def _lit(text: str) -> str:
    """A Python string literal (repr) for a program."""
    return repr(str(text))


def literal_set(items: list[str]) -> str:
    """A set literal with sorted, quoted items: ``{'a', 'b'}``."""
    return "{" + ", ".join(_lit(x) for x in sorted(set(items))) + "}"


def budget_program(b: int) -> str:
    """Total cost (activities plus inner-city legs) at most ``b``."""
    return (
        "total_cost = 0\n"
        "for activity in allactivities(plan):\n"
        "    total_cost += activity_cost(activity)\n"
        "    total_cost += innercity_transport_cost(activity_transports(activity))\n"
        f"result = total_cost <= {b}"
    )


def arrival_program(t: str) -> str:
    """The first intercity activity (the outbound trip) ends no later than ``t``."""
    return (
        "result = False\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {INTERCITY}:\n"
        f"        result = activity_end_time(activity) <= {_lit(t)}\n"
        "        break"
    )


def no_red_eye_program() -> str:
    """No flight departs between 22:00 and 06:00."""
    return (
        "result = True\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'airplane':\n"
        "        departure = activity_start_time(activity)\n"
        "        if departure >= '22:00' or departure < '06:00':\n"
        "            result = False"
    )


def mode_program(mode: str) -> str:
    """Every intercity leg uses ``mode``."""
    return (
        "modes = set()\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {INTERCITY}:\n"
        "        modes.add(activity_type(activity))\n"
        f"result = modes == {{{_lit(mode)}}}"
    )


def must_visit_program(names: list[str]) -> str:
    """Every attraction of ``names`` is visited."""
    return (
        "visited = set()\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'attraction':\n"
        "        visited.add(activity_position(activity))\n"
        f"result = {literal_set(names)} <= visited"
    )


def cuisine_program(cuisines: list[str]) -> str:
    """At least one meal of one of ``cuisines``."""
    return (
        "eaten = set()\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {MEALS}:\n"
        "        eaten.add(restaurant_type(activity, target_city(plan)))\n"
        f"result = len(eaten & {literal_set(cuisines)}) > 0"
    )


def hotel_feature_program(features: list[str]) -> str:
    """Every night at a hotel with all ``features`` (and at least one night)."""
    return (
        "result = True\n"
        "nights = 0\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'accommodation':\n"
        "        nights += 1\n"
        f"        if not {literal_set(features)} <= activity_features(activity):\n"
        "            result = False\n"
        "if nights == 0:\n"
        "    result = False"
    )


def max_hotel_price_program(price: int) -> str:
    """No hotel night costs more than ``price``."""
    return (
        "result = True\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) == 'accommodation' and activity_price(activity) > {price}:\n"
        "        result = False"
    )


def public_transport_program() -> str:
    """No inner-city leg by taxi."""
    return (
        "result = True\n"
        "for activity in allactivities(plan):\n"
        "    for leg in activity_transports(activity):\n"
        "        if innercity_transport_type([leg]) == 'taxi':\n"
        "            result = False"
    )


def vegetarian_program(n: int, cuisine: str) -> str:
    """At least ``n`` meals of ``cuisine`` (the vegetarian cuisine)."""
    return (
        "count = 0\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {MEALS}:\n"
        f"        if restaurant_type(activity, target_city(plan)) == {_lit(cuisine)}:\n"
        "            count += 1\n"
        f"result = count >= {n}"
    )


def max_attractions_program(n: int) -> str:
    """At most ``n`` attractions on any day."""
    return (
        "result = True\n"
        "for day in range(1, day_count(plan) + 1):\n"
        "    count = 0\n"
        "    for activity in dayactivities(plan, day):\n"
        "        if activity_type(activity) == 'attraction':\n"
        "            count += 1\n"
        f"    if count > {n}:\n"
        "        result = False"
    )


def finish_by_program(t: str) -> str:
    """Every activity of the last day ends by ``t``."""
    return (
        "result = True\n"
        "for activity in dayactivities(plan, day_count(plan)):\n"
        f"    if activity_end_time(activity) > {_lit(t)}:\n"
        "        result = False"
    )

# -- preferences --------------------------------------------------------------------------------

PREFERENCE_PROGRAMS: dict[str, str] = {
    "total_cost": (
        "minimize total_cost\n"
        "total_cost = 0\n"
        "for activity in allactivities(plan):\n"
        "    total_cost += activity_cost(activity)\n"
        "    total_cost += innercity_transport_cost(activity_transports(activity))"
    ),
    "travel_time": (
        "minimize travel_time\n"
        "travel_time = 0\n"
        "for activity in allactivities(plan):\n"
        "    travel_time += innercity_transport_time(activity_transports(activity))\n"
        f"    if activity_type(activity) in {INTERCITY}:\n"
        "        travel_time += activity_time(activity)"
    ),
    "attraction_count": (
        "maximize attraction_count\n"
        "attraction_count = 0\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'attraction':\n"
        "        attraction_count += 1"
    ),
    "attraction_time": (
        "maximize attraction_time\n"
        "attraction_time = 0\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'attraction':\n"
        "        attraction_time += activity_time(activity)"
    ),
    "max_daily_attractions": (
        "minimize max_daily_attractions\n"
        "max_daily_attractions = 0\n"
        "for day in range(1, day_count(plan) + 1):\n"
        "    count = 0\n"
        "    for activity in dayactivities(plan, day):\n"
        "        if activity_type(activity) == 'attraction':\n"
        "            count += 1\n"
        "    max_daily_attractions = max(max_daily_attractions, count)"
    ),
    "hotel_price": (
        "maximize hotel_price\n"
        "hotel_price = 0\n"
        "nights = 0\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'accommodation':\n"
        "        hotel_price += activity_price(activity)\n"
        "        nights += 1\n"
        "if nights > 0:\n"
        "    hotel_price = hotel_price / nights"
    ),
    "hotel_cost": (
        "minimize hotel_cost\n"
        "hotel_cost = 0\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'accommodation':\n"
        "        hotel_cost += activity_cost(activity)"
    ),
    "intercity_price": (
        "maximize intercity_price\n"
        "intercity_price = 0\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {INTERCITY}:\n"
        "        intercity_price += activity_price(activity)"
    ),
    "taxi_legs": (
        "minimize taxi_legs\n"
        "taxi_legs = 0\n"
        "for activity in allactivities(plan):\n"
        "    for leg in activity_transports(activity):\n"
        "        if innercity_transport_type([leg]) == 'taxi':\n"
        "            taxi_legs += 1"
    ),
    "vegetarian_meals": (
        "maximize vegetarian_meals\n"
        "vegetarian_meals = 0\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {MEALS}:\n"
        "        if restaurant_type(activity, target_city(plan)) == '素食':\n"
        "            vegetarian_meals += 1"
    ),
    "red_eye_flights": (
        "minimize red_eye_flights\n"
        "red_eye_flights = 0\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'airplane':\n"
        "        departure = activity_start_time(activity)\n"
        "        if departure >= '22:00' or departure < '06:00':\n"
        "            red_eye_flights += 1"
    ),
    "ticket_cost": (
        "minimize ticket_cost\n"
        "ticket_cost = 0\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'attraction':\n"
        "        ticket_cost += activity_cost(activity)"
    ),
    "restaurant_count": (
        "maximize restaurant_count\n"
        "places = set()\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {MEALS}:\n"
        "        places.add(activity_position(activity))\n"
        "restaurant_count = len(places)"
    ),
}
"""Preference programs by name; ``landmark_visits`` is built per city (it lists the landmarks)."""


def landmark_visits_program(landmarks: list[str]) -> str:
    """The ``landmark_visits`` preference over the city's ``landmarks``."""
    return (
        "maximize landmark_visits\n"
        "landmark_visits = 0\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'attraction':\n"
        f"        if activity_position(activity) in {literal_set(landmarks)}:\n"
        "            landmark_visits += 1"
    )

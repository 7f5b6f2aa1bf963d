"""Compile a problem skeleton into DSL constraint programs, glosses and preference programs.

Programs follow ChinaTravel's style (reference chinatravel-study §4.2): statements over ``plan``
and the concept functions (``allactivities``, ``activity_type``, ``activity_cost``,
``restaurant_type`` …) that leave a boolean in ``result``. Preferences are
``maximize X`` / ``minimize X`` followed by code computing ``X``. Each requirement is rendered
into its program, its gloss (``hard_logic_nl``) and its prompt phrase from the same parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

from navworld.tasks.spec import Skeleton
from navworld.tasks.vocab import requirement_phrases, vocab

__all__ = [
    "PREFERENCE_PROGRAMS",
    "CompiledRequirement",
    "compile_hard",
    "compile_preferences",
    "literal_set",
    "soft_phrase",
]

MEALS = "['breakfast', 'lunch', 'dinner']"
INTERCITY = "['airplane', 'train']"


def _lit(text: str) -> str:
    """A Python string literal (repr) for a program."""
    return repr(str(text))


def literal_set(items: list[str]) -> str:
    """A set literal with sorted, quoted items: ``{'a', 'b'}``."""
    return "{" + ", ".join(_lit(x) for x in sorted(set(items))) + "}"


@dataclass(frozen=True, slots=True)
class CompiledRequirement:
    """One hard requirement: its key, DSL program, gloss and prompt phrase per language."""

    code: str
    program: str
    gloss_zh: str
    gloss_en: str
    prompt_zh: str | None
    prompt_en: str | None

    def gloss(self, lang: str) -> str:
        """The gloss in ``lang``."""
        return self.gloss_zh if lang == "zh" else self.gloss_en

    def prompt(self, lang: str) -> str | None:
        """The prompt phrase in ``lang`` (``None`` when the opening already states it)."""
        return self.prompt_zh if lang == "zh" else self.prompt_en


def _budget(b: int) -> str:
    return (
        "total_cost = 0\n"
        "for activity in allactivities(plan):\n"
        "    total_cost += activity_cost(activity)\n"
        "    total_cost += innercity_transport_cost(activity_transports(activity))\n"
        f"result = total_cost <= {b}"
    )


def _arrival(t: str) -> str:
    return (
        "result = False\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {INTERCITY}:\n"
        f"        result = activity_end_time(activity) <= {_lit(t)}\n"
        "        break"
    )


def _no_red_eye() -> str:
    return (
        "result = True\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'airplane':\n"
        "        departure = activity_start_time(activity)\n"
        "        if departure >= '22:00' or departure < '06:00':\n"
        "            result = False"
    )


def _mode(mode: str) -> str:
    return (
        "modes = set()\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {INTERCITY}:\n"
        "        modes.add(activity_type(activity))\n"
        f"result = modes == {{{_lit(mode)}}}"
    )


def _must_visit(names: list[str]) -> str:
    return (
        "visited = set()\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'attraction':\n"
        "        visited.add(activity_position(activity))\n"
        f"result = {literal_set(names)} <= visited"
    )


def _cuisine(cuisines: list[str]) -> str:
    return (
        "eaten = set()\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {MEALS}:\n"
        "        eaten.add(restaurant_type(activity, target_city(plan)))\n"
        f"result = len(eaten & {literal_set(cuisines)}) > 0"
    )


def _hotel_feature(features: list[str]) -> str:
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


def _max_hotel_price(price: int) -> str:
    return (
        "result = True\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) == 'accommodation' and activity_price(activity) > {price}:\n"
        "        result = False"
    )


def _public_transport() -> str:
    return (
        "result = True\n"
        "for activity in allactivities(plan):\n"
        "    for leg in activity_transports(activity):\n"
        "        if innercity_transport_type([leg]) == 'taxi':\n"
        "            result = False"
    )


def _vegetarian(n: int, cuisine: str) -> str:
    return (
        "count = 0\n"
        "for activity in allactivities(plan):\n"
        f"    if activity_type(activity) in {MEALS}:\n"
        f"        if restaurant_type(activity, target_city(plan)) == {_lit(cuisine)}:\n"
        "            count += 1\n"
        f"result = count >= {n}"
    )


def _max_attractions(n: int) -> str:
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


def _finish_by(t: str) -> str:
    return (
        "result = True\n"
        "for activity in dayactivities(plan, day_count(plan)):\n"
        f"    if activity_end_time(activity) > {_lit(t)}:\n"
        "        result = False"
    )


def _req(code: str, program: str, lang_params: dict[str, dict[str, object]]) -> CompiledRequirement:
    phrases = requirement_phrases()["hard"][code]
    zh, en = lang_params["zh"], lang_params["en"]
    pz, pe = phrases["prompt_zh"], phrases["prompt_en"]
    return CompiledRequirement(
        code=code,
        program=program,
        gloss_zh=phrases["gloss_zh"].format(**zh),
        gloss_en=phrases["gloss_en"].format(**en),
        prompt_zh=pz.format(**zh) if pz else None,
        prompt_en=pe.format(**en) if pe else None,
    )


def _same(**params: object) -> dict[str, dict[str, object]]:
    return {"zh": params, "en": params}


def compile_hard(sk: Skeleton, city_zh: str, city_en: str) -> list[CompiledRequirement]:
    """The hard requirements of ``sk`` in a fixed order: budget, days, people, then the rest."""
    h = sk.hard
    out = [
        _req("budget", _budget(sk.budget), _same(budget=sk.budget)),
        _req("days", f"result = day_count(plan) == {sk.num_days}", _same(days=sk.num_days)),
        _req("people", f"result = people_count(plan) == {sk.group_size}", _same(people=sk.group_size)),
    ]
    if h.arrival_before:
        out.append(
            _req(
                "arrival_before",
                _arrival(h.arrival_before),
                {"zh": {"time": h.arrival_before, "dest": city_zh}, "en": {"time": h.arrival_before, "dest": city_en}},
            )
        )
    if h.no_red_eye:
        out.append(_req("no_red_eye", _no_red_eye(), _same()))
    if h.intercity_mode:
        out.append(_req(f"intercity_mode_{h.intercity_mode}", _mode(h.intercity_mode), _same()))
    for name in h.must_visit:
        out.append(_req("must_visit", _must_visit([name]), _same(landmark=name)))
    if h.cuisines:
        out.append(
            _req(
                "cuisine",
                _cuisine(h.cuisines),
                {"zh": {"cuisines": "或".join(h.cuisines)}, "en": {"cuisines": " or ".join(h.cuisines)}},
            )
        )
    if h.hotel_features:
        feats = requirement_phrases()["hotel_features"]
        zh_f = "”“".join(h.hotel_features)
        en_f = " and ".join(feats.get(f, f) for f in h.hotel_features)
        out.append(
            _req(
                "hotel_feature",
                _hotel_feature(h.hotel_features),
                {"zh": {"feature": zh_f}, "en": {"feature": zh_f, "feature_en": en_f}},
            )
        )
    if h.max_hotel_price is not None:
        out.append(_req("max_hotel_price", _max_hotel_price(h.max_hotel_price), _same(price=h.max_hotel_price)))
    if h.public_transport_only:
        out.append(_req("public_transport_only", _public_transport(), _same()))
    if h.vegetarian_meals > 0:
        veg = vocab().vegetarian_cuisine
        out.append(_req("vegetarian", _vegetarian(h.vegetarian_meals, veg), _same(n=h.vegetarian_meals)))
    if h.max_attractions_per_day is not None:
        n = h.max_attractions_per_day
        code = "max_attractions_one_day" if sk.num_days == 1 else "max_attractions_per_day"
        out.append(_req(code, _max_attractions(n), _same(n=n)))
    if h.finish_by:
        code = "finish_by_one_day" if sk.num_days == 1 else "finish_by"
        out.append(_req(code, _finish_by(h.finish_by), _same(time=h.finish_by)))
    return out


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


def _landmark_visits(landmarks: list[str]) -> str:
    return (
        "maximize landmark_visits\n"
        "landmark_visits = 0\n"
        "for activity in allactivities(plan):\n"
        "    if activity_type(activity) == 'attraction':\n"
        f"        if activity_position(activity) in {literal_set(landmarks)}:\n"
        "            landmark_visits += 1"
    )


def compile_preferences(names: list[str], landmarks: list[str]) -> list[str]:
    """Programs of the named preferences (unknown or inapplicable names are skipped)."""
    out: list[str] = []
    for name in names:
        if name == "landmark_visits":
            if landmarks:
                out.append(_landmark_visits(landmarks))
        elif name in PREFERENCE_PROGRAMS:
            out.append(PREFERENCE_PROGRAMS[name])
    return out


def soft_phrase(item: str, lang: str) -> str | None:
    """The wish phrase of a soft item in ``lang`` (``None`` when it has none)."""
    entry = requirement_phrases()["soft"].get(item)
    if entry is None:
        return None
    return str(entry[lang])

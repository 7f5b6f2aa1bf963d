"""Per-type skeleton builders (the seven problem types of seed §4.1).

Each builder draws, from the task's RNG, the cities, dates, group, interests, constraints and
type-specific requests of one problem type, and returns a :class:`Skeleton` - or ``None`` when
the draw turned out unusable (e.g. no services on that date), in which case the generator draws
again from the same RNG stream (so the result stays deterministic).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from navworld.tasks.coherence import (
    inject_conflicts,
    pick_constraints,
    pick_date,
    pick_group,
    pick_interests,
)
from navworld.tasks.knowledge import CityFacts, all_profiles, city_names, profile
from navworld.tasks.pairs import (
    BASE_TOOLS,
    CityPair,
    day_trip_pairs,
    pairs_with_both_modes,
    transport_modes,
    transport_tools,
)
from navworld.tasks.spec import Skeleton
from navworld.tasks.vocab import contradicts, vocab

if TYPE_CHECKING:  # pragma: no cover
    from navworld.tasks.generator import ProblemGenerator

__all__ = ["BUILDERS", "Builder"]

ALL_TOOLS = ["poi_search", "around_search", "direction", "weather", "search_flights", "search_train_tickets"]
LOCAL_TOOLS = ["poi_search", "around_search", "direction", "weather"]
INTERCITY_CLASS_WEIGHTS = (("short", 4), ("medium", 4), ("long", 2))
PRESSURE_ARRIVALS = ("09:00", "10:00")
RELAXED_ARRIVALS = ("12:00", "15:00")

Builder = Callable[["ProblemGenerator", random.Random, Skeleton], "Skeleton | None"]


def _days(r: random.Random, sk: Skeleton) -> int:
    return r.choice(vocab().days[sk.problem_type][str(sk.difficulty)])


def _level(r: random.Random, sk: Skeleton) -> str:
    return r.choice(vocab().levels[sk.problem_type])


def _set_pair(sk: Skeleton, pair: CityPair, modes: tuple[str, ...]) -> None:
    sk.origin, sk.destination = pair.origin, pair.destination
    sk.distance_class, sk.distance_km, sk.modes = pair.distance_class, pair.km, modes


def _common_trip(gen: ProblemGenerator, r: random.Random, sk: Skeleton) -> CityFacts:
    """Days, dates, group and budget level (in this order)."""
    sk.num_days = _days(r, sk)
    sk.travel_date, sk.return_date = pick_date(r, profile(sk.destination), sk.num_days)
    sk.group_type, sk.group_size = pick_group(r, sk.problem_type)
    sk.budget_level = _level(r, sk)
    return gen.kg.facts(sk.destination)


def _usable(sk: Skeleton, facts: CityFacts) -> Callable[[str], bool]:
    """Whether a conflict item can be honoured at all in this city (soft items included)."""
    veg = vocab().vegetarian_cuisine

    def ok(item: str) -> bool:
        if item == "素食要求":
            return facts.cuisine_count(veg) > 0 and sk.food_theme != "素食禅意料理"
        return True

    return ok


def _maybe_landmark(r: random.Random, sk: Skeleton, facts: CityFacts, chance: float) -> None:
    if facts.landmarks and r.random() < chance:
        sk.hard.must_visit.append(r.choice(facts.landmarks))


def _maybe_local_cuisine(r: random.Random, sk: Skeleton, facts: CityFacts, chance: float) -> None:
    local = profile(sk.destination).local_cuisine
    if r.random() < chance and local and facts.cuisine_count(local) > 0:
        sk.hard.cuisines = [local]
        sk.hard.cuisine_label = "local"


def _maybe_hotel_cap(r: random.Random, sk: Skeleton, chance: float) -> None:
    if sk.nights > 0 and r.random() < chance:
        sk.notes["hotel_cap"] = True


def _maybe_mode(r: random.Random, sk: Skeleton, chance: float) -> None:
    if len(sk.modes) == 2 and r.random() < chance:
        mode = r.choice(sk.modes)
        if not (mode == "train" and "不乘坐红眼航班" in sk.constraints):
            sk.hard.intercity_mode = mode


def _finish_by(r: random.Random, sk: Skeleton) -> None:
    if sk.profile.time_pressure:
        sk.hard.finish_by = r.choice(("16:00", "17:00"))


def build_intercity(gen: ProblemGenerator, r: random.Random, sk: Skeleton) -> Skeleton | None:
    """A same-day round trip between two cities (1 day); transport tools by distance class."""
    classes, weights = zip(*INTERCITY_CLASS_WEIGHTS, strict=True)
    cls = r.choices(classes, weights)[0]
    pair = r.choice(day_trip_pairs(cls))
    modes = transport_modes(cls)
    _set_pair(sk, pair, modes)
    sk.required_tools = list(BASE_TOOLS) + transport_tools(modes)
    facts = _common_trip(gen, r, sk)
    sk.preference = r.choice(list(vocab().intercity_preferences))
    if sk.profile.time_pressure and r.random() < 0.5:
        sk.preference = "速度优先"
    if sk.difficulty >= 2:
        pick_constraints(r, sk, facts, r.randint(0, 1), ("不乘坐红眼航班", "公共交通优先", "避开人群"))
    inject_conflicts(r, sk, sk.profile.constraint_conflicts, _usable(sk, facts))
    if sk.profile.time_pressure:
        sk.hard.arrival_before = r.choice(PRESSURE_ARRIVALS)
    elif r.random() < 0.75:
        sk.hard.arrival_before = r.choice(RELAXED_ARRIVALS)
    _maybe_mode(r, sk, 0.3)
    return sk


def build_multiday(gen: ProblemGenerator, r: random.Random, sk: Skeleton) -> Skeleton | None:
    """A multi-day tour of one city (no intercity legs)."""
    sk.destination = r.choice(city_names())
    sk.required_tools = list(LOCAL_TOOLS)
    facts = _common_trip(gen, r, sk)
    prof = profile(sk.destination)
    sk.interests = pick_interests(r, prof, sk.group_type, r.randint(3, 5))
    pick_constraints(r, sk, facts, r.randint(0, min(sk.difficulty, 2)))
    inject_conflicts(r, sk, sk.profile.constraint_conflicts, _usable(sk, facts))
    _maybe_landmark(r, sk, facts, 0.5)
    _maybe_local_cuisine(r, sk, facts, 0.4)
    if sk.group_type == "family" and r.random() < 0.3:
        sk.notes["family_hotel"] = True
    _maybe_hotel_cap(r, sk, 0.25 if sk.difficulty >= 2 else 0.0)
    _finish_by(r, sk)
    return sk


def build_hybrid(gen: ProblemGenerator, r: random.Random, sk: Skeleton) -> Skeleton | None:
    """A multi-day trip from another city: round-trip transport plus a full itinerary."""
    pair = r.choice(pairs_with_both_modes())
    _set_pair(sk, pair, ("airplane", "train"))
    sk.required_tools = list(ALL_TOOLS)
    facts = _common_trip(gen, r, sk)
    prof = profile(sk.destination)
    sk.interests = pick_interests(r, prof, sk.group_type, r.randint(3, 5))
    pick_constraints(r, sk, facts, r.randint(0, 2))
    if sk.profile.time_pressure:
        options = [p for p in ("速度优先", "舒适优先") if not any(p == i for i in sk.all_items())]
        choice = r.choice(options) if options else None
        if choice and not any(contradicts(choice, i) for i in sk.all_items()):
            sk.preference = choice
    inject_conflicts(r, sk, sk.profile.constraint_conflicts, _usable(sk, facts))
    if sk.profile.time_pressure:
        sk.hard.arrival_before = r.choice(("10:00", "12:00"))
    _maybe_mode(r, sk, 0.25)
    _maybe_landmark(r, sk, facts, 0.5)
    _maybe_local_cuisine(r, sk, facts, 0.4)
    return sk


def build_single_poi(gen: ProblemGenerator, r: random.Random, sk: Skeleton) -> Skeleton | None:
    """One landmark and its surroundings in a day."""
    sk.destination = r.choice(city_names())
    facts = gen.kg.facts(sk.destination)
    if not facts.landmarks:
        return None
    sk.landmark = r.choice(facts.landmarks)
    sk.required_tools = list(LOCAL_TOOLS)
    facts = _common_trip(gen, r, sk)
    prof = profile(sk.destination)
    focus = [f for f in vocab().single_poi_focus if prof.supports(f)]
    sk.interests = pick_interests(r, prof, sk.group_type, 1, pool=focus or None)
    if sk.difficulty >= 2:
        pick_constraints(r, sk, facts, r.randint(0, 1), ("避开人群", "无障碍通道", "轻松休闲"))
    inject_conflicts(r, sk, sk.profile.constraint_conflicts, _usable(sk, facts))
    sk.hard.must_visit = [sk.landmark]
    if sk.profile.time_pressure:
        sk.hard.finish_by = _landmark_finish(facts, sk.landmark, r.choice(("17:00", "18:00")))
    return sk


def _landmark_finish(facts: CityFacts, landmark: str, wanted: str) -> str | None:
    """``wanted`` if the landmark can be visited (plus travel) before it, else a later hour or None."""
    open_, _close, hours = facts.landmark_hours[landmark]
    oh, _, om = open_.partition(":")
    earliest = int(oh) * 60 + int(om or 0) + int(hours * 60) + 120
    for candidate in (wanted, "18:00", "19:00", "20:00"):
        ch, _, cm = candidate.partition(":")
        if int(ch) * 60 + int(cm) >= earliest and candidate >= wanted:
            return candidate
    return None


def build_food_tour(gen: ProblemGenerator, r: random.Random, sk: Skeleton) -> Skeleton | None:
    """A food tour of one city around a food theme the city is known for."""
    theme = r.choice(list(vocab().food_themes))
    cities = [p.name for p in all_profiles() if theme in p.food_themes]
    if not cities:
        return None
    sk.destination = r.choice(cities)
    sk.food_theme = theme
    sk.required_tools = list(LOCAL_TOOLS)
    facts = _common_trip(gen, r, sk)
    prof = profile(sk.destination)
    cuisines = list(facts.theme_cuisines.get(theme, ()))
    if cuisines:
        sk.hard.cuisines, sk.hard.cuisine_label = cuisines, theme
    elif facts.cuisine_count(prof.local_cuisine) > 0:
        sk.hard.cuisines, sk.hard.cuisine_label = [prof.local_cuisine], "local"
    extras = [e for e in vocab().food_tour_extras if prof.supports(e)]
    n_extra = 2 if sk.difficulty >= 2 else 1
    sk.interests = pick_interests(r, prof, sk.group_type, 1 + n_extra, first=("美食探店",), pool=["美食探店", *extras])
    if r.random() < 0.3:
        pick_constraints(r, sk, facts, 1)
    inject_conflicts(r, sk, sk.profile.constraint_conflicts, _usable(sk, facts))
    _finish_by(r, sk)
    return sk


def build_business(gen: ProblemGenerator, r: random.Random, sk: Skeleton) -> Skeleton | None:
    """A business trip from another city: transport comparison, hotels, meals, costs."""
    pair = r.choice(pairs_with_both_modes())
    _set_pair(sk, pair, ("airplane", "train"))
    sk.required_tools = ["poi_search", "direction", "weather", "search_flights", "search_train_tickets"]
    facts = _common_trip(gen, r, sk)
    sk.purpose = r.choice(list(vocab().business_purposes))
    if sk.difficulty >= 2:
        pick_constraints(r, sk, facts, 1, ("不乘坐红眼航班", "公共交通优先"))
    if sk.profile.time_pressure and not any(contradicts("速度优先", i) for i in sk.all_items()):
        sk.preference = "速度优先"
    inject_conflicts(r, sk, sk.profile.constraint_conflicts, _usable(sk, facts))
    if sk.profile.time_pressure:
        sk.hard.arrival_before = r.choice(PRESSURE_ARRIVALS)
    elif r.random() < 0.5:
        sk.hard.arrival_before = r.choice(("12:00", "15:00", "18:00"))
    _maybe_mode(r, sk, 0.3)
    _maybe_hotel_cap(r, sk, 0.5)
    return sk


def build_family_study(gen: ProblemGenerator, r: random.Random, sk: Skeleton) -> Skeleton | None:
    """A family study trip around a theme the city supports."""
    cities = [p.name for p in all_profiles() if p.study_themes]
    sk.destination = r.choice(cities)
    prof = profile(sk.destination)
    sk.study_theme = r.choice(prof.study_themes)
    sk.required_tools = list(LOCAL_TOOLS)
    facts = _common_trip(gen, r, sk)
    theme_specialties = list(vocab().study_themes[sk.study_theme]["specialties"])
    count = 3 if sk.difficulty >= 2 else 2
    first = ("亲子游乐", *[s for s in theme_specialties if prof.supports(s)][:1])
    sk.interests = pick_interests(r, prof, sk.group_type, count, first=first)
    if r.random() < 0.5:
        pick_constraints(r, sk, facts, 1, ("无障碍通道",))
    if sk.difficulty >= 3:
        pick_constraints(r, sk, facts, 1)
    if r.random() < 0.4:
        sk.notes["family_hotel"] = True
    inject_conflicts(r, sk, sk.profile.constraint_conflicts, _usable(sk, facts))
    _maybe_landmark(r, sk, facts, 0.4)
    _finish_by(r, sk)
    return sk


BUILDERS: dict[str, Builder] = {
    "intercity": build_intercity,
    "multiday": build_multiday,
    "hybrid": build_hybrid,
    "single_poi": build_single_poi,
    "food_tour": build_food_tour,
    "business": build_business,
    "family_study": build_family_study,
}

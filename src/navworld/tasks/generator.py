"""The deterministic problem generator: ``ProblemGenerator().generate(task_id, lang)``.

``task_id % 7`` picks the type, ``(task_id // 7) % 3 + 1`` the difficulty, and everything else
comes from ``rng("task", GENERATOR_VERSION, task_id)``. Budget floors and transport feasibility
are read from the world (POIs depend on the world version, transport on its salt), so a problem
is a function of ``(task_id, GENERATOR_VERSION, WORLD_VERSION, salt)``.

Pipeline: builder (type-specific draws, :mod:`navworld.tasks.builders`) → finalize (hard facts
from constraints, transport feasibility, hotel cap, budget floor and budget) → compile (DSL
programs and glosses) → render (prompt) → :class:`~navworld.core.problem.Problem`.
"""

from __future__ import annotations

import math
import operator
import random
from functools import cache
from typing import Any

from navworld.core.errors import TaskError
from navworld.core.problem import PROBLEM_TYPES, DifficultyProfile, Problem
from navworld.core.seeding import rng
from navworld.core.versions import GENERATOR_VERSION, WORLD_VERSION
from navworld.tasks.budget import (
    ATTRACTIONS_PER_DAY,
    LOCAL_TRANSPORT_PER_PERSON_DAY,
    BudgetCalculator,
    TransportOption,
    final_budget,
)
from navworld.tasks.builders import BUILDERS
from navworld.tasks.coherence import vegetarian_needed
from navworld.tasks.compile import compile_hard, compile_preferences
from navworld.tasks.knowledge import KnowledgeGraph
from navworld.tasks.prompts import LANGS, city_label, render_prompt, system_prompt
from navworld.tasks.spec import Skeleton
from navworld.tasks.vocab import requirement_phrases, vocab

__all__ = ["DIFFICULTY_PROFILES", "MAX_TASK_ID", "ProblemGenerator", "check_task_id", "difficulty_profile"]

MAX_TASK_ID = 10**9
MAX_ATTEMPTS = 40
ARRIVAL_STEPS = ("09:00", "10:00", "11:00", "12:00", "13:00", "15:00", "18:00")
"""An arrival time the timetable cannot meet is relaxed to the next of these (then dropped)."""
TRANSPORT_LEVEL_FACTOR = {"budget": 1.0, "economy": 1.0, "comfort": 1.5, "luxury": 2.0}

DIFFICULTY_PROFILES: dict[int, tuple[float, int, bool | None]] = {
    1: (0.5, 1, False),
    2: (0.75, 2, None),  # time pressure possible: drawn per task
    3: (0.95, 3, True),
}
"""Seed §4.3: difficulty → (constraint_tightness, constraint_conflicts, time_pressure)."""


def check_task_id(task_id: object) -> int:
    """Return ``task_id`` as an int, or raise :class:`TaskError` with a clear reason."""
    if isinstance(task_id, bool) or isinstance(task_id, float | str | bytes):
        raise TaskError(f"task id must be an integer, got {type(task_id).__name__} {task_id!r}")
    try:
        value = operator.index(task_id)  # type: ignore[call-overload]
    except TypeError:
        raise TaskError(f"task id must be an integer, got {type(task_id).__name__}") from None
    if value < 0:
        raise TaskError(f"task id must be ≥ 0, got {value}")
    if value > MAX_TASK_ID:
        raise TaskError(f"task id must be ≤ {MAX_TASK_ID}, got {value}")
    return value


@cache
def _profile(tightness: float, conflicts: int, pressure: bool) -> DifficultyProfile:
    return DifficultyProfile(constraint_tightness=tightness, constraint_conflicts=conflicts, time_pressure=pressure)


def difficulty_profile(difficulty: int, r: random.Random) -> DifficultyProfile:
    """The profile of a difficulty level; level 2 draws its time pressure from ``r``."""
    tightness, conflicts, pressure = DIFFICULTY_PROFILES[difficulty]
    draw = r.random()
    return _profile(tightness, conflicts, pressure if pressure is not None else draw < 0.5)


def _ceil(x: float) -> int:
    return math.ceil(x - 1e-9)


class ProblemGenerator:
    """Generates :class:`Problem` objects from task ids, reading prices from a world.

    ``world`` defaults to a :class:`~navworld.world.sandbox.SandboxWorld` with the current salt;
    pass one with an explicit salt for reproducible budgets across weeks.
    """

    def __init__(self, world: Any | None = None) -> None:
        if world is None:
            from navworld.world.sandbox import SandboxWorld

            world = SandboxWorld()
        self.world = world
        self.kg = KnowledgeGraph(world)
        self.calc = BudgetCalculator(world, self.kg)

    @property
    def salt(self) -> str:
        """The salt of the world the budgets come from."""
        return str(getattr(self.world, "salt", ""))

    # -- public --------------------------------------------------------------------------------
    def generate(self, task_id: int, lang: str = "zh") -> Problem:
        """The problem of ``task_id`` in ``lang`` (``zh`` or ``en``)."""
        tid = check_task_id(task_id)
        if lang not in LANGS:
            raise TaskError(f"lang must be one of {', '.join(LANGS)}, got {lang!r}")
        return self._assemble(self.skeleton(tid), lang)

    def skeleton(self, task_id: int) -> Skeleton:
        """The language-independent skeleton of ``task_id``."""
        tid = check_task_id(task_id)
        ptype = PROBLEM_TYPES[tid % 7]
        difficulty = (tid // 7) % 3 + 1
        r = rng("task", GENERATOR_VERSION, tid)
        prof = difficulty_profile(difficulty, r)
        builder = BUILDERS[ptype]
        for _ in range(MAX_ATTEMPTS):
            sk = Skeleton(task_id=tid, problem_type=ptype, difficulty=difficulty, profile=prof, destination="")
            built = builder(self, r, sk)
            if built is not None and self._finalize(r, built):
                return built
        raise TaskError(f"task {tid}: no feasible {ptype} problem after {MAX_ATTEMPTS} draws (generator bug)")

    # -- finalize ----------------------------------------------------------------------------
    def _harden(self, sk: Skeleton) -> None:
        """Turn non-conflicting constraints into hard facts; the rest become wishes."""
        v = vocab()
        h = sk.hard
        in_conflict = sk.conflict_items()
        for item in sk.constraints:
            feature = v.hotel_feature_of.get(item)
            if item in in_conflict:
                sk.soft.append(item)
            elif item == "公共交通优先":
                h.public_transport_only = True
            elif feature is not None and sk.nights > 0:
                h.hotel_features.append(feature)
            elif item == "素食要求":
                h.vegetarian_meals = vegetarian_needed(sk.num_days)
            elif item == "不乘坐红眼航班" and "airplane" in sk.modes:
                h.no_red_eye = True
            elif item == "轻松休闲":
                h.max_attractions_per_day = 2
            else:
                sk.soft.append(item)
        if sk.notes.get("family_hotel") and sk.nights > 0:
            facts = self.kg.facts(sk.destination)
            wanted = frozenset([*h.hotel_features, v.family_hotel_feature])
            if facts.hotels_with(wanted):
                h.hotel_features.append(v.family_hotel_feature)

    def _fit_transport(self, sk: Skeleton) -> tuple[TransportOption, TransportOption] | None:
        """Cheapest feasible round trip; drops a drawn mode before relaxing the arrival time."""
        h = sk.hard
        if len(sk.modes) == 2:  # both tools are asked for: both must have services that day
            for mode in sk.modes:
                if not self.calc.options(sk.travel_date, sk.origin, sk.destination, (mode,)):
                    return None
        wanted = h.arrival_before
        arrivals: list[str | None] = [wanted] if wanted else [None]
        if wanted:
            arrivals += [a for a in ARRIVAL_STEPS if a > wanted] + [None]
        mode_options: list[str | None] = [h.intercity_mode, None] if h.intercity_mode else [None]
        for arrive in arrivals:
            for mode in mode_options:
                modes = (mode,) if mode else sk.modes
                rt = self.calc.round_trip(
                    sk.travel_date,
                    sk.return_date,
                    sk.origin,
                    sk.destination,
                    modes,
                    arrive_by=arrive,
                    no_red_eye=h.no_red_eye,
                )
                if rt is not None:
                    h.arrival_before, h.intercity_mode = arrive, mode
                    return rt
        return None

    def _finalize(self, r: random.Random, sk: Skeleton) -> bool:
        """Hard facts, feasibility, floor and budget; ``False`` if the draw is unusable."""
        self._harden(sk)
        h = sk.hard
        facts = self.kg.facts(sk.destination)
        people, days, nights = sk.group_size, sk.num_days, sk.nights
        breakdown: dict[str, int] = {}

        transport = 0.0
        if sk.origin:
            rt = self._fit_transport(sk)
            if rt is None:
                return False
            transport = (rt[0].price + rt[1].price) * people
        breakdown["transport"] = _ceil(transport)

        hotel = 0.0
        if nights > 0:
            hotels = self.calc.suitable_hotels(facts, h.hotel_features, None)
            if not hotels:
                return False
            if sk.notes.get("hotel_cap"):
                prices = sorted(x.price for x in hotels)
                h.max_hotel_price = int(math.ceil(prices[len(prices) // 3] / 50.0) * 50)
                hotels = self.calc.suitable_hotels(facts, h.hotel_features, h.max_hotel_price)
            cost = self.calc.hotel_floor(facts, h.hotel_features, h.max_hotel_price, people, nights)
            if cost is None:
                return False
            hotel = cost
        breakdown["hotel"] = _ceil(hotel)

        veg = vocab().vegetarian_cuisine
        meals = self.calc.meal_floor(facts, days, people, h.cuisines, h.vegetarian_meals, veg)
        if meals is None:
            return False
        breakdown["meals"] = _ceil(meals)
        planned = max(len(h.must_visit), ATTRACTIONS_PER_DAY * days)
        breakdown["tickets"] = _ceil(self.calc.ticket_floor(facts, h.must_visit, planned, people))
        breakdown["local_transport"] = LOCAL_TRANSPORT_PER_PERSON_DAY * days * people
        floor = sum(breakdown.values())

        lo, hi = vocab().budget_levels[sk.budget_level]["per_day"]
        per_day = r.randint(lo // 10, hi // 10) * 10
        level_budget = per_day * days * people + transport * TRANSPORT_LEVEL_FACTOR[sk.budget_level]
        sk.budget = final_budget(floor, level_budget, sk.profile.constraint_tightness)
        sk.budget_floor = floor
        sk.floor_breakdown = breakdown
        sk.preference_names = self._preference_names(sk)
        return True

    def _preference_names(self, sk: Skeleton) -> list[str]:
        soft = requirement_phrases()["soft"]
        names = list(requirement_phrases()["type_preferences"][sk.problem_type])
        items = list(sk.soft)
        if sk.preference:
            items.append(sk.preference)
        items += [i for i in sk.interests if i in sk.conflict_items()]
        for item in items:
            name = soft.get(item, {}).get("pref")
            if name == "hotel_price" and sk.nights == 0:
                name = "intercity_price" if sk.origin else None
            elif name == "hotel_cost" and sk.nights == 0:
                name = "total_cost"
            if name and name not in names:
                names.append(name)
        return names

    # -- assemble ----------------------------------------------------------------------------
    def _extra(self, sk: Skeleton) -> dict[str, Any]:
        h = sk.hard
        return {
            "must_visit": list(h.must_visit),
            "required_cuisines": list(h.cuisines),
            "cuisine_source": h.cuisine_label,
            "hotel_features": list(h.hotel_features),
            "hotel_feature": h.hotel_features[0] if h.hotel_features else None,
            "max_hotel_price": h.max_hotel_price,
            "arrival_before": h.arrival_before,
            "no_red_eye": h.no_red_eye,
            "intercity_mode": h.intercity_mode,
            "intercity_modes": list(sk.modes),
            "public_transport_only": h.public_transport_only,
            "vegetarian": h.vegetarian_meals > 0,
            "vegetarian_meals": h.vegetarian_meals,
            "max_attractions_per_day": h.max_attractions_per_day,
            "finish_by": h.finish_by,
            "return_date": sk.return_date,
            "day_trip": bool(sk.origin) and sk.num_days == 1,
            "landmark": sk.landmark or None,
            "food_theme": sk.food_theme or None,
            "study_theme": sk.study_theme or None,
            "purpose": sk.purpose or None,
            "distance_km": sk.distance_km if sk.origin else None,
            "soft": list(sk.soft),
            "preference_names": list(sk.preference_names),
            "budget_floor": sk.budget_floor,
            "floor_breakdown": dict(sk.floor_breakdown),
            "world_version": WORLD_VERSION,
            "salt": self.salt,
        }

    def _assemble(self, sk: Skeleton, lang: str) -> Problem:
        dest = sk.destination
        requirements = compile_hard(sk, city_label(dest, "zh"), city_label(dest, "en"))
        landmarks = list(self.kg.facts(dest).landmarks)
        h = sk.hard
        return Problem(
            task_id=sk.task_id,
            problem_type=sk.problem_type,  # type: ignore[arg-type]
            origin_city=sk.origin,
            destination_city=dest,
            travel_date=sk.travel_date,
            num_days=sk.num_days,
            budget=sk.budget,
            arrival_constraint=f"{h.arrival_before}前到达" if h.arrival_before else None,
            preference=sk.preference,
            group_type=sk.group_type,
            group_size=sk.group_size,
            interests=list(sk.interests),
            constraints=list(sk.constraints),
            required_tools=list(sk.required_tools),
            difficulty=sk.difficulty,
            budget_level=sk.budget_level,
            difficulty_profile=sk.profile,
            distance_class=sk.distance_class,
            prompt=render_prompt(sk, requirements, lang),
            system_prompt=system_prompt(lang),
            hard_logic=[req.program for req in requirements],
            hard_logic_nl=[req.gloss(lang) for req in requirements],
            preferences=compile_preferences(sk.preference_names, landmarks),
            conflicts=list(sk.conflicts),
            lang=lang,  # type: ignore[arg-type]
            extra=self._extra(sk),
            generator_version=GENERATOR_VERSION,
        )

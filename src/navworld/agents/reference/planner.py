"""The trip search: transport × hotel × days, with backtracking, budget and full verification.

For each tuning (normal, then frugal, then lean), each ranked outbound/return pair and each
ranked hotel, the days are scheduled twice: first with every restaurant of the city (to learn
where the traveller will be at meal times), then only with restaurants that the planned
searches return (``poi_search`` keywords plus ``around_search`` at the places found in the
first pass), so every POI of the final plan is grounded in a tool result of the episode. A
candidate is accepted when it fits the budget and passes ``verify_plan`` (every environment
check and every constraint program); otherwise the search moves on. The result types live in
:mod:`.outcome`, the day frames in :mod:`.trip_days` and the choice of directions calls in
:mod:`.directions`.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

from navworld.agents.reference.brief import VEGETARIAN_CUISINE, read_brief
from navworld.agents.reference.day import DayPlanner, DaySpec, PlanCtx, TripState
from navworld.agents.reference.directions import MAX_DIRECTIONS as MAX_DIRECTIONS
from navworld.agents.reference.directions import choose_directions
from navworld.agents.reference.model import Mover, Place, Policy, Stop
from navworld.agents.reference.options import (
    Service,
    attraction_keywords,
    attraction_values,
    hotel_options,
    hotel_query,
    restaurant_keywords,
    services,
    transport_pairs,
    upgrade_options,
)
from navworld.agents.reference.outcome import (
    TUNINGS,
    UPGRADE_SHARE,
    Outcome,
    PlanningError,
    Tuning,
    is_adequate,
    plan_dict,
    plan_total,
    richness,
    upgrade_seats,
)
from navworld.agents.reference.pools import Around, CityPool, Searcher, city_pool
from navworld.agents.reference.trip_days import DAY_END as DAY_END
from navworld.agents.reference.trip_days import DAY_START as DAY_START
from navworld.agents.reference.trip_days import HOTEL_LATEST as HOTEL_LATEST
from navworld.agents.reference.trip_days import attraction_target, day_specs, meal_cap
from navworld.core.geo import LngLat
from navworld.core.models import Poi
from navworld.core.problem import Problem
from navworld.dsl.world_view import lookup_for
from navworld.verify import verify_plan

__all__ = ["Outcome", "PlanningError", "TripPlanner", "Tuning"]

log = logging.getLogger(__name__)

MAX_POI_SEARCHES = 10
MAX_AROUND = 6


@dataclass
class _Attempt:
    days: list[list[Stop]]
    state: TripState
    poi_queries: list[str]
    around: list[Around]


class TripPlanner:
    """Plans one problem in one world (the sandbox sync API)."""

    def __init__(self, problem: Problem, world: Any) -> None:
        for attr in ("pois", "search_pois", "nearby_pois", "route", "flight_list", "train_list", "find_poi"):
            if not hasattr(world, attr):
                raise PlanningError(f"the reference planner needs the sandbox world's sync API (missing {attr})")
        self.problem = problem
        self.world = world
        self.brief = read_brief(problem)
        self.lookup = lookup_for(world)
        self.pool: CityPool = city_pool(world, self.brief.dest)
        self.searcher = Searcher(world, self.brief.dest, self.pool)
        try:
            city = world.city(self.brief.dest)
            self.landmarks = {lm.name for lm in city.landmarks}
            self.local_cuisine = city.local_cuisine
        except Exception:
            self.landmarks, self.local_cuisine = set(), ""
        b = self.brief
        self.must = [self.pool.by_name[n] for n in b.must_visit if n in self.pool.by_name]
        limit = MAX_POI_SEARCHES - (1 if b.nights else 0)
        attr_words = attraction_keywords(b)
        rest_words = restaurant_keywords(b, self.local_cuisine, breakfast=True)
        musts = [w for w in attr_words if w in b.must_visit]
        special = [w for w in rest_words if w in b.cuisines or w == VEGETARIAN_CUISINE]
        ordered = list(dict.fromkeys(musts + special + attr_words + rest_words))[:limit]
        self.attr_words = [w for w in ordered if w in attr_words]
        self.rest_words = [w for w in ordered if w in rest_words and w not in self.attr_words]
        self.words = ordered
        self.attr_pool: list[Poi] = []
        self.rest_pool: list[Poi] = []
        self.reasons: list[str] = []
        self.listed: tuple[list[Service], list[Service]] = ([], [])

    # ---------------------------------------------------------------------------- helpers
    async def _collect(self, words: list[str], kind: str) -> list[Poi]:
        seen: dict[str, Poi] = {}
        for w in words:
            for p in (await self.searcher.poi_search(w)).pois:
                if p.kind == kind and p.name not in seen:
                    seen[p.name] = p
        return list(seen.values())

    def _focus(self, values: dict[str, float]) -> LngLat:
        if self.must:
            return self.must[0].location
        top = sorted(self.attr_pool, key=lambda p: (-values.get(p.name, 0.0), p.name))[:6]
        if not top:
            return self.pool.center
        return (sum(p.location[0] for p in top) / len(top), sum(p.location[1] for p in top) / len(top))

    def _schedule(self, ctx: PlanCtx, specs: list[DaySpec]) -> tuple[list[list[Stop]], TripState] | None:
        b = self.brief
        state = TripState(pending_must=list(self.must))
        planner = DayPlanner(ctx)
        days: list[list[Stop]] = []
        for spec in specs:
            got = planner.plan(spec, state)
            if got is None:
                self.reasons.append(f"day {spec.index + 1} could not be framed")
                return None
            days.append(got.stops)
            state = got.state
        if state.pending_must:
            self.reasons.append("must-visit not placed: " + ", ".join(p.name for p in state.pending_must))
            return None
        if b.cuisines and state.cuisine_meals == 0:
            self.reasons.append("no meal of the required cuisine")
            return None
        if state.veg_meals < b.vegetarian_meals:
            self.reasons.append("too few vegetarian meals")
            return None
        return days, state

    async def _centres(self, days: list[list[Stop]], hotel: Poi | None) -> list[Around]:
        """Around-search centres covering as many first-pass restaurants as possible."""
        meals = [s.place.poi for day in days for s in day
                 if s.kind in ("breakfast", "lunch", "dinner") and s.place is not None and s.place.poi is not None]
        missing = {p.name for p in meals} - {p.name for p in self.rest_pool}
        cands: list[tuple[LngLat, str]] = []
        if hotel is not None:
            cands.append((hotel.location, hotel.name))
        cands += [(p.location, p.name) for p in meals if p.name in missing]
        cands = list(dict.fromkeys(cands))
        extra = 1 if self.brief.problem_type == "single_poi" and self.must else 0
        chosen: list[Around] = []
        covered: set[str] = set()
        while len(chosen) < MAX_AROUND - extra and cands:
            best: Around | None = None
            best_gain = 0
            for loc, label in cands:
                around, hits = await self.searcher.around_wide(loc, "餐厅", label, 5)
                gain = len(({p.name for p in hits.pois} & missing) - covered)
                if hotel is not None and label == hotel.name and not chosen:
                    gain += 1  # the hotel's neighbourhood serves breakfasts and late dinners
                if gain > best_gain:
                    best, best_gain = around, gain
            if best is None:
                break
            chosen.append(best)
            covered |= {p.name for p in (await self.searcher.around_search(best.loc, best.keyword, best.radius)).pois}
            cands.remove((best.loc, best.label))
        if not chosen:
            sights = [s.place for day in days for s in day if s.kind == "attraction" and s.place is not None]
            anchor = sights[0] if sights else (Place.of(meals[0]) if meals else None)
            if anchor is not None:
                chosen.append((await self.searcher.around_wide(anchor.loc, "餐厅", anchor.name, 5))[0])
        if extra:
            chosen.append((await self.searcher.around_wide(self.must[0].location, "景点", self.must[0].name, 3))[0])
        return chosen

    # ----------------------------------------------------------------------------- attempt
    async def _attempt(self, go: Service | None, back: Service | None, hotel: Poi | None, tuning: Tuning) -> _Attempt | None:
        b = self.brief
        fast = b.prefers("travel_time") and not b.prefers("taxi_legs") and not tuning.frugal
        policy = Policy(public_only=b.public_only, fast=fast, frugal=tuning.frugal or b.prefers("taxi_legs"),
                        modes=frozenset(b.inner_modes))
        mover = Mover(self.lookup, b.dest, b.people, policy)
        values = attraction_values(self.pool, b, self.landmarks, tuning.frugal)
        attractions = list(self.attr_pool)
        allowance: float | None = None
        if b.budget is not None:
            fixed = (go.price + back.price) * b.people if go is not None and back is not None else 0.0
            if hotel is not None:
                fixed += (hotel.cost or 0.0) * math.ceil(b.people / max(1, hotel.beds or 1)) * b.nights
            allowance = b.budget - fixed
            if allowance < 0:
                self.reasons.append(f"{tuning.name}: fares and hotel alone exceed the budget")
                return None
        ctx = PlanCtx(b, mover, attractions, list(self.pool.restaurants), values, attraction_target(b, tuning),
                      tuning.frugal, meal_cap(self.pool.restaurants, tuning), avoid=self.pool.shared,
                      allowance=allowance, pace=tuning.frugal)
        specs = day_specs(b, go, back, hotel, tuning, self.must, self.pool.center)
        first = self._schedule(ctx, specs)
        if first is None:
            return None
        around = await self._centres(first[0], hotel)
        restaurants: dict[str, Poi] = {p.name: p for p in self.rest_pool}
        for a in around:
            for p in (await self.searcher.around_search(a.loc, a.keyword, a.radius)).pois:
                if p.kind == "restaurant" and p.cost is not None:
                    restaurants.setdefault(p.name, p)
        ctx.restaurants = list(restaurants.values())
        second = self._schedule(ctx, specs)
        if second is None:
            return None
        queries = list(self.words)
        if hotel is not None:
            word = await hotel_query(self.searcher, hotel, b)
            if word not in queries:
                queries.insert(len([w for w in queries if w in b.must_visit]), word)
        return _Attempt(second[0], second[1], queries, around)

    async def _upgrade(self, found: Outcome, values: dict[str, float], tuning: Tuning) -> Outcome | None:
        """A hotel of the class the budget level asks for, when the budget leaves room for it."""
        b, hotel = self.brief, found.hotel
        if hotel is None or b.budget is None:
            return None
        room = (b.budget - found.total) * UPGRADE_SHARE
        rooms = math.ceil(b.people / max(1, hotel.beds or 1))
        base = (hotel.cost or 0.0) * rooms * b.nights
        for h in upgrade_options(self.pool, b, self._focus(values), hotel):
            extra = (h.cost or 0.0) * math.ceil(b.people / max(1, h.beds or 1)) * b.nights - base
            if extra > room:
                continue
            got = await self._attempt(found.go, found.back, h, tuning)
            if got is None:
                continue
            total = plan_total(got.days)
            if total > b.budget * UPGRADE_SHARE + found.total * (1 - UPGRADE_SHARE):
                continue
            plan = plan_dict(b, got.days)
            ver = verify_plan(plan, self.problem, self.world, None)
            if ver.final_pass:
                return Outcome(b, plan, got.days, found.go, found.back, found.outs, found.backs, h, got.poi_queries,
                               got.around, choose_directions(b, got.days, self.lookup, self.attr_pool), ver, total,
                               tuning.name + "+hotel", listed=self.listed)
        return None

    # ------------------------------------------------------------------------------ public
    async def plan(self) -> Outcome:
        """The first verified plan of the search (raises :class:`PlanningError` when none)."""
        b = self.brief
        self.attr_pool = await self._collect(self.attr_words, "attraction")
        self.rest_pool = await self._collect(self.rest_words, "restaurant")
        outs: list[Service] = []
        backs: list[Service] = []
        if b.has_origin:
            outs = services(self.world, self.lookup, b, True)
            backs = services(self.world, self.lookup, b, False)
            self.listed = (services(self.world, self.lookup, b, True, strict=False),
                           services(self.world, self.lookup, b, False, strict=False))
            pairs: list[tuple[Service | None, Service | None]] = list(transport_pairs(b, outs, backs))
            if not pairs:
                raise PlanningError(f"task {b.task_id}: no outbound/return pair meets the time rules")
        else:
            pairs = [(None, None)]
        values = attraction_values(self.pool, b, self.landmarks, False)
        hotels: list[Poi | None] = list(hotel_options(self.pool, b, self._focus(values))) if b.nights else [None]
        if not hotels:
            raise PlanningError(f"task {b.task_id}: no hotel has the required features within the price cap")
        fallback: Outcome | None = None
        for tuning in TUNINGS:
            for go, back in pairs[:8]:
                for hotel in hotels[:4]:
                    got = await self._attempt(go, back, hotel, tuning)
                    if got is None:
                        continue
                    plan = plan_dict(b, got.days)
                    total = plan_total(got.days)
                    if b.budget is not None and total > b.budget + 1e-6:
                        self.reasons.append(f"{tuning.name}: total {total:.0f} over budget {b.budget:.0f}")
                        continue
                    ver = verify_plan(plan, self.problem, self.world, None)
                    if not ver.final_pass:
                        self.reasons.append(f"{tuning.name}: verification failed {ver.failed_checks} {ver.logic_results}")
                        log.debug("task %s: candidate failed verification: %s", b.task_id, ver.reasons)
                        continue
                    found = Outcome(b, plan, got.days, go, back, outs, backs, hotel, got.poi_queries, got.around,
                                    choose_directions(b, got.days, self.lookup, self.attr_pool), ver, total,
                                    tuning.name, listed=self.listed)
                    if hotel is not None and tuning.name == "normal":
                        found = await self._upgrade(found, values, tuning) or found
                    if tuning.name == "normal":
                        found = upgrade_seats(b, found, self.problem, self.world) or found
                    if is_adequate(found, b.days):
                        return found
                    if fallback is None or richness(found) > richness(fallback):
                        fallback = found
                    self.reasons.append(f"{tuning.name}: a thin plan ({richness(found):.1f})")
        if fallback is not None:
            return fallback
        detail = "; ".join(dict.fromkeys(self.reasons[-6:]))
        raise PlanningError(f"task {b.task_id}: no plan passed ({detail})")

"""The trip search: transport × hotel × days, with backtracking, budget and full verification.

For each tuning (normal, then frugal, then lean), each ranked outbound/return pair and each
ranked hotel, the days are scheduled twice: first with every restaurant of the city (to learn
where the traveller will be at meal times), then only with restaurants that the planned
searches return (``poi_search`` keywords plus ``around_search`` at the places found in the
first pass), so every POI of the final plan is grounded in a tool result of the episode. A
candidate is accepted when it fits the budget and passes ``verify_plan`` (every environment
check and every constraint program); otherwise the search moves on.
"""

from __future__ import annotations

import logging
import math
import statistics
from dataclasses import dataclass, field, replace
from typing import Any

from navworld.agents.reference.brief import VEGETARIAN_CUISINE, Brief, read_brief
from navworld.agents.reference.day import DayPlanner, DaySpec, PlanCtx, TripState
from navworld.agents.reference.model import Leg, Mover, Place, Policy, Stop
from navworld.agents.reference.options import (
    BUFFER,
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
from navworld.agents.reference.pools import Around, CityPool, Searcher, city_pool
from navworld.core.geo import LngLat
from navworld.core.models import Poi
from navworld.core.problem import Problem
from navworld.dsl.world_view import lookup_for
from navworld.verify import Verification, verify_plan

__all__ = ["Outcome", "PlanningError", "TripPlanner", "Tuning"]

log = logging.getLogger(__name__)

MAX_POI_SEARCHES = 10
MAX_AROUND = 6
MAX_DIRECTIONS = 10
UPGRADE_SHARE = 0.5
"""A better hotel may use at most this share of the budget left over by the cheapest plan."""
DAY_START = 8 * 60
HOTEL_LATEST = 23 * 60 + 30
DAY_END = 21 * 60 + 30


class PlanningError(Exception):
    """No plan satisfied the task (a generator bug or an unsupported world)."""


@dataclass(frozen=True)
class Tuning:
    """How hard the search economises."""

    name: str
    frugal: bool
    target: int
    breakfast: bool = True
    meal_cap_quantile: float | None = None


TUNINGS: tuple[Tuning, ...] = (
    Tuning("normal", False, 3),
    Tuning("frugal", True, 3),
    Tuning("lean", True, 2, breakfast=False, meal_cap_quantile=0.5),
)


@dataclass
class Outcome:
    """A verified plan with everything the tool schedule and the answer need."""

    brief: Brief
    plan: dict[str, Any]
    days: list[list[Stop]]
    go: Service | None
    back: Service | None
    outs: list[Service]
    backs: list[Service]
    hotel: Poi | None
    poi_queries: list[str]
    around_queries: list[Around]
    """The around searches, in call order."""
    directions: list[Leg]
    verification: Verification
    total: float
    tuning: str
    listed: tuple[list[Service], list[Service]] = ([], [])
    """Every same-day service of the searched tools (outbound, return), for comparison lists."""
    notes: list[str] = field(default_factory=list)


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

    def _target(self, tuning: Tuning) -> int:
        b = self.brief
        target = tuning.target
        if b.prefers("attraction_count") and not tuning.frugal:
            target += 1
        if b.prefers("max_daily_attractions") or b.prefers("attraction_time"):
            target = min(target, 2)
        if b.problem_type == "business":
            target = 1  # the days belong to the business; one sight in the spare time
        elif b.problem_type == "family_study":
            target = min(target, 2)  # children: a gentle pace
        if b.max_attractions_per_day is not None:
            target = min(target, b.max_attractions_per_day)
        return max(1, target)

    def _specs(self, go: Service | None, back: Service | None, hotel: Poi | None, tuning: Tuning) -> list[DaySpec]:
        b = self.brief
        hotel_place = Place.of(hotel) if hotel is not None else None
        if hotel_place is not None:
            anchor = hotel_place
        elif self.must:
            anchor = Place.of(self.must[0])
        elif go is not None:
            anchor = go.end
        else:
            anchor = Place("", self.pool.center)
        meals = frozenset({"breakfast", "lunch", "dinner"} if tuning.breakfast else {"lunch", "dinner"})
        specs: list[DaySpec] = []
        for d in range(b.days):
            last = d == b.days - 1
            first: Stop | None = None
            if d == 0 and go is not None:
                start: Place | None = go.end
                t0 = go.arr
                first = go.stop(b.people)
            elif d == 0:
                start, t0 = None, DAY_START
            else:
                start, t0 = hotel_place, DAY_START
            if not last:
                assert hotel_place is not None
                spec = DaySpec(d, start, start or anchor, t0, "hotel", hotel_place, HOTEL_LATEST, meals, first)
            elif back is not None:
                spec = DaySpec(d, start, start or anchor, t0, "return", back.start, back.dep - BUFFER[back.kind], meals, first,
                               back.stop(b.people), last_chance=True)
            else:
                latest = b.finish_by if b.finish_by is not None else DAY_END
                spec = DaySpec(d, start, start or anchor, t0, "none", None, latest, meals, first, last_chance=True)
            specs.append(spec)
        return specs

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

    def _meal_cap(self, tuning: Tuning) -> float | None:
        if tuning.meal_cap_quantile is None:
            return None
        prices = sorted(float(p.cost or 0.0) for p in self.pool.restaurants)
        if not prices:
            return None
        q = statistics.quantiles(prices, n=20)
        idx = min(len(q) - 1, max(0, int(tuning.meal_cap_quantile * 20) - 1))
        return q[idx]

    # ----------------------------------------------------------------------------- attempt
    async def _attempt(self, go: Service | None, back: Service | None, hotel: Poi | None, tuning: Tuning) -> _Attempt | None:
        b = self.brief
        fast = b.prefers("travel_time") and not b.prefers("taxi_legs") and not tuning.frugal
        policy = Policy(public_only=b.public_only, fast=fast, frugal=tuning.frugal or b.prefers("taxi_legs"))
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
        ctx = PlanCtx(b, mover, attractions, list(self.pool.restaurants), values, self._target(tuning),
                      tuning.frugal, self._meal_cap(tuning), avoid=self.pool.shared, allowance=allowance,
                      pace=tuning.frugal)
        specs = self._specs(go, back, hotel, tuning)
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

    def _plan_dict(self, days: list[list[Stop]]) -> dict[str, Any]:
        b = self.brief
        return {
            "people_number": b.people,
            "start_city": b.origin if b.has_origin else b.dest,
            "target_city": b.dest,
            "itinerary": [{"day": i + 1, "activities": [s.to_dict() for s in stops]} for i, stops in enumerate(days)],
        }

    @staticmethod
    def _total(days: list[list[Stop]]) -> float:
        return sum(s.total for day in days for s in day)

    def _directions(self, days: list[list[Stop]]) -> list[Leg]:
        legs = [leg for day in days for s in day for leg in s.legs if leg.mode != "walk"]
        legs += [leg for day in days for s in day for leg in s.legs if leg.mode == "walk"]
        chosen: list[Leg] = []
        seen: set[tuple[str, str, str]] = set()
        for leg in sorted(legs, key=lambda g: (-g.route.distance_m, g.start, g.end)):
            key = (leg.start, leg.end, leg.mode)
            if key in seen:
                continue
            seen.add(key)
            chosen.append(leg)
            if len(chosen) >= MAX_DIRECTIONS:
                break
        order = {id(leg): i for i, leg in enumerate(leg for day in days for s in day for leg in s.legs)}
        chosen.sort(key=lambda g: order.get(id(g), 0))
        return chosen or self._spare_route(days)

    def _spare_route(self, days: list[list[Stop]]) -> list[Leg]:
        """A plan without any leg still gets one route: from where the day starts to the best sight found."""
        b = self.brief
        places = [s.place for day in days for s in day if s.place is not None]
        if not places or not self.attr_pool:
            return []
        start = places[0]
        sight = next((p for p in self.attr_pool if p.name != start.name), None)
        if sight is None:
            return []
        mover = Mover(self.lookup, b.dest, b.people, Policy(public_only=b.public_only))
        legs = mover.legs(start, Place.of(sight), 0)
        return legs[:1] if legs else []

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
            total = self._total(got.days)
            if total > b.budget * UPGRADE_SHARE + found.total * (1 - UPGRADE_SHARE):
                continue
            plan = self._plan_dict(got.days)
            ver = verify_plan(plan, self.problem, self.world, None)
            if ver.final_pass:
                return Outcome(b, plan, got.days, found.go, found.back, found.outs, found.backs, h, got.poi_queries,
                               got.around, self._directions(got.days), ver, total, tuning.name + "+hotel",
                               listed=self.listed)
        return None

    def _upgrade_seats(self, found: Outcome) -> Outcome | None:
        """A better train seat class when the traveller values comfort over price and the budget allows."""
        b, go, back = self.brief, found.go, found.back
        if go is None or back is None or b.budget is None:
            return None
        comfort = b.prefers("intercity_price") or b.budget_level in ("comfort", "luxury")
        if not comfort or b.prefers("total_cost"):
            return None
        room = (b.budget - found.total) * UPGRADE_SHARE
        new: dict[str, Service] = {}
        for svc in (go, back):
            seats = sorted(getattr(svc.row, "seats", ()), key=lambda x: (x.price, x.seat_class))
            better = [x for x in seats if x.price > svc.price]
            if better and (better[0].price - svc.price) * b.people <= room:
                room -= (better[0].price - svc.price) * b.people
                new[svc.number] = svc.with_fare(float(better[0].price), better[0].seat_class)
        if not new:
            return None
        days = [list(day) for day in found.days]
        for day in days:
            for i, stop in enumerate(day):
                fare = new.get(stop.name) if stop.kind in ("airplane", "train") else None
                if fare is not None:
                    day[i] = replace(stop, price=fare.price, cost=fare.price * b.people, seat=fare.seat)
        plan = self._plan_dict(days)
        ver = verify_plan(plan, self.problem, self.world, None)
        total = self._total(days)
        if not ver.final_pass or total > b.budget:
            return None
        return replace(found, plan=plan, days=days, go=new.get(go.number, go), back=new.get(back.number, back),
                       verification=ver, total=total, tuning=found.tuning + "+seats")

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
                    plan = self._plan_dict(got.days)
                    total = self._total(got.days)
                    if b.budget is not None and total > b.budget + 1e-6:
                        self.reasons.append(f"{tuning.name}: total {total:.0f} over budget {b.budget:.0f}")
                        continue
                    ver = verify_plan(plan, self.problem, self.world, None)
                    if not ver.final_pass:
                        self.reasons.append(f"{tuning.name}: verification failed {ver.failed_checks} {ver.logic_results}")
                        log.debug("task %s: candidate failed verification: %s", b.task_id, ver.reasons)
                        continue
                    found = Outcome(b, plan, got.days, go, back, outs, backs, hotel, got.poi_queries, got.around,
                                    self._directions(got.days), ver, total, tuning.name, listed=self.listed)
                    if hotel is not None and tuning.name == "normal":
                        found = await self._upgrade(found, values, tuning) or found
                    if tuning.name == "normal":
                        found = self._upgrade_seats(found) or found
                    if self._adequate(found):
                        return found
                    if fallback is None or self._richness(found) > self._richness(fallback):
                        fallback = found
                    self.reasons.append(f"{tuning.name}: a thin plan ({self._richness(found):.1f})")
        if fallback is not None:
            return fallback
        detail = "; ".join(dict.fromkeys(self.reasons[-6:]))
        raise PlanningError(f"task {b.task_id}: no plan passed ({detail})")

    @staticmethod
    def _richness(found: Outcome) -> float:
        stops = [s for day in found.days for s in day]
        return sum(1.0 for s in stops if s.kind == "attraction") + 0.5 * sum(
            1.0 for s in stops if s.kind in ("breakfast", "lunch", "dinner"))

    def _adequate(self, found: Outcome) -> bool:
        """A plan worth keeping without looking further: sights and meals on (almost) every day."""
        days = self.brief.days
        sights = sum(1 for day in found.days for s in day if s.kind == "attraction")
        meals = sum(1 for day in found.days for s in day if s.kind in ("lunch", "dinner"))
        return sights >= max(1, days - 1) and meals >= max(1, days - 1)

"""Scheduling one day: meals inside their windows at open restaurants, attractions inside their
opening hours, real travel times between consecutive places, and a deadline for the night's hotel
or the train/flight home.

The day is built forward in time by a greedy rule set with a little look-ahead (ChinaTravel's
``dfs_poi`` in spirit, without its minutes-long search): at each point the planner either takes
the meal that is due, or the best attraction that still fits (must-visit sights first), or ends
the day. A few variants (with/without breakfast, must-visit first or later) are tried when the
default does not place everything; the trip-level search backtracks over days that fail.
The timing rules and the day's data types live in :mod:`navworld.agents.reference.day_frame`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from navworld.agents.reference.brief import VEGETARIAN_CUISINE
from navworld.agents.reference.day_frame import (
    BREAKFAST_OPEN_BY,
    DINNER_DUE,
    LUNCH_DUE,
    MAX_WAIT_MIN,
    MEAL_FIRST,
    MEAL_FROM,
    MEAL_LAST,
    MEAL_MINUTES,
    NEAREST,
    DayResult,
    DaySpec,
    PlanCtx,
    TripState,
    est_minutes,
    open_hours,
)
from navworld.agents.reference.model import Place, Stop
from navworld.core.models import Poi
from navworld.verify.check_pois import open_during

__all__ = ["DayPlanner", "DayResult", "DaySpec", "PlanCtx", "TripState"]


@dataclass(frozen=True)
class _Variant:
    breakfast: bool = True
    must_early: bool = True
    extra: int = 0


_VARIANTS = (_Variant(), _Variant(must_early=False), _Variant(breakfast=False), _Variant(breakfast=False, must_early=False))


@dataclass(frozen=True)
class _MealTiming:
    """When a pending lunch or dinner is taken before the next attraction (minutes of the day)."""

    due: int
    """From this time the meal comes first."""
    window: int
    """Earliest start of the meal window; waiting moves the clock here."""
    late_end: int
    """An attraction ending after this would crowd the meal out, so the meal comes first."""
    probe: int
    """Time used to test that the meal can still be had after waiting."""


_MEAL_TIMING: dict[str, _MealTiming] = {
    "lunch": _MealTiming(due=LUNCH_DUE, window=10 * 60 + 30, late_end=13 * 60 + 30, probe=11 * 60),
    "dinner": _MealTiming(due=DINNER_DUE, window=16 * 60 + 30, late_end=19 * 60 + 30, probe=17 * 60),
}


class DayPlanner:
    """Schedules days for one trip configuration."""

    def __init__(self, ctx: PlanCtx) -> None:
        self.ctx = ctx
        self.b = ctx.brief

    # -------------------------------------------------------------------------------- public
    def plan(self, spec: DaySpec, state: TripState) -> DayResult | None:
        """The best variant of the day (None when even the frame is impossible)."""
        best: DayResult | None = None
        for variant in _VARIANTS:
            got = self._run(spec, state.copy(), variant)
            if got is None:
                continue
            if best is None or (got.missed_must, -got.attractions) < (best.missed_must, -best.attractions):
                best = got
            if got.missed_must == 0:
                break
        return best

    # ------------------------------------------------------------------------------ helpers
    def _finish_ok(self, spec: DaySpec, place: Place, end: int) -> bool:
        if spec.end == "none" or spec.end_place is None:
            return end <= spec.latest
        m = self.ctx.mover.minutes(place, spec.end_place)
        return m is not None and end + m <= spec.latest

    def _can_wait(self, spec: DaySpec, pos: Place | None, until: int, meal: str) -> bool:
        """Whether waiting for ``meal`` at ``until`` still leaves time to end the day as planned."""
        here = pos or spec.anchor
        return self._finish_ok(spec, here, until + MEAL_MINUTES[meal])

    def _affordable(self, spec: DaySpec, st: TripState, stop: Stop, must: bool = False) -> bool:
        """Whether ``stop`` (and getting from it to the night's end) still fits the allowance."""
        ctx = self.ctx
        if ctx.allowance is None:
            return True
        reserve = 0.0
        if spec.end_place is not None and stop.place is not None:
            reserve = ctx.mover.cost(stop.place, spec.end_place)
        cap = ctx.allowance
        if ctx.pace and not must:
            cap = ctx.allowance * (spec.index + 1) / max(1, self.b.days)
        return st.spent + stop.total + reserve <= cap + 1e-6

    def _meal_price_ok(self, poi: Poi) -> bool:
        cap = self.ctx.meal_cap
        return cap is None or (poi.cost or 0.0) <= cap

    def _meal_last(self, kind: str) -> int:
        """Latest start of ``kind``: the verifier's window, or the problem's stricter one."""
        for meal, minutes in self.b.meal_last:
            if meal == kind:
                return min(minutes, MEAL_LAST[kind])
        return MEAL_LAST[kind]

    def _meal(self, kind: str, pos: Place | None, t: int, spec: DaySpec, st: TripState) -> Stop | None:
        ctx, b = self.ctx, self.b
        dur = MEAL_MINUTES[kind]
        want_cuisine = bool(b.cuisines) and st.cuisine_meals == 0
        want_veg = st.veg_meals < b.vegetarian_meals
        here = pos or spec.anchor
        scored: list[tuple[float, str, Poi]] = []
        for r in ctx.restaurants:
            if r.name in st.used_restaurants or not self._meal_price_ok(r):
                continue
            if kind == "breakfast" and open_hours(r)[0] > BREAKFAST_OPEN_BY:
                continue  # a place that opens late would waste the morning
            special = (want_cuisine and r.cuisine in b.cuisines) or (want_veg and r.cuisine == VEGETARIAN_CUISINE)
            est = est_minutes(here, Place.of(r))
            if est > 75 and not special:
                continue
            score = est / 10.0 + (r.cost or 0.0) / (12.0 if ctx.frugal else 35.0) - 0.6 * r.rating
            if special:
                score -= 12.0
            if r.name in ctx.avoid:
                score += 6.0
            if b.prefers("vegetarian_meals") and r.cuisine == VEGETARIAN_CUISINE:
                score -= 2.0
            scored.append((score, r.name, r))
        scored.sort(key=lambda x: (x[0], x[1]))
        tried = 0
        for _, _, r in scored:
            if tried >= NEAREST:
                break
            place = Place.of(r)
            legs = ctx.mover.legs(pos, place, t) if pos is not None else []
            if legs is None:
                continue
            arrive = legs[-1].t1 if legs else t
            start = max(arrive, MEAL_FROM[kind] if pos is not None else t, MEAL_FIRST[kind])
            o, c = open_hours(r)
            if start < o:
                start = o
            if start > self._meal_last(kind) or start + dur > c:
                tried += 1
                continue
            if not open_during(r, start, start + dur) or not self._finish_ok(spec, place, start + dur):
                tried += 1
                continue
            tried += 1
            price = float(r.cost or 0.0)
            stop = Stop(kind, start, start + dur, place, legs, price, price * b.people)
            if not self._affordable(spec, st, stop, must=special):
                continue
            st.used_restaurants.add(r.name)
            if r.cuisine in b.cuisines:
                st.cuisine_meals += 1
            if r.cuisine == VEGETARIAN_CUISINE:
                st.veg_meals += 1
            st.spent += stop.total
            return stop
        return None

    def _duration(self, poi: Poi, must: bool, spec: DaySpec) -> tuple[int, int]:
        full = max(30, round(poi.visit_hours * 60) or 90)
        if self.b.prefers("attraction_time"):
            floor = full
        else:
            floor = min(full, max(60, int(full * 0.6)))
        if must:
            floor = min(floor, 45 if spec.last_chance else max(45, int(full * 0.6)))
        return full, floor

    def _attraction(self, pos: Place | None, t: int, spec: DaySpec, st: TripState, early_must: bool,
                    before: int | None) -> Stop | None:
        """The best attraction that fits now (must-visit sights first); ``before`` caps its end."""
        ctx = self.ctx
        here = pos or spec.anchor
        musts = [p for p in st.pending_must if p.name not in st.used_attractions]
        cands: list[tuple[float, str, Poi, bool]] = []
        for p in musts:
            cands.append((-1000.0 + est_minutes(here, Place.of(p)), p.name, p, True))
        if not musts or not early_must:
            for p in ctx.attractions:
                if p.name in st.used_attractions or p.name in ctx.brief.must_visit:
                    continue
                est = est_minutes(here, Place.of(p))
                cands.append((est / 12.0 - ctx.value.get(p.name, 0.0), p.name, p, False))
        cands.sort(key=lambda x: (x[0], x[1]))
        tried = 0
        for _, _, p, must in cands:
            if tried >= NEAREST:
                break
            tried += 1
            place = Place.of(p)
            legs = ctx.mover.legs(pos, place, t) if pos is not None else []
            if legs is None:
                continue
            arrive = legs[-1].t1 if legs else t
            o, c = open_hours(p)
            start = max(arrive, o)
            if start - arrive > (600 if must else MAX_WAIT_MIN):
                continue
            full, floor = self._duration(p, must, spec)
            limit = min(c, 1440 if before is None else before)
            if spec.end == "none" or spec.end_place is None:
                limit = min(limit, spec.latest)
            else:
                m = ctx.mover.minutes(place, spec.end_place)
                if m is None:
                    continue
                limit = min(limit, spec.latest - m)
            end = min(start + full, limit)
            if end - start < floor or end > 22 * 60:
                continue
            if not open_during(p, start, end):
                continue
            price = float(p.cost or 0.0)
            stop = Stop("attraction", start, end, place, legs, price, price * ctx.brief.people, tickets=ctx.brief.people)
            if not self._affordable(spec, st, stop, must=must):
                continue
            st.used_attractions.add(p.name)
            if must:
                st.pending_must = [x for x in st.pending_must if x.name != p.name]
            st.spent += stop.total
            return stop
        return None

    # --------------------------------------------------------------------------------- core
    def _run(self, spec: DaySpec, st: TripState, v: _Variant) -> DayResult | None:
        ctx = self.ctx
        stops: list[Stop] = []
        pos: Place | None = spec.start
        t = spec.t0
        if spec.first is not None:
            stops.append(spec.first)
            t = spec.first.end
        meals = set(spec.meals)
        if not v.breakfast:
            meals.discard("breakfast")
        count = 0
        target = ctx.target + v.extra
        for _ in range(40):
            if "breakfast" in meals:
                meals.discard("breakfast")
                if t <= 9 * 60 + 15:
                    s = self._meal("breakfast", pos, t, spec, st)
                    if s is not None:
                        stops.append(s)
                        pos, t = s.place, s.end
                        continue
            lunch_open = "lunch" in meals and t <= 14 * 60
            dinner_open = "dinner" in meals and t <= 20 * 60 + 45
            if "lunch" in meals and not lunch_open:
                meals.discard("lunch")
            if "dinner" in meals and not dinner_open:
                meals.discard("dinner")
            # the next attraction, ending early enough to keep the next meal possible
            cap: int | None = None
            if lunch_open and t < LUNCH_DUE:
                cap = 14 * 60
            elif dinner_open and t < DINNER_DUE:
                cap = 20 * 60 + 30
            nxt: Stop | None = None
            hard_cap = self.b.max_attractions_per_day or 99
            pending = any(p.name not in st.used_attractions for p in st.pending_must)
            want_more = count < target or (pending and count < hard_cap)
            probe = st.copy()
            if want_more:
                nxt = self._attraction(pos, t, spec, probe, v.must_early, cap)
            pending = "lunch" if lunch_open else ("dinner" if dinner_open else None)
            if pending is not None:
                rule = _MEAL_TIMING[pending]
                due = t >= rule.due or (t >= rule.window and (nxt is None or nxt.end > rule.late_end))
                if due:
                    meals.discard(pending)
                    s = self._meal(pending, pos, t, spec, st)
                    if s is not None:
                        stops.append(s)
                        pos, t = s.place, s.end
                    continue
                if nxt is None:
                    if not self._can_wait(spec, pos, rule.probe, pending):
                        meals.discard(pending)
                    else:
                        t = max(t + 15, rule.window)
                    continue
            if nxt is not None:
                st.used_attractions, st.pending_must, st.spent = probe.used_attractions, probe.pending_must, probe.spent
                stops.append(nxt)
                pos, t = nxt.place, nxt.end
                count += 1
                continue
            break
        end = self._close_day(spec, stops, pos, t)
        if end is None:
            return None
        if spec.end != "none" and end:
            st.spent += end[-1].transfer_cost
        missed = sum(1 for p in st.pending_must if p.name not in st.used_attractions)
        return DayResult(end, st, count, missed)

    def _close_day(self, spec: DaySpec, stops: list[Stop], pos: Place | None, t: int) -> list[Stop] | None:
        ctx = self.ctx
        if spec.end == "none" or spec.end_place is None:
            if not stops:
                return None
            return stops
        target = spec.end_place
        if pos is None:
            pos = spec.start
        if spec.end == "hotel":
            legs = ctx.mover.legs(pos, target, t) if pos is not None else []
            if legs is None:
                return None
            arrive = legs[-1].t1 if legs else t
            if arrive >= 24 * 60 - 1:
                return None
            hotel = target.poi
            assert hotel is not None
            beds = max(1, hotel.beds or 1)
            rooms = math.ceil(ctx.brief.people / beds)
            price = float(hotel.cost or 0.0)
            stops.append(Stop("accommodation", arrive, 24 * 60, target, legs, price, price * rooms, rooms=rooms,
                              room_type=beds))
            return stops
        last = spec.last
        assert last is not None
        if pos is None:
            return None
        m = ctx.mover.minutes(pos, target)
        if m is None:
            return None
        leave = t
        if leave + m > spec.latest:
            if stops and not (len(stops) == 1 and stops[0] is spec.first):
                return None
            leave = spec.latest - m
            if leave < 5 * 60 or (stops and leave < t):
                return None
        legs = ctx.mover.legs(pos, target, leave)
        if legs is None:
            return None
        stops.append(replace(last, legs=legs))
        return stops

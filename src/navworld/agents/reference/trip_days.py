"""Framing the trip's days for the search: how many sights a day aims for, the frame of each day
(start, deadline, meals, the intercity legs at either end) and the per-person meal price cap.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from navworld.agents.reference.brief import Brief
from navworld.agents.reference.day_frame import DaySpec
from navworld.agents.reference.model import Place, Stop
from navworld.agents.reference.options import BUFFER, Service
from navworld.agents.reference.outcome import Tuning
from navworld.core.geo import LngLat
from navworld.core.models import Poi

__all__ = ["DAY_END", "DAY_START", "HOTEL_LATEST", "attraction_target", "day_specs", "meal_cap"]

DAY_START = 8 * 60
"""When a day starts at the hotel (minutes)."""
HOTEL_LATEST = 23 * 60 + 30
"""Latest arrival at the night's hotel (minutes)."""
DAY_END = 21 * 60 + 30
"""Latest end of the last day when nothing else bounds it (minutes)."""


def attraction_target(b: Brief, tuning: Tuning) -> int:
    """How many attractions a day aims for under ``tuning``."""
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


def day_specs(b: Brief, go: Service | None, back: Service | None, hotel: Poi | None, tuning: Tuning,
              must: list[Poi], center: LngLat) -> list[DaySpec]:
    """The frame of every day of the trip for one transport pair and hotel."""
    hotel_place = Place.of(hotel) if hotel is not None else None
    if hotel_place is not None:
        anchor = hotel_place
    elif must:
        anchor = Place.of(must[0])
    elif go is not None:
        anchor = go.end
    else:
        anchor = Place("", center)
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


def meal_cap(restaurants: Sequence[Poi], tuning: Tuning) -> float | None:
    """Most a meal may cost per person under ``tuning`` (a price quantile of the city), None = no cap."""
    if tuning.meal_cap_quantile is None:
        return None
    prices = sorted(float(p.cost or 0.0) for p in restaurants)
    if not prices:
        return None
    q = statistics.quantiles(prices, n=20)
    idx = min(len(q) - 1, max(0, int(tuning.meal_cap_quantile * 20) - 1))
    return q[idx]

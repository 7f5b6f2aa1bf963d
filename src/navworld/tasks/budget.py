"""Budget floors from the sandbox's real cheapest options.

The floor of a problem is the cost of a cheap trip that satisfies its hard requirements:

* intercity transport both ways for the whole group (cheapest allowed mode, same-day arrival,
  arriving in time, no red-eye when asked; a day trip leaves at least ``MIN_STAY_MIN`` at the
  destination),
* the cheapest suitable hotel (features, price cap) × rooms for the group × nights,
* three distinct restaurants a day (breakfast, lunch, dinner; each open over its meal window)
  per person, including the required cuisine and vegetarian meals,
* tickets of the planned attractions (the must-visit ones plus the cheapest others) per person,
* an inner-city transport allowance per person and day.

The budget is then ``max(level budget × (0.5 + slack), floor × (1.2 + slack))`` with
``slack = 1 − tightness`` (see :func:`final_budget`), so every task is solvable by construction
and harder tasks sit closer to their floor. Transport lists are cached per (date, pair) and
city facts per city, so the floor is cheap after warm-up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from navworld.tasks.knowledge import CityFacts, HotelOption, KnowledgeGraph, RestaurantOption

__all__ = [
    "ATTRACTIONS_PER_DAY",
    "LOCAL_TRANSPORT_PER_PERSON_DAY",
    "MIN_STAY_MIN",
    "BudgetCalculator",
    "Floor",
    "TransportOption",
    "final_budget",
    "is_red_eye",
]

LOCAL_TRANSPORT_PER_PERSON_DAY = 50
"""Inner-city transport allowance (CNY per person and day)."""
MIN_STAY_MIN = 180
"""A day trip stays at least this long (minutes) between arrival and the return departure."""
ATTRACTIONS_PER_DAY = 2
"""Attractions assumed per day when pricing tickets."""
RED_EYE_START = "22:00"
RED_EYE_END = "06:00"


def _minutes(hhmm: str) -> int:
    h, _, m = hhmm.partition(":")
    return int(h) * 60 + int(m or 0)


def is_red_eye(dep_time: str) -> bool:
    """Whether a flight departing at ``dep_time`` is a red-eye (22:00-06:00)."""
    return dep_time >= RED_EYE_START or dep_time < RED_EYE_END


@dataclass(frozen=True, slots=True)
class TransportOption:
    """One intercity service reduced to what floors need (price per person)."""

    price: float
    mode: str
    number: str
    dep: str
    arr: str
    next_day: bool


@dataclass(frozen=True, slots=True)
class Floor:
    """A floor cost with its breakdown (CNY, rounded up per component)."""

    total: int
    breakdown: dict[str, int]
    outbound: TransportOption | None = None
    inbound: TransportOption | None = None


class BudgetCalculator:
    """Computes floors from one world; caches transport lists and derived minima."""

    def __init__(self, world: Any, kg: KnowledgeGraph) -> None:
        self.world = world
        self.kg = kg
        self._lists: dict[tuple[str, str, str, str], tuple[TransportOption, ...]] = {}
        self._memo: dict[tuple[object, ...], Any] = {}

    def _cached(self, key: tuple[object, ...], make: Any) -> Any:
        if key in self._memo:
            return self._memo[key]
        if len(self._memo) > 200_000:
            self._memo.clear()
        value = make()
        self._memo[key] = value
        return value

    def hotel_floor(
        self, facts: CityFacts, features: list[str], max_price: int | None, people: int, nights: int
    ) -> float | None:
        """Cached :meth:`hotel_cost` over the suitable hotels."""
        key = ("hotel", facts.name, tuple(features), max_price, people, nights)
        return self._cached(
            key, lambda: self.hotel_cost(self.suitable_hotels(facts, features, max_price), people, nights)
        )

    def meal_floor(
        self, facts: CityFacts, days: int, people: int, cuisines: list[str], vegetarian: int, veg_cuisine: str
    ) -> float | None:
        """Cached :meth:`meal_cost` (computed per person, scaled by ``people``)."""
        key = ("meals", facts.name, days, tuple(cuisines), vegetarian, veg_cuisine)
        per_person = self._cached(key, lambda: self.meal_cost(facts, days, 1, cuisines, vegetarian, veg_cuisine))
        return None if per_person is None else per_person * people

    def ticket_floor(self, facts: CityFacts, must_visit: list[str], count: int, people: int) -> float:
        """Cached :meth:`ticket_cost` (per person, scaled by ``people``)."""
        key = ("tickets", facts.name, tuple(must_visit), count)
        return self._cached(key, lambda: self.ticket_cost(facts, must_visit, count, 1)) * people

    # -- transport -------------------------------------------------------------------------
    def options(
        self, date: str, a: str, b: str, modes: tuple[str, ...] = ("airplane", "train")
    ) -> tuple[TransportOption, ...]:
        """Flights and/or trains from ``a`` to ``b`` on ``date``, cheapest first (cached per mode)."""
        if len(modes) == 1:
            return self._mode_options(date, a, b, modes[0])
        key = (date, a, b, "+".join(modes))
        got = self._lists.get(key)
        if got is None:
            merged = [o for m in modes for o in self._mode_options(date, a, b, m)]
            merged.sort(key=lambda o: (o.price, o.dep, o.number))
            got = tuple(merged)
            self._store(key, got)
        return got

    def _store(self, key: tuple[str, str, str, str], value: tuple[TransportOption, ...]) -> None:
        if len(self._lists) > 100_000:
            self._lists.clear()
        self._lists[key] = value

    def _mode_options(self, date: str, a: str, b: str, mode: str) -> tuple[TransportOption, ...]:
        key = (date, a, b, mode)
        got = self._lists.get(key)
        if got is not None:
            return got
        opts: list[TransportOption] = []
        if mode == "airplane":
            for f in self.world.flight_list(date, a, b):
                opts.append(TransportOption(float(f.price), "airplane", f.flight_no, f.dep_time, f.arr_time, f.next_day))
        else:
            for t in self.world.train_list(date, a, b):
                opts.append(TransportOption(float(t.price), "train", t.train_no, t.dep_time, t.arr_time, t.next_day))
        opts.sort(key=lambda o: (o.price, o.dep, o.number))
        got = tuple(opts)
        self._store(key, got)
        return got

    def candidates(
        self,
        date: str,
        a: str,
        b: str,
        modes: tuple[str, ...],
        *,
        arrive_by: str | None = None,
        depart_after: str | None = None,
        no_red_eye: bool = False,
    ) -> list[TransportOption]:
        """Same-day services of the allowed modes meeting the time rules, cheapest first."""
        out = []
        for o in self.options(date, a, b, modes):
            if o.next_day or o.arr < o.dep:
                continue
            if arrive_by is not None and o.arr > arrive_by:
                continue
            if depart_after is not None and o.dep < depart_after:
                continue
            if no_red_eye and o.mode == "airplane" and is_red_eye(o.dep):
                continue
            out.append(o)
        return out

    def round_trip(
        self,
        date: str,
        return_date: str,
        a: str,
        b: str,
        modes: tuple[str, ...],
        *,
        arrive_by: str | None = None,
        no_red_eye: bool = False,
    ) -> tuple[TransportOption, TransportOption] | None:
        """The cheapest outbound + return pair, or ``None`` when the constraints leave none (cached)."""
        key = ("round", date, return_date, a, b, modes, arrive_by, no_red_eye)
        return self._cached(  # type: ignore[no-any-return]
            key, lambda: self._round_trip(date, return_date, a, b, modes, arrive_by, no_red_eye)
        )

    def _round_trip(
        self,
        date: str,
        return_date: str,
        a: str,
        b: str,
        modes: tuple[str, ...],
        arrive_by: str | None,
        no_red_eye: bool,
    ) -> tuple[TransportOption, TransportOption] | None:
        outs = self.candidates(date, a, b, modes, arrive_by=arrive_by, no_red_eye=no_red_eye)
        if not outs:
            return None
        if date != return_date:
            backs = self.candidates(return_date, b, a, modes, no_red_eye=no_red_eye)
            return (outs[0], backs[0]) if backs else None
        backs = self.candidates(date, b, a, modes, no_red_eye=no_red_eye)
        best: tuple[TransportOption, TransportOption] | None = None
        for o in outs:
            if best is not None and o.price + backs[0].price >= best[0].price + best[1].price:
                break
            earliest = _minutes(o.arr) + MIN_STAY_MIN
            for r in backs:  # cheapest first: the first that leaves late enough is the best
                if _minutes(r.dep) >= earliest:
                    if best is None or o.price + r.price < best[0].price + best[1].price:
                        best = (o, r)
                    break
        return best

    # -- city costs ------------------------------------------------------------------------
    def suitable_hotels(self, facts: CityFacts, features: list[str], max_price: int | None) -> list[HotelOption]:
        """Hotels with every required feature and within the price cap, cheapest first (cached)."""
        key = ("hotels", facts.name, tuple(features), max_price)
        return self._cached(key, lambda: facts.hotels_with(frozenset(features), max_price))  # type: ignore[no-any-return]

    @staticmethod
    def hotel_cost(hotels: list[HotelOption], people: int, nights: int) -> float | None:
        """Cheapest ``price × rooms × nights`` over ``hotels`` (``0`` without nights)."""
        if nights <= 0:
            return 0.0
        if not hotels:
            return None
        return min(h.price * h.rooms_for(people) for h in hotels) * nights

    @staticmethod
    def meal_cost(
        facts: CityFacts, days: int, people: int, cuisines: list[str], vegetarian: int, veg_cuisine: str
    ) -> float | None:
        """Greedy cheapest distinct restaurants for 3 meals a day incl. the required ones."""
        used: set[str] = set()
        per_person = 0.0
        main_meals = 2 * days

        def take(pred: Any, meals: tuple[str, ...]) -> RestaurantOption | None:
            for r in facts.restaurants:
                if r.name not in used and pred(r) and any(r.serves(m) for m in meals):
                    used.add(r.name)
                    return r
            return None

        if cuisines:
            wanted = set(cuisines)
            got = take(lambda r: r.cuisine in wanted, ("lunch", "dinner"))
            if got is None:
                return None
            per_person += got.price
            main_meals -= 1
        for _ in range(vegetarian):
            got = take(lambda r: r.cuisine == veg_cuisine, ("lunch", "dinner"))
            if got is None:
                return None
            per_person += got.price
            main_meals -= 1
        for _ in range(max(0, main_meals)):
            got = take(lambda r: True, ("lunch", "dinner"))
            if got is not None:
                per_person += got.price
        for _ in range(days):
            got = take(lambda r: True, ("breakfast",))
            if got is not None:
                per_person += got.price
        return per_person * people

    @staticmethod
    def ticket_cost(facts: CityFacts, must_visit: list[str], count: int, people: int) -> float:
        """Tickets of the must-visit attractions plus the cheapest others, for everyone."""
        total = 0.0
        names = set(must_visit)
        for price, name in facts.attractions:
            if name in names:
                total += price
        extra = max(0, count - len(names))
        for price, name in facts.attractions:
            if extra <= 0:
                break
            if name not in names:
                total += price
                extra -= 1
        return total * people


def final_budget(floor: int, level_budget: float, tightness: float) -> int:
    """The stated budget: generous at low tightness, close to the floor at high tightness."""
    slack = max(0.0, 1.0 - tightness)
    value = max(level_budget * (0.5 + slack), floor * (1.2 + slack))
    return int(math.ceil(value / 100.0) * 100)

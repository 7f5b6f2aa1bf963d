"""Attraction (#8–#12), restaurant (#13–#18, plus meals per day) and hotel (#19–#22) checks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from navworld.core.models import Poi
from navworld.core.plan import to_minutes
from navworld.verify.context import CheckContext, Step, money_ok
from navworld.verify.registry import check

__all__ = ["MEAL_WINDOWS", "open_during"]

MEAL_WINDOWS: dict[str, tuple[str, str]] = {
    "breakfast": ("06:00", "10:00"),
    "lunch": ("10:30", "14:30"),
    "dinner": ("16:30", "21:30"),
}
"""Allowed *start* times of each meal (inclusive)."""


def open_during(poi: Poi, start: int, end: int) -> bool:
    """Whether ``[start, end]`` (minutes) lies inside the POI's opening hours.

    ``close <= open`` means the place closes after midnight (``18:00``–``02:00``); equal
    times mean always open. Unparseable hours count as open (nothing to hold against the plan).
    """
    try:
        o, c = to_minutes(poi.open), to_minutes(poi.close)
    except ValueError:
        return True
    if o == c or (o == 0 and c >= 1440):
        return True
    if end < start:
        end += 1440
    if c < o:
        c += 1440
    if o <= start and end <= c:
        return True
    return o <= start + 1440 and end + 1440 <= c


def _kind_steps(cx: CheckContext, *types: str) -> Iterator[tuple[Step, Poi | None]]:
    for s in cx.of_type(*types):
        if (s.act.position or "").strip():
            yield s, cx.poi(s.act.position)


def _known(cx: CheckContext, act_type: str, kind: str) -> Iterator[tuple[Step, Poi | None, bool]]:
    """Steps of ``act_type`` with their world POI and whether it is a ``kind`` POI of the target city."""
    for s, poi in _kind_steps(cx, act_type):
        yield s, poi, poi is not None and poi.kind == kind


def _price_fail(s: Step, price: float | None, expected: float, unit: str) -> str | None:
    if price is None:
        return f"{s.where}: missing price"
    if not money_ok(price, expected):
        return f"{s.where}: price {price:g}, {s.act.position} costs {expected:g} {unit}"
    return None


# ---- attractions -----------------------------------------------------------------------------


@check("attraction_exists", "attractions", "every attraction is an attraction of the target city")
def attraction_exists(cx: CheckContext) -> Iterator[str]:
    for s, _, ok in _known(cx, "attraction", "attraction"):
        if not ok:
            yield f"{s.where}: {s.act.position!r} is not an attraction of {cx.target}"


def _attractions(cx: CheckContext) -> Iterator[tuple[Step, Poi]]:
    for s, poi, ok in _known(cx, "attraction", "attraction"):
        if ok and poi is not None:
            yield s, poi


@check("attraction_open", "attractions", "the whole visit lies within opening hours")
def attraction_open(cx: CheckContext) -> Iterator[str]:
    for s, poi in _attractions(cx):
        if not open_during(poi, s.act.start_minutes, s.act.end_minutes):
            yield f"{s.where}: {poi.name} is open {poi.open}–{poi.close}, visit {s.act.start_time}–{s.act.end_time}"


@check("attraction_price", "attractions", "price equals the ticket price")
def attraction_price(cx: CheckContext) -> Iterator[str]:
    for s, poi in _attractions(cx):
        msg = _price_fail(s, s.act.price, poi.cost or 0.0, "per ticket")
        if msg:
            yield msg


@check("attraction_cost", "attractions", "cost = price × tickets")
def attraction_cost(cx: CheckContext) -> Iterator[str]:
    for s in cx.of_type("attraction"):
        a = s.act
        if a.price is None:
            continue
        tickets = a.tickets if a.tickets is not None else cx.people
        if not money_ok(a.cost, a.price * tickets):
            yield f"{s.where}: cost {a.cost} ≠ price {a.price:g} × {tickets} tickets"


@check("attraction_unique", "attractions", "no attraction is visited twice")
def attraction_unique(cx: CheckContext) -> Iterator[str]:
    counts = Counter((s.act.position or "").strip() for s in cx.of_type("attraction"))
    for name, n in counts.items():
        if name and n > 1:
            yield f"{name} visited {n} times"


# ---- restaurants -----------------------------------------------------------------------------


def _meals(cx: CheckContext) -> Iterator[tuple[Step, Poi, bool]]:
    """Known meal places: (step, poi, is_hotel_breakfast)."""
    for s, poi in _kind_steps(cx, "breakfast", "lunch", "dinner"):
        if poi is None:
            continue
        if poi.kind == "restaurant":
            yield s, poi, False
        elif poi.kind == "hotel" and s.act.type == "breakfast":
            yield s, poi, True


@check("restaurant_exists", "restaurants", "every meal is at a restaurant of the target city (breakfast may be at a hotel)")
def restaurant_exists(cx: CheckContext) -> Iterator[str]:
    for s, poi in _kind_steps(cx, "breakfast", "lunch", "dinner"):
        ok = poi is not None and (poi.kind == "restaurant" or (poi.kind == "hotel" and s.act.type == "breakfast"))
        if not ok:
            yield f"{s.where}: {s.act.position!r} is not a restaurant of {cx.target}"


@check("restaurant_open", "restaurants", "the whole meal lies within the restaurant's opening hours")
def restaurant_open(cx: CheckContext) -> Iterator[str]:
    for s, poi, at_hotel in _meals(cx):
        if not at_hotel and not open_during(poi, s.act.start_minutes, s.act.end_minutes):
            yield f"{s.where}: {poi.name} is open {poi.open}–{poi.close}, meal {s.act.start_time}–{s.act.end_time}"


@check("restaurant_price", "restaurants", "price equals the price per person (0 for a hotel breakfast)")
def restaurant_price(cx: CheckContext) -> Iterator[str]:
    for s, poi, at_hotel in _meals(cx):
        msg = _price_fail(s, s.act.price, 0.0 if at_hotel else (poi.cost or 0.0), "per person")
        if msg:
            yield msg


@check("restaurant_cost", "restaurants", "cost = price × people")
def restaurant_cost(cx: CheckContext) -> Iterator[str]:
    for s in cx.of_type("breakfast", "lunch", "dinner"):
        a = s.act
        if a.price is not None and not money_ok(a.cost, a.price * cx.people):
            yield f"{s.where}: cost {a.cost} ≠ price {a.price:g} × {cx.people} people"


@check("restaurant_unique", "restaurants", "no restaurant is visited twice (hotel breakfasts exempt)")
def restaurant_unique(cx: CheckContext) -> Iterator[str]:
    counts = Counter(poi.name for _s, poi, at_hotel in _meals(cx) if not at_hotel)
    for name, n in counts.items():
        if n > 1:
            yield f"{name} used for {n} meals"


@check("meal_window", "restaurants", "breakfast starts 06:00–10:00, lunch 10:30–14:30, dinner 16:30–21:30")
def meal_window(cx: CheckContext) -> Iterator[str]:
    for s in cx.of_type("breakfast", "lunch", "dinner"):
        lo, hi = MEAL_WINDOWS[s.act.type]
        if not to_minutes(lo) <= s.act.start_minutes <= to_minutes(hi):
            yield f"{s.where}: {s.act.type} at {s.act.start_time}, allowed start {lo}–{hi}"


@check("meals_per_day", "restaurants", "at most one breakfast, one lunch and one dinner a day")
def meals_per_day(cx: CheckContext) -> Iterator[str]:
    for d, day in enumerate(cx.plan.itinerary):
        counts = Counter(a.type for a in day.activities if a.is_meal)
        for meal, n in sorted(counts.items()):
            if n > 1:
                yield f"day {d + 1}: {n} {meal}s"


# ---- hotels ----------------------------------------------------------------------------------


@check("hotel_exists", "hotels", "every accommodation is a hotel of the target city")
def hotel_exists(cx: CheckContext) -> Iterator[str]:
    for s, _, ok in _known(cx, "accommodation", "hotel"):
        if not ok:
            yield f"{s.where}: {s.act.position!r} is not a hotel of {cx.target}"


def _hotels(cx: CheckContext) -> Iterator[tuple[Step, Poi]]:
    for s, poi, ok in _known(cx, "accommodation", "hotel"):
        if ok and poi is not None:
            yield s, poi


@check("hotel_price", "hotels", "price equals the price per room-night")
def hotel_price(cx: CheckContext) -> Iterator[str]:
    for s, poi in _hotels(cx):
        msg = _price_fail(s, s.act.price, poi.cost or 0.0, "per room-night")
        if msg:
            yield msg


@check("hotel_room_type", "hotels", "room_type equals the hotel's beds per room")
def hotel_room_type(cx: CheckContext) -> Iterator[str]:
    for s, poi in _hotels(cx):
        if s.act.room_type is None:
            yield f"{s.where}: missing room_type"
        elif poi.beds and s.act.room_type != poi.beds:
            yield f"{s.where}: room_type {s.act.room_type}, {poi.name} has {poi.beds}-bed rooms"


@check("hotel_cost", "hotels", "cost = price × rooms")
def hotel_cost(cx: CheckContext) -> Iterator[str]:
    for s in cx.of_type("accommodation"):
        a = s.act
        if a.price is None or a.rooms is None:
            continue  # hotel_price / capacity_rooms own missing fields
        if not money_ok(a.cost, a.price * a.rooms):
            yield f"{s.where}: cost {a.cost} ≠ price {a.price:g} × {a.rooms} rooms"


@check("hotel_nights", "hotels", "exactly one accommodation on every day but the last, none on the last")
def hotel_nights(cx: CheckContext) -> Iterator[str]:
    n = len(cx.plan.itinerary)
    for d, day in enumerate(cx.plan.itinerary):
        stays = sum(1 for a in day.activities if a.type == "accommodation")
        if d < n - 1 and stays != 1:
            yield f"day {d + 1}: {stays} accommodations, need exactly 1 for the night"
        if d == n - 1 and stays:
            yield f"day {d + 1} is the last day: no accommodation expected"

"""Candidate generation: intercity services, hotels, attraction values and search keywords.

Everything here is a deterministic function of the brief and the world. Rankings put the
cheapest feasible choice first (the budget floor of every task is priced from the cheapest
options), with small penalties for awkward times so the plan stays realistic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from navworld.agents.reference.brief import INTERCITY_TOOLS, VEGETARIAN_CUISINE, Brief
from navworld.agents.reference.model import Place, Stop
from navworld.agents.reference.pools import CityPool, Searcher
from navworld.core.geo import LngLat, haversine_km
from navworld.core.models import Flight, Poi, Train
from navworld.core.plan import to_minutes
from navworld.dsl.world_view import WorldLookup

__all__ = [
    "Service",
    "attraction_keywords",
    "attraction_values",
    "hotel_options",
    "hotel_query",
    "is_red_eye",
    "restaurant_keywords",
    "services",
    "transport_pairs",
    "upgrade_options",
    "wanted_stars",
]

RED_EYE_FROM, RED_EYE_TO = 22 * 60, 6 * 60
TIME_VALUE = {"budget": 0.0, "economy": 0.2, "comfort": 0.6, "luxury": 1.2}
"""What an hour less on the train or plane is worth per minute (CNY), by budget level."""
DAY_TRIP_MIN_STAY = 150
BUFFER = {"airplane": 45, "train": 25}
"""Minutes the traveller reaches the station/airport before departure."""


def is_red_eye(dep: int) -> bool:
    """A flight departing 22:00–06:00 (the DSL's red-eye rule)."""
    return dep >= RED_EYE_FROM or dep < RED_EYE_TO


@dataclass(frozen=True)
class Service:
    """One usable train or flight with the fare chosen for it."""

    kind: str
    row: Flight | Train
    price: float
    seat: str
    dep: int
    arr: int
    start: Place
    end: Place

    @property
    def number(self) -> str:
        """Flight or train number."""
        return self.row.flight_no if isinstance(self.row, Flight) else self.row.train_no

    @property
    def minutes(self) -> int:
        """Scheduled duration."""
        return self.arr - self.dep

    def stop(self, people: int, legs: list[Any] | None = None) -> Stop:
        """The plan activity of this service."""
        return Stop(self.kind, self.dep, self.arr, self.end, list(legs or []),
                    self.price, self.price * people, tickets=people, service=self.row, seat=self.seat,
                    origin=self.start.name, arrive=self.end.name)

    def with_fare(self, price: float, seat: str) -> Service:
        """The same service at another fare (seat class)."""
        return Service(self.kind, self.row, price, seat, self.dep, self.arr, self.start, self.end)


def _ends(row: Flight | Train) -> tuple[str, str]:
    if isinstance(row, Flight):
        return row.from_airport, row.to_airport
    return row.from_station, row.to_station


def services(world: Any, lookup: WorldLookup, brief: Brief, outbound: bool, *, strict: bool = True) -> list[Service]:
    """Same-day services, one direction, cheapest first.

    ``strict``: only the allowed modes and services meeting the hard time rules (arrival time,
    no red-eye); otherwise every same-day service of the searched tools (for comparison lists).
    """
    if outbound:
        date, a, b = brief.dates[0], brief.origin, brief.dest
    else:
        date, a, b = brief.dates[-1], brief.dest, brief.origin
    modes = brief.modes if strict else tuple(k for k, tool in INTERCITY_TOOLS.items() if tool in brief.transport_tools)
    rows: list[tuple[str, Flight | Train]] = []
    if "airplane" in modes:
        rows += [("airplane", f) for f in world.flight_list(date, a, b)]
    if "train" in modes:
        rows += [("train", t) for t in world.train_list(date, a, b)]
    out: list[Service] = []
    for kind, row in rows:
        if row.next_day:
            continue
        dep, arr = to_minutes(row.dep_time), to_minutes(row.arr_time)
        if arr <= dep:
            continue
        if strict and kind == "airplane" and brief.no_red_eye and is_red_eye(dep):
            continue
        if strict and outbound and brief.arrival_before is not None and arr > brief.arrival_before:
            continue
        s_name, e_name = _ends(row)
        s_loc, e_loc = lookup.locate(a, s_name), lookup.locate(b, e_name)
        if s_loc is None or e_loc is None:
            continue
        if isinstance(row, Train):
            seat = min(row.seats, key=lambda s: (s.price, s.seat_class))
            price, seat_name = float(seat.price), seat.seat_class
        else:
            price, seat_name = float(row.price), "经济舱"
        out.append(Service(kind, row, price, seat_name, dep, arr, Place(s_name, s_loc), Place(e_name, e_loc)))
    out.sort(key=lambda s: (s.price, s.dep, s.number))
    return out


def _pair_penalty(brief: Brief, go: Service, back: Service) -> float:
    pen = 0.0
    if brief.day_trip:
        stay = back.dep - BUFFER[back.kind] - go.arr
        pen += max(0, 420 - stay) * 1.2
        pen += max(0, go.arr - 12 * 60) * 0.5
    else:
        pen += max(0, go.arr - 20 * 60) * 0.8 + max(0, go.arr - 22 * 60 - 30) * 5.0
        pen += max(0, 7 * 60 - go.dep) * 0.5
        pen += max(0, 13 * 60 - back.dep) * 0.6
        pen += max(0, back.arr - 23 * 60) * 0.3
    if brief.prefers("travel_time"):
        pen += (go.minutes + back.minutes) * 0.4
    pen += (go.minutes + back.minutes) * TIME_VALUE.get(brief.budget_level, 0.2)
    if brief.prefers("red_eye_flights"):
        pen += 200.0 * sum(1 for s in (go, back) if s.kind == "airplane" and is_red_eye(s.dep))
    return pen


def transport_pairs(brief: Brief, outs: list[Service], backs: list[Service], limit: int = 14) -> list[tuple[Service, Service]]:
    """Outbound × return pairs ranked by fare for the group plus time penalties."""
    pairs: list[tuple[float, str, Service, Service]] = []
    for go in outs:
        for back in backs:
            if brief.day_trip and back.dep - BUFFER[back.kind] - go.arr < DAY_TRIP_MIN_STAY:
                continue
            key = (go.price + back.price) * brief.people + _pair_penalty(brief, go, back) * (1 + 0.25 * (brief.people - 1))
            pairs.append((key, go.number + "/" + back.number, go, back))
    pairs.sort(key=lambda x: (x[0], x[1]))
    # at most two returns per outbound among the first choices, so a bad outbound cannot fill the list
    first: list[tuple[Service, Service]] = []
    rest: list[tuple[Service, Service]] = []
    per_out: dict[str, int] = {}
    for _, _, g, b in pairs:
        n = per_out.get(g.number, 0)
        (first if n < 2 else rest).append((g, b))
        per_out[g.number] = n + 1
    return (first + rest)[:limit]


STARS_BY_LEVEL = {"budget": 2, "economy": 2, "comfort": 3, "luxury": 4}
KM_NIGHT_COST = 25.0
"""How much (CNY per km from the day's sights, per room-night) a remote hotel is worth less."""


def wanted_stars(brief: Brief) -> int:
    """The hotel class the traveller's budget level and preferences ask for."""
    stars = STARS_BY_LEVEL.get(brief.budget_level, 2)
    comfort, thrift = brief.prefers("hotel_price"), brief.prefers("total_cost")
    if comfort and not thrift:
        stars += 1
    elif thrift and not comfort:
        stars -= 1
    return max(2, min(5, stars))


def _suitable(pool: CityPool, brief: Brief) -> list[Poi]:
    wanted = set(brief.hotel_features)
    return [
        h for h in pool.hotels
        if wanted <= set(h.features) and (brief.max_hotel_price is None or (h.cost or 0.0) <= brief.max_hotel_price)
    ]


def upgrade_options(pool: CityPool, brief: Brief, focus: LngLat, current: Poi, limit: int = 3) -> list[Poi]:
    """Better hotels of the wanted class (closest class first, then nearer and cheaper)."""
    stars = wanted_stars(brief)
    if current.stars >= stars:
        return []
    scored = []
    for h in _suitable(pool, brief):
        if h.stars <= current.stars or h.name == current.name:
            continue
        rooms = math.ceil(brief.people / max(1, h.beds or 1))
        km = haversine_km(h.location, focus)
        scored.append((abs(h.stars - stars), (h.cost or 0.0) * rooms + km * KM_NIGHT_COST * rooms, h.name, h))
    scored.sort(key=lambda x: (x[0], x[1], x[2]))
    return [h for *_, h in scored[:limit]]


def hotel_options(pool: CityPool, brief: Brief, focus: LngLat, limit: int = 5) -> list[Poi]:
    """Suitable hotels (features, price cap), cheapest for the group first, near ``focus`` preferred."""
    scored: list[tuple[float, str, Poi]] = []
    for h in _suitable(pool, brief):
        rooms = math.ceil(brief.people / max(1, h.beds or 1))
        night = (h.cost or 0.0) * rooms
        km = haversine_km(h.location, focus)
        scored.append((night * brief.nights + km * KM_NIGHT_COST * brief.nights * rooms, h.name, h))
    scored.sort(key=lambda x: (x[0], x[1]))
    return [h for _, _, h in scored[:limit]]


def attraction_values(pool: CityPool, brief: Brief, landmarks: set[str], frugal: bool) -> dict[str, float]:
    """A static desirability of every attraction (interests, fame, rating, ticket price)."""
    interests = set(brief.interests)
    out: dict[str, float] = {}
    for p in pool.attractions:
        v = p.rating
        hits = len(interests & (set(p.tags) | {p.category}))
        v += 0.8 * min(hits, 3)
        if p.name in landmarks:
            v += 2.0 if brief.prefers("landmark_visits") else 0.6
        cost = p.cost or 0.0
        v -= cost / (25.0 if frugal or brief.prefers("ticket_cost") else 80.0)
        if brief.prefers("attraction_time"):
            v += 0.2 * p.visit_hours
        out[p.name] = v
    return out


def attraction_keywords(brief: Brief) -> list[str]:
    """poi_search keywords for sights: must-visit names, then the interests (or 景点)."""
    words = list(brief.must_visit)
    skip = {"美食探店"}
    interests = [i for i in brief.interests if i not in skip]
    words += interests[:3]
    if len(interests) < 2:
        words.append("景点")
    return list(dict.fromkeys(words))


def restaurant_keywords(brief: Brief, local_cuisine: str, breakfast: bool) -> list[str]:
    """poi_search keywords for meals: required cuisines, vegetarian, local food, snacks, breakfast."""
    words = list(brief.cuisines)
    if brief.vegetarian_meals or brief.prefers("vegetarian_meals"):
        words.append(VEGETARIAN_CUISINE)
    if local_cuisine:
        words.append(local_cuisine)
    words.append("小吃")
    if breakfast:
        words.append("早餐")
    return list(dict.fromkeys(words))


async def hotel_query(searcher: Searcher, hotel: Poi, brief: Brief) -> str:
    """A poi_search keyword whose visible results include ``hotel`` (a generic one when possible)."""
    tries: list[str] = []
    if brief.hotel_features:
        tries.append(" ".join(["酒店", *brief.hotel_features]))
    tries += [t for t in hotel.tags if t]
    tries.append("酒店")
    if hotel.brand:
        tries.append(hotel.brand)
    for word in tries:
        hits = await searcher.poi_search(word)
        if any(p.name == hotel.name for p in hits.pois):
            return word
    return hotel.name

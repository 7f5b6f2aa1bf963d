"""The planner's working objects: places, inner-city legs, planned activities, and moving between places.

A :class:`Mover` turns "go from A to B at time t" into transport legs with the world's own
route (the same :class:`~navworld.dsl.world_view.WorldLookup` the verifier uses, so distances,
durations and fares agree with the checks), choosing walk, transit or taxi by a simple policy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from navworld.core.geo import LngLat, haversine_km
from navworld.core.models import Flight, Poi, Route, Train
from navworld.core.plan import format_minutes
from navworld.dsl.world_view import WorldLookup

__all__ = ["Leg", "Mover", "Place", "Policy", "Stop"]

WALK_MAX_MIN = 18
"""Walk when the walk takes at most this long."""
TRANSIT_SLACK = 1.6
"""Prefer transit unless it takes more than this × the taxi time + :data:`TRANSIT_EXTRA_MIN`."""
TRANSIT_EXTRA_MIN = 12
FRUGAL_TRANSIT_MAX_MIN = 180
"""When economising, transit is taken unless it takes longer than this."""
PLAN_MODES = {"walk": "walking", "transit": "transit", "taxi": "driving"}


@dataclass(frozen=True)
class Place:
    """A named location: a POI of the destination, or a station/airport."""

    name: str
    loc: LngLat
    poi: Poi | None = None

    @classmethod
    def of(cls, poi: Poi) -> Place:
        """The place of a POI."""
        return cls(poi.name, poi.location, poi)


@dataclass(frozen=True)
class Leg:
    """One inner-city leg of a transfer."""

    mode: str
    start: str
    end: str
    t0: int
    t1: int
    route: Route
    price: float
    cost: float
    tickets: int | None = None
    cars: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The plan JSON of the leg."""
        out: dict[str, Any] = {
            "mode": self.mode,
            "start": self.start,
            "end": self.end,
            "start_time": format_minutes(self.t0),
            "end_time": format_minutes(self.t1),
            "distance": round(self.route.distance_m / 1000.0, 2),
            "price": _money(self.price),
            "cost": _money(self.cost),
        }
        if self.tickets is not None:
            out["tickets"] = self.tickets
        if self.cars is not None:
            out["cars"] = self.cars
        return out

    @property
    def minutes(self) -> int:
        """Duration in minutes."""
        return self.t1 - self.t0


def _money(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 2)


@dataclass
class Stop:
    """One planned activity with its inbound legs."""

    kind: str
    start: int
    end: int
    place: Place | None = None
    legs: list[Leg] = field(default_factory=list)
    price: float = 0.0
    cost: float = 0.0
    tickets: int | None = None
    rooms: int | None = None
    room_type: int | None = None
    service: Flight | Train | None = None
    seat: str = ""
    origin: str = ""
    arrive: str = ""

    @property
    def transfer_cost(self) -> float:
        """What the inbound legs cost."""
        return sum(leg.cost for leg in self.legs)

    @property
    def total(self) -> float:
        """The activity cost plus its inbound legs."""
        return self.cost + self.transfer_cost

    @property
    def name(self) -> str:
        """POI name, or the train/flight number."""
        if self.place is not None and self.kind not in ("airplane", "train"):
            return self.place.name
        if isinstance(self.service, Flight):
            return self.service.flight_no
        if isinstance(self.service, Train):
            return self.service.train_no
        return ""

    def to_dict(self) -> dict[str, Any]:
        """The plan JSON of the activity (ID fields before ``transports``)."""
        out: dict[str, Any] = {"type": self.kind, "start_time": format_minutes(self.start), "end_time": format_minutes(self.end)}
        if self.kind in ("airplane", "train"):
            out["start"] = self.origin
            out["end"] = self.arrive
            if isinstance(self.service, Flight):
                out["FlightID"] = self.service.flight_no
            elif isinstance(self.service, Train):
                out["TrainID"] = self.service.train_no
        else:
            out["position"] = self.place.name if self.place else ""
        out["price"] = _money(self.price)
        out["cost"] = _money(self.cost)
        if self.tickets is not None:
            out["tickets"] = self.tickets
        if self.rooms is not None:
            out["rooms"] = self.rooms
            out["room_type"] = self.room_type
        out["transports"] = [leg.to_dict() for leg in self.legs]
        return out


@dataclass(frozen=True)
class Policy:
    """How the traveller moves inside the city."""

    public_only: bool = False
    fast: bool = False
    frugal: bool = False
    modes: frozenset[str] = frozenset()
    """When set, the only plan modes allowed (``walk``, ``transit``, ``taxi``)."""


class Mover:
    """Builds transfers between places from the world's routes (cached per planning run)."""

    def __init__(self, lookup: WorldLookup, city: str, people: int, policy: Policy) -> None:
        self.lookup = lookup
        self.city = city
        self.people = people
        self.policy = policy
        self.cars = math.ceil(people / 4)
        self.min_minutes = int(getattr(lookup.world, "min_leg_minutes", 1))
        """Shortest leg the world reports (1 minute; worlds that truncate to whole minutes say 0)."""
        self._memo: dict[tuple[str, str], tuple[str, Route] | None] = {}

    def route(self, a: Place, b: Place, mode: str) -> Route | None:
        """The world's route for plan mode ``mode`` (walk/transit/taxi)."""
        return self.lookup.route(a.loc, b.loc, mode, self.city)

    def choose(self, a: Place, b: Place) -> tuple[str, Route] | None:
        """The mode and route for going from ``a`` to ``b`` (None when no allowed mode works)."""
        key = (a.name, b.name)
        if key in self._memo:
            return self._memo[key]
        if self.policy.modes:
            self._memo[key] = self._choose_among(a, b, self.policy.modes)
            return self._memo[key]
        found: tuple[str, Route] | None = None
        if haversine_km(a.loc, b.loc) < 3.0:
            walk = self.route(a, b, "walk")
            if walk is not None and walk.duration_s <= WALK_MAX_MIN * 60:
                found = ("walk", walk)
        if found is None:
            transit = self.route(a, b, "transit")
            taxi = None if self.policy.public_only else self.route(a, b, "taxi")
            if transit is None and taxi is None:
                walk = self.route(a, b, "walk")
                found = ("walk", walk) if walk is not None and walk.duration_s <= 90 * 60 else None
            elif taxi is None:
                found = ("transit", transit)  # type: ignore[assignment]
            elif transit is None:
                found = ("taxi", taxi)
            elif self.policy.frugal:
                found = ("transit", transit) if transit.duration_s <= FRUGAL_TRANSIT_MAX_MIN * 60 else ("taxi", taxi)
            elif self.policy.fast:
                found = ("taxi", taxi) if taxi.duration_s + 600 < transit.duration_s else ("transit", transit)
            else:
                slow = transit.duration_s > TRANSIT_SLACK * taxi.duration_s + TRANSIT_EXTRA_MIN * 60
                found = ("taxi", taxi) if slow else ("transit", transit)
        self._memo[key] = found
        return found

    def _choose_among(self, a: Place, b: Place, modes: frozenset[str]) -> tuple[str, Route] | None:
        """The mode and route among the allowed ``modes`` only (walk when short, else the faster)."""
        if "walk" in modes and haversine_km(a.loc, b.loc) < 3.0:
            walk = self.route(a, b, "walk")
            if walk is not None and (walk.duration_s <= WALK_MAX_MIN * 60 or modes == {"walk"}):
                return ("walk", walk)
        transit = self.route(a, b, "transit") if "transit" in modes else None
        taxi = self.route(a, b, "taxi") if "taxi" in modes else None
        if transit is not None and taxi is not None:
            slow = transit.duration_s > TRANSIT_SLACK * taxi.duration_s + TRANSIT_EXTRA_MIN * 60
            return ("taxi", taxi) if slow and not self.policy.frugal else ("transit", transit)
        if transit is not None:
            return ("transit", transit)
        if taxi is not None:
            return ("taxi", taxi)
        if "walk" in modes:
            walk = self.route(a, b, "walk")
            return ("walk", walk) if walk is not None and walk.duration_s <= 90 * 60 else None
        return None

    def minutes(self, a: Place, b: Place) -> int | None:
        """Travel minutes from ``a`` to ``b`` (0 at the same place, None when impossible)."""
        if a.name == b.name:
            return 0
        got = self.choose(a, b)
        return None if got is None else max(self.min_minutes, math.ceil(got[1].duration_s / 60))

    def legs(self, a: Place, b: Place, t: int) -> list[Leg] | None:
        """The transfer from ``a`` leaving at ``t`` (``[]`` at the same place)."""
        if a.name == b.name:
            return []
        got = self.choose(a, b)
        if got is None:
            return None
        mode, route = got
        t1 = t + max(self.min_minutes, math.ceil(route.duration_s / 60))
        if mode == "taxi":
            return [Leg(mode, a.name, b.name, t, t1, route, route.taxi_cost, route.taxi_cost * self.cars, cars=self.cars)]
        if mode == "transit":
            price = route.transit_cost
            return [Leg(mode, a.name, b.name, t, t1, route, price, price * self.people, tickets=self.people)]
        return [Leg(mode, a.name, b.name, t, t1, route, 0.0, 0.0)]

    def cost(self, a: Place, b: Place) -> float:
        """What the transfer costs the group."""
        legs = self.legs(a, b, 0) or []
        return sum(leg.cost for leg in legs)

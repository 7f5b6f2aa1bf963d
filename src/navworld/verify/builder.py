"""Build a consistent plan from world lookups (used by tests, the benchmark and examples).

:class:`PlanBuilder` walks the itinerary forward in time: each visit gets the world's route from
the current position (``transports`` with the route's distance, duration and fare), starts at
the later of its arrival and the requested time, and takes its price from the POI. Plans built
this way pass every environment check as long as the requested times respect opening hours and
meal windows, so a test can mutate one field and expect exactly one check to fail.
"""

from __future__ import annotations

import math
from typing import Any

from navworld.core.models import Flight, Train
from navworld.core.plan import format_minutes, to_minutes
from navworld.dsl.world_view import WorldView, lookup_for, short_city

__all__ = ["PlanBuilder"]


class PlanBuilder:
    """Append activities day by day; :meth:`plan` returns the plan JSON dict."""

    def __init__(self, world: WorldView, *, people: int, start_city: str, target_city: str) -> None:
        self.world = world
        self.lookup = lookup_for(world)
        self.people = people
        self.start_city = start_city
        self.city = short_city(target_city)
        self.days: list[list[dict[str, Any]]] = [[]]
        self.position: str | None = None
        self.clock = to_minutes("08:00")

    def _place(self, name: str) -> tuple[float, float]:
        loc = self.lookup.locate(self.city, name)
        if loc is None:
            raise ValueError(f"unknown place {name!r} in {self.city}")
        return loc

    def transfer(self, destination: str, mode: str) -> list[dict[str, Any]]:
        """Legs from the current position to ``destination`` (``[]`` when already there); advances the clock."""
        if self.position is None or self.position == destination:
            return []
        route = self.lookup.route(self._place(self.position), self._place(destination), mode, self.city)
        if route is None:
            raise ValueError(f"no {mode} route {self.position} → {destination}")
        minutes = max(1, math.ceil(route.duration_s / 60))
        start = self.clock
        self.clock += minutes
        leg: dict[str, Any] = {
            "mode": mode,
            "start": self.position,
            "end": destination,
            "start_time": format_minutes(start),
            "end_time": format_minutes(self.clock),
            "distance": round(route.distance_m / 1000.0, 2),
        }
        if mode == "taxi":
            cars = math.ceil(self.people / 4)
            leg.update(price=route.taxi_cost, cars=cars, cost=route.taxi_cost * cars)
        elif mode == "transit":
            leg.update(price=route.transit_cost, tickets=self.people, cost=route.transit_cost * self.people)
        else:
            leg.update(price=0.0, cost=0.0)
        return [leg]

    def intercity(self, row: Flight | Train, mode: str = "taxi") -> dict[str, Any]:
        """Take a train/flight; for the return trip, first transfer to its station/airport."""
        kind = "airplane" if isinstance(row, Flight) else "train"
        dep, arr = (row.from_airport, row.to_airport) if isinstance(row, Flight) else (row.from_station, row.to_station)
        legs = self.transfer(dep, mode) if self.position is not None else []
        if self.position is not None and self.clock > to_minutes(row.dep_time):
            raise ValueError(f"cannot reach {dep} by {row.dep_time}")
        price = row.price
        act: dict[str, Any] = {
            "type": kind,
            "start": dep,
            "end": arr,
            "start_time": row.dep_time,
            "end_time": row.arr_time,
            "price": price,
            "cost": price * self.people,
            "tickets": self.people,
            "transports": legs,
            ("FlightID" if kind == "airplane" else "TrainID"): row.flight_no if isinstance(row, Flight) else row.train_no,
        }
        self.days[-1].append(act)
        self.position = arr
        self.clock = to_minutes(row.arr_time)
        return act

    def visit(self, kind: str, name: str, *, at: str | None = None, minutes: int = 60, mode: str = "taxi",
              rooms: int | None = None) -> dict[str, Any]:
        """An attraction, meal or accommodation at ``name`` (POI of the target city)."""
        poi = self.lookup.poi(self.city, name)
        if poi is None:
            raise ValueError(f"unknown POI {name!r} in {self.city}")
        legs = self.transfer(name, mode)
        start = max(self.clock, to_minutes(at)) if at else self.clock
        end = to_minutes("24:00") if kind == "accommodation" else start + minutes
        act: dict[str, Any] = {"type": kind, "position": name, "start_time": format_minutes(start),
                               "end_time": format_minutes(end), "transports": legs}
        if kind == "attraction":
            price = poi.cost or 0.0
            act.update(price=price, tickets=self.people, cost=price * self.people)
        elif kind == "accommodation":
            beds = poi.beds or 1
            n = rooms if rooms is not None else math.ceil(self.people / beds)
            price = poi.cost or 0.0
            act.update(price=price, rooms=n, room_type=beds, cost=price * n)
        else:
            price = 0.0 if poi.kind == "hotel" else (poi.cost or 0.0)
            act.update(price=price, cost=price * self.people)
        self.days[-1].append(act)
        self.position = name
        self.clock = end
        return act

    def next_day(self, at: str = "08:00") -> None:
        """Start a new day at ``at`` from the current position (the hotel)."""
        self.days.append([])
        self.clock = to_minutes(at)

    def plan(self) -> dict[str, Any]:
        """The plan JSON built so far."""
        return {
            "people_number": self.people,
            "start_city": self.start_city,
            "target_city": self.city,
            "itinerary": [{"day": i + 1, "activities": acts} for i, acts in enumerate(self.days)],
        }

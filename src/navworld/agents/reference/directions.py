"""Which inner-city routes the episode asks the directions tool for (at most ten, longest first,
returned in plan order), and a spare route for a plan without any leg.
"""

from __future__ import annotations

from navworld.agents.reference.brief import Brief
from navworld.agents.reference.model import Leg, Mover, Place, Policy, Stop
from navworld.core.models import Poi
from navworld.dsl.world_view import WorldLookup

__all__ = ["MAX_DIRECTIONS", "choose_directions", "spare_route"]

MAX_DIRECTIONS = 10
"""Most directions calls of one episode."""


def choose_directions(b: Brief, days: list[list[Stop]], lookup: WorldLookup, sights: list[Poi]) -> list[Leg]:
    """The legs worth a directions call: non-walking and longest first, one per (start, end, mode)."""
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
    return chosen or spare_route(b, days, lookup, sights)


def spare_route(b: Brief, days: list[list[Stop]], lookup: WorldLookup, sights: list[Poi]) -> list[Leg]:
    """A plan without any leg still gets one route: from where the day starts to the best sight found."""
    places = [s.place for day in days for s in day if s.place is not None]
    if not places or not sights:
        return []
    start = places[0]
    sight = next((p for p in sights if p.name != start.name), None)
    if sight is None:
        return []
    mover = Mover(lookup, b.dest, b.people, Policy(public_only=b.public_only, modes=frozenset(b.inner_modes)))
    legs = mover.legs(start, Place.of(sight), 0)
    return legs[:1] if legs else []

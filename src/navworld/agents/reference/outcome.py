"""What the trip search produces: its tunings, the verified :class:`Outcome`, and the small
measures and finishing touches applied to a found plan (plan dict, total, richness, seat upgrade).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from navworld.agents.reference.brief import Brief
from navworld.agents.reference.model import Leg, Stop
from navworld.agents.reference.options import Service
from navworld.agents.reference.pools import Around
from navworld.core.models import Poi
from navworld.core.problem import Problem
from navworld.verify import Verification, verify_plan

__all__ = [
    "TUNINGS",
    "UPGRADE_SHARE",
    "Outcome",
    "PlanningError",
    "Tuning",
    "is_adequate",
    "plan_dict",
    "plan_total",
    "richness",
    "upgrade_seats",
]

UPGRADE_SHARE = 0.5
"""A better hotel may use at most this share of the budget left over by the cheapest plan."""


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
"""The tunings the search tries, in order."""


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


def plan_dict(b: Brief, days: list[list[Stop]]) -> dict[str, Any]:
    """The JSON plan of the scheduled ``days``."""
    return {
        "people_number": b.people,
        "start_city": b.origin if b.has_origin else b.dest,
        "target_city": b.dest,
        "itinerary": [{"day": i + 1, "activities": [s.to_dict() for s in stops]} for i, stops in enumerate(days)],
    }


def plan_total(days: list[list[Stop]]) -> float:
    """What the scheduled ``days`` cost in all."""
    return sum(s.total for day in days for s in day)


def richness(found: Outcome) -> float:
    """Sights plus half the meals of a plan (to keep the richest fallback)."""
    stops = [s for day in found.days for s in day]
    return sum(1.0 for s in stops if s.kind == "attraction") + 0.5 * sum(
        1.0 for s in stops if s.kind in ("breakfast", "lunch", "dinner"))


def is_adequate(found: Outcome, days: int) -> bool:
    """A plan worth keeping without looking further: sights and meals on (almost) every day."""
    sights = sum(1 for day in found.days for s in day if s.kind == "attraction")
    meals = sum(1 for day in found.days for s in day if s.kind in ("lunch", "dinner"))
    return sights >= max(1, days - 1) and meals >= max(1, days - 1)


def upgrade_seats(b: Brief, found: Outcome, problem: Problem, world: Any) -> Outcome | None:
    """A better train seat class when the traveller values comfort over price and the budget allows."""
    go, back = found.go, found.back
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
    plan = plan_dict(b, days)
    ver = verify_plan(plan, problem, world, None)
    total = plan_total(days)
    if not ver.final_pass or total > b.budget:
        return None
    return replace(found, plan=plan, days=days, go=new.get(go.number, go), back=new.get(back.number, back),
                   verification=ver, total=total, tuning=found.tuning + "+seats")

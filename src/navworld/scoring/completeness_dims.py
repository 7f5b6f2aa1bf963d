"""Completeness dimensions per problem type (seed §3.4) and, for scorer s2, targets from the request."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from navworld.scoring import config as C
from navworld.scoring import patterns as P

__all__ = ["DIMENSIONS", "Dim", "Target", "request_targets"]

Target = Callable[[int], int]


@dataclass(frozen=True, slots=True)
class Dim:
    """One completeness dimension: method, points, keyword/context, fact sources and target."""

    name: str
    pts: float
    method: str
    kw: re.Pattern[str] | None = None
    ctx: re.Pattern[str] | None = None
    sources: tuple[str, ...] = ()
    target: Target = lambda d: 1
    fallback: tuple[str, ...] = ()


def _t(n: int) -> Target:
    return lambda d: n


DIMENSIONS: dict[str, tuple[Dim, ...]] = {
    "intercity": (
        Dim("flights", 5, "verified", P.KW_FLIGHT, sources=("flights",), target=_t(2)),
        Dim("trains", 5, "verified", P.KW_TRAIN, sources=("trains",), target=_t(2)),
        Dim("times", 5, "grounded", P.KW_TIMES, P.CTX_TIMES, ("times",), _t(3)),
        Dim("prices", 5, "grounded", P.KW_PRICE, P.CTX_PRICE, ("prices",), _t(3)),
        Dim("recommendations", 5, "grounded", P.KW_RECOMMEND, P.CTX_REASON, ("pois",), _t(2)),
    ),
    "multiday": (
        Dim("day_structure", 5, "days"),
        Dim(
            "attractions",
            5,
            "grounded",
            P.KW_ATTRACTION,
            P.CTX_ATTRACTION,
            ("pois:attraction",),
            lambda d: 2 * d,
        ),
        Dim("dining", 4, "grounded", P.KW_DINING, P.CTX_DINING, ("pois:restaurant",), lambda d: d),
        Dim(
            "accommodation",
            4,
            "grounded",
            P.KW_LODGING,
            P.CTX_LODGING,
            ("pois:hotel",),
            lambda d: max(1, d - 1),
        ),
        Dim(
            "transportation",
            4,
            "grounded",
            P.KW_TRANSPORT_LOCAL,
            P.CTX_TRANSPORT_LOCAL,
            ("distances", "durations"),
            _t(2),
        ),
        Dim("budget", 3, "grounded", P.KW_BUDGET, P.CTX_BUDGET, ("prices",), _t(2)),
    ),
    "hybrid": (
        Dim(
            "transport_plan", 6, "verified", P.KW_TRANSPORT_PLAN, sources=("flights", "trains"), target=_t(2)
        ),
        Dim("day_structure", 5, "days"),
        Dim(
            "attractions",
            4,
            "grounded",
            P.KW_ATTRACTION,
            P.CTX_ATTRACTION,
            ("pois:attraction",),
            lambda d: max(3, 2 * d),
        ),
        Dim("dining", 4, "grounded", P.KW_DINING, P.CTX_DINING, ("pois:restaurant",), lambda d: max(2, d)),
        Dim("budget", 3, "grounded", P.KW_BUDGET, P.CTX_BUDGET, ("prices",), _t(2)),
        Dim("weather", 3, "grounded", P.KW_WEATHER, P.CTX_WEATHER, ("weather",), _t(1)),
    ),
    "single_poi": (
        Dim("tour_arrangement", 6, "grounded", P.KW_TOUR, P.CTX_TOUR, ("pois",), _t(2)),
        Dim("nearby", 5, "grounded", P.KW_NEARBY, P.CTX_NEARBY, ("pois",), _t(3)),
        Dim(
            "transport_distance",
            5,
            "grounded",
            P.KW_LOCAL_DISTANCE,
            P.CTX_TRANSPORT_LOCAL,
            ("distances", "durations"),
            _t(2),
        ),
        Dim(
            "tickets_tips",
            5,
            "grounded",
            P.KW_TICKETS,
            P.CTX_TICKETS,
            ("prices", "times"),
            _t(2),
            ("pois", "distances"),
        ),
        Dim("budget", 4, "grounded", P.KW_BUDGET, P.CTX_BUDGET, ("prices",), _t(1)),
    ),
    "food_tour": (
        Dim("restaurants", 6, "grounded", P.KW_RESTAURANT, P.CTX_RESTAURANT, ("pois:restaurant",), _t(5)),
        Dim("dishes", 5, "grounded", P.KW_DISHES, P.CTX_DISHES, ("pois:restaurant",), _t(3)),
        Dim("route_order", 5, "grounded", P.KW_ROUTE, P.CTX_ROUTE, ("distances", "durations"), _t(2)),
        Dim("cost", 5, "grounded", P.KW_COST, P.CTX_BUDGET, ("prices",), _t(2), ("pois", "distances")),
        Dim("tips", 4, "grounded", P.KW_TIPS, P.CTX_TIPS, ("pois", "weather"), _t(1)),
    ),
    "business": (
        Dim(
            "transport_plan", 6, "verified", P.KW_TRANSPORT_PLAN, sources=("flights", "trains"), target=_t(2)
        ),
        Dim("hotels", 5, "grounded", P.KW_HOTEL, P.CTX_LODGING, ("pois:hotel",), _t(2)),
        Dim("dining", 4, "grounded", P.KW_DINING, P.CTX_DINING, ("pois:restaurant",), _t(2)),
        Dim("cost", 5, "grounded", P.KW_COST, P.CTX_BUDGET, ("prices",), _t(2)),
        Dim("business_facilities", 5, "grounded", P.KW_BUSINESS, P.CTX_BUSINESS, ("pois",), _t(2)),
    ),
    "family_study": (
        Dim("day_structure", 5, "days"),
        Dim("family_content", 5, "grounded", P.KW_FAMILY, P.CTX_FAMILY, ("pois",), _t(2)),
        Dim("education", 5, "grounded", P.KW_EDUCATION, P.CTX_EDUCATION, ("pois",), _t(2)),
        Dim(
            "dining_lodging",
            5,
            "grounded",
            P.KW_DINING_LODGING,
            P.CTX_DINING,
            ("pois",),
            lambda d: max(1, d - 1),
        ),
        Dim("budget", 5, "grounded", P.KW_BUDGET, P.CTX_BUDGET, ("prices",), _t(2), ("pois", "distances")),
    ),
}


def request_targets(problem: Any) -> dict[str, Target]:
    """Scorer s2: completeness targets that follow the request instead of contradicting it.

    A relaxed pace (``轻松休闲``) halves the attractions a day; a program capping attractions per
    day caps the target; a food tour needs the restaurants its prompt asks for (2 a day), not a
    fixed 5; a multi-day trip needs a hotel, not one per night."""
    out: dict[str, Target] = {}
    ptype = problem.problem_type
    relaxed = any(c in C.RELAXED_PACE_CONSTRAINTS for c in (problem.constraints or [])) or (
        getattr(problem, "group_type", None) in C.FEWER_SIGHTS_GROUPS
    )
    cap = None
    for source in problem.hard_logic or []:
        if "dayactivities" in source and (m := P.MAX_PER_DAY_PROGRAM.search(source)):
            cap = int(m.group(1)) if cap is None else min(cap, int(m.group(1)))
    per_day = 1 if relaxed else 2
    if cap is not None:
        per_day = max(1, min(per_day, cap))
    if ptype == "multiday":
        out["attractions"] = lambda d, k=per_day: k * d
        # the prompt asks for "具体的酒店" with its nightly price: one hotel for every night is an
        # answer, not a hotel short per night (the seed's d − 1)
        out["accommodation"] = lambda d: 1
    elif ptype == "hybrid":
        out["attractions"] = lambda d, k=per_day: max(k + 1, k * d)
    elif ptype == "food_tour":
        out["restaurants"] = lambda d: min(5, max(2, 2 * d))
    return out



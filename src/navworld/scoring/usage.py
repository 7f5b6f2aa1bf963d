"""Scorer s2: which tools the answer actually used, and how well the calls covered the trip's dates.

A required tool counts only when a *relevant* call of it (:mod:`navworld.scoring.trajectory`)
returned something the answer uses: a POI it returned named in the answer or the plan, a route
distance/duration/road of ``direction`` in the prose or a plan leg's distance, a weather fact, a flight/train ID (a relevant search of the other mode then counts too: it
is the comparison the requests ask for). Presence alone (one trivial call each) earns nothing.
"""

from __future__ import annotations

from typing import Any

from navworld.scoring import config as C
from navworld.scoring.answer_facts import AnswerFacts
from navworld.scoring.facts import ToolFacts
from navworld.scoring.parser import ParsedAnswer
from navworld.scoring.trajectory import Trip

__all__ = ["date_coverage", "tools_used"]


def _near(values: set[float], target: float, rel: float, absolute: float) -> bool:
    return any(abs(v - target) <= max(rel * target, absolute) for v in values)


def tools_used(tf: ToolFacts, af: AnswerFacts, pa: ParsedAnswer) -> frozenset[str]:
    """Relevant tools whose results the answer (prose or plan) uses."""
    used: set[str] = set()
    for name in af.pois:
        used |= tf.poi_sources.get(name, set())
    for act in pa.activities:
        if act.position in tf.poi_sources:
            used |= tf.poi_sources[act.position]
    if (
        any(_near(tf.route_distances, d, C.DISTANCE_MATCH_TOLERANCE, 0.0) for d, _ in af.distances)
        or any(_near({float(x) for x in tf.route_durations}, float(m), 0.0, C.DURATION_MATCH_TOLERANCE_MIN) for m, _ in af.durations)
        or af.matched_roads
        or any(
            leg.distance and _near(tf.route_distances, leg.distance * 1000.0, C.DISTANCE_MATCH_TOLERANCE, 0.0)
            for act in pa.activities
            for leg in act.legs
        )
    ):
        used.add("direction")
    if (tf.weather & af.weather) or (tf.wind & {w for w, _ in af.wind}):
        used.add("weather")
    ids = af.flight_ids | af.train_ids | {a.transport_id for a in pa.activities if a.transport_id}
    if ids & tf.flights:
        used.add("search_flights")
    if ids & tf.trains:
        used.add("search_train_tickets")
    if used & C.TRANSPORT_TOOLS:
        used |= C.TRANSPORT_TOOLS  # a relevant search of the mode not chosen was the comparison asked for
    return frozenset(used & tf.relevant)


def date_coverage(tf: ToolFacts, trip: Trip, required: tuple[str, ...]) -> tuple[float, dict[str, Any]]:
    """``(multiplier, detail)``: trip days without a forecast and outbound/return dates never searched."""
    mult = 1.0
    detail: dict[str, Any] = {}
    if "weather" in required and trip.dates:
        cov = len(tf.weather_call_days & set(trip.dates)) / len(trip.dates)
        detail["weather_days_covered"] = round(cov, 3)
        mult -= C.DATE_COVERAGE_WEIGHT * (1.0 - cov)
    if trip.transport_dates and set(required) & C.TRANSPORT_TOOLS:
        cov = len(tf.transport_dates & trip.transport_dates) / len(trip.transport_dates)
        detail["transport_dates_covered"] = round(cov, 3)
        mult -= C.DATE_COVERAGE_WEIGHT * (1.0 - cov)
    return max(0.0, mult), detail

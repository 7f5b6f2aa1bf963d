"""Inner-city transport checks (ChinaTravel #5–#7) and the space check (#25).

A *transfer* is the list of ``transports`` legs attached to an activity: the inbound route from
where the previous activity ended. It may pass through intermediate *stops* (lunch → hotel →
dinner, all listed under the dinner), which split it into *hops*: a leg ends at a stop when it
ends at a known attraction, restaurant or hotel of the target city, or at any place the world can
locate (a station, an airport) where the traveller waits at least :data:`STOP_GAP_MIN` minutes
before the next leg. Stations never split on their own, so ChinaTravel's walk/metro/walk
through metro stations stays one hop. Each hop is one leg of one mode, or walk legs around one
main mode; its distance, duration and fare are compared with the world's route between the hop's
first start and last end, within the tolerances below. A stop is always a place the world knows,
so in a chained transfer a hop's ends are known whenever the transfer's are: splitting never hides
a leg from these comparisons.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from navworld.core.models import Route
from navworld.core.plan import TransportLeg
from navworld.verify.context import CheckContext, money_ok
from navworld.verify.registry import check

__all__ = [
    "BIKE_PRICE_MAX",
    "DISTANCE_ABS_KM",
    "DISTANCE_REL",
    "DURATION_ABS_MIN",
    "DURATION_FAST",
    "DURATION_SLOW",
    "DURATION_SLOW_ABS_MIN",
    "STOP_GAP_MIN",
    "WALK_FREE_TOL",
    "hops",
    "main_mode",
]

DISTANCE_ABS_KM = 0.5
DISTANCE_REL = 0.15
"""A transfer's distance passes within ±(0.5 km + 15 %) of the world's route."""
DURATION_FAST = 0.8
DURATION_ABS_MIN = 2.0
"""A transfer may not be faster than 80 % of the world's duration minus 2 minutes …"""
DURATION_SLOW = 1.5
DURATION_SLOW_ABS_MIN = 20.0
"""… nor slower than 150 % plus 20 minutes (waiting, rounding)."""
BIKE_PRICE_MAX = 10.0
FARE_REL = 0.05
FARE_ABS = 2.0
"""A leg's taxi/transit fare passes within ±(2 元 or 5 %, whichever is larger) of the world's fare for
the route between its endpoints: a fare the ``direction`` tool quoted for a point a few hundred
metres from the POI (the coordinates a model typed) stays within it, a made-up fare does not."""
"""A shared bicycle may cost 0–10 元 per person."""
WALK_FREE_TOL = 0.005
"""Walking is free: a walk leg's price and cost must be 0 within half a fen (not the ±1 元 of money_ok)."""
STOP_GAP_MIN = 30
"""A wait this long (minutes) between two legs at a place the world knows makes that place a stop."""


def main_mode(legs: list[TransportLeg]) -> str | None:
    """The transfer's main mode (non-walk mode, or walk); None when legs mix several modes."""
    modes = {leg.mode for leg in legs} - {"walk"}
    if not modes:
        return "walk"
    return modes.pop() if len(modes) == 1 else None


def _leg_min(text: str) -> int:
    return CheckContext.minutes(text)


def _is_stop(cx: CheckContext, arriving: TransportLeg, leaving: TransportLeg) -> bool:
    """Whether the traveller stops where ``arriving`` ends (a broken chain after it is space_connected's)."""
    place = arriving.end.strip()
    if not place:
        return False
    poi = cx.poi(place)
    if poi is not None and poi.kind != "hub":
        return True
    gap = _leg_min(leaving.start_time) - _leg_min(arriving.end_time)
    return gap >= STOP_GAP_MIN and cx.lookup.locate(cx.target, place) is not None


def hops(cx: CheckContext, legs: list[TransportLeg]) -> list[list[TransportLeg]]:
    """The legs of a transfer split at its intermediate stops (``[]`` for no legs)."""
    if len(legs) < 2:
        return [legs] if legs else []
    out = [[legs[0]]]
    for arriving, leaving in itertools.pairwise(legs):
        if _is_stop(cx, arriving, leaving):
            out.append([leaving])
        else:
            out[-1].append(leaving)
    return out


def _label(where: str, k: int, n: int) -> str:
    return where if n == 1 else f"{where} hop {k + 1}/{n}"


def _by_mode(legs: list[TransportLeg]) -> list[list[TransportLeg]]:
    """A hop cut where its main mode changes (walk legs go with the mode after them)."""
    out: list[list[TransportLeg]] = [[]]
    mode: str | None = None
    for leg in legs:
        if leg.mode != "walk" and mode is not None and leg.mode != mode:
            out.append([])
        if leg.mode != "walk":
            mode = leg.mode
        out[-1].append(leg)
    return [part for part in out if part]


def _transfers(cx: CheckContext) -> Iterator[tuple[str, list[TransportLeg], str]]:
    """``(where, legs, main mode)`` of every single-mode part of every hop. A hop mixing several
    modes (which ``transport_shape`` flags) is checked part by part, each against its own mode's
    route: a made-up chain cannot escape the route and fare checks, and a mode change at a place
    the world cannot locate is a ``transport_route`` violation (see :func:`unlocated_changes`)."""
    for s in cx.steps:
        parts = hops(cx, s.act.transports)
        for k, hop in enumerate(parts):
            for legs in _by_mode(hop):
                mode = main_mode(legs)
                if mode is not None:
                    yield _label(s.where, k, len(parts)), legs, mode


def unlocated_changes(cx: CheckContext) -> Iterator[str]:
    """Mode changes inside a hop at a place the world cannot locate (nothing to check it against)."""
    for s in cx.steps:
        parts = hops(cx, s.act.transports)
        for k, hop in enumerate(parts):
            pieces = _by_mode(hop)
            for piece in pieces[1:]:
                place = piece[0].start.strip()
                if cx.lookup.locate(cx.target, place) is None:
                    yield f"{_label(s.where, k, len(parts))}: changes mode at {place!r}, a place the world does not know"


def _route(cx: CheckContext, legs: list[TransportLeg], mode: str) -> Route | None:
    a = cx.lookup.locate(cx.target, legs[0].start.strip())
    b = cx.lookup.locate(cx.target, legs[-1].end.strip())
    if a is None or b is None:
        return None
    return cx.lookup.route(a, b, mode)  # the direction tool's route for these points (the world's city rule)


@check("transport_shape", "transport", "each hop of a transfer is one mode, optionally with walk legs around it (walk/transit/walk)")
def transport_shape(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        parts = hops(cx, s.act.transports)
        for k, legs in enumerate(parts):
            if main_mode(legs) is None:
                yield f"{_label(s.where, k, len(parts))}: transfer mixes {', '.join(sorted({leg.mode for leg in legs} - {'walk'}))}"


@check("transport_route", "transport", "each hop's distance and duration agree with the world's route (±0.5 km+15 %; 0.8×−2 … 1.5×+20 min)")
def transport_route(cx: CheckContext) -> Iterator[str]:
    yield from unlocated_changes(cx)
    for where, legs, mode in _transfers(cx):
        route = _route(cx, legs, mode)
        if route is None:
            continue
        if any(leg.distance is None for leg in legs):
            yield f"{where}: transport leg without distance"
        else:
            dist = sum(leg.distance or 0.0 for leg in legs)
            want = route.distance_m / 1000.0
            if abs(dist - want) > DISTANCE_ABS_KM + DISTANCE_REL * want:
                yield f"{where}: {mode} distance {dist:.2f} km, the route is {want:.2f} km"
        span = _leg_min(legs[-1].end_time) - _leg_min(legs[0].start_time)
        want_min = route.duration_s / 60.0
        if span < DURATION_FAST * want_min - DURATION_ABS_MIN:
            yield f"{where}: {mode} takes {span} min, the route needs {want_min:.0f} min"
        elif span > DURATION_SLOW * want_min + DURATION_SLOW_ABS_MIN:
            yield f"{where}: {mode} takes {span} min, the route needs only {want_min:.0f} min"


def _walk_charged(amount: float | None) -> bool:
    return amount is not None and abs(amount) > WALK_FREE_TOL


@check("transport_price", "transport", "each hop's price matches its route (±2 元 or 5 %): taxi fare per car, transit fare per person, walking free")
def transport_price(cx: CheckContext) -> Iterator[str]:
    for where, legs, mode in _transfers(cx):
        for leg in legs:
            if leg.mode == "walk" and _walk_charged(leg.price):
                yield f"{where}: walking leg priced {leg.price:g}"
            elif leg.mode == "bicycling" and (leg.price is None or not 0.0 <= leg.price <= BIKE_PRICE_MAX):
                yield f"{where}: bicycle leg price {leg.price} outside 0–{BIKE_PRICE_MAX:g}"
            elif leg.mode in ("taxi", "transit") and leg.price is None:
                yield f"{where}: {leg.mode} leg without price"
        if mode not in ("taxi", "transit") or any(leg.price is None for leg in legs if leg.mode == mode):
            continue
        route = _route(cx, legs, mode)
        if route is None:
            continue
        fare = route.taxi_cost if mode == "taxi" else route.transit_cost
        price = sum(leg.price or 0.0 for leg in legs if leg.mode == mode)
        if abs(price - fare) > max(FARE_ABS, FARE_REL * fare):
            unit = "per car" if mode == "taxi" else "per person"
            yield f"{where}: {mode} price {price:g}, the route's fare is {fare:g} {unit}"


@check("transport_cost", "transport", "leg cost = price × tickets (transit, bicycle), × cars (taxi), exactly 0 (walk)")
def transport_cost(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        for leg in s.act.transports:
            if leg.mode == "walk":
                if _walk_charged(leg.cost):
                    yield f"{s.where}: walking leg costs {leg.cost:g}"
                continue
            if leg.price is None:
                continue  # transport_price owns a missing price
            n = (leg.cars if leg.cars is not None else cx.default_cars()) if leg.mode == "taxi" else (
                leg.tickets if leg.tickets is not None else cx.people
            )
            if not money_ok(leg.cost, leg.price * n):
                what = "cars" if leg.mode == "taxi" else "tickets"
                yield f"{s.where}: {leg.mode} leg cost {leg.cost} ≠ price {leg.price:g} × {n} {what}"


@check("space_connected", "space", "a change of place has a transfer from the previous place to this one; no transfer in place")
def space_connected(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        legs = s.act.transports
        here = s.arrive_at
        if not here:
            continue  # activity_fields owns a missing position
        for a, b in itertools.pairwise(legs):
            if a.end.strip() != b.start.strip():
                yield f"{s.where}: leg ends at {a.end!r} but the next leg starts at {b.start!r}"
        if s.prev is None:
            if legs and legs[-1].end.strip() != here:
                yield f"{s.where}: transfer ends at {legs[-1].end!r}, not at {here!r}"
            continue
        there = s.prev.leave_from
        if not there:
            continue
        if there == here:
            if legs:
                yield f"{s.where}: transfer although the previous activity was already at {here!r}"
            continue
        if not legs:
            yield f"{s.where}: no transport from {there!r} to {here!r}"
            continue
        if legs[0].start.strip() != there:
            yield f"{s.where}: transfer starts at {legs[0].start!r}, the previous activity ended at {there!r}"
        if legs[-1].end.strip() != here:
            yield f"{s.where}: transfer ends at {legs[-1].end!r}, not at {here!r}"

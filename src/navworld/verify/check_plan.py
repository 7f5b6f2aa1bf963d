"""Structure checks (the plan fits the task) and intercity checks (ChinaTravel #1–#4)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from navworld.dsl.world_view import short_city
from navworld.verify.context import CheckContext, Step, money_ok
from navworld.verify.registry import check

__all__: list[str] = []


@check("itinerary_days", "structure", "days numbered 1..N in order, N = the task's days, none empty")
def itinerary_days(cx: CheckContext) -> Iterator[str]:
    days = cx.plan.itinerary
    if len(days) != cx.problem.num_days:
        yield f"{len(days)} days planned, the task has {cx.problem.num_days}"
    for i, d in enumerate(days):
        if d.day != i + 1:
            yield f"itinerary[{i}] is numbered day {d.day}, expected {i + 1}"
        if not d.activities:
            yield f"day {i + 1} has no activities"


@check("task_match", "structure", "start/target city and people_number are the task's")
def task_match(cx: CheckContext) -> Iterator[str]:
    p = cx.plan
    if short_city(p.target_city) != cx.target:
        yield f"target_city {p.target_city!r}, the task goes to {cx.target!r}"
    start = short_city(p.start_city)
    if cx.has_origin and start != cx.origin:
        yield f"start_city {p.start_city!r}, the task starts in {cx.origin!r}"
    if not cx.has_origin and start not in ("", cx.target):
        yield f"start_city {p.start_city!r}, but the task has no origin city"
    if p.people_number != cx.people:
        yield f"people_number {p.people_number}, the task has {cx.people} travellers"


@check("activity_fields", "structure", "intercity activities have start/end and their ID; POI activities have a position and no ID")
def activity_fields(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        a = s.act
        if a.is_intercity:
            if not (a.start or "").strip() or not (a.end or "").strip():
                yield f"{s.where}: intercity activity needs start and end"
            own, other = ("FlightID", "TrainID") if a.type == "airplane" else ("TrainID", "FlightID")
            if not (getattr(a, own) or "").strip():
                yield f"{s.where}: missing {own}"
            if (getattr(a, other) or "").strip():
                yield f"{s.where}: a {a.type} must not carry {other}"
        else:
            if not (a.position or "").strip():
                yield f"{s.where}: missing position"
            if a.FlightID or a.TrainID:
                yield f"{s.where}: a {a.type} must not carry FlightID/TrainID"


@check("intercity_endpoints", "intercity", "with an origin city the trip starts and ends with a train/flight; none elsewhere")
def intercity_endpoints(cx: CheckContext) -> Iterator[str]:
    if not cx.steps:
        return
    first, last = cx.steps[0], cx.steps[-1]
    if cx.has_origin:
        if not (first.act.is_intercity and first.day == 0):
            yield "the first activity of day 1 must be the train/flight to the destination"
        if not (last.act.is_intercity and last.day == cx.days - 1) or last is first:
            yield "the last activity of the last day must be the train/flight home"
        for s in cx.steps[1:-1]:
            if s.act.is_intercity:
                yield f"{s.where}: intercity activity in the middle of the trip"
    else:
        for s in cx.steps:
            if s.act.is_intercity:
                yield f"{s.where}: the task has no origin city, so no train/flight"


def _legs(cx: CheckContext) -> Iterator[tuple[Step, Any, str]]:
    """(step, world row or None, description) of the outbound and return train/flight."""
    for step, src, dst, date in ((cx.go, cx.origin, cx.target, cx.travel_date), (cx.back, cx.target, cx.origin, cx.return_date)):
        if step is None:
            continue
        ident = (step.act.transport_id or "").strip()
        if not ident:
            continue  # activity_fields owns a missing ID
        rows = cx.lookup.transport(step.act.type, date, src, dst)
        yield step, rows.get(ident), f"{ident} ({src}→{dst} {date})"


@check("intercity_exists", "intercity", "the FlightID/TrainID runs on that date and route in the world")
def intercity_exists(cx: CheckContext) -> Iterator[str]:
    for step, row, what in _legs(cx):
        if row is None:
            yield f"{step.where}: no {step.act.type} {what}"


def _ends(row: Any) -> tuple[str, str]:
    if hasattr(row, "from_airport"):
        return row.from_airport, row.to_airport
    return row.from_station, row.to_station


@check("intercity_stations", "intercity", "start/end are the departure and arrival station/airport of that train/flight")
def intercity_stations(cx: CheckContext) -> Iterator[str]:
    for step, row, what in _legs(cx):
        if row is None:
            continue
        dep, arr = _ends(row)
        if (step.act.start or "").strip() != dep:
            yield f"{step.where}: {what} departs from {dep}, not {step.act.start!r}"
        if (step.act.end or "").strip() != arr:
            yield f"{step.where}: {what} arrives at {arr}, not {step.act.end!r}"


@check("intercity_times", "intercity", "start_time/end_time equal the timetable")
def intercity_times(cx: CheckContext) -> Iterator[str]:
    for step, row, what in _legs(cx):
        if row is None:
            continue
        if step.act.start_minutes != cx.minutes(row.dep_time) or step.act.end_minutes % 1440 != cx.minutes(row.arr_time) % 1440:
            yield f"{step.where}: {what} runs {row.dep_time}–{row.arr_time}, plan says {step.act.start_time}–{step.act.end_time}"


@check("intercity_price", "intercity", "price equals the fare (a flight's price, or one of the train's seat prices)")
def intercity_price(cx: CheckContext) -> Iterator[str]:
    for step, row, what in _legs(cx):
        if row is None:
            continue
        price = step.act.price
        if price is None:
            yield f"{step.where}: missing price"
            continue
        fares = [s.price for s in row.seats] if hasattr(row, "seats") else [row.price]
        if not any(money_ok(price, f) for f in fares):
            yield f"{step.where}: price {price:g} is not a fare of {what} ({', '.join(f'{f:g}' for f in fares)})"


@check("intercity_cost", "intercity", "cost = price × tickets")
def intercity_cost(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        a = s.act
        if not a.is_intercity or a.price is None:
            continue
        tickets = a.tickets if a.tickets is not None else cx.people
        if not money_ok(a.cost, a.price * tickets):
            yield f"{s.where}: cost {a.cost} ≠ price {a.price:g} × {tickets} tickets"

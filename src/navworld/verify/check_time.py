"""Time (#23–#24 plus no-overlap), capacity and grounding checks."""

from __future__ import annotations

from collections.abc import Iterator

from navworld.core.plan import Activity
from navworld.verify.context import CheckContext, Step
from navworld.verify.registry import check

__all__: list[str] = []


@check("time_valid", "time", "every activity ends after it starts (a train/flight or a hotel stay may end the next day)")
def time_valid(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        a = s.act
        if a.is_intercity:
            if a.start_minutes == a.end_minutes:
                yield f"{s.where}: departs and arrives at {a.start_time}"
        elif a.type == "accommodation":
            if a.start_minutes == a.end_minutes:
                yield f"{s.where}: the stay ends when it starts ({a.start_time})"
        elif a.end_minutes <= a.start_minutes:
            yield f"{s.where}: ends at {a.end_time}, not after its start {a.start_time}"


def _ends_at(a: Activity) -> int:
    """When an activity frees the traveller, on its own day's clock: an overnight train/flight at
    its arrival (ChinaTravel lists what follows on the same day); an overnight hotel stay the next
    morning (``07:00`` → 1860, so nothing else fits in that day)."""
    start, end = a.start_minutes, a.end_minutes
    if end < start:
        if a.is_intercity:
            return end
        if a.type == "accommodation":
            return end + 1440
    return max(start, end)


def free_from(s: Step) -> tuple[Step, int] | None:
    """The activity the traveller comes from and the minute (on ``s``'s day clock) it frees them.

    Within a day: the previous activity's end. For a day's first activity: the previous day's last
    activity when it ran past midnight (a stay until ``07:00`` or ``31:00`` frees them at 07:00;
    ``24:00`` binds nothing). An activity at the very place of that stay (a hotel breakfast) is
    taken during it and is not bound.
    """
    p = s.same_day_prev
    if p is not None:
        return p, _ends_at(p.act)
    p = s.prev
    if p is None or p.day != s.day - 1 or p.act.is_intercity:
        return None
    free = _ends_at(p.act) - 1440
    if free <= 0 or (s.arrive_at and s.arrive_at == p.leave_from):
        return None
    return p, free


@check("time_sequence", "time", "activities are in order and do not overlap (an overnight stay binds the next morning)")
def time_sequence(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        bound = free_from(s)
        if bound is not None and s.act.start_minutes < bound[1]:
            yield f"{s.where}: starts {s.act.start_time} before the previous activity ends ({bound[0].act.end_time})"


@check("transport_timing", "time", "transfer legs run in order after the previous activity and arrive before this one")
def transport_timing(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        legs = s.act.transports
        if not legs:
            continue
        times = [(cx.minutes(leg.start_time), cx.minutes(leg.end_time)) for leg in legs]
        for i, (a, b) in enumerate(times):
            if b < a:
                yield f"{s.where}: leg {i + 1} ends {legs[i].end_time} before it starts {legs[i].start_time}"
            if i and a < times[i - 1][1]:
                yield f"{s.where}: leg {i + 1} starts before leg {i} arrives"
        if times[-1][1] > s.act.start_minutes:
            yield f"{s.where}: transfer arrives {legs[-1].end_time}, after the activity starts {s.act.start_time}"
        bound = free_from(s)
        # an overlap of the activities themselves belongs to time_sequence
        if bound is not None and s.act.start_minutes >= bound[1] and times[0][0] < bound[1]:
            yield f"{s.where}: transfer leaves {legs[0].start_time}, before the previous activity ends {bound[0].act.end_time}"


@check("capacity_tickets", "capacity", "every train/flight/attraction (and transit leg that states tickets) has tickets = people")
def capacity_tickets(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        a = s.act
        if a.is_intercity or a.type == "attraction":
            if a.tickets is None:
                yield f"{s.where}: missing tickets"
            elif a.tickets != cx.people:
                yield f"{s.where}: {a.tickets} tickets for {cx.people} people"
        for leg in a.transports:
            if leg.mode in ("transit", "bicycling") and leg.tickets is not None and leg.tickets != cx.people:
                yield f"{s.where}: {leg.mode} leg with {leg.tickets} tickets for {cx.people} people"


@check("capacity_cars", "capacity", "taxi legs that state cars carry everyone (4 per car)")
def capacity_cars(cx: CheckContext) -> Iterator[str]:
    for s in cx.steps:
        for leg in s.act.transports:
            if leg.mode == "taxi" and leg.cars is not None and (leg.cars < 1 or leg.cars * 4 < cx.people):
                yield f"{s.where}: {leg.cars} taxi(s) for {cx.people} people"


@check("capacity_rooms", "capacity", "rooms × beds per room ≥ people")
def capacity_rooms(cx: CheckContext) -> Iterator[str]:
    for s in cx.of_type("accommodation"):
        a = s.act
        if a.rooms is None:
            yield f"{s.where}: missing rooms"
            continue
        poi = cx.poi(a.position)
        beds = poi.beds if poi is not None and poi.kind == "hotel" and poi.beds else a.room_type
        if beds is None:
            continue
        if a.rooms < 1 or a.rooms * beds < cx.people:
            yield f"{s.where}: {a.rooms} room(s) × {beds} bed(s) for {cx.people} people"


def cited_entities(cx: CheckContext) -> list[tuple[str, str]]:
    """``(where, name)`` of every POI name, FlightID and TrainID the plan cites."""
    out: list[tuple[str, str]] = []
    for s in cx.steps:
        a = s.act
        name = (a.transport_id if a.is_intercity else a.position) or ""
        if name.strip():
            out.append((s.where, name.strip()))
    return out


def mentioned(name: str, text: str) -> bool:
    """Whether ``name`` occurs in ``text`` as a whole name: not glued to a letter, digit or CJK
    character on either side (so ``西湖`` is not grounded by ``西湖醋鱼老店``, nor ``G72`` by ``G7205``)."""
    start = text.find(name)
    while start != -1:
        end = start + len(name)
        before = text[start - 1] if start > 0 else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() and name[0].isalnum()) and not (after.isalnum() and name[-1].isalnum()):
            return True
        start = text.find(name, start + 1)
    return False


@check("grounding", "grounding", "every POI name, FlightID and TrainID appears in a tool result of the episode")
def grounding(cx: CheckContext) -> Iterator[str]:
    text = cx.trace_text
    if text is None:
        return  # not checked without a trace (reported as skipped)
    seen: set[str] = set()
    for where, name in cited_entities(cx):
        if name in seen:
            continue
        seen.add(name)
        if not mentioned(name, text):
            yield f"{where}: {name!r} never appeared in a tool result"

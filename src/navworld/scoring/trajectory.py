"""Scorer s2: which tool calls of an episode may ground an answer (trajectory rules).

A call grounds facts only when it was really made and answered in this episode for this trip:

* **pairing** — tool-call ids are unique across the episode; a tool message answers the pending
  call with its exact ``tool_call_id``. A repeated id is an error call (its result is ignored);
  a tool message that answers no pending call (an *orphan*: no id, an unknown id, an id already
  answered) is ignored.
* **topic** — the call's city arguments resolve to a trip city (:mod:`navworld.scoring.topic`);
  POIs a search returned for another city are dropped (a POI search whose results all lie in
  another city is off-topic).
* **dates** — weather must be the destination's and cover a day of the trip; flight/train searches must be for
  the outbound or the return date, on the trip's city pair.
* **relevance** — a call a planner would make: ``poi_search`` with a keyword that is more than the
  city's name, ``direction`` between two distinct places. Trivial calls still ground what they
  returned but never count as having used the tool.

:func:`classify` gives each call one status; :class:`Trip` holds the problem's cities and
dates, computed once per problem. The same rules feed the step rewards
(:mod:`navworld.env.rewards`).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.topic import call_cities, resolve_name, topic_cities
from navworld.scoring.trace import ToolCallRecord, iter_events

__all__ = [
    "DUPLICATE_ID",
    "ERROR",
    "OFF_TOPIC",
    "OK",
    "ORPHAN",
    "TRIVIAL",
    "WRONG_DATE",
    "Trip",
    "classify",
    "coordinate_pair",
    "read_strict",
    "trip_of",
]

OK = "ok"
TRIVIAL = "trivial"
ERROR = "error"
DUPLICATE_ID = "duplicate_id"
ORPHAN = "orphan"
OFF_TOPIC = "off_topic"
WRONG_DATE = "wrong_date"

GROUNDING = frozenset({OK, TRIVIAL})
"""Statuses whose results ground facts."""


@dataclass(frozen=True, slots=True)
class Trip:
    """The cities and dates of a problem."""

    topic: frozenset[str]
    origin: str
    destination: str
    dates: tuple[str, ...]
    """Every day of the trip (ISO), first to last."""
    transport_dates: frozenset[str]
    """Outbound and return dates (empty without an origin city)."""

    @property
    def has_origin(self) -> bool:
        """Whether the trip starts in another city."""
        return bool(self.origin) and self.origin != self.destination


@lru_cache(maxsize=1024)
def _trip(origin: str, destination: str, travel_date: str, num_days: int, return_date: str) -> Trip:
    topic = topic_cities(origin, destination)
    o = resolve_name(origin) or origin.strip() if origin else ""
    d = resolve_name(destination) or destination.strip()
    dates: list[str] = []
    try:
        start = _dt.date.fromisoformat(travel_date)
        dates = [(start + _dt.timedelta(days=i)).isoformat() for i in range(max(1, num_days))]
    except (TypeError, ValueError):
        pass
    back = return_date or (dates[-1] if dates else "")
    transport = frozenset(x for x in (travel_date, back) if x) if o and o != d else frozenset()
    return Trip(topic, o, d, tuple(dates), transport)


def trip_of(problem: Any) -> Trip:
    """The :class:`Trip` of a :class:`~navworld.core.problem.Problem` (cached)."""
    extra = getattr(problem, "extra", None) or {}
    back = extra.get("return_date") if isinstance(extra, dict) else None
    return _trip(
        problem.origin_city or "",
        problem.destination_city or "",
        problem.travel_date or "",
        int(problem.num_days or 1),
        back if isinstance(back, str) else "",
    )


def read_strict(trace: object) -> tuple[list[ToolCallRecord], list[str]]:
    """Every tool call in order with its result, pairing by exact id (never raises).

    Returns the calls and notes on what was ignored (``orphan result``, ``repeated call id``).
    A call whose id repeats an earlier call's id gets status :data:`DUPLICATE_ID` and no result.
    """
    calls: list[list[Any]] = []
    pending: dict[str, int] = {}
    used: set[str] = set()
    notes: list[str] = []
    for kind, call_id, a, b in iter_events(trace):
        if kind == "call":
            status = OK
            if call_id is None:
                call_id = f"_noid{len(calls)}"
                status = ORPHAN
            elif call_id in used:
                status = DUPLICATE_ID
                if len(notes) < 20:
                    notes.append(f"repeated call id {call_id[:40]!r}")
            else:
                used.add(call_id)
                pending[call_id] = len(calls)
            calls.append([call_id, a, b, None, status])
            continue
        idx = pending.pop(call_id, None) if isinstance(call_id, str) else None
        if idx is None:
            if len(notes) < 20:
                notes.append(f"orphan result for {str(call_id)[:40]!r}")
            continue
        calls[idx][3] = a
    return [ToolCallRecord(c[0], c[1], c[2], c[3] if c[4] == OK else None, c[4]) for c in calls], notes


def coordinate_pair(call: ToolCallRecord) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """``(origin, destination)`` of a direction call as ``(lng, lat)`` pairs, or None."""
    args = call.arguments or {}
    pts = []
    for key in ("origin", "destination"):
        value = args.get(key)
        if not isinstance(value, str):
            return None
        parts = value.replace("，", ",").split(",")
        if len(parts) != 2:
            return None
        try:
            pts.append((float(parts[0]), float(parts[1])))
        except ValueError:
            return None
    return pts[0], pts[1]


def _trivial(call: ToolCallRecord, trip: Trip) -> bool:
    args = call.arguments or {}
    if call.name == "poi_search":
        address = str(args.get("address", "") or "").strip()
        return len(address) < 2 or resolve_name(address) is not None
    if call.name == "direction":
        pair = coordinate_pair(call)
        if pair is None:
            return False
        (a, b), (c, d) = pair
        return abs(a - c) + abs(b - d) < C.TRIVIAL_DIRECTION_DEGREES
    return False


def _weather_days(text: str) -> list[str]:
    return [m.group(1) for line in P.LINE_SPLIT.split(text) if (m := P.TOOL_DATE_HEADER.match(line))]


def classify(call: ToolCallRecord, trip: Trip) -> str:
    """The status of one call under the s2 rules (see the module docstring)."""
    if call.status != OK:
        return call.status
    if call.is_error:
        return ERROR
    if trip.topic and call.arguments:
        named = call_cities(call.name, call.arguments, trip.topic)
        if any(c not in trip.topic for c in named):
            return OFF_TOPIC
    if call.name in C.TRANSPORT_TOOLS:
        args = call.arguments or {}
        if not trip.has_origin:
            return OFF_TOPIC
        pair = {resolve_name(str(args.get("from_city", ""))), resolve_name(str(args.get("to_city", "")))}
        if pair != {trip.origin, trip.destination}:
            return OFF_TOPIC
        if str(args.get("date", "")).strip() not in trip.transport_dates:
            return WRONG_DATE
    elif call.name == "weather":
        city = resolve_name(str((call.arguments or {}).get("city", "")))
        if city is not None and trip.destination and city != trip.destination:
            return OFF_TOPIC  # the traveller spends the trip at the destination: its weather counts
        days = _weather_days(call.result) if call.result is not None else []
        if trip.dates and days and not set(days) & set(trip.dates):
            return WRONG_DATE
    if _trivial(call, trip):
        return TRIVIAL
    return OK

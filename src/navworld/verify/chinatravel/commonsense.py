"""ChinaTravel's environment ("commonsense") checks, column by column, with their exact rules.

Re-implemented from their documented behaviour (``symbol_verification/commonsense_constraint.py``
of ChinaTravel ``main``; ``reference/chinatravel-compat.md`` §3): seven validators, 25 static
columns spelled as their evaluator spells them (typos included), plus two columns their code
creates the first time they fire. Each column is ``1`` when violated. What their code does is
kept on purpose, including:

* exact equality for intercity, hotel and restaurant prices; ``int()`` truncation for attractions;
* their meal windows (lunch starts before 14:00 and ends after 11:00, dinner 20:00 / 17:00;
  breakfast is checked only at a hotel: before 09:00 / after 06:00);
* per-leg comparison with ``goto`` and the walk/metro/walk or single walk/taxi shape;
* at least one hotel for a trip longer than a day; no capacity checks;
* the typo column ``Inccorrect cost information of Inner-City Transport`` is only ever set
  together with the other transport columns; a real cost error creates
  ``Incorrect cost information of Inner-City Transport`` instead (and a missing leg time
  ``Incorrect Duration Information of Inner-City Transport``); once such a column exists, a later
  "fail all three columns" in the same plan raises (their table has four columns by then);
* a validator that raises (their code does not catch it) stops the plan's remaining validators:
  :class:`Outcome.exception` holds the error and the columns not reached count as passed in
  micro EPR while the plan cannot pass (their evaluation wrapper swallows the exception).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["COLUMNS", "DYNAMIC_COLUMNS", "STATIC_COLUMNS", "Outcome", "check_commonsense"]

IC = (
    "Intercity transportation events must occur",
    "Invalid Trains or Airplanes, given TrainID/FlightID, origin and destination",
    "Incorrect Information of Intercity Transport on price or duration",
    "Incorrect Cost on Intercity Transportation",
)
ATTR = (
    "Unavailable attractions",
    "Visiting attraction in their closed time",
    "Repeated attraction Choices",
    "Incorrect price Information of attraction",
    "Incorrect cost Information of attraction",
)
HOTEL = (
    "Unavailable Accommodation",
    "Incorrect Information of Accommodation on price or room type",
    "Incorrect cost Information of Accommodation",
    "Accomondation is necessary for trips longer than one day",
)
REST = (
    "Unavailable Restruants",
    "Visiting Restruants in their closed time",
    "Repeated Restruants Choices",
    "Incorrect price Information of Restruants",
    "Incorrect cost Information of Restruants",
    "Inappropriate Meal Times",
)
TRANS = (
    "Unavailable Inner-City Transport",
    "Incorrect Information of Inner-City Transporton on price, distance, and duration",
    "Inccorrect cost information of Inner-City Transport",
)
TIME = ("Invalid duration information of each activity", "Does not follow Chronological Order")
SPACE = ("Invalid Transport information across positions",)
T_COST = "Incorrect cost information of Inner-City Transport"
T_DURATION = "Incorrect Duration Information of Inner-City Transport"

STATIC_COLUMNS: tuple[str, ...] = IC + ATTR + HOTEL + REST + TRANS + TIME + SPACE
"""The 25 columns every plan is scored on, in their evaluator's order."""
DYNAMIC_COLUMNS: tuple[str, ...] = (T_COST, T_DURATION)
"""Columns their code creates the first time they fire (so their number depends on the batch)."""
COLUMNS: tuple[str, ...] = STATIC_COLUMNS + DYNAMIC_COLUMNS


class _Table:
    """One validator's flags (a one-row table that gains a column when an unknown one is set)."""

    def __init__(self, columns: tuple[str, ...]) -> None:
        self.flags: dict[str, int] = dict.fromkeys(columns, 0)

    def set(self, column: str) -> None:
        self.flags[column] = 1

    def fill(self, *values: int) -> None:
        if len(values) != len(self.flags):
            raise ValueError(f"cannot set a row with mismatched columns ({len(values)} values, {len(self.flags)} columns)")
        for k, v in zip(list(self.flags), values, strict=True):
            self.flags[k] = v


def _minutes(text: Any) -> float:
    return float(text.split(":")[0]) * 60 + float(text.split(":")[1])


def _earlier_eq(a: Any, b: Any) -> bool:
    return _minutes(a) <= _minutes(b)


def _real(text: Any) -> float:
    return _minutes(text.split("次日")[-1])


def _tables(world: Any, city: Any) -> Any:
    return world.tables(city)  # KeyError for a city the database does not have: their select raises too


def _intercity(q: dict[str, Any], plan: Any, world: Any) -> _Table:
    t = _Table(IC)
    if not isinstance(plan, dict):
        t.fill(1, 1, 1, 1)
        return t
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1, 1)
        return t
    first, last = plan["itinerary"][0], plan["itinerary"][-1]
    target, start = q["target_city"], q["start_city"]
    if len(first["activities"]) == 0 or len(last["activities"]) == 0:
        t.fill(1, 1, 1, 1)
        return t
    go, back = first["activities"][0], last["activities"][-1]
    for act in (go, back):
        if "FlightID" not in act.keys() and "TrainID" not in act.keys():
            t.fill(1, 1, 1, 1)
            return t
    for act in (go, back):
        if act["type"] not in ("airplane", "train"):
            t.fill(0, 1, 1, 1)
            return t
    t.fill(0, 0, 0, 0)
    go_rows = _select(world, start, target, go["type"])
    if not ("start" in go and "end" in go) or not ("start" in back and "end" in back):
        t.fill(0, 1, 1, 1)
        return t
    for act, rows, back_leg in ((go, go_rows, False), (back, None, True)):
        if back_leg:
            rows = _select(world, target, start, back["type"])
        found = False
        id_key = "FlightID" if act["type"] == "airplane" else "TrainID"
        for row in rows or ():
            try:
                act[id_key]
            except Exception:
                t.fill(*((1, 1, 1, 1) if back_leg and id_key == "TrainID" else (0, 1, 1, 1)))
                break
            if act[id_key] == row.id and act["start"] == row.origin and act["end"] == row.destination:
                found = True
                _intercity_details(t, act, row)
                break
        if not found:
            t.fill(0, 1, 1, 1)
    return t


def _intercity_details(t: _Table, act: dict[str, Any], row: Any) -> None:
    try:
        act["start_time"]
        act["end_time"]
        if not (row.begin == act["start_time"] and row.end == act["end_time"]):
            t.set(IC[2])
    except Exception:
        t.set(IC[2])
    try:
        if not row.cost == act["price"]:
            t.set(IC[2])
    except Exception:
        t.set(IC[2])
    try:
        act["tickets"]
        act["cost"]
        if abs(act["price"] * act["tickets"] - act["cost"]) > 0.1:
            t.set(IC[3])
    except Exception:
        t.set(IC[3])


def _select(world: Any, a: Any, b: Any, kind: str) -> list[Any]:
    from navworld.world.chinatravel.layout import city_by_name

    ca, cb = city_by_name(a) if isinstance(a, str) else None, city_by_name(b) if isinstance(b, str) else None
    if ca is None or cb is None or (kind == "train" and ca == cb):
        raise KeyError((a, b))  # their train table has no such pair
    rows = world.db.timetable(kind, ca.zh, cb.zh)
    if kind == "train" and not rows:
        raise TypeError("object of type 'NoneType' has no len()")  # an empty train file: their select fails
    return rows


def _activities(plan: dict[str, Any]) -> Any:
    for day in plan["itinerary"]:
        yield from day["activities"]


def _attractions(q: dict[str, Any], plan: Any, world: Any) -> _Table:
    t = _Table(ATTR)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1, 1, 1)
        return t
    t.fill(0, 0, 0, 0, 0)
    seen: list[Any] = []
    target = q["target_city"]
    for act in _activities(plan):
        try:
            if act["type"] != "attraction":
                continue
        except Exception:
            continue
        try:
            position = act["position"]
        except Exception:
            t.fill(1, 1, 1, 1, 1)
            return t
        tables = _tables(world, target)
        row = tables.attraction_by_name.get(position) if isinstance(position, str) else None
        if row is None:
            t.fill(1, 1, 1, 1, 1)
            return t
        seen.append(position)
        open_t, end_t = row.opentime, row.endtime
        if _earlier_eq(end_t, open_t):
            end_t = f"{int(end_t.split(':')[0]) + 24}:{end_t.split(':')[1]}"
        try:
            if not (_earlier_eq(open_t, act["start_time"]) and _earlier_eq(act["end_time"], end_t)):
                t.set(ATTR[1])
        except Exception:
            t.set(ATTR[1])
        try:
            if int(act["price"]) != int(row.price):
                t.set(ATTR[3])
        except Exception:
            t.set(ATTR[3])
        try:
            act["tickets"]
            if abs(act["price"] * act["tickets"] - act["cost"]) > 0.1:
                t.set(ATTR[4])
        except Exception:
            t.set(ATTR[4])
    if len(set(seen)) != len(seen):
        t.set(ATTR[2])
    return t


def _hotels(q: dict[str, Any], plan: Any, world: Any) -> _Table:
    t = _Table(HOTEL)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1, 1)
        return t
    t.fill(0, 0, 0, 0)
    stays: list[Any] = []
    target = q["target_city"]
    for act in _activities(plan):
        try:
            if act["type"] != "accommodation":
                continue
        except Exception:
            continue
        try:
            position = act["position"]
        except Exception:
            t.fill(1, 1, 1, 1)
            return t
        row = _tables(world, target).hotel_by_name.get(position) if isinstance(position, str) else None
        if row is None:
            t.fill(1, 1, 1, 1)
            return t
        stays.append(position)
        try:
            if act["price"] != row.price:
                t.set(HOTEL[1])
        except Exception:
            t.set(HOTEL[1])
        try:
            if act["room_type"] != row.numbed:
                t.set(HOTEL[1])
        except Exception:
            t.set(HOTEL[1])
        try:
            if abs(act["rooms"] * act["price"] - act["cost"]) > 0.1:
                t.set(HOTEL[2])
        except Exception:
            t.set(HOTEL[2])
    if len(plan["itinerary"]) > 1 and len(stays) == 0:
        t.set(HOTEL[3])
    return t


def _restaurants(q: dict[str, Any], plan: Any, world: Any) -> _Table:
    t = _Table(REST)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1, 1, 1, 1)
        return t
    t.fill(0, 0, 0, 0, 0, 0)
    eaten: list[Any] = []
    target = q["target_city"]
    for act in _activities(plan):
        try:
            if act["type"] not in ("breakfast", "lunch", "dinner"):
                continue
        except Exception:
            continue
        try:
            position = act["position"]
        except Exception:
            t.fill(1, 1, 1, 1, 1, 1)
            return t
        tables = _tables(world, target)
        row = tables.restaurant_by_name.get(position) if isinstance(position, str) else None
        if act["type"] == "breakfast" and row is None:
            if (tables.hotel_by_name.get(position) if isinstance(position, str) else None) is None:
                t.fill(1, 1, 1, 1, 1, 1)
            try:
                if act["price"] != 0:
                    t.set(REST[3])
            except Exception:
                t.set(REST[3])
            try:
                act["start_time"]
                if _earlier_eq("09:00", act["start_time"]) or _earlier_eq(act["end_time"], "06:00"):
                    t.set(REST[5])
            except Exception:
                t.set(REST[5])
            try:
                if abs(q["people_number"] * act["price"] - act["cost"]) > 0.1:
                    t.set(REST[4])
            except Exception:
                t.set(REST[4])
            continue
        if row is None:
            t.fill(1, 1, 1, 1, 1, 1)
            continue
        try:
            if act["price"] != row.price:
                t.set(REST[3])
        except Exception:
            t.set(REST[3])
        try:
            start, end = act["start_time"], act["end_time"]
            if act["type"] == "lunch" and (_earlier_eq("14:00", start) or _earlier_eq(end, "11:00")):
                t.set(REST[5])
            if act["type"] == "dinner" and (_earlier_eq("20:00", start) or _earlier_eq(end, "17:00")):
                t.set(REST[5])
        except Exception:
            t.set(REST[5])
        try:
            if abs(q["people_number"] * act["price"] - act["cost"]) > 0.1:
                t.set(REST[4])
        except Exception:
            t.set(REST[4])
        open_t, end_t = row.opentime, row.endtime
        if _earlier_eq(end_t, open_t):  # a 不营业 restaurant raises here in their code too
            end_t = f"{int(end_t.split(':')[0]) + 24}:{end_t.split(':')[1]}"
        try:
            if not (_earlier_eq(open_t, act["start_time"]) and _earlier_eq(act["end_time"], end_t)):
                t.set(REST[1])
        except Exception:
            t.set(REST[1])
        eaten.append(position)
    if len(set(eaten)) != len(eaten):
        t.set(REST[2])
    return t


def _leg_checks(t: _Table, legs: list[Any], tools: Any, duration_col: str) -> None:
    for idx, leg in enumerate(legs):
        try:
            if leg["start"] != tools[idx]["start"]:
                t.set(TRANS[0])
            if leg["end"] != tools[idx]["end"]:
                t.set(TRANS[0])
        except Exception:
            t.set(TRANS[0])
        try:
            if leg["start_time"] != tools[idx]["start_time"] or leg["end_time"] != tools[idx]["end_time"]:
                t.set(TRANS[1])
        except Exception:
            t.set(duration_col)
        try:
            if abs(leg["price"] - tools[idx]["cost"]) > 0.1:
                t.set(TRANS[1])
        except Exception:
            t.set(TRANS[1])
        try:
            if abs(leg["distance"] - tools[idx]["distance"]) > 0.1:
                t.set(TRANS[1])
        except Exception:
            t.set(TRANS[1])
        mode = leg["mode"]
        try:
            if mode == "metro":
                leg["tickets"]
                if abs(leg["price"] * leg["tickets"] - leg["cost"]) > 0.1:
                    t.set(T_COST)
            elif mode == "walk":
                if leg["cost"] != 0:
                    t.set(T_COST)
            elif mode == "taxi" and duration_col == T_DURATION:
                leg["cars"]
                if abs(leg["price"] * leg["cars"] - leg["cost"]) > 0.1:
                    t.set(T_COST)
        except Exception:
            t.set(T_COST)


def _goto(world: Any, city: Any, a: Any, b: Any, start_time: Any, mode: str) -> Any:
    from navworld.world.chinatravel.goto import NoMetro

    if not isinstance(a, str) or not isinstance(b, str) or not isinstance(start_time, str):
        raise TypeError("goto needs names and a time")
    try:
        return [leg.to_dict() for leg in world.goto(city, a, b, start_time, mode)]
    except NoMetro:
        return "No solution"


def _transport(q: dict[str, Any], plan: Any, world: Any) -> _Table:
    t = _Table(TRANS)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1, 1)
        return t
    t.fill(0, 0, 0)
    target = q["target_city"]
    for act in _activities(plan):
        if "transports" not in act:
            continue
        legs = act["transports"]
        if len(legs) == 0:
            continue
        try:
            legs[0]["start"], legs[-1]["end"], legs[0]["start_time"], legs[-1]["end_time"]
        except Exception:
            t.fill(1, 1, 1)
        source, dest, start_time = legs[0]["start"], legs[-1]["end"], legs[0]["start_time"]
        if len(legs) == 3:
            try:
                tools = _goto(world, target, source, dest, start_time, "metro")
            except Exception:
                t.fill(1, 1, 1)
                continue
            _leg_checks(t, legs, tools, TRANS[1])
            try:
                if legs[0]["mode"] != "walk" or legs[2]["mode"] != "walk" or legs[1]["mode"] != "metro":
                    t.set(TRANS[0])
            except Exception:
                t.set(TRANS[0])
        elif len(legs) == 1 and legs[0]["mode"] in ("walk", "taxi"):
            try:
                tools = _goto(world, target, source, dest, start_time, legs[0]["mode"])
                if not isinstance(tools, list):
                    t.fill(1, 1, 1)
            except Exception:
                t.fill(1, 1, 1)
                continue
            _leg_checks(t, legs, tools, T_DURATION)
        else:
            t.fill(1, 1, 1)
    return t


def _time(q: dict[str, Any], plan: Any, world: Any) -> _Table:
    t = _Table(TIME)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1, 1)
        return t
    t.fill(0, 0)
    for act in _activities(plan):
        try:
            act["start_time"] and act["end_time"]
        except Exception:
            t.set(TIME[0])
            return t
        start, end = act["start_time"], act["end_time"]
        if _real(start) >= _real(end) and act["type"] not in ("train", "airplane"):
            t.set(TIME[1])
        if "transports" not in act:
            continue
        if len(act["transports"]) > 0:
            act["transports"][0]["start_time"]
            if _real(start) < _real(act["transports"][-1]["end_time"]):
                t.set(TIME[1])
    return t


def _space(q: dict[str, Any], plan: Any, world: Any) -> _Table:
    t = _Table(SPACE)
    try:
        plan["itinerary"]
    except Exception:
        t.fill(1)
        return t
    t.fill(0)
    places: list[Any] = []
    for act in _activities(plan):
        if "position" not in act:
            if "start" in act:
                here = act["start"]
            else:
                t.set(SPACE[0])
                continue
        else:
            here = act["position"]
        if "transports" not in act:
            t.set(SPACE[0])
        if places and here != places[-1]:
            if "transports" not in act or len(act["transports"]) < 1:
                t.set(SPACE[0])
                continue
            if act["transports"][0]["start"] != places[-1] or act["transports"][-1]["end"] != here:
                t.set(SPACE[0])
                continue
        places.append(act["position"] if "position" in act else act["end"])
    return t


_VALIDATORS: tuple[Callable[[dict[str, Any], Any, Any], _Table], ...] = (
    _intercity, _attractions, _hotels, _restaurants, _transport, _time, _space,
)
_VALIDATOR_COLUMNS = (IC, ATTR, HOTEL, REST, TRANS, TIME, SPACE)


@dataclass
class Outcome:
    """ChinaTravel's environment verdict on one plan.

    ``flags`` maps every column that was evaluated to 1 (violated) or 0, in their order
    (dynamic columns only when they fired); ``exception`` is the error that stopped the
    validators (``skipped`` lists the columns not reached, counted as passed in micro EPR).
    """

    flags: dict[str, int] = field(default_factory=dict)
    exception: str | None = None
    skipped: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Their commonsense pass: no exception and no flag set."""
        return self.exception is None and not any(self.flags.values())

    def columns(self) -> dict[str, bool]:
        """``{column: passed}`` for the static columns, the dynamic ones that fired, and skipped ones (passed)."""
        out = {c: True for c in STATIC_COLUMNS}
        for c, v in self.flags.items():
            out[c] = v == 0
        return out


def check_commonsense(query: dict[str, Any], plan: Any, world: Any) -> Outcome:
    """Run the seven validators on the raw plan JSON (``{}`` for a missing plan) against ``world``."""
    out = Outcome()
    for i, fn in enumerate(_VALIDATORS):
        try:
            table = fn(query, plan, world)
        except Exception as exc:  # their wrapper catches it: the rest of this plan is not evaluated
            out.exception = f"{fn.__name__.strip('_')}: {type(exc).__name__}: {exc}"[:300]
            out.skipped = [c for cols in _VALIDATOR_COLUMNS[i:] for c in cols]
            break
        out.flags.update(table.flags)
    return out

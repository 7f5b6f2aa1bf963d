"""The structured travel plan an agent delivers (ChinaTravel's itinerary format, DESIGN §7).

A plan is ``{people_number, start_city, target_city, itinerary: [{day, activities: [...]}]}``.
Activities carry a ``type`` (airplane, train, attraction, breakfast, lunch, dinner,
accommodation), ``start_time``/``end_time`` as ``HH:MM``, a ``position`` (POI name) or, for
intercity legs, ``start``/``end`` plus ``FlightID``/``TrainID``, money fields and the inbound
inner-city ``transports`` legs.

The models are lenient where ChinaTravel's own plans need it (extra keys are kept, ``metro`` is
read as ``transit``, the legacy leg key ``type`` is read as ``mode``, the legacy activity key
``transport`` as ``transports``) and strict on types: numbers must be non-negative JSON numbers,
counts must be non-negative integers, times must be ``H:MM`` or ``HH:MM`` (stored as ``HH:MM``).
Semantic rules (prices, opening hours, intercity fields being present …) are environment checks
in :mod:`navworld.verify`, not parse errors, so a delivered plan earns partial credit.

Times may run past midnight (``"24:00"`` … ``"47:59"``): ChinaTravel writes a hotel stay as
ending at ``"24:00"`` and late transfers as ``"24:20"``.

:meth:`Plan.json_schema` is built from the same definitions as the validators (the time pattern,
the accepted spellings of modes and activity types, the number ranges, the legacy keys and the
delivery rule of :func:`undelivered_reason`), so a JSON value is schema-valid exactly when
:func:`navworld.verify.parse_plan` accepts it (``tests/verify/test_plan_schema.py`` proves it with
the ``jsonschema`` library).
"""

from __future__ import annotations

import functools
import math
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

__all__ = [
    "ACTIVITY_SPELLINGS",
    "ACTIVITY_TYPES",
    "INTERCITY_TYPES",
    "MAX_COUNT",
    "MAX_NUMBER",
    "MEAL_TYPES",
    "MODE_ALIASES",
    "MODE_SPELLINGS",
    "TIME_PATTERN",
    "TRANSPORT_MODES",
    "Activity",
    "ActivityType",
    "DayPlan",
    "Plan",
    "TransportLeg",
    "TransportMode",
    "format_minutes",
    "normalise_time",
    "to_minutes",
    "undelivered_reason",
]

ActivityType = Literal["airplane", "train", "attraction", "breakfast", "lunch", "dinner", "accommodation"]
TransportMode = Literal["walk", "transit", "taxi", "bicycling"]

ACTIVITY_TYPES: tuple[str, ...] = ("airplane", "train", "attraction", "breakfast", "lunch", "dinner", "accommodation")
INTERCITY_TYPES: frozenset[str] = frozenset({"airplane", "train"})
MEAL_TYPES: frozenset[str] = frozenset({"breakfast", "lunch", "dinner"})
TRANSPORT_MODES: tuple[str, ...] = ("walk", "transit", "taxi", "bicycling")

MODE_ALIASES: dict[str, str] = {
    "walk": "walk",
    "walking": "walk",
    "步行": "walk",
    "transit": "transit",
    "metro": "transit",
    "subway": "transit",
    "bus": "transit",
    "public_transit": "transit",
    "地铁": "transit",
    "公交": "transit",
    "taxi": "taxi",
    "driving": "taxi",
    "car": "taxi",
    "打车": "taxi",
    "出租车": "taxi",
    "bicycling": "bicycling",
    "bicycle": "bicycling",
    "bike": "bicycling",
    "cycling": "bicycling",
    "骑行": "bicycling",
}
"""Lower-case spellings of a leg's ``mode`` and their canonical mode (ChinaTravel's ``metro`` is
public transit). Programs' mode arguments are read through this table; plans through
:data:`MODE_SPELLINGS`."""


def _case_variants(words: Any) -> dict[str, str]:
    """``{spelling: word}``: every word as written, then Capitalised, Title_Cased and UPPER-CASED."""
    out: dict[str, str] = {}
    for case in (str, str.capitalize, str.title, str.upper):
        for word in words:
            out.setdefault(case(word), word)
    return out


MODE_SPELLINGS: dict[str, str] = {
    k: MODE_ALIASES[v] for k, v in _case_variants(sorted(MODE_ALIASES, key=lambda k: k not in TRANSPORT_MODES)).items()
}
"""Every spelling a plan's leg ``mode`` may have, exactly (no surrounding spaces), and its mode:
the :data:`MODE_ALIASES` as written, Capitalised or UPPER-CASED. The schema's enum is this list."""

ACTIVITY_SPELLINGS: dict[str, str] = _case_variants(ACTIVITY_TYPES)
"""Every spelling an activity ``type`` may have, exactly, and its type (``Lunch``, ``LUNCH`` …)."""

MAX_DAYS = 60
MAX_ACTIVITIES_PER_DAY = 80
MAX_LEGS = 12
MAX_TEXT = 500
MAX_NUMBER = 1e9
"""Money amounts (元) and distances (km) lie in ``[0, MAX_NUMBER]``: a negative cost is refused."""
MAX_COUNT = 10**9
"""Counts (people, tickets, rooms, beds, cars) and day numbers lie in ``[0, MAX_COUNT]``."""

TIME_PATTERN = r"^([0-3]?[0-9]|4[0-7]):([0-5][0-9])$"
"""``H:MM`` or ``HH:MM`` with hours 0–47 and ASCII digits only. The same regular expression is
the parser's test (``re.search``, as the ``jsonschema`` library applies a ``pattern``) and the
schema's ``pattern``. It uses no lookaround, so constrained-decoding engines accept it. Python's
``$`` also matches before one final newline, so ``"08:30\n"`` is accepted (and stored as
``"08:30"``); ECMA-262 validators are stricter there, never more lenient."""

_TIME_RE = re.compile(TIME_PATTERN)


def _show(value: Any) -> str:
    """A short JSON-ish rendering of a bad value for error messages."""
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:40] + "…"
        return '"' + text + '"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def to_minutes(text: str) -> int:
    """Minutes since midnight of an ``HH:MM`` (or ``H:MM``) time (``"24:00"`` → 1440; hours up to 47).

    Raises ``ValueError`` with a readable reason for anything else.
    """
    if type(text) is str:
        return _to_minutes_cached(text)
    raise ValueError(f"expected HH:MM, got {_show(text)}")


@functools.lru_cache(maxsize=4096)
def _to_minutes_cached(text: str) -> int:
    m = _TIME_RE.search(text)
    if m is None:
        raise ValueError(f"expected HH:MM, got {_show(text)}")
    return int(m.group(1)) * 60 + int(m.group(2))


def normalise_time(text: str) -> str:
    """``"8:30"`` → ``"08:30"``; an ``HH:MM`` time unchanged. Raises ``ValueError`` like :func:`to_minutes`."""
    if type(text) is str:
        return _normalised_cached(text)
    raise ValueError(f"expected HH:MM, got {_show(text)}")


@functools.lru_cache(maxsize=4096)
def _normalised_cached(text: str) -> str:
    return format_minutes(_to_minutes_cached(text))


def format_minutes(minutes: int) -> str:
    """Inverse of :func:`to_minutes` (``1440`` → ``"24:00"``)."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _time(value: Any) -> str:
    if type(value) is not str:
        raise ValueError(f"expected HH:MM, got {_show(value)}")
    return normalise_time(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _number(value: Any) -> float:
    if not _is_number(value):
        raise ValueError(f"expected a number, got {_show(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {_show(value)}")
    if value < 0:
        raise ValueError(f"must not be negative, got {_show(value)}")
    if value > MAX_NUMBER:
        raise ValueError(f"must be at most {MAX_NUMBER:g}, got {_show(value)}")
    return float(value)


def _integer(value: Any) -> int:
    if not _is_number(value):
        raise ValueError(f"expected an integer, got {_show(value)}")
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise ValueError(f"expected an integer, got {_show(value)}")
    if value < 0:
        raise ValueError(f"must not be negative, got {_show(value)}")
    if value > MAX_COUNT:
        raise ValueError(f"integer out of range (at most {MAX_COUNT}), got {_show(value)}")
    return int(value)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {_show(value)}")
    if len(value) > MAX_TEXT:
        raise ValueError(f"string longer than {MAX_TEXT} characters")
    return value


def _id_text(value: Any) -> str:
    if _is_number(value) and (isinstance(value, int) or (math.isfinite(value) and value == int(value))):
        return str(int(value))  # FlightID 1234 / 1234.0 → "1234" (JSON cannot tell the two apart)
    if _is_number(value):
        raise ValueError(f"expected a string or an integer, got {_show(value)}")
    return _text(value)


def _mode(value: Any) -> str:
    mode = MODE_SPELLINGS.get(value) if isinstance(value, str) else None
    if mode is None:
        raise ValueError(f"expected one of walk, transit, taxi, bicycling (metro is read as transit), got {_show(value)}")
    return mode


def _activity_type(value: Any) -> str:
    kind = ACTIVITY_SPELLINGS.get(value) if isinstance(value, str) else None
    if kind is None:
        raise ValueError(f"expected one of {', '.join(ACTIVITY_TYPES)}, got {_show(value)}")
    return kind


_TEXT_SCHEMA: dict[str, Any] = {"type": "string", "maxLength": MAX_TEXT}
_TIME_SCHEMA: dict[str, Any] = {"type": "string", "pattern": TIME_PATTERN}
_MODE_SCHEMA: dict[str, Any] = {"type": "string", "enum": list(MODE_SPELLINGS)}
_NULL: dict[str, Any] = {"type": "null"}

Time = Annotated[str, BeforeValidator(_time), WithJsonSchema(_TIME_SCHEMA)]
Number = Annotated[float, BeforeValidator(_number), WithJsonSchema({"type": "number", "minimum": 0, "maximum": MAX_NUMBER})]
Integer = Annotated[int, BeforeValidator(_integer), WithJsonSchema({"type": "integer", "minimum": 0, "maximum": MAX_COUNT})]
Text = Annotated[str, BeforeValidator(_text), WithJsonSchema(_TEXT_SCHEMA)]
IdText = Annotated[str, BeforeValidator(_id_text), WithJsonSchema({"anyOf": [_TEXT_SCHEMA, {"type": "integer"}]})]

_CONFIG = ConfigDict(extra="allow", frozen=True, populate_by_name=True)


def _leg_schema(schema: dict[str, Any]) -> None:
    """The legacy key ``type`` may stand in for ``mode`` (as :meth:`TransportLeg._legacy_keys` reads it)."""
    schema["required"] = [k for k in schema.get("required", []) if k != "mode"]
    schema["anyOf"] = [{"required": ["mode"]}, {"required": ["type"], "properties": {"type": _MODE_SCHEMA}}]


def _activity_schema(schema: dict[str, Any]) -> None:
    """``transports`` may be null, and the legacy key ``transport`` stands in for it when it is absent."""
    legs = schema["properties"]["transports"]
    schema["properties"]["transports"] = {"anyOf": [legs, _NULL]}
    schema["if"] = {"not": {"required": ["transports"]}}
    schema["then"] = {"properties": {"transport": {"anyOf": [legs, _NULL]}}}


def _plan_schema(schema: dict[str, Any]) -> None:
    """``start_city`` may be null (read as ``""``)."""
    schema["properties"]["start_city"] = {"anyOf": [_TEXT_SCHEMA, _NULL], "default": ""}


class TransportLeg(BaseModel):
    """One inner-city leg of the inbound transfer to an activity.

    ``price`` is per person (transit, bicycling) or per car (taxi); ``cost`` is the total:
    ``price × tickets`` (transit), ``price × cars`` (taxi), 0 (walk). ``distance`` is in km.
    """

    model_config = ConfigDict(**_CONFIG, json_schema_extra=_leg_schema)
    mode: Annotated[TransportMode, BeforeValidator(_mode), WithJsonSchema(_MODE_SCHEMA)]
    start: Text = ""
    end: Text = ""
    start_time: Time
    end_time: Time
    distance: Number | None = None
    price: Number | None = None
    cost: Number | None = None
    tickets: Integer | None = None
    cars: Integer | None = None

    @model_validator(mode="before")
    @classmethod
    def _legacy_keys(cls, data: Any) -> Any:
        if isinstance(data, dict) and "mode" not in data and "type" in data:
            data = dict(data)
            data["mode"] = data.pop("type")
        return data


class Activity(BaseModel):
    """One activity of a day: an intercity leg, a visit, a meal or a hotel stay."""

    model_config = ConfigDict(**_CONFIG, json_schema_extra=_activity_schema)
    type: Annotated[ActivityType, BeforeValidator(_activity_type), WithJsonSchema({"type": "string", "enum": list(ACTIVITY_SPELLINGS)})]
    start_time: Time
    end_time: Time
    position: Text | None = None
    start: Text | None = None
    end: Text | None = None
    FlightID: IdText | None = None
    TrainID: IdText | None = None
    price: Number | None = None
    cost: Number | None = None
    tickets: Integer | None = None
    rooms: Integer | None = None
    room_type: Integer | None = None
    transports: list[TransportLeg] = Field(default_factory=list, max_length=MAX_LEGS)

    @model_validator(mode="before")
    @classmethod
    def _legacy_keys(cls, data: Any) -> Any:
        if isinstance(data, dict) and "transports" not in data and "transport" in data:
            data = dict(data)
            data["transports"] = data.pop("transport")
        if isinstance(data, dict) and data.get("transports") is None and "transports" in data:
            data = dict(data)
            data["transports"] = []
        return data

    @property
    def is_intercity(self) -> bool:
        """Whether this is a train or airplane activity."""
        return self.type in INTERCITY_TYPES

    @property
    def is_meal(self) -> bool:
        """Whether this is a breakfast, lunch or dinner."""
        return self.type in MEAL_TYPES

    @property
    def start_minutes(self) -> int:
        """``start_time`` in minutes since midnight."""
        return to_minutes(self.start_time)

    @property
    def end_minutes(self) -> int:
        """``end_time`` in minutes since midnight."""
        return to_minutes(self.end_time)

    @property
    def transport_id(self) -> str | None:
        """``FlightID`` of an airplane or ``TrainID`` of a train activity."""
        if self.type == "airplane":
            return self.FlightID
        if self.type == "train":
            return self.TrainID
        return None


class DayPlan(BaseModel):
    """The activities of one day, in order (``day`` is 1-based)."""

    model_config = _CONFIG
    day: Integer
    activities: list[Activity] = Field(max_length=MAX_ACTIVITIES_PER_DAY)


class Plan(BaseModel):
    """A whole trip: who, from where, to where, and the day-by-day itinerary."""

    model_config = ConfigDict(**_CONFIG, json_schema_extra=_plan_schema)
    people_number: Integer
    start_city: Text = ""
    target_city: Text
    itinerary: list[DayPlan] = Field(max_length=MAX_DAYS)

    @model_validator(mode="before")
    @classmethod
    def _null_start(cls, data: Any) -> Any:
        if isinstance(data, dict) and "start_city" in data and data["start_city"] is None:
            data = dict(data)
            data["start_city"] = ""
        return data

    @property
    def has_origin(self) -> bool:
        """Whether the trip starts in another city (so it has intercity legs)."""
        start = self.start_city.strip()
        return bool(start) and start != self.target_city.strip()

    def activities(self) -> list[Activity]:
        """All activities of the trip in itinerary order."""
        return [a for d in self.itinerary for a in d.activities]

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """The JSON schema (draft 2020-12) of a plan that :func:`navworld.verify.parse_plan` accepts.

        pydantic's schema of the model plus the delivery rule of :func:`undelivered_reason`: at
        least one day, and at least one activity in the whole itinerary.
        """
        schema = cls.model_json_schema()
        itinerary = schema["properties"]["itinerary"]
        itinerary["minItems"] = 1
        itinerary["contains"] = {"properties": {"activities": {"minItems": 1}}}
        return schema


def undelivered_reason(plan: Plan) -> str | None:
    """Why a well-formed plan still counts as *not delivered* (None when it is delivered).

    An empty ``itinerary`` or one without a single activity is no plan: it would otherwise pass
    almost every environment check vacuously. :meth:`Plan.json_schema` states the same rule.
    """
    if not plan.itinerary:
        return "the itinerary is empty"
    if not any(day.activities for day in plan.itinerary):
        return "the itinerary has no activities"
    return None

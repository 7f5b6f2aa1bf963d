"""The structured travel plan an agent delivers (ChinaTravel's itinerary format, DESIGN §7).

A plan is ``{people_number, start_city, target_city, itinerary: [{day, activities: [...]}]}``.
Activities carry a ``type`` (airplane, train, attraction, breakfast, lunch, dinner,
accommodation), ``start_time``/``end_time`` as ``HH:MM``, a ``position`` (POI name) or, for
intercity legs, ``start``/``end`` plus ``FlightID``/``TrainID``, money fields and the inbound
inner-city ``transports`` legs.

The models are lenient where ChinaTravel's own plans need it (extra keys are kept, ``metro`` is
read as ``transit``, the legacy leg key ``type`` is read as ``mode``, the legacy activity key
``transport`` as ``transports``) and strict on types: numbers must be JSON numbers, counts must
be integers, times must be ``HH:MM``. Semantic rules (prices, opening hours, intercity fields
being present …) are environment checks in :mod:`navworld.verify`, not parse errors, so a
delivered plan earns partial credit.

Times may run past midnight (``"24:00"`` … ``"47:59"``): ChinaTravel writes a hotel stay as
ending at ``"24:00"`` and late transfers as ``"24:20"``.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

__all__ = [
    "ACTIVITY_TYPES",
    "INTERCITY_TYPES",
    "MEAL_TYPES",
    "MODE_ALIASES",
    "TRANSPORT_MODES",
    "Activity",
    "ActivityType",
    "DayPlan",
    "Plan",
    "TransportLeg",
    "TransportMode",
    "format_minutes",
    "to_minutes",
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
"""Spellings accepted for a leg's ``mode`` (ChinaTravel's ``metro`` is public transit)."""

MAX_DAYS = 60
MAX_ACTIVITIES_PER_DAY = 80
MAX_LEGS = 12

_TIME_RE = re.compile(r"^(\d{2}):(\d{2})$")


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
    """Minutes since midnight of an ``HH:MM`` time (``"24:00"`` → 1440; hours up to 47).

    Raises ``ValueError`` with a readable reason for anything else.
    """
    if type(text) is str:
        return _to_minutes_cached(text)
    raise ValueError(f"expected HH:MM, got {_show(text)}")


@functools.lru_cache(maxsize=4096)
def _to_minutes_cached(text: str) -> int:
    m = _TIME_RE.match(text)
    if m is None:
        raise ValueError(f"expected HH:MM, got {_show(text)}")
    hours, minutes = int(m.group(1)), int(m.group(2))
    if hours > 47 or minutes > 59:
        raise ValueError(f"expected HH:MM, got {_show(text)}")
    return hours * 60 + minutes


def format_minutes(minutes: int) -> str:
    """Inverse of :func:`to_minutes` (``1440`` → ``"24:00"``)."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _time(value: Any) -> str:
    to_minutes(value)
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"expected a number, got {_show(value)}")
    if not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {_show(value)}")
    return float(value)


def _integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"expected an integer, got {_show(value)}")
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise ValueError(f"expected an integer, got {_show(value)}")
        value = int(value)
    if abs(value) > 10**9:
        raise ValueError(f"integer out of range, got {_show(value)}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {_show(value)}")
    if len(value) > 500:
        raise ValueError("string longer than 500 characters")
    return value


def _id_text(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return _text(value)


def _mode(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a transport mode string, got {_show(value)}")
    mode = MODE_ALIASES.get(value.strip().lower())
    if mode is None:
        raise ValueError(f"expected one of walk, transit, taxi, bicycling (metro is read as transit), got {_show(value)}")
    return mode


def _activity_type(value: Any) -> str:
    if not isinstance(value, str) or value.strip().lower() not in ACTIVITY_TYPES:
        raise ValueError(f"expected one of {', '.join(ACTIVITY_TYPES)}, got {_show(value)}")
    return value.strip().lower()


Time = Annotated[str, BeforeValidator(_time), WithJsonSchema({"type": "string", "pattern": r"^\d{2}:\d{2}$"})]
Number = Annotated[float, BeforeValidator(_number), WithJsonSchema({"type": "number"})]
Integer = Annotated[int, BeforeValidator(_integer), WithJsonSchema({"type": "integer"})]
Text = Annotated[str, BeforeValidator(_text)]
IdText = Annotated[str, BeforeValidator(_id_text)]

_CONFIG = ConfigDict(extra="allow", frozen=True, populate_by_name=True)


class TransportLeg(BaseModel):
    """One inner-city leg of the inbound transfer to an activity.

    ``price`` is per person (transit, bicycling) or per car (taxi); ``cost`` is the total:
    ``price × tickets`` (transit), ``price × cars`` (taxi), 0 (walk). ``distance`` is in km.
    """

    model_config = _CONFIG
    mode: Annotated[TransportMode, BeforeValidator(_mode)]
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

    model_config = _CONFIG
    type: Annotated[ActivityType, BeforeValidator(_activity_type)]
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

    model_config = _CONFIG
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
        """The JSON schema of a plan (draft 2020-12, as pydantic emits it)."""
        return cls.model_json_schema()

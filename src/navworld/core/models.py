"""Frozen data models of the world: cities, POIs, transport, weather, routes, tool results.

These are the normalised internal shapes. Tools render them to AMap-shaped ``data`` dicts
(numbers as strings, ``"lng,lat"``) and to one text format; see ``navworld.tools.render``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Airport",
    "Cast",
    "City",
    "Climate",
    "District",
    "Flight",
    "Forecast",
    "Landmark",
    "Poi",
    "PoiKind",
    "Route",
    "RouteStep",
    "Seat",
    "Station",
    "ToolResult",
    "Train",
]

_FROZEN = ConfigDict(frozen=True, extra="forbid")

PoiKind = Literal["attraction", "restaurant", "hotel", "hub"]


class Airport(BaseModel):
    """A real airport serving a city."""

    model_config = _FROZEN
    name: str
    iata: str
    location: tuple[float, float]


class Station(BaseModel):
    """A real passenger rail station; ``hsr`` when G/D trains stop there."""

    model_config = _FROZEN
    name: str
    location: tuple[float, float]
    hsr: bool = True


class District(BaseModel):
    """An urban district or county of a city (AMap ``adname``)."""

    model_config = _FROZEN
    name: str
    adcode: str


class Landmark(BaseModel):
    """A real famous attraction of a city, from the catalog."""

    model_config = _FROZEN
    name: str
    category: str
    ticket: int
    open: str
    close: str
    visit_hours: float
    location: tuple[float, float]
    indoor: bool = False


class Climate(BaseModel):
    """Monthly climate normals (Jan..Dec)."""

    model_config = _FROZEN
    high: tuple[int, ...]
    low: tuple[int, ...]
    rain_days: tuple[int, ...]
    snow: bool = False


class City(BaseModel):
    """A catalog city with its knowledge-graph profile (loaded from ``world/data/cities``)."""

    model_config = _FROZEN
    name: str
    name_en: str
    aliases: tuple[str, ...]
    province: str
    adcode: str
    citycode: str
    center: tuple[float, float]
    tier: int
    airports: tuple[Airport, ...]
    stations: tuple[Station, ...]
    metro_lines: int
    districts: tuple[District, ...]
    roads: tuple[str, ...]
    landmarks: tuple[Landmark, ...]
    specialties: tuple[str, ...]
    food_themes: tuple[str, ...]
    local_cuisine: str
    signature_dishes: tuple[str, ...]
    seasonal_avoid: tuple[int, ...]
    transport_hub: bool
    nearby_cities: tuple[str, ...]
    is_coastal: bool
    climate: Climate

    @property
    def has_airport(self) -> bool:
        """Whether the city has an airport of its own."""
        return bool(self.airports)

    @property
    def has_rail(self) -> bool:
        """Whether the city has a passenger rail station."""
        return bool(self.stations)


class Poi(BaseModel):
    """A point of interest of the world (attraction, restaurant, hotel or transport hub).

    ``cost`` is the ticket price (attraction), price per person (restaurant) or price per
    room-night (hotel), in CNY. Times are ``HH:MM``; ``close`` may be ``"24:00"``.
    """

    model_config = _FROZEN
    id: str
    name: str
    kind: PoiKind
    city: str
    type: str
    typecode: str
    address: str
    location: tuple[float, float]
    adname: str
    adcode: str
    tel: str = ""
    rating: float = 0.0
    cost: float | None = None
    open: str = "00:00"
    close: str = "24:00"
    category: str = ""
    visit_hours: float = 0.0
    indoor: bool = False
    cuisine: str = ""
    dishes: tuple[str, ...] = ()
    brand: str = ""
    stars: int = 0
    beds: int = 0
    features: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()


class Seat(BaseModel):
    """A seat class of a train with its price."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    seat_class: str = Field(alias="class")
    price: float


class Flight(BaseModel):
    """One flight of the sandbox transport data."""

    model_config = _FROZEN
    flight_no: str
    airline: str
    date: str
    from_city: str
    to_city: str
    from_airport: str
    to_airport: str
    dep_time: str
    arr_time: str
    next_day: bool
    duration_min: int
    price: float


class Train(BaseModel):
    """One train of the sandbox transport data."""

    model_config = _FROZEN
    train_no: str
    train_type: str
    date: str
    from_city: str
    to_city: str
    from_station: str
    to_station: str
    dep_time: str
    arr_time: str
    next_day: bool
    duration_min: int
    seats: tuple[Seat, ...]

    @property
    def price(self) -> float:
        """The cheapest seat price."""
        return min(s.price for s in self.seats)


class Cast(BaseModel):
    """One day of a forecast (AMap ``casts[]`` fields)."""

    model_config = _FROZEN
    date: str
    week: str
    dayweather: str
    nightweather: str
    daytemp: int
    nighttemp: int
    daywind: str
    nightwind: str
    daypower: str
    nightpower: str


class Forecast(BaseModel):
    """A 4-day forecast for a city."""

    model_config = _FROZEN
    city: str
    adcode: str
    province: str
    reporttime: str
    casts: tuple[Cast, ...]


class RouteStep(BaseModel):
    """One step of a route: an instruction along a road, or a transit line segment."""

    model_config = _FROZEN
    instruction: str
    road_name: str = ""
    distance_m: int = 0
    duration_s: int = 0
    line: str = ""


class Route(BaseModel):
    """A route between two points for one mode."""

    model_config = _FROZEN
    mode: Literal["driving", "walking", "bicycling", "transit"]
    origin: tuple[float, float]
    destination: tuple[float, float]
    distance_m: int
    duration_s: int
    taxi_cost: float = 0.0
    transit_cost: float = 0.0
    walking_distance_m: int = 0
    steps: tuple[RouteStep, ...] = ()
    lines: tuple[str, ...] = ()


class ToolResult(BaseModel):
    """What a tool call returns: ``ok``, the exact text the model sees, and AMap-shaped data.

    ``text`` is already truncated to the shared limit (3,000 chars). ``error`` holds the
    readable reason when ``ok`` is false (``text`` then starts with ``错误``/``Error``).
    ``infra`` marks backend failures that are not the agent's fault.
    """

    model_config = ConfigDict(frozen=True)
    ok: bool
    text: str
    data: dict[str, Any] | None = None
    error: str | None = None
    infra: bool = False

    def to_public(self) -> dict[str, Any]:
        """The ``{"ok", "text", "data"}`` shape printed by ``navworld tools call --json``."""
        return {"ok": self.ok, "text": self.text, "data": self.data}

"""Knowledge graph over the city catalog and the sandbox world.

Two layers, both cached:

* :func:`profile` - catalog facts of a city (no world needed): the interests it really supports
  (its specialties; 海滨度假 only on the coast), food themes, study themes, landmarks, coastal flag,
  seasonal-avoid months, airports and rail.
* :meth:`KnowledgeGraph.facts` - facts read from the sandbox POIs (depend only on the world
  version): which landmarks exist as attractions, cuisines present and their cheapest restaurants,
  hotels with prices, beds and features, attraction tickets.

The generator draws every interest, theme, landmark, cuisine and hotel feature from these, so a
problem never asks for something the city does not have.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from navworld.tasks.vocab import vocab

if TYPE_CHECKING:  # pragma: no cover
    from navworld.core.models import City, Poi

__all__ = [
    "CityFacts",
    "CityProfile",
    "HotelOption",
    "KnowledgeGraph",
    "RestaurantOption",
    "all_profiles",
    "city_names",
    "meals_served",
    "profile",
]

MEAL_WINDOWS: dict[str, tuple[str, str]] = {
    "breakfast": ("07:30", "08:30"),
    "lunch": ("11:30", "13:00"),
    "dinner": ("17:30", "19:00"),
}
"""A restaurant can host a meal when it is open over the whole window (used for budget floors)."""


@dataclass(frozen=True, slots=True)
class CityProfile:
    """Catalog facts of one city, with vocabularies already filtered for coherence."""

    name: str
    name_en: str
    is_coastal: bool
    has_airport: bool
    has_rail: bool
    transport_hub: bool
    center: tuple[float, float]
    specialties: tuple[str, ...]
    interests: tuple[str, ...]
    food_themes: tuple[str, ...]
    study_themes: tuple[str, ...]
    landmarks: tuple[str, ...]
    seasonal_avoid: tuple[int, ...]
    allowed_months: tuple[int, ...]
    local_cuisine: str
    nearby_cities: tuple[str, ...]

    def supports(self, interest: str) -> bool:
        """Whether the city offers ``interest``."""
        return interest in self.interests


@dataclass(frozen=True, slots=True)
class RestaurantOption:
    """A restaurant reduced to what budgets and requirements need.

    ``meals`` holds the meals (``breakfast``/``lunch``/``dinner``) whose whole window
    (:data:`MEAL_WINDOWS`) falls inside the opening hours.
    """

    price: float
    name: str
    cuisine: str
    meals: frozenset[str]

    def serves(self, meal: str) -> bool:
        """Whether the restaurant can host ``meal``."""
        return meal in self.meals


def meals_served(open_: str, close: str) -> frozenset[str]:
    """The meals whose window lies inside ``open_``-``close``."""
    return frozenset(m for m, (s, e) in MEAL_WINDOWS.items() if _covers(open_, close, s, e))


@dataclass(frozen=True, slots=True)
class HotelOption:
    """A hotel reduced to price per room-night, beds per room and features."""

    price: float
    name: str
    beds: int
    features: frozenset[str]

    def rooms_for(self, people: int) -> int:
        """Rooms needed so that ``rooms × beds ≥ people``."""
        beds = max(1, self.beds)
        return -(-people // beds)


@dataclass(frozen=True, slots=True)
class CityFacts:
    """Facts of a city read from the sandbox POIs (sorted cheapest first)."""

    name: str
    restaurants: tuple[RestaurantOption, ...]
    hotels: tuple[HotelOption, ...]
    attractions: tuple[tuple[float, str], ...]
    landmarks: tuple[str, ...]
    landmark_hours: dict[str, tuple[str, str, float]]
    cuisines: dict[str, int]
    hotel_features: frozenset[str]
    theme_cuisines: dict[str, tuple[str, ...]]

    def cuisine_count(self, cuisine: str) -> int:
        """How many restaurants of ``cuisine`` the city has."""
        return self.cuisines.get(cuisine, 0)

    def hotels_with(self, features: frozenset[str] | set[str], max_price: float | None = None) -> list[HotelOption]:
        """Hotels having every feature in ``features`` (and not dearer than ``max_price``)."""
        return [
            h
            for h in self.hotels
            if features <= h.features and (max_price is None or h.price <= max_price)
        ]


def _minutes(hhmm: str) -> int:
    try:
        h, m = hhmm.split(":")
        return int(h) * 60 + int(m)
    except (ValueError, AttributeError):
        return 0


def _covers(open_: str, close: str, start: str, end: str) -> bool:
    o, c = _minutes(open_), _minutes(close)
    s, e = _minutes(start), _minutes(end)
    if c <= o:  # open past midnight
        c += 24 * 60
    return o <= s and e <= c


def _catalog() -> Any:
    from navworld.world import catalog

    return catalog


@cache
def city_names() -> tuple[str, ...]:
    """Every catalog city name, in catalog order."""
    return tuple(c.name for c in _catalog().all_cities())


def _build_profile(city: City) -> CityProfile:
    v = vocab()
    coastal = bool(city.is_coastal)

    def fits(entry: dict[str, Any]) -> bool:
        return coastal or not entry.get("coastal_only", False)

    specialties = tuple(s for s in city.specialties if s in v.interests and fits(v.interests[s]))
    interests = specialties + tuple(g for g in v.generic_interests if g not in specialties)
    food_themes = tuple(t for t in city.food_themes if t in v.food_themes and fits(v.food_themes[t]))
    study = tuple(
        name
        for name, entry in v.study_themes.items()
        if fits(entry) and any(s in specialties for s in entry["specialties"])
    )
    avoid = tuple(sorted(set(city.seasonal_avoid)))
    months = tuple(m for m in range(1, 13) if m not in avoid) or tuple(range(1, 13))
    return CityProfile(
        name=city.name,
        name_en=city.name_en,
        is_coastal=coastal,
        has_airport=city.has_airport,
        has_rail=city.has_rail,
        transport_hub=bool(city.transport_hub),
        center=(float(city.center[0]), float(city.center[1])),
        specialties=specialties,
        interests=interests,
        food_themes=food_themes,
        study_themes=study,
        landmarks=tuple(lm.name for lm in city.landmarks),
        seasonal_avoid=avoid,
        allowed_months=months,
        local_cuisine=city.local_cuisine,
        nearby_cities=tuple(city.nearby_cities),
    )


@cache
def profile(name: str) -> CityProfile:
    """The catalog profile of city ``name`` (KeyError if unknown)."""
    return _build_profile(_catalog().get_city(name))


@cache
def all_profiles() -> tuple[CityProfile, ...]:
    """Profiles of every catalog city, in catalog order."""
    return tuple(profile(n) for n in city_names())


def _facts_from_pois(name: str, pois: list[Poi], local_cuisine: str) -> CityFacts:
    v = vocab()
    restaurants: list[RestaurantOption] = []
    hotels: list[HotelOption] = []
    attractions: list[tuple[float, str]] = []
    hours: dict[str, tuple[str, str, float]] = {}
    for p in pois:
        if p.kind == "restaurant" and p.cost is not None:
            restaurants.append(RestaurantOption(float(p.cost), p.name, p.cuisine, meals_served(p.open, p.close)))
        elif p.kind == "hotel" and p.cost is not None:
            hotels.append(HotelOption(float(p.cost), p.name, int(p.beds or 0), frozenset(p.features)))
        elif p.kind == "attraction":
            attractions.append((float(p.cost or 0.0), p.name))
            hours[p.name] = (p.open, p.close, float(p.visit_hours or 0.0))
    restaurants.sort(key=lambda r: (r.price, r.name))
    hotels.sort(key=lambda h: (h.price, h.name))
    attractions.sort()
    cuisines: dict[str, int] = {}
    for r in restaurants:
        if r.cuisine:
            cuisines[r.cuisine] = cuisines.get(r.cuisine, 0) + 1
    theme_cuisines: dict[str, tuple[str, ...]] = {}
    for theme, entry in v.food_themes.items():
        wanted = list(entry.get("cuisines", []))
        if entry.get("local") and local_cuisine:
            wanted.append(local_cuisine)
        present = tuple(sorted({c for c in wanted if cuisines.get(c, 0) > 0}))
        theme_cuisines[theme] = present
    features: set[str] = set()
    for h in hotels:
        features |= h.features
    landmarks = tuple(lm for lm in profile(name).landmarks if lm in hours)
    return CityFacts(
        name=name,
        restaurants=tuple(restaurants),
        hotels=tuple(hotels),
        attractions=tuple(attractions),
        landmarks=landmarks,
        landmark_hours={lm: hours[lm] for lm in landmarks},
        cuisines=cuisines,
        hotel_features=frozenset(features),
        theme_cuisines=theme_cuisines,
    )


_SHARED_FACTS: dict[tuple[str, str], CityFacts] = {}
"""World facts shared by every knowledge graph over the same kind of world (POIs never depend on the salt)."""


def _world_key(world: Any) -> str:
    from navworld.core.versions import WORLD_VERSION

    catalog = getattr(world, "catalog", None)
    directory = str(getattr(catalog, "directory", ""))
    return f"{type(world).__module__}.{type(world).__qualname__}|{WORLD_VERSION}|{directory}"


class KnowledgeGraph:
    """Catalog profiles plus world-derived facts (cached per world kind, version and catalog)."""

    def __init__(self, world: Any) -> None:
        self.world = world
        self._key = _world_key(world)

    def profile(self, name: str) -> CityProfile:
        """Catalog profile of ``name``."""
        return profile(name)

    def facts(self, name: str) -> CityFacts:
        """World facts of ``name`` (POIs are generated by the world on first use)."""
        key = (self._key, name)
        got = _SHARED_FACTS.get(key)
        if got is None:
            got = _facts_from_pois(name, list(self.world.pois(name)), profile(name).local_cuisine)
            _SHARED_FACTS[key] = got
        return got

"""Load a ChinaTravel database directory into per-city tables, metro stations and timetables.

:func:`load_database` reads every file of the layout (:mod:`.layout`) once. A city whose files
cannot be used is left out with its error in :attr:`Database.errors`; the other cities load. Rows
that cannot be used are skipped and listed in :attr:`Database.problems`. Results are cached per
directory (and the files' modification times) for the process.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

from navworld.core.errors import ConfigError
from navworld.world.chinatravel.layout import (
    AIRPLANE,
    CITIES,
    SUBWAYS,
    CtCity,
    database_root,
    table_path,
    train_path,
)
from navworld.world.chinatravel.tables import (
    AttractionRow,
    DataFileError,
    HotelRow,
    RestaurantRow,
    RowProblem,
    StationRow,
    TimetableRow,
    read_attractions,
    read_hotels,
    read_poi_positions,
    read_restaurants,
    read_subways,
    read_timetable,
)

__all__ = ["CityTables", "Database", "load_database"]

log = logging.getLogger(__name__)


@dataclass
class CityTables:
    """The rows of one city, first row per name first (ChinaTravel takes the first match)."""

    city: CtCity
    attractions: list[AttractionRow]
    restaurants: list[RestaurantRow]
    hotels: list[HotelRow]
    positions: dict[str, tuple[float, float]]
    """``poi.json``: name → (lat, lon); what ``goto`` routes between."""
    stations: list[StationRow] = field(default_factory=list)
    attraction_by_name: dict[str, AttractionRow] = field(default_factory=dict)
    restaurant_by_name: dict[str, RestaurantRow] = field(default_factory=dict)
    hotel_by_name: dict[str, HotelRow] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for row in self.attractions:
            self.attraction_by_name.setdefault(row.name, row)
        for r in self.restaurants:
            self.restaurant_by_name.setdefault(r.name, r)
        for h in self.hotels:
            self.hotel_by_name.setdefault(h.name, h)

    def position(self, name: str) -> tuple[float, float] | None:
        """``(lat, lon)`` of a named place as ``goto`` sees it (``poi.json`` only)."""
        return self.positions.get(name)


@dataclass
class Database:
    """A loaded ChinaTravel database."""

    root: Path
    cities: dict[str, CityTables]
    """Chinese city name → tables (only the cities that loaded)."""
    flights: dict[tuple[str, str], list[TimetableRow]]
    trains: dict[tuple[str, str], list[TimetableRow]]
    errors: list[str] = field(default_factory=list)
    """Files that could not be used, with what was lost."""
    problems: list[str] = field(default_factory=list)
    """Rows that were skipped (file, line, column, reason)."""
    lost: dict[str, str] = field(default_factory=dict)
    """Chinese name → why the city was not loaded."""
    absent: list[str] = field(default_factory=list)
    """Cities with no file at all in this database (a partial download; not an error)."""

    def timetable(self, kind: str, a: str, b: str) -> list[TimetableRow]:
        """Trains or flights (``kind`` train / airplane) from city ``a`` to ``b``, by departure time."""
        table = self.trains if kind == "train" else self.flights
        return table.get((a, b), [])


def _rel(root: Path, path: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _load_city(root: Path, city: CtCity, subways: dict[str, list[StationRow]], problems: list[RowProblem]) -> CityTables:
    attractions, p1 = read_attractions(table_path(root, "attraction", city), _rel(root, table_path(root, "attraction", city)))
    restaurants, p2 = read_restaurants(table_path(root, "restaurant", city), _rel(root, table_path(root, "restaurant", city)))
    hotels, p3 = read_hotels(table_path(root, "hotel", city), _rel(root, table_path(root, "hotel", city)))
    positions, p4 = read_poi_positions(table_path(root, "poi", city), _rel(root, table_path(root, "poi", city)))
    problems.extend(p1 + p2 + p3 + p4)
    return CityTables(city, attractions, restaurants, hotels, positions, list(subways.get(city.slug, [])))


def _sorted(rows: list[TimetableRow]) -> list[TimetableRow]:
    return sorted(rows, key=lambda r: (int(r.begin[:2]) * 60 + int(r.begin[3:]), r.id))


def _read(root: Path) -> Database:
    if not root.is_dir():
        raise ConfigError(f"chinatravel database {str(root)!r} is not a directory")
    errors: list[str] = []
    problems: list[RowProblem] = []
    subways: dict[str, list[StationRow]] = {}
    try:
        subways, sp = read_subways(root / SUBWAYS, SUBWAYS)
        problems.extend(sp)
    except DataFileError as exc:
        errors.append(f"{exc}: no metro in any city")
    cities: dict[str, CityTables] = {}
    lost: dict[str, str] = {}
    absent: list[str] = []
    for city in CITIES:
        if not any(table_path(root, kind, city).exists() for kind in ("attraction", "restaurant", "hotel", "poi")):
            absent.append(city.zh)
            continue
        try:
            cities[city.zh] = _load_city(root, city, subways, problems)
        except DataFileError as exc:
            lost[city.zh] = str(exc)
            errors.append(f"{exc}: city {city.zh} ({city.slug}) not loaded")
    if not cities:
        detail = "; ".join(errors[:3]) or "no city folder under attractions/, restaurants/, accommodations/, poi/"
        raise ConfigError(f"no city of the chinatravel database {str(root)!r} could be loaded ({detail})")
    flights: dict[tuple[str, str], list[TimetableRow]] = {}
    try:
        rows, fp = read_timetable(root / AIRPLANE, AIRPLANE, "airplane")
        problems.extend(fp)
        for a in CITIES:
            for b in CITIES:
                if a is not b:
                    hits = [r for r in rows if a.zh in r.origin and b.zh in r.destination]
                    if hits:
                        flights[(a.zh, b.zh)] = _sorted(hits)
    except DataFileError as exc:
        errors.append(f"{exc}: no flights")
    trains: dict[tuple[str, str], list[TimetableRow]] = {}
    for a in CITIES:
        for b in CITIES:
            if a is b:
                continue
            path = train_path(root, a, b)
            if not path.exists():
                continue  # a pair without a file has no trains (reported below when both cities loaded)
            try:
                rows, tp = read_timetable(path, _rel(root, path), "train")
                problems.extend(tp)
                if rows:
                    trains[(a.zh, b.zh)] = _sorted(rows)
            except DataFileError as exc:
                errors.append(f"{exc}: no trains {a.zh}→{b.zh}")
    return Database(root, cities, flights, trains, errors, [str(p) for p in problems], lost, absent)


_CACHE: dict[tuple[str, float], Database] = {}
_LOCK = threading.Lock()


def load_database(directory: str | Path) -> Database:
    """Load (or reuse) the database under ``directory``; :class:`ConfigError` when nothing loads."""
    root = database_root(directory)
    try:
        stamp = max((p.stat().st_mtime for p in root.rglob("*") if p.is_file()), default=0.0)
    except OSError:
        stamp = 0.0
    key = (str(root.resolve()), stamp)
    with _LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    db = _read(root)
    for err in db.errors:
        log.warning("chinatravel database: %s", err)
    if db.problems:
        log.warning("chinatravel database: %d row(s) skipped, first: %s", len(db.problems), db.problems[0])
    with _LOCK:
        if len(_CACHE) > 8:
            _CACHE.clear()
        _CACHE[key] = db
    return db

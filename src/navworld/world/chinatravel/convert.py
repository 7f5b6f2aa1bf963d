"""ChinaTravel records → navworld models (:class:`~navworld.core.models.Poi`, Flight, Train).

The mapping (``reference/chinatravel-compat.md`` §5.2): ``location = (lon, lat)`` — taken from
``poi.json`` when the name is there (that is what ChinaTravel's ``goto`` routes from), else from
the table's ``lat``/``lon``; ``cost = price``; ``open/close = opentime/endtime``; attractions:
``category = type``, ``visit_hours = recommendmintime``; restaurants: ``cuisine``, ``dishes`` from
``recommendedfood``; hotels: ``beds = numbed``, ``features = (featurehoteltype,)``. Ids, AMap type
strings and typecodes are synthesised; restaurants marked 不营业 are not offered as POIs.
"""

from __future__ import annotations

import re

from navworld.core.models import City, Flight, Poi, Seat, Train
from navworld.core.seeding import stable_hash
from navworld.world.chinatravel.database import CityTables
from navworld.world.chinatravel.tables import TimetableRow

__all__ = ["SEAT_CLASS", "city_pois", "flight_of", "hub_pois", "train_of"]

SEAT_CLASS = "票价"
"""The single seat class of a ChinaTravel train (one price per train)."""
_TRAIN_LETTERS = frozenset("GDCZTK")
_DISH_SPLIT = re.compile(r"[,，、;；/|\s]+")


def _id(city: str, kind: str, name: str) -> str:
    return "B0" + stable_hash("chinatravel", city, kind, name)[:8].upper()


def _loc(t: CityTables, name: str, lat: float, lon: float) -> tuple[float, float]:
    pos = t.position(name)
    if pos is not None:
        return (pos[1], pos[0])
    return (lon, lat)


def city_pois(t: CityTables, city: City) -> list[Poi]:
    """Attractions, open restaurants and hotels of one city (first row per name only)."""
    zh = t.city.zh
    base = {"city": zh, "address": f"{city.name}市", "adname": "", "adcode": city.adcode}
    out: list[Poi] = []
    seen: set[str] = set()
    for a in t.attractions:
        if a.name in seen:
            continue
        seen.add(a.name)
        out.append(Poi(id=_id(zh, "attraction", a.name), name=a.name, kind="attraction", type=f"风景名胜;{a.type}",
                       typecode="110000", location=_loc(t, a.name, a.lat, a.lon), cost=a.price, open=a.opentime,
                       close=a.endtime, category=a.type, visit_hours=a.recommendmintime,
                       tags=(a.type,) if a.type else (), **base))
    for r in t.restaurants:
        if r.name in seen or r.closed:
            seen.add(r.name)
            continue
        seen.add(r.name)
        dishes = tuple(d for d in _DISH_SPLIT.split(r.recommendedfood) if d)[:8]
        out.append(Poi(id=_id(zh, "restaurant", r.name), name=r.name, kind="restaurant", type=f"餐饮服务;{r.cuisine}",
                       typecode="050000", location=_loc(t, r.name, r.lat, r.lon), cost=r.price, open=r.opentime,
                       close=r.endtime, cuisine=r.cuisine, dishes=dishes, tags=(r.cuisine,) if r.cuisine else (), **base))
    for h in t.hotels:
        if h.name in seen:
            continue
        seen.add(h.name)
        out.append(Poi(id=_id(zh, "hotel", h.name), name=h.name, kind="hotel", type="住宿服务;宾馆酒店",
                       typecode="100000", location=_loc(t, h.name, h.lat, h.lon), cost=h.price, beds=h.numbed,
                       features=(h.featurehoteltype,), **base))
    return out


def hub_pois(t: CityTables, city: City, names: dict[str, str], taken: set[str]) -> list[Poi]:
    """Stations and airports (``names``: name → ``train``/``airplane``) that ``poi.json`` locates."""
    out: list[Poi] = []
    for name, kind in sorted(names.items()):
        pos = t.position(name)
        if pos is None or name in taken:
            continue
        airport = kind == "airplane"
        out.append(Poi(id=_id(t.city.zh, "hub", name), name=name, kind="hub", city=t.city.zh,
                       type="交通设施服务;机场相关;飞机场" if airport else "交通设施服务;火车站;火车站",
                       typecode="150104" if airport else "150200", address=f"{city.name}市", location=(pos[1], pos[0]),
                       adname="", adcode=city.adcode, category="机场" if airport else "火车站"))
    return out


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


def flight_of(row: TimetableRow, date: str, a: str, b: str) -> Flight:
    """A flight of ``date`` (the timetable is the same every day)."""
    return Flight(flight_no=row.id, airline="", date=date, from_city=a, to_city=b, from_airport=row.origin,
                  to_airport=row.destination, dep_time=row.begin, arr_time=row.end,
                  next_day=_minutes(row.end) < _minutes(row.begin), duration_min=round(row.duration_h * 60),
                  price=row.cost)


def train_of(row: TimetableRow, date: str, a: str, b: str) -> Train:
    """A train of ``date`` with one seat class at the train's single price."""
    letter = row.id[:1].upper()
    kind = letter if letter in _TRAIN_LETTERS else (row.train_type or letter)
    return Train(train_no=row.id, train_type=kind, date=date, from_city=a, to_city=b, from_station=row.origin,
                 to_station=row.destination, dep_time=row.begin, arr_time=row.end,
                 next_day=_minutes(row.end) < _minutes(row.begin), duration_min=round(row.duration_h * 60),
                 seats=(Seat(seat_class=SEAT_CLASS, price=row.cost),))

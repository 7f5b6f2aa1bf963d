"""The on-disk layout of a ChinaTravel sandbox database, as its users download it.

ChinaTravel (LAMDA-NeSy/ChinaTravel) ships its database separately; users unzip it into
``chinatravel/environment/database/``. Paths below are relative to that ``database`` folder
(``DIR`` in ``--world chinatravel:DIR``; the folder above it is accepted too):

* ``attractions/{slug}/attractions.csv``
* ``restaurants/{slug}/restaurants_{slug}.csv``
* ``accommodations/{slug}/accommodations.csv``
* ``poi/{slug}/poi.json`` — ``[{"name", "position": [lat, lon]}]``
* ``transportation/subways.json`` — ``{slug: [{"name": line, "stations": [{"name", "position": "lng,lat"}]}]}``
* ``intercity_transport/airplane.jsonl`` and ``intercity_transport/train/from_{城市}_to_{城市}.json``

Column names are ChinaTravel's; :data:`COLUMN_ALIASES` maps the older spellings seen in their
prompt examples (``latitude``, ``weekdayopentime`` …) onto them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CITIES",
    "COLUMN_ALIASES",
    "REQUIRED_COLUMNS",
    "CtCity",
    "city_by_name",
    "database_root",
    "table_path",
    "train_path",
]


@dataclass(frozen=True)
class CtCity:
    """One of ChinaTravel's ten cities: directory slug, Chinese and English names."""

    slug: str
    zh: str
    en: str


CITIES: tuple[CtCity, ...] = (
    CtCity("beijing", "北京", "Beijing"),
    CtCity("shanghai", "上海", "Shanghai"),
    CtCity("nanjing", "南京", "Nanjing"),
    CtCity("suzhou", "苏州", "Suzhou"),
    CtCity("hangzhou", "杭州", "Hangzhou"),
    CtCity("shenzhen", "深圳", "Shenzhen"),
    CtCity("chengdu", "成都", "Chengdu"),
    CtCity("wuhan", "武汉", "Wuhan"),
    CtCity("guangzhou", "广州", "Guangzhou"),
    CtCity("chongqing", "重庆", "Chongqing"),
)
"""The ten cities in ChinaTravel's own order."""

_BY_NAME: dict[str, CtCity] = {}
for _c in CITIES:
    for _key in (_c.slug, _c.zh, _c.zh + "市", _c.en, _c.en.lower()):
        _BY_NAME[_key] = _c


def city_by_name(name: str) -> CtCity | None:
    """The city named ``name`` (slug, 北京 / 北京市, Beijing), or None."""
    return _BY_NAME.get((name or "").strip())


TABLES: dict[str, str] = {
    "attraction": "attractions/{slug}/attractions.csv",
    "restaurant": "restaurants/{slug}/restaurants_{slug}.csv",
    "hotel": "accommodations/{slug}/accommodations.csv",
    "poi": "poi/{slug}/poi.json",
}
SUBWAYS = "transportation/subways.json"
AIRPLANE = "intercity_transport/airplane.jsonl"
TRAIN = "intercity_transport/train/from_{a}_to_{b}.json"

REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "attraction": ("name", "type", "lat", "lon", "opentime", "endtime", "price", "recommendmintime"),
    "restaurant": ("name", "lat", "lon", "price", "cuisine", "opentime", "endtime"),
    "hotel": ("name", "featurehoteltype", "lat", "lon", "price", "numbed"),
}
"""Columns the loader needs per table (others, e.g. ``id``, ``recommendmaxtime``, are optional)."""

COLUMN_ALIASES: dict[str, dict[str, str]] = {
    "attraction": {"latitude": "lat", "longitude": "lon"},
    "restaurant": {"latitude": "lat", "longitude": "lon", "weekdayopentime": "opentime", "weekdayclosetime": "endtime"},
    "hotel": {"latitude": "lat", "longitude": "lon", "hotelname": "name", "featurehoteltype": "featurehoteltype"},
}
"""Older column spellings (lower-cased) → the current column."""


def database_root(directory: str | Path) -> Path:
    """The ``database`` folder for ``DIR`` (``DIR`` itself, or ``DIR/database`` when that exists)."""
    root = Path(directory).expanduser()
    for candidate in (root, root / "database", root / "environment" / "database"):
        if (candidate / "attractions").is_dir() or (candidate / "intercity_transport").is_dir():
            return candidate
    return root


def table_path(root: Path, kind: str, city: CtCity) -> Path:
    """The file of table ``kind`` (attraction, restaurant, hotel, poi) of ``city``."""
    return root / TABLES[kind].format(slug=city.slug)


def train_path(root: Path, a: CtCity, b: CtCity) -> Path:
    """The train timetable file from ``a`` to ``b``."""
    return root / TRAIN.format(a=a.zh, b=b.zh)

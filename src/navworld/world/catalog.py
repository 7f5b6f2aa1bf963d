"""The city catalog: one JSON file per city under ``world/data/cities/``, loaded lazily.

The per-city JSON schema equals the fields of :class:`navworld.core.models.City`. An optional
``_index.json`` fixes the catalog order (a list of city names or file names, or an object with
a ``cities`` list); without it cities are ordered by file name.

City names resolve the way people write them: ``杭州``, ``杭州市``, ``Hangzhou``, ``hangzhou``,
``330100`` (adcode), ``0571`` (citycode), ``浙江杭州``.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from navworld.core.models import City

__all__ = [
    "CITIES_DIR",
    "Catalog",
    "all_cities",
    "city_names",
    "default_catalog",
    "get_city",
    "normalize_city_text",
    "resolve_city",
]

CITIES_DIR = Path(__file__).resolve().parent / "data" / "cities"

_SUFFIXES = ("特别行政区", "自治州", "地区", "新区", "市", "县", "区", "盟")
_EN_SUFFIXES = (" city", " shi", " prefecture", "city", "shi")
_SPACE_RE = re.compile(r"[\s\u3000'’\-_.·]+")


def normalize_city_text(text: str) -> str:
    """Lower-case ``text`` and drop whitespace, apostrophes and hyphens (for alias lookups)."""
    return _SPACE_RE.sub("", text.strip().lower())


def _strip_suffix(text: str) -> str:
    for suf in _SUFFIXES:
        if text.endswith(suf) and len(text) > len(suf) + 1:
            return text[: -len(suf)]
    return text


class Catalog:
    """A lazily loaded, cached set of cities read from one directory of JSON files."""

    def __init__(self, directory: Path | str = CITIES_DIR) -> None:
        self.directory = Path(directory)
        self._lock = threading.Lock()
        self._cities: list[City] | None = None
        self._by_name: dict[str, City] = {}
        self._aliases: dict[str, City] = {}
        self._provinces: list[str] = []

    # -- loading -------------------------------------------------------------------------
    def _index_order(self) -> list[str]:
        index = self.directory / "_index.json"
        if not index.exists():
            return []
        raw: Any = json.loads(index.read_text(encoding="utf-8"))
        if isinstance(raw, dict):
            raw = raw.get("cities") or raw.get("order") or []
        order: list[str] = []
        for item in raw if isinstance(raw, list) else []:
            if isinstance(item, str):
                order.append(item)
            elif isinstance(item, dict):
                order.extend(str(item[k]) for k in ("name", "file") if item.get(k))
        return order

    def _read_all(self) -> list[City]:
        entries: list[tuple[Path, City]] = []
        for path in sorted(self.directory.glob("*.json")):
            if path.name.startswith("_"):
                continue
            entries.append((path, City.model_validate(json.loads(path.read_text(encoding="utf-8")))))
        order = self._index_order()
        if not order:
            return [c for _, c in entries]
        rank: dict[str, int] = {}
        for i, key in enumerate(order):
            rank.setdefault(key, i)
            rank.setdefault(Path(key).stem, i)
        big = len(order)

        def position(entry: tuple[Path, City]) -> int:
            path, city = entry
            return min(rank.get(city.name, big), rank.get(path.stem, big), rank.get(path.name, big))

        return [c for _, c in sorted(entries, key=position)]  # stable: unlisted keep file order

    def _load(self) -> list[City]:
        cities = self._cities
        if cities is not None:
            return cities
        with self._lock:
            if self._cities is not None:
                return self._cities
            loaded = self._read_all()
            by_name = {c.name: c for c in loaded}
            aliases: dict[str, City] = {}
            provinces: set[str] = set()
            for c in loaded:
                provinces.add(c.province)
                keys = [c.name, c.name + "市", c.adcode, c.name_en, *c.aliases]
                for key in keys:
                    norm = normalize_city_text(key)
                    if norm:
                        aliases.setdefault(norm, c)
                        aliases.setdefault(_strip_suffix(norm), c)
            # Citycodes are shared by several cities (e.g. 0571); only unambiguous ones count.
            citycodes: dict[str, list[City]] = {}
            for c in loaded:
                citycodes.setdefault(c.citycode, []).append(c)
            for code, group in citycodes.items():
                if code and len(group) == 1:
                    aliases.setdefault(code, group[0])
            self._by_name = by_name
            self._aliases = aliases
            self._provinces = sorted(
                {p for prov in provinces for p in (prov, _strip_suffix(prov), prov.replace("省", ""))},
                key=len,
                reverse=True,
            )
            self._cities = loaded
            return loaded

    # -- queries -------------------------------------------------------------------------
    def all_cities(self) -> list[City]:
        """Every city, in catalog order."""
        return list(self._load())

    def city_names(self) -> list[str]:
        """Short names of every city, in catalog order."""
        return [c.name for c in self._load()]

    def get_city(self, name: str) -> City:
        """The city named exactly ``name`` (short name) or resolvable from it; ``KeyError`` if unknown."""
        self._load()
        city = self._by_name.get(name) or self.resolve_city(name)
        if city is None:
            raise KeyError(name)
        return city

    def resolve_city(self, text: str | None) -> City | None:
        """Resolve a user-written city reference (name, 市/县 suffix, English, pinyin, adcode)."""
        if not text or not isinstance(text, str) or len(text) > 100:
            return None
        self._load()
        direct = self._by_name.get(text)
        if direct is not None:
            return direct
        norm = normalize_city_text(text)
        if not norm:
            return None
        for cand in (norm, _strip_suffix(norm)):
            hit = self._aliases.get(cand)
            if hit is not None:
                return hit
        for suf in _EN_SUFFIXES:
            if norm.endswith(suf) and len(norm) > len(suf) + 1:
                hit = self._aliases.get(norm[: -len(suf)])
                if hit is not None:
                    return hit
        # "浙江杭州" / "浙江省杭州市": drop a leading province name.
        for prov in self._provinces:
            p = normalize_city_text(prov)
            if p and norm.startswith(p) and len(norm) > len(p):
                rest = norm[len(p) :]
                hit = self._aliases.get(rest) or self._aliases.get(_strip_suffix(rest))
                if hit is not None:
                    return hit
        # An adcode of a district resolves to its city (same first four digits).
        if norm.isdigit() and len(norm) == 6:
            for c in self._cities or ():
                if c.adcode[:4] == norm[:4]:
                    return c
        return None

    def find_in_text(self, text: str) -> City | None:
        """The catalog city whose name occurs in ``text`` (longest name first), if any."""
        self._load()
        best: City | None = None
        for c in self._cities or ():
            if c.name in text and (best is None or len(c.name) > len(best.name)):
                best = c
        return best


_DEFAULT: Catalog | None = None
_DEFAULT_LOCK = threading.Lock()


def default_catalog() -> Catalog:
    """The process-wide catalog of the package's ``world/data/cities`` directory."""
    global _DEFAULT
    if _DEFAULT is None:
        with _DEFAULT_LOCK:
            if _DEFAULT is None:
                _DEFAULT = Catalog(CITIES_DIR)
    return _DEFAULT


def all_cities() -> list[City]:
    """Every catalog city, in catalog order."""
    return default_catalog().all_cities()


def city_names() -> list[str]:
    """Short names of every catalog city, in catalog order."""
    return default_catalog().city_names()


def get_city(name: str) -> City:
    """The catalog city called ``name`` (aliases accepted); ``KeyError`` if unknown."""
    return default_catalog().get_city(name)


def resolve_city(text: str | None) -> City | None:
    """Resolve 杭州 / 杭州市 / Hangzhou / 330100 to a catalog city, or ``None``."""
    return default_catalog().resolve_city(text)

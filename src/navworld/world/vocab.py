"""Vocabulary data files of the sandbox (``world/data/vocab/*.json``), loaded once and cached."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from navworld.core.models import City

__all__ = ["VOCAB_DIR", "district_stem", "load_vocab", "official_name"]

VOCAB_DIR = Path(__file__).resolve().parent / "data" / "vocab"


@cache
def load_vocab(name: str) -> dict[str, Any]:
    """Return the parsed vocabulary file ``world/data/vocab/<name>.json`` (cached; do not mutate)."""
    path = VOCAB_DIR / f"{name}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def official_name(city: City) -> str:
    """The administrative name AMap prints for a city, e.g. ``杭州市`` or ``九寨沟县``."""
    if city.name.endswith(("市", "县", "自治州", "地区", "盟")):
        return city.name
    for alias in city.aliases:
        if alias.startswith(city.name) and alias.endswith(("市", "县", "自治州", "地区")) and len(alias) <= len(city.name) + 6:
            return alias
    return city.name + "市"


def district_stem(name: str) -> str:
    """Drop the administrative suffix of a district name (``西湖区`` → ``西湖``)."""
    for suf in ("自治县", "新区", "区", "县", "市", "旗"):
        if name.endswith(suf) and len(name) > len(suf) + 1:
            return name[: -len(suf)]
    return name

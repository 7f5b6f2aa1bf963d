"""Field-level helpers for AMap payloads: strings, numbers, coordinates, containers.

AMap writes numbers as strings (sometimes ``"200.00"``) and empty values as ``""``, ``[]``,
``{}`` or not at all. These helpers turn every such value into the strings of navworld's data
shapes, and raise :class:`~navworld.core.errors.WorldError` with a readable reason when a
container has an undocumented type.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from navworld.core.errors import WorldError
from navworld.core.geo import format_lnglat, parse_lnglat

__all__ = ["as_list", "as_mapping", "duration", "int_text", "location", "money", "rating", "text"]


def text(value: Any) -> str:
    """An AMap scalar as a stripped string; ``[]``, ``{}`` and ``None`` become ``""``."""
    if value is None or isinstance(value, (list, dict)):
        if isinstance(value, list) and value and all(isinstance(v, (str, int, float)) for v in value):
            return ";".join(str(v).strip() for v in value if str(v).strip())
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip()


def int_text(value: Any) -> str:
    """A numeric AMap value as an integer string (``"200.00"`` → ``"200"``), else ``""``."""
    raw = text(value)
    if not raw:
        return ""
    try:
        return str(round(float(raw)))
    except (ValueError, OverflowError):  # "abc", "nan", "inf"
        return ""


def money(value: Any) -> str:
    """A price: ``"420.00"`` → ``"420"``, ``"88.50"`` → ``"88.5"`` (as the sandbox writes prices)."""
    raw = text(value)
    try:
        x = float(raw) if raw else None
    except ValueError:
        return ""
    if x is None or not math.isfinite(x) or x < 0:
        return ""
    return str(int(x)) if x.is_integer() else f"{x:.1f}"


def rating(value: Any) -> str:
    """A rating with one decimal (``"4.5"``), else ``""``."""
    raw = text(value)
    try:
        return f"{float(raw):.1f}" if raw else ""
    except ValueError:
        return ""


def location(value: Any) -> str:
    """``"lng,lat"`` with six decimals, else ``""``."""
    raw = text(value)
    try:
        return format_lnglat(parse_lnglat(raw)) if raw else ""
    except ValueError:
        return ""


def as_mapping(value: Any, what: str) -> Mapping[str, Any]:
    """``value`` as an object (empty values → ``{}``); :class:`WorldError` naming ``what`` otherwise."""
    if value is None or value == [] or value == "":
        return {}
    if not isinstance(value, Mapping):
        raise WorldError(
            f"AMap returned an unexpected payload: {what} is {type(value).__name__}, expected an object"
        )
    return value


def as_list(value: Any, what: str) -> list[Any]:
    """``value`` as a list (empty values → ``[]``); :class:`WorldError` naming ``what`` otherwise."""
    if value is None or value == "" or value == {}:
        return []
    if not isinstance(value, list):
        raise WorldError(
            f"AMap returned an unexpected payload: {what} is {type(value).__name__}, expected a list"
        )
    return value


def duration(obj: Mapping[str, Any]) -> str:
    """Seconds from a v5 ``cost{duration}`` object or a flat ``duration`` field."""
    cost = obj.get("cost")
    if isinstance(cost, Mapping) and text(cost.get("duration")):
        return int_text(cost.get("duration"))
    return int_text(obj.get("duration"))

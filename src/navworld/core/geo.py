"""Small geographic helpers (pure functions)."""

from __future__ import annotations

import math
import re

__all__ = ["LngLat", "format_lnglat", "haversine_km", "parse_lnglat"]

LngLat = tuple[float, float]

_LNGLAT_RE = re.compile(r"^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,2}(?:\.\d+)?)\s*$")


def haversine_km(a: LngLat, b: LngLat) -> float:
    """Great-circle distance in kilometres between two ``(lng, lat)`` points."""
    lng1, lat1 = map(math.radians, a)
    lng2, lat2 = map(math.radians, b)
    dlat = lat2 - lat1
    dlng = lng2 - lng1
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlng / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


def parse_lnglat(text: str) -> LngLat:
    """Parse an AMap-style ``"lng,lat"`` string; raise ``ValueError`` with a readable reason."""
    if not isinstance(text, str):
        raise ValueError("coordinates must be a string 'lng,lat'")
    m = _LNGLAT_RE.match(text)
    if not m:
        shown = text if len(text) <= 40 else text[:40] + "…"
        raise ValueError(f"malformed coordinates {shown!r}: expected 'lng,lat' such as '120.155100,30.274100'")
    lng, lat = float(m.group(1)), float(m.group(2))
    if not (-180.0 <= lng <= 180.0 and -90.0 <= lat <= 90.0):
        raise ValueError(f"coordinates out of range: lng={lng}, lat={lat}")
    return lng, lat


def format_lnglat(p: LngLat) -> str:
    """Format ``(lng, lat)`` the AMap way: ``"120.155100,30.274100"`` (6 decimals)."""
    return f"{p[0]:.6f},{p[1]:.6f}"

"""Reading back the tool texts of the episode (what the answer cites must be what the tools said).

The answer quotes distances, durations, fares, road names and forecasts exactly as the tool
text renders them (``docs/tool-output.md``), so the scorer finds the same facts on both sides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["DayWeather", "RouteFacts", "parse_direction", "parse_weather", "split_minutes"]

_KV = re.compile(r"^([a-z_]+): (.*)$")
_ROAD = re.compile(r"「([^」]+)」")
_DAY = re.compile(r"^## (\d{4}-\d{2}-\d{2}) (\S+)$")
_HM = re.compile(r"^(?:(\d+)小时)?(\d+)分")


def split_minutes(text: str) -> int | None:
    """Minutes of a rendered duration (``1小时5分钟`` → 65, ``25分钟`` → 25)."""
    m = _HM.match(text.strip())
    if not m:
        return None
    return int(m.group(1) or 0) * 60 + int(m.group(2))


@dataclass
class RouteFacts:
    """What one ``direction`` result says."""

    distance: str = ""
    duration: str = ""
    minutes: int | None = None
    taxi_cost: str = ""
    fare: str = ""
    lines: list[str] = field(default_factory=list)
    roads: list[str] = field(default_factory=list)


def parse_direction(text: str) -> RouteFacts:
    """The facts of a rendered ``direction`` text (empty fields when absent)."""
    out = RouteFacts()
    for line in text.splitlines():
        m = _KV.match(line)
        if m:
            key, value = m.group(1), m.group(2).strip()
            if key == "distance":
                out.distance = value
            elif key == "duration":
                out.duration = value
                out.minutes = split_minutes(value)
            elif key == "taxi_cost":
                out.taxi_cost = value
            elif key == "cost":
                out.fare = value
            elif key == "lines":
                out.lines = [x for x in value.split("、") if x]
            continue
        for road in _ROAD.findall(line):
            if not road.startswith("地铁") and not road.endswith("站") and road not in out.roads and not road.endswith("路线"):
                if not re.search(r"\d+路$", road):
                    out.roads.append(road)
    return out


@dataclass
class DayWeather:
    """One forecast day as rendered by ``weather``."""

    date: str
    week: str
    day: str = ""
    night: str = ""
    high: str = ""
    low: str = ""
    wind: str = ""
    power: str = ""
    night_wind: str = ""
    night_power: str = ""


def parse_weather(text: str) -> list[DayWeather]:
    """The forecast days of a rendered ``weather`` text."""
    out: list[DayWeather] = []
    cur: DayWeather | None = None
    keys = {"dayweather": "day", "nightweather": "night", "daytemp": "high", "nighttemp": "low", "daywind": "wind",
            "daypower": "power", "nightwind": "night_wind", "nightpower": "night_power"}
    for line in text.splitlines():
        m = _DAY.match(line)
        if m:
            cur = DayWeather(m.group(1), m.group(2))
            out.append(cur)
            continue
        kv = _KV.match(line)
        if cur is not None and kv and kv.group(1) in keys:
            setattr(cur, keys[kv.group(1)], kv.group(2).strip())
    return out

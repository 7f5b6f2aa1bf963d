"""The tool facts of an episode the answer cites, read back from the tool results in call order."""

from __future__ import annotations

from dataclasses import dataclass, field

from navworld.agents.reference.calls import Call
from navworld.agents.reference.planner import Outcome
from navworld.agents.reference.pools import visible_blocks
from navworld.agents.reference.toolfacts import DayWeather, RouteFacts, parse_direction, parse_weather
from navworld.core.models import ToolResult

__all__ = ["Evidence", "collect_evidence"]


@dataclass
class Evidence:
    """The tool facts of the episode the answer cites."""

    routes: dict[tuple[str, str, str], RouteFacts] = field(default_factory=dict)
    weather: dict[str, DayWeather] = field(default_factory=dict)
    around: list[tuple[str, str, dict[str, int]]] = field(default_factory=list)
    """(centre name, keyword, {poi name: metres}) of each around_search, in order."""
    searched: dict[str, list[str]] = field(default_factory=dict)
    """poi_search keyword → visible POI names."""


def collect_evidence(outcome: Outcome, steps: list[list[Call]], results: dict[str, ToolResult]) -> Evidence:
    """Read the facts the answer needs back from the tool results of the episode."""
    ev = Evidence()
    legs = iter(outcome.directions)
    centres = iter(outcome.around_queries)
    for step in steps:
        for call in step:
            res = results.get(call.id)
            text = res.text if res is not None and res.ok else ""
            if call.name == "direction":
                leg = next(legs)
                if text:
                    ev.routes[(leg.start, leg.end, leg.mode)] = parse_direction(text)
            elif call.name == "weather" and text:
                for day in parse_weather(text):
                    ev.weather.setdefault(day.date, day)
            elif call.name == "around_search":
                centre = next(centres)
                word, label = centre.keyword, centre.label
                dist: dict[str, int] = {}
                if res is not None and res.ok and res.data:
                    shown = visible_blocks(text)
                    for row in res.data.get("pois", []):
                        name = str(row.get("name", ""))
                        if name in shown and row.get("distance"):
                            dist[name] = int(float(row["distance"]))
                ev.around.append((label, word, dist))
            elif call.name == "poi_search" and text:
                ev.searched[str(call.arguments.get("address"))] = list(visible_blocks(text))
    return ev

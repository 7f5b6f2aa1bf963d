"""The tool-call schedule of a planned trip, and its execution through the shared registry.

The schedule is a pure function of the problem and the plan outcome (never of tool results),
so the in-process run and the OpenAI-protocol endpoint emit the very same calls with the very
same ids. Steps (one assistant turn each):

1. weather for the travel dates, and the intercity searches in both directions;
2. ``poi_search`` — must-visit sights, hotel, sights by interest, cuisines, local food;
3. ``around_search`` — restaurants (or sights) around the hotel and the day's places;
4. ``direction`` — the longest legs of the itinerary, with the mode the plan uses.

Budgets (poi_search 10, around_search 6, direction 10, weather 3) are respected by construction.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from typing import Any

from navworld.agents.reference.model import PLAN_MODES
from navworld.agents.reference.planner import Outcome
from navworld.core.geo import format_lnglat
from navworld.core.models import ToolResult

__all__ = ["Call", "call_id", "execute_schedule", "schedule"]

MAX_WEATHER = 3
FORECAST_DAYS = 4


@dataclass(frozen=True)
class Call:
    """One scheduled tool call."""

    id: str
    name: str
    arguments: dict[str, Any]

    def message(self) -> dict[str, Any]:
        """The OpenAI ``tool_calls`` entry."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": json.dumps(self.arguments, ensure_ascii=False)},
        }


def call_id(n: int) -> str:
    """The id of the ``n``-th call of an episode (deterministic)."""
    return f"call_{n}"


def _weather_dates(first: str, days: int) -> list[str]:
    start = _dt.date.fromisoformat(first)
    return [(start + _dt.timedelta(days=k)).isoformat() for k in range(0, days, FORECAST_DAYS)][:MAX_WEATHER]


def schedule(outcome: Outcome) -> list[list[Call]]:
    """The steps of tool calls for ``outcome`` (ids numbered across the episode)."""
    b = outcome.brief
    steps: list[list[tuple[str, dict[str, Any]]]] = []
    first: list[tuple[str, dict[str, Any]]] = []
    for date in _weather_dates(b.dates[0], b.days):
        first.append(("weather", {"city": b.dest, "date": date}))
    if b.has_origin:
        for tool in b.transport_tools:
            first.append((tool, {"date": b.dates[0], "from_city": b.origin, "to_city": b.dest}))
            first.append((tool, {"date": b.dates[-1], "from_city": b.dest, "to_city": b.origin}))
    steps.append(first)
    steps.append([("poi_search", {"address": word, "region": b.dest}) for word in outcome.poi_queries])
    steps.append([
        ("around_search", {"location": format_lnglat(a.loc), "radius": a.radius, "keyword": a.keyword, "region": b.dest})
        for a in outcome.around_queries
    ])
    steps.append([
        ("direction", {"origin": format_lnglat(leg.route.origin), "destination": format_lnglat(leg.route.destination),
                       "mode": PLAN_MODES[leg.mode]})
        for leg in outcome.directions
    ])
    out: list[list[Call]] = []
    n = 0
    for step in steps:
        if not step:
            continue
        calls = []
        for name, args in step:
            calls.append(Call(call_id(n), name, args))
            n += 1
        out.append(calls)
    return out


async def execute_schedule(steps: list[list[Call]], world: Any, default_date: str | None, lang: str) -> tuple[
    list[dict[str, Any]], dict[str, ToolResult]
]:
    """Run every step through the registry (one per-episode budget).

    Returns the transcript messages of the steps (assistant tool-call turns and tool results)
    and each call's :class:`~navworld.core.models.ToolResult` by id.
    """
    from navworld.agents.executor import CallToolExecutor
    from navworld.agents.messages import assistant_message

    executor = CallToolExecutor(world, default_date=default_date, lang=lang)
    messages: list[dict[str, Any]] = []
    results: dict[str, ToolResult] = {}
    for step in steps:
        raw = [c.message() for c in step]
        batch, got = await executor.run(raw)
        messages.append(assistant_message(None, raw))
        messages.extend(batch.messages)
        for call, result in zip(step, got, strict=True):
            if result is not None:
                results[call.id] = result
    return messages, results

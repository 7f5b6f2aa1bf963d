"""Step rewards for RL (seed §1.3): ``0.4·selection + 0.3·argument_quality + 0.3·usefulness``.

Each tool call gets a reward in [0, 1]; a step's reward is the mean over its calls. The three
components (all in [0, 1]) are defined here and documented in ``docs/runtime.md``:

**selection** — was this the right tool to call now?
  * 0 for an unknown tool name and for a *redundant* call (same tool with the same canonical
    arguments as an earlier call of the episode);
  * a *relevant* tool is one in ``problem.required_tools``, or a transport tool on a problem
    with an origin city; relevant → 1.0 on its first successful use, 0.8 afterwards;
    not relevant → 0.5 on first use, 0.3 afterwards.

**argument quality** — were the arguments well formed and about this problem?
  * 0 when the arguments are not a JSON object;
  * 0.2 when the tool rejected the call (an error result: schema, unknown city, budget);
  * otherwise the fraction of applicable checks passed: every city argument (``region``,
    ``city``, ``from_city``, ``to_city``) names one of the problem's cities; every coordinate
    (``location``; ``origin``/``destination`` of ``direction``) is a well-formed ``lng,lat``
    inside China; every ``date`` is ``YYYY-MM-DD`` within the trip (the day before departure to
    the last day); transport searches connect the origin and destination cities (either
    direction). No applicable check → 1.0.

**usefulness** — did the call bring non-trivial, new information?
  * 0 for an error result, a call that was not executed, or a redundant call;
  * otherwise by the number of records in the result data (POIs, flights, trains, forecast
    days, route paths): none → 0.2; ``direction``/``weather`` with at least one → 1.0; other
    tools 1 → 0.6, 2 → 0.8, ≥ 3 → 1.0. Results without structured data fall back to their
    text length (≥ 200 chars → 0.8, ≥ 40 → 0.5, else 0.2).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from navworld.core.models import ToolResult
from navworld.core.problem import Problem

__all__ = [
    "ARGUMENT_WEIGHT",
    "SELECTION_WEIGHT",
    "TRANSPORT_TOOLS",
    "USEFULNESS_WEIGHT",
    "CallReward",
    "RewardTracker",
    "mean_reward",
]

SELECTION_WEIGHT = 0.4
ARGUMENT_WEIGHT = 0.3
USEFULNESS_WEIGHT = 0.3

KNOWN_TOOLS = ("poi_search", "around_search", "direction", "weather", "search_flights", "search_train_tickets")
TRANSPORT_TOOLS = frozenset({"search_flights", "search_train_tickets"})
_CITY_ARGS = ("region", "city", "from_city", "to_city")
_COORD_ARGS = {"around_search": ("location",), "direction": ("origin", "destination")}
_LNGLAT = re.compile(r"^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,2}(?:\.\d+)?)\s*$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_RECORD_KEYS = ("pois", "flights", "trains")


@dataclass(frozen=True)
class CallReward:
    """The reward of one tool call with its components."""

    tool: str
    selection: float
    arguments: float
    usefulness: float
    reward: float
    redundant: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict."""
        return {
            "tool": self.tool,
            "selection": self.selection,
            "arguments": self.arguments,
            "usefulness": self.usefulness,
            "reward": self.reward,
            "redundant": self.redundant,
        }


def mean_reward(rewards: list[CallReward]) -> float:
    """The step reward: mean of the calls' rewards (0.0 for no calls)."""
    if not rewards:
        return 0.0
    return round(sum(r.reward for r in rewards) / len(rewards), 4)


def _combine(selection: float, arguments: float, usefulness: float) -> float:
    value = SELECTION_WEIGHT * selection + ARGUMENT_WEIGHT * arguments + USEFULNESS_WEIGHT * usefulness
    return round(min(1.0, max(0.0, value)), 4)


def _parse_args(arguments: Any) -> dict[str, Any] | None:
    if isinstance(arguments, dict):
        return arguments
    if not isinstance(arguments, str):
        return None
    try:
        value = json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _canonical(name: str, args: dict[str, Any] | None, raw: Any) -> str:
    if args is None:
        return f"{name}|raw|{raw!s}"
    norm = {k: v.strip() if isinstance(v, str) else v for k, v in args.items() if v not in (None, "")}
    return f"{name}|" + json.dumps(norm, sort_keys=True, ensure_ascii=False, default=str)


def _record_count(name: str, data: dict[str, Any] | None) -> int | None:
    """Records in AMap-shaped result data, or None when the shape is not recognised."""
    if not isinstance(data, dict):
        return None
    for key in _RECORD_KEYS:
        if isinstance(data.get(key), list):
            return len(data[key])
    forecasts = data.get("forecasts")
    if isinstance(forecasts, list):
        return sum(len(f.get("casts") or []) for f in forecasts if isinstance(f, dict))
    route = data.get("route")
    if isinstance(route, dict):
        paths = route.get("paths") or route.get("transits") or []
        return len(paths) if isinstance(paths, list) else 0
    return None


@lru_cache(maxsize=4096)
def _city_key(text: str) -> str:
    """A canonical city name for comparisons (catalog name when the catalog resolves it)."""
    try:
        from navworld.world.catalog import resolve_city

        city = resolve_city(text)
    except Exception:  # catalog unavailable: fall back to the text itself
        city = None
    if city is not None:
        return city.name
    text = text.strip()
    for suffix in ("市", "地区", "县"):
        if text.endswith(suffix) and len(text) > len(suffix) + 1:
            return text[: -len(suffix)]
    return text


class RewardTracker:
    """Per-episode reward state: which calls and tools came before.

    Args:
        problem: the episode's problem (required tools, cities, dates).
        known_tools: valid tool names (default: the six tools).
    """

    def __init__(self, problem: Problem, known_tools: tuple[str, ...] | None = None) -> None:
        self.problem = problem
        self.known_tools = frozenset(known_tools or KNOWN_TOOLS)
        self.required = frozenset(problem.required_tools)
        self._seen_calls: set[str] = set()
        self._used_tools: set[str] = set()
        self._cities = {c for c in (problem.origin_city, problem.destination_city) if c}
        self._city_keys = {_city_key(c) for c in self._cities}
        self._window = self._date_window(problem)

    @staticmethod
    def _date_window(problem: Problem) -> tuple[date, date] | None:
        try:
            start = date.fromisoformat(problem.travel_date)
        except (TypeError, ValueError):
            return None
        return start - timedelta(days=1), start + timedelta(days=max(1, problem.num_days))

    # ------------------------------------------------------------------------------ public
    def score(self, name: str, arguments: Any, result: ToolResult | None) -> CallReward:
        """Score one call given its result (``None`` = not executed) and record it."""
        args = _parse_args(arguments)
        key = _canonical(name, args, arguments)
        redundant = key in self._seen_calls
        self._seen_calls.add(key)
        if result is None:
            return CallReward(name, 0.0, 0.0, 0.0, 0.0, redundant)
        selection = self._selection(name, redundant)
        if args is None:
            arguments_q = 0.0
        elif not result.ok:
            arguments_q = 0.2
        else:
            arguments_q = self._argument_quality(name, args)
        usefulness = 0.0 if (redundant or not result.ok) else self._usefulness(name, result)
        if result.ok and name in self.known_tools:
            self._used_tools.add(name)
        return CallReward(name, selection, arguments_q, usefulness, _combine(selection, arguments_q, usefulness), redundant)

    # ------------------------------------------------------------------------------ components
    def _selection(self, name: str, redundant: bool) -> float:
        if name not in self.known_tools or redundant:
            return 0.0
        relevant = name in self.required or (name in TRANSPORT_TOOLS and self.problem.is_transport)
        first = name not in self._used_tools
        if relevant:
            return 1.0 if first else 0.8
        return 0.5 if first else 0.3

    def _argument_quality(self, name: str, args: dict[str, Any]) -> float:
        checks: list[bool] = []
        for arg in _CITY_ARGS:
            value = args.get(arg)
            if isinstance(value, str) and value.strip():
                checks.append(self._is_problem_city(value))
        for arg in _COORD_ARGS.get(name, ()):
            value = args.get(arg)
            if value is not None:
                checks.append(_is_china_lnglat(value))
        value = args.get("date")
        if isinstance(value, str) and value.strip():
            checks.append(self._in_window(value.strip()))
        if name in TRANSPORT_TOOLS and self.problem.is_transport:
            pair = {_city_key(str(args.get("from_city", ""))), _city_key(str(args.get("to_city", "")))}
            checks.append(pair == self._city_keys)
        if not checks:
            return 1.0
        return round(sum(checks) / len(checks), 4)

    def _is_problem_city(self, text: str) -> bool:
        if not self._cities:
            return True
        key = _city_key(text)
        return key in self._city_keys or any(c in text for c in self._cities)

    def _in_window(self, text: str) -> bool:
        if not _DATE.match(text):
            return False
        if self._window is None:
            return True
        try:
            day = date.fromisoformat(text)
        except ValueError:
            return False
        return self._window[0] <= day <= self._window[1]

    @staticmethod
    def _usefulness(name: str, result: ToolResult) -> float:
        count = _record_count(name, result.data)
        if count is None:
            length = len(result.text.strip())
            return 0.8 if length >= 200 else 0.5 if length >= 40 else 0.2
        if count == 0:
            return 0.2
        if name in ("direction", "weather"):
            return 1.0
        return 0.6 if count == 1 else 0.8 if count == 2 else 1.0


def _is_china_lnglat(value: Any) -> bool:
    """A ``"lng,lat"`` string (or pair) inside China's bounding box (73–136 E, 3–54 N)."""
    if isinstance(value, list | tuple) and len(value) == 2:
        value = f"{value[0]},{value[1]}"
    if not isinstance(value, str):
        return False
    m = _LNGLAT.match(value)
    if not m:
        return False
    lng, lat = float(m.group(1)), float(m.group(2))
    return 73.0 <= lng <= 136.0 and 3.0 <= lat <= 54.0

"""The one tool registry: names, argument models (→ JSON schema), handlers and dispatch.

It feeds the OpenAI tool list, the MCP server, the episode API, the HTTP API and the CLI.
:func:`call_tool` never raises: bad input, unknown tools or cities, budget overruns and backend
failures all come back as ``ToolResult(ok=False, text="错误：…")``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from rapidfuzz import fuzz, process

from navworld.core.errors import ToolInputError, WorldError
from navworld.core.geo import format_lnglat
from navworld.core.models import City, ToolResult
from navworld.tools.args import (
    AroundSearchArgs,
    DirectionArgs,
    FlightsArgs,
    PoiSearchArgs,
    TrainsArgs,
    WeatherArgs,
    check_lnglat,
    describe_validation_error,
)
from navworld.tools.budget import ToolBudget
from navworld.tools.hints import argument_example, json_error_reason
from navworld.tools.json_args import (
    MAX_ARGUMENT_DEPTH,
    MAX_ARGUMENTS_CHARS,
    ToolArgumentsError,
    load_arguments,
)
from navworld.tools.render import LIMIT, error_text, render, truncate
from navworld.world.base import WorldBackend
from navworld.world.catalog import Catalog, default_catalog

__all__ = ["MAX_ARGUMENTS_CHARS", "TOOL_NAMES", "ToolSpec", "all_tools", "call_tool", "get_tool", "openai_tools"]

log = logging.getLogger(__name__)

TOOL_NAMES: tuple[str, ...] = (
    "poi_search",
    "around_search",
    "direction",
    "weather",
    "search_flights",
    "search_train_tickets",
)

Handler = Callable[[WorldBackend, Any, "_Ctx"], Awaitable[tuple[dict[str, Any], dict[str, Any]]]]


@dataclass(frozen=True)
class _Ctx:
    catalog: Catalog
    default_date: str | None


@dataclass(frozen=True)
class ToolSpec:
    """One tool: name, pydantic argument model, bilingual description and async handler."""

    name: str
    args_model: type[BaseModel]
    description_zh: str
    description_en: str
    handler: Handler

    @property
    def description(self) -> str:
        """Chinese and English description in one string."""
        return f"{self.description_zh}\n{self.description_en}"

    def json_schema(self) -> dict[str, Any]:
        """A plain JSON schema of the arguments (optional fields as their base type)."""
        raw = self.args_model.model_json_schema()
        props: dict[str, Any] = {}
        for key, prop in raw.get("properties", {}).items():
            p = {k: v for k, v in prop.items() if k != "title"}
            if "anyOf" in p:
                non_null = [x for x in p.pop("anyOf") if x.get("type") != "null"]
                if non_null:
                    p = {**non_null[0], **p}
                if p.get("default", 0) is None:
                    p.pop("default")
            props[key] = p
        return {
            "type": "object",
            "properties": props,
            "required": list(raw.get("required", [])),
            "additionalProperties": False,
        }


# -- helpers -------------------------------------------------------------------------------
def _unknown_city(text: str, catalog: Catalog) -> ToolInputError:
    names = catalog.city_names()
    shown = text if len(text) <= 30 else text[:30] + "…"
    hint = ""
    cands = [c.name for c in catalog.all_cities()] + [c.name_en for c in catalog.all_cities()]
    best = process.extractOne(text[:50], cands, scorer=fuzz.WRatio, score_cutoff=70)
    if best is not None:
        city = catalog.resolve_city(best[0])
        if city is not None:
            hint = f"，你是不是要找「{city.name}」？"
    examples = "、".join(names[:6])
    return ToolInputError(f"未知城市「{shown}」{hint}（仅支持中国大陆的 {len(names)} 个城市，例如 {examples}）")


def _city(text: str, ctx: _Ctx) -> City:
    city = ctx.catalog.resolve_city(text)
    if city is None:
        raise _unknown_city(text, ctx.catalog)
    return city


# -- handlers ------------------------------------------------------------------------------
async def _poi_search(world: WorldBackend, a: PoiSearchArgs, ctx: _Ctx) -> tuple[dict[str, Any], dict[str, Any]]:
    city = _city(a.region, ctx) if a.region else ctx.catalog.find_in_text(a.address)
    data = await world.poi_search(a.address, city)
    return data, {"address": a.address, "region": city.name if city else None}


async def _around_search(world: WorldBackend, a: AroundSearchArgs, ctx: _Ctx) -> tuple[dict[str, Any], dict[str, Any]]:
    city = _city(a.region, ctx) if a.region else None
    loc = check_lnglat(a.location)
    data = await world.around_search(loc, a.radius, a.keyword or None, city)
    return data, {"location": format_lnglat(loc), "radius": a.radius, "keyword": a.keyword, "region": city.name if city else None}


async def _direction(world: WorldBackend, a: DirectionArgs, ctx: _Ctx) -> tuple[dict[str, Any], dict[str, Any]]:
    origin, dest, wps = a.points()
    data = await world.direction(origin, dest, a.mode, wps)
    return data, {"origin": format_lnglat(origin), "destination": format_lnglat(dest), "mode": a.mode}


async def _weather(world: WorldBackend, a: WeatherArgs, ctx: _Ctx) -> tuple[dict[str, Any], dict[str, Any]]:
    city = _city(a.city, ctx)
    data = await world.weather(city, a.date or ctx.default_date)
    return data, {"city": city.name}


async def _flights(world: WorldBackend, a: FlightsArgs, ctx: _Ctx) -> tuple[dict[str, Any], dict[str, Any]]:
    src, dst = _city(a.from_city, ctx), _city(a.to_city, ctx)
    data = await world.flights(a.date, src, dst)
    return data, {"date": a.date, "from_city": src.name, "to_city": dst.name}


async def _trains(world: WorldBackend, a: TrainsArgs, ctx: _Ctx) -> tuple[dict[str, Any], dict[str, Any]]:
    src, dst = _city(a.from_city, ctx), _city(a.to_city, ctx)
    data = await world.trains(a.date, src, dst)
    return data, {"date": a.date, "from_city": src.name, "to_city": dst.name}


_SPECS: dict[str, ToolSpec] = {
    s.name: s
    for s in (
        ToolSpec(
            "poi_search", PoiSearchArgs,
            "按关键词搜索地点（景点、餐厅、酒店、交通枢纽），返回名称、地址、坐标、评分、价格、营业时间等，最多 10 条。",
            "Search places (attractions, restaurants, hotels, transport hubs) by keyword; returns name, address, "
            "coordinates, rating, price and opening hours (at most 10).",
            _poi_search,
        ),
        ToolSpec(
            "around_search", AroundSearchArgs,
            "搜索某坐标周边指定半径内的地点，按距离由近到远，最多 10 条。",
            "Search places within a radius of a 'lng,lat' point, nearest first (at most 10).",
            _around_search,
        ),
        ToolSpec(
            "direction", DirectionArgs,
            "两点间路线规划（驾车、步行、骑行、公交地铁），返回距离、耗时、打车费、线路与分段步骤。",
            "Route between two 'lng,lat' points (driving, walking, bicycling, transit): distance, duration, "
            "taxi cost, transit lines and steps.",
            _direction,
        ),
        ToolSpec(
            "weather", WeatherArgs,
            "查询城市从指定日期起 4 天的天气预报（天气、气温、风向、风力）。",
            "4-day weather forecast of a city from a date (weather, temperatures, wind).",
            _weather,
        ),
        ToolSpec(
            "search_flights", FlightsArgs,
            "查询两城市之间某日的航班（航班号、航司、起降时间与机场、飞行时长、经济舱价格）。",
            "Flights between two cities on a date (number, airline, times, airports, duration, economy price).",
            _flights,
        ),
        ToolSpec(
            "search_train_tickets", TrainsArgs,
            "查询两城市之间某日的火车（车次、类型、起止站与时间、历时、各席别票价）。",
            "Trains between two cities on a date (number, type, stations, times, duration, price per seat class).",
            _trains,
        ),
    )
}


def get_tool(name: str) -> ToolSpec:
    """The spec of tool ``name``; ``KeyError`` if unknown."""
    return _SPECS[name]


def all_tools() -> list[ToolSpec]:
    """Every tool spec in ``TOOL_NAMES`` order."""
    return [_SPECS[n] for n in TOOL_NAMES]


def openai_tools() -> list[dict[str, Any]]:
    """The OpenAI function-tool list of the six tools."""
    return [
        {"type": "function", "function": {"name": s.name, "description": s.description, "parameters": s.json_schema()}}
        for s in all_tools()
    ]


def _error(reason: str, infra: bool = False) -> ToolResult:
    return ToolResult(ok=False, text=truncate(error_text(reason), LIMIT), data=None, error=reason, infra=infra)


def _arguments_reason(name: str, text: str, exc: ToolArgumentsError) -> str:
    if exc.reason == "invalid_json":
        try:
            json.loads(text)
        except json.JSONDecodeError as decode_error:
            return json_error_reason(name, text, decode_error)
        except RecursionError:  # pragma: no cover - the depth check comes first
            pass
    if exc.reason == "too_deep":
        return f"参数不是合法的 JSON（嵌套超过 {MAX_ARGUMENT_DEPTH} 层）：请传入一个 JSON 对象，例如 {argument_example(name)}"
    return str(exc)


def _parse_arguments(arguments: Any, name: str = "") -> dict[str, Any]:
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        try:
            parsed = load_arguments(arguments)  # bounded: ToolArgumentsError (a ToolInputError) on bad text
        except ToolArgumentsError as exc:  # the reason the model reads: where, and this tool's example
            raise ToolInputError(_arguments_reason(name, arguments, exc)) from None
    else:
        parsed = arguments
    if not isinstance(parsed, Mapping):
        raise ToolInputError(f"参数必须是 JSON 对象，收到 {type(parsed).__name__}，例如 {argument_example(name)}")
    return dict(parsed)


async def call_tool(
    name: str,
    arguments: str | dict[str, Any] | None,
    world: WorldBackend,
    budget: ToolBudget | None = None,
    default_date: str | None = None,
) -> ToolResult:
    """Validate, budget, dispatch and render one tool call. Never raises."""
    try:
        spec = _SPECS.get(name) if isinstance(name, str) else None
        if spec is None:
            shown = str(name)[:40]
            return _error(f"未知工具「{shown}」，可用工具：{'、'.join(TOOL_NAMES)}")
        try:
            raw = _parse_arguments(arguments, name)
            args = spec.args_model.model_validate(raw)
        except ToolInputError as exc:
            return _error(str(exc))
        except ValidationError as exc:
            return _error(f"{name} 参数不合法：{describe_validation_error(exc, spec.args_model)}")
        if budget is not None and not budget.try_consume(name):
            return _error(budget.exceeded_message(name))
        catalog = getattr(world, "catalog", None)
        ctx = _Ctx(catalog if isinstance(catalog, Catalog) else default_catalog(), default_date)
        try:
            data, header = await spec.handler(world, args, ctx)
        except ToolInputError as exc:
            return _error(str(exc))
        except WorldError as exc:
            log.warning("world backend failed on %s: %s", name, exc)
            return _error(f"数据服务暂时不可用：{exc}", infra=True)
        text = truncate(render(name, data, header), LIMIT)
        return ToolResult(ok=True, text=text, data=data)
    except Exception as exc:  # a bug or an unexpected backend failure: report, never raise
        log.exception("tool %r failed", name)
        return _error(f"工具内部错误（{type(exc).__name__}），请稍后重试或换一种参数", infra=True)

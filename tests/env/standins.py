"""Test-only stand-ins for collaborators that may not be installed yet.

The runtime (agents/env/server) codes against ``docs/contracts.md``: the tool registry, the
tool budget, ``navworld.world.get_world``, the problem generator and the scorer. While another
engineer's module is missing, :func:`install` registers a small stand-in with the same
interface in ``sys.modules`` (tests only; nothing here ships in ``src``). When the real module
exists it is used unchanged.
"""

from __future__ import annotations

import importlib
import json
import sys
import types
from typing import Any, ClassVar

from navworld.core.models import ToolResult
from navworld.core.problem import PROBLEM_TYPES, Problem

CITIES = ["北京", "上海", "杭州", "成都", "西安", "广州", "重庆", "南京", "厦门", "青岛"]
TOOL_NAMES = ("poi_search", "around_search", "direction", "weather", "search_flights", "search_train_tickets")


# ----------------------------------------------------------------------------- tools


class StandinBudget:
    """Per-episode limits like the real ToolBudget."""

    LIMITS: ClassVar[dict[str, int]] = {"poi_search": 10, "around_search": 6, "direction": 10, "weather": 3}

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def try_consume(self, name: str) -> bool:
        limit = self.LIMITS.get(name)
        if limit is not None and self.counts.get(name, 0) >= limit:
            return False
        self.counts[name] = self.counts.get(name, 0) + 1
        return True


def _schema(name: str) -> dict[str, Any]:
    props = {
        "poi_search": {"address": {"type": "string"}, "region": {"type": "string"}},
        "around_search": {"location": {"type": "string"}, "radius": {"type": "integer"}, "keyword": {"type": "string"}},
        "direction": {"origin": {"type": "string"}, "destination": {"type": "string"}, "mode": {"type": "string"}},
        "weather": {"city": {"type": "string"}, "date": {"type": "string"}},
        "search_flights": {"date": {"type": "string"}, "from_city": {"type": "string"}, "to_city": {"type": "string"}},
        "search_train_tickets": {"date": {"type": "string"}, "from_city": {"type": "string"}, "to_city": {"type": "string"}},
    }[name]
    return {"type": "object", "properties": props, "required": [next(iter(props))]}


def openai_tools() -> list[dict[str, Any]]:
    return [
        {"type": "function", "function": {"name": n, "description": f"stand-in {n}", "parameters": _schema(n)}}
        for n in TOOL_NAMES
    ]


def _err(reason: str) -> ToolResult:
    return ToolResult(ok=False, text=f"错误：{reason}", error=reason)


async def call_tool(
    name: str, arguments: str | dict[str, Any], world: Any, budget: Any = None, default_date: str | None = None
) -> ToolResult:
    if name not in TOOL_NAMES:
        return _err(f"未知工具 {name}")
    if isinstance(arguments, str):
        try:
            args = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            return _err("参数不是合法的 JSON")
    else:
        args = arguments
    if not isinstance(args, dict):
        return _err("参数必须是 JSON 对象")
    required = _schema(name)["required"][0]
    if not args.get(required):
        return _err(f"缺少参数 {required}")
    if getattr(world, "fail_infra", False):
        return ToolResult(ok=False, text="错误：服务暂不可用", error="backend down", infra=True)
    if budget is not None and not budget.try_consume(name):
        return _err(f"{name} 调用次数已达上限")
    if name in ("poi_search", "around_search"):
        pois = [
            {"name": f"{args.get(required)}{i}号", "location": f"120.{150 + i}123,30.{270 + i}456", "address": f"路{i}号"}
            for i in range(5)
        ]
        text = "\n".join(f"{i + 1}. {p['name']} 坐标 {p['location']} 地址 {p['address']}" for i, p in enumerate(pois))
        return ToolResult(ok=True, text=text, data={"pois": pois})
    if name == "weather":
        date = args.get("date") or default_date or "2025-05-01"
        casts = [{"date": date, "dayweather": "晴", "daytemp": "25"} for _ in range(4)]
        return ToolResult(ok=True, text=f"{args['city']} {date} 晴 25℃", data={"forecasts": [{"casts": casts}]})
    if name == "direction":
        return ToolResult(ok=True, text="公交 距离 5.2公里 用时 30分钟 地铁1号线", data={"route": {"paths": [{"distance": "5200"}]}})
    key = "flights" if name == "search_flights" else "trains"
    items = [{"no": f"{'MU' if key == 'flights' else 'G'}{100 + i}", "price": str(500 + i)} for i in range(3)]
    text = "\n".join(f"{it['no']} 价格 {it['price']}元" for it in items)
    return ToolResult(ok=True, text=text, data={key: items})


# ----------------------------------------------------------------------------- world


class StandinWorld:
    """A world object (the stand-in registry does not read it, except ``fail_infra``)."""

    def __init__(self, salt: str | None = None) -> None:
        self.name = "sandbox"
        self.salt = salt or "0"
        self.fail_infra = False

    async def aclose(self) -> None:
        return None


def get_world(spec: str | None = None, salt: str | None = None) -> StandinWorld:
    return StandinWorld(salt)


class FailingWorld:
    """A backend whose every call fails for infrastructure reasons (real and stand-in registries)."""

    name = "failing"
    salt = "s"
    fail_infra = True  # read by the stand-in registry

    async def _fail(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        from navworld.core.errors import WorldError

        raise WorldError("quota exhausted")

    poi_search = around_search = direction = weather = flights = trains = _fail

    async def aclose(self) -> None:
        return None


# ----------------------------------------------------------------------------- tasks

_REQUIRED = {
    "intercity": ["search_train_tickets", "search_flights", "poi_search"],
    "multiday": ["poi_search", "weather", "direction"],
    "hybrid": ["search_train_tickets", "poi_search", "weather"],
    "single_poi": ["poi_search", "direction"],
    "food_tour": ["poi_search", "around_search"],
    "business": ["search_flights", "poi_search", "direction"],
    "family_study": ["poi_search", "weather"],
}


class ProblemGenerator:
    def __init__(self, world: Any = None) -> None:
        self.world = world

    def generate(self, task_id: int, lang: str = "zh") -> Problem:
        ptype = PROBLEM_TYPES[task_id % 7]
        dest = CITIES[(task_id // 7) % len(CITIES)]
        origin = CITIES[(task_id // 7 + 3) % len(CITIES)] if ptype in ("intercity", "hybrid", "business") else ""
        if lang == "en":
            prompt = f"Plan a 3-day trip to {dest} starting 2025-05-01" + (f", departing from {origin}." if origin else ".")
        else:
            prompt = (f"我从{origin}出发，" if origin else "我想") + f"2025-05-01 去{dest}玩3天，请帮我规划行程。"
        return Problem(
            task_id=task_id,
            problem_type=ptype,  # type: ignore[arg-type]
            origin_city=origin,
            destination_city=dest,
            travel_date="2025-05-01",
            num_days=3,
            required_tools=_REQUIRED[ptype],
            difficulty=(task_id // 7) % 3 + 1,
            prompt=prompt,
            system_prompt="你是旅行规划助手。" if lang != "en" else "You are a travel planner.",
            lang=lang,  # type: ignore[arg-type]
        )


# ----------------------------------------------------------------------------- scoring


class StandinReport:
    def __init__(self, total: float) -> None:
        self.total = total

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "code_score": {"subtotal": self.total}, "debug": True}

    def to_safe_dict(self) -> dict[str, Any]:
        return {"total": self.total, "code_band": "medium"}


class TravelScorer:
    def __init__(self, judge: Any = None, salt: str | None = None) -> None:
        self.judge = judge

    def score(self, problem: Problem, trace: list[dict[str, Any]], answer: str) -> StandinReport:
        ok_tools = sum(1 for m in trace if m.get("role") == "tool" and not str(m.get("content", "")).startswith("错误"))
        total = 0.0 if not answer.strip() else min(100.0, 20.0 + 5.0 * ok_tools + len(answer) / 100.0)
        return StandinReport(round(total, 2))

    async def score_async(self, problem: Problem, trace: list[dict[str, Any]], answer: str) -> StandinReport:
        return self.score(problem, trace, answer)


# ----------------------------------------------------------------------------- activation

_READY: list[bool] = []


def real_stack_ready() -> bool:
    """Whether every real collaborator is importable and the city catalog has data."""
    if not _READY:
        try:
            from navworld.scoring.scorer import TravelScorer  # noqa: F401
            from navworld.tasks.generator import ProblemGenerator  # noqa: F401
            from navworld.tools.registry import call_tool  # noqa: F401
            from navworld.world import get_world  # noqa: F401
            from navworld.world.catalog import city_names

            _READY.append(bool(city_names()))
        except (ImportError, AttributeError):
            _READY.append(False)
    return _READY[0]


def _module(name: str, **attrs: Any) -> types.ModuleType:
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    mod.__dict__["__standin__"] = True
    return mod


def activate(monkeypatch: Any) -> bool:
    """Swap in the whole stand-in stack for one test unless the real stack is ready.

    All or nothing, so a test never mixes a real registry with a stand-in world. Returns True
    when the stand-ins are active. ``monkeypatch`` undoes everything after the test.
    """
    if real_stack_ready():
        return False
    monkeypatch.setitem(
        sys.modules,
        "navworld.tools.registry",
        _module("navworld.tools.registry", TOOL_NAMES=TOOL_NAMES, openai_tools=openai_tools, call_tool=call_tool),
    )
    monkeypatch.setitem(sys.modules, "navworld.tools.budget", _module("navworld.tools.budget", ToolBudget=StandinBudget))
    monkeypatch.setattr(importlib.import_module("navworld.world"), "get_world", get_world, raising=False)
    monkeypatch.setitem(
        sys.modules, "navworld.tasks.generator", _module("navworld.tasks.generator", ProblemGenerator=ProblemGenerator)
    )
    monkeypatch.setitem(
        sys.modules, "navworld.scoring.scorer", _module("navworld.scoring.scorer", TravelScorer=TravelScorer)
    )
    return True


def city_list() -> list[str]:
    """City names for scripted models: the catalog's when the real stack runs, else the stand-in list."""
    if real_stack_ready():
        from navworld.world.catalog import city_names

        return list(city_names())
    return list(CITIES)


# ----------------------------------------------------------------------------- episode drivers


async def drive(reset: Any, step: Any, task_id: int, script: Any, max_turns: int = 40) -> dict[str, Any]:
    """Play one episode through ``reset(task_id)`` / ``step(action, episode_id, tool_calls)``.

    ``script`` is a scripted model (:mod:`navworld.agents.fake`); the client-side transcript is
    kept exactly like the server's (assistant turn + observation), so the script sees what the
    episode holds. Returns ``{"reset", "steps": [step results], "messages"}``.
    """
    from navworld.agents.fake import ChatRequest, Reply

    opened = await reset(task_id)
    episode_id = opened["episode_id"]
    messages = list(opened["observation"])
    tools = opened["info"]["tools"]
    tools_on = True
    steps: list[dict[str, Any]] = []
    for _ in range(max_turns):
        out = script(ChatRequest("scripted", messages, tools=tools if tools_on else None))
        assert isinstance(out, Reply), out
        calls = [dict(c) for c in out.tool_calls] or None
        result = await step(out.content or "", episode_id, calls)
        steps.append(result)
        turn: dict[str, Any] = {"role": "assistant", "content": out.content or ("" if not calls else None)}
        if calls:
            turn["tool_calls"] = calls
        messages.append(turn)
        messages.extend(result["observation"])
        if result["done"]:
            return {"reset": opened, "steps": steps, "messages": messages}
        tools_on = bool(result["info"].get("tools_enabled", True))
    raise AssertionError("episode did not finish")

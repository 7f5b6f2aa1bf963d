"""Scripted fake models, decided by conversation content (never by call order).

A *script* is a function of the request (:class:`ChatRequest`: the messages, whether tools are
offered, the sampling parameters) that returns what the fake endpoint does:

* :class:`Reply` — an assistant message (text and/or tool calls);
* :class:`Fault` — an HTTP error (status, message, OpenAI error code, headers such as Retry-After);
* :class:`Hang` — sleep before answering (to trip client timeouts);
* :class:`StreamCut` — stream some visible text, then drop the connection (streaming only).

Because a script only looks at the conversation, a retried request gets the same decision as
the original unless a fault wrapper says otherwise; wrappers such as :func:`fail_first` count
per conversation state (a hash of the messages), so "fail once, then succeed" is exact under
retries, re-dispatches and concurrency.

:class:`GroundedPlanner` is a competent scripted agent: it reads the travel request, looks up
POIs, weather, routes and (when there is an origin city) trains and flights, then writes an
answer citing what the tools returned. The fault scripts of :mod:`navworld.agents.fake_faults`
wrap it.

The request/outcome types and the conversation view live in :mod:`navworld.agents.fake_request`,
the fault wrappers in :mod:`navworld.agents.fake_faults`; both are re-exported here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from navworld.agents.fake_faults import (
    context_overflow_after,
    fail_first,
    hang_first,
    malformed_args_first,
    rate_limit_first,
    stream_cut_first,
    unknown_tool_first,
)
from navworld.agents.fake_request import (
    ChatRequest,
    Conversation,
    Fault,
    Hang,
    Outcome,
    Reply,
    Script,
    StreamCut,
    ToolExchange,  # noqa: F401  (re-exported: it lived here)
    call,
    find_cities,
    find_date,
    number_calls,
)

__all__ = [
    "ChatRequest",
    "Conversation",
    "Fault",
    "GroundedPlanner",
    "Hang",
    "Reply",
    "Script",
    "StreamCut",
    "always_tools",
    "call",
    "context_overflow_after",
    "empty_content",
    "fail_first",
    "hang_first",
    "malformed_args_first",
    "rate_limit_first",
    "stream_cut_first",
    "unknown_tool_first",
]

# ----------------------------------------------------------------------------- city names

_LNGLAT = re.compile(r"(\d{2,3}\.\d{3,}),\s*(\d{1,2}\.\d{3,})")


def _city_names() -> list[str]:
    try:
        from navworld.world.catalog import city_names

        return list(city_names())
    except Exception:  # the catalog is optional for a fake model
        return []


# ----------------------------------------------------------------------------- grounded planner


class GroundedPlanner:
    """A competent scripted agent whose every move is decided by what the transcript holds.

    Turn logic (each condition looks at successful tool results only):

    1. no POI results → ``poi_search`` for attractions, hotels and food in the destination;
    2. no weather → ``weather`` for the destination on the travel date, plus
       ``search_train_tickets`` and ``search_flights`` when the request has an origin city;
    3. no route yet and two coordinates known → ``direction`` between them and an
       ``around_search`` near the first;
    4. otherwise → the final answer, built from the tool results.

    With ``short_first=True`` the first answer is a one-liner (to exercise the final-answer
    prompt); the full answer comes once that prompt has been sent.
    """

    def __init__(self, cities: Sequence[str] | None = None, short_first: bool = False, lang: str = "zh") -> None:
        self._cities = list(cities) if cities is not None else None
        self.short_first = short_first
        self.lang = lang

    def cities(self) -> list[str]:
        """Known city names (the catalog's, unless given)."""
        if self._cities is None:
            self._cities = _city_names()
        return self._cities

    def __call__(self, request: ChatRequest) -> Outcome:
        """Decide the next move from the conversation."""
        conv = request.conversation
        if request.tools_on:
            calls = self.next_calls(conv)
            if calls:
                return Reply(content=None, tool_calls=number_calls(calls, conv))
            if self.short_first and not conv.final_prompt_sent:
                return Reply(content="方案见下。" if self.lang == "zh" else "Plan below.")
        return Reply(content=self.answer(conv))

    def next_calls(self, conv: Conversation) -> list[dict[str, Any]]:
        """The tool calls this turn should make (empty when it is time to answer)."""
        origin, dest = find_cities(conv.user_prompt, self.cities())
        dest = dest or "北京"
        date = find_date(conv.user_prompt)
        if not conv.settled("poi_search"):
            return [
                call("poi_search", {"address": f"{dest}景点", "region": dest}),
                call("poi_search", {"address": f"{dest}酒店", "region": dest}),
                call("poi_search", {"address": f"{dest}美食", "region": dest}),
            ]
        if not conv.settled("weather"):
            calls = [call("weather", {"city": dest, **({"date": date} if date else {})})]
            if origin and date:
                route = {"date": date, "from_city": origin, "to_city": dest}
                calls += [call("search_train_tickets", route), call("search_flights", route)]
            return calls
        if not conv.settled("direction", tries=1):
            coords = self.coordinates(conv)
            if len(coords) >= 2:
                return [
                    call("direction", {"origin": coords[0], "destination": coords[1], "mode": "transit"}),
                    call("around_search", {"location": coords[0], "radius": 2000, "keyword": "餐厅", "region": dest}),
                ]
        return []

    @staticmethod
    def coordinates(conv: Conversation) -> list[str]:
        """Distinct ``lng,lat`` strings found in successful POI results, in order."""
        seen: list[str] = []
        for ex in conv.ok_results("poi_search"):
            for lng, lat in _LNGLAT.findall(ex.content):
                value = f"{lng},{lat}"
                if value not in seen:
                    seen.append(value)
        return seen

    def answer(self, conv: Conversation) -> str:
        """A final answer that quotes the first lines of every successful tool result."""
        origin, dest = find_cities(conv.user_prompt, self.cities())
        dest = dest or "目的地"
        zh = self.lang != "en"
        parts = [f"# {dest}旅行方案" if zh else f"# Trip plan for {dest}", ""]
        heads = {
            "search_train_tickets": "## 城际交通（火车）" if zh else "## Trains",
            "search_flights": "## 城际交通（航班）" if zh else "## Flights",
            "poi_search": "## 景点、住宿与餐饮" if zh else "## Sights, hotels and food",
            "weather": "## 天气" if zh else "## Weather",
            "direction": "## 市内交通" if zh else "## Getting around",
            "around_search": "## 周边推荐" if zh else "## Nearby",
        }
        for name, head in heads.items():
            lines: list[str] = []
            for ex in conv.ok_results(name):
                lines += [ln.strip() for ln in ex.content.splitlines() if ln.strip()][:4]
            if lines:
                parts.append(head)
                parts += [f"- {ln}" for ln in lines[:8]]
                parts.append("")
        if origin:
            parts.append(f"出发城市：{origin}；目的地：{dest}。" if zh else f"From {origin} to {dest}.")
        parts.append(
            "以上信息均来自工具查询结果，预算请以实际价格为准。"
            if zh
            else "Everything above comes from the tool results; check prices before booking."
        )
        text = "\n".join(parts)
        if len(text) < 220:
            text += "\n" + ("第1天：抵达后游览主要景点，晚餐品尝当地美食。第2天：自由活动后返程。" * 3 if zh else "")
        return text


# ----------------------------------------------------------------------------- model scripts


def always_tools(stubborn: bool = False, answer: Script | None = None) -> Script:
    """A model that never stops calling tools while they are offered.

    With tools off it answers through ``answer`` (default: a :class:`GroundedPlanner` answer),
    unless ``stubborn``, in which case it keeps emitting tool calls and no text.
    """
    planner = GroundedPlanner()

    def script(request: ChatRequest) -> Outcome:
        conv = request.conversation
        n = conv.n_tool_messages
        if request.tools_on or stubborn:
            _, dest = find_cities(conv.user_prompt, planner.cities())
            args = {"address": f"{('景点', '公园', '博物馆', '餐厅', '酒店')[n % 5]}{n}"}
            if dest:
                args["region"] = dest
            return Reply(tool_calls=number_calls([call("poi_search", args)], conv))
        return (answer or planner)(request)

    return script


def empty_content() -> Script:
    """A model that always answers with empty content and no tool calls."""

    def script(request: ChatRequest) -> Outcome:
        return Reply(content="")

    return script

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
answer citing what the tools returned. The fault scripts below wrap it.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

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


# ----------------------------------------------------------------------------- request/outcomes


@dataclass(frozen=True)
class Reply:
    """An assistant message: ``content`` and/or ``tool_calls`` (OpenAI dict shape)."""

    content: str | None = None
    tool_calls: tuple[dict[str, Any], ...] = ()
    finish_reason: str | None = None


@dataclass(frozen=True)
class Fault:
    """An HTTP error response in the OpenAI error shape."""

    status: int
    message: str = "fake server error"
    code: str | None = None
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Hang:
    """Sleep ``seconds`` and then answer with ``then`` (default: a short text reply)."""

    seconds: float
    then: Reply | None = None


@dataclass(frozen=True)
class StreamCut:
    """Stream ``content`` as visible deltas, then drop the connection (non-streaming: HTTP 502)."""

    content: str = "好的，下面是为您规划的行程："


Outcome = Reply | Fault | Hang | StreamCut


@dataclass
class ChatRequest:
    """One chat-completions request as the fake endpoint received it."""

    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    stream: bool = False
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def tools_on(self) -> bool:
        """Whether tools were offered."""
        return bool(self.tools)

    @property
    def conversation(self) -> Conversation:
        """A read-only analysis of the messages."""
        return Conversation(self.messages)


Script = Callable[[ChatRequest], Outcome]


def call(name: str, arguments: dict[str, Any] | str, call_id: str | None = None) -> dict[str, Any]:
    """Build one OpenAI tool call (``arguments`` dicts are JSON-encoded as given)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"id": call_id or "", "type": "function", "function": {"name": name, "arguments": args}}


def _number_calls(calls: Sequence[dict[str, Any]], conv: Conversation) -> tuple[dict[str, Any], ...]:
    base = conv.n_tool_messages
    out = []
    for offset, c in enumerate(calls):
        c = dict(c)
        if not c.get("id"):
            c["id"] = f"call_{base + offset}"
        out.append(c)
    return tuple(out)


# ----------------------------------------------------------------------------- conversation view

_ERROR_PREFIXES = ("错误", "Error", "error")
_LNGLAT = re.compile(r"(\d{2,3}\.\d{3,}),\s*(\d{1,2}\.\d{3,})")
_ISO_DATE = re.compile(r"(20\d\d)-(\d{2})-(\d{2})")
_ZH_DATE = re.compile(r"(20\d\d)年(\d{1,2})月(\d{1,2})日")


@dataclass(frozen=True)
class ToolExchange:
    """One tool call the assistant made and the tool message that answered it."""

    name: str
    arguments: str
    content: str

    @property
    def ok(self) -> bool:
        """Whether the tool answered without an error."""
        return not self.content.lstrip().startswith(_ERROR_PREFIXES)

    def args(self) -> dict[str, Any]:
        """The parsed arguments ({} when they are not a JSON object)."""
        try:
            value = json.loads(self.arguments)
        except (TypeError, ValueError):
            return {}
        return value if isinstance(value, dict) else {}


class Conversation:
    """Read-only analysis of a chat transcript (what a scripted model 'knows')."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages
        calls: dict[str, tuple[str, str]] = {}
        self.exchanges: list[ToolExchange] = []
        for msg in messages:
            if msg.get("role") == "assistant":
                for tc in msg.get("tool_calls") or []:
                    fn = tc.get("function") or {}
                    calls[tc.get("id", "")] = (fn.get("name", ""), fn.get("arguments", ""))
            elif msg.get("role") == "tool":
                name, args = calls.get(msg.get("tool_call_id", ""), ("", ""))
                self.exchanges.append(ToolExchange(name, args, str(msg.get("content") or "")))

    @property
    def user_prompt(self) -> str:
        """The first user message."""
        return next((str(m.get("content") or "") for m in self.messages if m.get("role") == "user"), "")

    @property
    def last(self) -> dict[str, Any]:
        """The last message."""
        return self.messages[-1] if self.messages else {}

    @property
    def n_tool_messages(self) -> int:
        """How many tool messages the conversation holds."""
        return len(self.exchanges)

    @property
    def final_prompt_sent(self) -> bool:
        """Whether a user message follows the first assistant message (the final-answer prompt)."""
        seen_assistant = False
        for msg in self.messages:
            if msg.get("role") == "assistant":
                seen_assistant = True
            elif msg.get("role") == "user" and seen_assistant:
                return True
        return False

    def ok_results(self, name: str | None = None) -> list[ToolExchange]:
        """Successful exchanges (of one tool when ``name`` is given)."""
        return [e for e in self.exchanges if e.ok and (name is None or e.name == name)]

    def called_ok(self, name: str) -> bool:
        """Whether ``name`` returned a successful result."""
        return any(e.ok and e.name == name for e in self.exchanges)

    def settled(self, name: str, tries: int = 2) -> bool:
        """Whether ``name`` succeeded or was already tried ``tries`` times (so move on)."""
        return self.called_ok(name) or sum(e.name == name for e in self.exchanges) >= tries

    def errors(self) -> list[ToolExchange]:
        """Exchanges that returned an error."""
        return [e for e in self.exchanges if not e.ok]

    def digest(self) -> str:
        """A hash of the messages: one conversation state."""
        blob = json.dumps(self.messages, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()


# ----------------------------------------------------------------------------- request parsing


def _city_names() -> list[str]:
    try:
        from navworld.world.catalog import city_names

        return list(city_names())
    except Exception:  # the catalog is optional for a fake model
        return []


def find_cities(text: str, names: Sequence[str]) -> tuple[str | None, str | None]:
    """Guess (origin, destination) from a travel request, using the known city ``names``."""
    hits: list[tuple[int, str]] = []
    for name in sorted(set(names), key=len, reverse=True):
        start = 0
        while (pos := text.find(name, start)) >= 0:
            if not any(p <= pos < p + len(n) for p, n in hits):
                hits.append((pos, name))
            start = pos + len(name)
    hits.sort()
    ordered: list[str] = []
    for _, name in hits:
        if name not in ordered:
            ordered.append(name)
    if not ordered:
        return None, None
    if len(ordered) == 1:
        return None, ordered[0]
    origin = None
    for pos, name in hits:
        before, after = text[max(0, pos - 6) : pos], text[pos + len(name) : pos + len(name) + 4]
        if "从" in before or "出发" in after or before.lower().rstrip().endswith("from"):
            origin = name
            break
    if origin is None:
        return None, ordered[0]
    destination = next(n for n in ordered if n != origin)
    return origin, destination


def find_date(text: str) -> str | None:
    """The first date of a request as ``YYYY-MM-DD``."""
    m = _ISO_DATE.search(text)
    if m:
        return m.group(0)
    m = _ZH_DATE.search(text)
    if m:
        return f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}"
    return None


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
                return Reply(content=None, tool_calls=_number_calls(calls, conv))
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


# ----------------------------------------------------------------------------- fault wrappers


class _PerState:
    """Counts how often each conversation state (and key) has been seen, thread-safely."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()

    def bump(self, key: str) -> int:
        with self._lock:
            self._seen[key] = self._seen.get(key, 0) + 1
            return self._seen[key]


def fail_first(script: Script, status: int = 500, times: int = 1, message: str = "upstream overloaded") -> Script:
    """Answer the first ``times`` requests of every conversation state with HTTP ``status``."""
    seen = _PerState()

    def wrapped(request: ChatRequest) -> Outcome:
        if seen.bump(request.conversation.digest()) <= times:
            return Fault(status, message, code="server_error" if status >= 500 else None)
        return script(request)

    return wrapped


def rate_limit_first(script: Script, times: int = 1, retry_after: float = 0.05) -> Script:
    """HTTP 429 with a ``Retry-After`` for the first ``times`` requests of every state."""
    seen = _PerState()

    def wrapped(request: ChatRequest) -> Outcome:
        if seen.bump(request.conversation.digest()) <= times:
            return Fault(429, "rate limit reached", code="rate_limit_exceeded", headers=(("retry-after", str(retry_after)),))
        return script(request)

    return wrapped


def hang_first(script: Script, seconds: float, times: int = 1) -> Script:
    """Sleep ``seconds`` on the first ``times`` requests of every state (then answer normally)."""
    seen = _PerState()

    def wrapped(request: ChatRequest) -> Outcome:
        outcome = script(request)
        if seen.bump(request.conversation.digest()) <= times and isinstance(outcome, Reply):
            return Hang(seconds, outcome)
        return outcome

    return wrapped


def stream_cut_first(script: Script, times: int = 1, text: str = "好的，下面是为您规划的行程：") -> Script:
    """Cut the stream after visible text on the first ``times`` final-answer requests of a state."""
    seen = _PerState()

    def wrapped(request: ChatRequest) -> Outcome:
        outcome = script(request)
        if isinstance(outcome, Reply) and not outcome.tool_calls and seen.bump(request.conversation.digest()) <= times:
            return StreamCut(text)
        return outcome

    return wrapped


def malformed_args_first(script: Script) -> Script:
    """Before any tool result exists, call ``poi_search`` with truncated JSON arguments."""

    def wrapped(request: ChatRequest) -> Outcome:
        conv = request.conversation
        if request.tools_on and not conv.exchanges:
            return Reply(tool_calls=_number_calls([call("poi_search", '{"address": "西湖", "region": ')], conv))
        return script(request)

    return wrapped


def unknown_tool_first(script: Script, name: str = "book_hotel") -> Script:
    """Before any tool result exists, call a tool that does not exist."""

    def wrapped(request: ChatRequest) -> Outcome:
        conv = request.conversation
        if request.tools_on and not conv.exchanges:
            return Reply(tool_calls=_number_calls([call(name, {"hotel": "任意"})], conv))
        return script(request)

    return wrapped


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
            return Reply(tool_calls=_number_calls([call("poi_search", args)], conv))
        return (answer or planner)(request)

    return script


def empty_content() -> Script:
    """A model that always answers with empty content and no tool calls."""

    def script(request: ChatRequest) -> Outcome:
        return Reply(content="")

    return script


def context_overflow_after(script: Script, tool_messages: int = 1) -> Script:
    """HTTP 400 ``context_length_exceeded`` once the transcript holds ``tool_messages`` results."""

    def wrapped(request: ChatRequest) -> Outcome:
        if request.conversation.n_tool_messages >= tool_messages:
            return Fault(
                400,
                "This model's maximum context length is 4096 tokens. However, your messages resulted in 9000 tokens.",
                code="context_length_exceeded",
            )
        return script(request)

    return wrapped

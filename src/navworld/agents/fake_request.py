"""Scripted fake models: the request a script sees, the outcomes it returns, the conversation view.

A *script* (:data:`Script`) is a function of a :class:`ChatRequest` that returns an
:data:`Outcome` — a :class:`Reply`, :class:`Fault`, :class:`Hang` or :class:`StreamCut`.
:class:`Conversation` is the read-only analysis of the transcript scripts decide on, and
:func:`find_cities` / :func:`find_date` read the travel request. Everything here is re-exported
by :mod:`navworld.agents.fake`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from navworld.tools.json_args import load_arguments

__all__ = [
    "ChatRequest",
    "Conversation",
    "Fault",
    "Hang",
    "Outcome",
    "Reply",
    "Script",
    "StreamCut",
    "ToolExchange",
    "call",
    "find_cities",
    "find_date",
    "number_calls",
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


def number_calls(calls: Sequence[dict[str, Any]], conv: Conversation) -> tuple[dict[str, Any], ...]:
    """Give every call without an ``id`` one numbered after the tool messages so far (``call_N``)."""
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
            value = load_arguments(self.arguments)  # bounded: hostile arguments never recurse
        except (AttributeError, TypeError, ValueError):
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

"""OpenAI transcript helpers shared by the agent loop and the episode API.

A trace is the OpenAI chat transcript (DESIGN §3): ``system``/``user``/``assistant``/``tool``
messages, assistant messages with standard ``tool_calls`` (``id``, ``type: "function"``,
``function.name``, ``function.arguments`` as a JSON string) and tool messages with
``tool_call_id`` and the exact ``content`` the model saw.
"""

from __future__ import annotations

import json
from typing import Any, Literal

__all__ = [
    "MAX_CALLS_PER_STEP",
    "MAX_TOOL_STEPS",
    "MIN_ANSWER_CHARS",
    "assistant_message",
    "duplicate_id_text",
    "final_answer_prompt",
    "is_sufficient_answer",
    "normalize_tool_calls",
    "opening_messages",
    "step_limit_text",
    "too_many_calls_text",
    "tool_message",
]

MAX_TOOL_STEPS = 15
"""Assistant turns with tool calls allowed per episode; the next turn must answer."""
MIN_ANSWER_CHARS = 200
"""A natural answer shorter than this (after stripping) triggers the final-answer prompt."""
MAX_CALLS_PER_STEP = 32
"""Tool calls executed in one assistant turn; the rest get an error tool message."""

Lang = Literal["zh", "en"]

_FINAL_PROMPT = {
    "zh": (
        "工具查询阶段已经结束，请不要再调用任何工具。请只依据上面工具返回的真实信息，直接给出完整的最终方案："
        "涵盖往返或城际交通、住宿、餐饮、景点与逐日行程、天气提醒和预算明细，"
        "写出工具结果中的具体名称、班次、时间和价格；没有查到的信息请如实说明，不要编造。"
        "最后用一个 ```json 代码块给出结构化行程。"
    ),
    "en": (
        "The tool phase is over: do not call any more tools. Using only the facts the tools returned above, "
        "write the complete final plan now: intercity transport, lodging, meals, sights with a day-by-day "
        "schedule, weather notes and a budget breakdown, citing the exact names, flight/train numbers, times "
        "and prices from the tool results; say plainly what you could not find instead of inventing it. "
        "End with one ```json code block holding the structured itinerary."
    ),
}

_STEP_LIMIT = {
    "zh": "工具调用已达到上限（{n} 步），本次调用未执行。",
    "en": "Tool-call limit reached ({n} steps); this call was not executed.",
}

_TOO_MANY = {
    "zh": "错误：单次最多执行 {n} 个工具调用，本调用未执行。",
    "en": "Error: at most {n} tool calls run per turn; this call was not executed.",
}


def _lang(lang: str | None) -> Lang:
    return "en" if lang == "en" else "zh"


def final_answer_prompt(lang: str | None = "zh") -> str:
    """The phase-2 user prompt asking for the final answer with tools off, in ``lang``."""
    return _FINAL_PROMPT[_lang(lang)]


def step_limit_text(lang: str | None = "zh", limit: int = MAX_TOOL_STEPS) -> str:
    """Tool-message text for a call refused because the step limit was reached."""
    return _STEP_LIMIT[_lang(lang)].format(n=limit)


_DUPLICATE_ID = {
    "zh": "错误：tool_call_id「{id}」在本任务中已经用过；每次调用必须使用新的 id，本次调用未执行",
    "en": "Error: tool_call_id '{id}' was already used in this task; every call needs a new id, so this call was not run",
}


def duplicate_id_text(lang: str | None, call_id: str) -> str:
    """Tool-message text for a call whose id repeats an earlier call's id (the call is not run)."""
    return _DUPLICATE_ID[_lang(lang)].format(id=call_id[:40])


def too_many_calls_text(lang: str | None = "zh", limit: int = MAX_CALLS_PER_STEP) -> str:
    """Tool-message text for a call beyond :data:`MAX_CALLS_PER_STEP` in one turn."""
    return _TOO_MANY[_lang(lang)].format(n=limit)


def is_sufficient_answer(text: str | None) -> bool:
    """Whether a natural answer is long enough to be taken as final (≥ 200 chars stripped)."""
    return bool(text) and len(text.strip()) >= MIN_ANSWER_CHARS  # type: ignore[union-attr]


def opening_messages(system_prompt: str | None, prompt: str) -> list[dict[str, Any]]:
    """The first messages of an episode: the system prompt (when non-empty) and the user prompt."""
    messages: list[dict[str, Any]] = []
    if system_prompt:
        messages.append({"role": "system", "content": system_prompt})
    messages.append({"role": "user", "content": prompt})
    return messages


def tool_message(tool_call_id: str, content: str) -> dict[str, Any]:
    """A ``role: tool`` message answering one tool call."""
    return {"role": "tool", "tool_call_id": tool_call_id, "content": content}


def assistant_message(content: str | None, tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """An assistant message; ``tool_calls`` is omitted when empty (``content`` kept as given:
    what is sent to an endpoint goes through :func:`navworld.agents.wire.wire_messages`)."""
    msg: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        msg["tool_calls"] = tool_calls
    return msg


def _as_dict(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump()
    return obj


def normalize_tool_calls(raw: Any, prefix: str = "call") -> list[dict[str, Any]]:
    """Bring tool calls to the standard OpenAI shape, never raising.

    Accepts the standard shape, the flat ``{"name", "arguments"}`` shape and pydantic objects.
    ``arguments`` given as a dict/list is serialised to JSON; any other non-string becomes its
    ``str``. Missing or duplicate ids get a fresh ``{prefix}_{index}`` id. Entries that are not
    mappings become calls with an empty name (which the tool layer answers with an error).
    """
    if not raw:
        return []
    if not isinstance(raw, list | tuple):
        raw = [raw]
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, item in enumerate(raw):
        item = _as_dict(item)
        if not isinstance(item, dict):
            item = {}
        fn = _as_dict(item.get("function"))
        if not isinstance(fn, dict):
            fn = {"name": item.get("name"), "arguments": item.get("arguments")}
        name = fn.get("name")
        name = name if isinstance(name, str) else ""
        args = fn.get("arguments")
        if args is None:
            args = ""
        elif isinstance(args, dict | list):
            args = json.dumps(args, ensure_ascii=False)
        elif not isinstance(args, str):
            args = str(args)
        call_id = item.get("id")
        if not isinstance(call_id, str) or not call_id or call_id in seen:
            call_id = f"{prefix}_{index}"
            while call_id in seen:
                call_id += "_"
        seen.add(call_id)
        out.append({"id": call_id, "type": "function", "function": {"name": name, "arguments": args}})
    return out

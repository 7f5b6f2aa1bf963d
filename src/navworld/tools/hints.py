"""What a model reads when its tool arguments are not JSON: where the error is and a right example.

:data:`ARGUMENT_EXAMPLES` holds one valid argument object per tool (tests check that each passes
its tool's argument model); :func:`json_error_reason` turns a ``json.JSONDecodeError`` into one
Chinese sentence naming the position (line, column, character) and the text around it, followed
by the example of *that* tool.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["ARGUMENT_EXAMPLES", "argument_example", "json_error_reason"]

ARGUMENT_EXAMPLES: dict[str, dict[str, Any]] = {
    "poi_search": {"address": "西湖", "region": "杭州"},
    "around_search": {"location": "120.155070,30.274084", "keyword": "餐厅", "radius": 2000},
    "direction": {"origin": "120.155070,30.274084", "destination": "120.163830,30.255880", "mode": "walking"},
    "weather": {"city": "杭州", "date": "2025-05-01"},
    "search_flights": {"date": "2025-05-01", "from_city": "北京", "to_city": "杭州"},
    "search_train_tickets": {"date": "2025-05-01", "from_city": "上海", "to_city": "杭州"},
}
"""One valid argument object per tool, shown in the malformed-JSON hint."""

_NEAR = 12  # characters shown on each side of the error position

_MESSAGES_ZH = {
    "Expecting value": "此处应为一个值",
    "Expecting ',' delimiter": "此处缺少逗号 ,",
    "Expecting ':' delimiter": "此处缺少冒号 :",
    "Expecting property name enclosed in double quotes": "此处应为双引号括起的参数名",
    "Unterminated string starting at": "字符串没有结束引号",
    "Extra data": "JSON 对象之后还有多余内容",
    "Invalid control character at": "字符串中有未转义的控制字符",
    "Invalid \\escape": "无效的转义符",
}


def argument_example(name: str) -> str:
    """The example argument object of tool ``name`` as compact JSON (a generic one if unknown)."""
    example = ARGUMENT_EXAMPLES.get(name, ARGUMENT_EXAMPLES["weather"])
    return json.dumps(example, ensure_ascii=False)


def json_error_reason(name: str, text: str, exc: json.JSONDecodeError | RecursionError) -> str:
    """The reason shown for arguments that are not valid JSON: position, context, right example."""
    example = argument_example(name)
    if not isinstance(exc, json.JSONDecodeError):
        return f"参数不是合法的 JSON（嵌套过深）：请传入一个 JSON 对象，例如 {example}"
    what = _MESSAGES_ZH.get(exc.msg, exc.msg)
    start, end = max(0, exc.pos - _NEAR), min(len(text), exc.pos + _NEAR)
    before = text[start : exc.pos].replace("\n", "⏎")
    after = text[exc.pos : end].replace("\n", "⏎")
    near = f"{'…' if start else ''}{before}⟨此处⟩{after}{'…' if end < len(text) else ''}"
    return (
        f"参数不是合法的 JSON：第 {exc.lineno} 行第 {exc.colno} 列（第 {exc.pos + 1} 个字符）{what}"
        f"（{exc.msg}），附近内容「{near}」。请传入一个 JSON 对象，例如 {example}"
    )

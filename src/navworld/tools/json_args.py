"""The one bounded, safe JSON loader for tool-call ``arguments`` strings.

Models send ``function.arguments`` as JSON text, and several parts of navworld read it: the tool
registry (to run the call), the step rewards, the scorer's trace reader, the HTML report. Plain
``json.loads`` recurses once per nesting level, so a 3 KB string of ``[`` raises
``RecursionError`` — an exception none of those callers expects from bad input. Every caller goes
through :func:`load_arguments` instead: it refuses text longer than :data:`MAX_ARGUMENTS_CHARS` or
nested deeper than :data:`MAX_ARGUMENT_DEPTH` *before* parsing, and raises
:class:`ToolArgumentsError` — a :class:`~navworld.core.errors.ToolInputError`, hence a
``ValueError`` — for anything it cannot load, so ``except ValueError`` is enough to be safe.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from navworld.core.errors import ToolInputError

__all__ = [
    "MAX_ARGUMENTS_CHARS",
    "MAX_ARGUMENT_DEPTH",
    "ToolArgumentsError",
    "arguments_problem",
    "json_too_deep",
    "load_arguments",
]

MAX_ARGUMENTS_CHARS = 20_000
"""Longest ``arguments`` text a tool call may carry (the tools' own arguments are < 1,000)."""

MAX_ARGUMENT_DEPTH = 32
"""Deepest nesting of arrays/objects accepted in ``arguments`` (the tools take flat objects)."""

Reason = Literal["too_long", "too_deep", "invalid_json"]

_TOKENS = re.compile(r'["\\\[\]{}]')


class ToolArgumentsError(ToolInputError):
    """Tool-call arguments that cannot be loaded; ``reason`` is ``too_long``, ``too_deep`` or
    ``invalid_json`` and the message is the readable (Chinese) text shown to the model."""

    def __init__(self, message: str, reason: Reason) -> None:
        super().__init__(message)
        self.reason: Reason = reason


def json_too_deep(text: str, limit: int = MAX_ARGUMENT_DEPTH) -> bool:
    """Whether the JSON-ish ``text`` nests arrays/objects deeper than ``limit`` (brackets inside
    string literals do not count). Linear time; free when ``text`` has few brackets."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = False
    escaped_at = -1  # the position a backslash escapes, inside a string
    for m in _TOKENS.finditer(text):
        ch, pos = m.group(), m.start()
        if in_string:
            if pos == escaped_at:
                continue
            if ch == "\\":
                escaped_at = pos + 1
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def arguments_problem(raw: str, max_chars: int = MAX_ARGUMENTS_CHARS, max_depth: int = MAX_ARGUMENT_DEPTH) -> Reason | None:
    """``too_long`` / ``too_deep`` when ``raw`` would be refused before parsing, else None (cheap)."""
    if len(raw) > max_chars:
        return "too_long"
    if json_too_deep(raw, max_depth):
        return "too_deep"
    return None


def load_arguments(raw: str, *, max_chars: int = MAX_ARGUMENTS_CHARS, max_depth: int = MAX_ARGUMENT_DEPTH) -> Any:
    """Parse tool-call ``arguments`` text; blank text is ``{}``.

    Returns whatever JSON value the text holds (callers check that it is an object).

    Raises:
        ToolArgumentsError: longer than ``max_chars``, nested deeper than ``max_depth``, or not JSON.
    """
    problem = arguments_problem(raw, max_chars, max_depth)
    if problem == "too_long":
        raise ToolArgumentsError(f"参数过长（{len(raw)} 个字符，最多 {max_chars}）", "too_long")
    if problem == "too_deep":
        raise ToolArgumentsError(f"参数不是合法的 JSON（嵌套超过 {max_depth} 层）：请传入 JSON 对象，例如 {{\"city\": \"杭州\"}}", "too_deep")
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ToolArgumentsError(
            f"参数不是合法的 JSON（{exc.msg}）：请传入 JSON 对象，例如 {{\"city\": \"杭州\"}}", "invalid_json"
        ) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ToolArgumentsError("参数不是合法的 JSON（嵌套过深）：请传入 JSON 对象，例如 {\"city\": \"杭州\"}", "too_deep") from None

"""What goes over the wire to a chat endpoint: messages every OpenAI-compatible server accepts.

OpenAI accepts ``"content": null`` on an assistant turn that only calls tools, and ignores
fields it does not know. Other servers are stricter: llama-cpp-python's server validates the
body against its own schema and answers ``500`` to a ``null`` content, some reject unknown
message fields. :func:`wire_messages` therefore sends, for every message, only the standard
fields (``role``, ``content``, ``tool_calls``, ``tool_call_id``), ``content`` always as
a string (``""`` instead of ``null``), and tool calls in the plain
``{"id", "type": "function", "function": {"name", "arguments"}}`` shape with string arguments.

The transcript kept in results is not changed; only the request body is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["MESSAGE_FIELDS", "wire_message", "wire_messages"]

MESSAGE_FIELDS = ("role", "content", "tool_calls", "tool_call_id")
"""The message fields sent; anything else a transcript carries stays local."""


def _text(value: Any) -> str | list[Any]:
    """Message content as every server takes it: a string, or a list of content parts as given."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # multimodal content parts pass through unchanged
        return value
    return str(value)


def _call(raw: Any, index: int) -> dict[str, Any]:
    item = raw if isinstance(raw, Mapping) else {}
    fn = item.get("function")
    fn = fn if isinstance(fn, Mapping) else {}
    args = fn.get("arguments")
    if args is None:
        args = ""
    elif not isinstance(args, str):
        args = json.dumps(args, ensure_ascii=False)
    call_id = item.get("id")
    return {
        "id": call_id if isinstance(call_id, str) and call_id else f"call_{index}",
        "type": "function",
        "function": {"name": str(fn.get("name") or ""), "arguments": args},
    }


def wire_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """One message as sent: standard fields only, string content, plain tool calls."""
    out: dict[str, Any] = {"role": str(message.get("role") or "user"), "content": _text(message.get("content"))}
    calls = message.get("tool_calls")
    if out["role"] == "assistant" and calls:
        out["tool_calls"] = [_call(c, i) for i, c in enumerate(calls)]
    if out["role"] == "tool":
        out["tool_call_id"] = str(message.get("tool_call_id") or "")
    return out


def wire_messages(messages: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every message of a transcript as sent (see :func:`wire_message`)."""
    return [wire_message(m) for m in messages]

"""OpenAI Responses API items ⇄ chat-completions messages (for ``POST /v1/responses``).

:func:`input_messages` turns a request's ``instructions`` + ``input`` (a string or a list of
``message`` / ``function_call`` / ``function_call_output`` items) into the chat transcript the
reference agent and the scorer read; consecutive ``function_call`` items become one assistant
turn with several ``tool_calls``. :func:`output_items` turns one assistant turn back into
Responses output items, :func:`response_object` wraps them in a ``response`` object, and
:func:`stream_events` gives the server-sent events of a streamed response.

Other item types (``reasoning``, web search, …) carry nothing the reference agent reads and are
skipped.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["ItemError", "input_messages", "output_items", "response_object", "sse", "stream_events"]


class ItemError(ValueError):
    """An ``input`` that is not a valid list of Responses items."""


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def input_messages(instructions: Any, items: Any) -> list[dict[str, Any]]:
    """The chat messages of a Responses request (``instructions`` first, as a system message)."""
    messages: list[dict[str, Any]] = []
    if isinstance(instructions, str) and instructions:
        messages.append({"role": "system", "content": instructions})
    if isinstance(items, str):
        messages.append({"role": "user", "content": items})
        return messages
    if not isinstance(items, list):
        raise ItemError("input must be a string or a list of items")
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            raise ItemError(f"input[{n}] must be an object")
        kind = item.get("type") or ("message" if "role" in item else None)
        if kind == "message":
            role = item.get("role")
            if role not in ("user", "system", "developer", "assistant"):
                raise ItemError(f"input[{n}].role must be user, system, developer or assistant")
            messages.append({"role": "system" if role == "developer" else role, "content": _text(item.get("content"))})
        elif kind == "function_call":
            call_id, name = item.get("call_id"), item.get("name")
            if not isinstance(call_id, str) or not isinstance(name, str):
                raise ItemError(f"input[{n}]: a function_call needs string call_id and name")
            arguments = item.get("arguments")
            call = {"id": call_id, "type": "function",
                    "function": {"name": name, "arguments": arguments if isinstance(arguments, str) else "{}"}}
            last = messages[-1] if messages else None
            if last is not None and last["role"] == "assistant":  # same turn: text and/or parallel calls
                last.setdefault("tool_calls", []).append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif kind == "function_call_output":
            call_id = item.get("call_id")
            if not isinstance(call_id, str):
                raise ItemError(f"input[{n}]: a function_call_output needs a string call_id")
            output = item.get("output")
            text = output if isinstance(output, str) else _text(output)
            messages.append({"role": "tool", "tool_call_id": call_id, "content": text})
    return messages


def output_items(content: str | None, tool_calls: list[dict[str, Any]], msg_id: str) -> list[dict[str, Any]]:
    """The output items of one assistant turn (function calls, or one output_text message)."""
    if tool_calls:
        return [
            {"type": "function_call", "id": "fc_" + tc["id"], "call_id": tc["id"], "name": tc["function"]["name"],
             "arguments": tc["function"]["arguments"], "status": "completed"}
            for tc in tool_calls
        ]
    text = {"type": "output_text", "text": content or "", "annotations": [], "logprobs": []}
    return [{"type": "message", "id": msg_id, "status": "completed", "role": "assistant", "content": [text]}]


def response_object(response_id: str, model: str, body: dict[str, Any], output: list[dict[str, Any]],
                    status: str = "completed") -> dict[str, Any]:
    """A ``response`` object (usage zeros: the reference agent spends no tokens)."""
    return {
        "id": response_id,
        "object": "response",
        "created_at": 0,
        "status": status,
        "background": False,
        "error": None,
        "incomplete_details": None,
        "instructions": body.get("instructions") if isinstance(body.get("instructions"), str) else None,
        "max_output_tokens": body.get("max_output_tokens"),
        "metadata": body.get("metadata") if isinstance(body.get("metadata"), dict) else {},
        "model": model,
        "output": output,
        "parallel_tool_calls": bool(body.get("parallel_tool_calls", True)),
        "previous_response_id": body.get("previous_response_id"),
        "reasoning": {"effort": None, "summary": None},
        "store": bool(body.get("store", False)),
        "temperature": body.get("temperature", 1.0),
        "text": {"format": {"type": "text"}},
        "tool_choice": body.get("tool_choice", "auto"),
        "tools": body.get("tools") if isinstance(body.get("tools"), list) else [],
        "top_p": body.get("top_p", 1.0),
        "truncation": "disabled",
        "usage": {
            "input_tokens": 0, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 0, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 0,
        },
        "user": None,
    }


def stream_events(response: dict[str, Any], chunk: int = 400) -> list[tuple[str, dict[str, Any]]]:
    """``(event name, data)`` pairs of a streamed ``response``, ``response.created`` to ``.completed``."""
    events: list[tuple[str, dict[str, Any]]] = []

    def emit(kind: str, **data: Any) -> None:
        events.append((kind, {"type": kind, "sequence_number": len(events), **data}))

    pending = {**response, "status": "in_progress", "output": []}
    emit("response.created", response=pending)
    emit("response.in_progress", response=pending)
    for index, item in enumerate(response["output"]):
        if item["type"] == "function_call":
            emit("response.output_item.added", output_index=index, item={**item, "arguments": "", "status": "in_progress"})
            emit("response.function_call_arguments.delta", item_id=item["id"], output_index=index, delta=item["arguments"])
            emit("response.function_call_arguments.done", item_id=item["id"], output_index=index,
                 name=item["name"], arguments=item["arguments"])
        else:
            text = item["content"][0]["text"]
            emit("response.output_item.added", output_index=index, item={**item, "content": [], "status": "in_progress"})
            part = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
            emit("response.content_part.added", item_id=item["id"], output_index=index, content_index=0, part=part)
            for i in range(0, len(text), chunk):
                emit("response.output_text.delta", item_id=item["id"], output_index=index, content_index=0,
                     delta=text[i : i + chunk], logprobs=[])
            emit("response.output_text.done", item_id=item["id"], output_index=index, content_index=0, text=text,
                 logprobs=[])
            emit("response.content_part.done", item_id=item["id"], output_index=index, content_index=0,
                 part={**part, "text": text})
        emit("response.output_item.done", output_index=index, item=item)
    emit("response.completed", response=response)
    return events


def sse(events: list[tuple[str, dict[str, Any]]]) -> list[bytes]:
    """The server-sent-event frames of ``events``."""
    return [f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode() for kind, data in events]

"""Read an OpenAI chat transcript (DESIGN §3) into tool-call records, tolerating any junk.

A trace is a list of message dicts. Assistant messages carry ``tool_calls`` (``id``,
``function.name``, ``function.arguments`` as a JSON string); tool messages carry
``tool_call_id`` and ``content``, the exact text the model saw. Anything malformed is skipped,
never raised on. Tool names with a server prefix (``AMap_poi_search``) are mapped to the six
canonical names.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from navworld.scoring import config as C
from navworld.scoring import patterns as P

__all__ = [
    "ToolCallRecord",
    "canonical_tool_name",
    "content_text",
    "is_error_text",
    "iter_events",
    "messages_of",
    "parse_args",
    "read_trace",
]


@dataclass(frozen=True, slots=True)
class ToolCallRecord:
    """One tool call with its result as the model saw it.

    ``name`` is canonical (one of the six tools) or the raw name if unknown; ``arguments`` is
    ``None`` when they were not a JSON object; ``result`` is ``None`` when no tool message
    answered the call.
    """

    call_id: str
    name: str
    arguments: dict[str, Any] | None
    result: str | None
    status: str = "ok"
    """``ok`` as read; the s2 pairing rules (:func:`navworld.scoring.trajectory.read_strict`) mark
    calls with a repeated id ``duplicate_id`` and calls without an id ``orphan``."""

    @property
    def is_error(self) -> bool:
        """Whether the result is missing, empty or an error message (``错误：…``)."""
        return self.result is None or not self.result.strip() or is_error_text(self.result)

    @property
    def params_present(self) -> bool:
        """Whether every required parameter of the tool is present and non-empty."""
        required = C.REQUIRED_TOOL_PARAMS.get(self.name)
        if self.arguments is None or required is None:
            return False
        return all(str(self.arguments.get(p, "") or "").strip() for p in required)


def is_error_text(text: str) -> bool:
    """Whether a tool result text is an error result (it starts with ``错误：`` or ``Error:``)."""
    head = text.lstrip()[:12]
    return head.startswith(C.TOOL_ERROR_PREFIXES) or head.startswith("错误")


def canonical_tool_name(name: object) -> str:
    """Map ``poi_search``, ``AMap_poi_search``, ``functions.poi_search`` … to the canonical name."""
    if not isinstance(name, str):
        return ""
    raw = name.strip()
    if raw in C.TOOL_NAMES:
        return raw
    for tool in C.TOOL_NAMES:
        if raw.endswith(tool) and (len(raw) == len(tool) or not raw[-len(tool) - 1].isalnum()):
            return tool
    return raw[:64]


def content_text(content: object) -> str:
    """The text of a message ``content``: a string, or the text parts of a content-part list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "".join(parts)
    return ""


def parse_args(raw: object) -> dict[str, Any] | None:
    """The arguments as a dict, or None when they are not a JSON object (never raises)."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None
    return None


def messages_of(trace: object) -> list[dict[str, Any]]:
    """The message dicts of a trace (a list, a ``{"messages": [...]}`` dict or a pydantic model)."""
    if hasattr(trace, "model_dump"):
        try:
            trace = trace.model_dump(mode="json")
        except Exception:  # a foreign object: treat as empty
            return []
    if isinstance(trace, dict):
        for key in ("messages", "trace", "conversation"):
            if isinstance(trace.get(key), list):
                trace = trace[key]
                break
        else:
            return []
    if not isinstance(trace, list | tuple):
        return []
    return [m for m in trace if isinstance(m, dict)]


def iter_events(trace: object) -> Iterator[tuple[str, Any, str, Any]]:
    """The trace's tool events in order: ``("call", id or None, tool, arguments)`` for each tool
    call of an assistant message and ``("result", tool_call_id, text, message name)`` for each tool
    message (never raises; malformed entries are skipped)."""
    for msg in messages_of(trace):
        role = msg.get("role")
        if role == "assistant":
            tool_calls = msg.get("tool_calls")
            if not isinstance(tool_calls, list):
                continue
            for tc in tool_calls:
                if not isinstance(tc, dict):
                    continue
                fn = tc.get("function") if isinstance(tc.get("function"), dict) else {}
                call_id = tc.get("id") if isinstance(tc.get("id"), str) and tc.get("id") else None
                yield "call", call_id, canonical_tool_name(fn.get("name")), parse_args(fn.get("arguments"))
        elif role == "tool":
            yield "result", msg.get("tool_call_id"), content_text(msg.get("content")), msg.get("name")


def read_trace(trace: object) -> list[ToolCallRecord]:
    """Every tool call of the trace, in order, paired with its result (never raises; the seed's
    lenient pairing: an orphan result answers the first unanswered call)."""
    calls: list[list[Any]] = []
    by_id: dict[str, int] = {}
    for kind, call_id, a, b in iter_events(trace):
        if kind == "call":
            call_id = call_id if call_id is not None else f"_call{len(calls)}"
            by_id.setdefault(call_id, len(calls))
            calls.append([call_id, a, b, None])
            continue
        text = a
        idx = by_id.get(call_id) if isinstance(call_id, str) else None
        if idx is not None and calls[idx][3] is None:
            calls[idx][3] = text
            continue
        # An orphan result: attach to the first unanswered call, else infer the tool from the header.
        pending = next((c for c in calls if c[3] is None), None)
        if pending is not None and not isinstance(call_id, str):
            pending[3] = text
            continue
        m = P.TOOL_HEADER_NAME.match(text)
        name = m.group(1) if m else canonical_tool_name(b)
        calls.append([str(call_id or f"_orphan{len(calls)}"), name, None, text])
    return [ToolCallRecord(c[0], c[1], c[2], c[3]) for c in calls]

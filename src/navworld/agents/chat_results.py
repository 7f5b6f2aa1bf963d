"""What a successful chat call returns: :class:`ChatResult` and summed token :class:`Usage`.

Also :func:`message_to_dict`, which turns an SDK assistant message into the OpenAI dict shape
used in traces. Re-exported by :mod:`navworld.agents.client`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["ChatResult", "Usage", "message_to_dict"]


@dataclass
class Usage:
    """Token usage summed over model calls (``requests`` counts successful calls)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    requests: int = 0

    def add(self, other: Usage) -> None:
        """Add ``other`` into this record."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.total_tokens += other.total_tokens
        self.requests += other.requests

    @classmethod
    def from_api(cls, usage: Any) -> Usage:
        """Build from an SDK usage object or dict (missing fields count as 0)."""
        if usage is None:
            return cls(requests=1)

        def get(name: str) -> int:
            value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, None)
            return int(value or 0)

        prompt, completion = get("prompt_tokens"), get("completion_tokens")
        total = get("total_tokens") or prompt + completion
        return cls(prompt, completion, total, 1)

    def to_dict(self) -> dict[str, int]:
        """A JSON-safe dict."""
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
            "requests": self.requests,
        }


@dataclass
class ChatResult:
    """One successful model call: the assistant message (OpenAI dict shape) and metadata."""

    message: dict[str, Any]
    finish_reason: str | None
    usage: Usage = field(default_factory=Usage)
    attempts: int = 1
    seconds: float = 0.0

    @property
    def content(self) -> str:
        """The visible text of the message ('' when absent)."""
        return self.message.get("content") or ""

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        """The message's tool calls (empty list when none)."""
        return list(self.message.get("tool_calls") or [])


def message_to_dict(message: Any) -> dict[str, Any]:
    """Convert an SDK assistant message to the OpenAI dict shape used in traces."""
    out: dict[str, Any] = {"role": "assistant", "content": getattr(message, "content", None)}
    raw_calls = getattr(message, "tool_calls", None) or []
    calls = []
    for index, tc in enumerate(raw_calls):
        fn = getattr(tc, "function", None)
        calls.append(
            {
                "id": getattr(tc, "id", None) or f"call_{index}",
                "type": "function",
                "function": {
                    "name": (getattr(fn, "name", None) or "") if fn is not None else "",
                    "arguments": (getattr(fn, "arguments", None) or "") if fn is not None else "",
                },
            }
        )
    if calls:
        out["tool_calls"] = calls
    return out

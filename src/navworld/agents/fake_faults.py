"""Fault scripts for the fake model: wrappers that make a script fail in controlled ways.

Each wrapper counts per conversation state (a hash of the messages), so "fail once, then
succeed" is exact under retries, re-dispatches and concurrency. Re-exported by
:mod:`navworld.agents.fake`.
"""

from __future__ import annotations

import threading

from navworld.agents.fake_request import (
    ChatRequest,
    Fault,
    Hang,
    Outcome,
    Reply,
    Script,
    StreamCut,
    call,
    number_calls,
)

__all__ = [
    "context_overflow_after",
    "fail_first",
    "hang_first",
    "malformed_args_first",
    "rate_limit_first",
    "stream_cut_first",
    "unknown_tool_first",
]


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
            return Reply(tool_calls=number_calls([call("poi_search", '{"address": "西湖", "region": ')], conv))
        return script(request)

    return wrapped


def unknown_tool_first(script: Script, name: str = "book_hotel") -> Script:
    """Before any tool result exists, call a tool that does not exist."""

    def wrapped(request: ChatRequest) -> Outcome:
        conv = request.conversation
        if request.tools_on and not conv.exchanges:
            return Reply(tool_calls=number_calls([call(name, {"hotel": "任意"})], conv))
        return script(request)

    return wrapped


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

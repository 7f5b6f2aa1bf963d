"""Chat-client failures, their classification, and API-key handling.

:class:`ChatError` and its subclasses say what went wrong with a model call;
:func:`classify_error` maps SDK/transport exceptions onto them. Keys are resolved by
:func:`resolve_api_key` and scrubbed from any text by :func:`redact`. Everything public here is
re-exported by :mod:`navworld.agents.client`.
"""

from __future__ import annotations

import os

import httpx2
import openai

__all__ = [
    "KEY_ENV_VARS",
    "PLACEHOLDER_KEY",
    "ChatError",
    "ContextOverflowError",
    "StreamCutError",
    "TransientChatError",
    "classify_error",
    "redact",
    "resolve_api_key",
    "retry_after",
]

KEY_ENV_VARS = ("NAVWORLD_API_KEY", "OPENAI_API_KEY")
PLACEHOLDER_KEY = "EMPTY"
"""Sent when no key is configured (local vLLM/sglang servers accept any key)."""

_OVERFLOW_MARKERS = (
    "context_length_exceeded",
    "maximum context length",
    "context length",
    "context window",
    "too many tokens",
    "prompt is too long",
    "input is too long",
)


def resolve_api_key(api_key: str | None = None) -> str | None:
    """Return the explicit key, else ``NAVWORLD_API_KEY``, else ``OPENAI_API_KEY``, else None."""
    if api_key:
        return api_key
    for name in KEY_ENV_VARS:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


def redact(text: str, *secrets: str | None) -> str:
    """Replace every non-trivial secret occurring in ``text`` with ``***``."""
    for secret in secrets:
        if secret and len(secret) >= 4 and secret != PLACEHOLDER_KEY:
            text = text.replace(secret, "***")
    return text


# --------------------------------------------------------------------------------------- errors


class ChatError(Exception):
    """A model call that failed for infrastructure reasons (not the model's fault).

    ``kind`` is a short machine-readable label (``timeout``, ``connection``, ``http_500``,
    ``rate_limited``, ``stream_cut``, ``bad_request``, ``auth``, ...); ``attempts`` counts the
    HTTP attempts made; ``retryable`` tells whether the failure was transient.
    """

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        attempts: int = 1,
        retryable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.attempts = attempts
        self.retryable = retryable
        self.retry_after = retry_after


class TransientChatError(ChatError):
    """A transient failure (connection, timeout, 429, 5xx) that survived every retry."""


class StreamCutError(ChatError):
    """A stream that failed after visible content had arrived: never retried in place."""


class ContextOverflowError(ChatError):
    """The conversation no longer fits the model's context window: the model's failure."""


# --------------------------------------------------------------------------------- classification


def classify_error(exc: BaseException, api_key: str | None) -> ChatError:
    """Map an SDK/transport exception to a :class:`ChatError` (message redacted of ``api_key``)."""
    msg = redact(str(exc) or type(exc).__name__, api_key)[:500]
    if isinstance(exc, openai.APITimeoutError):
        return ChatError("timeout", msg, retryable=True)
    if isinstance(exc, openai.APIConnectionError | httpx2.TransportError):
        return ChatError("connection", msg, retryable=True)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        body_text = redact(str(exc.body or ""), api_key)
        haystack = f"{msg} {body_text} {getattr(exc, 'code', '') or ''}".lower()
        if status in (400, 413, 422) and any(m in haystack for m in _OVERFLOW_MARKERS):
            return ContextOverflowError("context_overflow", msg, retryable=False)
        if status == 429:
            return ChatError("rate_limited", msg, retryable=True, retry_after=retry_after(exc.response))
        if status >= 500 or status in (408, 409):
            return ChatError(f"http_{status}", msg, retryable=True, retry_after=retry_after(exc.response))
        if status in (401, 403):
            return ChatError("auth", msg)
        if status == 404:
            return ChatError("not_found", msg)
        return ChatError("bad_request", f"HTTP {status}: {msg}")
    if isinstance(exc, openai.APIError):
        return ChatError("api_error", msg, retryable=True)
    return ChatError("client_error", f"{type(exc).__name__}: {msg}")


def retry_after(response: httpx2.Response | None) -> float | None:
    """Seconds from a ``Retry-After`` (or ``retry-after-ms``) header, if present and numeric."""
    if response is None:
        return None
    ms = response.headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = response.headers.get("retry-after")
    if value:
        try:
            return max(0.0, float(value))
        except ValueError:
            return None
    return None

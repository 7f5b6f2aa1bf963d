"""Chat-client failures, their classification, and API-key handling.

:class:`ChatError` and its subclasses say what went wrong with a model call;
:func:`classify_error` maps SDK/transport exceptions onto them. Keys are resolved by
:func:`resolve_api_key` and scrubbed from any text by :func:`redact`. Everything public here is
re-exported by :mod:`navworld.agents.client`.
"""

from __future__ import annotations

import json
import os
from typing import Any

import openai

from navworld.agents.openai_compat import TRANSPORT_ERRORS

__all__ = [
    "KEY_ENV_VARS",
    "MAX_ERROR_CHARS",
    "NO_REDISPATCH_KINDS",
    "PLACEHOLDER_KEY",
    "ChatError",
    "ContextOverflowError",
    "GenerationTimeoutError",
    "InvalidRequestError",
    "StreamCutError",
    "TransientChatError",
    "classify_error",
    "is_validation_error",
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

MAX_ERROR_CHARS = 20_000
"""An endpoint's error text is kept whole up to this size (a bound against runaway bodies)."""

NO_REDISPATCH_KINDS = frozenset({"auth", "not_found", "bad_request", "invalid_request", "client_error"})
"""Deterministic failures: a second dispatch of the episode would only repeat them."""


class ChatError(Exception):
    """A model call that failed.

    ``kind`` is a short machine-readable label (``timeout``, ``connection``, ``http_500``,
    ``rate_limited``, ``stream_cut``, ``invalid_request``, ``bad_request``, ``auth``, ...);
    ``message`` is the whole explanation (the endpoint named, the server's error text kept);
    ``attempts`` counts the HTTP attempts made; ``retryable`` tells whether retrying the call may
    help; ``redispatch`` whether playing the episode again may help; ``produced`` whether the
    server had started to stream a response (tokens arrived) before the failure, and
    ``partial`` the visible text received by then.
    """

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        attempts: int = 1,
        retryable: bool = False,
        retry_after: float | None = None,
        redispatch: bool | None = None,
        produced: bool = False,
        partial: str = "",
    ) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.attempts = attempts
        self.retryable = retryable
        self.retry_after = retry_after
        self.redispatch = kind not in NO_REDISPATCH_KINDS if redispatch is None else redispatch
        self.produced = produced
        self.partial = partial


class TransientChatError(ChatError):
    """A transient failure (connection, timeout, 429, 5xx) that survived every retry."""


class StreamCutError(ChatError):
    """A stream that failed after visible content had arrived: never retried in place."""


class GenerationTimeoutError(ChatError):
    """The call's time ran out while the model was still generating (tokens had arrived).

    Never retried and never re-dispatched: the server answered, the answer did not come in time,
    which is the model's (or its deployment's) failure. ``partial`` holds the text received.
    """


class InvalidRequestError(ChatError):
    """The endpoint rejected the request body itself (a schema / validation error).

    Deterministic whatever the HTTP status (llama-cpp-python answers some with 500): the same
    body would be rejected again, so it is neither retried nor re-dispatched.
    """


class ContextOverflowError(ChatError):
    """The conversation no longer fits the model's context window: the model's failure."""


# --------------------------------------------------------------------------------- classification

_VALIDATION_MARKERS = (
    "validation error",  # pydantic: "1 validation error for ..."
    "input should be",  # pydantic v2
    "field required",
    "extra inputs are not permitted",
    "value is not a valid",  # pydantic v1
    "none is not an allowed value",  # pydantic v1 on null
    "invalid_request_error",  # OpenAI's error type
    "unsupported parameter",
    "unrecognized request argument",
    "unexpected keyword argument",
    "is not of type",  # jsonschema
    "is a required property",  # jsonschema
    "failed to deserialize",  # TGI / axum
    "invalid type: null",  # serde
)


def is_validation_error(text: str) -> bool:
    """Whether an endpoint's error text says the request body itself was invalid."""
    low = text.lower()
    return any(marker in low for marker in _VALIDATION_MARKERS)


def _clip(text: str) -> str:
    if len(text) <= MAX_ERROR_CHARS:
        return text
    return f"{text[:MAX_ERROR_CHARS]}…({len(text) - MAX_ERROR_CHARS} more characters)"


def _cause(exc: BaseException) -> str:
    """The deepest cause's text (``Connection refused``, ``ReadTimeout``), if any."""
    seen: set[int] = set()
    cause = exc.__cause__ or exc.__context__
    text = ""
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        text = str(cause) or type(cause).__name__
        cause = cause.__cause__ or cause.__context__
    return text


def _body_text(exc: openai.APIStatusError) -> str:
    """The server's whole error text, readable: an OpenAI-style ``error.message`` decoded.

    ``{"error": {"message": M, "type": T, ...}}`` gives ``M (error type: T)``; any other body is
    kept as sent (JSON re-encoded without ASCII escapes).
    """
    try:
        text = exc.response.text
    except Exception:  # a streamed response whose body was never read
        text = ""
    try:
        data = json.loads(text) if text.strip() else exc.body
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("error"), dict | str):
        err = data["error"]
        if isinstance(err, str):
            return err.strip()
        message = err.get("message")
        if isinstance(message, str) and message.strip():
            extras = [f"error {k}: {err[k]}" for k in ("type", "code", "param") if err.get(k) not in (None, "")]
            return message.strip() + (f" ({'; '.join(extras)})" if extras else "")
    if data is not None and not text.strip():
        return json.dumps(data, ensure_ascii=False)
    if text.strip():
        return text.strip() if data is None else json.dumps(data, ensure_ascii=False)
    return str(exc)


def classify_error(exc: BaseException, api_key: str | None, endpoint: str | None = None) -> ChatError:
    """Map an SDK/transport exception to a :class:`ChatError`, naming ``endpoint``.

    The server's error text is kept whole (up to :data:`MAX_ERROR_CHARS`), redacted of ``api_key``.
    """
    where = f" from {endpoint}" if endpoint else ""
    msg = redact(str(exc) or type(exc).__name__, api_key)
    if isinstance(exc, openai.APITimeoutError):
        return ChatError("timeout", f"no response{where} in time ({msg})", retryable=True)
    if isinstance(exc, (openai.APIConnectionError, *TRANSPORT_ERRORS)):
        cause = redact(_cause(exc), api_key)
        detail = f"{msg} ({cause})" if cause and cause not in msg else msg
        return ChatError("connection", f"cannot reach{where or ' the endpoint'}: {detail}", retryable=True)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        body = _clip(redact(_body_text(exc), api_key))
        head = f"HTTP {status}{where}"
        haystack = f"{body} {getattr(exc, 'code', '') or ''}".lower()
        if status in (400, 413, 422) and any(m in haystack for m in _OVERFLOW_MARKERS):
            return ContextOverflowError("context_overflow", f"{head}: {body}")
        if status not in (401, 403, 404, 429) and is_validation_error(body):
            return InvalidRequestError(
                "invalid_request",
                f"{head}: the server rejected the request as invalid (a validation error is deterministic, "
                f"even as HTTP {status}: not retried, not re-dispatched): {body}",
            )
        if status == 429:
            return ChatError("rate_limited", f"{head}: {body}", retryable=True, retry_after=retry_after(exc.response))
        if status >= 500 or status in (408, 409):
            return ChatError(f"http_{status}", f"{head}: {body}", retryable=True, retry_after=retry_after(exc.response))
        if status in (401, 403):
            return ChatError("auth", f"{head}: {body}")
        if status == 404:
            return ChatError("not_found", f"{head}: {body}")
        return ChatError("bad_request", f"{head}: {body}")
    if isinstance(exc, openai.APIError):
        body = getattr(exc, "body", None)
        detail = _clip(redact(f"{msg} {body}" if body else msg, api_key))
        if is_validation_error(detail):
            return InvalidRequestError("invalid_request", f"error{where}: {detail}")
        return ChatError("api_error", f"error{where}: {detail}", retryable=True)
    return ChatError("client_error", f"{type(exc).__name__}: {_clip(msg)}")


def retry_after(response: Any) -> float | None:
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

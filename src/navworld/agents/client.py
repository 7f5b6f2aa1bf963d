"""A thin OpenAI-compatible chat client over ``openai`` (2.x or 3.x) ``AsyncOpenAI``.

What it adds on top of the SDK (whose own retries are switched off):

* **Requests every OpenAI-compatible server accepts** (OpenAI, vLLM, sglang, llama.cpp /
  llama-cpp-python, Ollama, LM Studio, TGI): messages go through
  :func:`navworld.agents.wire.wire_messages` (``""`` rather than ``null`` content, standard fields
  only); ``seed`` and ``temperature`` only when given.
* **Streaming by default** (``stream=None``): a timeout or a cancellation closes the connection,
  so the server stops generating instead of finishing an answer nobody reads. An endpoint that
  rejects or ignores streaming is asked plainly from then on (remembered per base URL and event loop).
* **One shared SDK client per (event loop, base_url, key)** so concurrent episodes reuse one
  connection pool.
* **A per-call timeout sized for long answers** (default 480 s, see seed §2.4): it must be read
  as "the longest a healthy response may take", never as a stall detector. The caller can pass a
  tighter ``deadline`` (the episode's wall-clock budget); the per-call timeout is clipped to it.
* **Retries with exponential backoff only for transient failures before the server produced
  anything**: connection errors, a stream that stalls before its first token, HTTP 429
  (``Retry-After`` honoured, capped) and 5xx that are not validation errors. Never retried: a
  timeout after tokens arrived (:class:`GenerationTimeoutError`), a break after visible content
  (:class:`StreamCutError`), a non-streamed call's timeout (the server may still be generating),
  and deterministic errors (:class:`InvalidRequestError`: a schema/validation error, whatever its
  status; 4xx).
* **Error texts that say what happened**: the endpoint (base URL without secrets) and the
  server's whole error text (up to 20,000 characters).
* **Token usage** of every call, summed by :class:`Usage`.

API keys come from the ``api_key`` argument, else ``NAVWORLD_API_KEY``, else ``OPENAI_API_KEY``;
they are never logged, never put in results or exception messages, and never on a command line.

The error types and key handling live in :mod:`navworld.agents.chat_errors`, the result types in
:mod:`navworld.agents.chat_results`, one HTTP attempt in :mod:`navworld.agents.chat_calls`; the
public names are re-exported here.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import weakref
from dataclasses import dataclass
from typing import Any

from openai import AsyncOpenAI

from navworld.agents.chat_calls import EmptyStreamError, NotStreamed, plain_call, stream_call
from navworld.agents.chat_errors import (
    KEY_ENV_VARS,  # noqa: F401  (re-exported: it lived here)
    PLACEHOLDER_KEY,
    ChatError,
    ContextOverflowError,
    GenerationTimeoutError,
    InvalidRequestError,
    StreamCutError,
    TransientChatError,
    redact,
    resolve_api_key,
)
from navworld.agents.chat_results import ChatResult, Usage
from navworld.agents.openai_compat import sdk_timeout
from navworld.agents.wire import wire_messages
from navworld.core.urls import public_url

__all__ = [
    "DEFAULT_CALL_TIMEOUT",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_RETRY_BACKOFF",
    "ChatClient",
    "ChatError",
    "ChatResult",
    "ContextOverflowError",
    "GenerationTimeoutError",
    "InvalidRequestError",
    "StreamCutError",
    "TransientChatError",
    "Usage",
    "aclose_shared_clients",
    "redact",
    "resolve_api_key",
]

log = logging.getLogger(__name__)

DEFAULT_CALL_TIMEOUT = 480.0
"""Seconds one model call may take (a full ~8k-token answer on a loaded endpoint)."""
DEFAULT_CONNECT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 3
"""Retries after the first attempt, for transient failures before the server produced anything."""
DEFAULT_RETRY_BACKOFF = 2.0
"""First backoff in seconds; doubles each retry (2, 4, 8 = 14 s over three retries)."""
MAX_RETRY_AFTER = 30.0
"""Upper bound on a server's ``Retry-After`` we are willing to wait."""
DEFAULT_MAX_TOKENS = 8192

# ------------------------------------------------------------------------------------ the client

_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, str], AsyncOpenAI]] = (
    weakref.WeakKeyDictionary()
)
EMPTY_STREAMS_BEFORE_PLAIN = 3
"""An endpoint that never streamed and sent this many empty streams to tool-less calls is asked plainly."""


@dataclass
class _Learned:
    """What the calls of one event loop (one run) learned about an endpoint."""

    plain: bool = False  # rejected or ignored streaming: asked without it from then on
    streams_ok: int = 0
    streams_empty: int = 0  # empty streams of tool-less calls
    max_completion_tokens: bool = False  # wants max_completion_tokens (OpenAI reasoning models)


_LEARNED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Learned]] = weakref.WeakKeyDictionary()


def _learned(base_url: str) -> _Learned:
    per_loop = _LEARNED.setdefault(asyncio.get_running_loop(), {})
    return per_loop.setdefault(base_url.rstrip("/"), _Learned())


def _shared_sdk_client(base_url: str, api_key: str, connect_timeout: float) -> AsyncOpenAI:
    """One ``AsyncOpenAI`` per (running loop, base_url, key digest); SDK retries disabled."""
    loop = asyncio.get_running_loop()
    per_loop = _SHARED.setdefault(loop, {})
    key = (base_url.rstrip("/"), hashlib.sha256(api_key.encode()).hexdigest())
    client = per_loop.get(key)
    if client is None:
        client = AsyncOpenAI(
            api_key=api_key,
            base_url=base_url,
            max_retries=0,
            timeout=sdk_timeout(DEFAULT_CALL_TIMEOUT, connect_timeout),
        )
        per_loop[key] = client
    return client


async def aclose_shared_clients() -> None:
    """Close the shared SDK clients of the running event loop (call before the loop ends)."""
    loop = asyncio.get_running_loop()
    clients = _SHARED.pop(loop, {})
    for client in clients.values():
        await client.close()


_UNSUPPORTED = ("not supported", "unsupported", "not implemented", "does not support", "cannot stream")


def _stream_rejected(err: ChatError) -> str | None:
    """Whether an error answers the *streaming* itself (the request would pass without it).

    ``"endpoint"``: the endpoint refuses the ``stream`` parameter (a 4xx or validation error
    naming it): ask it plainly from now on. ``"call"``: it could not stream this particular
    answer (llama-cpp-python's ``chatml-function-calling`` answers a streamed tool call with
    500 "Automatic streaming tool choice is not supported"): ask this call plainly, keep
    streaming the others. ``None``: not about streaming.
    """
    text = err.message.lower()
    if "stream" not in text:
        return None
    if err.kind in ("invalid_request", "bad_request"):
        return "endpoint"
    if err.kind.startswith("http_5") and any(word in text for word in _UNSUPPORTED):
        return "call"
    return None


def _wants_max_completion_tokens(err: ChatError) -> bool:
    text = err.message.lower()
    return err.kind in ("invalid_request", "bad_request") and "max_completion_tokens" in text and "max_tokens" in text


class ChatClient:
    """Calls one OpenAI-compatible chat endpoint with bounded, transient-only retries.

    Args:
        base_url: the endpoint (e.g. ``http://127.0.0.1:8000/v1``).
        api_key: the key; ``None`` reads ``NAVWORLD_API_KEY`` then ``OPENAI_API_KEY``.
        call_timeout: seconds one call may take (default 480).
        max_retries: retries after the first attempt, transient failures only (default 3).
        retry_backoff: first backoff in seconds, doubled each retry (default 2).
        stream: ``None`` (default): stream, unless the endpoint rejects or ignores it; ``True``:
            always stream; ``False``: never.
        connect_timeout: seconds to establish a connection.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        retry_backoff: float = DEFAULT_RETRY_BACKOFF,
        stream: bool | None = None,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
    ) -> None:
        self.base_url = base_url
        self.endpoint = public_url(base_url) or "the endpoint"
        self._api_key = resolve_api_key(api_key) or PLACEHOLDER_KEY
        self.call_timeout = float(call_timeout)
        self.max_retries = max(0, int(max_retries))
        self.retry_backoff = max(0.0, float(retry_backoff))
        self.stream = stream
        self.connect_timeout = float(connect_timeout)

    def __repr__(self) -> str:  # never show the key
        return f"ChatClient(base_url={self.endpoint!r}, stream={self.stream})"

    @property
    def streams(self) -> bool:
        """Whether the next call streams (``stream=None`` and the endpoint not known to refuse in this run)."""
        if self.stream is None:
            return not _learned(self.base_url).plain
        return self.stream

    def _params(
        self,
        model: str,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        temperature: float | None,
        max_tokens: int | None,
        seed: int | None,
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"model": model, "messages": wire_messages(messages)}
        if tools:
            params["tools"] = tools
            params["tool_choice"] = "auto"
        if temperature is not None:
            params["temperature"] = temperature
        if max_tokens is not None:
            name = "max_completion_tokens" if _learned(self.base_url).max_completion_tokens else "max_tokens"
            params[name] = max_tokens
        if seed is not None:
            params["seed"] = seed
        return params

    async def complete(
        self,
        model: str,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        temperature: float | None = None,
        max_tokens: int | None = DEFAULT_MAX_TOKENS,
        seed: int | None = None,
        deadline: float | None = None,
    ) -> ChatResult:
        """Run one chat completion, retrying transient failures before the server produced anything.

        ``deadline`` is a ``time.monotonic()`` instant after which no call or retry starts and
        any running call is cut (raises a ``timeout`` :class:`ChatError`).

        Raises:
            ContextOverflowError: the model's context window is exceeded (model failure).
            GenerationTimeoutError: the time ran out while the model was generating.
            StreamCutError: a stream broke after visible content (infra, not retried here).
            InvalidRequestError: the endpoint rejected the request body (deterministic).
            ChatError: any other failure, after retries for the transient ones.
        """
        sdk = _shared_sdk_client(self.base_url, self._api_key, self.connect_timeout)
        attempt = 0
        adapted: set[str] = set()  # request adaptations tried (each at most once per call)
        while True:
            attempt += 1
            timeout = self.call_timeout
            if deadline is not None:
                timeout = min(timeout, deadline - time.monotonic())
                if timeout <= 0:
                    raise ChatError(
                        "timeout", f"the episode's time ran out before the next call to {self.endpoint}",
                        attempts=attempt - 1, redispatch=False,
                    )  # fmt: skip
            params = self._params(model, messages, tools, temperature, max_tokens, seed)
            streaming = self.streams and "stream" not in adapted
            started = time.monotonic()
            try:
                if streaming:
                    result = await stream_call(sdk, params, timeout, endpoint=self.endpoint, api_key=self._api_key)
                else:
                    result = await plain_call(sdk, params, timeout, endpoint=self.endpoint, api_key=self._api_key)
            except NotStreamed as answered:
                log.info("%s ignores stream=true; asking it without streaming from now on", self.endpoint)
                _learned(self.base_url).plain = True
                result = answered.result
            except (StreamCutError, GenerationTimeoutError) as exc:
                exc.attempts = attempt
                raise
            except ChatError as exc:
                exc.attempts = attempt
                if self._adapt(exc, streaming, adapted, bool(tools)):
                    continue
                wait = self._retry_wait(exc, attempt, deadline)
                if wait is None:
                    if exc.retryable:
                        raise TransientChatError(
                            exc.kind, exc.message, attempts=attempt, retryable=True,
                            redispatch=exc.redispatch, produced=exc.produced, partial=exc.partial,
                        ) from exc  # fmt: skip
                    raise
                log.info("model call to %s failed (%s); retry %d in %.2fs", self.endpoint, exc.kind, attempt, wait)
                await asyncio.sleep(wait)
                continue
            if streaming:
                _learned(self.base_url).streams_ok += 1
            result.attempts = attempt
            result.seconds = time.monotonic() - started
            return result

    # ------------------------------------------------------------------------------- internals

    def _adapt(self, exc: ChatError, streaming: bool, adapted: set[str], tools_on: bool) -> bool:
        """Change the request once when the endpoint said exactly what it cannot take."""
        rejected = _stream_rejected(exc) if streaming and self.stream is None and "stream" not in adapted else None
        if isinstance(exc, EmptyStreamError) and self.stream is None and "stream" not in adapted:
            # A call with tools may fail to stream for the tool calls alone (llama-cpp-python); only
            # tool-less calls that never stream tell that the endpoint cannot stream at all.
            record = _learned(self.base_url)
            record.streams_empty += 0 if tools_on else 1
            never = record.streams_ok == 0 and record.streams_empty >= EMPTY_STREAMS_BEFORE_PLAIN
            rejected = "endpoint" if never else "call"
        if rejected is not None:
            adapted.add("stream")
            if rejected == "endpoint":
                _learned(self.base_url).plain = True
                log.info("%s rejects streaming; asking it without streaming from now on", self.endpoint)
            else:
                log.info("%s could not stream this answer; asking this call without streaming", self.endpoint)
            return True
        learned = _learned(self.base_url)
        if "max_tokens" not in adapted and not learned.max_completion_tokens and _wants_max_completion_tokens(exc):
            adapted.add("max_tokens")
            learned.max_completion_tokens = True
            return True
        return False

    def _retry_wait(self, exc: ChatError, attempt: int, deadline: float | None) -> float | None:
        """Seconds to wait before the next attempt, or None when no retry is allowed."""
        if not exc.retryable or attempt > self.max_retries:
            return None
        wait = self.retry_backoff * (2 ** (attempt - 1))
        if exc.retry_after is not None:
            wait = max(wait, min(exc.retry_after, MAX_RETRY_AFTER))
        if deadline is not None and time.monotonic() + wait >= deadline:
            return None
        return wait


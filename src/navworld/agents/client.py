"""A thin OpenAI-compatible chat client over ``openai>=3`` ``AsyncOpenAI``.

What it adds on top of the SDK (whose own retries are switched off):

* **One shared SDK client per (event loop, base_url, key)** so concurrent episodes reuse one
  connection pool.
* **A per-call timeout sized for long answers** (default 480 s, see seed §2.4): it must be read
  as "the longest a healthy response may take", never as a stall detector. The caller can pass a
  tighter ``deadline`` (the episode's wall-clock budget); the per-call timeout is clipped to it.
* **Retries with exponential backoff only for transient failures before visible content**:
  connection errors, timeouts, HTTP 429 (``Retry-After`` honoured, capped) and 5xx. Anything
  after the first visible token of a stream is not retried (:class:`StreamCutError`): the
  episode-level re-dispatch is the recourse for that.
* **Failure classification**: :class:`ContextOverflowError` is the model's failure (scored);
  every other :class:`ChatError` is infrastructure (reported as ``error``, never scored).
* **Token usage** of every call, summed by :class:`Usage`.

API keys come from the ``api_key`` argument, else ``NAVWORLD_API_KEY``, else ``OPENAI_API_KEY``;
they are never logged, never put in results or exception messages, and never on a command line.

The error types and key handling live in :mod:`navworld.agents.chat_errors`, the result types in
:mod:`navworld.agents.chat_results`; both are re-exported here.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import weakref
from typing import Any

import httpx2
from openai import AsyncOpenAI

from navworld.agents.chat_errors import (
    KEY_ENV_VARS,  # noqa: F401  (re-exported: it lived here)
    PLACEHOLDER_KEY,
    ChatError,
    ContextOverflowError,
    StreamCutError,
    TransientChatError,
    classify_error,
    redact,
    resolve_api_key,
)
from navworld.agents.chat_results import ChatResult, Usage, message_to_dict

__all__ = [
    "DEFAULT_CALL_TIMEOUT",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_RETRY_BACKOFF",
    "ChatClient",
    "ChatError",
    "ChatResult",
    "ContextOverflowError",
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
"""Retries after the first attempt, for transient failures before visible content only."""
DEFAULT_RETRY_BACKOFF = 2.0
"""First backoff in seconds; doubles each retry (2, 4, 8 = 14 s over three retries)."""
MAX_RETRY_AFTER = 30.0
"""Upper bound on a server's ``Retry-After`` we are willing to wait."""
DEFAULT_MAX_TOKENS = 8192

# ------------------------------------------------------------------------------------ the client

_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, str], AsyncOpenAI]] = (
    weakref.WeakKeyDictionary()
)


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
            timeout=httpx2.Timeout(DEFAULT_CALL_TIMEOUT, connect=connect_timeout),
        )
        per_loop[key] = client
    return client


async def aclose_shared_clients() -> None:
    """Close the shared SDK clients of the running event loop (call before the loop ends)."""
    loop = asyncio.get_running_loop()
    clients = _SHARED.pop(loop, {})
    for client in clients.values():
        await client.close()


class ChatClient:
    """Calls one OpenAI-compatible chat endpoint with bounded, transient-only retries.

    Args:
        base_url: the endpoint (e.g. ``http://127.0.0.1:8000/v1``).
        api_key: the key; ``None`` reads ``NAVWORLD_API_KEY`` then ``OPENAI_API_KEY``.
        call_timeout: seconds one call may take (default 480).
        max_retries: retries after the first attempt, transient failures only (default 3).
        retry_backoff: first backoff in seconds, doubled each retry (default 2).
        stream: use streaming; a failure after visible content raises :class:`StreamCutError`.
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
        stream: bool = False,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
    ) -> None:
        self.base_url = base_url
        self._api_key = resolve_api_key(api_key) or PLACEHOLDER_KEY
        self.call_timeout = float(call_timeout)
        self.max_retries = max(0, int(max_retries))
        self.retry_backoff = max(0.0, float(retry_backoff))
        self.stream = stream
        self.connect_timeout = float(connect_timeout)

    def __repr__(self) -> str:  # never show the key
        return f"ChatClient(base_url={self.base_url!r}, stream={self.stream})"

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
        """Run one chat completion, retrying transient failures before visible content.

        ``deadline`` is a ``time.monotonic()`` instant after which no call or retry starts and
        any running call is cut (raises a ``timeout`` :class:`ChatError`).

        Raises:
            ContextOverflowError: the model's context window is exceeded (model failure).
            StreamCutError: a stream broke after visible content (infra, not retried here).
            ChatError: any other failure, after retries for the transient ones.
        """
        params: dict[str, Any] = {"model": model, "messages": messages}
        if tools:
            params["tools"] = tools
            params["tool_choice"] = "auto"
        if temperature is not None:
            params["temperature"] = temperature
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        if seed is not None:
            params["seed"] = seed
        sdk = _shared_sdk_client(self.base_url, self._api_key, self.connect_timeout)
        attempt = 0
        while True:
            attempt += 1
            timeout = self.call_timeout
            if deadline is not None:
                timeout = min(timeout, deadline - time.monotonic())
                if timeout <= 0:
                    raise ChatError("timeout", "episode deadline reached before the model call", attempts=attempt - 1)
            started = time.monotonic()
            try:
                if self.stream:
                    result = await self._call_streaming(sdk, params, timeout)
                else:
                    result = await self._call_plain(sdk, params, timeout)
            except StreamCutError as exc:
                exc.attempts = attempt
                raise
            except ChatError as exc:
                exc.attempts = attempt
                wait = self._retry_wait(exc, attempt, deadline)
                if wait is None:
                    if exc.retryable:
                        raise TransientChatError(exc.kind, exc.message, attempts=attempt, retryable=True) from exc
                    raise
                log.info("model call to %s failed (%s); retry %d in %.2fs", self.base_url, exc.kind, attempt, wait)
                await asyncio.sleep(wait)
                continue
            result.attempts = attempt
            result.seconds = time.monotonic() - started
            return result

    # ------------------------------------------------------------------------------- internals

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

    async def _call_plain(self, sdk: AsyncOpenAI, params: dict[str, Any], timeout: float) -> ChatResult:
        try:
            async with asyncio.timeout(timeout):
                completion = await sdk.chat.completions.create(**params, timeout=timeout)
        except TimeoutError:
            raise ChatError("timeout", f"no response within {timeout:.1f}s", retryable=True) from None
        except Exception as exc:
            raise self._classify(exc) from None
        choices = getattr(completion, "choices", None) or []
        if not choices:
            raise ChatError("bad_response", "the endpoint returned no choices", retryable=True)
        choice = choices[0]
        message = message_to_dict(choice.message)
        return ChatResult(message=message, finish_reason=choice.finish_reason, usage=Usage.from_api(completion.usage))

    async def _call_streaming(self, sdk: AsyncOpenAI, params: dict[str, Any], timeout: float) -> ChatResult:
        content: list[str] = []
        calls: dict[int, dict[str, Any]] = {}
        finish: str | None = None
        usage: Any = None
        visible = False
        try:
            async with asyncio.timeout(timeout):
                stream = await sdk.chat.completions.create(
                    **params, stream=True, stream_options={"include_usage": True}, timeout=timeout
                )
                async for chunk in stream:
                    if getattr(chunk, "usage", None) is not None:
                        usage = chunk.usage
                    for choice in chunk.choices or []:
                        delta = choice.delta
                        if delta is not None and delta.content:
                            content.append(delta.content)
                            visible = True
                        for tc in (delta.tool_calls if delta is not None else None) or []:
                            visible = True
                            slot = calls.setdefault(tc.index, {"id": None, "name": "", "arguments": ""})
                            if tc.id:
                                slot["id"] = tc.id
                            if tc.function is not None:
                                slot["name"] += tc.function.name or ""
                                slot["arguments"] += tc.function.arguments or ""
                        if choice.finish_reason:
                            finish = choice.finish_reason
        except TimeoutError:
            err = ChatError("timeout", f"stream not finished within {timeout:.1f}s", retryable=True)
            raise self._after_visible(err, visible) from None
        except Exception as exc:
            raise self._after_visible(self._classify(exc), visible) from None
        if finish is None:
            raise self._after_visible(
                ChatError("stream_incomplete", "stream ended without a finish reason", retryable=True), visible
            )
        message: dict[str, Any] = {"role": "assistant", "content": "".join(content) or None}
        if calls:
            message["tool_calls"] = [
                {
                    "id": slot["id"] or f"call_{index}",
                    "type": "function",
                    "function": {"name": slot["name"], "arguments": slot["arguments"]},
                }
                for index, slot in sorted(calls.items())
            ]
        return ChatResult(message=message, finish_reason=finish, usage=Usage.from_api(usage))

    @staticmethod
    def _after_visible(err: ChatError, visible: bool) -> ChatError:
        if not visible or isinstance(err, ContextOverflowError):
            return err
        return StreamCutError("stream_cut", f"after visible content: {err.message}", retryable=False)

    def _classify(self, exc: BaseException) -> ChatError:
        """Map an SDK/transport exception to a :class:`ChatError` (message redacted)."""
        return classify_error(exc, self._api_key)

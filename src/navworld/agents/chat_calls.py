"""One HTTP attempt of a chat completion, streamed or plain, with its failure classified.

:func:`stream_call` streams (``stream: true`` with ``stream_options.include_usage``) and closes
the response whatever happens: a timeout, a cancellation (Ctrl-C) or an error drops the
connection, which is how a server learns that nobody waits for the rest (llama.cpp, vLLM,
sglang, TGI and Ollama stop generating when the client goes away). It tells apart

* a failure before the server produced anything (retryable when transient),
* a timeout after tokens arrived (:class:`GenerationTimeoutError`: the model was generating;
  never retried, never re-dispatched),
* a break after visible content (:class:`StreamCutError`: not retried in place).

A server that ignores ``stream: true`` and answers with one JSON body is read as a plain answer
(:class:`NotStreamed` tells the caller, which then stops asking that endpoint to stream).

:func:`plain_call` sends one non-streaming request. Its timeout cannot tell whether the server
was generating, and a server keeps generating a non-streamed answer after the client left, so
a retry would only queue behind the abandoned work: its timeouts are not retried either.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from openai import AsyncOpenAI

from navworld.agents.chat_errors import (
    ChatError,
    ContextOverflowError,
    GenerationTimeoutError,
    StreamCutError,
    classify_error,
)
from navworld.agents.chat_results import ChatResult, Usage, message_to_dict

__all__ = ["EmptyStreamError", "NotStreamed", "plain_call", "stream_call"]


class EmptyStreamError(ChatError):
    """The endpoint accepted a streaming request (HTTP 200) and then sent no token at all.

    Some servers cannot stream every answer (llama-cpp-python's ``chatml-function-calling``
    raises inside a streamed tool call); the client asks the same call again without streaming.
    """


class NotStreamed(Exception):
    """The endpoint answered a streaming request with a plain JSON body (parsed in ``result``)."""

    def __init__(self, result: ChatResult) -> None:
        super().__init__("the endpoint does not stream")
        self.result = result


@dataclass
class _Accumulated:
    content: list[str] = field(default_factory=list)
    calls: dict[int, dict[str, Any]] = field(default_factory=dict)
    finish: str | None = None
    usage: Any = None
    produced: bool = False  # a token-bearing delta arrived (content, reasoning or a tool call)
    visible: bool = False  # visible content arrived (content or a tool call)

    def add(self, chunk: Any) -> None:
        if getattr(chunk, "usage", None) is not None:
            self.usage = chunk.usage
        for choice in getattr(chunk, "choices", None) or []:
            delta = choice.delta
            if delta is not None:
                if delta.content:
                    self.content.append(delta.content)
                    self.produced = self.visible = True
                if getattr(delta, "reasoning_content", None) or getattr(delta, "reasoning", None):
                    self.produced = True
                for tc in delta.tool_calls or []:
                    self.produced = self.visible = True
                    slot = self.calls.setdefault(tc.index or 0, {"id": None, "name": "", "arguments": ""})
                    if tc.id:
                        slot["id"] = tc.id
                    if tc.function is not None:
                        slot["name"] += tc.function.name or ""
                        slot["arguments"] += tc.function.arguments or ""
            if choice.finish_reason:
                self.finish = choice.finish_reason

    @property
    def text(self) -> str:
        return "".join(self.content)

    def result(self) -> ChatResult:
        message: dict[str, Any] = {"role": "assistant", "content": self.text or None}
        if self.calls:
            message["tool_calls"] = [
                {
                    "id": slot["id"] or f"call_{index}",
                    "type": "function",
                    "function": {"name": slot["name"], "arguments": slot["arguments"]},
                }
                for index, slot in sorted(self.calls.items())
            ]
        return ChatResult(message=message, finish_reason=self.finish, usage=Usage.from_api(self.usage))


def _from_completion(completion: Any, endpoint: str) -> ChatResult:
    choices = getattr(completion, "choices", None) or []
    if not choices:
        raise ChatError("bad_response", f"{endpoint} returned no choices", retryable=True)
    choice = choices[0]
    return ChatResult(
        message=message_to_dict(choice.message),
        finish_reason=choice.finish_reason,
        usage=Usage.from_api(getattr(completion, "usage", None)),
    )


def _parse_json_body(raw: bytes, endpoint: str) -> ChatResult:
    from openai.types.chat import ChatCompletion

    try:
        completion = ChatCompletion.model_validate(json.loads(raw))
    except (ValueError, TypeError) as exc:
        raise ChatError("bad_response", f"{endpoint} sent an unreadable body: {str(exc)[:300]}", retryable=True) from None
    return _from_completion(completion, endpoint)


async def plain_call(
    sdk: AsyncOpenAI, params: dict[str, Any], timeout: float, *, endpoint: str, api_key: str | None
) -> ChatResult:
    """One non-streaming attempt (timeouts are not retryable: see the module docstring)."""
    try:
        async with asyncio.timeout(timeout):
            completion = await sdk.chat.completions.create(**params, timeout=timeout)
    except TimeoutError:
        raise ChatError(
            "timeout",
            f"no response from {endpoint} within {timeout:.1f}s (non-streaming: the server may still be "
            "generating, so the call is not retried)",
            redispatch=False,
        ) from None
    except Exception as exc:
        err = classify_error(exc, api_key, endpoint)
        if err.kind == "timeout":
            err.retryable, err.redispatch = False, False
        raise err from None
    return _from_completion(completion, endpoint)


async def stream_call(
    sdk: AsyncOpenAI, params: dict[str, Any], timeout: float, *, endpoint: str, api_key: str | None
) -> ChatResult:
    """One streaming attempt; the response is closed on every exit (see the module docstring).

    Raises:
        NotStreamed: the endpoint answered with a plain JSON body (its parsed answer inside).
        GenerationTimeoutError: the time ran out after tokens had arrived.
        StreamCutError: the stream broke after visible content.
        ChatError: any other failure (``retryable`` when transient).
    """
    acc = _Accumulated()
    opened = False  # the endpoint accepted the request and started a stream
    try:
        async with asyncio.timeout(timeout):
            stream = await sdk.chat.completions.create(
                **params, stream=True, stream_options={"include_usage": True}, timeout=timeout
            )
            opened = True
            async with stream:  # closes the response, and so the connection, on any exit
                ctype = stream.response.headers.get("content-type", "")
                if "json" in ctype and "event-stream" not in ctype:
                    raise NotStreamed(_parse_json_body(await stream.response.aread(), endpoint))
                async for chunk in stream:
                    acc.add(chunk)
    except NotStreamed:
        raise
    except Exception as exc:
        if opened and not acc.produced and not isinstance(exc, TimeoutError):
            # HTTP 200, then no token: the server failed to stream this answer and says why only in
            # its log (llama-cpp-python: a tool call, or a prompt over the context window). Asked
            # once more without streaming, it answers with the real error or the answer.
            err = exc if isinstance(exc, ChatError) else classify_error(exc, api_key, endpoint)
            raise EmptyStreamError(
                "stream_empty",
                f"{endpoint} accepted the streaming request, then ended the stream before any token ({err.message})",
                retryable=True,
            ) from None
        raise _classified(exc, acc, timeout, endpoint, api_key) from None
    if acc.finish is None:
        if not acc.produced:
            raise EmptyStreamError(
                "stream_empty", f"{endpoint} accepted the streaming request but sent no data", retryable=True
            )
        raise _after_visible(
            ChatError("stream_incomplete", f"the stream from {endpoint} ended without a finish reason", retryable=True),
            acc,
        )
    return acc.result()


def _classified(exc: BaseException, acc: _Accumulated, timeout: float, endpoint: str, api_key: str | None) -> ChatError:
    """The :class:`ChatError` for a failed stream (see :func:`stream_call`)."""
    if isinstance(exc, TimeoutError):
        if acc.produced:
            return GenerationTimeoutError(
                "timeout",
                f"{endpoint} was still generating when the call's {timeout:.1f}s ran out "
                f"({len(acc.text)} characters received; not retried: a second try would take as long)",
                produced=True,
                partial=acc.text,
                redispatch=False,
            )
        return ChatError("timeout", f"no tokens from {endpoint} within {timeout:.1f}s", retryable=True)
    err = exc if isinstance(exc, ChatError) else classify_error(exc, api_key, endpoint)
    return _after_visible(err, acc)


def _after_visible(err: ChatError, acc: _Accumulated) -> ChatError:
    err.produced = err.produced or acc.produced
    err.partial = err.partial or acc.text
    if not acc.visible or isinstance(err, ContextOverflowError):
        return err
    return StreamCutError(
        "stream_cut",
        f"the stream broke after visible content: {err.message}",
        produced=True,
        partial=acc.text,
    )

"""OpenAI-compatible test servers shaped like the local servers people run (real uvicorn, 127.0.0.1).

:class:`LocalServer` behaves like llama-cpp-python's server on one CPU slot:

* it validates the request body against a schema of its own and answers a failure with **HTTP
  500** and the body llama-cpp-python sends (``{"error": {"message": "N validation errors: …",
  "type": "internal_server_error", "param": null, "code": null}}``, the message being FastAPI's
  ``RequestValidationError`` text) — an assistant message with ``content: null`` fails there;
  ``strict=True`` also rejects unknown fields (as stricter servers do) and ``max_tokens`` above
  ``max_tokens_limit``;
* it serves **one generation at a time** (later requests wait for the slot) and produces tokens at
  ``token_delay`` seconds each;
* streamed, it checks for a disconnected client between tokens and stops (as llama.cpp, vLLM and
  sglang do); not streamed, it **keeps generating** after the client went away and only then
  finds nobody to answer (an *abandoned* generation).

The model's decisions come from a script of :mod:`navworld.agents.fake` (a function of the
conversation). Counters: ``posts`` (every request), ``requests`` (bodies that passed
validation), ``started``, ``finished``, ``aborted``
(stopped because the client left), ``abandoned`` (finished for a client that had left),
``slot_waits`` (seconds each request waited for the slot).
"""

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal, NotRequired

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, with_config
from typing_extensions import TypedDict

from navworld.agents.fake import ChatRequest, Reply, Script
from navworld.agents.fake_server import ServerThread


class _ErrorRoute(APIRoute):
    """llama-cpp-python's route class: every exception becomes a 500 with an OpenAI-style body."""

    def get_route_handler(self) -> Callable[[Request], Any]:
        original = super().get_route_handler()

        async def handler(request: Request) -> Any:
            try:
                return await original(request)
            except Exception as exc:
                body = {"error": {"message": str(exc), "type": "internal_server_error", "param": None, "code": None}}
                return JSONResponse(body, status_code=500)

        return handler


def _message_types(strict: bool) -> Any:
    """llama-cpp-python's message union (its class names, so errors read the same)."""
    config = with_config(ConfigDict(extra="forbid" if strict else "ignore"))

    @config
    class Function(TypedDict):
        name: str
        arguments: str

    @config
    class ToolCall(TypedDict):
        id: str
        type: Literal["function"]
        function: Function

    @config
    class ChatCompletionRequestSystemMessage(TypedDict):
        role: Literal["system"]
        content: str | None

    @config
    class ChatCompletionRequestUserMessage(TypedDict):
        role: Literal["user"]
        content: str | list[dict[str, Any]] | None

    @config
    class ChatCompletionRequestAssistantMessage(TypedDict):
        role: Literal["assistant"]
        content: NotRequired[str]  # present but null is what llama-cpp-python rejects
        tool_calls: NotRequired[list[ToolCall]]

    @config
    class ChatCompletionRequestToolMessage(TypedDict):
        role: Literal["tool"]
        content: str | None
        tool_call_id: str

    @config
    class ChatCompletionRequestFunctionMessage(TypedDict):
        role: Literal["function"]
        content: str | None
        name: str

    return (
        ChatCompletionRequestSystemMessage
        | ChatCompletionRequestUserMessage
        | ChatCompletionRequestAssistantMessage
        | ChatCompletionRequestToolMessage
        | ChatCompletionRequestFunctionMessage
    )


def _request_model(strict: bool, max_tokens_limit: int | None) -> type[BaseModel]:
    extra: Any = "forbid" if strict else "ignore"
    limit = max_tokens_limit
    message = _message_types(strict)

    class CreateChatCompletionRequest(BaseModel):
        model_config = ConfigDict(extra=extra)
        model: str | None = None
        messages: list[message]  # type: ignore[valid-type]
        tools: list[dict[str, Any]] | None = None
        tool_choice: str | dict[str, Any] | None = None
        temperature: float = 0.8
        top_p: float = 0.95
        max_tokens: int | None = Field(default=None, le=limit) if limit else None
        seed: int | None = None
        stream: bool = False
        stream_options: dict[str, Any] | None = None
        stop: str | list[str] | None = None

    return CreateChatCompletionRequest


class LocalServer:
    """A one-slot llama-cpp-python-shaped endpoint (see the module docstring).

    Args:
        script: what the model does (a function of the conversation).
        token_delay: seconds per generated piece (8 characters).
        strict: reject unknown request and message fields too.
        max_tokens_limit: reject ``max_tokens`` above this (a pydantic ``less_than_equal`` error).
        tool_stream_fails: a streamed answer with tool calls fails after the 200 response
            started, before any data (llama-cpp-python's ``chatml-function-calling``:
            "Automatic streaming tool choice is not supported").
        context_window: tokens (4 characters each) the prompt may hold; over it, a streamed
            request breaks after the role chunk and a plain one gets llama-cpp-python's 400
            ``context_length_exceeded`` body.
    """

    def __init__(
        self,
        script: Script,
        *,
        token_delay: float = 0.0,
        strict: bool = True,
        max_tokens_limit: int | None = None,
        tool_stream_fails: bool = False,
        context_window: int | None = None,
    ) -> None:
        self.script = script
        self.tool_stream_fails = tool_stream_fails
        self.context_window = context_window
        self.token_delay = token_delay
        self.requests: list[dict[str, Any]] = []
        self.posts = 0
        self.started = self.finished = self.aborted = self.abandoned = 0
        self.slot_waits: list[float] = []
        self._slot: asyncio.Lock | None = None
        self._thread: ServerThread | None = None
        inner = self._build(_request_model(strict, max_tokens_limit))

        async def app(scope: Any, receive: Any, send: Any) -> None:  # plain ASGI: keeps disconnects visible
            if scope["type"] == "http":
                self.posts += 1  # every request, the rejected ones included
            await inner(scope, receive, send)

        self.app = app

    # ----------------------------------------------------------------------------- lifecycle
    def __enter__(self) -> "LocalServer":
        self._thread = ServerThread(self.app).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread is not None:
            self._thread.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        assert self._thread is not None
        return self._thread.url + "/v1"

    # ----------------------------------------------------------------------------- generation
    def _pieces(self, body: Any) -> tuple[Reply, list[str]]:
        messages = [dict(m) for m in body.messages]
        request = ChatRequest(
            model=body.model or "", messages=messages, tools=body.tools, temperature=body.temperature,
            max_tokens=body.max_tokens, seed=body.seed, stream=body.stream, headers={},
        )  # fmt: skip
        outcome = self.script(request)
        reply = outcome if isinstance(outcome, Reply) else Reply(content="（无法回答）")
        text = reply.content or ""
        pieces = [text[i : i + 8] for i in range(0, len(text), 8)]
        pieces += ["\x00tool"] * len(reply.tool_calls)  # one generated piece per tool call
        return reply, pieces

    async def _take_slot(self) -> asyncio.Lock:
        if self._slot is None:
            self._slot = asyncio.Lock()
        waited = time.monotonic()
        await self._slot.acquire()
        self.slot_waits.append(time.monotonic() - waited)
        return self._slot

    def _build(self, request_model: type[BaseModel]) -> FastAPI:
        app = FastAPI()
        app.router.route_class = _ErrorRoute
        server = self


        @app.post("/v1/chat/completions")
        async def chat(body: request_model, raw: Request) -> Any:  # type: ignore[valid-type]
            server.requests.append(body.model_dump())  # type: ignore[attr-defined]
            prompt = sum(len(str(m.get("content") or "")) for m in body.messages) // 4  # type: ignore[attr-defined]
            window = server.context_window
            if window is not None and prompt > window:
                if body.stream:  # type: ignore[attr-defined]
                    return StreamingResponse(server._overflow(body, prompt), media_type="text/event-stream")
                message = (f"This model's maximum context length is {window} tokens. However, you requested "
                           f"{prompt} tokens ({prompt} in the messages, None in the completion). "
                           "Please reduce the length of the messages or completion.")  # fmt: skip
                error = {"message": message, "type": "invalid_request_error", "param": "messages",
                         "code": "context_length_exceeded"}  # fmt: skip
                return JSONResponse({"error": error}, status_code=400)
            reply, pieces = server._pieces(body)
            if body.stream:  # type: ignore[attr-defined]
                return StreamingResponse(server._stream(raw, body, reply, pieces), media_type="text/event-stream")
            slot = await server._take_slot()
            try:
                server.started += 1
                for _ in pieces:  # generates the whole answer whether or not anybody still waits
                    await asyncio.sleep(server.token_delay)
                if await raw.is_disconnected():
                    server.abandoned += 1
                server.finished += 1
            finally:
                slot.release()
            return _completion(body, reply)

        return app

    async def _overflow(self, body: Any, prompt: int) -> AsyncIterator[bytes]:
        yield _sse(_chunk("chatcmpl-local-overflow", body, {"role": "assistant"}))
        await asyncio.sleep(0.05)  # the role chunk reaches the client first, as llama-cpp-python's does
        raise ValueError(f"Requested tokens ({prompt}) exceed context window of {self.context_window}")

    async def _stream(self, raw: Request, body: Any, reply: Reply, pieces: list[str]) -> AsyncIterator[bytes]:
        if self.tool_stream_fails and reply.tool_calls:
            raise ValueError("Automatic streaming tool choice is not supported")
        slot = await self._take_slot()
        done = False
        try:
            self.started += 1
            cid = f"chatcmpl-local-{self.started}"
            yield _sse(_chunk(cid, body, {"role": "assistant"}))
            calls = iter(reply.tool_calls)
            for index, piece in enumerate(pieces):
                await asyncio.sleep(self.token_delay)
                if await raw.is_disconnected():
                    return
                if piece == "\x00tool":
                    tc = next(calls)
                    yield _sse(_chunk(cid, body, {"tool_calls": [{"index": index, **tc}]}))
                else:
                    yield _sse(_chunk(cid, body, {"content": piece}))
            finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
            yield _sse(_chunk(cid, body, {}, finish))
            done = True
            self.finished += 1
            yield b"data: [DONE]\n\n"
        finally:  # a client that went away stops the generation (Starlette cancels the body)
            if not done:
                self.aborted += 1
            slot.release()


def _sse(obj: Any) -> bytes:
    return f"data: {json.dumps(obj, ensure_ascii=False)}\n\n".encode()


def _chunk(cid: str, body: Any, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": cid, "object": "chat.completion.chunk", "created": int(time.time()), "model": body.model,
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }  # fmt: skip


def _completion(body: Any, reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [dict(tc) for tc in reply.tool_calls]
    return {
        "id": "chatcmpl-local", "object": "chat.completion", "created": int(time.time()), "model": body.model,
        "choices": [{"index": 0, "message": message, "logprobs": None,
                     "finish_reason": reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }  # fmt: skip

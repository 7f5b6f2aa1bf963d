"""A real OpenAI-compatible HTTP endpoint serving scripted fake models, plus a server helper.

* :func:`create_fake_app` builds a FastAPI app with ``POST /v1/chat/completions`` (plain JSON and
  SSE streaming), ``GET /v1/models`` and ``GET /health``; the request's ``model`` picks the
  script (see :mod:`navworld.agents.fake`).
* :class:`ServerThread` runs any ASGI app under uvicorn on 127.0.0.1 in a background thread on
  a free port (tests and benchmarks use it for the env server too).
* :func:`start_fake_server` combines both: ``with start_fake_server({"m": script}) as fake:``
  then point a client at ``fake.base_url`` (``http://127.0.0.1:PORT/v1``).

The fake records every request (model, sampling parameters, whether tools were offered,
message count, and whether an ``Authorization`` header was present — never its value) in
``FakeModelServer.requests`` for assertions.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from navworld.agents.fake import ChatRequest, Fault, Hang, Reply, Script, StreamCut

__all__ = ["FakeModelServer", "ServerThread", "create_fake_app", "start_fake_server"]


class _Cut(Exception):
    """Raised inside a streaming body to drop the connection mid-response."""


class _QuietCuts(logging.Filter):
    """Drop uvicorn's error record for a deliberate stream cut (it is the scripted fault)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        while exc is not None:
            if isinstance(exc, _Cut):
                return False
            exc = exc.__cause__ or exc.__context__ or (exc.exceptions[0] if isinstance(exc, BaseExceptionGroup) else None)
        return True


logging.getLogger("uvicorn.error").addFilter(_QuietCuts())


def _tokens(text: str) -> int:
    return max(1, len(text) // 4) if text else 0


def _usage(request: ChatRequest, reply: Reply) -> dict[str, int]:
    prompt = sum(_tokens(str(m.get("content") or "")) + 4 for m in request.messages)
    completion = _tokens(reply.content or "") + sum(
        _tokens(tc["function"]["arguments"]) + 8 for tc in reply.tool_calls
    )
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


class FakeModelServer:
    """Scripted models behind an OpenAI-compatible FastAPI app.

    Args:
        scripts: model name → script; a single script serves every model name.
    """

    def __init__(self, scripts: Mapping[str, Script] | Script) -> None:
        self.scripts: Mapping[str, Script] | Script = scripts
        self.requests: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self._thread: ServerThread | None = None
        self.app = create_fake_app(self)

    # --------------------------------------------------------------------------- lifecycle
    def start(self) -> FakeModelServer:
        """Serve on a free 127.0.0.1 port in a background thread (no-op when already running)."""
        if self._thread is None:
            self._thread = ServerThread(self.app).start()
        return self

    def stop(self) -> None:
        """Stop the background server."""
        if self._thread is not None:
            self._thread.stop()
            self._thread = None

    def __enter__(self) -> FakeModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        if self._thread is None:
            raise RuntimeError("the fake server is not running")
        return self._thread.url

    @property
    def base_url(self) -> str:
        """The OpenAI base URL (``…/v1``)."""
        return self.url + "/v1"

    # --------------------------------------------------------------------------- dispatch
    def script_for(self, model: str) -> Script | None:
        """The script serving ``model`` (None when unknown)."""
        if callable(self.scripts):
            return self.scripts
        return self.scripts.get(model)

    def record(self, request: ChatRequest) -> None:
        """Remember a request (without header values)."""
        self.requests.append(
            {
                "model": request.model,
                "temperature": request.temperature,
                "max_tokens": request.max_tokens,
                "seed": request.seed,
                "stream": request.stream,
                "tools": bool(request.tools),
                "messages": len(request.messages),
                "authorized": bool(request.headers.get("authorization")),
                "time": time.monotonic(),
            }
        )

    def next_id(self) -> str:
        """A fresh completion id."""
        return f"chatcmpl-fake-{next(self._ids)}"


def _error(fault: Fault) -> JSONResponse:
    body = {"error": {"message": fault.message, "type": "fake_error", "code": fault.code, "param": None}}
    return JSONResponse(body, status_code=fault.status, headers=dict(fault.headers))


def _completion(server: FakeModelServer, request: ChatRequest, reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [dict(tc) for tc in reply.tool_calls]
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    return {
        "id": server.next_id(),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": _usage(request, reply),
    }


def _sse(obj: Any) -> bytes:
    return f"data: {json.dumps(obj, ensure_ascii=False)}\n\n".encode()


async def _stream(
    server: FakeModelServer, request: ChatRequest, reply: Reply | None, cut: StreamCut | None, include_usage: bool
) -> AsyncIterator[bytes]:
    cid, created = server.next_id(), int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": request.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    yield _sse(chunk({"role": "assistant", "content": ""}))
    text = cut.content if cut is not None else (reply.content if reply else "") or ""
    for start in range(0, len(text), 16):
        yield _sse(chunk({"content": text[start : start + 16]}))
        await asyncio.sleep(0)
    if cut is not None:
        raise _Cut("stream cut by script")
    assert reply is not None
    for index, tc in enumerate(reply.tool_calls):
        yield _sse(chunk({"tool_calls": [{"index": index, **tc}]}))
    yield _sse(chunk({}, reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")))
    if include_usage:
        yield _sse({"id": cid, "object": "chat.completion.chunk", "created": created, "model": request.model,
                    "choices": [], "usage": _usage(request, reply)})  # fmt: skip
    yield b"data: [DONE]\n\n"


def create_fake_app(server: FakeModelServer) -> FastAPI:
    """The FastAPI app of a :class:`FakeModelServer`."""
    app = FastAPI(title="navworld fake models", docs_url=None, redoc_url=None)

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        names = [] if callable(server.scripts) else list(server.scripts)
        return {"object": "list", "data": [{"id": n, "object": "model", "owned_by": "navworld"} for n in names]}

    @app.post("/v1/chat/completions")
    async def chat(raw: Request) -> Any:
        try:
            body = await raw.json()
        except ValueError:
            return _error(Fault(400, "body is not JSON", code="invalid_json"))
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return _error(Fault(400, "'messages' must be a list", code="invalid_request"))
        request = ChatRequest(
            model=str(body.get("model", "")),
            messages=body["messages"],
            tools=body.get("tools"),
            temperature=body.get("temperature"),
            max_tokens=body.get("max_tokens") or body.get("max_completion_tokens"),
            seed=body.get("seed"),
            stream=bool(body.get("stream")),
            headers={k.lower(): v for k, v in raw.headers.items()},
        )
        server.record(request)
        script = server.script_for(request.model)
        if script is None:
            return _error(Fault(404, f"The model '{request.model}' does not exist", code="model_not_found"))
        outcome = script(request)
        if isinstance(outcome, Hang):
            await asyncio.sleep(outcome.seconds)
            outcome = outcome.then or Reply(content="（迟到的回答）")
        if isinstance(outcome, Fault):
            return _error(outcome)
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        if isinstance(outcome, StreamCut):
            if not request.stream:
                return _error(Fault(502, "upstream connection reset", code="bad_gateway"))
            return StreamingResponse(_stream(server, request, None, outcome, include_usage), media_type="text/event-stream")
        if request.stream:
            return StreamingResponse(_stream(server, request, outcome, None, include_usage), media_type="text/event-stream")
        return _completion(server, request, outcome)

    return app


# --------------------------------------------------------------------------------- threads


class ServerThread:
    """Run an ASGI app with uvicorn on ``host`` (default 127.0.0.1) in a background thread.

    ``port=0`` picks a free port (the socket is bound before uvicorn starts, so there is no race).
    Use as a context manager or call :meth:`start` / :meth:`stop`.
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning") -> None:
        self.app = app
        self.host = host
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, port))
        self.port: int = self._sock.getsockname()[1]
        config = uvicorn.Config(app, host=host, port=self.port, log_level=log_level, access_log=False, lifespan="auto")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name=f"uvicorn-{self.port}", daemon=True)
        self._error: BaseException | None = None

    def _run(self) -> None:
        try:
            self._server.run(sockets=[self._sock])
        except BaseException as exc:  # surfaced by start()
            self._error = exc

    @property
    def url(self) -> str:
        """``http://HOST:PORT``."""
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 15.0) -> ServerThread:
        """Start serving; return once uvicorn accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if self._error is not None or not self._thread.is_alive():
                raise RuntimeError(f"uvicorn failed to start: {self._error!r}")
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start in time")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 10.0, grace: float = 0.3) -> None:
        """Ask uvicorn to exit; after ``grace`` seconds stop waiting for open requests."""
        self._server.should_exit = True
        self._thread.join(grace)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(timeout)
        try:
            self._sock.close()
        except OSError:
            pass

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_fake_server(scripts: Mapping[str, Script] | Script) -> FakeModelServer:
    """Start a :class:`FakeModelServer` on a free port (use as a context manager)."""
    return FakeModelServer(scripts).start()


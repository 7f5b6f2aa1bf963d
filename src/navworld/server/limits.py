"""The error contract and the request limits of ``navworld serve``.

:func:`install` is called by :func:`navworld.server.app.create_app` and adds:

* :class:`BodyLimitMiddleware`: a request body larger than ``max_body_bytes`` (default 4 MiB,
  ``NAVWORLD_MAX_BODY_BYTES``) is answered ``413 body_too_large`` *before* it is read whole — at
  once when ``Content-Length`` announces it, else as soon as the received bytes pass the limit.
  The rest of the upload is then received and discarded (at most 64 MiB / 10 s, never kept), so
  the client reads the 413 instead of a reset connection.
* Exception handlers: :class:`~navworld.env.limits.LimitExceeded` → 413 (``error`` = its kind),
  :class:`~navworld.env.episodes.ClientEpisodeLimit` → 429 with ``Retry-After``, and
  (:class:`InternalErrorMiddleware`) any other exception of a handler → ``500 internal_error``
  as JSON (never a plain-text traceback; the traceback goes to the log).

Every error body is ``{"detail": "<readable message>", "error": "<kind>"}``.

Clients are told apart for the episode store's per-client share by :func:`client_key`: the
peer address, refined by an ``X-Client-Id`` header when the caller sends one (several trainers
behind one address, or one proxy in front of many callers).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from navworld.core.clients import CLIENT_HEADER, client_identity
from navworld.env.episodes import ClientEpisodeLimit
from navworld.env.limits import LimitExceeded, env_int

log = logging.getLogger(__name__)

__all__ = [
    "CLIENT_HEADER",
    "DEFAULT_MAX_BODY_BYTES",
    "BodyLimitMiddleware",
    "InternalErrorMiddleware",
    "client_key",
    "error_response",
    "install",
]

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
"""Largest request body (bytes) unless ``NAVWORLD_MAX_BODY_BYTES`` says otherwise."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def error_response(status: int, kind: str, detail: str, **extra: Any) -> JSONResponse:
    """The JSON error body of every surface (``Retry-After: 1`` on 429 and 503)."""
    headers = {"Retry-After": "1"} if status in (429, 503) else None
    return JSONResponse({"detail": detail, "error": kind, **extra}, status_code=status, headers=headers)


def client_key(request: Request) -> str:
    """Who is calling: the peer host, plus the ``X-Client-Id`` header when present."""
    return client_identity(request.scope)


async def _send_json(send: Send, status: int, kind: str, detail: str) -> None:
    response = error_response(status, kind, detail)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body, "more_body": False})


DRAIN_BYTES = 64 * 1024 * 1024
"""After a 413, up to this much of the refused body is received and thrown away (never kept),
so a client still uploading can read the answer instead of a reset connection."""
DRAIN_SECONDS = 10.0


async def _refuse_too_large(send: Send, receive: Receive, detail: str, pending: bool) -> None:
    """Answer 413 at once; then, while the client is still sending, discard what it sends."""
    response = error_response(413, "body_too_large", detail)
    await send({"type": "http.response.start", "status": 413, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body, "more_body": pending})
    if not pending:
        return
    drained = 0
    try:
        with anyio.move_on_after(DRAIN_SECONDS):
            while drained <= DRAIN_BYTES:
                message = await receive()
                if message["type"] != "http.request":
                    break
                drained += len(message.get("body", b""))
                if not message.get("more_body", False):
                    break
    finally:
        await send({"type": "http.response.body", "body": b"", "more_body": False})


class BodyLimitMiddleware:
    """ASGI middleware refusing request bodies larger than ``max_bytes`` with 413 (JSON).

    The body is received here (at most ``max_bytes``) and handed to the app unchanged, so no
    route can be made to buffer more than the limit.
    """

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _too_large(self) -> str:
        return f"request body larger than {self.max_bytes} bytes (raise NAVWORLD_MAX_BODY_BYTES)"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on with its (bounded) body, or answer 413/400."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers") or ():
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _send_json(send, 400, "bad_request", "invalid Content-Length header")
                    return
                if declared > self.max_bytes:
                    await _refuse_too_large(send, receive, self._too_large(), pending=declared > 0)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _refuse_too_large(send, receive, self._too_large(), pending=bool(message.get("more_body")))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class InternalErrorMiddleware:
    """ASGI middleware turning any exception a handler lets out into ``500 internal_error`` JSON.

    The traceback is logged here and the exception goes no further, so the server keeps the
    connection (a re-raised exception would make uvicorn drop it after the response).
    """

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app; answer 500 JSON if it raises before responding."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:
            log.error("%s %s failed", scope.get("method"), scope.get("path"), exc_info=exc)
            if started:
                raise  # the response is under way: nothing else can be said
            detail = f"internal server error ({type(exc).__name__}); it was logged"
            await _send_json(send, 500, "internal_error", detail)


def install(app: FastAPI, max_body_bytes: int | None = None) -> None:
    """Add the body limit and the error handlers of the contract to ``app``."""
    limit = max_body_bytes or env_int("NAVWORLD_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES)
    app.state.max_body_bytes = limit
    app.add_middleware(InternalErrorMiddleware)
    app.add_middleware(BodyLimitMiddleware, max_bytes=limit)

    @app.exception_handler(LimitExceeded)
    async def _limit(request: Request, exc: LimitExceeded) -> JSONResponse:
        return error_response(413, exc.kind, str(exc), limit=exc.limit, setting=exc.setting)

    @app.exception_handler(ClientEpisodeLimit)
    async def _client_limit(request: Request, exc: ClientEpisodeLimit) -> JSONResponse:
        return error_response(429, "client_episode_limit", str(exc))


"""The reference agent as an OpenAI-compatible endpoint: ``POST /v1/chat/completions`` and
``GET /v1/models`` (model ``navworld-reference``).

Mounted by :func:`navworld.server.app.create_app` through its router hook. The planner uses the
server's world and salt, so run ``navworld serve --salt S`` with the salt the client uses (both
default to the current ISO-week epoch). Plain JSON and SSE streaming (``"stream": true``) are
supported; errors use the OpenAI error shape.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

from navworld.agents.reference.agent import MODEL_NAME
from navworld.agents.reference.protocol import ProtocolError, ReferenceProtocol, stream_chunks

__all__ = ["create_router"]

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 8_000_000


def _error(exc: ProtocolError) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status)


def create_router(actor: Any) -> APIRouter:
    """The router of the reference endpoint, planning with ``actor``'s world and salt."""
    router = APIRouter(tags=["reference agent (OpenAI-compatible)"])
    protocol = ReferenceProtocol(actor.world, generator=getattr(actor, "generator", None))

    @router.get("/v1/models")
    async def models() -> dict[str, Any]:
        """The one model this endpoint serves."""
        return {"object": "list", "data": [{"id": MODEL_NAME, "object": "model", "created": 0, "owned_by": "navworld"}]}

    @router.post("/v1/chat/completions", response_model=None)
    async def chat_completions(request: Request) -> JSONResponse | StreamingResponse:
        """One assistant turn of the reference agent (tool calls, or the final answer)."""
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            return _error(ProtocolError(413, f"request body larger than {MAX_BODY_BYTES} bytes"))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return _error(ProtocolError(400, "the request body is not valid JSON"))
        if not isinstance(body, dict):
            return _error(ProtocolError(400, "the request body must be a JSON object"))
        try:
            reply = await protocol.reply(body)
        except ProtocolError as exc:
            return _error(exc)
        model = str(body.get("model"))
        if not body.get("stream"):
            return JSONResponse(reply.completion(model))
        options = body.get("stream_options") or {}
        include_usage = bool(options.get("include_usage")) if isinstance(options, dict) else False
        chunks = stream_chunks(reply, model, include_usage)

        async def events() -> AsyncIterator[bytes]:
            """The SSE lines of the reply."""
            for chunk in chunks:
                yield f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode()
            yield b"data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    return router

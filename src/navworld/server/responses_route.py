"""The reference agent on the OpenAI Responses API: ``POST /v1/responses`` (model ``navworld-reference``).

The OpenAI Agents SDK (and any Responses client) talks to it with its defaults. A request's
``instructions`` + ``input`` items are turned into the chat transcript
(:mod:`navworld.server.responses_items`) and answered by the same
:class:`~navworld.agents.reference.protocol.ReferenceProtocol` as ``/v1/chat/completions``: the
next ``function_call`` items the conversation has not answered yet, or the final answer as one
``output_text`` message. ``previous_response_id`` continues a conversation this server answered
(kept in a bounded in-memory cache); ``"stream": true`` sends the documented server-sent events
(``response.created`` … ``response.completed``). Errors use the OpenAI error shape.

Mounted by :func:`navworld.server.app.create_app` through its router hook.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

from navworld.agents.reference.protocol import ProtocolError, ReferenceProtocol
from navworld.core.seeding import stable_hash
from navworld.server.reference_route import MAX_BODY_BYTES
from navworld.server.responses_items import (
    ItemError,
    input_messages,
    output_items,
    response_object,
    sse,
    stream_events,
)

__all__ = ["HISTORY_SIZE", "create_router"]

log = logging.getLogger(__name__)

HISTORY_SIZE = 256
"""Responses kept for ``previous_response_id`` (least recently used dropped first)."""


def _error(exc: ProtocolError) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status)


def create_router(actor: Any) -> APIRouter:
    """The router of ``POST /v1/responses``, planning with ``actor``'s world and salt."""
    router = APIRouter(tags=["reference agent (OpenAI-compatible)"])
    protocol = ReferenceProtocol(actor.world, generator=getattr(actor, "generator", None))
    history: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()

    def earlier(previous: Any) -> list[dict[str, Any]]:
        if previous is None:
            return []
        if not isinstance(previous, str) or previous not in history:
            raise ProtocolError(404, f"Previous response with id '{previous}' not found.", code="previous_response_not_found")
        history.move_to_end(previous)
        return list(history[previous])

    @router.post("/v1/responses", response_model=None)
    async def responses(request: Request) -> JSONResponse | StreamingResponse:
        """One assistant turn of the reference agent as a Responses API ``response``."""
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            return _error(ProtocolError(413, f"request body larger than {MAX_BODY_BYTES} bytes"))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return _error(ProtocolError(400, "the request body is not valid JSON"))
        if not isinstance(body, dict):
            return _error(ProtocolError(400, "the request body must be a JSON object"))
        if "input" not in body:
            return _error(ProtocolError(400, "input is required (a string or a list of items)"))
        try:
            messages = earlier(body.get("previous_response_id"))
            messages += input_messages(body.get("instructions"), body["input"])
            if not messages:
                raise ProtocolError(400, "input must not be empty")
            chat = {"model": body.get("model"), "messages": messages, "tools": body.get("tools"),
                    "tool_choice": body.get("tool_choice")}
            reply = await protocol.reply(chat)
        except ItemError as exc:
            return _error(ProtocolError(400, str(exc)))
        except ProtocolError as exc:
            return _error(exc)
        model = str(body.get("model"))
        digest = stable_hash("responses", reply.completion_id, len(messages))[:24]
        output = output_items(reply.content, reply.tool_calls, "msg_" + digest)
        response = response_object("resp_" + digest, model, body, output)
        turn: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            turn["tool_calls"] = reply.tool_calls
        history[response["id"]] = [*messages, turn]
        history.move_to_end(response["id"])
        while len(history) > HISTORY_SIZE:
            history.popitem(last=False)
        if not body.get("stream"):
            return JSONResponse(response)
        frames = sse(stream_events(response))

        async def events() -> AsyncIterator[bytes]:
            """The SSE frames of the response."""
            for frame in frames:
                yield frame

        return StreamingResponse(events(), media_type="text/event-stream")

    return router

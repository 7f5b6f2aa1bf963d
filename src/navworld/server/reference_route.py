"""The reference agent as an OpenAI-compatible endpoint: ``POST /v1/chat/completions`` and
``GET /v1/models`` (model ``navworld-reference``).

Mounted by :func:`navworld.server.app.create_app` through its router hook. Plain JSON and SSE
streaming (``"stream": true``) are supported; errors use the OpenAI error shape.

**Salt.** The planner must plan on the client's salt, or its answers describe another world's
flights, trains and budgets. The client names its salt in either of two ways, which any
OpenAI-compatible client can send (no extra body field):

* the model name ``navworld-reference@<salt>`` (``navworld eval --model navworld-reference`` sends
  this by itself, with the run's salt), or
* the header ``X-Navworld-Salt: <salt>``.

The endpoint then plans on that salt (a sandbox world of that salt, built once and cached). A
request that names no salt is planned on the server's salt (``navworld serve --salt``) and is
refused with **409** ``salt_mismatch`` when it shows that the client's world differs: its task
prompt is not the one the server generates, or a tool result in the conversation differs from the
server's. Nothing is ever answered for a different world without saying so.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

from navworld.agents.reference.agent import MODEL_NAME
from navworld.agents.reference.protocol import ProtocolError, ReferenceProtocol, find_task, stream_chunks

__all__ = ["SALT_HEADER", "SaltAwareProtocol", "create_router", "split_model"]

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 8_000_000
SALT_HEADER = "x-navworld-salt"
MAX_SALTS = 8
"""Worlds of other salts kept in memory (least recently used dropped)."""
_MAX_SALT_CHARS = 64


def _error(exc: ProtocolError) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status)


def split_model(model: Any) -> tuple[Any, str | None]:
    """``"navworld-reference@2900"`` → ``("navworld-reference", "2900")``; other names unchanged.

    >>> split_model("navworld-reference@2900"), split_model("navworld-reference")
    (('navworld-reference', '2900'), ('navworld-reference', None))
    """
    if isinstance(model, str) and model.startswith(MODEL_NAME + "@"):
        return MODEL_NAME, model[len(MODEL_NAME) + 1 :]
    return model, None


def _user_text(messages: list[Any]) -> str:
    for m in messages:
        if isinstance(m, dict) and m.get("role") == "user":
            content = m.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


class SaltAwareProtocol(ReferenceProtocol):
    """The reference protocol that refuses (409) a conversation from another world.

    Args:
        world: the world the planner plans on.
        salt: that world's salt (named in error messages).
        generator: the problem generator on ``world``.
        check_prompt: refuse when the client's task prompt differs from the generated one.
    """

    def __init__(self, world: Any, salt: str, generator: Any | None = None, check_prompt: bool = True) -> None:
        super().__init__(world, generator=generator)
        self.salt = salt
        self.check_prompt = check_prompt

    def _mismatch(self, task_id: int, what: str) -> ProtocolError:
        return ProtocolError(
            409,
            f"{MODEL_NAME}: {what} for task T{task_id} differs from this server's world (salt {self.salt!r}); the "
            f"client uses another salt or world. Name the client's salt in the model ('{MODEL_NAME}@<salt>') or the "
            f"'X-Navworld-Salt' header, or start `navworld serve --salt <salt>`.",
            code="salt_mismatch",
        )

    async def reply(self, body: dict[str, Any]) -> Any:
        """Check the conversation against this world, then answer as the reference planner."""
        messages = body.get("messages")
        found = find_task(messages) if isinstance(messages, list) else None
        if found is not None and body.get("model") == self.model:
            task_id, lang = found
            ep = await self._episode(task_id, lang)
            if self.check_prompt:
                prompt = self.generator.generate(task_id, lang=lang).prompt
                if prompt not in _user_text(messages):
                    raise self._mismatch(task_id, "the task prompt")
            for m in messages:
                if isinstance(m, dict) and m.get("role") == "tool" and isinstance(m.get("tool_call_id"), str):
                    expected = ep.results.get(m["tool_call_id"])
                    content = m.get("content")
                    if expected is not None and isinstance(content, str) and content != expected.text:
                        raise self._mismatch(task_id, f"the tool result {m['tool_call_id']}")
        return await super().reply(body)


class _Protocols:
    """The protocol for the server's salt and, on request, for other salts (sandbox worlds only)."""

    def __init__(self, actor: Any) -> None:
        self.salt = str(getattr(actor, "salt", ""))
        self.world = actor.world
        self.default = SaltAwareProtocol(actor.world, self.salt, generator=getattr(actor, "generator", None))
        self._others: OrderedDict[str, SaltAwareProtocol] = OrderedDict()

    def get(self, salt: str | None) -> SaltAwareProtocol:
        if salt is None or salt == self.salt:
            return self.default
        salt = salt.strip()
        if not salt or len(salt) > _MAX_SALT_CHARS or not salt.isprintable():
            raise ProtocolError(400, f"{MODEL_NAME}: the salt must be 1-{_MAX_SALT_CHARS} printable characters", code="bad_salt")
        from navworld.world.sandbox import SandboxWorld

        if not isinstance(self.world, SandboxWorld):
            raise ProtocolError(
                409,
                f"{MODEL_NAME}: this server plans on its own world ({type(self.world).__name__}, salt {self.salt!r}) and "
                f"cannot plan on salt {salt!r}; start `navworld serve --salt {salt}`",
                code="salt_mismatch",
            )
        hit = self._others.get(salt)
        if hit is None:
            hit = SaltAwareProtocol(SandboxWorld(salt), salt)
            self._others[salt] = hit
            while len(self._others) > MAX_SALTS:
                self._others.popitem(last=False)
        self._others.move_to_end(salt)
        return hit


def create_router(actor: Any) -> APIRouter:
    """The router of the reference endpoint (see the module docstring for salts)."""
    router = APIRouter(tags=["reference agent (OpenAI-compatible)"])
    protocols = _Protocols(actor)

    @router.get("/v1/models")
    async def models() -> dict[str, Any]:
        """The one model this endpoint serves (``navworld-reference@<salt>`` names a salt)."""
        return {"object": "list", "data": [{"id": MODEL_NAME, "object": "model", "created": 0, "owned_by": "navworld"}]}

    @router.post("/v1/chat/completions", response_model=None)
    async def chat_completions(request: Request) -> JSONResponse | StreamingResponse:
        """One assistant turn of the reference agent (tool calls, or the final answer)."""
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            return _error(ProtocolError(413, f"request body larger than {MAX_BODY_BYTES} bytes"))
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            return _error(ProtocolError(400, "the request body is not valid JSON (or nested too deeply)"))
        if not isinstance(body, dict):
            return _error(ProtocolError(400, "the request body must be a JSON object"))
        requested = body.get("model")
        name, model_salt = split_model(requested)
        salt = model_salt if model_salt is not None else request.headers.get(SALT_HEADER)
        try:
            protocol = protocols.get(salt)
            reply = await protocol.reply({**body, "model": name})
        except ProtocolError as exc:
            return _error(exc)
        model = str(requested)
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

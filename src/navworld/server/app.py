"""The HTTP API of ``navworld serve`` (FastAPI).

Routes: ``GET /health``, ``GET /tools``, ``GET /tasks/{task_id}``, ``POST /reset``,
``POST /step``, ``POST /evaluate``; OpenAPI at ``/openapi.json``. Errors are JSON
``{"detail", "error"}``: 400 bad task, 404 unknown/finished episode, 413 body or step over a
size limit, 422 bad body (the offending input is never echoed, so an API key in a bad body
cannot leak), 429 client over its share of episodes, 500 internal error (logged), 503 when the
episode store is full (with ``Retry-After``); limits and handlers in :mod:`navworld.server.limits`.

Hook for the reference agent's OpenAI-compatible endpoint (``POST /v1/chat/completions``,
model ``navworld-reference``): pass routers via ``create_app(extra_routers=...)``, or ship a
module listed in :data:`ROUTER_HOOKS` exposing ``create_router(actor) -> APIRouter`` (or a
module-level ``router``); it is included automatically when importable.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from navworld.core.errors import NavworldError, TaskError
from navworld.core.versions import PACKAGE_VERSION
from navworld.env.actor import Actor, content_hash, versions
from navworld.env.episodes import EpisodeNotFound, EpisodeStoreFull
from navworld.server.docs import new_app
from navworld.server.limits import client_key
from navworld.server.limits import install as install_limits
from navworld.server.models import (
    MAX_TASK_ID,
    ErrorResponse,
    EvaluateRequest,
    EvaluateResponse,
    HealthResponse,
    ResetRequest,
    ResetResponse,
    StepRequest,
    StepResponse,
    TaskResponse,
    ToolsResponse,
)

__all__ = ["ROUTER_HOOKS", "create_app"]

log = logging.getLogger(__name__)

ROUTER_HOOKS: tuple[str, ...] = (
    "navworld.server.reference_route",
    "navworld.server.responses_route",
    "navworld.server.openai_compat",
)
"""HOOK: modules whose ``create_router(actor)`` / ``router`` is mounted when importable
(the reference agent's ``POST /v1/chat/completions`` goes here)."""

RouterSpec = APIRouter | Callable[[Actor], APIRouter]

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "Bad task id or request"},
    404: {"model": ErrorResponse, "description": "Unknown, finished or expired episode"},
    413: {"model": ErrorResponse, "description": "Body or step larger than a configured limit"},
    422: {"model": ErrorResponse, "description": "Invalid body"},
    429: {"model": ErrorResponse, "description": "This client holds its share of the live episodes"},
    500: {"model": ErrorResponse, "description": "Internal error (logged)"},
    503: {"model": ErrorResponse, "description": "Too many live episodes"},
}


def _error(status: int, kind: str, detail: str, **extra: Any) -> JSONResponse:
    headers = {"Retry-After": "1"} if status == 503 else None
    return JSONResponse({"detail": detail, "error": kind, **extra}, status_code=status, headers=headers)


def _hook_routers(actor: Actor) -> list[APIRouter]:
    routers: list[APIRouter] = []
    for name in ROUTER_HOOKS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        factory = getattr(module, "create_router", None)
        router = factory(actor) if callable(factory) else getattr(module, "router", None)
        if isinstance(router, APIRouter):
            routers.append(router)
    return routers


def _model_key(x_model_api_key: str | None, authorization: str | None, body_key: Any) -> str | None:
    if body_key is not None:
        return body_key.get_secret_value() or None
    if x_model_api_key:
        return x_model_api_key
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None


def create_app(
    actor: Actor | None = None,
    *,
    world: Any = None,
    salt: str | None = None,
    max_episodes: int | None = None,
    extra_routers: Iterable[RouterSpec] = (),
    include_hooks: bool = True,
    scoring: str | None = None,
    max_body_bytes: int | None = None,
    **actor_options: Any,
) -> FastAPI:
    """Build the FastAPI app around ``actor`` (or a new :class:`Actor` from ``world``/``salt``).

    ``extra_routers`` are APIRouters (or ``callable(actor) -> APIRouter``) mounted as given —
    this is where the reference agent's ``/v1/chat/completions`` router plugs in.
    ``max_body_bytes`` bounds request bodies (default ``NAVWORLD_MAX_BODY_BYTES`` or 4 MiB);
    ``actor_options`` go to the :class:`Actor` built when ``actor`` is None (``episode_ttl``,
    ``max_episodes_per_client``, ``limits``, …).
    """
    owned = actor is None
    env = actor if actor is not None else Actor(
        world=world, salt=salt, max_episodes=max_episodes, scoring=scoring, **actor_options
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        if owned:
            await env.aclose()

    app = new_app(  # /docs and /redoc served without a CDN (navworld.server.docs)
        title="navworld",
        version=PACKAGE_VERSION,
        description="Trip-planning agent environment: episodes with step rewards, tools, tasks and evaluation.",
        lifespan=lifespan,
    )
    app.state.actor = env
    install_limits(app, max_body_bytes)  # body limit, 413/429/500 handlers (navworld.server.limits)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
            for e in exc.errors()
        ]
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        where = ".".join(first["loc"][1:] if len(first["loc"]) > 1 else first["loc"]) or "body"
        return _error(422, "invalid_request", f"{where}: {first['msg']}", errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        kinds = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}
        detail = str(exc.detail)
        if isinstance(exc.__cause__, RecursionError):  # FastAPI's JSON parse of a too-deep body
            detail = "the JSON body is nested too deeply"
        response = _error(exc.status_code, kinds.get(exc.status_code, "http_error"), detail)
        for key, value in (exc.headers or {}).items():
            response.headers[key] = value
        return response

    @app.exception_handler(EpisodeNotFound)
    async def _not_found(request: Request, exc: EpisodeNotFound) -> JSONResponse:
        return _error(404, "episode_not_found", str(exc))

    @app.exception_handler(EpisodeStoreFull)
    async def _full(request: Request, exc: EpisodeStoreFull) -> JSONResponse:
        return _error(503, "episode_store_full", str(exc))

    @app.exception_handler(TaskError)
    async def _bad_task(request: Request, exc: TaskError) -> JSONResponse:
        return _error(400, "bad_task", str(exc))

    @app.exception_handler(NavworldError)
    async def _navworld(request: Request, exc: NavworldError) -> JSONResponse:
        return _error(400, type(exc).__name__, str(exc))

    @app.get("/health", response_model=HealthResponse, tags=["meta"])
    async def health() -> dict[str, Any]:
        """Liveness, versions, salt and the episode store's fill."""
        env.store.purge_expired()
        return {
            "status": "ok",
            "versions": versions(),
            "salt": env.salt,
            "world": env.world_name,
            "live_episodes": len(env.store),
            "max_episodes": env.store.max_episodes,
            "occupancy": env.store.occupancy(),
            "limits": {**env.limits.as_dict(), "max_body_bytes": app.state.max_body_bytes},
        }

    @app.get("/tools", response_model=ToolsResponse, tags=["meta"])
    async def tools() -> dict[str, Any]:
        """The six tools as an OpenAI function-tool list."""
        return {"tools": env.tools()}

    @app.get("/tasks/{task_id}", response_model=TaskResponse, responses=_ERRORS, tags=["tasks"])
    async def task(
        task_id: Annotated[int, Path(ge=0, le=MAX_TASK_ID)],
        lang: Annotated[str | None, Query(pattern="^(zh|en)$")] = None,
    ) -> dict[str, Any]:
        """The generated problem of a task (fields, prompt, constraint programs)."""
        problem = env.problem(task_id, lang)
        return {"task_id": task_id, "content_hash": content_hash(problem), "problem": problem.to_dict()}

    @app.post("/reset", response_model=ResetResponse, responses=_ERRORS, tags=["episodes"])
    async def reset(body: ResetRequest, request: Request) -> dict[str, Any]:
        """Start an episode: returns its id, the opening messages and the info (tools, max_steps)."""
        return await env.reset(body.task_id, lang=body.lang, client=client_key(request))

    @app.post("/step", response_model=StepResponse, responses=_ERRORS, tags=["episodes"])
    async def step(body: StepRequest) -> dict[str, Any]:
        """One assistant turn: tool calls are executed and rewarded; no tool calls = final answer, scored."""
        calls = [c.model_dump() for c in body.tool_calls] if body.tool_calls else None
        return await env.step(body.action, body.episode_id, tool_calls=calls)

    @app.post("/evaluate", response_model=EvaluateResponse, responses=_ERRORS, tags=["evaluation"])
    async def evaluate(
        body: EvaluateRequest,
        request: Request,
        x_model_api_key: Annotated[str | None, Header(description="Model API key (never logged)")] = None,
        authorization: Annotated[str | None, Header(include_in_schema=False)] = None,
    ) -> dict[str, Any]:
        """Play and score one whole episode with the given OpenAI-compatible model."""
        return await env.evaluate(
            body.model,
            body.base_url,
            body.task_id,
            timeout=body.timeout,
            temperature=body.temperature,
            api_key=_model_key(x_model_api_key, authorization, body.api_key),
            seed=body.seed,
            max_tokens=body.max_tokens,
            client=client_key(request),
        )

    # HOOK: the reference agent's OpenAI-compatible endpoint (POST /v1/chat/completions) and any
    # other extension routers are mounted here.
    routers: list[APIRouter] = []
    for spec in extra_routers:
        routers.append(spec if isinstance(spec, APIRouter) else spec(env))
    if include_hooks:
        routers.extend(_hook_routers(env))
    for router in routers:
        app.include_router(router)
    return app

"""Pydantic request/response models of the HTTP API (they define ``/openapi.json``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, SecretStr, WithJsonSchema

from navworld.tasks.generator import MAX_TASK_ID

__all__ = [
    "ErrorResponse",
    "EvaluateRequest",
    "EvaluateResponse",
    "FunctionCallIn",
    "HealthResponse",
    "ResetRequest",
    "ResetResponse",
    "StepRequest",
    "StepResponse",
    "TaskResponse",
    "ToolCallIn",
    "ToolsResponse",
]

MAX_ACTION_CHARS = 4_000_000
MAX_TOOL_CALLS = 4096
"""Hard ceilings of the schema; the configurable limits (navworld.env.limits, 413) apply first."""

Message = dict[str, Any]


def _json_integer(value: Any) -> Any:
    """JSON-Schema integers: whole numbers, including ``5.0``; never booleans or strings."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def json_int(minimum: int, maximum: int) -> Any:
    """An integer in [minimum, maximum], validated strictly (no bools, no numeric strings) but
    accepting ``5.0`` as JSON Schema does; its schema uses standard ``minimum``/``maximum``."""
    return Annotated[
        int,
        BeforeValidator(_json_integer),
        Field(ge=minimum, le=maximum),
        WithJsonSchema({"type": "integer", "minimum": minimum, "maximum": maximum}),
    ]


TaskId = json_int(0, MAX_TASK_ID)
Seed = json_int(0, 2**31 - 1)
MaxTokens = json_int(1, 1_000_000)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorResponse(BaseModel):
    """Every 4xx/5xx body: a readable ``detail`` and a machine-readable ``error`` kind."""

    detail: str
    error: str
    errors: list[dict[str, Any]] | None = None


class HealthResponse(BaseModel):
    """``GET /health``."""

    status: Literal["ok"] = "ok"
    versions: dict[str, str]
    salt: str
    world: str
    live_episodes: int
    max_episodes: int
    occupancy: dict[str, Any] = Field(default_factory=dict, description="Episode store fill, shares, TTL, evictions.")
    limits: dict[str, int] = Field(default_factory=dict, description="Size limits in force.")


class ToolsResponse(BaseModel):
    """``GET /tools``: the OpenAI function-tool list."""

    tools: list[dict[str, Any]]


class TaskResponse(BaseModel):
    """``GET /tasks/{task_id}``: the generated problem."""

    task_id: int
    content_hash: str
    problem: dict[str, Any]


class ResetRequest(_Strict):
    """``POST /reset``."""

    task_id: TaskId = Field(description="Task id (deterministic problem).")
    lang: Literal["zh", "en"] | None = Field(default=None, description="Prompt language (default: the server's).")


class ResetResponse(BaseModel):
    """``POST /reset``: the episode id, the opening messages and the episode info."""

    episode_id: str
    observation: list[Message]
    info: dict[str, Any]


class FunctionCallIn(_Strict):
    """The ``function`` part of an OpenAI tool call."""

    name: str = Field(max_length=200)
    arguments: str | dict[str, Any] = Field(default="", description="JSON object text (or an object).")


class ToolCallIn(_Strict):
    """One OpenAI tool call."""

    id: str | None = Field(default=None, max_length=200)
    type: Literal["function"] = "function"
    function: FunctionCallIn


class StepRequest(_Strict):
    """``POST /step``: one assistant turn (tool calls, or the final answer in ``action``)."""

    episode_id: str = Field(min_length=1, max_length=128)
    action: str | None = Field(default="", max_length=MAX_ACTION_CHARS, description="Assistant text.")
    tool_calls: list[ToolCallIn] | None = Field(default=None, max_length=MAX_TOOL_CALLS)


class StepResponse(BaseModel):
    """``POST /step``: new messages, reward, whether the episode ended, and details."""

    observation: list[Message]
    reward: float
    done: bool
    info: dict[str, Any]


class EvaluateRequest(_Strict):
    """``POST /evaluate``: play and score one whole episode with an OpenAI-compatible model."""

    model: str = Field(min_length=1, max_length=300)
    base_url: str = Field(min_length=1, max_length=2000, pattern=r"^https?://[!-~]+$")
    task_id: TaskId
    timeout: float = Field(default=300.0, gt=0, le=7200)
    temperature: float = Field(default=0.7, ge=0, le=2)
    api_key: SecretStr | None = Field(
        default=None, description="Model API key (or header X-Model-Api-Key); never logged or echoed."
    )
    seed: Seed | None = None
    max_tokens: MaxTokens | None = None


class EvaluateResponse(BaseModel):
    """``POST /evaluate``: the Actor.evaluate result."""

    task_name: str
    score: float
    success: bool
    time_taken: float
    error: str | None
    extra: dict[str, Any]

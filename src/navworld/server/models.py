"""Pydantic request/response models of the HTTP API (they define ``/openapi.json``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

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

MAX_TASK_ID = 2**31 - 1
MAX_ACTION_CHARS = 200_000
MAX_TOOL_CALLS = 64

Message = dict[str, Any]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


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

    task_id: int = Field(ge=0, le=MAX_TASK_ID, description="Task id (deterministic problem).")
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
    base_url: str = Field(min_length=1, max_length=2000, pattern=r"^https?://\S+$")
    task_id: int = Field(ge=0, le=MAX_TASK_ID)
    timeout: float = Field(default=300.0, gt=0, le=7200)
    temperature: float = Field(default=0.7, ge=0, le=2)
    api_key: SecretStr | None = Field(
        default=None, description="Model API key (or header X-Model-Api-Key); never logged or echoed."
    )
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    max_tokens: int | None = Field(default=None, ge=1, le=1_000_000)


class EvaluateResponse(BaseModel):
    """``POST /evaluate``: the Actor.evaluate result."""

    task_name: str
    score: float
    success: bool
    time_taken: float
    error: str | None
    extra: dict[str, Any]

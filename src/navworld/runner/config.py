"""The resolved configuration of one evaluation run (saved in ``DIR/run.json``, never secrets).

Secrets are referenced by the *name* of the environment variable that holds them
(``api_key_env``); the value is read at the moment a client is built and is never stored.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from navworld.agents.client import DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_TOKENS
from navworld.core.urls import public_url
from navworld.core.versions import GENERATOR_VERSION, RESULTS_SCHEMA_VERSION, SCORER_VERSION, WORLD_VERSION
from navworld.scoring.config import JUDGE_MAX_TOKENS, JUDGE_RETRIES, JUDGE_TIMEOUT_S

__all__ = [
    "DEFAULT_API_KEY_ENVS",
    "AgentSpec",
    "EvalConfig",
    "JudgeSpec",
    "public_url",
    "versions",
]

DEFAULT_API_KEY_ENVS: tuple[str, ...] = ("NAVWORLD_API_KEY", "OPENAI_API_KEY")
"""Environment variables tried, in order, when no ``--api-key-env`` is given."""


def versions() -> dict[str, Any]:
    """The version stamps that decide whether a stored row is still valid."""
    return {
        "world_version": WORLD_VERSION,
        "generator_version": GENERATOR_VERSION,
        "scorer_version": SCORER_VERSION,
        "schema_version": RESULTS_SCHEMA_VERSION,
    }


class AgentSpec(BaseModel):
    """Which agent plays the episodes."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["reference", "model"] = "reference"
    """``reference`` (the offline planner) or ``model`` (an OpenAI-compatible endpoint)."""
    model: str | None = None
    """Model name sent to the endpoint (``kind == "model"``)."""
    base_url: str | None = None
    """Endpoint base URL, e.g. ``http://127.0.0.1:8000/v1`` (stored without secrets)."""
    api_key_env: str | None = None
    """Name of the environment variable holding the API key (the value is never stored)."""
    temperature: float = 0.7
    """Sampling temperature of the model agent."""
    timeout: float = 300.0
    """Whole-episode timeout in seconds."""
    # -- model-call settings (``navworld eval --max-tokens/--call-timeout/--seed``) --
    max_tokens: int = Field(default=DEFAULT_MAX_TOKENS, ge=1)
    """``max_tokens`` sent on every model call."""
    call_timeout: float = Field(default=DEFAULT_CALL_TIMEOUT, gt=0)
    """Seconds one model call may take (clipped to what is left of the episode's ``timeout``)."""
    seed: int | None = None
    """``seed`` sent on every model call when given (recorded in the agent identity)."""

    def identity(self) -> dict[str, Any]:
        """What distinguishes this agent's results from another agent's (part of the content hash).

        ``max_tokens`` and ``seed`` appear only when they differ from the defaults, so the rows of
        runs made before these settings existed keep their hashes.
        """
        if self.kind == "reference":
            return {"kind": "reference", "name": "reference"}
        out: dict[str, Any] = {
            "kind": "model",
            "model": self.model,
            "base_url": public_url(self.base_url),
            "temperature": self.temperature,
        }
        if self.max_tokens != DEFAULT_MAX_TOKENS:
            out["max_tokens"] = self.max_tokens
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @property
    def label(self) -> str:
        """A short human-readable name (``reference`` or the model name)."""
        return "reference" if self.kind == "reference" else str(self.model)


class JudgeSpec(BaseModel):
    """An optional LLM judge (OpenAI-compatible); without one the score is code-only (max 50)."""

    model_config = ConfigDict(frozen=True)
    models: tuple[str, ...]
    """Judge model names (several → per-dimension median)."""
    base_url: str
    """Judge endpoint base URL (stored without secrets)."""
    api_key_env: str | None = None
    """Name of the environment variable holding the judge's API key."""
    # -- judge-call settings (``navworld eval --judge-timeout/--judge-max-tokens/--judge-retries``) --
    timeout: float = Field(default=JUDGE_TIMEOUT_S, gt=0)
    """Seconds one judge call may take."""
    max_tokens: int = Field(default=JUDGE_MAX_TOKENS, ge=1)
    """``max_tokens`` of a judge call."""
    retries: int = Field(default=JUDGE_RETRIES, ge=0)
    """Retries of a judge call (transient failures, and unparseable replies with a corrective prompt)."""

    def identity(self) -> dict[str, Any]:
        """Part of the content hash: the judge changes the score (``max_tokens`` when not the default)."""
        out: dict[str, Any] = {"models": list(self.models), "base_url": public_url(self.base_url)}
        if self.max_tokens != JUDGE_MAX_TOKENS:
            out["max_tokens"] = self.max_tokens
        return out


class EvalConfig(BaseModel):
    """Everything that defines a batch run. Serialised to ``run.json`` (no secrets inside)."""

    model_config = ConfigDict(frozen=True)
    task_ids: tuple[int, ...]
    """The task ids to run, in order."""
    tasks_spec: str = ""
    """The ``--tasks`` text the ids came from."""
    selection: str = ""
    """Filters applied to the spec (``--types``, ``--difficulty``, ``--limit``), e.g. ``types=hybrid limit=5``."""
    epochs: int = Field(default=1, ge=1)
    """Runs per task (row key: task id and epoch 0..epochs-1)."""
    concurrency: int = Field(default=4, ge=1)
    """Episodes in flight at once."""
    workers: int = Field(default=1, ge=1)
    """Local backend: worker processes (1 = everything on the main event loop; more helps CPU-bound agents)."""
    out: str
    """The run directory."""
    salt: str
    """Resolved salt of the weekly-rotating world facts."""
    world: str = "sandbox"
    """World backend spec (``sandbox``, ``amap``, ``record:DIR``, ``replay:DIR``)."""
    lang: Literal["zh", "en"] = "zh"
    """Prompt language."""
    backend: Literal["local", "ray"] = "local"
    """Where episodes run."""
    ray_address: str | None = None
    """Address of an existing Ray cluster (``None`` → start a local Ray)."""
    agent: AgentSpec = Field(default_factory=AgentSpec)
    """The agent under evaluation."""
    judge: JudgeSpec | None = None
    """The LLM judge, if any."""
    scoring: Literal["s2", "seed"] = "s2"
    """The scoring profile (``navworld.scoring.profile``): ``s2`` (default) or ``seed``."""
    # -- ChinaTravel data (issue 17) ---------------------------------------------------------------
    queries: str | None = None
    """A ChinaTravel query file: the run's problems are its queries (task ids = positions)."""
    profile: Literal["navworld", "chinatravel"] = "navworld"
    """``chinatravel`` adds ChinaTravel's own verdict per row and their metrics to the summary."""

    def public_dict(self) -> dict[str, Any]:
        """The config as JSON-safe data, URLs stripped of secrets, ids shown as the spec."""
        data = self.model_dump(mode="json")
        data["task_ids"] = {"count": len(self.task_ids), "spec": self.tasks_spec}
        if not self.selection:  # keeps the digest of unfiltered runs as it was
            data.pop("selection", None)
        data["agent"]["base_url"] = public_url(self.agent.base_url)
        if self.judge is not None:
            data["judge"]["base_url"] = public_url(self.judge.base_url)
        if self.queries is None and self.profile == "navworld":  # runs without ChinaTravel data keep their digest
            data.pop("queries")
            data.pop("profile")
        return data

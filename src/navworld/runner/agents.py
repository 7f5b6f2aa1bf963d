"""Agents the batch runner can evaluate: a small protocol plus two adapters.

* :class:`EpisodeAgent` — ``await agent.run(problem, world, salt=...)`` → :class:`RunRecord`.
* :class:`ModelAgent` — any OpenAI-compatible model through the agent loop (``navworld.agents.loop``).
* :class:`ReferenceAgentAdapter` — the offline reference planner (``navworld.agents.reference``),
  imported lazily so the runner works (and says clearly what is missing) before it exists.
"""

from __future__ import annotations

import importlib
import inspect
import os
import time
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from navworld.core.errors import ConfigError
from navworld.core.problem import Problem
from navworld.runner.config import DEFAULT_API_KEY_ENVS, AgentSpec, public_url

__all__ = [
    "AgentUnavailable",
    "EpisodeAgent",
    "ModelAgent",
    "ReferenceAgentAdapter",
    "RunRecord",
    "build_agent",
    "name_endpoint",
    "resolve_api_key",
    "wire_model",
]


class AgentUnavailable(ConfigError):
    """The requested agent cannot be built here (e.g. the reference planner is not installed)."""


@dataclass
class RunRecord:
    """What one episode produced, whatever agent played it."""

    trace: list[dict[str, Any]] = field(default_factory=list)
    """The OpenAI chat transcript (DESIGN §3)."""
    answer: str = ""
    """The final answer text."""
    steps: int = 0
    """Model turns (assistant messages)."""
    tool_calls: int = 0
    """Tool calls made."""
    usage: dict[str, int] = field(default_factory=dict)
    """Token usage (``prompt_tokens``, ``completion_tokens``, ``total_tokens``)."""
    seconds: float = 0.0
    """Wall time of the episode."""
    error: str | None = None
    """An infrastructure failure (not the model's fault); such rows are not scored."""
    finish: str | None = None
    """How the episode ended (e.g. ``answered``, ``max_steps``, ``no_final_answer``), if known."""
    truncated: bool = False
    """The final answer was cut at ``max_tokens`` (``finish_reason: "length"``)."""

    @classmethod
    def coerce(cls, obj: Any) -> RunRecord:
        """Build a record from a dataclass, pydantic model, mapping or a record already."""
        if isinstance(obj, RunRecord):
            return obj
        if hasattr(obj, "model_dump"):
            data = obj.model_dump()
        elif isinstance(obj, dict):
            data = dict(obj)
        else:
            data = {name: getattr(obj, name) for name in dir(obj) if not name.startswith("_")}
        trace = data.get("trace") or data.get("messages") or data.get("conversation") or []
        if not isinstance(trace, list):
            trace = list(trace)
        trace = [m.model_dump() if hasattr(m, "model_dump") else dict(m) for m in trace]
        usage = data.get("usage") or {}
        if hasattr(usage, "model_dump"):
            usage = usage.model_dump()
        tool_calls = data.get("tool_calls")
        if isinstance(tool_calls, list):
            tool_calls = len(tool_calls)
        if tool_calls is None:
            tool_calls = sum(len(m.get("tool_calls") or []) for m in trace if m.get("role") == "assistant")
        steps = data.get("steps")
        if isinstance(steps, list):
            steps = len(steps)
        if steps is None:
            steps = sum(1 for m in trace if m.get("role") == "assistant")
        error = data.get("error")
        return cls(
            trace=trace,
            answer=str(data.get("answer") or ""),
            steps=int(steps),
            tool_calls=int(tool_calls),
            usage={str(k): int(v) for k, v in dict(usage).items() if isinstance(v, int | float)},
            seconds=float(data.get("seconds") or data.get("time_taken") or 0.0),
            error=str(error) if error else None,
            finish=str(data["finish"]) if data.get("finish") else None,
            truncated=data.get("truncated") is True,
        )


@runtime_checkable
class EpisodeAgent(Protocol):
    """Plays one episode of a problem against a world."""

    name: str
    """A short label for tables and reports."""

    async def run(self, problem: Problem, world: Any, *, salt: str) -> RunRecord:
        """Play the episode and return its record (never raises for the model's own failures)."""
        ...


REFERENCE_MODEL = "navworld-reference"
"""The reference endpoint's model name (``navworld serve``); ``@<salt>`` makes it plan on that salt."""


def wire_model(model: str, salt: str) -> str:
    """The model name sent to the endpoint: ``navworld-reference`` gains the run's salt.

    >>> wire_model("navworld-reference", "2900"), wire_model("qwen3-8b", "2900")
    ('navworld-reference@2900', 'qwen3-8b')
    """
    return f"{REFERENCE_MODEL}@{salt}" if model == REFERENCE_MODEL and salt else model


def name_endpoint(error: str, model: str, base_url: str) -> str:
    """``error`` with the model and endpoint named (once), so a row says *which* endpoint failed.

    >>> name_endpoint("connection: Connection error.", "m", "http://127.0.0.1:9/v1")
    'connection: Connection error. [model m at http://127.0.0.1:9/v1]'
    """
    url = public_url(base_url) or base_url
    if url in error:
        return error
    return f"{error} [model {model} at {url}]"


def resolve_api_key(env_name: str | None) -> str | None:
    """Read an API key from the named environment variable, or from the default chain.

    The value is returned to the caller that builds a client and is never logged or stored.
    """
    names = (env_name,) if env_name else DEFAULT_API_KEY_ENVS
    for name in names:
        value = os.environ.get(name or "", "").strip()
        if value:
            return value
    return None


async def _maybe_await(value: Any) -> Any:
    if inspect.isawaitable(value):
        return await value
    return value


class ModelAgent:
    """An OpenAI-compatible model driven by the agent loop (``navworld.agents.loop``).

    Args:
        model: model name at the endpoint.
        base_url: the endpoint's base URL (``…/v1``).
        api_key: the key (from the environment; never stored). ``None`` → a placeholder, which
            local servers accept.
        temperature: sampling temperature.
        timeout: whole-episode timeout in seconds.
        loop_options: passed to ``navworld.agents.loop.run_episode`` (``max_tokens``,
            ``call_timeout``, ``seed``, ``stream``, ...).
    """

    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: str | None = None,
        temperature: float = 0.7,
        timeout: float = 300.0,
        **loop_options: Any,
    ) -> None:
        self.model = model
        self.base_url = base_url
        self._api_key = api_key
        self.temperature = temperature
        self.timeout = timeout
        self.loop_options = loop_options
        self.name = model

    def __repr__(self) -> str:
        return f"ModelAgent(model={self.model!r}, base_url={self.base_url!r})"

    async def run(self, problem: Problem, world: Any, *, salt: str) -> RunRecord:
        """Run the agent loop on ``problem`` and return its record."""
        try:
            loop_mod = importlib.import_module("navworld.agents.loop")
        except ModuleNotFoundError as exc:  # pragma: no cover - only while the loop is absent
            raise AgentUnavailable(f"the agent loop is not available ({exc.name})") from None
        runner = getattr(loop_mod, "run_episode", None) or loop_mod.run_agent
        started = time.perf_counter()
        result = await _maybe_await(
            runner(
                problem,
                world,
                model=wire_model(self.model, salt),
                base_url=self.base_url,
                api_key=self._api_key or "EMPTY",
                temperature=self.temperature,
                timeout=self.timeout,
                **self.loop_options,
            )
        )
        record = RunRecord.coerce(result)
        if not record.seconds:
            record.seconds = time.perf_counter() - started
        if record.error:
            record.error = name_endpoint(record.error, self.model, self.base_url)
        return record

    async def aclose(self) -> None:
        """Close the HTTP clients the agent loop keeps for this event loop."""
        try:
            from navworld.agents.client import aclose_shared_clients
        except ImportError:  # pragma: no cover
            return
        await aclose_shared_clients()


class ReferenceAgentAdapter:
    """The deterministic reference planner (``navworld.agents.reference.ReferencePlanner``).

    The planner is imported lazily; until it exists, construction raises :class:`AgentUnavailable`
    with a clear message. The adapter accepts the planner's natural shapes: an ``arun`` or ``run``
    method (async or not) taking ``(problem, world)`` and optionally ``salt=``, returning a record
    with ``trace``/``answer`` (and optionally ``steps``, ``tool_calls``, ``usage``, ``seconds``,
    ``error``) as an object, a pydantic model or a dict.
    """

    name = "reference"

    def __init__(self) -> None:
        try:
            module = importlib.import_module("navworld.agents.reference")
            planner_cls = module.ReferencePlanner
        except (ModuleNotFoundError, AttributeError):
            raise AgentUnavailable(
                "the reference agent (navworld.agents.reference.ReferencePlanner) is not available in this "
                "install yet; use --model M --base-url URL to evaluate a model"
            ) from None
        self._planner = planner_cls()
        method = getattr(self._planner, "arun", None) or getattr(self._planner, "run", None)
        if method is None:
            raise AgentUnavailable("ReferencePlanner has neither arun() nor run()")
        self._method = method
        try:
            params = inspect.signature(method).parameters
        except (TypeError, ValueError):  # pragma: no cover - builtins
            params = {}  # type: ignore[assignment]
        self._takes_salt = "salt" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())

    async def run(self, problem: Problem, world: Any, *, salt: str) -> RunRecord:
        """Plan ``problem`` through the tools and return the record."""
        started = time.perf_counter()
        kwargs = {"salt": salt} if self._takes_salt else {}
        result = await _maybe_await(self._method(problem, world, **kwargs))
        record = RunRecord.coerce(result)
        if not record.seconds:
            record.seconds = time.perf_counter() - started
        return record


def build_agent(spec: AgentSpec, api_key: str | None = None) -> EpisodeAgent:
    """Build the agent a spec describes.

    The API key is ``api_key`` when given (Ray workers), else read from the environment here.
    """
    if spec.kind == "reference":
        return ReferenceAgentAdapter()
    if not spec.model or not spec.base_url:
        raise ConfigError("--model and --base-url are both required for a model agent")
    return ModelAgent(
        spec.model,
        spec.base_url,
        api_key=api_key or resolve_api_key(spec.api_key_env),
        temperature=spec.temperature,
        timeout=spec.timeout,
        max_tokens=spec.max_tokens,
        call_timeout=spec.call_timeout,
        seed=spec.seed,
    )

"""Executing one assistant turn's tool calls through the shared tool registry.

Every call goes through ``navworld.tools.registry.call_tool`` (which never raises: bad JSON,
schema violations, unknown tools, unknown cities and budget overruns come back as readable
error results the model reads). A result marked ``infra`` (backend down, quota exhausted) ends
the batch: the remaining calls are answered with the same error, and the episode is reported as
an infrastructure failure by the loop.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from navworld.agents.messages import MAX_CALLS_PER_STEP, duplicate_id_text, too_many_calls_text, tool_message
from navworld.core.models import ToolResult

__all__ = ["CallToolExecutor", "ToolBatch", "ToolExecutor", "safe_call_tool"]

log = logging.getLogger(__name__)


@dataclass
class ToolBatch:
    """What executing one assistant turn's tool calls produced.

    ``messages`` answers every call in order; ``infra_error`` is set when a tool failed for
    reasons outside the model's control (backend down, quota), which ends the episode as an
    infrastructure failure; ``rewards`` holds per-call step rewards when the executor computes them.
    """

    messages: list[dict[str, Any]]
    infra_error: str | None = None
    rewards: list[float] = field(default_factory=list)


class ToolExecutor(Protocol):
    """Runs one assistant turn's (normalised) tool calls."""

    async def __call__(self, tool_calls: list[dict[str, Any]]) -> ToolBatch:
        """Execute the calls and return their tool messages."""
        ...


async def safe_call_tool(
    name: str, arguments: str | dict[str, Any], world: Any, budget: Any, default_date: str | None
) -> ToolResult:
    """``call_tool`` with a last-resort guard: an unexpected exception becomes an infra result."""
    from navworld.tools.registry import call_tool

    try:
        return await call_tool(name, arguments, world, budget=budget, default_date=default_date)
    except Exception as exc:  # call_tool must never raise; if it does, it is not the model's fault
        log.exception("tool %r raised", name)
        return ToolResult(
            ok=False,
            text=f"错误：工具 {name} 执行失败（{type(exc).__name__}）",
            error=f"{type(exc).__name__}: {exc}",
            infra=True,
        )


class CallToolExecutor:
    """Runs tool calls against ``world`` with one per-episode budget.

    Args:
        world: the world backend.
        budget: the episode's ``ToolBudget`` (a fresh one when None).
        default_date: date used by tools whose ``date`` argument is omitted (the travel date).
        lang: language of the executor's own messages (``zh`` or ``en``).
        max_calls: calls executed per turn; later ones are answered with an error.
    """

    def __init__(
        self,
        world: Any,
        budget: Any | None = None,
        default_date: str | None = None,
        lang: str = "zh",
        max_calls: int = MAX_CALLS_PER_STEP,
    ) -> None:
        if budget is None:
            from navworld.tools.budget import ToolBudget

            budget = ToolBudget()
        self.world = world
        self.budget = budget
        self.default_date = default_date
        self.lang = lang
        self.max_calls = max_calls
        self.seen_ids: set[str] = set()
        """Tool-call ids already used in this episode (a repeated id is an error result, not run)."""

    async def run(self, tool_calls: list[dict[str, Any]]) -> tuple[ToolBatch, list[ToolResult | None]]:
        """Execute normalised calls; return the batch and each call's result (None if not run)."""
        messages: list[dict[str, Any]] = []
        results: list[ToolResult | None] = []
        infra: ToolResult | None = None
        for index, call in enumerate(tool_calls):
            if infra is not None:
                messages.append(tool_message(call["id"], infra.text))
                results.append(None)
                continue
            if index >= self.max_calls:
                messages.append(tool_message(call["id"], too_many_calls_text(self.lang, self.max_calls)))
                results.append(None)
                continue
            if call["id"] in self.seen_ids:
                text = duplicate_id_text(self.lang, str(call["id"]))
                messages.append(tool_message(call["id"], text))
                results.append(ToolResult(ok=False, text=text, error="duplicate tool_call_id"))
                continue
            self.seen_ids.add(call["id"])
            fn = call["function"]
            result = await safe_call_tool(fn["name"], fn["arguments"], self.world, self.budget, self.default_date)
            messages.append(tool_message(call["id"], result.text))
            results.append(result)
            if result.infra:
                infra = result
        error = (infra.error or infra.text) if infra is not None else None
        return ToolBatch(messages=messages, infra_error=error), results

    async def __call__(self, tool_calls: list[dict[str, Any]]) -> ToolBatch:
        """Execute the calls and return their tool messages (the loop's executor protocol)."""
        batch, _ = await self.run(tool_calls)
        return batch

"""The agent loop: the standard assistant(tool_calls) → tool → assistant state machine.

Phase 1: the model is called with the tools; every assistant turn with tool calls is one
*step*; its calls are executed (through the :class:`ToolExecutor`) and answered with tool
messages. At most :data:`MAX_TOOL_STEPS` steps run. Phase 2: when the model stops without a
sufficient answer (empty or < 200 chars) or uses up its steps, a final-answer prompt (in the
problem's language) is sent with tools off, once.

The outcome is an :class:`EpisodeRun`: the full transcript (system and user included), the
answer, counts, token usage, and either ``error`` (infrastructure: not the model's fault, never
scored) or ``model_failure`` (context overflow, no final answer, timeout: scored as such).

**Time is the model's once the server has answered.** The episode's ``timeout`` bounds every
call (each is cut at the deadline). A call that runs out of time after the endpoint answered in
this episode (an earlier call succeeded, or tokens of this call arrived) ends the run as the
model failure ``timeout``: it is scored on the work done so far (the partial text of the cut
call included) instead of being thrown away as an infrastructure error. Only an endpoint that
never answered in the episode makes a timeout an infrastructure ``error``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from navworld.agents.chat_errors import NO_REDISPATCH_KINDS
from navworld.agents.client import (
    DEFAULT_CALL_TIMEOUT,
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    DEFAULT_RETRY_BACKOFF,
    ChatClient,
    ChatError,
    ContextOverflowError,
    Usage,
)
from navworld.agents.executor import CallToolExecutor, ToolBatch, ToolExecutor
from navworld.agents.messages import (
    MAX_TOOL_STEPS,
    assistant_message,
    final_answer_prompt,
    is_sufficient_answer,
    normalize_tool_calls,
    opening_messages,
)

__all__ = [
    "FINISH_REASONS",
    "MAX_TOOL_STEPS",
    "EpisodeRun",
    "ToolBatch",
    "ToolExecutor",
    "run_agent_loop",
    "run_episode",
]

log = logging.getLogger(__name__)

FINISH_REASONS = (
    "answered",  # a sufficient natural answer in phase 1
    "final_prompt",  # the answer came after the final-answer prompt (phase 1 answer missing/short)
    "max_steps",  # the step limit forced the final-answer prompt
    "no_final_answer",  # model failure: no text at all, even after the final-answer prompt
    "context_overflow",  # model failure: the conversation outgrew the context window
    "timeout",  # model failure: the episode's time ran out after the endpoint had answered
    "error",  # infrastructure failure (see EpisodeRun.error)
)


@dataclass
class EpisodeRun:
    """The record of one agent-loop run."""

    trace: list[dict[str, Any]]
    answer: str = ""
    steps: int = 0
    tool_calls: int = 0
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    finish: str = "answered"
    error: str | None = None
    model_failure: str | None = None
    model_calls: int = 0
    http_attempts: int = 0
    last_finish_reason: str | None = None
    step_rewards: list[float] = field(default_factory=list)
    dispatches: int = 1
    error_kind: str | None = None
    truncated: bool = False
    """The final answer was cut at ``max_tokens`` (its call ended with ``finish_reason: "length"``)."""
    redispatch: bool = field(default=True, repr=False, compare=False)
    """Whether playing the episode again may help (False after deterministic errors and timeouts)."""

    @property
    def ok(self) -> bool:
        """True unless an infrastructure error ended the run (model failures are 'ok' to score)."""
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (the trace included)."""
        return {
            "answer": self.answer,
            "steps": self.steps,
            "tool_calls": self.tool_calls,
            "usage": self.usage.to_dict(),
            "seconds": round(self.seconds, 4),
            "finish": self.finish,
            "error": self.error,
            "model_failure": self.model_failure,
            "model_calls": self.model_calls,
            "http_attempts": self.http_attempts,
            "last_finish_reason": self.last_finish_reason,
            "step_rewards": list(self.step_rewards),
            "dispatches": self.dispatches,
            "error_kind": self.error_kind,
            "truncated": self.truncated,
            "trace": self.trace,
        }

    def model_dump(self) -> dict[str, Any]:
        """Pydantic-style alias of :meth:`to_dict` (for consumers that coerce records generically)."""
        return self.to_dict()


async def run_agent_loop(
    client: ChatClient,
    model: str,
    messages: list[dict[str, Any]],
    *,
    tools: list[dict[str, Any]],
    execute: ToolExecutor,
    lang: str = "zh",
    max_steps: int = MAX_TOOL_STEPS,
    temperature: float | None = 0.7,
    max_tokens: int | None = None,
    seed: int | None = None,
    deadline: float | None = None,
) -> EpisodeRun:
    """Run the two-phase loop until a final answer, a model failure or an infra error.

    Args:
        client: the chat client of the model under test.
        model: model name sent to the endpoint.
        messages: the opening messages (system, user); copied, not mutated.
        tools: OpenAI function-tool list offered in phase 1.
        execute: runs one turn's tool calls.
        lang: language of the final-answer prompt (``zh`` or ``en``).
        max_steps: tool steps allowed (default 15).
        temperature, max_tokens, seed: sampling parameters passed to every call.
        deadline: ``time.monotonic()`` instant at which the run stops: a model failure
            ``timeout`` once the endpoint has answered, else ``error="timeout: ..."``.

    Never raises for model or endpoint problems; they are recorded on the returned run.
    """
    started = time.monotonic()
    run = EpisodeRun(trace=[dict(m) for m in messages])
    # Model calls are cut at the deadline by the client itself; this backstop (a little later)
    # only bounds what the client does not see, such as a tool backend that hangs.
    remaining = None if deadline is None else deadline - started + BACKSTOP_GRACE_SECONDS
    try:
        async with asyncio.timeout(remaining):
            await _drive(run, client, model, tools, execute, lang, max_steps, temperature, max_tokens, seed, deadline)
    except TimeoutError:
        run.error = "timeout: the episode exceeded its time limit (outside a model call)"
        run.error_kind = "timeout"
        run.finish = "error"
        run.redispatch = False
    run.seconds = time.monotonic() - started
    return run


BACKSTOP_GRACE_SECONDS = 2.0
"""How long after the deadline the loop's own backstop cuts a run the client did not cut."""


def _fail(run: EpisodeRun, exc: ChatError, last_text: str) -> None:
    """End ``run`` as an infrastructure error (the endpoint never gave the model's turn)."""
    run.error = f"{exc.kind}: {exc.message}"
    run.error_kind = exc.kind
    run.answer = last_text
    run.finish = "error"
    run.redispatch = exc.redispatch


def _time_out(run: EpisodeRun, exc: ChatError, last_text: str, truncated: bool) -> None:
    """End ``run`` on a timeout: the model's failure once the endpoint had answered, else infra."""
    if run.model_calls == 0 and not exc.produced:
        _fail(run, exc, last_text)
        return
    partial = exc.partial.strip()
    if partial:  # the cut call's text is the model's work too
        run.trace.append(assistant_message(exc.partial))
    run.model_failure = "timeout"
    run.finish = "timeout"
    if partial and len(partial) >= len(last_text.strip()):
        run.answer, run.truncated = exc.partial, False
    else:
        run.answer, run.truncated = last_text, truncated


async def _drive(
    run: EpisodeRun,
    client: ChatClient,
    model: str,
    tools: list[dict[str, Any]],
    execute: ToolExecutor,
    lang: str,
    max_steps: int,
    temperature: float | None,
    max_tokens: int | None,
    seed: int | None,
    deadline: float | None,
) -> None:
    """The state machine proper; records everything on ``run``."""
    trace = run.trace
    phase = 1
    forced = False  # phase 2 entered because the step limit was reached
    last_text = ""
    last_truncated = False  # last_text came from a call cut at max_tokens

    while True:
        tools_on = phase == 1
        try:
            result = await client.complete(
                model,
                trace,
                tools=tools if tools_on else None,
                temperature=temperature,
                max_tokens=max_tokens,
                seed=seed,
                deadline=deadline,
            )
        except ContextOverflowError as exc:
            run.http_attempts += exc.attempts
            run.model_failure = "context_overflow"
            run.answer = last_text
            run.truncated = last_truncated
            run.finish = "context_overflow"
            return
        except ChatError as exc:
            run.http_attempts += exc.attempts
            if exc.kind == "timeout":
                _time_out(run, exc, last_text, last_truncated)
                return
            _fail(run, exc, last_text)
            return
        run.model_calls += 1
        run.http_attempts += result.attempts
        run.usage.add(result.usage)
        run.last_finish_reason = result.finish_reason
        content = result.content
        cut = result.finish_reason == "length"
        calls = normalize_tool_calls(result.tool_calls, prefix=f"call_{run.steps}")

        if tools_on and calls:
            # The transcript keeps the turn as the model sent it; what goes back to the endpoint is
            # shaped by wire_messages ("" for a null content, which llama-cpp-python rejects).
            trace.append(assistant_message(result.message.get("content"), calls))
            batch = await execute(calls)
            trace.extend(batch.messages)
            run.steps += 1
            run.tool_calls += len(calls)
            run.step_rewards.extend(batch.rewards)
            if batch.infra_error:
                run.error = f"tool_infra: {batch.infra_error}"
                run.error_kind = "tool_infra"
                run.finish = "error"
                return
            if run.steps >= max_steps:
                phase, forced = 2, True
                trace.append({"role": "user", "content": final_answer_prompt(lang)})
            continue

        # A turn without (usable) tool calls: its text is a candidate final answer. Tool calls
        # sent while tools are off cannot be answered, so they are dropped from the transcript.
        if calls:
            log.debug("model %s sent tool calls with tools off; ignored", model)
        trace.append(assistant_message(content))
        if content.strip():
            last_text, last_truncated = content, cut
        if is_sufficient_answer(content):
            run.answer, run.truncated = content, cut
            run.finish = "answered" if phase == 1 else ("max_steps" if forced else "final_prompt")
            return
        if phase == 1:
            phase = 2
            trace.append({"role": "user", "content": final_answer_prompt(lang)})
            continue
        run.answer, run.truncated = last_text, last_truncated
        if not last_text.strip():
            run.model_failure = "no_final_answer"
            run.finish = "no_final_answer"
        else:
            run.finish = "max_steps" if forced else "final_prompt"
        return


MIN_REDISPATCH_SECONDS = 1.0
"""A whole-episode re-dispatch starts only if at least this much of the time limit is left."""


async def run_episode(
    problem: Any,
    world: Any,
    *,
    model: str,
    base_url: str,
    api_key: str | None = None,
    temperature: float | None = 0.7,
    timeout: float = 300.0,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    seed: int | None = None,
    call_timeout: float = DEFAULT_CALL_TIMEOUT,
    max_retries: int = DEFAULT_MAX_RETRIES,
    retry_backoff: float = DEFAULT_RETRY_BACKOFF,
    stream: bool | None = None,
    executor_factory: Any | None = None,
    redispatch: bool = True,
    tools: list[dict[str, Any]] | None = None,
) -> EpisodeRun:
    """Play one whole episode of ``problem`` with an OpenAI-compatible model.

    ``timeout`` bounds the whole call (both dispatches). On an infrastructure failure that a
    second try may cure (a connection failure, a 5xx or 429 that outlived its retries, a stream
    cut after visible content, a tool backend failure; not a deterministic error such as a
    rejected key, an unknown model or a request the server finds invalid, and not a timeout
    of a non-streamed call, which would only queue behind the work the server is still doing;
    a timeout after the endpoint answered is the model's failure and is scored) the episode is
    re-dispatched once from scratch (same problem, same world and salt, a fresh tool
    budget) if time is left; the returned run is the last attempt's, with ``usage`` summed over
    attempts and ``dispatches`` counting them. ``executor_factory()`` builds each attempt's tool
    executor (default: :class:`CallToolExecutor` on ``world`` with a fresh budget).
    """
    started = time.monotonic()
    deadline = started + float(timeout)
    if tools is None:
        from navworld.tools.registry import openai_tools

        tools = openai_tools()
    client = ChatClient(
        base_url,
        api_key,
        call_timeout=call_timeout,
        max_retries=max_retries,
        retry_backoff=retry_backoff,
        stream=stream,
    )
    lang = getattr(problem, "lang", "zh")

    def default_executor() -> ToolExecutor:
        return CallToolExecutor(world, default_date=getattr(problem, "travel_date", None) or None, lang=lang)

    make_executor = executor_factory or default_executor
    usage = Usage()
    dispatches = 0
    while True:
        dispatches += 1
        run = await run_agent_loop(
            client,
            model,
            opening_messages(getattr(problem, "system_prompt", ""), problem.prompt),
            tools=tools,
            execute=make_executor(),
            lang=lang,
            temperature=temperature,
            max_tokens=max_tokens,
            seed=seed,
            deadline=deadline,
        )
        usage.add(run.usage)
        if (
            run.ok
            or not redispatch
            or dispatches >= 2
            or not run.redispatch
            or run.error_kind in NO_REDISPATCH_KINDS
            or deadline - time.monotonic() < MIN_REDISPATCH_SECONDS
        ):
            break
        log.warning("episode of task %s hit an infra failure (%s); re-dispatching once", problem.task_id, run.error)
    run.usage = usage
    run.dispatches = dispatches
    run.seconds = time.monotonic() - started
    return run

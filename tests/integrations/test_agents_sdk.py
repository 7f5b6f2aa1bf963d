"""The OpenAI Agents SDK with its defaults (Responses API) plays a task end to end: the model is
the reference agent at ``navworld serve``'s ``/v1/responses``, the tools come from a real
``navworld mcp`` stdio subprocess, and the answer scores what ``navworld eval --agent reference`` gives."""

from __future__ import annotations

from typing import Any

import pytest

from navworld.scoring.scorer import TravelScorer
from navworld.server.responses_items import input_messages
from navworld.tasks.generator import ProblemGenerator
from navworld.tools.registry import TOOL_NAMES
from navworld.world.sandbox import SandboxWorld

from .support import NAVWORLD, SALT, child_env, needs

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), needs("agents")]

TASK = 3


@pytest.mark.parametrize("streamed", [False, True])
async def test_agents_sdk_default_settings_one_task(reference_server: Any, world: SandboxWorld,
                                                    eval_scores: dict[int, float],
                                                    monkeypatch: pytest.MonkeyPatch, streamed: bool) -> None:
    from agents.mcp import MCPServerStdio
    from openai import AsyncOpenAI

    from agents import Agent, Runner, set_default_openai_client, set_tracing_disabled

    # Defaults, pointed at 127.0.0.1: the SDK's own client reads these variables.
    monkeypatch.setenv("OPENAI_BASE_URL", reference_server.url + "/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "unused-locally")
    set_tracing_disabled(True)  # the trace exporter would call the network
    # The SDK caches its default client on the first event loop; hand it a fresh default one
    # (built from the same variables) for this test's loop.
    set_default_openai_client(AsyncOpenAI(), use_for_tracing=False)
    problem = ProblemGenerator(world).generate(TASK)
    params = {"command": NAVWORLD[0], "args": [*NAVWORLD[1:], "mcp"], "env": child_env()}
    async with MCPServerStdio(params=params, client_session_timeout_seconds=60, name="navworld") as tools:
        listed = await tools.list_tools()
        assert [t.name for t in listed] == list(TOOL_NAMES)
        agent = Agent(name="trip planner", instructions=problem.system_prompt, model="navworld-reference",
                      mcp_servers=[tools])
        if streamed:
            result = Runner.run_streamed(agent, problem.prompt, max_turns=30)
            kinds = {event.type async for event in result.stream_events()}
            assert "raw_response_event" in kinds
        else:
            result = await Runner.run(agent, problem.prompt, max_turns=30)
    answer = result.final_output
    assert isinstance(answer, str) and "```json" in answer
    trace = input_messages(problem.system_prompt, result.to_input_list())
    assert trace[-1] == {"role": "assistant", "content": answer}
    called = {c["function"]["name"] for m in trace for c in m.get("tool_calls", [])}
    assert called and called <= set(TOOL_NAMES)
    score = TravelScorer(salt=SALT).score(problem, trace, answer).total
    assert score == eval_scores[TASK]

"""The two-phase agent loop against scripted models served over real HTTP."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from navworld.agents.client import ChatClient
from navworld.agents.executor import ToolBatch
from navworld.agents.fake import (
    GroundedPlanner,
    Reply,
    always_tools,
    context_overflow_after,
    empty_content,
    hang_first,
)
from navworld.agents.fake_server import FakeModelServer, start_fake_server
from navworld.agents.loop import MAX_TOOL_STEPS, run_agent_loop
from navworld.agents.messages import final_answer_prompt, tool_message

CITIES = ["上海", "杭州"]
OPENING = [
    {"role": "system", "content": "你是旅行规划助手。"},
    {"role": "user", "content": "我从上海出发，2025-05-01 去杭州玩3天，请帮我规划行程。"},
]
TOOLS = [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in ("poi_search", "weather")]


class CannedExecutor:
    """Answers every call with a small result holding coordinates (or a marked infra failure)."""

    def __init__(self, infra_on: str | None = None) -> None:
        self.batches: list[list[dict[str, Any]]] = []
        self.infra_on = infra_on

    async def __call__(self, tool_calls: list[dict[str, Any]]) -> ToolBatch:
        self.batches.append(tool_calls)
        n = len(self.batches)
        infra = None
        messages = []
        for i, call in enumerate(tool_calls):
            name = call["function"]["name"]
            if name == self.infra_on:
                infra = "backend down"
            messages.append(tool_message(call["id"], f"{name} 结果{n}-{i} 坐标 120.15{i}1,30.27{i}2 价格 100元"))
        return ToolBatch(messages=messages, infra_error=infra, rewards=[0.5])


def short_then_text(request: Any) -> Reply:
    """Answers briefly until the final-answer prompt arrives, then at length."""
    if request.conversation.final_prompt_sent:
        return Reply(content="完整方案：" + "第1天游览西湖。" * 40)
    return Reply(content="好的。")


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeModelServer]:
    planner = GroundedPlanner(cities=CITIES)
    scripts = {
        "planner": planner,
        "short": GroundedPlanner(cities=CITIES, short_first=True),
        "brief": short_then_text,
        "never": always_tools(),
        "stubborn": always_tools(stubborn=True),
        "empty": empty_content(),
        "overflow": context_overflow_after(planner, 2),
        "hang": hang_first(planner, 3.0, times=100),
    }
    with start_fake_server(scripts) as server:
        yield server


async def run(fake: FakeModelServer, model: str, executor: CannedExecutor | None = None, **kw: Any):
    client = ChatClient(fake.base_url, retry_backoff=0.01, call_timeout=kw.pop("call_timeout", 10))
    executor = executor or CannedExecutor()
    result = await run_agent_loop(client, model, OPENING, tools=TOOLS, execute=executor, **kw)
    return result, executor


def assert_valid_transcript(trace: list[dict[str, Any]]) -> None:
    """Every assistant tool call is answered, in order, by the tool messages that follow it."""
    i = 0
    while i < len(trace):
        msg = trace[i]
        if msg["role"] == "assistant" and msg.get("tool_calls"):
            ids = [c["id"] for c in msg["tool_calls"]]
            answers = [m["tool_call_id"] for m in trace[i + 1 : i + 1 + len(ids)]]
            assert answers == ids
            for call in msg["tool_calls"]:
                assert call["type"] == "function" and isinstance(call["function"]["arguments"], str)
            i += len(ids)
        i += 1


def requests_for(fake: FakeModelServer, model: str) -> list[dict[str, Any]]:
    return [r for r in fake.requests if r["model"] == model]


async def test_planner_answers_after_tool_steps(fake: FakeModelServer) -> None:
    result, executor = await run(fake, "planner", temperature=0.2, max_tokens=512, seed=3)
    assert result.ok and result.finish == "answered" and result.model_failure is None
    assert result.steps == 3 and result.tool_calls == 3 + 3 + 2
    assert len(executor.batches) == 3
    assert result.trace[:2] == OPENING
    assert result.trace[-1] == {"role": "assistant", "content": result.answer}
    assert len(result.answer) >= 200 and "杭州" in result.answer
    assert result.usage.requests == result.model_calls == 4
    assert result.step_rewards == [0.5, 0.5, 0.5]
    assert_valid_transcript(result.trace)
    sent = requests_for(fake, "planner")[-1]
    assert (sent["temperature"], sent["max_tokens"], sent["seed"]) == (0.2, 512, 3)


async def test_short_answer_triggers_final_prompt_with_tools_off(fake: FakeModelServer) -> None:
    result, _ = await run(fake, "short")
    assert result.ok and result.finish == "final_prompt"
    prompts = [m for m in result.trace if m["role"] == "user"]
    assert prompts[-1]["content"] == final_answer_prompt("zh")
    assert requests_for(fake, "short")[-1]["tools"] is False
    assert len(result.answer) >= 200


async def test_final_prompt_in_english(fake: FakeModelServer) -> None:
    result, _ = await run(fake, "brief", lang="en")
    assert result.finish == "final_prompt"
    assert result.trace[-2] == {"role": "user", "content": final_answer_prompt("en")}


async def test_model_that_never_stops_is_cut_at_step_limit(fake: FakeModelServer) -> None:
    result, executor = await run(fake, "never")
    assert result.ok and result.finish == "max_steps" and result.model_failure is None
    assert result.steps == MAX_TOOL_STEPS == len(executor.batches)
    reqs = requests_for(fake, "never")[-(MAX_TOOL_STEPS + 1) :]
    assert [r["tools"] for r in reqs] == [True] * MAX_TOOL_STEPS + [False]
    assert result.answer and result.model_calls == MAX_TOOL_STEPS + 1
    assert_valid_transcript(result.trace)


async def test_stubborn_model_has_no_final_answer(fake: FakeModelServer) -> None:
    result, _ = await run(fake, "stubborn")
    assert result.ok and result.finish == "no_final_answer" and result.model_failure == "no_final_answer"
    assert result.answer == ""
    assert_valid_transcript(result.trace)  # tool calls sent with tools off are not left dangling


async def test_empty_content_is_a_model_failure(fake: FakeModelServer) -> None:
    result, _ = await run(fake, "empty")
    assert result.ok and result.model_failure == "no_final_answer" and result.steps == 0
    assert result.model_calls == 2  # the natural turn + the final-answer prompt


async def test_context_overflow_is_a_model_failure(fake: FakeModelServer) -> None:
    result, _ = await run(fake, "overflow")
    assert result.ok and result.finish == "context_overflow" and result.model_failure == "context_overflow"
    assert result.steps == 1


async def test_infra_tool_failure_ends_the_run_as_error(fake: FakeModelServer) -> None:
    result, _ = await run(fake, "planner", executor=CannedExecutor(infra_on="weather"))
    assert not result.ok and result.error.startswith("tool_infra") and result.finish == "error"


async def test_deadline_turns_into_timeout_error(fake: FakeModelServer) -> None:
    started = time.monotonic()
    result, _ = await run(fake, "hang", deadline=time.monotonic() + 0.4)
    assert result.error and result.error.startswith("timeout") and result.finish == "error"
    assert time.monotonic() - started < 2.5


async def test_opening_messages_are_not_mutated(fake: FakeModelServer) -> None:
    before = [dict(m) for m in OPENING]
    await run(fake, "planner")
    assert before == OPENING

"""The OpenAI chat-completions adapter of the reference planner, without HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest

from navworld.agents.reference import MODEL_NAME, ReferencePlanner
from navworld.agents.reference.protocol import ProtocolError, ReferenceProtocol, find_task, stream_chunks
from navworld.tools.registry import call_tool, openai_tools

from .conftest import with_marker


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("请规划行程\n任务编号：T42", (42, "zh")),
        ("任务编号: T7", (7, "zh")),
        ("Plan my trip.\nTask ID: T1234", (1234, "en")),
        ("Task ID：T0", (0, "en")),
        ("no marker here", None),
        ("任务编号：42", None),
    ],
)
def test_find_task(text: str, expected: tuple[int, str] | None) -> None:
    assert find_task([{"role": "system", "content": "Task ID: T999"}, {"role": "user", "content": text}]) == expected


def _opening(problem: Any) -> list[dict[str, Any]]:
    return [{"role": "system", "content": problem.system_prompt}, {"role": "user", "content": problem.prompt}]


async def test_conversation_replays_the_in_process_episode(world: Any, generator: Any, problem_of: Any) -> None:
    problem = with_marker(problem_of(5))
    protocol = ReferenceProtocol(world, generator=generator)
    expected = await ReferencePlanner().run(problem, world)
    messages = _opening(problem)
    body = {"model": MODEL_NAME, "messages": messages, "tools": openai_tools()}
    for _ in range(10):
        reply = await protocol.reply(body)
        done = reply.completion(MODEL_NAME)
        msg = done["choices"][0]["message"]
        assert done["usage"] == {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
        if reply.finish_reason == "stop":
            messages.append({"role": "assistant", "content": msg["content"]})
            break
        assert done["choices"][0]["finish_reason"] == "tool_calls"
        messages.append({"role": "assistant", "content": None, "tool_calls": msg["tool_calls"]})
        for tc in msg["tool_calls"]:
            result = await call_tool(tc["function"]["name"], tc["function"]["arguments"], world,
                                     default_date=problem.travel_date)
            messages.append({"role": "tool", "tool_call_id": tc["id"], "content": result.text})
    assert messages == expected.trace
    assert messages[-1]["content"] == expected.answer


async def test_partial_answers_get_only_the_missing_calls(world: Any, generator: Any, problem_of: Any) -> None:
    problem = with_marker(problem_of(0))
    protocol = ReferenceProtocol(world, generator=generator)
    first = await protocol.reply({"model": MODEL_NAME, "messages": _opening(problem), "tools": openai_tools()})
    calls = first.tool_calls
    assert len(calls) > 2 and [c["id"] for c in calls] == [f"call_{i}" for i in range(len(calls))]
    answered = [*_opening(problem), {"role": "assistant", "content": None, "tool_calls": calls},
                {"role": "tool", "tool_call_id": calls[0]["id"], "content": "x"}]
    again = await protocol.reply({"model": MODEL_NAME, "messages": answered, "tools": openai_tools()})
    assert [c["id"] for c in again.tool_calls] == [c["id"] for c in calls[1:]]


async def test_tools_off_gives_the_final_answer(world: Any, generator: Any, problem_of: Any) -> None:
    problem = with_marker(problem_of(2, "en"))
    protocol = ReferenceProtocol(world, generator=generator)
    reply = await protocol.reply({"model": MODEL_NAME, "messages": _opening(problem)})
    assert reply.finish_reason == "stop" and reply.content and "```json" in reply.content
    assert reply.content == (await ReferencePlanner().run(problem, world)).answer


async def test_errors_are_clear(world: Any, generator: Any) -> None:
    protocol = ReferenceProtocol(world, generator=generator)
    with pytest.raises(ProtocolError) as exc:
        await protocol.reply({"model": "gpt-x", "messages": [{"role": "user", "content": "Task ID: T1"}]})
    assert exc.value.status == 404 and "navworld-reference" in exc.value.message
    with pytest.raises(ProtocolError) as exc:
        await protocol.reply({"model": MODEL_NAME, "messages": [{"role": "user", "content": "plan a trip"}]})
    assert exc.value.status == 400 and "任务编号" in exc.value.message and "Task ID" in exc.value.message
    assert exc.value.body()["error"]["code"] == "no_task_marker"
    with pytest.raises(ProtocolError) as exc:
        await protocol.reply({"model": MODEL_NAME, "messages": "nope"})
    assert exc.value.status == 400


async def test_stream_chunks_rebuild_the_reply(world: Any, generator: Any, problem_of: Any) -> None:
    problem = with_marker(problem_of(0))
    protocol = ReferenceProtocol(world, generator=generator)
    reply = await protocol.reply({"model": MODEL_NAME, "messages": _opening(problem), "tools": openai_tools()})
    chunks = stream_chunks(reply, MODEL_NAME, include_usage=True)
    assert chunks[-1]["usage"]["total_tokens"] == 0
    calls = [tc for c in chunks for ch in c["choices"] for tc in ch["delta"].get("tool_calls", [])]
    assert [c["id"] for c in calls] == [c["id"] for c in reply.tool_calls]
    assert all(json.loads(c["function"]["arguments"]) for c in calls)
    assert [ch["finish_reason"] for c in chunks for ch in c["choices"] if ch["finish_reason"]] == ["tool_calls"]

"""The model client and the agent loop against servers shaped like llama-cpp-python's (real HTTP).

Each test asserts an outcome a user of a local or slow endpoint relies on: multi-step episodes
that run, no wasted retries, errors classified by what they are with their whole text, partial
work counted as the model's, and no generation left running for nobody (no cascade).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from navworld.agents.client import ChatClient, ChatError, GenerationTimeoutError, InvalidRequestError
from navworld.agents.fake import ChatRequest, GroundedPlanner, Reply
from navworld.agents.fake_server import ServerThread
from navworld.agents.loop import run_episode
from navworld.core.problem import Problem
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld
from tests.agents.endpoint_shapes import LocalServer

SALT = "2900"
WORLD = SandboxWorld(SALT)
GEN = ProblemGenerator(WORLD)
MESSAGES = [{"role": "user", "content": "你好"}]
LONG = "第1天：上午游览西湖，下午去灵隐寺，晚上在河坊街吃饭。" * 40  # ~1,000 characters


def problem(task_id: int) -> Problem:
    return GEN.generate(task_id, lang="zh")


def rambler(request: ChatRequest) -> Reply:
    return Reply(content=LONG)


async def eventually(check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "condition not reached in time"
        await asyncio.sleep(0.02)


# ------------------------------------------------------------------------ schema / validation


def test_the_fake_rejects_null_content_exactly_as_llama_cpp_python_does() -> None:
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": '{"city": "x"}'}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
        ],
    }  # fmt: skip
    with LocalServer(rambler, strict=False) as server:
        response = httpx2.post(server.base_url + "/chat/completions", json=body, timeout=10)
    assert response.status_code == 500
    error = response.json()["error"]
    assert error["type"] == "internal_server_error" and error["code"] is None
    assert error["message"].startswith("7 validation errors:\n")
    assert "'ChatCompletionRequestAssistantMessage', 'content'), 'msg': 'Input should be a valid string'" in error["message"]
    assert error["message"].rstrip().endswith("POST /v1/chat/completions")


async def test_multi_step_episode_runs_on_a_strict_llama_cpp_shaped_server() -> None:
    with LocalServer(GroundedPlanner(), strict=True) as server:
        run = await run_episode(problem(0), WORLD, model="m", base_url=server.base_url, timeout=60, seed=3)
        bodies = list(server.requests)
    assert run.ok and run.error is None and run.finish == "answered"
    assert run.steps >= 2 and run.tool_calls >= run.steps
    assert len(bodies) == run.model_calls == run.http_attempts  # not one request rejected or retried
    assistants = [m for b in bodies for m in b["messages"] if m["role"] == "assistant"]
    assert assistants and all(isinstance(m["content"], str) for m in assistants)
    assert all(b["seed"] == 3 and b["stream"] for b in bodies)
    tool_turns = [m for b in bodies for m in b["messages"] if m["role"] == "assistant" and m.get("tool_calls")]
    assert tool_turns and all(m["content"] == "" for m in tool_turns)  # sent as "", never null


async def test_a_validation_error_sent_as_500_is_not_retried_and_keeps_its_whole_text() -> None:
    with LocalServer(GroundedPlanner(), strict=False, max_tokens_limit=4096) as server:
        started = time.monotonic()
        run = await run_episode(
            problem(1), WORLD, model="m", base_url=server.base_url, timeout=60, max_tokens=8192, retry_backoff=1.0
        )
        seconds = time.monotonic() - started
        requests = server.posts
        direct = httpx2.post(server.base_url + "/chat/completions", timeout=10, json={
            "model": "m", "max_tokens": 8192, "messages": MESSAGES})  # fmt: skip
    assert requests == 1 and run.http_attempts == 1 and run.dispatches == 1  # no retry, no re-dispatch
    assert seconds < 1.0  # no backoff was waited
    assert run.error_kind == "invalid_request" and run.finish == "error"
    message = direct.json()["error"]["message"]
    assert "less_than_equal" in message and message in run.error  # the whole text, cause line included
    assert f"HTTP 500 from {server.base_url}" in run.error
    assert "deterministic" in run.error and "not retried" in run.error


async def test_invalid_request_error_class_and_attempts() -> None:
    with LocalServer(rambler, strict=False, max_tokens_limit=10) as server:
        with pytest.raises(InvalidRequestError) as info:
            await ChatClient(server.base_url, retry_backoff=5.0).complete("m", MESSAGES, max_tokens=11)
        assert server.posts == 1
    err = info.value
    assert err.attempts == 1 and not err.retryable and not err.redispatch
    assert "'type': 'less_than_equal', 'loc': ('body', 'max_tokens')" in err.message
    assert "POST /v1/chat/completions (error type: internal_server_error)" in err.message


# ------------------------------------------------------------- generations nobody waits for


async def test_a_non_streamed_timeout_is_not_retried_and_leaves_one_abandoned_generation() -> None:
    with LocalServer(rambler, token_delay=0.01) as server:  # ~125 pieces: ~1.3 s per answer
        client = ChatClient(server.base_url, call_timeout=0.3, stream=False, retry_backoff=0.01, max_retries=3)
        with pytest.raises(ChatError) as info:
            await client.complete("m", MESSAGES)
        await eventually(lambda: server.finished == 1)
        assert (len(server.requests), server.started, server.abandoned) == (1, 1, 1)
    err = info.value
    assert err.kind == "timeout" and err.attempts == 1 and not err.retryable and not err.redispatch
    assert "not retried" in err.message and server.base_url in err.message


async def test_a_streamed_timeout_stops_the_server_and_is_not_retried() -> None:
    with LocalServer(rambler, token_delay=0.02) as server:  # ~2.5 s per answer
        with pytest.raises(GenerationTimeoutError) as info:
            await ChatClient(server.base_url, call_timeout=0.5, retry_backoff=0.01).complete("m", MESSAGES)
        await eventually(lambda: server.aborted == 1, 5.0)
        await asyncio.sleep(0.3)
        assert (len(server.requests), server.started, server.finished, server.abandoned) == (1, 1, 0, 0)
    err = info.value
    assert err.produced and err.partial and LONG.startswith(err.partial)
    assert err.attempts == 1 and not err.redispatch


async def test_no_cascade_on_a_one_slot_server() -> None:
    """A model that rambles past its time on task 0 costs task 0 only; tasks 1 and 2 run at once."""

    planner = GroundedPlanner()

    def script(request: ChatRequest) -> Reply:
        first_user = next(m["content"] for m in request.messages if m["role"] == "user")
        outcome = planner(request)
        assert isinstance(outcome, Reply)
        if first_user.rstrip().endswith("任务编号：T0") and not outcome.tool_calls:
            return Reply(content=LONG * 10)  # ~10,000 characters: the final answer never ends in time
        return outcome

    with LocalServer(script, token_delay=0.004) as server:
        runs = []
        for task_id in (0, 1, 2):
            runs.append(await run_episode(problem(task_id), WORLD, model="m", base_url=server.base_url, timeout=60,
                                          call_timeout=2.0))  # fmt: skip
        await asyncio.sleep(0.2)
        waits, aborted, abandoned = list(server.slot_waits), server.aborted, server.abandoned
    first, *others = runs
    assert first.finish == "timeout" and first.model_failure == "timeout" and first.error is None
    assert first.steps >= 2 and first.answer  # the work done so far is kept and scored
    assert first.dispatches == 1
    assert all(r.ok and r.finish == "answered" and r.steps >= 2 for r in others)
    assert aborted == 1 and abandoned == 0
    assert max(waits) < 0.5  # nobody queued behind a generation left running


# ------------------------------------------------------------------------- slow streaming


async def test_slow_but_steady_stream_finishes_within_its_wall_clock_budget() -> None:
    with LocalServer(GroundedPlanner(), token_delay=0.002) as server:
        run = await run_episode(problem(2), WORLD, model="m", base_url=server.base_url, timeout=60, call_timeout=20)
    assert run.ok and run.finish == "answered" and run.steps >= 2


async def test_episode_time_running_out_mid_answer_is_a_scored_model_failure() -> None:
    planner = GroundedPlanner()

    def slow_final(request: ChatRequest) -> Reply:
        outcome = planner(request)
        assert isinstance(outcome, Reply)
        return outcome if outcome.tool_calls else Reply(content=LONG * 3)

    with LocalServer(slow_final, token_delay=0.01) as server:
        started = time.monotonic()
        run = await run_episode(problem(3), WORLD, model="m", base_url=server.base_url, timeout=2.5)
        seconds = time.monotonic() - started
        requests = len(server.requests)
    assert seconds < 4.0
    assert run.error is None and run.finish == "timeout" and run.model_failure == "timeout"
    assert run.steps >= 1 and requests == run.model_calls + 1  # the cut call was not retried
    assert run.answer and (LONG * 3).startswith(run.answer)
    assert run.trace[-1] == {"role": "assistant", "content": run.answer}


async def test_a_server_that_never_answers_is_an_infrastructure_timeout() -> None:
    async def hang(request: Request) -> Any:
        await asyncio.sleep(30)

    app = FastAPI()
    app.post("/v1/chat/completions")(hang)
    with ServerThread(app) as thread:
        run = await run_episode(problem(0), WORLD, model="m", base_url=thread.url + "/v1", timeout=1.0)
    assert run.error is not None and run.error_kind == "timeout" and run.finish == "error"
    assert run.model_failure is None


async def test_answer_cut_at_max_tokens_is_marked_truncated() -> None:
    planner = GroundedPlanner()

    def cut(request: ChatRequest) -> Reply:
        outcome = planner(request)
        assert isinstance(outcome, Reply)
        return outcome if outcome.tool_calls else Reply(content=LONG, finish_reason="length")

    with LocalServer(cut) as server:
        run = await run_episode(problem(4), WORLD, model="m", base_url=server.base_url, timeout=60)
        whole = await run_episode(problem(4), WORLD, model="m", base_url=server.base_url + "/", timeout=60,
                                  max_tokens=None)  # fmt: skip
    assert run.ok and run.truncated and run.last_finish_reason == "length"
    assert run.to_dict()["truncated"] is True
    assert whole.truncated  # the same script: still cut (the flag follows the server)


# ------------------------------------------------------------------ streaming where supported


async def test_tool_calls_that_cannot_stream_are_asked_plainly_and_the_episode_runs() -> None:
    with LocalServer(GroundedPlanner(), tool_stream_fails=True) as server:
        run = await run_episode(problem(5), WORLD, model="m", base_url=server.base_url, timeout=60)
        bodies = list(server.requests)
    assert run.ok and run.steps >= 2 and run.finish == "answered"
    streamed = [b["stream"] for b in bodies]
    assert streamed.count(False) == run.steps  # each tool turn once more without streaming
    assert streamed[-1] is True  # the final answer still streamed (stoppable)


@pytest.fixture
def plain_only() -> Iterator[str]:
    seen: list[bool] = []
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def chat(raw: Request) -> Any:
        body = await raw.json()
        seen.append(bool(body.get("stream")))
        if body.get("stream"):
            return JSONResponse({"error": {"message": "stream is not supported", "type": "invalid_request_error"}},
                                status_code=400)  # fmt: skip
        return {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "好" * 250},
                             "finish_reason": "stop"}]}  # fmt: skip

    with ServerThread(app) as thread:
        yield thread.url + "/v1"
    assert seen[:3] == [True, False, False]


async def test_an_endpoint_that_refuses_streaming_is_asked_plainly_from_then_on(plain_only: str) -> None:
    client = ChatClient(plain_only)
    first = await client.complete("m", MESSAGES)
    second = await client.complete("m", MESSAGES)
    assert first.content == second.content == "好" * 250
    assert (first.attempts, second.attempts) == (2, 1) and not client.streams


async def test_cancelling_a_call_closes_the_stream_and_the_server_stops() -> None:
    """What Ctrl-C does to an episode in flight: the connection closes, the generation stops."""
    with LocalServer(rambler, token_delay=0.02) as server:
        task = asyncio.create_task(ChatClient(server.base_url).complete("m", MESSAGES))
        await eventually(lambda: server.started == 1, 5.0)
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await eventually(lambda: server.aborted == 1, 5.0)
        assert server.finished == 0 and len(server.requests) == 1


async def test_a_stream_that_breaks_before_any_token_is_asked_plainly_and_tells_why() -> None:
    """llama-cpp-python over its context window: 200, a role chunk, then a dropped stream."""
    with LocalServer(GroundedPlanner(), context_window=1000) as server:
        run = await run_episode(problem(0), WORLD, model="m", base_url=server.base_url, timeout=60)
        posts = server.posts
    assert run.error is None and run.finish == "context_overflow" and run.model_failure == "context_overflow"
    # the stream (once more if the drop came before the response headers), then once plainly
    assert 2 <= posts == run.http_attempts <= 3 and run.dispatches == 1

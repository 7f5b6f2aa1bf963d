"""``Actor.evaluate`` end to end: the real ``openai`` client talking HTTP to scripted fake models.

Each fault gives its documented outcome (see ``docs/runtime.md``): transient faults are retried
and the episode is scored; a stream cut after visible content and infra tool failures trigger
one whole-episode re-dispatch; persistent infra failures end in ``error`` (score 0, not scored);
model failures (malformed calls, endless tool calls, empty content, context overflow) are scored.
No episode is left in the store.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from navworld.agents.fake import (
    ChatRequest,
    Fault,
    GroundedPlanner,
    always_tools,
    context_overflow_after,
    empty_content,
    fail_first,
    hang_first,
    malformed_args_first,
    rate_limit_first,
    stream_cut_first,
    unknown_tool_first,
)
from navworld.agents.fake_server import FakeModelServer, start_fake_server
from navworld.agents.messages import MAX_TOOL_STEPS
from navworld.core.problem import PROBLEM_TYPES
from navworld.env.actor import Actor
from navworld.env.episodes import EpisodeStoreFull
from tests import runtime_support as H

SECRET = "sk-evaluate-secret-987654321"
RESULT_KEYS = {"task_name", "score", "success", "time_taken", "error", "extra"}


def leaky_auth(request: ChatRequest) -> Fault:
    return Fault(401, f"bad key {request.headers.get('authorization', '')}", code="invalid_api_key")


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeModelServer]:
    planner = GroundedPlanner(cities=H.city_list())
    scripts = {
        "planner": planner,
        "flaky": fail_first(planner, 500, times=1),
        "limited": rate_limit_first(planner, times=1, retry_after=0.05),
        "hang": hang_first(planner, 2.0, times=1000),
        "cut": stream_cut_first(planner, times=1),
        "malformed": malformed_args_first(planner),
        "unknown": unknown_tool_first(planner),
        "never": always_tools(),
        "empty": empty_content(),
        "overflow": context_overflow_after(planner, 3),
        "auth": leaky_auth,
    }
    with start_fake_server(scripts) as server:
        yield server


def actor(**kw: Any) -> Actor:
    kw.setdefault("retry_backoff", 0.01)
    kw.setdefault("call_timeout", 10)
    return Actor(salt="test-salt", **kw)


def assert_scored(result: dict[str, Any], a: Actor) -> dict[str, Any]:
    assert set(result) == RESULT_KEYS
    assert result["error"] is None, result["error"]
    extra = result["extra"]
    assert extra["valid_for_scoring"] is True
    assert 0.0 <= result["score"] <= 1.0 and result["score"] == round(extra["total"] / 100, 6)
    assert result["success"] == (result["score"] >= 0.6)
    assert extra["report"] is not None and extra["report"]["total"] == extra["total"]
    assert extra["trace"][0]["role"] in ("system", "user")
    assert {"world_version", "generator_version", "scorer_version"} <= set(extra["versions"])
    assert extra["salt"] == "test-salt" and extra["content_hash"]
    assert len(a.store) == 0
    return extra


def assert_infra_error(result: dict[str, Any], a: Actor, prefix: str) -> dict[str, Any]:
    assert result["error"] and result["error"].startswith(prefix), result["error"]
    assert result["score"] == 0.0 and result["success"] is False
    assert result["extra"]["valid_for_scoring"] is False and result["extra"]["report"] is None
    assert len(a.store) == 0
    return result["extra"]


async def test_every_problem_type_through_evaluate(fake: FakeModelServer) -> None:
    a = actor()
    types = set()
    for task_id in range(7):
        result = await a.evaluate("planner", fake.base_url, task_id, timeout=60, temperature=0.1, seed=5)
        extra = assert_scored(result, a)
        types.add(extra["problem_type"])
        assert extra["steps"] >= 1 and extra["tool_calls"] >= extra["steps"]
        assert extra["finish"] == "answered" and extra["dispatches"] == 1
        assert len(extra["step_rewards"]) == extra["steps"]
        assert extra["usage"]["total_tokens"] > 0 and extra["usage"]["requests"] == extra["model_calls"]
        assert extra["answer"] == extra["trace"][-1]["content"]
    assert types == set(PROBLEM_TYPES)
    sent = [r for r in fake.requests if r["model"] == "planner"]
    assert all(r["temperature"] == 0.1 and r["seed"] == 5 and r["max_tokens"] == 8192 for r in sent)


async def test_http_500_is_retried_and_scored(fake: FakeModelServer) -> None:
    a = actor()
    extra = assert_scored(await a.evaluate("flaky", fake.base_url, 0, timeout=60), a)
    assert extra["http_attempts"] == 2 * extra["model_calls"] and extra["dispatches"] == 1


async def test_http_429_is_retried_and_scored(fake: FakeModelServer) -> None:
    a = actor()
    extra = assert_scored(await a.evaluate("limited", fake.base_url, 1, timeout=60), a)
    assert extra["http_attempts"] == 2 * extra["model_calls"]


async def test_timeouts_end_in_error_after_one_redispatch(fake: FakeModelServer) -> None:
    a = actor(call_timeout=0.2, max_retries=1)
    result = await a.evaluate("hang", fake.base_url, 2, timeout=20)
    extra = assert_infra_error(result, a, "timeout")
    assert extra["dispatches"] == 2 and extra["http_attempts"] == 2


async def test_whole_episode_timeout_is_an_error(fake: FakeModelServer) -> None:
    a = actor(call_timeout=30)
    result = await a.evaluate("hang", fake.base_url, 2, timeout=0.5)
    assert_infra_error(result, a, "timeout")
    assert result["time_taken"] < 2.0


async def test_stream_cut_after_visible_content_is_redispatched(fake: FakeModelServer) -> None:
    a = actor(stream=True)
    extra = assert_scored(await a.evaluate("cut", fake.base_url, 3, timeout=60), a)
    assert extra["dispatches"] == 2  # the cut dispatch was thrown away, the second one scored


async def test_malformed_arguments_are_read_by_the_model_and_scored(fake: FakeModelServer) -> None:
    a = actor()
    extra = assert_scored(await a.evaluate("malformed", fake.base_url, 4, timeout=60), a)
    tool_messages = [m for m in extra["trace"] if m["role"] == "tool"]
    assert tool_messages[0]["content"].startswith("错误")
    assert extra["step_rewards"][0] == 0.0  # s2: an error result adds nothing to the potential


async def test_unknown_tool_is_read_by_the_model_and_scored(fake: FakeModelServer) -> None:
    a = actor()
    extra = assert_scored(await a.evaluate("unknown", fake.base_url, 5, timeout=60), a)
    assert extra["step_rewards"][0] == 0.0  # s2: an unknown tool adds nothing to the potential
    assert next(m for m in extra["trace"] if m["role"] == "tool")["content"].startswith("错误")


async def test_model_that_never_stops_is_scored_after_the_final_prompt(fake: FakeModelServer) -> None:
    a = actor()
    extra = assert_scored(await a.evaluate("never", fake.base_url, 6, timeout=60), a)
    assert extra["steps"] == MAX_TOOL_STEPS and extra["finish"] == "max_steps"
    assert extra["model_failure"] is None and extra["answer"]


async def test_empty_content_is_a_scored_model_failure(fake: FakeModelServer) -> None:
    a = actor()
    result = await a.evaluate("empty", fake.base_url, 0, timeout=60)
    extra = assert_scored(result, a)
    assert extra["model_failure"] == "no_final_answer" and extra["answer"] == ""
    assert result["score"] < 0.2 and not result["success"]


async def test_context_overflow_is_a_scored_model_failure(fake: FakeModelServer) -> None:
    a = actor()
    extra = assert_scored(await a.evaluate("overflow", fake.base_url, 1, timeout=60), a)
    assert extra["model_failure"] == "context_overflow" and extra["finish"] == "context_overflow"
    assert extra["dispatches"] == 1


async def test_infra_tool_failure_is_an_error_after_redispatch(fake: FakeModelServer) -> None:
    a = Actor(world=H.FailingWorld(), salt="s", retry_backoff=0.01)
    extra = assert_infra_error(await a.evaluate("planner", fake.base_url, 2, timeout=60), a, "tool_infra")
    assert extra["dispatches"] == 2


async def test_api_key_never_appears_in_results(fake: FakeModelServer) -> None:
    a = actor()
    result = await a.evaluate("auth", fake.base_url, 0, timeout=30, api_key=SECRET)
    assert assert_infra_error(result, a, "auth")["dispatches"] == 1  # a config error is not re-dispatched
    assert SECRET not in json.dumps(result, ensure_ascii=False)
    assert "***" in result["error"]
    ok = await a.evaluate("planner", fake.base_url.replace("http://", "http://user:pw@"), 0, timeout=30, api_key=SECRET)
    assert SECRET not in json.dumps(ok, ensure_ascii=False) and "pw@" not in ok["extra"]["base_url"]


async def test_full_store_fails_fast(fake: FakeModelServer) -> None:
    a = actor(max_episodes=1)
    await a.reset(0)
    with pytest.raises(EpisodeStoreFull):
        await a.evaluate("planner", fake.base_url, 0, timeout=30)
    assert len(a.store) == 1

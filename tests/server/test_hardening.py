"""Issue 14's attack table against a real ``navworld serve`` (uvicorn on 127.0.0.1, free port).

One test per table row: each asserts the clear 4xx JSON error (or the bounded outcome) and that
the same server then still plays a normal episode to its scored end. Row 7 (MCP sessions) is in
``tests/tools/test_mcp_sessions.py``, row 8 (Gym spaces) in ``tests/env/test_gym_spaces.py``.
"""

from __future__ import annotations

import asyncio
import json
import resource
import socket
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
from fastapi import APIRouter

from navworld.agents.fake import ChatRequest, GroundedPlanner, Reply
from navworld.agents.fake_request import call, number_calls
from navworld.agents.fake_server import FakeModelServer, ServerThread, start_fake_server
from navworld.core.errors import DSLError
from navworld.dsl import run_constraint
from navworld.env.actor import Actor
from navworld.server.app import create_app
from tests import runtime_support as H

DEEP_ARGS = "[" * 1500  # issue 14 row 1: ~1,500 nested '[' (3 KB with the closing ones)
DEEP_ARGS += "]" * 1500


class Env:
    """A running env server and an HTTP client to it."""

    def __init__(self, actor: Actor, thread: ServerThread, http: httpx2.AsyncClient) -> None:
        self.actor, self.thread, self.http = actor, thread, http

    async def reset(self, task_id: int, client: str | None = None) -> dict[str, Any]:
        headers = {"x-client-id": client} if client else None
        response = await self.http.post("/reset", json={"task_id": task_id}, headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    async def step(self, action: str, episode_id: str, tool_calls: list[dict[str, Any]] | None) -> dict[str, Any]:
        response = await self.http.post("/step", json={"episode_id": episode_id, "action": action, "tool_calls": tool_calls})
        assert response.status_code == 200, response.text
        return response.json()

    async def health(self) -> dict[str, Any]:
        return (await self.http.get("/health")).json()

    async def normal_episode(self, task_id: int = 3) -> dict[str, Any]:
        """Play a whole grounded episode and check it ends scored."""
        episode = await H.drive(self.reset, self.step, task_id, GroundedPlanner(cities=H.city_list()))
        final = episode["steps"][-1]
        assert final["done"] and final["info"]["score"] > 0 and "error" not in final["info"]
        return episode


async def start_env(**actor_kw: Any) -> AsyncIterator[Env]:
    """A fresh actor and server (extra routers: one that fails, for the 500 contract)."""
    actor = Actor(salt="test-salt", retry_backoff=0.01, **actor_kw)
    broken = APIRouter()

    @broken.get("/boom")
    async def boom() -> dict[str, Any]:
        raise RuntimeError("a bug in a handler")

    thread = ServerThread(create_app(actor, extra_routers=[broken])).start()
    try:
        async with httpx2.AsyncClient(base_url=thread.url, timeout=60) as http:
            yield Env(actor, thread, http)
    finally:
        thread.stop()


@pytest.fixture
async def env() -> AsyncIterator[Env]:
    async for e in start_env():
        yield e


def deep_args_first(script: Any) -> Any:
    """A scripted model whose first turn calls a tool with row 1's nested-bracket arguments."""

    def wrapped(request: ChatRequest) -> Any:
        conv = request.conversation
        if request.tools_on and not conv.exchanges:
            return Reply(tool_calls=number_calls([call("weather", DEEP_ARGS)], conv))
        return script(request)

    return wrapped


@pytest.fixture(scope="module")
def fake() -> Any:
    planner = GroundedPlanner(cities=H.city_list())
    with start_fake_server({"planner": planner, "deep": deep_args_first(planner)}) as server:
        yield server


def _error(response: httpx2.Response, status: int, kind: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["detail"], str) and body["detail"] and isinstance(body["error"], str)
    if kind is not None:
        assert body["error"] == kind, body
    return body


# ----------------------------------------------------------------------------- row 1


async def test_row1_nested_arguments_are_a_tool_error_and_the_step_is_whole(env: Env, fake: FakeModelServer) -> None:
    opened = await env.reset(3)
    eid = opened["episode_id"]
    hostile = [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": DEEP_ARGS}}]
    result = await env.step("", eid, hostile)
    assert not result["done"] and result["info"]["step"] == 1
    [message] = result["observation"]
    assert message["tool_call_id"] == "c1" and message["content"].startswith("错误：") and "嵌套" in message["content"]
    assert result["reward"] == 0.0 and result["info"]["rewards"][0]["arguments"] == 0.0  # earns nothing, no crash
    episode = env.actor.store.get(eid)
    roles = [m["role"] for m in episode.messages]
    assert roles[-2:] == ["assistant", "tool"] and episode.steps == 1  # the turn and its answer, counted once
    # The same hostile arguments again (a new call id) earn nothing again; the episode goes on.
    again = await env.step("", eid, [{**hostile[0], "id": "c2"}])
    assert again["reward"] == 0.0 and again["info"]["step"] == 2
    final = await env.step("最终方案：" + "第一天参观景点。" * 40, eid, None)
    assert final["done"] and "error" not in final["info"]
    # Actor.evaluate with a model sending those arguments returns a scored result (it used to raise).
    body = {"model": "deep", "base_url": fake.base_url, "task_id": 3, "timeout": 60, "temperature": 0.2}
    response = await env.http.post("/evaluate", json=body)
    assert response.status_code == 200, response.text
    evaluated = response.json()
    assert evaluated["error"] is None and evaluated["extra"]["valid_for_scoring"] is True
    assert evaluated["extra"]["step_rewards"][0] < 0.5 and evaluated["score"] > 0
    await env.normal_episode()
    assert (await env.health())["live_episodes"] == 0


# ----------------------------------------------------------------------------- row 2


async def test_row2_deep_json_bodies_are_400_json(env: Env) -> None:
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    for path in ("/v1/chat/completions", "/step", "/reset", "/evaluate"):
        response = await env.http.post(path, content=deep, headers={"content-type": "application/json"})
        assert response.status_code == 400, (path, response.text)
        assert response.headers["content-type"].startswith("application/json")
        text = response.text
        assert "nested too deeply" in text, (path, text)
    await env.normal_episode()


# ----------------------------------------------------------------------------- row 3


def _raw_request(port: int, head: bytes, body: bytes = b"") -> tuple[float, bytes]:
    """Send ``head`` (and ``body``) on a raw socket; return (seconds to the first byte, response)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        started = time.monotonic()
        sock.sendall(head + body)
        first = sock.recv(65536)
        elapsed = time.monotonic() - started
        data = first
        sock.settimeout(2)
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    return elapsed, data


async def test_row3_big_bodies_are_refused_before_they_are_read(env: Env) -> None:
    opened = await env.reset(3)
    eid = opened["episode_id"]
    ten_mb = "x" * 10_000_000
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(15):
        calls = [{"id": "c", "type": "function", "function": {"name": "weather", "arguments": ten_mb}}]
        response = await env.http.post("/step", json={"episode_id": eid, "action": "", "tool_calls": calls})
        _error(response, 413, "body_too_large")
    # Announced by Content-Length: answered at once, with no body sent at all.
    head = (
        f"POST /step HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        f"content-length: {10_000_000}\r\n\r\n"
    ).encode()
    elapsed, raw = await asyncio.to_thread(_raw_request, env.thread.port, head)
    assert raw.startswith(b"HTTP/1.1 413") and b'"body_too_large"' in raw and elapsed < 5
    # Under the body limit but over the per-call arguments limit: 413 too, and nothing changed.
    long_args = json.dumps({"city": "杭州", "note": "y" * 30_000})
    calls = [{"id": "c", "type": "function", "function": {"name": "weather", "arguments": long_args}}]
    response = await env.http.post("/step", json={"episode_id": eid, "action": "", "tool_calls": calls})
    body = _error(response, 413, "arguments_too_long")
    assert body["setting"] == "NAVWORLD_MAX_ARGUMENT_CHARS"
    long_answer = await env.http.post("/step", json={"episode_id": eid, "action": "答" * 150_000})
    _error(long_answer, 413, "answer_too_long")
    episode = env.actor.store.get(eid)
    assert episode.steps == 0 and len(episode.messages) == 2 and episode.chars == 0
    growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024
    assert growth_mb < 100  # the 10 MB bodies were built by this test; the server kept none of them
    # An episode cannot be grown past its character budget either.
    env.actor.limits = type(env.actor.limits)(max_episode_chars=2_000)
    try:
        big = [{"id": f"c{i}", "type": "function", "function": {"name": "weather", "arguments": json.dumps({"city": "杭州", "pad": "z" * 900})}} for i in range(3)]
        _error(await env.http.post("/step", json={"episode_id": eid, "tool_calls": big}), 413, "episode_too_large")
    finally:
        env.actor.limits = type(env.actor.limits)()
    final = await env.step("最终方案：" + "第一天参观景点。" * 40, eid, None)
    assert final["done"]
    await env.normal_episode()


# ----------------------------------------------------------------------------- rows 4 and 5


async def test_rows4_5_hostile_programs_are_bounded_and_the_server_still_scores(env: Env) -> None:
    plan = {"people_number": 1, "target_city": "杭州", "itinerary": [{"day": 1, "activities": []}]}
    programs = {
        "P = (2**61 - 1)\ns = set(range(0, P * 100000, P))\nresult = True": "integer too large",
        "x = [('a' * 100000)] * 10000\nresult = len(str(x)) > 0": "step budget",
        "x = [('a' * 100000)] * 100000\nresult = len(str(x)) > 0": "step budget",
    }
    for source, expected in programs.items():
        started = time.thread_time()
        with pytest.raises(DSLError, match=expected):
            run_constraint(source, plan)
        assert time.thread_time() - started < 1.0
    # The scorer runs every task's constraint programs on the final plan: still fine.
    episode = await env.normal_episode(task_id=1)
    assert episode["steps"][-1]["info"]["score_breakdown"]


# ----------------------------------------------------------------------------- row 6


async def test_row6_one_client_cannot_fill_the_store() -> None:
    async for env in start_env(max_episodes=64, episode_ttl=4.0):
        share = env.actor.store.max_per_client
        assert share == 32
        statuses = []
        for _ in range(share + 20):
            r = await env.http.post("/reset", json={"task_id": 0}, headers={"x-client-id": "hoarder"})
            statuses.append(r.status_code)
        assert statuses[:share] == [200] * share and set(statuses[share:]) == {429}
        body = _error(r, 429, "client_episode_limit")
        assert "NAVWORLD_MAX_EPISODES_PER_CLIENT" in body["detail"] and r.headers["retry-after"] == "1"
        health = await env.health()
        occupancy = health["occupancy"]
        assert occupancy["live_episodes"] == share and occupancy["busiest_client_episodes"] == share
        assert occupancy["max_episodes_per_client"] == share and occupancy["episode_ttl_s"] == 4.0
        # Everyone else still gets episodes, and plays them to the end.
        await env.normal_episode()
        # Idle episodes expire after the TTL (minutes by default; 4 s here): the store empties.
        await asyncio.sleep(4.2)
        health = await env.health()
        assert health["live_episodes"] == 0 and health["occupancy"]["expired"] >= share
        assert (await env.http.post("/reset", json={"task_id": 0}, headers={"x-client-id": "hoarder"})).status_code == 200


async def test_row6_a_full_store_evicts_a_fuller_clients_idle_episode() -> None:
    async for env in start_env(max_episodes=8, max_episodes_per_client=8):
        for _ in range(8):
            await env.reset(0, client="hoarder")
        full = await env.http.post("/reset", json={"task_id": 0}, headers={"x-client-id": "late"})
        _error(full, 503, "episode_store_full")  # nobody has been idle long enough yet
        env.actor.store.evict_idle = 0.0
        opened = await env.reset(0, client="late")
        assert env.actor.store.held_by("127.0.0.1/hoarder") == 7
        assert (await env.health())["occupancy"]["evicted"] == 1
        final = await env.step("最终方案：" + "第一天参观景点。" * 40, opened["episode_id"], None)
        assert final["done"]


# ----------------------------------------------------------------------------- the 500 contract


async def test_a_failing_handler_is_a_500_json_error(env: Env) -> None:
    response = await env.http.get("/boom")
    body = _error(response, 500, "internal_error")
    assert "RuntimeError" in body["detail"] and "a bug in a handler" not in body["detail"]
    await env.normal_episode()

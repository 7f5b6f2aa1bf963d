"""The HTTP API over a real uvicorn server on 127.0.0.1 (free ports), with the real ``openai`` client."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx2
import pytest
from fastapi import APIRouter

from navworld.agents.fake import ChatRequest, Fault, GroundedPlanner
from navworld.agents.fake_server import FakeModelServer, ServerThread, start_fake_server
from navworld.core.problem import PROBLEM_TYPES
from navworld.env.actor import Actor
from navworld.server.app import create_app
from tests import runtime_support as H

SECRET = "sk-http-secret-5555555555"


def leaky_auth(request: ChatRequest) -> Fault:
    return Fault(401, f"bad key {request.headers.get('authorization', '')}", code="invalid_api_key")


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeModelServer]:
    with start_fake_server({"planner": GroundedPlanner(cities=H.city_list()), "auth": leaky_auth}) as server:
        yield server


class Env:
    """A running env server and an HTTP client to it."""

    def __init__(self, actor: Actor, thread: ServerThread, http: httpx2.AsyncClient) -> None:
        self.actor, self.thread, self.http = actor, thread, http

    async def reset(self, task_id: int) -> dict[str, Any]:
        response = await self.http.post("/reset", json={"task_id": task_id})
        assert response.status_code == 200, response.text
        return response.json()

    async def step(self, action: str, episode_id: str, tool_calls: list[dict[str, Any]] | None) -> dict[str, Any]:
        body = {"episode_id": episode_id, "action": action, "tool_calls": tool_calls}
        response = await self.http.post("/step", json=body)
        assert response.status_code == 200, response.text
        return response.json()

    async def live(self) -> int:
        return (await self.http.get("/health")).json()["live_episodes"]


async def start_env(**actor_kw: Any) -> AsyncIterator[Env]:
    actor = Actor(salt="test-salt", retry_backoff=0.01, **actor_kw)
    thread = ServerThread(create_app(actor)).start()
    try:
        async with httpx2.AsyncClient(base_url=thread.url, timeout=60) as http:
            yield Env(actor, thread, http)
    finally:
        thread.stop()


@pytest.fixture
async def env() -> AsyncIterator[Env]:
    async for e in start_env():
        yield e


async def test_meta_routes(env: Env) -> None:
    health = (await env.http.get("/health")).json()
    assert health["status"] == "ok" and health["salt"] == "test-salt" and health["live_episodes"] == 0
    assert {"world_version", "generator_version", "scorer_version"} <= set(health["versions"])
    tools = (await env.http.get("/tools")).json()["tools"]
    assert tools == env.actor.tools() and len(tools) == 6
    task = (await env.http.get("/tasks/3")).json()
    assert task["task_id"] == 3 and task["problem"]["problem_type"] == PROBLEM_TYPES[3] and task["content_hash"]
    assert (await env.http.get("/tasks/3", params={"lang": "en"})).json()["problem"]["lang"] == "en"
    for bad in ("/tasks/-1", "/tasks/abc", "/tasks/3?lang=fr"):
        response = await env.http.get(bad)
        assert response.status_code == 422 and response.json()["error"] == "invalid_request"
    spec = (await env.http.get("/openapi.json")).json()
    assert {"/health", "/tools", "/tasks/{task_id}", "/reset", "/step", "/evaluate"} <= set(spec["paths"])


async def test_every_problem_type_over_http(env: Env) -> None:
    planner = GroundedPlanner(cities=H.city_list())
    for task_id in range(7):
        episode = await H.drive(env.reset, env.step, task_id, planner)
        final = episode["steps"][-1]
        assert final["done"] and 0 <= final["info"]["score"] <= 100
        assert final["reward"] == round(final["info"]["score"] / 100, 6)
        assert episode["reset"]["info"]["problem"]["problem_type"] == PROBLEM_TYPES[task_id]
    assert await env.live() == 0


async def test_concurrent_episodes_over_http(env: Env) -> None:
    planner = GroundedPlanner(cities=H.city_list())
    episodes = await asyncio.gather(*(H.drive(env.reset, env.step, t % 7, planner) for t in range(16)))
    assert all(e["steps"][-1]["done"] for e in episodes)
    assert len({e["reset"]["episode_id"] for e in episodes}) == 16
    assert await env.live() == 0


async def test_error_responses(env: Env) -> None:
    missing = await env.http.post("/step", json={"episode_id": "nope", "action": "x"})
    assert missing.status_code == 404 and missing.json()["error"] == "episode_not_found"
    assert "nope" in missing.json()["detail"]
    no_id = await env.http.post("/step", json={"action": "x"})
    assert no_id.status_code == 422 and no_id.json()["detail"].startswith("episode_id")
    bad_calls = await env.http.post("/step", json={"episode_id": "e", "tool_calls": "poi_search"})
    assert bad_calls.status_code == 422
    not_json = await env.http.post("/reset", content=b"{not json", headers={"content-type": "application/json"})
    assert not_json.status_code == 422
    extra_field = await env.http.post("/reset", json={"task_id": 1, "bogus": True})
    assert extra_field.status_code == 422 and "bogus" in extra_field.text
    negative = await env.http.post("/reset", json={"task_id": -5})
    assert negative.status_code == 422


async def test_full_store_is_503_and_finished_episode_is_404() -> None:
    async for env in start_env(max_episodes=1):
        first = await env.reset(0)
        full = await env.http.post("/reset", json={"task_id": 1})
        assert full.status_code == 503 and full.headers["retry-after"] == "1"
        assert "NAVWORLD_MAX_EPISODES" in full.json()["detail"]
        final = await env.step("最终答案" * 60, first["episode_id"], None)
        assert final["done"]
        again = await env.http.post("/step", json={"episode_id": first["episode_id"], "action": "x"})
        assert again.status_code == 404
        assert (await env.http.post("/reset", json={"task_id": 1})).status_code == 200


async def test_evaluate_over_http_with_key_in_body_or_header(env: Env, fake: FakeModelServer) -> None:
    body = {"model": "planner", "base_url": fake.base_url, "task_id": 2, "timeout": 60, "temperature": 0.2}
    response = await env.http.post("/evaluate", json={**body, "api_key": SECRET})
    result = response.json()
    assert response.status_code == 200 and result["error"] is None
    assert 0 <= result["score"] <= 1 and result["extra"]["steps"] >= 1
    assert SECRET not in response.text
    assert fake.requests[-1]["authorized"] and fake.requests[-1]["temperature"] == 0.2

    leaked = await env.http.post("/evaluate", json={**body, "model": "auth"}, headers={"X-Model-Api-Key": SECRET})
    assert leaked.status_code == 200 and leaked.json()["error"].startswith("auth")
    assert SECRET not in leaked.text
    bearer = await env.http.post("/evaluate", json={**body, "model": "auth"}, headers={"Authorization": f"Bearer {SECRET}"})
    assert bearer.json()["error"].startswith("auth") and SECRET not in bearer.text
    assert await env.live() == 0


async def test_bad_evaluate_body_never_echoes_the_key(env: Env) -> None:
    response = await env.http.post("/evaluate", json={"model": "m", "base_url": "not a url", "task_id": 1, "api_key": SECRET})
    assert response.status_code == 422 and "base_url" in response.json()["detail"]
    assert SECRET not in response.text
    wrong_type = await env.http.post("/evaluate", json={"model": "m", "base_url": "http://x", "task_id": 1, "api_key": [SECRET]})
    assert wrong_type.status_code == 422 and SECRET not in wrong_type.text


async def test_extra_routers_hook() -> None:
    router = APIRouter()

    @router.post("/v1/chat/completions")
    async def chat() -> dict[str, str]:
        return {"model": "navworld-reference"}

    def factory(actor: Actor) -> APIRouter:
        r = APIRouter()

        @r.get("/extra/salt")
        async def salt() -> dict[str, str]:
            return {"salt": actor.salt}

        return r

    app = create_app(Actor(salt="hooked"), extra_routers=[router, factory])
    with ServerThread(app) as thread:
        async with httpx2.AsyncClient(base_url=thread.url) as http:
            assert (await http.post("/v1/chat/completions", json={})).json() == {"model": "navworld-reference"}
            assert (await http.get("/extra/salt")).json() == {"salt": "hooked"}


def test_serve_command_rejects_bad_arguments() -> None:
    from typer.testing import CliRunner

    from navworld.cli import app

    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2
    assert "--port" in result.output + (result.stderr if result.stderr_bytes else "")
    help_text = CliRunner().invoke(app, ["serve", "--help"]).output
    assert "NAVWORLD_PORT" in help_text and "NAVWORLD_HOST" in help_text


def test_openapi_documents_the_error_model() -> None:
    # /openapi.json is itself valid JSON with our error model documented
    spec = json.loads(json.dumps(create_app(Actor(salt="x")).openapi()))
    assert "ErrorResponse" in spec["components"]["schemas"]


@pytest.mark.slow
def test_navworld_serve_subprocess_answers_health(tmp_path: Any) -> None:
    import os
    import socket
    import subprocess
    import time

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, NAVWORLD_PORT=str(port), NAVWORLD_SALT="cli-salt", NAVWORLD_LOG_LEVEL="warning")
    cmd = [sys.executable, "-c", "from navworld.cli import main; main()", "serve"]
    proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            try:
                health = httpx2.get(f"http://127.0.0.1:{port}/health", timeout=2).json()
                break
            except httpx2.TransportError:
                assert time.monotonic() < deadline, "navworld serve did not start"
                time.sleep(0.1)
        assert health["salt"] == "cli-salt" and health["status"] == "ok"
    finally:
        proc.terminate()
        proc.wait(10)

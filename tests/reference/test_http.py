"""The reference agent over real HTTP: uvicorn on 127.0.0.1 (the ``navworld serve`` app) and the
agent loop with the real ``openai`` client, compared with the in-process run."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from navworld.agents.fake_server import ServerThread
from navworld.agents.loop import run_episode
from navworld.agents.reference import MODEL_NAME, ReferencePlanner
from navworld.scoring.scorer import TravelScorer
from navworld.server.app import create_app

from .conftest import SALT, with_marker

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def server(world: Any) -> Iterator[ServerThread]:
    """``navworld serve``'s app (same world and salt as the client) under uvicorn."""
    app = create_app(world=world, salt=SALT)
    with ServerThread(app) as thread:
        yield thread


def _request(url: str, body: bytes | None = None) -> tuple[int, Any]:
    req = urllib.request.Request(url, data=body, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_models_endpoint_and_bad_requests(server: ServerThread) -> None:
    status, models = _request(server.url + "/v1/models")
    assert status == 200 and [m["id"] for m in models["data"]] == [MODEL_NAME]
    chat = server.url + "/v1/chat/completions"
    hello = [{"role": "user", "content": "hi"}]
    status, body = _request(chat, json.dumps({"model": MODEL_NAME, "messages": hello}).encode())
    assert status == 400 and "Task ID" in body["error"]["message"]
    status, body = _request(chat, json.dumps({"model": "gpt-4o", "messages": hello}).encode())
    assert status == 404 and body["error"]["code"] == "model_not_found"
    status, body = _request(chat, b"{not json")
    assert status == 400


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("task_id", "lang"), [(0, "zh"), (1, "zh"), (5, "en"), (6, "zh")])
async def test_http_episode_equals_in_process(server: ServerThread, world: Any, problem_of: Any, task_id: int, lang: str,
                                              stream: bool) -> None:
    problem = with_marker(problem_of(task_id, lang))
    local = await ReferencePlanner().run(problem, world, salt=SALT)
    remote = await run_episode(problem, world, model=MODEL_NAME, base_url=server.url + "/v1", timeout=120, stream=stream)
    assert remote.error is None and remote.finish == "answered"
    assert remote.answer == local.answer
    assert remote.trace == local.trace
    assert remote.steps == local.steps and remote.tool_calls == local.tool_calls
    scorer = TravelScorer(salt=SALT)
    assert scorer.score(problem, remote.trace, remote.answer).total == scorer.score(problem, local.trace, local.answer).total

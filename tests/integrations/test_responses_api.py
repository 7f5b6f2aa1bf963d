"""``POST /v1/responses`` of ``navworld serve`` with the real ``openai`` client (2.x or 3.x):
the reference agent's episode over the Responses API equals its chat-completions episode."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from openai import AsyncOpenAI

from navworld.agents.fake_server import ServerThread
from navworld.agents.reference import MODEL_NAME, ReferencePlanner
from navworld.core.problem import Problem
from navworld.scoring.scorer import TravelScorer
from navworld.server.responses_items import input_messages
from navworld.tasks.generator import ProblemGenerator
from navworld.tools.registry import TOOL_NAMES, call_tool, openai_tools
from navworld.world.sandbox import SandboxWorld

from .support import SALT

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

TOOLS = [{"type": "function", "name": t["function"]["name"], "description": t["function"]["description"],
          "parameters": t["function"]["parameters"], "strict": False} for t in openai_tools()]


def _post(url: str, body: bytes) -> tuple[int, Any]:
    req = urllib.request.Request(url, data=body, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


async def _play(client: AsyncOpenAI, problem: Problem, world: SandboxWorld, *, stream: bool,
                chained: bool) -> tuple[list[Any], str]:
    """Drive one episode through ``responses.create``; return the input items and the answer.

    ``chained`` sends only the new items with ``previous_response_id``; otherwise every request
    carries the whole conversation (what the Agents SDK does by default).
    """
    items: list[Any] = [{"role": "user", "content": problem.prompt}]
    new: list[Any] = list(items)
    previous: str | None = None
    for _ in range(40):
        kwargs: dict[str, Any] = {"model": MODEL_NAME, "instructions": problem.system_prompt, "tools": TOOLS}
        if chained and previous:
            kwargs["previous_response_id"] = previous
        sent = new if chained else items
        if stream:
            async with client.responses.stream(input=sent, **kwargs) as events:
                kinds = [e.type async for e in events]
                response = await events.get_final_response()
            assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
        else:
            response = await client.responses.create(input=sent, **kwargs)
        assert response.status == "completed" and response.model == MODEL_NAME
        previous = response.id
        calls = [o for o in response.output if o.type == "function_call"]
        if not calls:
            items.append({"role": "assistant", "content": response.output_text})
            return items, response.output_text
        new = []
        for c in calls:
            assert c.name in TOOL_NAMES
            items.append({"type": "function_call", "call_id": c.call_id, "name": c.name, "arguments": c.arguments})
        for c in calls:
            result = await call_tool(c.name, c.arguments, world, default_date=problem.travel_date or None)
            new.append({"type": "function_call_output", "call_id": c.call_id, "output": result.text})
        items.extend(new)
    raise AssertionError("the episode did not end")


@pytest.fixture(scope="module")
def server(world: SandboxWorld) -> Any:
    from navworld.server.app import create_app

    with ServerThread(create_app(world=world, salt=SALT)) as thread:
        yield thread


@pytest.mark.parametrize(("task_id", "stream", "chained"), [(0, False, False), (3, True, False), (6, False, True)])
async def test_responses_episode_equals_chat_episode(server: Any, world: SandboxWorld, task_id: int, stream: bool,
                                                     chained: bool) -> None:
    problem = ProblemGenerator(world).generate(task_id)
    local = await ReferencePlanner().run(problem, world, salt=SALT)
    client = AsyncOpenAI(base_url=server.url + "/v1", api_key="unused", max_retries=0)
    try:
        items, answer = await _play(client, problem, world, stream=stream, chained=chained)
    finally:
        await client.close()
    assert answer == local.answer
    trace = input_messages(problem.system_prompt, items)
    assert trace == local.trace
    scorer = TravelScorer(salt=SALT)
    assert scorer.score(problem, trace, answer).total == scorer.score(problem, local.trace, local.answer).total


def test_bad_requests(server: Any) -> None:
    url = server.url + "/v1/responses"
    status, body = _post(url, json.dumps({"model": MODEL_NAME, "input": "hello"}).encode())
    assert status == 400 and body["error"]["code"] == "no_task_marker"
    status, body = _post(url, json.dumps({"model": "gpt-5", "input": "Task ID: T1"}).encode())
    assert status == 404 and body["error"]["code"] == "model_not_found"
    status, body = _post(url, json.dumps({"model": MODEL_NAME}).encode())
    assert status == 400 and "input" in body["error"]["message"]
    status, body = _post(url, json.dumps({"model": MODEL_NAME, "input": [{"type": "function_call"}]}).encode())
    assert status == 400 and "call_id" in body["error"]["message"]
    status, body = _post(url, json.dumps({"model": MODEL_NAME, "input": "x", "previous_response_id": "resp_nope"}).encode())
    assert status == 404 and body["error"]["code"] == "previous_response_not_found"
    status, body = _post(url, b"[1, 2]")
    assert status == 400
    status, body = _post(url, b"{oops")
    assert status == 400

"""verifiers (v1): its own CLI (``vf-eval navworld-travel``, a real process) evaluates the seven task
types with the reference agent served by ``navworld serve`` as the model and gets the final scores
of ``navworld eval --agent reference``; verifiers' MCP tool client lists and calls the six tools of
a real ``navworld mcp`` streamable-HTTP process."""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from navworld.tools.registry import TOOL_NAMES
from tests.tools.test_mcp import CALLS

from .support import NAVWORLD, SALT, SEVEN, ServedProcess, child_env, free_port, needs

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), needs("verifiers")]


@pytest.fixture(scope="module")
def served() -> Any:
    port = free_port()
    with ServedProcess([*NAVWORLD, "serve", "--port", str(port), "--salt", SALT, "--log-level", "warning"],
                       port) as proc:
        yield proc


def test_vf_eval_cli_scores_like_navworld_eval(served: Any, eval_scores: dict[int, float], tmp_path: Path) -> None:
    vf_eval = str(Path(sys.executable).parent / "vf-eval")
    cmd = [vf_eval, "navworld-travel", "--model", "navworld-reference", "--client.base-url", served.url + "/v1",
           "--client.api-key-var", "NAVWORLD_API_KEY", "--env.agent.runtime.type", "subprocess",
           "--env.taskset.tasks", "0:7", "--env.taskset.salt", SALT, "--push", "false",
           "--output-dir", str(tmp_path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240, check=False,
                          env=child_env(NAVWORLD_API_KEY="unused-locally"))
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    files = list(tmp_path.rglob("traces.jsonl"))
    assert len(files) == 1
    traces = [t for line in files[0].read_text(encoding="utf-8").splitlines() if line
              for t in json.loads(line)["traces"]]
    by_task = {t["task"]["data"]["task_id"]: t for t in traces}
    assert sorted(by_task) == SEVEN
    for task_id, trace in by_task.items():
        assert trace["ok"], trace["errors"]
        assert trace["metrics"]["navworld_total"] == eval_scores[task_id], task_id
        assert trace["rewards"]["navworld_score"]["score"] == pytest.approx(eval_scores[task_id] / 100, abs=1e-6)
        outcome = trace["info"]["navworld"]
        assert outcome["step_rewards"] and outcome["tool_calls"] > 0
        assert trace["metrics"]["step_reward_mean"] == pytest.approx(
            sum(outcome["step_rewards"]) / len(outcome["step_rewards"]))


def test_load_environment_builds_the_taskset() -> None:
    from navworld.integrations.verifiers import NavworldHarness, NavworldTask, load_environment

    env = load_environment(tasks="0:3", salt=SALT, lang="en")
    tasks = list(env.taskset) if hasattr(env, "taskset") else []
    assert [t.data.task_id for t in tasks] == [0, 1, 2]
    assert all(isinstance(t, NavworldTask) and "Task ID: T" in t.data.prompt and t.data.salt == SALT for t in tasks)
    import navworld_travel

    assert navworld_travel.NavworldHarness is NavworldHarness


async def test_verifiers_mcp_client_lists_and_calls_the_six_tools() -> None:
    from verifiers.v1.harnesses.utils.mcp import call_mcp, connect_mcp

    port = free_port()
    with ServedProcess([*NAVWORLD, "mcp", "--transport", "http", "--port", str(port)], port, health="/mcp",
                       accept_status=True):
        async with AsyncExitStack() as stack:
            config = {"mcpServers": {"navworld": {"url": f"http://127.0.0.1:{port}/mcp"}}}
            schemas, dispatch, servers = await connect_mcp(config, stack)
            assert [s["function"]["name"] for s in schemas] == [f"navworld_{n}" for n in TOOL_NAMES]
            assert all(s["function"]["parameters"]["type"] == "object" for s in schemas)
            for name, args in CALLS.items():
                text = await call_mcp(servers, dispatch, f"navworld_{name}", args)
                assert isinstance(text, str) and text.startswith(name + "："), (name, text[:200])
            bad = await call_mcp(servers, dispatch, "navworld_weather", {"city": ""})
            assert isinstance(bad, str) and bad.startswith("错误")

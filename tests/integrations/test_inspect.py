"""inspect_ai: ``inspect eval navworld/travel`` (found through inspect's entry point, run as a real
process) with the model pointed at the reference endpoint of a ``navworld serve`` process scores
each task as ``navworld eval --agent reference`` does, within 3 s per sample."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .support import NAVWORLD, SALT, SEVEN, ServedProcess, child_env, free_port, needs

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), needs("inspect_ai")]


@pytest.fixture(scope="module")
def served() -> Any:
    port = free_port()
    with ServedProcess([*NAVWORLD, "serve", "--port", str(port), "--salt", SALT, "--log-level", "warning"],
                       port) as proc:
        yield proc


def _warm_up(url: str) -> None:
    """Let the reference agent plan the seven tasks once (it caches plans), as a warm model server."""
    from openai import OpenAI

    from navworld.tasks.generator import ProblemGenerator
    from navworld.world.sandbox import SandboxWorld

    generator = ProblemGenerator(SandboxWorld(SALT))
    client = OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0)
    for task_id in SEVEN:
        problem = generator.generate(task_id)
        client.chat.completions.create(model="navworld-reference", messages=[
            {"role": "system", "content": problem.system_prompt}, {"role": "user", "content": problem.prompt}])


def test_inspect_eval_scores_like_navworld_eval(served: Any, eval_scores: dict[int, float], tmp_path: Path) -> None:
    from inspect_ai.log import list_eval_logs, read_eval_log

    _warm_up(served.url)
    inspect_cli = str(Path(sys.executable).parent / "inspect")
    cmd = [inspect_cli, "eval", "navworld/travel", "--model", "openai/navworld-reference",
           "--model-base-url", served.url + "/v1", "-T", "tasks=0:7", "-T", f"salt={SALT}",
           "--log-dir", str(tmp_path), "--display", "none", "--max-connections", "4"]
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240, check=False,
                          env=child_env(OPENAI_API_KEY="unused-locally", INSPECT_LOG_FORMAT="eval"))
    wall = time.perf_counter() - started
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-2000:]
    logs = list_eval_logs(str(tmp_path))
    assert len(logs) == 1
    log = read_eval_log(logs[0])
    assert log.status == "success" and log.eval.task == "navworld/travel"
    samples = sorted(log.samples or [], key=lambda s: int(s.id))
    assert [int(s.id) for s in samples] == SEVEN
    for s in samples:
        score = next(iter(s.scores.values()))
        assert score.value["score"] == eval_scores[int(s.id)], s.id
        assert set(score.metadata["plan_metrics"]) >= {"delivered", "env_pass", "logic_pass", "final_pass"}
        assert "total" in score.metadata["navworld"]
        assert s.working_time is not None
        tool_messages = [m for m in s.messages if m.role == "tool"]
        assert tool_messages and not any(m.error for m in tool_messages)
    # The tools run in-process: a sample costs the model's turns, not a process per tool call
    # (measured: 1-2 s per sample on an idle 2-core machine; the bound leaves room for a loaded one).
    working = [s.working_time for s in samples]
    assert sum(working) / len(working) <= 3.0, working
    means = {r.name: r.metrics["mean"].value for r in log.results.scores}
    assert means["score"] == pytest.approx(sum(eval_scores.values()) / 7, abs=1e-3)
    assert set(means) >= {"delivered", "env_pass", "logic_pass", "final_pass"}
    assert wall / 7 <= 10.0  # whole process, start-up included


def test_in_process_tools_keep_budgets_and_errors(world: Any) -> None:
    import anyio
    from inspect_ai.tool import ToolDef

    from navworld.integrations.inspect import navworld_tools

    tools = {ToolDef(t).name: ToolDef(t) for t in navworld_tools(world, "2025-03-01")}
    assert sorted(tools) == sorted(["poi_search", "around_search", "direction", "weather", "search_flights",
                                    "search_train_tickets"])
    assert tools["direction"].parameters.required == ["origin", "destination"]

    async def run() -> list[str]:
        weather = tools["weather"].tool
        return [await weather(city="杭州") for _ in range(4)] + [await tools["poi_search"].tool(address="")]

    out = anyio.run(run)
    assert out[0].startswith("weather：") and "2025-03-01" in out[0]
    assert out[3].startswith("错误") and "weather" in out[3]  # the episode's weather budget is 3
    assert out[4].startswith("错误")

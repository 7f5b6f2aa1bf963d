"""In-process batch behaviour on the real generator, world and scorer with stub agents."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from navworld.core.problem import Problem
from navworld.runner.agents import ReferenceAgentAdapter, RunRecord
from navworld.runner.batch import run_eval
from navworld.runner.config import AgentSpec, EvalConfig
from navworld.runner.results import load_rows

from .conftest import HAS_REFERENCE


class FlakyAgent:
    """Raises on odd task ids, reports an infra error on multiples of 4, else answers briefly."""

    name = "flaky"

    async def run(self, problem: Problem, world: Any, *, salt: str) -> RunRecord:
        await asyncio.sleep(0)
        if problem.task_id % 2:
            raise RuntimeError(f"boom sk-test-SECRET {problem.task_id}")
        if problem.task_id % 4 == 0:
            return RunRecord(error="endpoint: connection refused")
        return RunRecord(trace=[{"role": "user", "content": problem.prompt}], answer="我不知道。")


def _config(tmp: Path, **kw: Any) -> EvalConfig:
    base: dict[str, Any] = {
        "task_ids": tuple(range(6)),
        "out": str(tmp / "run"),
        "salt": "t1",
        "concurrency": 3,
    }
    base.update(kw)
    return EvalConfig(**base)


def test_errors_are_recorded_not_scored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NAVWORLD_API_KEY", "sk-test-SECRET")
    config = _config(tmp_path, agent=AgentSpec(kind="model", model="stub", base_url="http://127.0.0.1:9/v1"))
    outcome = run_eval(config, agent=FlakyAgent())
    rows = {r["task_id"]: r for r in load_rows(tmp_path / "run")}
    assert len(rows) == 6 and outcome.summary["errors"] == 5
    assert rows[1]["error"].startswith("agent: RuntimeError") and "sk-test-SECRET" not in rows[1]["error"]
    assert rows[4]["error"] == "endpoint: connection refused" and rows[4]["score"] is None
    assert rows[2]["error"] is None and isinstance(rows[2]["score"], float) and rows[2]["score"] < 60
    assert outcome.summary["score_mean"] == rows[2]["score"]


def test_reference_adapter_error_when_absent() -> None:
    if HAS_REFERENCE:
        assert ReferenceAgentAdapter().name == "reference"
    else:
        with pytest.raises(Exception, match="reference agent"):
            ReferenceAgentAdapter()


class _PlannerRecord:
    def __init__(self, problem: Problem) -> None:
        self.trace = [
            {"role": "user", "content": problem.prompt},
            {"role": "assistant", "content": "计划如下。"},
        ]
        self.answer = "计划如下。"
        self.tool_calls = 0


def test_reference_adapter_accepts_planner_shapes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The adapter's contract with the (future) planner module: sync ``run`` without ``salt``."""
    import sys
    import types

    module = types.ModuleType("navworld.agents.reference")

    class ReferencePlanner:
        def run(self, problem: Problem, world: Any) -> _PlannerRecord:
            return _PlannerRecord(problem)

    module.ReferencePlanner = ReferencePlanner  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "navworld.agents.reference", module)
    outcome = run_eval(_config(tmp_path, task_ids=(0, 1)))
    rows = load_rows(tmp_path / "run")
    assert outcome.summary["errors"] == 0 and len(rows) == 2
    assert rows[0]["agent"] == {"name": "reference", "kind": "reference"} and rows[0]["steps"] == 1

"""In-process checks of the run bookkeeping: code-only and judge-failure summaries, infrastructure
errors retried on resume, run.json history and status, plain progress lines, the score tree."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from navworld.core.problem import Problem
from navworld.runner import batch
from navworld.runner.agents import RunRecord
from navworld.runner.batch import run_eval
from navworld.runner.breakdown import breakdown, render_text
from navworld.runner.config import AgentSpec, EvalConfig
from navworld.runner.progress import EvalProgress
from navworld.runner.report import build_report
from navworld.runner.results import load_rows
from navworld.runner.summary import CODE_ONLY_REASON, summarize

JUDGE = {"models": ["j"], "base_url": "http://127.0.0.1:9/v1"}


def _row(task: int, score: float | None, *, judge: bool, llm_error: str | None = None, error: str | None = None) -> dict[str, Any]:
    return {
        "task_id": task, "epoch": 0, "score": score, "code_score": score, "error": error, "steps": 2,
        "judge": JUDGE if judge else None, "success": bool(score and score >= 60),
        "report": None if error else {"llm_error": llm_error if judge else "no judge configured"},
        "plan": {"verification": None, "constraints": []},
    }  # fmt: skip


def test_code_only_success_is_not_applicable_never_zero() -> None:
    s = summarize([_row(0, 49.0, judge=False), _row(1, 48.0, judge=False)], tasks=2)
    assert s["success_rate"] is None and s["not_applicable"]["success_rate"] == CODE_ONLY_REASON
    assert s["judge_failures"] == {"count": 0, "of": 0, "rows": [], "reasons": {}}
    s2 = summarize([_row(t, 40.0, judge=False) | {"epoch": e} for t in range(2) for e in range(2)], tasks=2, epochs=2)
    assert s2["pass_k"] is None and s2["pass_at"] == {} and set(s2["not_applicable"]) >= {"pass_k", "pass_hat_k"}


def test_judge_failures_counted_and_success_kept_when_some_rows_were_judged() -> None:
    rows = [
        _row(0, 70.0, judge=True),
        _row(1, 45.0, judge=True, llm_error="unparseable reply: Expecting ',' delimiter"),
        _row(2, 44.0, judge=True, llm_error="unparseable reply: echo of the prompt"),
        _row(3, None, judge=True, error="timeout: the episode exceeded its time limit"),
    ]
    s = summarize(rows, tasks=4)
    assert s["judge_failures"] == {"count": 2, "of": 3, "rows": ["1/0", "2/0"], "reasons": {"unparseable reply": 2}}
    assert s["success_rate"] == pytest.approx(1 / 3, abs=1e-4) and "success_rate" not in s["not_applicable"]
    assert s["error_kinds"] == {"timeout": 1}
    every = summarize(rows[1:3], tasks=2)
    assert every["success_rate"] is None and "judge failed on every row" in every["not_applicable"]["success_rate"]


class FlakyOnce:
    """Fails on infrastructure the first time it sees a task, answers the second time."""

    name = "flaky-once"

    def __init__(self) -> None:
        self.seen: set[int] = set()

    async def run(self, problem: Problem, world: Any, *, salt: str) -> RunRecord:
        if problem.task_id not in self.seen:
            self.seen.add(problem.task_id)
            return RunRecord(error="connection: Connection error.")
        return RunRecord(trace=[{"role": "user", "content": problem.prompt}], answer="我不知道。")


def _config(tmp: Path) -> EvalConfig:
    agent = AgentSpec(kind="model", model="stub", base_url="http://127.0.0.1:9/v1")
    return EvalConfig(task_ids=(0, 1), out=str(tmp / "run"), salt="t1", agent=agent)


def test_infra_errors_are_retried_on_resume_and_history_kept(tmp_path: Path) -> None:
    config, agent = _config(tmp_path), FlakyOnce()
    first = run_eval(config, agent=agent)
    assert first.summary["errors"] == 2 and first.status == "complete"
    kept = run_eval(config, agent=agent, retry_errors=False)
    assert kept.new == 0 and kept.summary["errors"] == 2
    second = run_eval(config, agent=agent)
    assert second.new == 2 and second.retried == 2 and second.summary["errors"] == 0
    assert all(r["error"] is None for r in load_rows(tmp_path / "run"))
    info = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    assert [i["new"] for i in info["invocations"]] == [2, 0, 2] and info["invocations"][2]["retried"] == 2
    assert info["started_at"] == info["invocations"][0]["started_at"]
    assert info["seconds_total"] == pytest.approx(sum(i["seconds"] for i in info["invocations"]), abs=0.01)


def test_an_exception_is_recorded_as_failed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: Any, **kwargs: Any) -> int:
        raise RuntimeError("the cluster is gone")

    monkeypatch.setattr(batch, "run_local", broken)
    with pytest.raises(RuntimeError):
        run_eval(_config(tmp_path), agent=FlakyOnce())
    info = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    assert info["status"] == "failed" and "the cluster is gone" in info["error"]
    assert "run status: failed" in build_report(tmp_path / "run")


def test_older_run_json_gains_a_history(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    legacy = {"status": "complete", "started_at": "2026-01-01T00:00:00+00:00", "summary": {"seconds": 5.0, "new": 2}}
    (run / "run.json").write_text(json.dumps(legacy), encoding="utf-8")
    run_eval(_config(tmp_path), agent=FlakyOnce())
    info = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert info["started_at"] == legacy["started_at"] and len(info["invocations"]) == 2
    assert info["invocations"][0]["seconds"] == 5.0


def test_plain_progress_lines_without_a_terminal() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=False)
    with EvalProgress(console, interval=0.05) as progress:
        progress.start(3, 1)
        progress.advance({"score": 40.0})
        time.sleep(0.2)
        progress.advance({"error": "timeout"})
    lines = buffer.getvalue().splitlines()
    assert lines[0] == "eval: 3 to run (1 already stored)"
    assert any(line.startswith("eval: 1/3 (33%)  errors 0  mean 40.0") and "ETA" in line for line in lines)
    assert lines[-1].startswith("eval: 2/3 (67%)  errors 1") and lines[-1].endswith("stopped")
    quiet = io.StringIO()
    with EvalProgress(Console(file=quiet), enabled=False) as off:
        off.start(1, 0)
        off.advance({"score": 1.0})
    assert quiet.getvalue() == ""


def test_breakdown_tree_puts_failures_first_and_says_no_judge() -> None:
    from .test_report import make_row

    row = make_row(1, 30.0)
    root = breakdown(row)
    labels = [c.label for c in root.children]
    assert labels[0] == "hard constraints" and root.children[0].ok is False  # failed first
    plan = next(c for c in root.children if c.label == "plan verification")
    env = plan.children[0]
    assert env.children[0].label == "time_order" and env.children[0].ok is False
    text = "\n".join(render_text(root))
    assert "no judge (code-only score, max 50)" in text and "llm_score" not in text
    assert "✗ format_valid" in text


def test_breakdown_says_when_one_cited_figure_matches_several_tool_facts() -> None:
    """Distances count the tool facts a cited figure is near; the tree must not print "28/21 matched"."""
    row = {"report": {"total": 50.0, "code_score": {"subtotal": 50.0, "info_consistency": 25.0, "ic_categories": {
        "pois": {"tool": 58, "answer": 21, "matched": 21, "score": 1.0},
        "distances": {"tool": 35, "answer": 21, "matched": 28, "score": 1.0}}}}}
    text = "\n".join(render_text(breakdown(row)))
    assert "pois: 21/21 matched · 58 in tools" in text
    assert "distances: 21 cited, 28 tool facts matched · 35 in tools" in text
    assert "28/21" not in text

"""``navworld score``: human output, --json debug report, --safe view, bad arguments (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from navworld.cli import app
from navworld.scoring.scorer import TravelScorer

from .cases import CASES

runner = CliRunner()


def _files(tmp_path: Path, ptype: str = "business") -> tuple[Path, Path, Path]:
    c = CASES[ptype]
    trace, answer, problem = tmp_path / "trace.json", tmp_path / "answer.md", tmp_path / "problem.json"
    trace.write_text(json.dumps(c.trace, ensure_ascii=False), encoding="utf-8")
    answer.write_text(c.answer, encoding="utf-8")
    problem.write_text(json.dumps(c.problem.to_dict(), ensure_ascii=False), encoding="utf-8")
    return trace, answer, problem


def test_score_json_is_the_debug_report(tmp_path: Path) -> None:
    trace, answer, problem = _files(tmp_path)
    res = runner.invoke(
        app,
        [
            "score",
            "--problem",
            str(problem),
            "--trace",
            str(trace),
            "--answer",
            str(answer),
            "--salt",
            "cli",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    c = CASES["business"]
    assert data == TravelScorer(salt="cli").score(c.problem, c.trace, c.answer).to_dict()
    assert {
        "total",
        "code_score",
        "llm_score",
        "hard_constraints",
        "parse_success",
        "llm_validation_success",
        "path",
        "constraints",
        "plan_verification",
    } <= set(data)


def test_score_task_safe_and_human(tmp_path: Path) -> None:
    trace, answer, problem = _files(tmp_path)
    res = runner.invoke(
        app, ["score", "--task", "5", "--trace", str(trace), "--answer", str(answer), "--safe"]
    )
    assert res.exit_code == 0, res.output
    assert {"total", "code_band", "llm_band", "noisy_code", "noisy_llm", "llm_available"} <= set(
        json.loads(res.stdout)
    )
    res = runner.invoke(app, ["score", "--task", "5", "--trace", str(trace), "--answer", str(answer)])
    # the Hangzhou trace is off-topic for task 5's cities (no grounding → P1); the CLI still reports
    assert res.exit_code == 0 and "task 5" in res.stdout and "path P" in res.stdout
    res = runner.invoke(app, ["score", "--problem", str(problem), "--trace", str(trace), "--answer", str(answer)])
    assert res.exit_code == 0 and "path P5" in res.stdout


def test_bad_arguments_exit_2(tmp_path: Path) -> None:
    trace, answer, _ = _files(tmp_path)
    bad_trace = tmp_path / "bad.json"
    bad_trace.write_text("{nope", encoding="utf-8")
    for args in (
        ["score", "--task", "x", "--trace", str(trace), "--answer", str(answer)],
        ["score", "--task", "1", "--trace", str(tmp_path / "missing.json"), "--answer", str(answer)],
        ["score", "--task", "1", "--trace", str(bad_trace), "--answer", str(answer)],
        ["score", "--task", "1", "--answer", str(answer)],
        ["score", "--trace", str(trace), "--answer", str(answer)],
    ):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)

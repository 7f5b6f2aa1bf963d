"""``navworld verify``: JSON output, exit statuses 0/1/2, task and problem sources."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import navworld.cli  # noqa: F401  (registers the commands)
from navworld.cli.app import app

sandbox = pytest.importorskip("navworld.world.sandbox")
from test_verify_sandbox import _trace, build_sandbox_plan  # noqa: E402


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    world = sandbox.SandboxWorld(salt="cli-test")
    plan, problem = build_sandbox_plan(world)
    problem = problem.model_copy(update={"hard_logic": ["result = day_count(plan) == 2"], "hard_logic_nl": ["2 days"],
                                         "preferences": ["maximize n\nn = attraction_count(plan)"]})
    d = tmp_path_factory.mktemp("verify")
    paths = {
        "plan": d / "plan.json",
        "answer": d / "answer.md",
        "problem": d / "problem.json",
        "trace": d / "trace.json",
        "bad_plan": d / "bad.json",
        "not_json": d / "x.json",
    }
    paths["plan"].write_text(json.dumps(plan, ensure_ascii=False), encoding="utf-8")
    paths["answer"].write_text("行程如下：\n```json\n" + json.dumps(plan, ensure_ascii=False) + "\n```\n", encoding="utf-8")
    paths["problem"].write_text(json.dumps(problem.to_dict(), ensure_ascii=False), encoding="utf-8")
    paths["trace"].write_text(json.dumps(_trace(plan), ensure_ascii=False), encoding="utf-8")
    bad = json.loads(json.dumps(plan))
    bad["itinerary"][0]["activities"][2]["price"] = 12345.0
    paths["bad_plan"].write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    paths["not_json"].write_text("{not json", encoding="utf-8")
    return paths


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["verify", *args])


def test_passing_plan_exit_0_json(files: dict[str, Path]) -> None:
    r = run("--plan", str(files["plan"]), "--problem", str(files["problem"]), "--trace", str(files["trace"]),
            "--json", "--salt", "cli-test")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert set(d) == {"delivered", "env", "logic", "preferences", "final_pass", "reasons", "violations"}
    assert d["final_pass"] is True and d["logic"]["results"] == [True] and d["preferences"] == {"n": 2.0}


def test_answer_file_and_human_output(files: dict[str, Path]) -> None:
    r = run("--plan", str(files["answer"]), "--problem", str(files["problem"]), "--salt", "cli-test")
    assert r.exit_code == 0, r.output
    assert "final: PASS" in r.stdout and "grounding: not checked" in r.stdout


def test_failing_plan_exit_1(files: dict[str, Path]) -> None:
    r = run("--plan", str(files["bad_plan"]), "--problem", str(files["problem"]), "--salt", "cli-test")
    assert r.exit_code == 1
    assert "✗ attraction_price" in r.stdout and "final: FAIL" in r.stdout
    r = run("--plan", str(files["not_json"]), "--problem", str(files["problem"]), "--salt", "cli-test", "--json")
    assert r.exit_code == 1
    assert json.loads(r.stdout)["delivered"] is False


@pytest.mark.parametrize(
    "args",
    [
        ["--plan", "/nonexistent/plan.json", "--task", "0"],
        ["--task", "0"],
        ["--plan", "{plan}"],
        ["--plan", "{plan}", "--task", "abc"],
        ["--plan", "{plan}", "--problem", "{not_json}"],
        ["--plan", "{plan}", "--problem", "{plan}"],
        ["--plan", "{plan}", "--task", "0", "--problem", "{problem}"],
        ["--plan", "{plan}", "--task", "0", "--trace", "{not_json}"],
        ["--plan", "{plan}", "--task", "0", "--bogus"],
    ],
)
def test_bad_arguments_exit_2(files: dict[str, Path], args: list[str]) -> None:
    filled = [a.format(**{k: str(v) for k, v in files.items()}) for a in args]
    r = run(*filled)
    assert r.exit_code == 2, r.output
    assert r.stdout == ""


def test_task_source(files: dict[str, Path]) -> None:
    pytest.importorskip("navworld.tasks.generator")
    r = run("--plan", str(files["plan"]), "--task", "8", "--json", "--salt", "cli-test")
    assert r.exit_code == 1  # a Shanghai→Hangzhou plan is not task 8's plan
    d = json.loads(r.stdout)
    assert d["delivered"] is True and d["env"]["checks"]["task_match"] in (True, False)


@pytest.mark.slow
def test_real_process(files: dict[str, Path]) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from navworld.cli import main; sys.argv[0] = 'navworld'; main()", "verify", "--plan", str(files["plan"]), "--problem", str(files["problem"]),
         "--json", "--salt", "cli-test"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["final_pass"] is True

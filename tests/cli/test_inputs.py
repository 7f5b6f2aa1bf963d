"""Shared CLI inputs: problems follow the world's salt; unreadable files exit 2 with one line."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from navworld.cli.inputs import load_problem, read_json
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld


def test_task_problem_is_generated_on_the_given_world() -> None:
    # the salt shapes budgets and timetables, so `score`/`verify --salt S` must see S's problem
    a, b = SandboxWorld(salt="a"), SandboxWorld(salt="b")
    pa, pb = load_problem("3", None, a), load_problem("3", None, b)
    assert pa.to_dict() == ProblemGenerator(a).generate(3).to_dict()
    assert pb.to_dict() == ProblemGenerator(b).generate(3).to_dict()
    assert pa.to_dict() != pb.to_dict()


@pytest.mark.parametrize(
    ("task", "problem", "needle"),
    [(None, None, "give --task"), ("x1", None, "integer"), ("-1", None, "task"), ("1", Path("p.json"), "not both")],
)
def test_bad_problem_arguments_exit_2(task: str | None, problem: Path | None, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(typer.Exit) as exc:
        load_problem(task, problem, SandboxWorld(salt="a"))
    assert exc.value.exit_code == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


def test_malformed_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "trace.json"
    bad.write_text("[{", encoding="utf-8")
    with pytest.raises(typer.Exit):
        read_json(bad, "trace")
    assert "trace" in capsys.readouterr().err

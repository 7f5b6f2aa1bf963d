"""``navworld task show``: JSON, human view, languages, bad ids (exit 2, one line)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from navworld.cli import app
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld

runner = CliRunner()


def test_show_json_is_the_problem_dict() -> None:
    res = runner.invoke(app, ["task", "show", "9", "--json", "--salt", "cli-test"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data == ProblemGenerator(SandboxWorld(salt="cli-test")).generate(9).to_dict()


def test_show_json_english() -> None:
    res = runner.invoke(app, ["task", "show", "2", "--json", "--lang", "en", "--salt", "cli-test"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["lang"] == "en" and data["prompt"].startswith("I plan")


def test_show_human_view_has_fields_prompt_and_programs() -> None:
    res = runner.invoke(app, ["task", "show", "15", "--salt", "cli-test"])
    assert res.exit_code == 0
    out = res.stdout
    p = ProblemGenerator(SandboxWorld(salt="cli-test")).generate(15)
    assert "destination_city" in out and p.destination_city in out
    assert p.prompt.splitlines()[0] in out
    assert "result = day_count(plan) ==" in out
    for gloss in p.hard_logic_nl:
        assert gloss in out


@pytest.mark.parametrize(
    ("arg", "message"),
    [("-1", "≥ 0"), ("abc", "integer"), ("1.5", "integer"), ("1000000001", "≤"), ("", "integer")],
)
def test_bad_ids_exit_2_with_one_line(arg: str, message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from navworld.cli import main; main()", "task", "show", arg],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert proc.stdout == ""


def test_bad_lang_exits_2() -> None:
    res = runner.invoke(app, ["task", "show", "1", "--lang", "fr"])
    assert res.exit_code == 2

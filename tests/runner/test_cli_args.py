"""Bad ``navworld eval`` / ``navworld report`` arguments exit 2 with exactly one line on stderr."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import run_cli

BAD = [
    [],
    ["--tasks", "5:3"],
    ["--tasks", "abc"],
    ["--tasks", "0:3", "--concurrency", "0"],
    ["--tasks", "0:3", "--concurrency", "many"],
    ["--tasks", "0:3", "--epochs", "-1"],
    ["--tasks", "0:3", "--backend", "spark"],
    ["--tasks", "0:3", "--lang", "fr"],
    ["--tasks", "0:3", "--agent", "reference", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"],
    ["--tasks", "0:3", "--model", "m"],
    ["--tasks", "0:3", "--agent", "wizard"],
    ["--tasks", "0:3", "--judge-model", "j"],
    ["--tasks", "0:3", "--ray-address", "127.0.0.1:6379"],
    ["--tasks", "0:3", "--bogus"],
    ["--tasks", "0:3", "--world", "atlantis"],
    ["--tasks", "0:3", "--world", "replay"],
    ["--tasks"],
    ["--tasks", "@missing-file.txt"],
    ["--tasks", "99999999999999", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"],
]


@pytest.mark.parametrize("args", BAD, ids=lambda a: " ".join(a) or "no-args")
def test_eval_bad_args_exit_2(args: list[str], tmp_path: Path) -> None:
    proc = run_cli(
        ["eval", *args, "--out", str(tmp_path / "run")] if args and args != ["--tasks"] else ["eval", *args],
        tmp_path,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), proc.stderr
    assert not (tmp_path / "run").exists()


def test_env_var_is_read_and_validated(tmp_path: Path) -> None:
    proc = run_cli(["eval", "--out", str(tmp_path / "run")], tmp_path, NAVWORLD_TASKS="9:1")
    assert proc.returncode == 2 and "9:1" in proc.stderr


@pytest.mark.parametrize("args", [["report", "nowhere"], ["report"], ["report", ".", "--vs", "nowhere"]])
def test_report_bad_args(args: list[str], tmp_path: Path) -> None:
    (tmp_path / "results.jsonl").write_text("", encoding="utf-8")
    proc = run_cli(args, tmp_path)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1

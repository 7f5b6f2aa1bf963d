"""``navworld eval`` model- and judge-call flags, end to end against local-server-shaped endpoints."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from navworld.agents.fake import GroundedPlanner
from navworld.runner.config import AgentSpec, JudgeSpec
from tests.agents.endpoint_shapes import LocalServer
from tests.scoring.messy_judges import MessyJudges

from .helpers import result_lines, run_cli


@pytest.fixture(scope="module")
def local() -> Iterator[LocalServer]:
    with LocalServer(GroundedPlanner(), strict=True, max_tokens_limit=4096) as server:
        yield server


def _eval(tmp_path: Path, server: LocalServer, *extra: str) -> tuple[int, str, list[dict]]:
    out = tmp_path / "run"
    proc = run_cli(["eval", "--model", "m", "--base-url", server.base_url, "--tasks", "3", "--salt", "t1",
                    "--out", str(out), "--no-report", "--json", *extra], tmp_path)  # fmt: skip
    return proc.returncode, proc.stderr, result_lines(out) if (out / "results.jsonl").exists() else []


def test_max_tokens_seed_and_call_timeout_reach_every_request(tmp_path: Path, local: LocalServer) -> None:
    before = len(local.requests)
    code, err, rows = _eval(tmp_path, local, "--max-tokens", "2048", "--seed", "7", "--call-timeout", "30")
    assert code == 0, err
    (row,) = rows
    assert row["error"] is None and row["score"] is not None and row["steps"] >= 2
    assert row["truncated"] is False and row["finish"] == "answered"
    sent = local.requests[before:]
    assert sent and all(b["max_tokens"] == 2048 and b["seed"] == 7 and b["stream"] for b in sent)
    assert row["agent"]["seed"] == 7 and row["agent"]["max_tokens"] == 2048  # recorded in the identity
    config = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))["config"]
    assert (config["agent"]["call_timeout"], config["agent"]["seed"]) == (30.0, 7)


def test_a_rejected_max_tokens_is_one_request_and_a_clear_row_error(tmp_path: Path, local: LocalServer) -> None:
    before = local.posts
    code, err, rows = _eval(tmp_path, local, "--max-tokens", "9000")
    assert code == 3, err  # every row failed on infrastructure
    (row,) = rows
    assert local.posts == before + 1  # no retry, no re-dispatch
    assert row["score"] is None and row["error"].startswith(f"invalid_request: HTTP 500 from {local.base_url}")
    assert "'type': 'less_than_equal', 'loc': ('body', 'max_tokens')" in row["error"]
    assert "POST /v1/chat/completions" in row["error"]


def test_judge_flags_reach_the_judge(tmp_path: Path, local: LocalServer) -> None:
    with MessyJudges() as judges:
        code, err, rows = _eval(tmp_path, local, "--max-tokens", "2048", "--judge-model", "echo", "--judge-base-url", judges.base_url,
                                "--judge-retries", "0", "--judge-timeout", "20", "--judge-max-tokens", "300")  # fmt: skip
        bodies = judges.bodies("echo")
    assert code == 0, err
    (row,) = rows
    assert len(bodies) == 1 and bodies[0]["max_tokens"] == 300  # retries 0: asked once
    assert row["report"]["llm_error"].startswith("unparseable reply: the reply echoes the prompt")
    assert row["report"]["judge"]["error_kind"] == "unparseable reply"
    assert row["judge"] == {"models": ["echo"], "base_url": judges.base_url, "max_tokens": 300}


@pytest.mark.parametrize(
    "args",
    [
        ["--max-tokens", "0"],
        ["--max-tokens", "many"],
        ["--call-timeout", "0"],
        ["--call-timeout", "-5"],
        ["--call-timeout", "soon"],
        ["--seed", "1.5"],
        ["--judge-timeout", "0"],
        ["--judge-retries", "-1"],
        ["--judge-max-tokens", "0"],
    ],
    ids=" ".join,
)
def test_bad_call_flags_exit_2(tmp_path: Path, args: list[str]) -> None:
    proc = run_cli(["eval", "--tasks", "0:2", "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                    "--out", str(tmp_path / "run"), *args], tmp_path)  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --") and args[0] in lines[0]


def test_flags_read_their_environment_variables(tmp_path: Path) -> None:
    proc = run_cli(["eval", "--tasks", "0:2", "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                    "--out", str(tmp_path / "run")], tmp_path, NAVWORLD_CALL_TIMEOUT="never")  # fmt: skip
    assert proc.returncode == 2 and "--call-timeout" in proc.stderr


def test_default_settings_keep_the_identity_of_earlier_rows() -> None:
    spec = AgentSpec(kind="model", model="m", base_url="http://h/v1")
    assert spec.identity() == {"kind": "model", "model": "m", "base_url": "http://h/v1", "temperature": 0.7}
    assert "seed" in AgentSpec(kind="model", model="m", base_url="http://h/v1", seed=0).identity()
    assert JudgeSpec(models=("j",), base_url="http://h/v1").identity() == {"models": ["j"], "base_url": "http://h/v1"}

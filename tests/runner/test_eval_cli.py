"""``navworld eval`` end to end through the CLI (subprocesses), with the scripted model served on
127.0.0.1 and with the reference agent: results, --json, resume, interruption, secrets."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from .conftest import SECRET, requires_reference
from .helpers import count_lines, popen_cli, result_lines, run_cli

pytestmark = pytest.mark.slow

ROW_FIELDS = {
    "schema_version", "task_id", "epoch", "problem_type", "difficulty", "lang", "agent", "score", "report",
    "plan", "steps", "tool_calls", "tokens", "seconds", "error", "answer", "trace", "world_version",
    "generator_version", "scorer_version", "salt", "content_hash",
}  # fmt: skip


def _json(stdout: str) -> dict[str, object]:
    obj = json.loads(stdout)  # the whole of stdout is one JSON document
    assert isinstance(obj, dict)
    return obj


def test_model_eval_json_resume_and_no_secret(tmp_path: Path, model_args: list[str]) -> None:
    out = tmp_path / "run"
    args = [
        "eval",
        *model_args,
        "--tasks",
        "0:7",
        "--salt",
        "t1",
        "--out",
        str(out),
        "--concurrency",
        "3",
        "--json",
    ]
    first = run_cli(args, tmp_path, NAVWORLD_API_KEY=SECRET)
    assert first.returncode == 0, first.stderr
    summary = _json(first.stdout)
    assert summary["tasks"] == 7 and summary["completed"] == 7 and summary["new"] == 7
    assert summary["errors"] == 0, first.stderr
    for key in ("score_mean", "code_score_mean", "success_rate", "dr", "epr_micro", "epr_macro", "lpr_micro",
                "lpr_macro", "c_lpr", "fpr", "steps_mean", "seconds"):  # fmt: skip
        assert key in summary
    assert isinstance(summary["score_mean"], float) and 0 <= summary["score_mean"] <= 100
    rows = result_lines(out)
    assert len(rows) == 7 and sorted(r["task_id"] for r in rows) == list(range(7))
    for row in rows:
        assert ROW_FIELDS <= set(row)
        assert row["agent"]["model"] == "fake-planner" and row["salt"] == "t1"
        assert row["trace"][0]["role"] == "system" and row["tool_calls"] > 0
    run_json = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run_json["status"] == "complete" and run_json["config"]["agent"]["model"] == "fake-planner"
    assert (out / "report.html").is_file()
    for path in out.rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(encoding="utf-8", errors="replace"), path

    second = run_cli(args, tmp_path, NAVWORLD_API_KEY=SECRET)
    assert second.returncode == 0, second.stderr
    again = _json(second.stdout)
    assert again["new"] == 0 and again["completed"] == 7 and again["score_mean"] == summary["score_mean"]
    assert len(result_lines(out)) == 7

    other_args = ["eval", *model_args, "--tasks", "0:7", "--salt", "t2", "--out", str(out), "--json"]
    other_salt = run_cli(other_args, tmp_path)
    assert other_salt.returncode == 0, other_salt.stderr
    assert _json(other_salt.stdout)["new"] == 7  # another salt never reuses rows
    assert len(result_lines(out)) == 14


def test_table_summary_says_new_0(tmp_path: Path, model_args: list[str]) -> None:
    args = ["eval", *model_args, "--tasks", "3,5", "--salt", "t1", "--out", str(tmp_path / "r")]
    assert run_cli(args, tmp_path).returncode == 0
    proc = run_cli(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "new: 0" in proc.stdout and "completed: 2" in proc.stdout


def test_default_out_resumes_same_configuration(tmp_path: Path, model_args: list[str]) -> None:
    args = ["eval", *model_args, "--tasks", "1", "--salt", "t1", "--json"]
    first = _json(run_cli(args, tmp_path).stdout)
    second = _json(run_cli(args, tmp_path).stdout)
    assert first["new"] == 1 and second["new"] == 0 and first["out"] == second["out"]
    assert str(first["out"]).startswith("runs/")
    third = _json(run_cli([*args, "--lang", "en"], tmp_path).stdout)
    assert third["new"] == 1 and third["out"] != first["out"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_interrupted_run_resumes_without_duplicates(
    tmp_path: Path, model_args: list[str], sig: signal.Signals
) -> None:
    out = tmp_path / "run"
    n = 28
    args = ["eval", *model_args, "--tasks", f"0:{n}", "--salt", "t1", "--out", str(out), "--concurrency", "1"]
    proc = popen_cli(args, tmp_path)
    deadline = time.monotonic() + 120
    while count_lines(out) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before it could be interrupted"
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    stored = count_lines(out)
    assert 3 <= stored < n
    if sig == signal.SIGINT:
        assert proc.returncode == 130
        assert json.loads((out / "run.json").read_text(encoding="utf-8"))["status"] == "interrupted"
    resumed = run_cli([*args, "--json"], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    summary = _json(resumed.stdout)
    assert summary["completed"] == n and summary["new"] == n - stored
    rows = result_lines(out)
    assert len(rows) == n and len({r["content_hash"] for r in rows}) == n
    assert sorted(r["task_id"] for r in rows) == list(range(n))


def test_epochs_add_pass_k_and_interval(tmp_path: Path, model_args: list[str]) -> None:
    args = [
        "eval",
        *model_args,
        "--tasks",
        "0:3",
        "--epochs",
        "2",
        "--salt",
        "t1",
        "--out",
        str(tmp_path / "r"),
        "--json",
    ]
    proc = run_cli(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = _json(proc.stdout)
    assert summary["completed"] == 6 and "pass_k" in summary and len(summary["score_ci95"]) == 2
    rows = result_lines(tmp_path / "r")
    assert sorted((r["task_id"], r["epoch"]) for r in rows) == [(t, e) for t in range(3) for e in range(2)]


def test_report_command_and_comparison(tmp_path: Path, model_args: list[str]) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert (
        run_cli(
            ["eval", *model_args, "--tasks", "0:4", "--salt", "t1", "--out", str(a), "--no-report"], tmp_path
        ).returncode
        == 0
    )
    assert (
        run_cli(
            ["eval", *model_args, "--tasks", "2:6", "--salt", "t2", "--out", str(b), "--no-report"], tmp_path
        ).returncode
        == 0
    )
    assert not (a / "report.html").exists()
    proc = run_cli(
        ["report", str(a), "--vs", str(b), "--out", str(tmp_path / "cmp.html"), "--json"], tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert _json(proc.stdout) == {"report": str(tmp_path / "cmp.html"), "rows": 4}
    html = (tmp_path / "cmp.html").read_text(encoding="utf-8")
    assert 'id="comparison"' in html and "2 shared tasks" in html


def test_worker_processes_give_the_same_rows(tmp_path: Path, model_args: list[str]) -> None:
    common = ["eval", *model_args, "--tasks", "0:6", "--salt", "t1", "--no-report", "--json"]
    one = run_cli([*common, "--out", str(tmp_path / "one")], tmp_path)
    two = run_cli([*common, "--out", str(tmp_path / "two"), "--workers", "2"], tmp_path)
    assert one.returncode == 0 and two.returncode == 0, two.stderr

    def scores(name: str) -> dict[int, tuple[object, object]]:
        return {r["task_id"]: (r["score"], r["content_hash"]) for r in result_lines(tmp_path / name)}

    assert scores("one") == scores("two") and len(scores("two")) == 6


def test_judge_is_wired_and_changes_the_hash(tmp_path: Path, model_args: list[str]) -> None:
    out = tmp_path / "run"
    base = ["eval", *model_args, "--tasks", "4", "--salt", "t1", "--out", str(out), "--no-report", "--json"]
    assert run_cli(base, tmp_path).returncode == 0
    judged = run_cli(
        [*base, "--judge-model", "judge-a", "--judge-base-url", "http://127.0.0.1:9/v1"], tmp_path
    )
    assert judged.returncode == 0, judged.stderr
    assert _json(judged.stdout)["new"] == 1  # a judge makes a different row
    plain, with_judge = result_lines(out)
    assert plain["judge"] is None and with_judge["judge"] == {
        "models": ["judge-a"],
        "base_url": "http://127.0.0.1:9/v1",
    }
    assert plain["content_hash"] != with_judge["content_hash"]
    assert with_judge["report"]["llm_error"]  # unreachable judge → code-only score, reason recorded


@requires_reference
def test_reference_agent_default_and_resume(tmp_path: Path) -> None:
    args = ["eval", "--tasks", "0:7", "--salt", "t1", "--out", str(tmp_path / "ref"), "--json"]
    first = run_cli(args, tmp_path)
    assert first.returncode == 0, first.stderr
    summary = _json(first.stdout)
    assert summary["new"] == 7 and summary["errors"] == 0 and summary["dr"] == 1.0
    assert result_lines(tmp_path / "ref")[0]["agent"]["kind"] == "reference"
    second = _json(run_cli(args, tmp_path).stdout)
    assert second["new"] == 0 and second["score_mean"] == summary["score_mean"]

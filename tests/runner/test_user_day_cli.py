"""Issue 16 through the real CLI (subprocesses): runs that tell the truth and the tools to look at
results — .env from the working directory, infrastructure errors (exit 3, endpoint named, retried on
resume), code-only summaries, run.json history and status, --vs output, filters, --fail-under, CSV,
runs/show/task list, --version and plain progress lines."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import FAKE_MODEL, requires_reference
from .helpers import result_lines, run_cli

pytestmark = pytest.mark.slow


def _json(stdout: str) -> Any:
    return json.loads(stdout)


def _run_json(out: Path) -> dict[str, Any]:
    return json.loads((out / "run.json").read_text(encoding="utf-8"))


@requires_reference
def test_dotenv_in_the_working_directory_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("NAVWORLD_SALT=from-dotenv\nNAVWORLD_LANG=en\n", encoding="utf-8")
    out = tmp_path / "run"
    proc = run_cli(["eval", "--tasks", "3", "--out", str(out), "--no-report", "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    row = result_lines(out)[0]
    assert row["salt"] == "from-dotenv" and row["lang"] == "en"
    # the environment wins over .env
    again = run_cli(["eval", "--tasks", "3", "--out", str(out), "--no-report", "--json"], tmp_path, NAVWORLD_SALT="env")
    assert again.returncode == 0 and result_lines(out)[-1]["salt"] == "env"


def test_infra_errors_exit_3_name_the_endpoint_and_are_retried(tmp_path: Path, fake_model: Any) -> None:
    out = tmp_path / "run"
    args = ["eval", "--model", "no-such-model", "--base-url", fake_model.base_url, "--tasks", "0:3", "--salt", "t1",
            "--out", str(out), "--no-report", "--json"]  # fmt: skip
    first = run_cli(args, tmp_path)
    assert first.returncode == 3, first.stderr
    summary = _json(first.stdout)
    assert summary["errors"] == 3 and summary["new"] == 3 and summary["score_mean"] is None
    assert "every row failed on infrastructure" in first.stderr
    rows = result_lines(out)
    assert all(fake_model.base_url in r["error"] and "no-such-model" in r["error"] for r in rows)
    retried = run_cli(args, tmp_path)  # infrastructure errors are retried by default
    assert retried.returncode == 3
    again = _json(retried.stdout)
    assert again["new"] == 3 and again["retried"] == 3 and again["completed"] == 3
    kept = run_cli([*args, "--no-retry-errors"], tmp_path)
    assert kept.returncode == 3 and _json(kept.stdout)["new"] == 0
    assert len(result_lines(out)) == 6  # retried rows are appended; the last row of a hash wins


def test_code_only_summary_says_not_applicable(tmp_path: Path, model_args: list[str]) -> None:
    out = tmp_path / "run"
    base = ["eval", *model_args, "--tasks", "0:3", "--salt", "t1", "--out", str(out), "--no-report"]
    proc = run_cli([*base, "--epochs", "2", "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = _json(proc.stdout)
    assert summary["success_rate"] is None and summary["pass_k"] is None
    assert "code-only" in summary["not_applicable"]["success_rate"]
    assert "60" in summary["not_applicable"]["pass_k"]
    assert summary["judge_failures"]["count"] == 0
    table = run_cli([*base, "--epochs", "2"], tmp_path)
    assert table.returncode == 0
    assert "success_rate: n/a (code-only" in table.stdout and "success_rate: 0.0" not in table.stdout
    assert "pass_k" in table.stdout and "0.0000" not in table.stdout.split("pass_k", 1)[1].splitlines()[0]


def test_judge_failures_are_counted_and_shown(tmp_path: Path, model_args: list[str], fake_model: Any) -> None:
    out = tmp_path / "run"
    proc = run_cli(
        ["eval", *model_args, "--tasks", "0:2", "--salt", "t1", "--out", str(out), "--json",
         "--judge-model", "absent-judge", "--judge-base-url", fake_model.base_url],
        tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    failures = _json(proc.stdout)["judge_failures"]
    assert failures["count"] == 2 and failures["of"] == 2 and failures["rows"] == ["0/0", "1/0"]
    assert sum(failures["reasons"].values()) == 2
    assert "judge failed on 2 of 2 rows" in proc.stderr
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "judge failed on 2 of 2 rows" in html and html.count(">judge failed</span>") == 2


def test_run_json_keeps_history_and_vs_writes_a_separate_file(tmp_path: Path, model_args: list[str]) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    common = [*model_args, "--tasks", "0:2", "--salt", "t1"]
    assert run_cli(["eval", *common, "--out", str(a)], tmp_path).returncode == 0
    first = _run_json(a)
    assert run_cli(["eval", *common, "--out", str(a)], tmp_path).returncode == 0
    second = _run_json(a)
    assert second["started_at"] == first["started_at"] and len(second["invocations"]) == 2
    assert second["invocations"][0]["new"] == 2 and second["invocations"][1]["new"] == 0
    assert second["seconds_total"] >= second["invocations"][0]["seconds"]
    assert second["status"] == "complete"
    own = (a / "report.html").read_bytes()
    assert run_cli(["eval", *model_args, "--tasks", "1:3", "--salt", "t1", "--out", str(b)], tmp_path).returncode == 0
    proc = run_cli(["report", str(a), "--vs", str(b), "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    written = Path(_json(proc.stdout)["report"])
    assert written == a / "report-vs-b.html" and 'id="comparison"' in written.read_text(encoding="utf-8")
    assert (a / "report.html").read_bytes() == own
    html = own.decode("utf-8")
    assert "2 invocations" in html and 'data-key="new"' in html


def test_failed_ray_start_is_recorded_as_failed(tmp_path: Path, model_args: list[str]) -> None:
    fake = tmp_path / "noray"
    (fake / "ray").mkdir(parents=True)
    (fake / "ray" / "__init__.py").write_text("raise ImportError('ray is not installed here')\n", encoding="utf-8")
    out = tmp_path / "run"
    path = os.pathsep.join([str(fake), *sys.path])
    proc = run_cli(["eval", *model_args, "--tasks", "0:2", "--salt", "t1", "--out", str(out), "--backend", "ray"],
                   tmp_path, PYTHONPATH=path)  # fmt: skip
    assert proc.returncode == 2 and "pip install 'navworld[ray]'" in proc.stderr
    info = _run_json(out)
    assert info["status"] == "failed" and "Ray" in info["error"]


def test_filters_fail_under_and_csv(tmp_path: Path, model_args: list[str]) -> None:
    out = tmp_path / "run"
    base = ["eval", *model_args, "--tasks", "0:70", "--types", "single_poi,food_tour", "--difficulty", "1",
            "--limit", "3", "--salt", "t1", "--out", str(out), "--no-report"]  # fmt: skip
    proc = run_cli([*base, "--json", "--csv", str(tmp_path / "rows.csv")], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted(r["task_id"] for r in result_lines(out)) == [3, 4, 24]
    records = list(csv.DictReader(io.StringIO((tmp_path / "rows.csv").read_text(encoding="utf-8"))))
    assert [int(r["task_id"]) for r in records] == [3, 4, 24]
    assert {r["status"] for r in records} == {"code-only"} and {r["success"] for r in records} == {""}
    exported = run_cli(["export", str(out), "--csv"], tmp_path)
    assert exported.returncode == 0 and exported.stdout == (tmp_path / "rows.csv").read_text(encoding="utf-8")
    mean = _json(proc.stdout)["score_mean"]  # the fake model's quoted tool lines score low under s2
    assert run_cli([*base, "--fail-under", f"{int(mean * 100) / 100:.2f}"], tmp_path).returncode == 0
    low = run_cli([*base, "--fail-under", "99"], tmp_path)
    assert low.returncode == 1 and "fail-under: score_mean" in low.stderr
    assert run_cli([*base, "--fail-under", "fpr=1.01"], tmp_path).returncode == 1
    na = run_cli([*base, "--fail-under", "success_rate=0.5"], tmp_path)
    assert na.returncode == 1 and "not applicable" in na.stderr
    for bad in (["--types", "spaceflight"], ["--difficulty", "4"], ["--limit", "0"], ["--fail-under", "x=1"]):
        proc = run_cli([*base, *bad], tmp_path)
        assert proc.returncode == 2 and proc.stderr.startswith("error:"), bad
    none = run_cli(["eval", *model_args, "--tasks", "0:3", "--types", "business", "--out", str(tmp_path / "x")], tmp_path)
    assert none.returncode == 2 and "matches" in none.stderr


def test_runs_show_task_list_export_and_version(tmp_path: Path, model_args: list[str]) -> None:
    out = tmp_path / "runs" / "first"
    assert run_cli(["eval", *model_args, "--tasks", "0:3", "--salt", "t1", "--out", str(out)], tmp_path).returncode == 0
    runs = run_cli(["runs", "--json"], tmp_path)
    assert runs.returncode == 0, runs.stderr
    (listed,) = _json(runs.stdout)
    assert listed["dir"] == str(Path("runs") / "first") and listed["status"] == "complete"
    assert listed["agent"].startswith(FAKE_MODEL) and listed["completed"] == 3 and listed["success_rate"] is None
    table = run_cli(["runs"], tmp_path)
    assert table.returncode == 0 and "first" in table.stdout and "complete" in table.stdout
    show = run_cli(["show", str(out), "1", "--trace"], tmp_path)
    assert show.returncode == 0, show.stderr
    for part in ("task 1 / epoch 0", "── failed checks ──", "── score breakdown ──", "no judge", "── trace ──", "→ "):
        assert part in show.stdout, part
    row = _json(run_cli(["show", str(out), "1/0", "--json"], tmp_path).stdout)
    assert row["task_id"] == 1 and isinstance(row["trace"], list)
    assert run_cli(["show", str(out), "42"], tmp_path).returncode == 2
    assert run_cli(["show", str(tmp_path), "1"], tmp_path).returncode == 2
    listing = run_cli(["task", "list", "--types", "hybrid", "--difficulty", "2", "--limit", "3", "--json"], tmp_path)
    assert [t["task_id"] for t in _json(listing.stdout)] == [9, 30, 51]
    city = _json(run_cli(["task", "list", "--tasks", "0:140", "--city", "Hangzhou", "--json"], tmp_path).stdout)
    assert city and all("杭州" in (t["origin_city"], t["destination_city"]) for t in city)
    assert run_cli(["task", "list", "--city", "Atlantis"], tmp_path).returncode == 2
    assert run_cli(["export", str(out), "--format", "xml"], tmp_path).returncode == 2
    written = run_cli(["export", str(out), "--format", "csv", "--out", str(tmp_path / "o.csv"), "--json"], tmp_path)
    assert _json(written.stdout) == {"out": str(tmp_path / "o.csv"), "rows": 3, "format": "csv"}
    version = run_cli(["--version"], tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("navworld ")


def test_plain_progress_lines_when_stderr_is_not_a_terminal(tmp_path: Path, model_args: list[str]) -> None:
    proc = run_cli(["eval", *model_args, "--tasks", "0:7", "--salt", "t1", "--out", str(tmp_path / "r"), "--no-report"],
                   tmp_path, NAVWORLD_PROGRESS_INTERVAL="0.05")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("eval:")]
    assert lines[0] == "eval: 7 to run"
    assert lines[-1].startswith("eval: 7/7 (100%)") and lines[-1].endswith("done")
    assert "\x1b[" not in proc.stderr  # no terminal control codes in a log


def test_report_summary_is_the_cli_summary(tmp_path: Path, model_args: list[str]) -> None:
    import re

    out = tmp_path / "run"
    proc = run_cli(["eval", *model_args, "--tasks", "0:7", "--salt", "t1", "--out", str(out), "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = _json(proc.stdout)
    html = (out / "report.html").read_text(encoding="utf-8")
    shown = dict(re.findall(r'<div data-key="([a-z_0-9]+)"[^>]*><b>[^<]*</b><span>([^<]*)', html))
    assert shown["new"] == "7" == str(summary["new"]) and shown["completed"] == "7"
    assert shown["score_mean"] == (f"{summary['score_mean']:.1f}" if summary["score_mean"] >= 10 else f"{summary['score_mean']:.3f}")
    assert shown["success_rate"].startswith("n/a")
    # rows state how each episode ended; error rows are labelled as errors, not as failed plans
    assert html.count('data-finish="') == 7

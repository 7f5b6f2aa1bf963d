"""The command line on ChinaTravel data: verify's and eval's contracts, export, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from navworld.cli import app
from navworld.verify.chinatravel import STATIC_COLUMNS, chinatravel_view
from tests.chinatravel.conftest import SALT
from tests.chinatravel.synthetic_db import QUERIES


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, world: Any, runs: list[Any]) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("ct-cli")
    out = {"query": d / "query.json", "plan": d / "plan.json", "answer": d / "answer.md"}
    out["query"].write_text(json.dumps(QUERIES[4], ensure_ascii=False), encoding="utf-8")
    out["plan"].write_text(json.dumps(chinatravel_view(runs[4].answer, world)[0], ensure_ascii=False), encoding="utf-8")
    out["answer"].write_text(runs[4].answer, encoding="utf-8")
    return out


def test_verify_contract(db_dir: Path, files: dict[str, Path]) -> None:
    r = _cli("verify", "--world", f"chinatravel:{db_dir}", "--query", str(files["query"]), "--plan", str(files["plan"]),
             "--profile", "chinatravel", "--json", "--salt", SALT)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    ct = d["chinatravel"]
    assert {"schema", "commonsense", "logic", "final_pass"} <= set(ct)
    assert ct["schema"] is True and ct["final_pass"] is True and ct["logic"] == [True, True]
    assert list(ct["commonsense"]) == list(STATIC_COLUMNS) and all(ct["commonsense"].values())
    assert {"delivered", "env", "logic", "final_pass"} <= set(d) and d["final_pass"] is True  # navworld's keys beside it


def test_verify_a_navworld_answer_and_a_failing_plan(db_dir: Path, files: dict[str, Path], tmp_path: Path) -> None:
    r = _cli("verify", "--world", f"chinatravel:{db_dir}", "--query", str(files["query"]), "--plan", str(files["answer"]), "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["chinatravel"]["notes"][0].startswith("converted from navworld")
    plan = json.loads(files["plan"].read_text(encoding="utf-8"))
    plan["itinerary"][0]["activities"][1]["price"] = 1.5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(plan, ensure_ascii=False), encoding="utf-8")
    r = _cli("verify", "--world", f"chinatravel:{db_dir}", "--query", str(files["query"]), "--plan", str(bad))
    assert r.exit_code == 1
    assert "ChinaTravel profile (their columns and rules):" in r.stdout and "✗ Incorrect cost Information of attraction" in r.stdout
    assert "navworld profile:" in r.stdout and "final: FAIL" in r.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--profile", "chinatravel"], "needs --world chinatravel:DIR"),
        (["--world", "chinatravel:/nonexistent/db"], "is not a directory"),
        (["--world", "WORLD", "--task", "3"], "give --query QUERY.json"),
        (["--world", "WORLD", "--query", "QUERIES"], "pick one with --uid UID"),
        (["--world", "WORLD", "--query", "QUERIES", "--uid", "nope"], "has no valid query with uid nope"),
        (["--world", "WORLD", "--query", "QUERIES", "--profile", "other"], "--profile must be one of"),
    ],
)
def test_verify_bad_arguments_exit_2(db_dir: Path, files: dict[str, Path], queries_file: Path, extra: list[str], message: str) -> None:
    args = [a.replace("WORLD", f"chinatravel:{db_dir}").replace("QUERIES", str(queries_file)) for a in extra]
    if "--query" not in args and "--task" not in args:
        args += ["--task", "1"]
    r = _cli("verify", "--plan", str(files["plan"]), *args)
    assert r.exit_code == 2 and message in r.stderr, r.stderr


def test_eval_contract_and_export(db_dir: Path, queries_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = _cli("eval", "--world", f"chinatravel:{db_dir}", "--queries", str(queries_file), "--profile", "chinatravel",
             "--out", str(out), "--salt", SALT, "--json", "--no-report")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    ct = summary["chinatravel"]
    for key in ("epr_micro", "epr_macro", "lpr_micro", "lpr_macro", "c_lpr", "fpr", "tpc_overall"):
        assert isinstance(ct[key], float)
    assert ct["fpr"] == 100.0 and summary["fpr"] == 1.0 and summary["completed"] == 5
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [row["uid"] for row in rows] == [q["uid"] for q in QUERIES] and all(row["chinatravel"]["final_pass"] for row in rows)
    again = _cli("eval", "--world", f"chinatravel:{db_dir}", "--queries", str(queries_file), "--out", str(out), "--salt", SALT,
                 "--json", "--no-report", "--tasks", "1:3")
    assert again.exit_code == 0 and json.loads(again.stdout)["new"] == 0  # resumed, profile chinatravel by default
    r = _cli("export", str(out), "--format", "chinatravel", "--out", str(tmp_path / "ct"), "--json")
    assert r.exit_code == 0, r.output
    done = json.loads(r.stdout)
    assert done["written"] == 5 and done["schema_invalid"] == [] and done["world"] == f"chinatravel:{db_dir}"
    for q in QUERIES:
        plan_file = tmp_path / "ct" / f"{q['uid']}.json"
        query_file = tmp_path / f"{q['uid']}.query.json"
        query_file.write_text(json.dumps(q, ensure_ascii=False), encoding="utf-8")
        v = _cli("verify", "--world", f"chinatravel:{db_dir}", "--query", str(query_file), "--plan", str(plan_file), "--json")
        assert v.exit_code == 0 and json.loads(v.stdout)["chinatravel"]["final_pass"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--queries", "QUERIES"], "--queries needs --world chinatravel:DIR"),
        (["--world", "WORLD"], "give --queries FILE"),
        (["--world", "WORLD", "--queries", "/nonexistent.json"], "not found"),
        (["--world", "WORLD", "--queries", "QUERIES", "--tasks", "0:9"], "has 5 usable queries"),
        (["--world", "WORLD", "--queries", "QUERIES", "--profile", "bogus"], "--profile must be navworld or chinatravel"),
    ],
)
def test_eval_bad_arguments_exit_2(db_dir: Path, queries_file: Path, tmp_path: Path, args: list[str], message: str) -> None:
    args = [a.replace("WORLD", f"chinatravel:{db_dir}").replace("QUERIES", str(queries_file)) for a in args]
    if "--tasks" not in args and "--world" not in args:
        args += ["--tasks", "0:2"]
    r = _cli("eval", *args, "--out", str(tmp_path / "run"))
    assert r.exit_code == 2 and message in r.stderr, r.stderr


def test_eval_warns_about_skipped_queries_and_runs_the_rest(db_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(QUERIES[1], ensure_ascii=False) + "\n" + json.dumps({**QUERIES[0], "target_city": "拉萨"}, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    r = _cli("eval", "--world", f"chinatravel:{db_dir}", "--queries", str(path), "--out", str(tmp_path / "run"), "--salt", SALT,
             "--json", "--no-report")
    assert r.exit_code == 0 and json.loads(r.stdout)["completed"] == 1
    assert f"warning: {path} line 2 (uid {QUERIES[0]['uid']}): target_city '拉萨' is not one of ChinaTravel's ten cities" in r.stderr


def test_export_needs_a_run_directory(tmp_path: Path) -> None:
    r = _cli("export", str(tmp_path))
    assert r.exit_code == 2 and "not a run directory" in r.stderr
    (tmp_path / "results.jsonl").write_text("", encoding="utf-8")
    r = _cli("export", str(tmp_path), "--format", "csvx")
    assert r.exit_code == 2 and "--format must be one of csv, chinatravel" in r.stderr

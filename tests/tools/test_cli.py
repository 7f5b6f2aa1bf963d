"""The ``navworld tools`` and ``navworld mcp`` commands (subprocesses and in-process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from navworld.cli import app
from navworld.tools import TOOL_NAMES

runner = CliRunner()
_MAIN = "from navworld.cli import main; main()"


def _navworld(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    full_env = {**os.environ, **(env or {})}
    full_env.pop("NAVWORLD_WORLD", None)
    return subprocess.run([sys.executable, "-c", _MAIN, *args], capture_output=True, env=full_env, timeout=60)


def test_tools_list_json() -> None:
    res = runner.invoke(app, ["tools", "list", "--json"])
    assert res.exit_code == 0
    tools = json.loads(res.stdout)
    assert [t["function"]["name"] for t in tools] == list(TOOL_NAMES)
    plain = runner.invoke(app, ["tools", "list"])
    assert plain.exit_code == 0 and "poi_search(address, region?)" in plain.stdout


def test_call_exit_codes(real_catalog) -> None:  # type: ignore[no-untyped-def]
    ok = runner.invoke(app, ["tools", "call", "poi_search", '{"address": "西湖", "region": "杭州"}', "--salt", "s", "--json"])
    assert ok.exit_code == 0
    doc = json.loads(ok.stdout)
    assert set(doc) == {"ok", "text", "data"} and doc["ok"] and doc["data"]["pois"][0]["name"] == "西湖"
    err = runner.invoke(app, ["tools", "call", "weather", '{"city": "巴黎"}', "--json"])
    assert err.exit_code == 1 and json.loads(err.stdout)["ok"] is False
    text_err = runner.invoke(app, ["tools", "call", "weather", '{"city": "巴黎"}'])
    assert text_err.exit_code == 1 and text_err.stdout.startswith("错误：")


@pytest.mark.parametrize(
    "argv",
    [
        ["tools", "call", "weather", "{not json"],
        ["tools", "call", "weather", "[1]"],
        ["tools", "call", "nope", "{}"],
        ["tools", "call", "weather", '{"city": "杭州"}', "--world", "bogus"],
    ],
)
def test_unusable_args_exit_2(argv: list[str]) -> None:
    res = runner.invoke(app, argv)
    assert res.exit_code == 2
    assert res.stdout == "" and res.stderr.startswith("error: ") and res.stderr.count("\n") == 1


@pytest.mark.slow
def test_two_processes_byte_identical(real_catalog) -> None:  # type: ignore[no-untyped-def]
    calls = [
        ("poi_search", '{"address": "博物馆", "region": "北京"}'),
        ("search_flights", '{"date": "2025-05-01", "from_city": "北京", "to_city": "成都"}'),
    ]
    for name, args in calls:
        a = _navworld("tools", "call", name, args, "--json", env={"NAVWORLD_SALT": "det", "PYTHONHASHSEED": "1"})
        b = _navworld("tools", "call", name, args, "--json", "--salt", "det", env={"PYTHONHASHSEED": "2"})
        assert a.returncode == 0, a.stderr
        assert a.stdout == b.stdout
        assert json.loads(a.stdout)["ok"]


@pytest.mark.slow
def test_salt_changes_transport_not_pois(real_catalog) -> None:  # type: ignore[no-untyped-def]
    def run(name: str, args: str, salt: str) -> str:
        res = runner.invoke(app, ["tools", "call", name, args, "--salt", salt])
        assert res.exit_code == 0, res.stdout
        return res.stdout

    poi = '{"address": "酒店", "region": "上海"}'
    assert run("poi_search", poi, "a") == run("poi_search", poi, "b")
    for name, args in [
        ("search_flights", '{"date": "2025-05-01", "from_city": "北京", "to_city": "上海"}'),
        ("search_train_tickets", '{"date": "2025-05-01", "from_city": "北京", "to_city": "上海"}'),
        ("weather", '{"city": "上海", "date": "2025-05-01"}'),
    ]:
        assert run(name, args, "a") != run(name, args, "b"), name

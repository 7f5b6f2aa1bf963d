"""``navworld serve``: the reference endpoint plans on the client's salt or refuses (409) a request
from another world; ``navworld eval --model navworld-reference`` works on any salt; ``/docs`` and
``/redoc`` load without a CDN (checked in headless Chromium with a net log)."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from navworld.agents.fake_server import ServerThread
from navworld.server.app import create_app
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

SERVER_SALT = "srv-salt"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with ServerThread(create_app(salt=SERVER_SALT)) as thread:
        yield thread


def _post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[int, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _opening(salt: str, task_id: int) -> list[dict[str, str]]:
    problem = ProblemGenerator(SandboxWorld(salt)).generate(task_id)
    return [{"role": "system", "content": problem.system_prompt}, {"role": "user", "content": problem.prompt}]


def _salt_dependent_task() -> int:
    """A task whose prompt differs between the two salts (budgets follow the week's timetables)."""
    for task_id in range(70):
        if _opening("client-salt", task_id)[1] != _opening(SERVER_SALT, task_id)[1]:
            return task_id
    raise AssertionError("no salt-dependent prompt in tasks 0..69")


def test_reference_endpoint_refuses_or_follows_the_client_salt(server: ServerThread) -> None:
    chat = server.url + "/v1/chat/completions"
    tools = [{"type": "function", "function": {"name": "poi_search", "parameters": {"type": "object"}}}]
    task = _salt_dependent_task()
    messages = _opening("client-salt", task)
    status, body = _post(chat, {"model": "navworld-reference", "messages": messages, "tools": tools})
    assert status == 409 and body["error"]["code"] == "salt_mismatch"
    assert SERVER_SALT in body["error"]["message"] and "navworld-reference@<salt>" in body["error"]["message"]
    named = {"model": "navworld-reference@client-salt", "messages": messages, "tools": tools}
    status, body = _post(chat, named)
    assert status == 200 and body["model"] == "navworld-reference@client-salt"
    assert body["choices"][0]["message"]["tool_calls"]
    status, by_header = _post(chat, {**named, "model": "navworld-reference"}, {"X-Navworld-Salt": "client-salt"})
    assert status == 200 and by_header["choices"] == body["choices"]
    status, same = _post(chat, {"model": "navworld-reference", "messages": _opening(SERVER_SALT, task), "tools": tools})
    assert status == 200
    # a tool result from another world is refused too (the prompt alone may not show the salt)
    call = same["choices"][0]["message"]["tool_calls"][0]
    forged = [*_opening(SERVER_SALT, task), same["choices"][0]["message"],
              {"role": "tool", "tool_call_id": call["id"], "content": "not what the server's world returns"}]  # fmt: skip
    status, body = _post(chat, {"model": "navworld-reference", "messages": forged, "tools": tools})
    assert status == 409 and body["error"]["code"] == "salt_mismatch" and call["id"] in body["error"]["message"]
    status, body = _post(chat, {"model": "navworld-reference@" + "x" * 100, "messages": messages})
    assert status == 400


def test_eval_against_the_reference_endpoint_works_on_any_salt(server: ServerThread, tmp_path: Path) -> None:
    from tests.runner.helpers import run_cli

    out = tmp_path / "run"
    proc = run_cli(
        ["eval", "--model", "navworld-reference", "--base-url", server.url + "/v1", "--tasks", "0:3",
         "--salt", "client-salt", "--out", str(out), "--no-report", "--json"],
        tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["errors"] == 0
    local = run_cli(["eval", "--tasks", "0:3", "--salt", "client-salt", "--out", str(tmp_path / "ref"), "--no-report",
                     "--json"], tmp_path)  # fmt: skip
    assert local.returncode == 0, local.stderr
    assert summary["score_mean"] == json.loads(local.stdout)["score_mean"]


CHROMIUM = "/usr/bin/chromium"


def test_docs_pages_use_local_assets(server: ServerThread) -> None:
    for page, asset in (("/docs", "swagger-ui-bundle.js"), ("/redoc", "redoc.standalone.js")):
        with urllib.request.urlopen(server.url + page, timeout=30) as resp:
            html = resp.read().decode()
        assert "cdn." not in html and "fonts.googleapis" not in html
        src = re.search(r'src="([^"]*' + re.escape(asset) + ')"', html)
        assert src and src.group(1).startswith("/"), html[:500]
        with urllib.request.urlopen(server.url + src.group(1), timeout=30) as resp:
            assert resp.status == 200 and len(resp.read()) > 100_000


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed")
def test_swagger_ui_renders_offline_in_chromium(server: ServerThread, tmp_path: Path) -> None:
    from tests.runner.test_report_browser import FLAGS, VIRTUAL_TIME, _page_requests

    flags = [f for f in FLAGS if not f.startswith("--host-resolver-rules")]
    flags.append("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")  # the server itself only
    net_log = tmp_path / "netlog.json"
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp_path)
    proc = subprocess.run(
        [CHROMIUM, *flags, VIRTUAL_TIME, f"--user-data-dir={profile}", f"--log-net-log={net_log}", "--dump-dom",
         server.url + "/docs"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert 'class="opblock' in proc.stdout, "Swagger UI did not render the operations"
    external = [u for u in _page_requests(net_log) if not u.startswith(server.url)]
    assert external == []

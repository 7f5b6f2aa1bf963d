"""Issue 14 row 7: MCP sessions over streamable HTTP are capped, shared fairly and expire.

A real uvicorn serves :func:`navworld.tools.mcp_sessions.http_app` on a free 127.0.0.1 port; a
hoarding client opens sessions with raw ``initialize`` requests and never closes them, while the
real SDK client (another client, through :mod:`navworld.tools.mcp_compat`) keeps being served.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn

from navworld.tools.mcp_compat import MCP_MAJOR, connect
from navworld.tools.mcp_server import build_server
from navworld.tools.mcp_sessions import SessionGuard, SessionLimits, http_app
from navworld.world.sandbox import SandboxWorld

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "hoarder", "version": "1"}},
}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
WEATHER = {"city": "杭州", "date": "2025-03-01"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _serve(limits: SessionLimits, world: SandboxWorld) -> AsyncIterator[tuple[str, SessionGuard]]:
    port = _free_port()
    app = http_app(build_server(world), limits=limits)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve)
        while not server.started:
            await anyio.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}/mcp", app
        finally:
            server.should_exit = True


async def _open(http: httpx2.AsyncClient, url: str, client: str) -> httpx2.Response:
    return await http.post(url, json=INIT, headers={**HEADERS, "x-client-id": client})


async def _tool_call_works(url: str, mode: str = "legacy") -> None:
    async with connect(url, mode=mode if MCP_MAJOR >= 2 else None) as client:
        result = await client.call_tool("weather", WEATHER)
        assert not result.is_error and "2025-03-01" in result.text


def test_defaults_are_lower_than_the_sdks_and_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    limits = SessionLimits.from_env()
    assert (limits.max_sessions, limits.max_per_client, limits.idle_timeout) == (256, 64, 300.0)
    monkeypatch.setenv("NAVWORLD_MCP_MAX_SESSIONS", "40")
    monkeypatch.setenv("NAVWORLD_MCP_SESSION_TIMEOUT", "90")
    limits = SessionLimits.from_env()
    assert (limits.max_sessions, limits.max_per_client, limits.idle_timeout) == (40, 10, 90.0)
    assert SessionLimits.from_env(max_per_client=7).max_per_client == 7


@pytest.mark.slow
async def test_row7_a_hoarding_client_cannot_lock_others_out(world: SandboxWorld) -> None:
    limits = SessionLimits(max_sessions=12, max_per_client=6, idle_timeout=2.0)
    with anyio.fail_after(60):
        async for url, guard in _serve(limits, world):
            async with httpx2.AsyncClient(timeout=10) as http:
                codes = [(await _open(http, url, "hoarder")).status_code for _ in range(40)]
                assert codes[:6] == [200] * 6 and set(codes[6:]) == {429}
                refused = await _open(http, url, "hoarder")
                body: dict[str, Any] = refused.json()
                assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
                assert body["jsonrpc"] == "2.0" and "NAVWORLD_MCP_MAX_SESSIONS_PER_CLIENT" in body["error"]["message"]
                assert guard.held_by("127.0.0.1/hoarder") == 6
                # Other clients fill the rest of the server ...
                for name in ("b", "c", "d"):
                    for _ in range(2):
                        assert (await _open(http, url, name)).status_code == 200
                assert len(guard.sessions) == 12
                # ... and a newcomer on a full server takes an idle slot of the fullest client.
                assert (await _open(http, url, "late")).status_code == 200
                assert guard.evicted == 1 and guard.held_by("127.0.0.1/hoarder") == 5
            await _tool_call_works(url)  # the real client (a client of its own) is served
            await _tool_call_works(url, mode="auto")
            assert len(guard.sessions) <= limits.max_sessions
            # Never-closed sessions expire after the idle timeout (5 minutes by default; 2 s here).
            await anyio.sleep(2.3)
            async with httpx2.AsyncClient(timeout=10) as http:
                assert (await _open(http, url, "hoarder")).status_code == 200
            assert len(guard.sessions) == 1
            await _tool_call_works(url)


@pytest.mark.slow
async def test_deleted_sessions_are_forgotten_at_once(world: SandboxWorld) -> None:
    limits = SessionLimits(max_sessions=4, max_per_client=2, idle_timeout=60.0)
    with anyio.fail_after(60):
        async for url, guard in _serve(limits, world):
            async with httpx2.AsyncClient(timeout=10) as http:
                for _ in range(5):
                    opened = await _open(http, url, "x")
                    assert opened.status_code == 200
                    sid = opened.headers["mcp-session-id"]
                    closed = await http.delete(url, headers={"mcp-session-id": sid, "x-client-id": "x"})
                    assert closed.status_code == 200
                assert guard.sessions == {}
                gone = await http.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "ping"}, headers={**HEADERS, "mcp-session-id": sid})
                assert gone.status_code == 404
            await _tool_call_works(url)

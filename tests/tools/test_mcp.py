"""The MCP server: in-process, a real stdio subprocess, streamable HTTP — on mcp 1.x and 2.x
(the SDK clients through :mod:`navworld.tools.mcp_compat`)."""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

import anyio
import pytest
import uvicorn

from navworld.tools import TOOL_NAMES
from navworld.tools.mcp_compat import MCP_MAJOR, StdioTarget, ToolClient, connect, streamable_http_app
from navworld.tools.mcp_server import build_server
from navworld.world.sandbox import SandboxWorld

CALLS: dict[str, dict[str, Any]] = {
    "poi_search": {"address": "西湖", "region": "杭州"},
    "around_search": {"location": "120.141200,30.258700", "radius": 2000, "keyword": "餐厅"},
    "direction": {"origin": "120.141200,30.258700", "destination": "120.212600,30.290851", "mode": "transit"},
    "weather": {"city": "杭州", "date": "2025-03-01"},
    "search_flights": {"date": "2025-03-01", "from_city": "北京", "to_city": "上海"},
    "search_train_tickets": {"date": "2025-03-01", "from_city": "无锡", "to_city": "杭州"},
}


async def _exercise(client: ToolClient) -> None:
    tools = await client.list_tools()
    assert [t.name for t in tools] == list(TOOL_NAMES)
    assert all(t.input_schema["type"] == "object" and t.description for t in tools)
    for name, args in CALLS.items():
        r = await client.call_tool(name, args)
        assert not r.is_error, (name, r.text)
        assert r.text.startswith(name + "：") and len(r.content) == 1
        assert isinstance(r.structured, dict)
    bad = await client.call_tool("around_search", {"location": "not-a-point", "radius": 0})
    assert bad.is_error and bad.text.startswith("错误：") and bad.structured is None
    unknown = await client.call_tool("teleport", {})
    assert unknown.is_error and "未知工具" in unknown.text
    huge = await client.call_tool("poi_search", {"address": "x" * 1_000_000})
    assert huge.is_error and "过长" in huge.text
    # Still alive after the errors.
    assert not (await client.call_tool("weather", CALLS["weather"])).is_error


@pytest.mark.parametrize("mode", ["auto", "legacy"] if MCP_MAJOR >= 2 else [None])
async def test_in_process(world: SandboxWorld, mode: str | None) -> None:
    async with connect(build_server(world), mode=mode) as client:
        await _exercise(client)


@pytest.mark.slow
async def test_stdio_subprocess(real_catalog) -> None:  # type: ignore[no-untyped-def]
    env = {k: v for k, v in os.environ.items() if k != "NAVWORLD_WORLD"}
    env["NAVWORLD_SALT"] = "mcp"
    params = StdioTarget(sys.executable, ["-c", "from navworld.cli import main; main()", "mcp"], env)
    with anyio.fail_after(60):
        async with connect(params) as client:
            await _exercise(client)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
async def test_streamable_http(world: SandboxWorld) -> None:
    port = _free_port()
    server = build_server(world)
    app = streamable_http_app(server, host="127.0.0.1")
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    with anyio.fail_after(60):
        async with anyio.create_task_group() as tg:
            tg.start_soon(uv.serve)
            while not uv.started:
                await anyio.sleep(0.05)
            try:
                async with connect(f"http://127.0.0.1:{port}/mcp") as client:
                    tools = await client.list_tools()
                    assert [t.name for t in tools] == list(TOOL_NAMES)
                    r = await client.call_tool("weather", CALLS["weather"])
                    assert not r.is_error and "2025-03-01" in r.text
            finally:
                uv.should_exit = True

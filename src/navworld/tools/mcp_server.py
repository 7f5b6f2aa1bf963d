"""MCP server of the six tools (mcp 2.x low-level ``Server`` fed from the tool registry).

The input schemas are exactly the registry's JSON schemas (the same the OpenAI tool list uses).
A call returns the rendered text as one ``TextContent`` plus ``structured_content`` = the
AMap-shaped data; tool errors come back with ``is_error=True`` and the readable ``错误：…``
text. The server never crashes on bad input. MCP sessions have **no per-episode budgets**
(unlimited calls): budgets belong to evaluation episodes, not to a tool server. Over HTTP the
number of sessions is bounded (cap, per-client share, idle timeout; see
:mod:`navworld.tools.mcp_sessions`).
"""

from __future__ import annotations

import logging
from typing import Any

import mcp.types as types
from mcp.server import Server

from navworld.core.versions import PACKAGE_VERSION
from navworld.tools.mcp_sessions import SessionLimits, http_app
from navworld.tools.registry import all_tools, call_tool
from navworld.world.base import WorldBackend

__all__ = ["build_server", "run_http", "run_stdio"]

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "中国旅行规划工具（离线沙盒世界或高德）：地点搜索、周边搜索、路线规划、天气、航班、火车。"
    " Chinese trip-planning tools: POI search, nearby search, directions, weather, flights, trains."
)


def build_server(world: WorldBackend | None = None, *, world_spec: str | None = None, salt: str | None = None) -> Server[Any]:
    """A low-level MCP ``Server`` serving the six tools on ``world`` (default: ``get_world``)."""
    if world is None:
        from navworld.world import get_world

        world = get_world(world_spec, salt)
    backend = world
    tools = [
        types.Tool(name=s.name, description=s.description, input_schema=s.json_schema()) for s in all_tools()
    ]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        result = await call_tool(params.name, params.arguments or {}, backend)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.text)],
            structured_content=result.data if result.ok else None,
            is_error=not result.ok,
        )

    return Server(
        "navworld",
        version=PACKAGE_VERSION,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call,
    )


async def run_stdio(server: Server[Any]) -> None:
    """Serve ``server`` over stdin/stdout until the client disconnects."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def run_http(
    server: Server[Any], host: str = "127.0.0.1", port: int = 8765, path: str = "/mcp", limits: SessionLimits | None = None
) -> None:
    """Serve ``server`` over streamable HTTP at ``http://host:port/mcp`` (uvicorn), with the
    session limits of :mod:`navworld.tools.mcp_sessions` (cap, per-client share, idle timeout)."""
    import uvicorn

    app = http_app(server, host=host, path=path, limits=limits)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve()

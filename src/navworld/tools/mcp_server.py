"""MCP server of the six tools (a low-level ``Server`` fed from the tool registry).

The input schemas are exactly the registry's JSON schemas (the same the OpenAI tool list uses).
A call returns the rendered text as one ``TextContent`` plus ``structured_content`` = the
AMap-shaped data; tool errors come back with ``is_error=True`` and the readable ``错误：…``
text. The server never crashes on bad input. MCP sessions have **no per-episode budgets**
(unlimited calls): budgets belong to evaluation episodes, not to a tool server. Over HTTP the
number of sessions is bounded (cap, per-client share, idle timeout; see
:mod:`navworld.tools.mcp_sessions`).

Works on ``mcp`` 1.x (≥ 1.24) and 2.x: the version-specific parts live in
:mod:`navworld.tools.mcp_compat`.
"""

from __future__ import annotations

import logging
from typing import Any

from navworld.core.versions import PACKAGE_VERSION
from navworld.tools import mcp_compat
from navworld.tools.mcp_sessions import SessionLimits, http_app
from navworld.tools.registry import all_tools, call_tool
from navworld.world.base import WorldBackend

__all__ = ["build_server", "run_http", "run_stdio"]

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "中国旅行规划工具（离线沙盒世界或高德）：地点搜索、周边搜索、路线规划、天气、航班、火车。"
    " Chinese trip-planning tools: POI search, nearby search, directions, weather, flights, trains."
)


def build_server(world: WorldBackend | None = None, *, world_spec: str | None = None, salt: str | None = None) -> Any:
    """A low-level MCP ``Server`` serving the six tools on ``world`` (default: ``get_world``)."""
    if world is None:
        from navworld.world import get_world

        world = get_world(world_spec, salt)
    backend = world
    tools = [mcp_compat.ToolDef(s.name, s.description, s.json_schema()) for s in all_tools()]

    async def call(name: str, arguments: dict[str, Any]) -> mcp_compat.ToolReply:
        result = await call_tool(name, arguments, backend)
        return mcp_compat.ToolReply(result.text, result.data if result.ok else None, not result.ok)

    return mcp_compat.make_server("navworld", PACKAGE_VERSION, INSTRUCTIONS, tools, call)


async def run_stdio(server: Any) -> None:
    """Serve ``server`` over stdin/stdout until the client disconnects."""
    await mcp_compat.serve_stdio(server)


async def run_http(
    server: Any, host: str = "127.0.0.1", port: int = 8765, path: str = "/mcp", limits: SessionLimits | None = None
) -> None:
    """Serve ``server`` over streamable HTTP at ``http://host:port/mcp`` (uvicorn), with the
    session limits of :mod:`navworld.tools.mcp_sessions` (cap, per-client share, idle timeout)."""
    import uvicorn

    app = http_app(server, host=host, path=path, limits=limits)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve()

"""``navworld mcp``: serve the six tools over MCP (stdio or streamable HTTP)."""

from __future__ import annotations

import asyncio
import sys
from enum import StrEnum
from typing import Annotated

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args
from navworld.core.errors import ConfigError

__all__ = ["mcp"]


class Transport(StrEnum):
    """MCP transports."""

    stdio = "stdio"
    http = "http"


@app.command("mcp", cls=OneLineErrorCommand)
def mcp(
    transport: Annotated[
        Transport, typer.Option("--transport", envvar="NAVWORLD_MCP_TRANSPORT", help="stdio or http (streamable HTTP).")
    ] = Transport.stdio,
    host: Annotated[str, typer.Option("--host", envvar="NAVWORLD_MCP_HOST", help="HTTP bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", envvar="NAVWORLD_MCP_PORT", help="HTTP port.", min=1, max=65535)] = 8765,
    salt: Annotated[str | None, typer.Option("--salt", envvar="NAVWORLD_SALT", help="Salt of weekly facts.")] = None,
    world: Annotated[
        str | None, typer.Option("--world", envvar="NAVWORLD_WORLD", help="sandbox | amap | record:DIR | replay:DIR")
    ] = None,
    max_sessions: Annotated[
        int | None,
        typer.Option("--max-sessions", envvar="NAVWORLD_MCP_MAX_SESSIONS", help="HTTP: open sessions at most (default 256)."),
    ] = None,
    max_sessions_per_client: Annotated[
        int | None,
        typer.Option(
            "--max-sessions-per-client", envvar="NAVWORLD_MCP_MAX_SESSIONS_PER_CLIENT",
            help="HTTP: open sessions one client may hold (default a quarter of --max-sessions).",
        ),
    ] = None,
    session_timeout: Annotated[
        float | None,
        typer.Option(
            "--session-timeout", envvar="NAVWORLD_MCP_SESSION_TIMEOUT",
            help="HTTP: seconds without a request before a session is closed (default 300).",
        ),
    ] = None,
) -> None:
    """Run the MCP server of the six tools (no per-session call budgets)."""
    from navworld.tools.mcp_server import build_server, run_http, run_stdio
    from navworld.tools.mcp_sessions import SessionLimits

    for flag, value in (("--max-sessions", max_sessions), ("--max-sessions-per-client", max_sessions_per_client),
                        ("--session-timeout", session_timeout)):
        if value is not None and value <= 0:
            bad_args(f"{flag} must be > 0, got {value}")
    limits = SessionLimits.from_env(max_sessions, max_sessions_per_client, session_timeout)

    try:
        server = build_server(world_spec=world, salt=salt)
    except ConfigError as exc:
        bad_args(str(exc))
    try:
        if transport is Transport.stdio:
            asyncio.run(run_stdio(server))
        else:
            sys.stderr.write(f"navworld MCP server on http://{host}:{port}/mcp\n")
            asyncio.run(run_http(server, host=host, port=port, limits=limits))
    except KeyboardInterrupt:  # pragma: no cover - interactive stop
        pass

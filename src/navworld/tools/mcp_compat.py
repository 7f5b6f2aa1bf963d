"""The one place that knows which ``mcp`` major is installed (1.x ≥ 1.24 or 2.x).

navworld is installed next to frameworks pinned to either line (``langchain-mcp-adapters``
needs ``mcp<2``, ``verifiers`` ``mcp==2.0.0``), so the tool server and the test clients go
through this module instead of importing version-specific names:

* server side: :func:`make_server` (a low-level ``Server`` publishing :class:`ToolDef` tools and
  answering calls with a :class:`ToolReply`), :func:`serve_stdio`, :func:`streamable_http_app`;
* client side: :func:`connect` (in-process server, stdio command or streamable-HTTP URL) yielding a
  :class:`ToolClient` whose results are plain :class:`ListedTool` / :class:`ToolOutcome` records,
  and :func:`tool_input_schema` for any SDK ``Tool`` object (``input_schema`` in 2.x,
  ``inputSchema`` in 1.x).

Both majors publish the same tools with the same schemas, texts, structured content and errors.
"""

from __future__ import annotations

import contextlib
import inspect
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version as _dist_version
from typing import Any

import mcp.types as types

__all__ = [
    "MCP_MAJOR",
    "MCP_VERSION",
    "ListedTool",
    "StdioTarget",
    "ToolClient",
    "ToolDef",
    "ToolOutcome",
    "ToolReply",
    "connect",
    "make_server",
    "serve_stdio",
    "streamable_http_app",
    "tool_input_schema",
]


def _parse_version(text: str) -> tuple[int, int, int]:
    nums = [int(m.group()) if (m := re.match(r"\d+", part)) else 0 for part in text.split(".")[:3]]
    nums += [0] * (3 - len(nums))
    return nums[0], nums[1], nums[2]


MCP_VERSION: tuple[int, int, int] = _parse_version(_dist_version("mcp"))
"""The installed ``mcp`` distribution's version."""
MCP_MAJOR: int = MCP_VERSION[0]
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class ToolDef:
    """A tool as published: name, description and the JSON schema of its arguments."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class ToolReply:
    """What a tool call returns: the text the model reads, optional structured data, error flag."""

    text: str
    data: dict[str, Any] | None = None
    is_error: bool = False


CallHandler = Callable[[str, dict[str, Any]], Awaitable[ToolReply]]


def _result(reply: ToolReply) -> types.CallToolResult:
    content = [types.TextContent(type="text", text=reply.text)]
    data = None if reply.is_error else reply.data
    if MCP_MAJOR >= 2:
        return types.CallToolResult(content=content, structured_content=data, is_error=reply.is_error)
    return types.CallToolResult(content=content, structuredContent=data, isError=reply.is_error)  # type: ignore[call-arg]


def _tool(d: ToolDef) -> types.Tool:
    if MCP_MAJOR >= 2:
        return types.Tool(name=d.name, description=d.description, input_schema=d.input_schema)
    return types.Tool(name=d.name, description=d.description, inputSchema=d.input_schema)  # type: ignore[call-arg]


def make_server(name: str, version: str, instructions: str, tools: Sequence[ToolDef], call: CallHandler) -> Any:
    """A low-level MCP ``Server`` listing ``tools`` and answering calls through ``call``.

    Arguments are passed to ``call`` unvalidated (the handler gives its own readable errors).
    """
    listed = [_tool(d) for d in tools]
    from mcp.server.lowlevel import Server

    if MCP_MAJOR >= 2:

        async def on_list(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=listed)

        async def on_call(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            return _result(await call(params.name, dict(params.arguments or {})))

        return Server(name, version=version, instructions=instructions, on_list_tools=on_list, on_call_tool=on_call)

    server = Server(name, version=version, instructions=instructions)

    @server.list_tools()  # type: ignore[untyped-decorator]
    async def _list() -> list[types.Tool]:
        return listed

    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]
    async def _call(tool_name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return _result(await call(tool_name, dict(arguments or {})))

    return server


async def serve_stdio(server: Any) -> None:
    """Serve ``server`` over stdin/stdout until the client disconnects."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def _accepted(fn: Any, options: dict[str, Any]) -> dict[str, Any]:
    params = inspect.signature(fn).parameters
    return {k: v for k, v in options.items() if k in params}


def streamable_http_app(server: Any, *, path: str = "/mcp", host: str = "127.0.0.1", **options: Any) -> Any:
    """The streamable-HTTP ASGI app of ``server`` at ``path``.

    ``options`` (``json_response``, ``stateless_http``, ``session_idle_timeout``, ``max_sessions``,
    ``max_request_body_size`` …) go to the SDK where the installed one has them (2.x:
    ``Server.streamable_http_app``; 1.x: the session manager) and are dropped where it has not.
    On a loopback ``host`` DNS-rebinding protection allows loopback names only, as in both SDKs.
    """
    if MCP_MAJOR >= 2:
        return server.streamable_http_app(**_accepted(server.streamable_http_app,
                                                      {"streamable_http_path": path, "host": host, **options}))
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.routing import Route

    security = None
    if host in LOCAL_HOSTS:
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
    if "stateless_http" in options:
        options["stateless"] = options.pop("stateless_http")
    manager = StreamableHTTPSessionManager(
        app=server, security_settings=security, **_accepted(StreamableHTTPSessionManager.__init__, options)
    )

    class _Endpoint:
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with manager.run():
            yield

    return Starlette(routes=[Route(path, endpoint=_Endpoint())], lifespan=lifespan)


# ------------------------------------------------------------------------------------ client side


def tool_input_schema(tool: Any) -> dict[str, Any]:
    """The argument schema of an SDK ``Tool`` of either major (``input_schema`` / ``inputSchema``)."""
    schema = getattr(tool, "input_schema", None)
    if schema is None:
        schema = getattr(tool, "inputSchema", None)
    return dict(schema or {})


@dataclass(frozen=True)
class ListedTool:
    """A tool as a client lists it."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class ToolOutcome:
    """A tool call as a client receives it."""

    text: str
    structured: dict[str, Any] | None
    is_error: bool
    content: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class StdioTarget:
    """A server started as a subprocess speaking MCP over stdio."""

    command: str
    args: list[str]
    env: dict[str, str] | None = None


class ToolClient:
    """Lists and calls tools of a connected MCP session (either SDK major)."""

    def __init__(self, session: Any) -> None:
        self.session = session

    async def list_tools(self) -> list[ListedTool]:
        """Every published tool."""
        tools = (await self.session.list_tools()).tools
        return [ListedTool(t.name, t.description or "", tool_input_schema(t)) for t in tools]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        """Call ``name`` with ``arguments``."""
        r = await self.session.call_tool(name, arguments)
        content = list(r.content or [])
        text = "\n".join(getattr(c, "text", "") for c in content if getattr(c, "type", "") == "text")
        fields = getattr(type(r), "model_fields", {})  # v2 renamed the fields (the old names warn)
        snake = "is_error" in fields or "structured_content" in fields
        structured = getattr(r, "structured_content" if snake else "structuredContent", None)
        is_error = bool(getattr(r, "is_error" if snake else "isError", None))
        return ToolOutcome(text, structured, is_error, content)


@contextlib.asynccontextmanager
async def connect(target: Any, *, mode: str | None = None) -> AsyncIterator[ToolClient]:
    """A :class:`ToolClient` on ``target``: an in-process server, a :class:`StdioTarget` or an
    ``http://…/mcp`` URL. ``mode`` (2.x only) picks the SDK client's handshake (``auto``/``legacy``).
    """
    if MCP_MAJOR >= 2:
        from mcp import Client, StdioServerParameters
        from mcp.client.stdio import stdio_client

        if isinstance(target, StdioTarget):  # a Transport: accepted by every 2.x Client
            target = stdio_client(StdioServerParameters(command=target.command, args=target.args, env=target.env))
        kwargs = {"mode": mode} if mode else {}
        async with Client(target, **kwargs) as client:
            yield ToolClient(client)
        return
    async with contextlib.AsyncExitStack() as stack:
        if isinstance(target, StdioTarget):
            from mcp import ClientSession, StdioServerParameters
            from mcp.client.stdio import stdio_client

            params = StdioServerParameters(command=target.command, args=target.args, env=target.env)
            read, write = await stack.enter_async_context(stdio_client(params))
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
        elif isinstance(target, str):
            from mcp import ClientSession
            from mcp.client import streamable_http

            opener = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
            read, write, *_ = await stack.enter_async_context(opener(target))
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
        else:
            from mcp.shared.memory import create_connected_server_and_client_session

            session = await stack.enter_async_context(create_connected_server_and_client_session(target))
        yield ToolClient(session)

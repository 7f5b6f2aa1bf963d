"""langchain-mcp-adapters (which needs mcp 1.x) lists and calls the six tools of a real
``navworld mcp`` stdio process, and of a streamable-HTTP one."""

from __future__ import annotations

from typing import Any

import pytest

from navworld.tools.registry import TOOL_NAMES
from tests.tools.test_mcp import CALLS

from .support import NAVWORLD, ServedProcess, child_env, free_port, needs

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), needs("langchain_mcp_adapters")]


def _text(result: Any) -> str:
    """The text of a LangChain tool result (a string, or content blocks)."""
    if isinstance(result, str):
        return result
    if isinstance(result, tuple):
        return _text(result[0])
    if isinstance(result, list):
        return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in result)
    return str(result)


async def _exercise(client: Any) -> None:
    tools = await client.get_tools()
    assert [t.name for t in tools] == list(TOOL_NAMES)
    by_name = {t.name: t for t in tools}
    assert set(by_name["direction"].args) >= {"origin", "destination", "mode"}
    for name, args in CALLS.items():
        text = _text(await by_name[name].ainvoke(args))
        assert text.startswith(name + "："), (name, text[:200])


async def test_stdio() -> None:
    from langchain_mcp_adapters.client import MultiServerMCPClient

    env = child_env()
    client = MultiServerMCPClient({"navworld": {"command": NAVWORLD[0], "args": [*NAVWORLD[1:], "mcp"],
                                                "env": env, "transport": "stdio"}})
    await _exercise(client)


async def test_streamable_http() -> None:
    from langchain_mcp_adapters.client import MultiServerMCPClient

    port = free_port()
    with ServedProcess([*NAVWORLD, "mcp", "--transport", "http", "--port", str(port)], port, health="/mcp",
                       accept_status=True):
        client = MultiServerMCPClient({"navworld": {"url": f"http://127.0.0.1:{port}/mcp",
                                                    "transport": "streamable_http"}})
        await _exercise(client)

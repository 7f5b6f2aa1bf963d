"""Who is calling: the client identity of an HTTP request, for per-client fairness.

The env server's episode store and the MCP server's session limit both give each client a share
of their slots. A client is the peer address of the connection, refined by an ``X-Client-Id``
header when the caller sends one (several trainers behind one address, or a proxy in front of
many callers). The header only ever splits an address into more clients; without it every
connection from one address is one client.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["CLIENT_HEADER", "client_identity"]

CLIENT_HEADER = "x-client-id"
"""Optional request header naming the client within its address (at most 64 printable characters)."""


def client_identity(scope: Mapping[str, Any]) -> str:
    """The client of an ASGI HTTP ``scope``: ``host`` or ``host/<X-Client-Id>``."""
    peer = scope.get("client")
    host = str(peer[0]) if peer else "unknown"
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers") or ()
    named = ""
    for key, value in headers:
        if key == CLIENT_HEADER.encode():
            named = "".join(ch for ch in value.decode("latin-1")[:64] if ch.isprintable())
            break
    return f"{host}/{named}" if named else host

"""Session limits of the MCP server over streamable HTTP: a cap, a per-client share, idle expiry.

The MCP SDK keeps one stateful session per ``initialize`` until the client deletes it or it
idles out (30 minutes by default, 10,000 sessions at most): a client that opens sessions and
never closes them can hold every slot and lock everyone else out. :func:`http_app` builds the
SDK's app with lower, configurable limits and wraps it in :class:`SessionGuard`, which tracks
sessions by the ``mcp-session-id`` the server hands out (plain HTTP semantics, no SDK
internals) and

* refuses a new session with ``429`` (a JSON-RPC error body) when the client already holds
  ``max_per_client`` sessions;
* when the server is full, ends the longest-idle session of a client holding more sessions
  than the one asking (an ordinary MCP ``DELETE`` sent to the SDK), so a hoarding client loses
  its own idle sessions first;
* forgets sessions that were deleted, expired (no request in flight for ``idle_timeout``
  seconds — the SDK ends them at the same moment) or answered 404.

| setting | default | variable |
|---|---|---|
| ``max_sessions`` | 256 | ``NAVWORLD_MCP_MAX_SESSIONS`` |
| ``max_per_client`` | a quarter of ``max_sessions`` | ``NAVWORLD_MCP_MAX_SESSIONS_PER_CLIENT`` |
| ``idle_timeout`` (seconds) | 300 | ``NAVWORLD_MCP_SESSION_TIMEOUT`` |
| ``max_body_bytes`` | 4 MiB | ``NAVWORLD_MAX_BODY_BYTES`` |

Clients are told apart by :func:`navworld.core.clients.client_identity` (peer address, refined
by an ``X-Client-Id`` header).
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from navworld.core.clients import client_identity
from navworld.tools import mcp_compat

__all__ = ["SessionGuard", "SessionLimits", "http_app"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_SESSION_HEADER = b"mcp-session-id"


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return value if value > 0 else default


@dataclass(frozen=True)
class SessionLimits:
    """Limits of the MCP HTTP server's sessions (defaults in the module docstring)."""

    max_sessions: int = 256
    max_per_client: int = 64
    idle_timeout: float = 300.0
    max_body_bytes: int = 4 * 1024 * 1024

    @classmethod
    def from_env(
        cls,
        max_sessions: int | None = None,
        max_per_client: int | None = None,
        idle_timeout: float | None = None,
        max_body_bytes: int | None = None,
    ) -> SessionLimits:
        """Arguments, else ``NAVWORLD_MCP_*`` / ``NAVWORLD_MAX_BODY_BYTES``, else the defaults."""
        total = int(max_sessions or _env_number("NAVWORLD_MCP_MAX_SESSIONS", cls.max_sessions))
        share = int(max_per_client or _env_number("NAVWORLD_MCP_MAX_SESSIONS_PER_CLIENT", max(1, total // 4)))
        return cls(
            max_sessions=total,
            max_per_client=min(share, total),
            idle_timeout=float(idle_timeout or _env_number("NAVWORLD_MCP_SESSION_TIMEOUT", cls.idle_timeout)),
            max_body_bytes=int(max_body_bytes or _env_number("NAVWORLD_MAX_BODY_BYTES", cls.max_body_bytes)),
        )


@dataclass
class _Session:
    client: str
    host: bytes
    last: float = field(default_factory=time.monotonic)
    in_flight: int = 0


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return bytes(value)
    return None


try:  # protocol versions served statefully (sessions); newer ones are stateless
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS as _STATEFUL
except ImportError:  # pragma: no cover - older SDKs: every version is stateful
    _STATEFUL = None


def _opens_session(scope: Scope) -> bool:
    """Whether a request without a session id may open a session (a stateful-era request)."""
    version = _header(scope, b"mcp-protocol-version")
    return version is None or _STATEFUL is None or version.decode("latin-1") in _STATEFUL


def _rpc_error(status: int, message: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status in (429, 503):
        headers.append((b"retry-after", b"1"))
    return status, headers, body


class SessionGuard:
    """ASGI middleware in front of the SDK's streamable HTTP app enforcing :class:`SessionLimits`."""

    def __init__(self, app: ASGIApp, limits: SessionLimits) -> None:
        self.app = app
        self.limits = limits
        self.sessions: dict[str, _Session] = {}
        self.evicted = 0
        """Sessions ended to make room for another client."""

    def held_by(self, client: str) -> int:
        """Live sessions of ``client``."""
        return sum(1 for s in self.sessions.values() if s.client == client)

    def _expire(self, now: float) -> None:
        idle = self.limits.idle_timeout
        for sid in [k for k, s in self.sessions.items() if not s.in_flight and now - s.last >= idle]:
            del self.sessions[sid]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Route one request through the limits to the SDK's app."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        now = time.monotonic()
        self._expire(now)
        raw_sid = _header(scope, _SESSION_HEADER)
        if raw_sid is None:
            await self._open(scope, receive, send, now)
            return
        session = self.sessions.get(raw_sid.decode("latin-1"))
        if session is None:
            await self.app(scope, receive, send)  # unknown to us: the SDK answers (404)
            return
        await self._serve(raw_sid.decode("latin-1"), session, scope, receive, send)

    async def _open(self, scope: Scope, receive: Receive, send: Send, now: float) -> None:
        client = client_identity(scope)
        if scope.get("method") == "POST" and _opens_session(scope):
            if self.held_by(client) >= self.limits.max_per_client:
                await self._refuse(
                    send, 429,
                    f"Too many open sessions for this client ({self.limits.max_per_client}); close some "
                    "(DELETE) or let them idle out, or raise NAVWORLD_MCP_MAX_SESSIONS_PER_CLIENT",
                )
                return
            if len(self.sessions) >= self.limits.max_sessions:
                await self._evict_for(client, scope, now)
        host = _header(scope, b"host") or b"127.0.0.1"

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                # Registered before the response goes out: the client's next request sees it.
                for key, value in message.get("headers") or ():
                    if bytes(key).lower() == _SESSION_HEADER:
                        self.sessions[bytes(value).decode("latin-1")] = _Session(client, host)
            await send(message)

        await self.app(scope, receive, watch)

    async def _serve(self, sid: str, session: _Session, scope: Scope, receive: Receive, send: Send) -> None:
        codes: list[int] = []

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start":
                codes.append(message["status"])
            await send(message)

        session.in_flight += 1
        try:
            await self.app(scope, receive, watch)
        finally:
            session.in_flight -= 1
            session.last = time.monotonic()
            ended = scope.get("method") == "DELETE" and codes and codes[0] < 400
            if ended or (codes and codes[0] == 404):
                self.sessions.pop(sid, None)

    async def _evict_for(self, client: str, scope: Scope, now: float) -> None:
        """End the longest-idle session of a client holding more sessions than ``client`` will."""
        mine = self.held_by(client) + 1
        counts: dict[str, int] = {}
        for s in self.sessions.values():
            counts[s.client] = counts.get(s.client, 0) + 1
        idle = [(s.last, sid) for sid, s in self.sessions.items() if not s.in_flight and counts[s.client] > mine]
        if not idle:
            return  # nobody holds more than the asker: the SDK answers 503 until sessions end
        _, victim = min(idle)
        await self._delete(victim, scope)
        self.sessions.pop(victim, None)
        self.evicted += 1
        log.info("ended idle MCP session %s of a client holding %d sessions", victim[:12], mine)

    async def _delete(self, sid: str, scope: Scope) -> None:
        """Send the SDK an ordinary ``DELETE`` for session ``sid``."""
        session = self.sessions[sid]
        request: Scope = {
            **{k: v for k, v in scope.items() if k in ("type", "asgi", "http_version", "scheme", "server", "client", "root_path", "path", "raw_path", "state")},
            "method": "DELETE",
            "query_string": b"",
            "headers": [(b"host", session.host), (_SESSION_HEADER, sid.encode("latin-1"))],
        }
        sent = False

        async def receive() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return {"type": "http.disconnect"}

        async def discard(message: Message) -> None:
            return None

        try:
            await self.app(request, receive, discard)
        except Exception:  # pragma: no cover - ending a session must never break the request
            log.exception("could not end MCP session %s", sid[:12])

    @staticmethod
    async def _refuse(send: Send, status: int, message: str) -> None:
        code, headers, body = _rpc_error(status, message)
        await send({"type": "http.response.start", "status": code, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def http_app(server: Any, host: str = "127.0.0.1", path: str = "/mcp", limits: SessionLimits | None = None) -> SessionGuard:
    """The streamable HTTP app of ``server`` (an MCP low-level ``Server``) with session limits.

    The SDK gets the same cap, idle timeout and body limit (where the installed ``mcp`` accepts
    them; :func:`navworld.tools.mcp_compat.streamable_http_app`), so its sessions end when the
    guard forgets them.
    """
    limits = limits or SessionLimits.from_env()
    options: dict[str, Any] = {
        "path": path,
        "host": host,
        "max_sessions": limits.max_sessions,
        "session_idle_timeout": limits.idle_timeout,
        "max_request_body_size": limits.max_body_bytes,
    }
    app = mcp_compat.streamable_http_app(server, **options)
    return SessionGuard(app, limits)

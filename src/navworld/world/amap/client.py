"""One shared async HTTP client for the AMap web service, with a key pool, retries and a cache.

* One :class:`httpx2.AsyncClient` per event loop (connection pooling, explicit timeouts and
  limits) instead of a new client per call.
* ``AMAP_MAPS_API_KEY`` holds one key or a comma-separated pool. Keys are used round-robin; a
  quota or invalid-key infocode retires the key (daily quotas until the next midnight in
  Beijing, invalid keys for good) and the request moves on to the next key. When no key is
  left, :class:`~navworld.core.errors.BackendUnavailable` is raised (an infrastructure failure).
* Transport errors, timeouts, HTTP 429/5xx, rate-limit and engine infocodes, and malformed or
  truncated JSON bodies are retried with exponential backoff; when the retries run out a
  :class:`~navworld.core.errors.WorldError` with a readable message is raised.
* Parameter and routing infocodes (2xxxx) are the caller's fault: :class:`ToolInputError`.
* Successful (``status == "1"``) payloads go through the optional :class:`ResponseCache`;
  errors are never cached.

API keys never appear in exceptions or log records (the ``httpx2`` request log is redacted).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx2

from navworld.core.errors import ConfigError, ToolInputError, WorldError
from navworld.world.amap.cache import ResponseCache, normalize_params, request_key
from navworld.world.amap.keys import (
    INPUT_MESSAGES,
    KeyPool,
    classify_infocode,
    install_redaction,
    parse_keys,
    redact,
)

__all__ = [
    "BASE_URL_ENV",
    "DEFAULT_BASE_URL",
    "KEY_ENV",
    "AmapClient",
    "AmapConfig",
    "decode_payload",
]

logger = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_BASE_URL = "https://restapi.amap.com"
KEY_ENV = "AMAP_MAPS_API_KEY"
BASE_URL_ENV = "NAVWORLD_AMAP_BASE_URL"
TIMEOUT_ENV = "NAVWORLD_AMAP_TIMEOUT"
RETRIES_ENV = "NAVWORLD_AMAP_RETRIES"
BACKOFF_ENV = "NAVWORLD_AMAP_BACKOFF"


def _identity(payload: dict[str, Any]) -> dict[str, Any]:
    return payload


@dataclass(frozen=True)
class AmapConfig:
    """Settings of the AMap client; :meth:`from_env` reads the environment."""

    keys: tuple[str, ...]
    base_url: str = DEFAULT_BASE_URL
    timeout: float = 15.0
    connect_timeout: float = 5.0
    retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 8.0
    max_connections: int = 16
    extra_params: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> AmapConfig:
        """Build a config from ``AMAP_MAPS_API_KEY``, ``NAVWORLD_AMAP_BASE_URL``, ``NAVWORLD_AMAP_TIMEOUT``,
        ``NAVWORLD_AMAP_RETRIES`` and ``NAVWORLD_AMAP_BACKOFF``; raise :class:`ConfigError` on bad values."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {"keys": tuple(parse_keys(env.get(KEY_ENV, "")))}
        base = env.get(BASE_URL_ENV, "").strip()
        if base:
            if not base.startswith(("http://", "https://")):
                raise ConfigError(f"{BASE_URL_ENV} must be an http(s) URL, got {base!r}")
            values["base_url"] = base.rstrip("/")
        numeric: tuple[tuple[str, str, type], ...] = (
            (TIMEOUT_ENV, "timeout", float),
            (RETRIES_ENV, "retries", int),
            (BACKOFF_ENV, "backoff", float),
        )
        for name, attr, conv in numeric:
            raw = env.get(name, "").strip()
            if raw:
                try:
                    values[attr] = conv(raw)
                except ValueError:
                    raise ConfigError(f"{name} must be a number, got {raw!r}") from None
                if values[attr] < 0:
                    raise ConfigError(f"{name} must not be negative")
        values.update(overrides)
        return cls(**values)


class AmapClient:
    """Async AMap REST client: key pool, shared connection pool, retries, optional cache."""

    def __init__(
        self,
        config: AmapConfig,
        *,
        cache: ResponseCache | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        if not config.keys:
            raise ConfigError(
                f"the amap world needs an API key: set {KEY_ENV} (one key or a comma-separated list)"
            )
        self.config = config
        self.pool = KeyPool(config.keys)
        self.cache = cache
        self._transport = transport
        # One pooled client per running event loop: an httpx2 client is bound to the loop it
        # first ran on, and a world may be shared by several loops (threads, repeated asyncio.run).
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx2.AsyncClient] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()
        self._inflight: dict[tuple[int, str], asyncio.Future[dict[str, Any]]] = {}
        self.requests_sent = 0
        install_redaction()

    # -- connection management -------------------------------------------------------------
    def _client(self) -> httpx2.AsyncClient:
        loop = asyncio.get_running_loop()
        with self._lock:
            http = self._clients.get(loop)
            if http is None or http.is_closed:
                http = httpx2.AsyncClient(
                    base_url=self.config.base_url,
                    timeout=httpx2.Timeout(self.config.timeout, connect=self.config.connect_timeout),
                    limits=httpx2.Limits(
                        max_connections=self.config.max_connections,
                        max_keepalive_connections=max(1, self.config.max_connections // 2),
                    ),
                    headers={"User-Agent": "navworld-amap/1", "Accept": "application/json"},
                    transport=self._transport,
                    follow_redirects=False,
                )
                self._clients[loop] = http
            return http

    async def aclose(self) -> None:
        """Close this loop's HTTP connection pool (others die with their loops) and the cache."""
        loop = asyncio.get_running_loop()
        with self._lock:
            http = self._clients.pop(loop, None)
            self._clients.clear()
        if http is not None and not http.is_closed:
            await http.aclose()
        if self.cache is not None:
            self.cache.close()

    # -- requests ---------------------------------------------------------------------------
    async def get(self, path: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """GET ``path`` with ``params`` (the key is added here) and return the ``status == "1"`` payload.

        Raises :class:`ToolInputError` for parameter/route errors, :class:`BackendUnavailable`
        when every key is retired, :class:`WorldError` for other failures.
        """
        return await self.fetch(path, params, _identity)

    async def fetch(self, path: str, params: Mapping[str, Any], convert: Callable[[dict[str, Any]], T]) -> T:
        """Like :meth:`get`, then ``convert`` the payload.

        The payload is cached only when ``convert`` accepts it (a result, or a
        :class:`ToolInputError` such as "no route", which is a real answer); a payload that
        ``convert`` rejects with :class:`WorldError` (unexpected structure) is never cached.
        Concurrent identical requests share one HTTP exchange.
        """
        norm = normalize_params({**self.config.extra_params, **params})
        if self.cache is not None:
            hit = self.cache.get(path, norm)
            if hit is not None:
                return convert(hit)
        payload = await self._shared_fetch(path, norm)
        try:
            result = convert(payload)
        except ToolInputError:
            if self.cache is not None:
                self.cache.set(path, norm, payload)
            raise
        if self.cache is not None:
            self.cache.set(path, norm, payload)
        return result

    async def _shared_fetch(self, path: str, params: dict[str, str]) -> dict[str, Any]:
        """One in-flight HTTP exchange per identical request and event loop."""
        flight_key = (id(asyncio.get_running_loop()), request_key(path, params))
        pending = self._inflight.get(flight_key)
        if pending is not None:
            return await asyncio.shield(pending)
        task = asyncio.ensure_future(self._fetch(path, params))
        self._inflight[flight_key] = task
        try:
            return await asyncio.shield(task)
        finally:
            if task.done():
                self._inflight.pop(flight_key, None)
            else:  # we were cancelled; let the exchange finish for the other waiters
                task.add_done_callback(lambda _t: self._inflight.pop(flight_key, None))

    async def _fetch(self, path: str, params: dict[str, str]) -> dict[str, Any]:
        attempt = 0
        last_problem = "no attempt made"
        while True:
            key = self.pool.acquire()
            problem, retryable, retry_after = await self._attempt(path, params, key)
            if isinstance(problem, dict):
                return problem
            last_problem = problem
            if retryable is None:  # key retired: try the next key without spending a retry
                continue
            if not retryable or attempt >= self.config.retries:
                break
            delay = min(self.config.max_backoff, retry_after or self.config.backoff * (2**attempt))
            logger.warning(
                "AMap %s: %s; retry %d/%d in %.1fs", path, problem, attempt + 1, self.config.retries, delay
            )
            attempt += 1
            await asyncio.sleep(delay)
        raise WorldError(f"AMap {path} failed after {attempt + 1} attempt(s): {last_problem}")

    async def _attempt(
        self, path: str, params: dict[str, str], key: str
    ) -> tuple[dict[str, Any] | str, bool | None, float | None]:
        """One request. Returns ``(payload, _, _)`` on success, else ``(problem, retryable, retry_after)``
        where ``retryable is None`` means the key was retired and the next key should be tried."""
        self.requests_sent += 1
        try:
            resp = await self._client().get(path, params={**params, "key": key})
        except httpx2.TimeoutException as exc:
            return f"timeout ({type(exc).__name__})", True, None
        except httpx2.TransportError as exc:
            return f"network error ({type(exc).__name__}: {redact(str(exc))[:200]})", True, None
        if resp.status_code == 429 or resp.status_code >= 500:
            return f"HTTP {resp.status_code}", True, _retry_after(resp)
        if resp.status_code != 200:
            return f"HTTP {resp.status_code}", False, None
        try:
            payload = decode_payload(resp.content)
        except WorldError as exc:
            return str(exc), True, None
        status = str(payload.get("status", ""))
        if status == "1":
            return payload, False, None
        infocode = str(payload.get("infocode", "") or "")
        info = str(payload.get("info", "") or "unknown error")
        kind = classify_infocode(infocode)
        problem = f"{info} (infocode {infocode or '?'})"
        if kind in ("quota", "bad_key"):
            self.pool.retire(key, problem, daily=kind == "quota")
            return problem, None, None
        if kind in ("rate_limit", "engine"):
            return problem, True, None
        if kind == "input":
            reason = INPUT_MESSAGES.get(infocode, info)
            raise ToolInputError(f"高德地图拒绝了该请求：{reason}，infocode {infocode}")
        return problem, False, None


def _retry_after(resp: httpx2.Response) -> float | None:
    raw = resp.headers.get("retry-after", "")
    try:
        return max(0.0, float(raw)) if raw else None
    except ValueError:
        return None


def decode_payload(body: bytes) -> dict[str, Any]:
    """Decode an AMap JSON body; raise :class:`WorldError` with a readable reason if malformed or truncated."""
    if not body.strip():
        raise WorldError("AMap returned an empty body")
    try:
        decoded = body.decode("utf-8")
    except UnicodeDecodeError:
        raise WorldError("AMap returned a body that is not UTF-8 text") from None
    try:
        payload = json.loads(decoded)
    except json.JSONDecodeError as exc:
        truncated = exc.pos >= len(decoded.rstrip()) - 1 or "Unterminated" in exc.msg
        what = "truncated JSON" if truncated else "malformed JSON"
        raise WorldError(f"AMap returned {what} ({exc.msg} at char {exc.pos} of {len(decoded)})") from None
    if not isinstance(payload, dict):
        raise WorldError(f"AMap returned JSON of type {type(payload).__name__}, expected an object")
    if "status" not in payload:
        raise WorldError("AMap returned JSON without a 'status' field")
    return payload

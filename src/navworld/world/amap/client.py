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
import re
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx2

from navworld.core.errors import BackendUnavailable, ConfigError, ToolInputError, WorldError
from navworld.world.amap.cache import ResponseCache, normalize_params

__all__ = [
    "BASE_URL_ENV",
    "DEFAULT_BASE_URL",
    "KEY_ENV",
    "AmapClient",
    "AmapConfig",
    "KeyPool",
    "classify_infocode",
    "parse_keys",
]

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://restapi.amap.com"
KEY_ENV = "AMAP_MAPS_API_KEY"
BASE_URL_ENV = "NAVWORLD_AMAP_BASE_URL"
TIMEOUT_ENV = "NAVWORLD_AMAP_TIMEOUT"
RETRIES_ENV = "NAVWORLD_AMAP_RETRIES"
BACKOFF_ENV = "NAVWORLD_AMAP_BACKOFF"

# --- infocodes (AMap web service error table) ---------------------------------------------
_DAILY_QUOTA = frozenset({"10003", "10029", "10044", "10045"})
"""Daily quota exhausted: the key is retired until the next midnight (Asia/Shanghai)."""
_BAD_KEY = frozenset(
    {
        "10001",
        "10002",
        "10005",
        "10006",
        "10007",
        "10008",
        "10009",
        "10010",
        "10011",
        "10012",
        "10013",
        "10026",
        "10041",
    }
)
"""Invalid, unauthorised or blocked keys: retired for the lifetime of the pool."""
_RATE_LIMIT = frozenset({"10004", "10014", "10015", "10016", "10017", "10019", "10020", "10021"})
"""Too frequent / server busy: retried with backoff (on the next key)."""
_INPUT_MESSAGES = {
    "20000": "请求参数非法 (INVALID_PARAMS)",
    "20001": "缺少必填参数 (MISSING_REQUIRED_PARAMS)",
    "20002": "请求协议非法 (ILLEGAL_REQUEST)",
    "20003": "其他未知错误 (UNKNOWN_ERROR)",
    "20011": "查询坐标在海外，不在服务范围内 (INSUFFICIENT_ABROAD_PRIVILEGES)",
    "20012": "查询信息存在非法内容 (ILLEGAL_CONTENT)",
    "20800": "规划点不在中国陆地范围内 (OUT_OF_SERVICE)",
    "20801": "规划点附近搜不到路 (NO_ROADS_NEARBY)",
    "20802": "路线计算失败，通常是两点之间无法通行 (ROUTE_FAIL)",
    "20803": "起终点距离过长 (OVER_DIRECTION_RANGE)",
}

_KEY_RE = re.compile(r"([?&]key=)[^&\s\"']+", re.IGNORECASE)
_BEIJING_UTC_OFFSET = 8 * 3600


def classify_infocode(infocode: str) -> str:
    """Classify an error infocode: ``quota``, ``bad_key``, ``rate_limit``, ``engine``, ``input`` or ``other``."""
    if infocode in _DAILY_QUOTA:
        return "quota"
    if infocode in _BAD_KEY:
        return "bad_key"
    if infocode in _RATE_LIMIT:
        return "rate_limit"
    if infocode.startswith("3"):
        return "engine"
    if infocode.startswith("2"):
        return "input"
    return "other"


def redact(text: str) -> str:
    """Replace every ``key=...`` query value in ``text`` by ``key=***``."""
    return _KEY_RE.sub(r"\1***", text)


class _RedactKeys(logging.Filter):
    """Logging filter that removes API keys from ``httpx2`` request log lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(redact(str(a)) if "key=" in str(a) else a for a in args)
        if isinstance(record.msg, str) and "key=" in record.msg:
            record.msg = redact(record.msg)
        return True


_REDACT_FILTER = _RedactKeys()


def _install_redaction() -> None:
    for name in ("httpx2", "httpcore", "httpx"):
        lg = logging.getLogger(name)
        if _REDACT_FILTER not in lg.filters:
            lg.addFilter(_REDACT_FILTER)


def parse_keys(raw: str | Sequence[str] | None) -> list[str]:
    """Split a comma/whitespace-separated key list, dropping blanks and duplicates (order kept)."""
    if raw is None:
        return []
    items = re.split(r"[\s,;]+", raw) if isinstance(raw, str) else [str(k).strip() for k in raw]
    out: list[str] = []
    for item in items:
        key = item.strip()
        if key and key not in out:
            out.append(key)
    return out


def _next_beijing_midnight(now: float) -> float:
    local = now + _BEIJING_UTC_OFFSET
    return (local // 86400 + 1) * 86400 - _BEIJING_UTC_OFFSET


class KeyPool:
    """A round-robin pool of API keys; keys are retired on quota or invalid-key errors.

    Keys are identified in logs only by their position (``#1``, ``#2`` …), never by value.
    """

    def __init__(self, keys: Sequence[str], clock: Any = time.time) -> None:
        self._keys = parse_keys(list(keys))
        self._retired: dict[str, float] = {}  # key -> revive time (inf = never)
        self._next = 0
        self._clock = clock

    def __len__(self) -> int:
        return len(self._keys)

    @property
    def active(self) -> list[str]:
        """Keys currently usable (retired daily-quota keys revive after midnight Beijing time)."""
        now = self._clock()
        for key, until in list(self._retired.items()):
            if until <= now:
                del self._retired[key]
                logger.info("AMap key #%d revived after its daily quota reset", self._index(key))
        return [k for k in self._keys if k not in self._retired]

    def _index(self, key: str) -> int:
        return self._keys.index(key) + 1 if key in self._keys else 0

    def acquire(self) -> str:
        """Return the next usable key; raise :class:`BackendUnavailable` when none is left."""
        active = self.active
        if not active:
            if not self._keys:
                raise BackendUnavailable("AMap: no API key configured (set AMAP_MAPS_API_KEY)")
            raise BackendUnavailable(
                f"AMap: all {len(self._keys)} API key(s) are exhausted or invalid (quota / INVALID_USER_KEY)"
            )
        n = len(self._keys)
        for step in range(n):  # round-robin over the whole pool, skipping retired keys
            key = self._keys[(self._next + step) % n]
            if key in active:
                self._next = (self._next + step + 1) % n
                return key
        raise AssertionError("unreachable: an active key exists")

    def retire(self, key: str, reason: str, *, daily: bool) -> None:
        """Retire ``key`` until the next Beijing midnight (``daily``) or for good."""
        until = _next_beijing_midnight(self._clock()) if daily else float("inf")
        self._retired[key] = until
        logger.warning(
            "AMap key #%d retired (%s); %d of %d keys left",
            self._index(key),
            reason,
            len(self.active),
            len(self._keys),
        )


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
        self.requests_sent = 0
        _install_redaction()

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
        norm = normalize_params({**self.config.extra_params, **params})
        if self.cache is not None:
            hit = self.cache.get(path, norm)
            if hit is not None:
                return hit
        payload = await self._fetch(path, norm)
        if self.cache is not None:
            self.cache.set(path, norm, payload)
        return payload

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
            reason = _INPUT_MESSAGES.get(infocode, info)
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
        payload = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise WorldError("AMap returned a body that is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        truncated = exc.pos >= len(body.rstrip()) - 1 or "Unterminated" in exc.msg
        what = "truncated JSON" if truncated else "malformed JSON"
        raise WorldError(f"AMap returned {what} ({exc.msg} at char {exc.pos} of {len(body)})") from None
    if not isinstance(payload, dict):
        raise WorldError(f"AMap returned JSON of type {type(payload).__name__}, expected an object")
    if "status" not in payload:
        raise WorldError("AMap returned JSON without a 'status' field")
    return payload

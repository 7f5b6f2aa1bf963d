"""Disk cache of successful AMap responses, keyed by the exact normalised request.

The key is the request path plus every parameter except the API key, as strings, sorted by
name (``/v5/place/around?keywords=咖啡&location=120.155070,30.274085&radius=500``), so two
requests that differ in any argument (radius, coordinates, page size …) never share an entry.

Entries expire at the end of the salt's week (seed §2.3): ``ttl = max(86400, epoch_end - now)``
with ``epoch_end = (salt_week + 1) * 604800``. A salt that is not a week number (``"test"``)
aligns to the current UTC week. Only ``status == "1"`` payloads are stored; errors never are.
A cache failure (locked or full disk) is logged and treated as a miss, never raised.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from navworld.core.seeding import WEEK_SECONDS, week_epoch

__all__ = [
    "CACHE_DIR_ENV",
    "ResponseCache",
    "default_cache_dir",
    "epoch_ttl",
    "normalize_params",
    "request_key",
]

logger = logging.getLogger(__name__)

CACHE_DIR_ENV = "NAVWORLD_AMAP_CACHE_DIR"
DAY_SECONDS = 86400
_DISABLED = {"off", "none", "0", "false", "no"}


def normalize_params(params: Mapping[str, Any]) -> dict[str, str]:
    """Stringify and strip values, drop empty ones and ``key``, and sort by name."""
    out: dict[str, str] = {}
    for name in sorted(params):
        if name.lower() == "key":
            continue
        value = params[name]
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = str(value).strip()
        if text:
            out[name] = text
    return out


def request_key(path: str, params: Mapping[str, Any]) -> str:
    """The canonical text of a request: ``path?sorted&params`` without the API key."""
    norm = normalize_params(params)
    return f"{path}?{urlencode(norm, safe=',;|:')}"


def epoch_ttl(salt: str | None, now: float | None = None) -> float:
    """Seconds until the end of the salt's week, at least one day."""
    now = time.time() if now is None else now
    text = (salt or "").strip()
    week = int(text) if text.isdigit() else week_epoch(now)
    epoch_end = (week + 1) * WEEK_SECONDS
    return float(max(DAY_SECONDS, epoch_end - now))


def default_cache_dir(env: Mapping[str, str] | None = None) -> Path | None:
    """``NAVWORLD_AMAP_CACHE_DIR`` (``off`` disables), else ``$XDG_CACHE_HOME/navworld/amap``."""
    env = os.environ if env is None else env
    raw = env.get(CACHE_DIR_ENV, "").strip()
    if raw:
        return None if raw.lower() in _DISABLED else Path(raw).expanduser()
    base = env.get("XDG_CACHE_HOME", "").strip()
    root = Path(base).expanduser() if base else Path.home() / ".cache"
    return root / "navworld" / "amap"


class ResponseCache:
    """A :mod:`diskcache` store of AMap payloads with epoch-aligned expiry."""

    def __init__(self, directory: Path | str, salt: str | None = None, clock: Any = time.time) -> None:
        self.directory = Path(directory)
        self.salt = salt
        self._clock = clock
        self._store: Any = None  # opened on first use, so building a world writes nothing
        self.hits = 0
        self.misses = 0

    @property
    def _cache(self) -> Any:
        if self._store is None:
            import diskcache

            self._store = diskcache.Cache(str(self.directory), size_limit=2**30)
        return self._store

    def get(self, path: str, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """The cached payload of this exact request, or ``None``."""
        key = request_key(path, params)
        try:
            raw = self._cache.get(key, default=None)
        except Exception as exc:  # sqlite errors must not break a tool call
            logger.warning("AMap cache read failed (%s); treating as a miss", type(exc).__name__)
            raw = None
        if not isinstance(raw, str):
            self.misses += 1
            return None
        try:
            payload = json.loads(raw)
        except json.JSONDecodeError:
            self.misses += 1
            return None
        self.hits += 1
        return payload if isinstance(payload, dict) else None

    def set(self, path: str, params: Mapping[str, Any], payload: Mapping[str, Any]) -> None:
        """Store a successful payload until the end of the salt's week; errors are refused."""
        if str(payload.get("status", "")) != "1":
            return
        key = request_key(path, params)
        ttl = epoch_ttl(self.salt, self._clock())
        try:
            self._cache.set(key, json.dumps(payload, ensure_ascii=False), expire=ttl)
        except Exception as exc:
            logger.warning("AMap cache write failed (%s); continuing without caching", type(exc).__name__)

    def __len__(self) -> int:
        return len(self._cache)

    def clear(self) -> None:
        """Drop every entry."""
        self._cache.clear()

    def close(self) -> None:
        """Close the underlying SQLite handles (reopened on the next use)."""
        if self._store is not None:
            self._store.close()
            self._store = None

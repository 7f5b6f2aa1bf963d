"""AMap keys: the key pool, the infocode table and key redaction in logs.

Keys are used round-robin. A daily-quota infocode retires a key until the next midnight in
Beijing (when AMap resets quotas); an invalid, unauthorised or blocked key is retired for the
life of the pool. Keys are named in logs only by their position (``#2``), and the ``httpx2``
request log, which prints full URLs, is redacted to ``key=***``.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence

from navworld.core.errors import BackendUnavailable

__all__ = ["INPUT_MESSAGES", "KeyPool", "classify_infocode", "install_redaction", "parse_keys", "redact"]

logger = logging.getLogger(__name__)

# --- infocodes (AMap web service error table) ---------------------------------------------
_DAILY_QUOTA = frozenset({"10003", "10029", "10044", "10045"})
"""Daily quota exhausted: the key is retired until the next midnight (Asia/Shanghai)."""
_BAD_KEY = frozenset(
    {"10001", "10002", "10005", "10006", "10007", "10008", "10009", "10010", "10011", "10012", "10013", "10026", "10041"}
)  # fmt: skip
"""Invalid, unauthorised or blocked keys: retired for the lifetime of the pool."""
_RATE_LIMIT = frozenset({"10004", "10014", "10015", "10016", "10017", "10019", "10020", "10021"})
"""Too frequent / server busy: retried with backoff (on the next key)."""
INPUT_MESSAGES = {
    "20000": "请求参数非法 (INVALID_PARAMS)",
    "20001": "缺少必填参数 (MISSING_REQUIRED_PARAMS)",
    "20002": "请求协议非法 (ILLEGAL_REQUEST)",
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
    if infocode.startswith("3") or infocode == "20003":  # 20003 UNKNOWN_ERROR is the service's
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


def install_redaction() -> None:
    """Add the key-redacting filter to the HTTP client loggers (idempotent)."""
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

    def __init__(self, keys: Sequence[str], clock: Callable[[], float] = time.time) -> None:
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

"""The one place that knows which ``openai`` major is installed (2.x ≥ 2.54 or 3.x).

``openai`` 3.x runs on ``httpx2``, 2.x on ``httpx``; the two share their API but not their types,
so timeouts and transport errors are taken from the library the installed SDK really uses.
Everything else navworld calls (``AsyncOpenAI``, ``chat.completions.create``, the error classes)
is the same in both majors.
"""

from __future__ import annotations

import re
from importlib.metadata import version as _dist_version
from typing import Any

import httpx2

__all__ = ["OPENAI_MAJOR", "OPENAI_VERSION", "TRANSPORT_ERRORS", "http", "sdk_timeout"]


def _parse_version(text: str) -> tuple[int, int, int]:
    nums = [int(m.group()) if (m := re.match(r"\d+", part)) else 0 for part in text.split(".")[:3]]
    nums += [0] * (3 - len(nums))
    return nums[0], nums[1], nums[2]


OPENAI_VERSION: tuple[int, int, int] = _parse_version(_dist_version("openai"))
"""The installed ``openai`` distribution's version."""
OPENAI_MAJOR: int = OPENAI_VERSION[0]

if OPENAI_MAJOR >= 3:
    http: Any = httpx2
else:  # pragma: no cover - exercised by the oldest-dependency CI venv
    import httpx as http

TRANSPORT_ERRORS: tuple[type[BaseException], ...] = tuple(dict.fromkeys((http.TransportError, httpx2.TransportError)))
"""Transport failures of the SDK's HTTP library (and of ``httpx2``, used by navworld itself)."""


def sdk_timeout(total: float, connect: float) -> Any:
    """A timeout object of the SDK's own HTTP library."""
    return http.Timeout(total, connect=connect)

"""Small facts about one result row, shared by the summary, the report, ``show`` and ``export``.

* a row's *status*: ``error`` (infrastructure failure, not scored), ``pass`` / ``fail`` against
  the success mark (60), or ``code-only`` when no judge scored it (a code-only total is at most 50);
* *judge failures*: a judge was configured (``row["judge"]`` non-null) but the score report's
  ``llm_error`` is set, so the row fell back to the code score;
* the *error kind* (``connection``, ``timeout``, ``scorer`` …: the text before the first colon);
* whether the answer was cut at ``max_tokens`` (``truncated``; a missing field reads as false).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "error_kind",
    "is_judge_failure",
    "judge_failure_reason",
    "row_status",
    "short_reason",
    "truncated",
    "was_judged",
]

_KIND_MAX = 40


def short_reason(text: str, limit: int = 60) -> str:
    """A short label for a failure text: the part before the first colon when short, else a cut.

    >>> short_reason("unparseable reply: Expecting value at line 1")
    'unparseable reply'
    >>> short_reason("connection: Connection error.")
    'connection'
    """
    first = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    head = first.split(":", 1)[0].strip()
    if head and len(head) <= _KIND_MAX and head != first:
        return head
    return first if len(first) <= limit else first[: limit - 1] + "…"


def error_kind(error: str) -> str:
    """The kind of an infrastructure error text (``connection``, ``timeout``, ``agent`` …)."""
    return short_reason(error) or "error"


def is_judge_failure(row: dict[str, Any]) -> bool:
    """A judge was configured for the row, it was scored, and the judge gave no usable result."""
    if not row.get("judge") or row.get("error"):
        return False
    report = row.get("report") or {}
    return bool(report.get("llm_error"))


def judge_failure_reason(row: dict[str, Any]) -> str:
    """The short reason of a judge failure (``""`` when the row is not one)."""
    if not is_judge_failure(row):
        return ""
    return short_reason(str((row.get("report") or {}).get("llm_error")))


def was_judged(row: dict[str, Any]) -> bool:
    """An LLM judge scored this row (configured and without ``llm_error``)."""
    return bool(row.get("judge")) and not row.get("error") and not is_judge_failure(row)


def row_status(row: dict[str, Any]) -> str:
    """``error``, ``pass``, ``fail`` or ``code-only`` (no judge scored it, so 60 is out of reach)."""
    if row.get("error"):
        return "error"
    if row.get("success"):
        return "pass"
    return "fail" if was_judged(row) else "code-only"


def truncated(row: dict[str, Any]) -> bool:
    """Whether the final answer was cut at ``max_tokens`` (a missing field reads as false)."""
    return row.get("truncated") is True

"""Anti-injection sanitizer and boundary token for everything that reaches the LLM judge.

Every string placed in the judge prompt (problem fields, tool facts, names and values extracted
from the answer) goes through :func:`sanitize`: Unicode NFKC folding (so full-width letters do not
dodge the filters), control and zero-width characters removed, the injection patterns of
:data:`navworld.scoring.patterns.INJECTION_PATTERNS` replaced by ``[已过滤]``, boundary-like
markers stripped, whitespace collapsed and length capped. The raw answer never reaches the judge.
"""

from __future__ import annotations

import unicodedata

from navworld.core.seeding import stable_hash
from navworld.scoring import config as C
from navworld.scoring import patterns as P

__all__ = ["FILTERED", "boundary_token", "sanitize"]

FILTERED = "[已过滤]"


def sanitize(value: object, limit: int = C.JUDGE_SUMMARY_MAX_ITEM_CHARS) -> str:
    """A safe, short, single-line version of ``value`` for the judge prompt."""
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    text = text[: limit * 8]
    text = unicodedata.normalize("NFKC", text)
    text = P.DEFAULT_IGNORABLE.sub("", P.CONTROL_CHARS.sub("", text))
    for pattern in P.INJECTION_PATTERNS:
        text = pattern.sub(FILTERED, text)
    text = P.BOUNDARY_LIKE.sub("", text)
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: max(1, limit - 1)] + "…"
    return text


def boundary_token(task_id: object, salt: object, answer: str) -> str:
    """A deterministic boundary token for the data section, unguessable without the answer hash."""
    return "DATA_" + stable_hash("judge-boundary", task_id, salt, stable_hash(answer))[:16].upper()

"""Reading a judge's reply the way real (small, local) judges write it.

:func:`read_verdict` finds the verdict in a reply and, when there is none, says why in a few
words (the judge's retry prompt and the row's ``llm_error`` use that reason). Tolerated:

* prose, ``<think>`` blocks and code fences around the JSON;
* several JSON objects — the **last complete** one holding all five dimensions wins, so a reply
  that first repeats the format example (``"score": <0-10>``) and then gives its verdict is read
  as the verdict;
* HTML entities (``{&quot;logic&quot;: …}``), trailing commas, single quotes, unquoted keys,
  full-width punctuation and a verdict cut short at the end (repaired by ``json-repair``);

The per-dimension reading (numbers, ``"7/10"``, ``{"score": 7, "reason": …}``, the weights) is
:func:`navworld.scoring.judge_prompt.parse_scores`'s, applied to each candidate object.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Any

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.judge_prompt import parse_scores

__all__ = ["MAX_REPAIR_CHARS", "MAX_REPLY_CHARS", "Verdict", "json_objects", "read_verdict"]

MAX_REPLY_CHARS = 200_000
"""Longer replies are read up to this many characters (bounded time on runaway replies)."""
MAX_REPAIR_CHARS = 20_000
"""Only JSON candidates up to this size are given to the repair library (a verdict is ~1-3 k)."""
_MAX_CANDIDATES = 50

_ENTITY = re.compile(r"&(?:[a-zA-Z]{2,8}|#\d{1,6}|#x[0-9a-fA-F]{1,6});")
_FULLWIDTH = str.maketrans({"：": ":", "，": ",", "“": '"', "”": '"', "｛": "{", "｝": "}"})

try:  # a well-kept repair library; without it only strict JSON is read
    import json_repair as _json_repair
except ImportError:  # pragma: no cover - a declared dependency
    _json_repair = None


@dataclass(frozen=True)
class Verdict:
    """What a reply yielded: ``scores``/``reasons`` (as ``parse_scores`` gives them) or ``problem``."""

    scores: dict[str, float] | None
    reasons: dict[str, str]
    problem: str | None = None
    """Why no verdict could be read (``None`` when ``scores`` is set)."""

    @property
    def ok(self) -> bool:
        """Whether the reply held a complete verdict."""
        return self.scores is not None


def json_objects(text: str) -> tuple[list[str], str | None]:
    """The top-level ``{...}`` spans of ``text`` in order, and an unclosed tail (``{`` to the end).

    Braces inside double-quoted strings are skipped; at most 50 spans are returned (the last ones).
    """
    spans: list[str] = []
    depth, start, in_str, escaped = 0, -1, False, False
    for i, ch in enumerate(text):
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"' and depth > 0:
            in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append(text[start : i + 1])
    tail = text[start:] if depth > 0 and start >= 0 else None
    return spans[-_MAX_CANDIDATES:], tail


def _decode(span: str) -> list[dict[str, Any]]:
    """The objects one span decodes to (strict JSON first, then repaired); last first."""
    try:
        obj = json.loads(span)
    except (ValueError, RecursionError):
        obj = None
        if _json_repair is not None and len(span) <= MAX_REPAIR_CHARS:
            try:
                obj = _json_repair.loads(span)
            except Exception:  # the repair library must never break scoring
                obj = None
    items = obj if isinstance(obj, list) else [obj]
    return [o for o in reversed(items) if isinstance(o, dict)]


def _verdict(obj: dict[str, Any]) -> tuple[dict[str, float], dict[str, str]] | None:
    try:
        return parse_scores(json.dumps(obj, ensure_ascii=False))
    except (TypeError, ValueError):
        return None


def _dims(obj: dict[str, Any]) -> dict[str, Any]:
    inner = obj.get("scores")
    return inner if isinstance(inner, dict) else obj


def _diagnose(objects: list[dict[str, Any]]) -> str:
    """Why the best-looking object is not a verdict."""
    best = max(objects, key=lambda o: sum(d in _dims(o) for d in C.LLM_DIMENSIONS))
    dims = _dims(best)
    present = [d for d in C.LLM_DIMENSIONS if d in dims]
    if not present:
        return "JSON without any of the five dimensions"
    missing = [d for d in C.LLM_DIMENSIONS if d not in dims]
    if missing:
        return "JSON lacks " + ", ".join(missing)
    raw = [str(v.get("score") if isinstance(v, dict) else v) for v in (dims[d] for d in present)]
    if all("<" in r or "0-10" in r for r in raw):
        return "only the format example (placeholders, no scores)"
    bad = [d for d, r in zip(present, raw, strict=True) if _verdict({d: dims[d], **_fill(d)}) is None]
    return "no numeric score for " + ", ".join(bad or present)


def _fill(skip: str) -> dict[str, int]:
    return {d: 5 for d in C.LLM_DIMENSIONS if d != skip}


def _echoes(text: str, prompt: str | None) -> bool:
    if not prompt:
        return False
    lines = [ln.strip() for ln in prompt.splitlines() if len(ln.strip()) >= 30]
    if not lines:
        return False
    hits = sum(1 for ln in lines[:40] if ln in text)
    return hits >= min(2, len(lines))


def _excerpt(text: str, n: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= n else flat[:n] + "…"


def read_verdict(content: object, *, prompt: str | None = None, finish_reason: str | None = None) -> Verdict:
    """Read a judge reply (see the module docstring); never raises.

    ``prompt`` (the user prompt sent) lets an echo of it be named as such; ``finish_reason``
    ``"length"`` is named as a reply cut at ``max_tokens``.
    """
    if not isinstance(content, str) or not content.strip():
        cut = " (cut at max_tokens before any text)" if finish_reason == "length" else ""
        return Verdict(None, {}, f"empty reply{cut}")
    text = P.THINK_BLOCK.sub("", content[:MAX_REPLY_CHARS])
    variants = [text]
    if _ENTITY.search(text):
        variants.insert(0, html.unescape(text))
    variants.append(variants[0].translate(_FULLWIDTH))
    seen: list[dict[str, Any]] = []
    for variant in variants:
        spans, tail = json_objects(variant)
        ordered = list(reversed(spans)) + ([tail] if tail else [])
        for span in ordered:
            for obj in _decode(span):
                found = _verdict(obj)
                if found is not None:
                    return Verdict(found[0], found[1])
                seen.append(obj)
    if _echoes(text, prompt):
        problem = "the reply echoes the prompt"
    elif seen:
        problem = _diagnose(seen)
    else:
        problem = "no JSON object in the reply"
    if finish_reason == "length":
        problem += "; the reply was cut at max_tokens"
    return Verdict(None, {}, f"{problem} (reply starts: {_excerpt(text)!r})")

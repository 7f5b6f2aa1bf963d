"""Information consistency (IC, 25 points, seed §3.3).

Per category with tool facts::

    overlap    = matched / min(n_tool, max(1, n_answer))
    normalized = min(1, overlap / 0.6)
    if n_tool >= 5 and matched < min(3, ceil(0.2 · n_tool)):  normalized *= 0.65
    IC = 25 · mean(normalized);  breadth: ≥ 4 categories and matched < max(2, (n+1)//2) → IC × 0.5

Flights/trains are context-weighted (an ID without a transport word within ±200 chars counts
0.5). The minimum quantity rounds **up** (upstream truncated before its ceiling and rounded down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.answer_facts import AnswerFacts
from navworld.scoring.facts import ToolFacts

__all__ = ["ICResult", "category_matches", "info_consistency", "min_required", "price_matches"]


@dataclass(slots=True)
class ICResult:
    """IC score with per-category details."""

    score: float
    categories: dict[str, dict[str, Any]] = field(default_factory=dict)
    with_data: int = 0
    matched_categories: int = 0
    breadth_penalty: bool = False
    reason: str = ""


def min_required(n_tool: int) -> int:
    """Minimum matches required when a category has ≥ IC_MIN_QUANTITY_THRESHOLD facts (ceil)."""
    return min(C.IC_MIN_QUANTITY_CAP, max(1, math.ceil(n_tool * C.IC_MIN_QUANTITY_RATIO - 1e-9)))


def price_matches(tf: ToolFacts, key: str | None, value: float) -> bool:
    """Whether an answer price equals a tool price **of the same entity** (never by value only)."""
    if key is None:
        return False
    vals = tf.prices.get(key)
    return bool(vals) and any(abs(value - v) <= C.PRICE_MATCH_ABS_TOLERANCE for v in vals)


def _near_any(values: list[float], target: float, rel: float, absolute: float = 0.0) -> bool:
    return any(abs(v - target) <= max(rel * target, absolute) for v in values)


def _id_weight(text: str, positions: list[int], context: Any) -> float:
    w = C.IC_CONTEXT_WINDOW
    for p in positions:
        if context.search(text, max(0, p - w), p + w):
            return 1.0
    return C.IC_OUT_OF_CONTEXT_WEIGHT


def category_matches(
    tf: ToolFacts, af: AnswerFacts, text: str, strict: bool = False
) -> dict[str, tuple[int, float, int]]:
    """``category → (matched count, weighted matched, answer fact count)``.

    ``strict`` (s2): amounts tied to no entity do not count as answer price facts (they can match
    nothing, so they must not dilute the ones that can)."""
    out: dict[str, tuple[int, float, int]] = {}
    for cat, tool_ids, occ, ctx in (
        ("flights", tf.flights, af.flights, P.FLIGHT_CONTEXT),
        ("trains", tf.trains, af.trains, P.TRAIN_CONTEXT),
    ):
        by_id: dict[str, list[int]] = {}
        for i, p in occ:
            by_id.setdefault(i, []).append(p)
        hits = [i for i in by_id if i in tool_ids]
        out[cat] = (len(hits), sum(_id_weight(text, by_id[i], ctx) for i in hits), len(by_id))
    n_poi = len(af.pois)
    out["pois"] = (n_poi, float(n_poi), n_poi + len(af.ungrounded_places))
    aw = af.weather
    m = len(tf.weather & aw)
    out["weather"] = (m, float(m), len(aw))
    ans_d = sorted({d for d, _ in af.distances})
    m = sum(1 for d in tf.distances if _near_any(ans_d, d, C.DISTANCE_MATCH_TOLERANCE))
    out["distances"] = (m, float(m), len(ans_d))
    at = {t for t, _ in af.fact_times}
    m = len(tf.times & at)
    out["times"] = (m, float(m), len(at))
    ap = {(k, v) for k, v, _ in af.prices}
    m = sum(1 for k, v in ap if price_matches(tf, k, v))
    out["prices"] = (m, float(m), len(ap) if not strict else sum(1 for k, _ in ap if k is not None))
    aw2 = {w for w, _ in af.wind}
    m = len(tf.wind & aw2)
    out["wind_info"] = (m, float(m), len(aw2))
    ans_m = sorted({float(d) for d, _ in af.durations})
    m = sum(1 for d in tf.durations if _near_any(ans_m, d, 0.0, C.DURATION_MATCH_TOLERANCE_MIN))
    out["travel_durations"] = (m, float(m), len(ans_m))
    m = len(af.matched_roads)
    out["road_names"] = (m, float(m), len({r for r, _ in af.roads}))
    return out


def info_consistency(
    tf: ToolFacts, af: AnswerFacts, text: str, minimum: dict[str, int] | None = None, strict: bool = False
) -> ICResult:
    """IC out of 25 (see module docstring); 0 without tool calls or with only error results.

    ``minimum`` caps the minimum-quantity rule per category (s2: 2 flights / trains, the options a
    request asks for). ``strict`` (s2): 0 instead of 12.5 when the tools returned no facts at all;
    amounts tied to no entity are not counted as answer price facts; the mean runs over the
    categories the answer cites (omissions are completeness's business), while the breadth rule
    still counts every category the tools returned."""
    if tf.n_calls == 0:
        return ICResult(0.0, reason="no tool calls")
    if tf.n_ok == 0:
        if tf.off_topic:
            return ICResult(0.0, reason="every tool call failed or was off-topic")
        return ICResult(0.0, reason="every tool call failed")
    sizes = tf.category_sizes()
    if not any(sizes.values()):
        credit = 0.0 if strict else C.INFO_CONSISTENCY_MAX * C.IC_NO_FACTS_CREDIT
        return ICResult(round(credit, 2), reason="tools returned no facts")
    matches = category_matches(tf, af, text, strict)
    cats: dict[str, dict[str, Any]] = {}
    total = 0.0
    matched_cats = 0
    n_with_data = sum(1 for cat in C.IC_CATEGORIES if sizes[cat])
    for cat in C.IC_CATEGORIES:
        n_tool = sizes[cat]
        if n_tool == 0:
            continue
        matched, weighted, n_out = matches[cat]
        if strict and n_out == 0:
            continue  # s2: a category the answer cites nothing of is not inconsistent (breadth still counts)
        denom = min(n_tool, max(1, n_out))
        normalized = min(1.0, (weighted / denom) / C.INFO_CONSISTENCY_RATIO_DIVISOR)
        below = False
        need = min_required(n_tool)
        if minimum and cat in minimum:
            need = min(need, minimum[cat])
        if n_tool >= C.IC_MIN_QUANTITY_THRESHOLD and matched < need:
            normalized *= C.IC_BELOW_MINIMUM_SCALE
            below = True
        if matched:
            matched_cats += 1
        total += normalized
        cats[cat] = {
            "tool": n_tool,
            "answer": n_out,
            "matched": matched,
            "score": round(normalized, 4),
            "below_minimum": below,
        }
    n = len(cats)
    ic = C.INFO_CONSISTENCY_MAX * total / n if n else 0.0
    penalty = False
    breadth = n_with_data if strict else n
    if breadth >= C.INFO_CONSISTENCY_MIN_BREADTH_TOTAL and matched_cats < max(2, (breadth + 1) // 2):
        ic *= C.IC_BREADTH_PENALTY_MULTIPLIER
        penalty = True
    return ICResult(round(ic, 4), cats, n, matched_cats, penalty)

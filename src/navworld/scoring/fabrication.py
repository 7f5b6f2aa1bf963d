"""Fabrication penalty (0 … −12.5, seed §3.5) and the local regex multiplier for unsourced routes.

* Prices: an answer price attached to a tool POI (``灵隐寺门票75元``) that differs from that POI's
  tool price by > 10 % (allowing whole multiples for several people / nights) → −3 each. Prices
  attached to flights/trains are judged by ``transport_grounded``; unattached prices and route
  prices are never compared by value alone.
* Weather: a condition word in a weather-context line that no weather result contained → −2.
* Transport: fabrication ratio > 0.1 → additional −5 × ratio.
* Low IC (< 40 % of 25) with a deduction beyond −3 → at least −10. Floor −12.5.
Answers shorter than FABRICATION_MIN_LENGTH are not judged.
"""

from __future__ import annotations

from typing import Any

from navworld.scoring import config as C
from navworld.scoring.answer_facts import AnswerFacts
from navworld.scoring.facts import ToolFacts

__all__ = ["fabrication_penalty", "local_fab_multiplier"]


def _price_ok(value: float, tool_values: set[float], k_max: int) -> bool:
    tol = C.PRICE_FABRICATION_TOLERANCE
    for tv in tool_values:
        if tv <= 0:
            if value <= C.PRICE_MATCH_ABS_TOLERANCE:
                return True
            continue
        if abs(value - tv) <= tol * tv:
            return True
        # several people / nights: an exact multiple of the tool price
        if any(abs(value - k * tv) <= C.PRICE_MATCH_ABS_TOLERANCE * k for k in range(2, k_max + 1)):
            return True
    return False


def fabrication_penalty(
    text: str,
    tf: ToolFacts,
    af: AnswerFacts,
    ic: float,
    transport_detail: dict[str, Any],
    group_size: int = 1,
    num_days: int = 1,
) -> tuple[float, dict[str, Any]]:
    """``(penalty ≤ 0, detail)``."""
    if len(text.strip()) < C.FABRICATION_MIN_LENGTH:
        return 0.0, {"skipped": "answer too short"}
    penalty = 0.0
    k_max = max(2, 2 * max(1, group_size), max(1, num_days) * max(1, group_size))
    fabricated_prices: list[str] = []
    seen: set[tuple[str, float]] = set()
    for key, value, _ in af.prices:
        if key is None or key in ("taxi", "transit") or key in tf.transports or key not in tf.pois:
            continue
        tool_values = tf.prices.get(key)
        if not tool_values or (key, value) in seen:
            continue
        seen.add((key, value))
        if not _price_ok(value, tool_values, k_max):
            fabricated_prices.append(f"{key}:{value:g}")
            penalty += C.PRICE_FABRICATION_PENALTY
    answer_conditions = {c for c, _ in af.conditions}
    unseen = sorted(answer_conditions - tf.conditions)
    if unseen:
        penalty += C.WEATHER_FABRICATION_PENALTY
    transport_add = 0.0
    claims = int(transport_detail.get("claims", 0) or 0)
    ratio = float(transport_detail.get("fabrication_ratio", 0.0) or 0.0)
    if transport_detail.get("applicable") and claims > 0 and ratio > C.TRANSPORT_FABRICATION_TRIGGER:
        transport_add = C.TRANSPORT_FABRICATION_SCALE * ratio
        penalty += transport_add
    amplified = False
    if ic / C.INFO_CONSISTENCY_MAX < C.INFO_CONSISTENCY_MIN_RATIO and penalty < C.LOW_IC_AMPLIFY_TRIGGER:
        penalty = min(penalty, C.LOW_IC_AMPLIFIED_PENALTY)
        amplified = True
    penalty = max(C.FABRICATION_PENALTY_MAX, penalty)
    detail = {
        "fabricated_prices": fabricated_prices[:10],
        "fabricated_weather": unseen[:10],
        "transport_penalty": round(transport_add, 4),
        "low_ic_amplified": amplified,
    }
    return round(penalty, 4), detail


def local_fab_multiplier(problem_type: str, tf: ToolFacts, af: AnswerFacts) -> tuple[float, int]:
    """IC multiplier for distance/duration claims made without ever calling ``direction``.

    Applies to non-transport types only; returns ``(multiplier, number of unsourced claims)``.
    """
    if problem_type in C.TRANSPORT_PROBLEM_TYPES or "direction" in tf.called:
        return 1.0, 0
    claims = len(af.distances) + len(af.durations)
    if claims == 0:
        return 1.0, 0
    if problem_type == "single_poi":
        steps, floor = C.LOCAL_FAB_SINGLE_POI_SCALES, C.LOCAL_FAB_SINGLE_POI_FLOOR
    else:
        steps, floor = C.LOCAL_FAB_SHOULD_CALL_SCALES, C.LOCAL_FAB_SHOULD_CALL_FLOOR
    for limit, mult in steps:
        if claims <= limit:
            return mult, claims
    return floor, claims

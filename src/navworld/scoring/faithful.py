"""Scorer s2: faithfulness — the share of the prose's checkable claims that contradict the tools.

The seed charges a fixed −3 per wrong POI price and −2 once for made-up weather, and reads no
opening hours, so an answer whose every price, time or temperature is made up (disguised or not)
keeps almost its whole score. Under s2 every checkable claim of the prose counts, by kind:

- ``prices``: a price tied to an entity with a tool price (±10 % or a multiple) and the fares of
  known flights/trains (max(2 %, 5 元) or a multiple — the seed's ±15 % hides a made-up fare);
- ``transport``: flight/train IDs and times (``transport_grounded``);
- ``opening``: opening-hour times;
- ``weather``: conditions and temperatures (with no forecast of the trip's cities every one is
  unsupported).

With ``f`` of a kind's ``n`` claims contradicting the tools::

    factor = Π over kinds (1 − f / (n + FAITH_PRIOR)) ** FAITH_EXPONENT

(the prior keeps one slip in a short answer cheap). A price equal to what the plan states for the
same entity is the plan's business (plan checks), not a contradiction here; derived amounts
(totals, multiples, differences that check out) are never claims.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from navworld.scoring import config as C
from navworld.scoring.fact_types import AnswerFacts, ToolFacts
from navworld.scoring.scan import find_times

__all__ = ["faithfulness"]


def _price_ok(value: float, tool_values: set[float], k_max: int, rel: float) -> bool:
    for tv in tool_values:
        if tv <= 0:
            if value <= C.PRICE_MATCH_ABS_TOLERANCE:
                return True
            continue
        if abs(value - tv) <= max(rel * tv, C.PRICE_MATCH_ABS_TOLERANCE):
            return True
        if any(abs(value - k * tv) <= C.PRICE_MATCH_ABS_TOLERANCE * k for k in range(2, k_max + 1)):
            return True
    return False


def _fare_ok(v: float, fares: list[float], rel: float, abs_tol: float, k_max: int) -> bool:
    return any(abs(v - p) <= max(rel * p, abs_tol) for p in fares) or any(
        abs(v - k * p) <= C.PRICE_MATCH_ABS_TOLERANCE * k for p in fares for k in range(2, k_max + 1)
    )


def _fares(tf: ToolFacts, tid: str) -> list[float]:
    return [p for run in tf.runs_of(tid) for p in run.prices if p > 0]


def _fare_claims(tf: ToolFacts, af: AnswerFacts, k_max: int, plan_at: int) -> tuple[int, int, int, list[str]]:
    """``(seed_ok, ok, bad, examples)``: ``seed_ok`` counts the fare claims (prose and plan) of known
    IDs that the seed's ±15 % accepts (``transport_grounded`` counted them verified); ``ok``/``bad``
    grade the prose's fares of known IDs by max(5 %, 2 元) or an exact multiple."""
    seed_ok = 0
    for claim in af.claims:
        entry = tf.transports.get(claim.id)
        if claim.kind != "price" or entry is None or entry.mode != claim.mode:
            continue
        try:
            v = float(claim.value)
        except ValueError:
            continue
        seed_ok += _fare_ok(v, _fares(tf, claim.id), C.TRANSPORT_PRICE_TOLERANCE, 0.0, k_max)
    ok = bad = 0
    examples: list[str] = []
    for key, v in sorted({(key, value) for key, value, pos in af.prices if key in tf.transports and pos != plan_at}):
        assert key is not None
        fares = _fares(tf, key)
        if not fares or not _fare_ok(v, fares, C.TRANSPORT_PRICE_TOLERANCE, 0.0, k_max):
            continue  # no fare, or outside ±15 %: transport_grounded counts it
        if _fare_ok(v, fares, C.FAITH_FARE_REL, C.FAITH_FARE_ABS, k_max):
            ok += 1
        else:
            bad += 1
            examples.append(f"{key}:{v:g}")
    return seed_ok, ok, bad, examples


def _hours(tf: ToolFacts, owner: str | None) -> frozenset[str]:
    """The opening-hour times the tools gave for ``owner`` (empty when unknown)."""
    entry = tf.pois.get(owner) if owner else None
    return _times_of(entry.opentime) if entry is not None and entry.opentime else frozenset()


@lru_cache(maxsize=4096)
def _times_of(opentime: str) -> frozenset[str]:
    return frozenset(t for t, _ in find_times(opentime))


def _factor(ok: int, bad: int) -> float:
    share = bad / (ok + bad + C.FAITH_PRIOR) if bad else 0.0
    return (1.0 - share) ** C.FAITH_EXPONENT


def faithfulness(
    tf: ToolFacts, af: AnswerFacts, transport_detail: dict[str, Any], k_max: int, plan_at: int = -1
) -> tuple[float, dict[str, Any]]:
    """``(factor, detail)`` of the prose's checkable claims (see the module docstring); ``plan_at``
    is the position the plan's own prices carry in ``af.prices`` (they are the plan checks')."""
    counts = {kind: [0, 0] for kind in C.FAITH_KINDS}
    examples: list[str] = []
    seen: set[tuple[str, float]] = set()
    for key, value, pos in af.prices:
        if pos == plan_at or key is None or key in ("taxi", "transit") or key in tf.transports or (key, value) in seen:
            continue
        seen.add((key, value))
        tool_values = tf.prices.get(key)
        if not tool_values or key not in tf.pois:
            continue
        if _price_ok(value, tool_values, k_max, C.PRICE_FABRICATION_TOLERANCE):
            counts["prices"][0] += 1
        elif round(value, 2) not in af.plan_prices.get(key, set()):
            counts["prices"][1] += 1
            examples.append(f"{key}:{value:g}")
    if transport_detail.get("applicable"):
        seed_ok, fares_ok, fares_bad, fare_examples = _fare_claims(tf, af, k_max, plan_at)
        counts["prices"][0] += fares_ok
        counts["prices"][1] += fares_bad
        examples += fare_examples
        # the fares move to "prices"; what stays is IDs and times (and fares of made-up IDs)
        counts["transport"][0] += max(0, int(transport_detail.get("verified", 0) or 0) - seed_ok)
        counts["transport"][1] += int(transport_detail.get("fabricated", 0) or 0)
        examples += list(transport_detail.get("unverified_examples", []))[:4]
    if tf.times:
        # an opening time is checked against the hours of the POI it is stated for (when the tools
        # gave that POI's hours), else against every time the tools gave
        claims = {(af.opening_owner.get(p), t) for t, p in af.opening_times}
        wrong = []
        for owner, t in sorted(claims, key=lambda c: (c[0] or "", c[1])):
            hours = _hours(tf, owner)
            if t in (hours or tf.times):
                counts["opening"][0] += 1
            else:
                counts["opening"][1] += 1
                wrong.append(t if owner is None else f"{owner}:{t}")
        examples += [f"time:{t}" for t in wrong[:4]]
    if tf.conditions or tf.temps or af.conditions or af.temps:
        # with no forecast of the destination (none fetched, or another city's) every weather
        # statement is unsupported
        conditions = {c for c, _ in af.conditions}
        temps = {t for t, _ in af.temps}
        wrong_w = sorted(conditions - tf.conditions) + [f"{t}℃" for t in sorted(temps - tf.temps)]
        counts["weather"][0] += len(conditions & tf.conditions) + len(temps & tf.temps)
        counts["weather"][1] += len(wrong_w)
        examples += [f"weather:{w}" for w in wrong_w[:4]]
    factor = 1.0
    for ok, bad in counts.values():
        factor *= _factor(ok, bad)
    detail = {
        "checked": sum(ok + bad for ok, bad in counts.values()),
        "contradicted": sum(bad for _, bad in counts.values()),
        "by_kind": {kind: {"checked": ok + bad, "contradicted": bad} for kind, (ok, bad) in counts.items()},
        "examples": examples[:10],
    }
    return round(factor, 4), detail

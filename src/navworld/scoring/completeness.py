"""Completeness (25 points, seed §3.4): per-type dimension tables with proximity-based grounding.

``grounded`` dimensions (anti-echo, no free tier)::

    keyword + context + tool fact within 500 chars → 100 %;  keyword + fact within 500 → 50 %
    keyword + fact farther away → 20 %;  keyword without a tool fact → 0
    no tool data of that kind at all → 10 % structural credit (keyword required)
    × min(1, grounded_count / target)

``verified`` dimensions (transport): keyword + ≥ 1 exact tool ID → pts × max(0.25, min(1, ids/target)).
``days``: day ratio × POI grounding (no POI → 0).
The result is multiplied by the echo multiplier (answers copied line-for-line from tool output).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.answer_facts import AnswerFacts
from navworld.scoring.consistency import price_matches
from navworld.scoring.echo import normalised_echo_share
from navworld.scoring.facts import ToolFacts
from navworld.scoring.parser import ParsedAnswer

__all__ = ["DIMENSIONS", "Dim", "Grounding", "completeness", "echo_multiplier", "echo_share", "request_targets"]

Target = Callable[[int], int]


@dataclass(frozen=True, slots=True)
class Dim:
    """One completeness dimension: method, points, keyword/context, fact sources and target."""

    name: str
    pts: float
    method: str
    kw: re.Pattern[str] | None = None
    ctx: re.Pattern[str] | None = None
    sources: tuple[str, ...] = ()
    target: Target = lambda d: 1
    fallback: tuple[str, ...] = ()


def _t(n: int) -> Target:
    return lambda d: n


DIMENSIONS: dict[str, tuple[Dim, ...]] = {
    "intercity": (
        Dim("flights", 5, "verified", P.KW_FLIGHT, sources=("flights",), target=_t(2)),
        Dim("trains", 5, "verified", P.KW_TRAIN, sources=("trains",), target=_t(2)),
        Dim("times", 5, "grounded", P.KW_TIMES, P.CTX_TIMES, ("times",), _t(3)),
        Dim("prices", 5, "grounded", P.KW_PRICE, P.CTX_PRICE, ("prices",), _t(3)),
        Dim("recommendations", 5, "grounded", P.KW_RECOMMEND, P.CTX_REASON, ("pois",), _t(2)),
    ),
    "multiday": (
        Dim("day_structure", 5, "days"),
        Dim(
            "attractions",
            5,
            "grounded",
            P.KW_ATTRACTION,
            P.CTX_ATTRACTION,
            ("pois:attraction",),
            lambda d: 2 * d,
        ),
        Dim("dining", 4, "grounded", P.KW_DINING, P.CTX_DINING, ("pois:restaurant",), lambda d: d),
        Dim(
            "accommodation",
            4,
            "grounded",
            P.KW_LODGING,
            P.CTX_LODGING,
            ("pois:hotel",),
            lambda d: max(1, d - 1),
        ),
        Dim(
            "transportation",
            4,
            "grounded",
            P.KW_TRANSPORT_LOCAL,
            P.CTX_TRANSPORT_LOCAL,
            ("distances", "durations"),
            _t(2),
        ),
        Dim("budget", 3, "grounded", P.KW_BUDGET, P.CTX_BUDGET, ("prices",), _t(2)),
    ),
    "hybrid": (
        Dim(
            "transport_plan", 6, "verified", P.KW_TRANSPORT_PLAN, sources=("flights", "trains"), target=_t(2)
        ),
        Dim("day_structure", 5, "days"),
        Dim(
            "attractions",
            4,
            "grounded",
            P.KW_ATTRACTION,
            P.CTX_ATTRACTION,
            ("pois:attraction",),
            lambda d: max(3, 2 * d),
        ),
        Dim("dining", 4, "grounded", P.KW_DINING, P.CTX_DINING, ("pois:restaurant",), lambda d: max(2, d)),
        Dim("budget", 3, "grounded", P.KW_BUDGET, P.CTX_BUDGET, ("prices",), _t(2)),
        Dim("weather", 3, "grounded", P.KW_WEATHER, P.CTX_WEATHER, ("weather",), _t(1)),
    ),
    "single_poi": (
        Dim("tour_arrangement", 6, "grounded", P.KW_TOUR, P.CTX_TOUR, ("pois",), _t(2)),
        Dim("nearby", 5, "grounded", P.KW_NEARBY, P.CTX_NEARBY, ("pois",), _t(3)),
        Dim(
            "transport_distance",
            5,
            "grounded",
            P.KW_LOCAL_DISTANCE,
            P.CTX_TRANSPORT_LOCAL,
            ("distances", "durations"),
            _t(2),
        ),
        Dim(
            "tickets_tips",
            5,
            "grounded",
            P.KW_TICKETS,
            P.CTX_TICKETS,
            ("prices", "times"),
            _t(2),
            ("pois", "distances"),
        ),
        Dim("budget", 4, "grounded", P.KW_BUDGET, P.CTX_BUDGET, ("prices",), _t(1)),
    ),
    "food_tour": (
        Dim("restaurants", 6, "grounded", P.KW_RESTAURANT, P.CTX_RESTAURANT, ("pois:restaurant",), _t(5)),
        Dim("dishes", 5, "grounded", P.KW_DISHES, P.CTX_DISHES, ("pois:restaurant",), _t(3)),
        Dim("route_order", 5, "grounded", P.KW_ROUTE, P.CTX_ROUTE, ("distances", "durations"), _t(2)),
        Dim("cost", 5, "grounded", P.KW_COST, P.CTX_BUDGET, ("prices",), _t(2), ("pois", "distances")),
        Dim("tips", 4, "grounded", P.KW_TIPS, P.CTX_TIPS, ("pois", "weather"), _t(1)),
    ),
    "business": (
        Dim(
            "transport_plan", 6, "verified", P.KW_TRANSPORT_PLAN, sources=("flights", "trains"), target=_t(2)
        ),
        Dim("hotels", 5, "grounded", P.KW_HOTEL, P.CTX_LODGING, ("pois:hotel",), _t(2)),
        Dim("dining", 4, "grounded", P.KW_DINING, P.CTX_DINING, ("pois:restaurant",), _t(2)),
        Dim("cost", 5, "grounded", P.KW_COST, P.CTX_BUDGET, ("prices",), _t(2)),
        Dim("business_facilities", 5, "grounded", P.KW_BUSINESS, P.CTX_BUSINESS, ("pois",), _t(2)),
    ),
    "family_study": (
        Dim("day_structure", 5, "days"),
        Dim("family_content", 5, "grounded", P.KW_FAMILY, P.CTX_FAMILY, ("pois",), _t(2)),
        Dim("education", 5, "grounded", P.KW_EDUCATION, P.CTX_EDUCATION, ("pois",), _t(2)),
        Dim(
            "dining_lodging",
            5,
            "grounded",
            P.KW_DINING_LODGING,
            P.CTX_DINING,
            ("pois",),
            lambda d: max(1, d - 1),
        ),
        Dim("budget", 5, "grounded", P.KW_BUDGET, P.CTX_BUDGET, ("prices",), _t(2), ("pois", "distances")),
    ),
}


class Grounding:
    """Positions in the answer of tool-grounded facts, per source name (``pois:hotel``, ``prices`` …).

    ``pa`` (scorer s2): the JSON plan's fields are facts too (:meth:`plan_facts`)."""

    def __init__(self, tf: ToolFacts, af: AnswerFacts, pa: ParsedAnswer | None = None) -> None:
        self.tf, self.af, self.pa = tf, af, pa
        self._cache: dict[str, dict[object, list[int]]] = {}
        self._best_map: dict[str, str] | None = None

    def _best(self) -> dict[str, str]:
        """Name variant → the tool POI it names (built once)."""
        if self._best_map is None:
            self._best_map = {}
            for e in self.tf.pois.values():
                for v in e.variants:
                    self._best_map.setdefault(v, e.name)
        return self._best_map

    def plan_facts(self, source: str) -> set[object]:
        """Tool-grounded facts the plan states for ``source`` (same keys as :meth:`facts`)."""
        pa, tf = self.pa, self.tf
        if pa is None or not pa.activities:
            return set()
        base, _, kind = source.partition(":")
        out: set[object] = set()
        for a in pa.activities:
            name = a.position if a.position in tf.pois else self._best().get(a.position or "")
            if base == "pois" and name is not None and kind in ("", tf.pois[name].kind):
                out.add(name)
            elif base in ("flights", "trains") and a.transport_id:
                ids = tf.flights if base == "flights" else tf.trains
                if a.transport_id in ids:
                    out.add(a.transport_id)
            elif base == "times" and a.transport_id:
                out.update(t for t in (a.start_time, a.end_time) if t in tf.times)
            elif base == "prices" and a.price is not None:
                key = a.transport_id or a.position
                if price_matches(tf, key, a.price):
                    out.add((key, a.price))
            elif base in ("distances", "durations"):
                for leg in a.legs:
                    if base == "distances" and leg.distance:
                        d = leg.distance * 1000.0
                        for t in tf.distances:
                            if abs(t - d) <= C.DISTANCE_MATCH_TOLERANCE * t:
                                out.add(t)
                                break
        return out

    def tool_has(self, source: str) -> bool:
        """Whether the tools returned any fact for ``source``."""
        tf = self.tf
        base, _, kind = source.partition(":")
        if base == "pois":
            return any(kind in ("", p.kind) for p in tf.pois.values())
        return bool(
            {
                "flights": tf.flights,
                "trains": tf.trains,
                "times": tf.times,
                "prices": tf.prices,
                "distances": tf.distances,
                "durations": tf.durations,
                "weather": tf.weather | tf.wind,
            }.get(base)
        )

    def facts(self, source: str) -> dict[object, list[int]]:
        """``fact → positions`` of grounded answer facts for one source."""
        if source in self._cache:
            return self._cache[source]
        tf, af = self.tf, self.af
        out: dict[object, list[int]] = {}
        base, _, kind = source.partition(":")
        if base == "pois":
            for name, pos in af.pois.items():
                if kind in ("", tf.pois[name].kind):
                    out[name] = pos
        elif base in ("flights", "trains"):
            ids = tf.flights if base == "flights" else tf.trains
            for i, p in af.flights if base == "flights" else af.trains:
                if i in ids:
                    out.setdefault(i, []).append(p)
        elif base == "times":
            for t, p in af.times:
                if t in tf.times:
                    out.setdefault(t, []).append(p)
        elif base == "prices":
            for k, v, p in af.prices:
                if price_matches(tf, k, v):
                    out.setdefault((k, v), []).append(p)
        elif base == "distances":
            tool = sorted(tf.distances)
            for d, p in af.distances:
                # |t − d| ≤ tol·t  ⇔  d/(1+tol) ≤ t ≤ d/(1−tol)
                i = bisect.bisect_left(tool, d / (1 + C.DISTANCE_MATCH_TOLERANCE))
                if i < len(tool) and tool[i] <= d / (1 - C.DISTANCE_MATCH_TOLERANCE):
                    out.setdefault(tool[i], []).append(p)
        elif base == "durations":
            tool = sorted(tf.durations)
            for d, p in af.durations:
                i = bisect.bisect_left(tool, d - C.DURATION_MATCH_TOLERANCE_MIN)
                if i < len(tool) and tool[i] <= d + C.DURATION_MATCH_TOLERANCE_MIN:
                    out.setdefault(d, []).append(p)
        elif base == "weather":
            tw = tf.weather | tf.wind
            for w, p in [(c, p) for c, p in af.conditions] + [(f"{t}℃", p) for t, p in af.temps] + af.wind:
                if w in tw:
                    out.setdefault(w, []).append(p)
        self._cache[source] = out
        return out


def _grounded(text: str, dim: Dim, g: Grounding, days: int) -> float:
    assert dim.kw is not None
    kws = [m.start() for m in dim.kw.finditer(text)]
    sources = dim.sources
    if dim.fallback and not any(g.tool_has(s) for s in sources):
        sources = dim.fallback
    target = max(0, dim.target(days))
    planned = {(s, k) for s in sources for k in g.plan_facts(s)}
    if not kws and not planned:
        return 0.0
    if not any(g.tool_has(s) for s in sources):
        return dim.pts * C.STRUCTURAL_CREDIT_RATIO
    facts: dict[object, list[int]] = {}
    for s in sources:
        for k, v in g.facts(s).items():
            facts.setdefault((s, k), []).extend(v)
    from_plan = 0.0
    if planned:
        # s2: the plan's grounded facts count as stated: full tier when the prose addresses the
        # topic (its keyword with its context anywhere), half otherwise
        topical = bool(kws) and (dim.ctx is None or dim.ctx.search(text) is not None)
        tier = C.TIER_FULL if topical else C.TIER_PROXIMATE
        count = len(planned | set(facts))
        from_plan = dim.pts * tier * (min(1.0, count / target) if target > 0 else 1.0)
    if not facts or not kws:
        return from_plan
    w = C.TIER2_PROXIMITY_DISTANCE
    proximate = 0
    full = False
    for positions in facts.values():
        near = False
        for p in positions:
            lo, hi = bisect.bisect_left(kws, p - w), bisect.bisect_right(kws, p + w)
            if lo < hi:
                near = True
                if not full and dim.ctx is not None:
                    # keywords kws[lo:hi] lie within 2w of each other: their windows form one interval
                    full = dim.ctx.search(text, max(0, kws[lo] - w), kws[hi - 1] + w + 1) is not None
        proximate += near
    if proximate:
        tier = C.TIER_FULL if full else C.TIER_PROXIMATE
        count = proximate
    else:
        tier, count = C.TIER_DISTANT, len(facts)
    scale = min(1.0, count / target) if target > 0 else 1.0
    return max(from_plan, dim.pts * tier * scale)


def _verified(text: str, dim: Dim, g: Grounding, days: int) -> float:
    assert dim.kw is not None
    if not dim.kw.search(text):
        return 0.0
    if not any(g.tool_has(s) for s in dim.sources):
        return dim.pts * C.STRUCTURAL_CREDIT_RATIO
    matched = sum(len(set(g.facts(s)) | g.plan_facts(s)) for s in dim.sources)
    if matched == 0:
        return 0.0
    target = max(1, dim.target(days))
    return dim.pts * max(C.VERIFIED_MIN_SCALE, min(1.0, matched / target))


def _days(pa: ParsedAnswer, af: AnswerFacts, dim: Dim, days: int) -> float:
    found = pa.days_found
    if found == 0 and days <= 1 and len(af.times) >= 2:
        found = 1
    if found == 0 or not af.pois:
        return 0.0
    ratio = min(1.0, found / max(1, days))
    target = min(C.DAY_GROUNDING_MAX_TARGET, max(C.DAY_GROUNDING_MIN_TARGET, days))
    return dim.pts * ratio * min(1.0, len(af.pois) / target)


def echo_share(text: str, tf: ToolFacts) -> float:
    """Share of the answer's line characters on lines copied verbatim from a tool result."""
    total = copied = 0
    for raw in P.LINE_SPLIT.split(text):
        line = raw.strip()
        if len(line) < C.ECHO_MIN_LINE_CHARS:
            continue
        total += len(line)
        if line in tf.lines:
            copied += len(line)
    return copied / total if total else 0.0


def echo_multiplier(share: float) -> float:
    """1.0 up to ECHO_SHARE_START, falling linearly to ECHO_MIN_MULTIPLIER at ECHO_SHARE_FULL."""
    if share <= C.ECHO_SHARE_START:
        return 1.0
    frac = min(1.0, (share - C.ECHO_SHARE_START) / (C.ECHO_SHARE_FULL - C.ECHO_SHARE_START))
    return 1.0 - (1.0 - C.ECHO_MIN_MULTIPLIER) * frac


def _dims_for(problem_type: str, required: tuple[str, ...], tf: ToolFacts) -> tuple[Dim, ...]:
    dims = DIMENSIONS.get(problem_type, DIMENSIONS["multiday"])
    if problem_type != "intercity":
        return dims
    # A distance class without flights (or trains) must not cost the flight (train) dimension:
    # both transport dimensions are then graded on the mode the problem offers.
    out = []
    for d in dims:
        tool = {"flights": "search_flights", "trains": "search_train_tickets"}.get(d.name)
        if tool and tool not in required and not g_has(tf, d.name):
            other = "trains" if d.name == "flights" else "flights"
            d = Dim(d.name, d.pts, d.method, P.KW_TRANSPORT_PLAN, sources=(other,), target=d.target)
        out.append(d)
    return tuple(out)


def g_has(tf: ToolFacts, mode: str) -> bool:
    """Whether the tools returned IDs of ``mode`` (``flights``/``trains``)."""
    return bool(tf.flights if mode == "flights" else tf.trains)


def request_targets(problem: Any) -> dict[str, Target]:
    """Scorer s2: completeness targets that follow the request instead of contradicting it.

    A relaxed pace (``轻松休闲``) halves the attractions a day; a program capping attractions per
    day caps the target; a food tour needs the restaurants its prompt asks for (2 a day), not a
    fixed 5."""
    out: dict[str, Target] = {}
    ptype = problem.problem_type
    relaxed = any(c in C.RELAXED_PACE_CONSTRAINTS for c in (problem.constraints or []))
    cap = None
    for source in problem.hard_logic or []:
        if "dayactivities" in source and (m := P.MAX_PER_DAY_PROGRAM.search(source)):
            cap = int(m.group(1)) if cap is None else min(cap, int(m.group(1)))
    per_day = 1 if relaxed else 2
    if cap is not None:
        per_day = max(1, min(per_day, cap))
    if ptype == "multiday":
        out["attractions"] = lambda d, k=per_day: k * d
    elif ptype == "hybrid":
        out["attractions"] = lambda d, k=per_day: max(k + 1, k * d)
    elif ptype == "food_tour":
        out["restaurants"] = lambda d: min(5, max(2, 2 * d))
    return out


def completeness(
    problem_type: str,
    num_days: int,
    required: tuple[str, ...],
    pa: ParsedAnswer,
    tf: ToolFacts,
    af: AnswerFacts,
    targets: dict[str, Target] | None = None,
    normalised_echo: bool = False,
) -> tuple[float, dict[str, float], float]:
    """``(completeness out of 25, per-dimension points, echo multiplier)``.

    ``targets`` replaces dimension targets (s2: :func:`request_targets`); ``normalised_echo``
    measures echo on normalised content (s2: :func:`navworld.scoring.echo.normalised_echo_share`)."""
    text = pa.text
    days = max(1, num_days)
    g = Grounding(tf, af, pa if pa.blanked else None)
    subs: dict[str, float] = {}
    for dim in _dims_for(problem_type, required, tf):
        if targets and dim.name in targets:
            dim = replace(dim, target=targets[dim.name])
        if dim.method == "days":
            pts = _days(pa, af, dim, days)
        elif dim.method == "verified":
            pts = _verified(text, dim, g, days)
        else:
            pts = _grounded(text, dim, g, days)
        subs[dim.name] = round(pts, 4)
    share = normalised_echo_share(pa, tf) if normalised_echo else echo_share(text, tf)
    mult = echo_multiplier(share) if text else 1.0
    total = min(C.COMPLETENESS_MAX, sum(subs.values())) * mult
    return round(total, 4), subs, round(mult, 4)

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
from dataclasses import replace

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.answer_facts import AnswerFacts
from navworld.scoring.completeness_dims import DIMENSIONS, Dim, Target, request_targets
from navworld.scoring.consistency import price_matches
from navworld.scoring.echo import normalised_echo_share
from navworld.scoring.facts import ToolFacts
from navworld.scoring.parser import ParsedAnswer

__all__ = ["DIMENSIONS", "Dim", "Grounding", "completeness", "echo_multiplier", "echo_share", "request_targets"]



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
        # ... or the prose names what the plan books (a day table's 安排 column lists the sights
        # without the word 景点): the plan and the prose say the same thing
        topical = topical or len({k for _, k in planned} & {k for _, k in facts}) >= min(max(1, target), len(planned))
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


def completeness(
    problem_type: str,
    num_days: int,
    required: tuple[str, ...],
    pa: ParsedAnswer,
    tf: ToolFacts,
    af: AnswerFacts,
    targets: dict[str, Target] | None = None,
    normalised_echo: bool = False,
    sources: dict[str, tuple[str, ...]] | None = None,
) -> tuple[float, dict[str, float], float]:
    """``(completeness out of 25, per-dimension points, echo multiplier, echo share)``.

    ``targets`` replaces dimension targets (s2: :func:`request_targets`); ``normalised_echo``
    measures echo on normalised content (s2: :func:`navworld.scoring.echo.normalised_echo_share`);
    ``sources`` replaces dimension fact sources (s2: ``config.S2_COMPLETENESS_SOURCES``); given at
    all (s2), the weather dimension's topic is also a forecast written as one (``patterns.KW_WEATHER_S2``)."""
    text = pa.text
    days = max(1, num_days)
    g = Grounding(tf, af, pa if pa.blanked else None)
    subs: dict[str, float] = {}
    for dim in _dims_for(problem_type, required, tf):
        if targets and dim.name in targets:
            dim = replace(dim, target=targets[dim.name])
        if sources and dim.name in sources:
            dim = replace(dim, sources=sources[dim.name])
        if sources is not None and dim.name == "weather":
            dim = replace(dim, kw=P.KW_WEATHER_S2)
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
    return round(total, 4), subs, round(mult, 4), round(share, 4)

"""Answer-side facts: the same 10 categories, with positions, read from the answer text and plan.

Every occurrence keeps its character offset so completeness can measure proximity to keywords.
Prices keep the entity they are attached to (a flight/train number, a tool POI name, ``taxi``
or ``transit``): a price is compared only with the tool price of the same entity, never by value
alone. POIs are extracted (tool POIs found by fuzzy match, plus other place names by suffix).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.facts import PoiEntry, ToolFacts, norm_power, road_names
from navworld.scoring.parser import ParsedAnswer
from navworld.scoring.scan import (
    cjk_times,
    find_flight_ids,
    find_prices,
    find_times,
    find_train_ids,
    scan_numbers,
)

__all__ = ["AnswerFacts", "TransportClaim", "extract_answer_facts"]


@dataclass(frozen=True, slots=True)
class TransportClaim:
    """A claim about a flight/train: its ID alone, or the ID with a price or a time."""

    id: str
    mode: str
    kind: str
    value: str = ""


@dataclass(slots=True)
class AnswerFacts:
    """Facts found in an answer, each with its position(s)."""

    flights: list[tuple[str, int]] = field(default_factory=list)
    trains: list[tuple[str, int]] = field(default_factory=list)
    highway_codes: list[str] = field(default_factory=list)
    pois: dict[str, list[int]] = field(default_factory=dict)
    ungrounded_places: list[str] = field(default_factory=list)
    times: list[tuple[str, int]] = field(default_factory=list)
    fact_times: list[tuple[str, int]] = field(default_factory=list)
    prices: list[tuple[str | None, float, int]] = field(default_factory=list)
    distances: list[tuple[float, int]] = field(default_factory=list)
    durations: list[tuple[int, int]] = field(default_factory=list)
    conditions: list[tuple[str, int]] = field(default_factory=list)
    temps: list[tuple[int, int]] = field(default_factory=list)
    wind: list[tuple[str, int]] = field(default_factory=list)
    roads: list[tuple[str, int]] = field(default_factory=list)
    matched_roads: dict[str, int] = field(default_factory=dict)
    claims: set[TransportClaim] = field(default_factory=set)

    @property
    def flight_ids(self) -> set[str]:
        """Distinct flight numbers in the answer."""
        return {f for f, _ in self.flights}

    @property
    def train_ids(self) -> set[str]:
        """Distinct train numbers in the answer (highway codes excluded)."""
        return {t for t, _ in self.trains}

    @property
    def weather(self) -> set[str]:
        """Weather strings (conditions and ``N℃``) found in weather-context lines."""
        return {c for c, _ in self.conditions} | {f"{t}℃" for t, _ in self.temps}


def _ids(text: str, tf: ToolFacts, af: AnswerFacts) -> None:
    tool_trains = tf.trains
    af.flights.extend(find_flight_ids(text))
    for tid, start in find_train_ids(text):
        end = start + len(tid)
        if tid not in tool_trains:
            after, before = text[end : end + 12], text[max(0, start - 6) : start]
            if P.HIGHWAY_AFTER.match(after) or P.HIGHWAY_BEFORE.search(before):
                af.highway_codes.append(tid)
                continue
            if len(tid) <= 3 and (
                P.SHORT_CODE_AFTER.match(after) or not P.TRAIN_CONTEXT_BEFORE.search(before)
            ):
                continue
        af.trains.append((tid, start))


@lru_cache(maxsize=256)
def _alternation(words: tuple[str, ...]) -> re.Pattern[str] | None:
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))) if words else None


@dataclass(frozen=True, slots=True)
class _PoiIndex:
    """Per tool-POI set: every search string with its owner, rank and the longer names it starts."""

    items: tuple[tuple[str, str, int, bool, tuple[str, ...]], ...]
    """``(variant, poi name, rank, is half, longer-name prefixes)``; rank 0 = the exact name."""
    best: dict[str, str]
    """variant → the POI it best names (exact name, then a whole variant, then the longest name)."""


@lru_cache(maxsize=256)
def _poi_index(entries: tuple[PoiEntry, ...]) -> _PoiIndex:
    wholes = {v for e in entries for v in e.variants if v not in e.halves}
    items = []
    best: dict[str, tuple[tuple[int, int], str]] = {}
    for e in entries:
        halves = set(e.halves)
        for i, v in enumerate(e.variants):
            is_half = v in halves
            rank = 0 if v == e.name else (2 if is_half else 1)
            # a mention that runs on into a longer tool name (黑虎泉西路… ⊃ 黑虎泉) is not this POI
            longer = tuple(sorted({w[: len(v) + 2] for w in wholes if len(w) >= len(v) + 2 and w.startswith(v)}))
            items.append((v, e.name, rank * 100 + i, is_half, longer))
            key = (rank, -len(e.name))
            if v not in best or key < best[v][0]:
                best[v] = (key, e.name)
    return _PoiIndex(tuple(items), {v: n for v, (_, n) in best.items()})


def _blocked_spans(text: str, tf: ToolFacts) -> bytearray | None:
    """Characters inside a carrier name or a tool transport entity name (no half matches there)."""
    mask: bytearray | None = None
    spans = [(m.start(), m.end()) for m in P.CARRIER_NAME.finditer(text)]
    for name in tf.entity_names:
        i = text.find(name)
        n = 0
        while i >= 0 and n < 8:
            spans.append((i, i + len(name)))
            n += 1
            i = text.find(name, i + len(name))
    for a, b in spans:
        if mask is None:
            mask = bytearray(len(text))
        mask[a:b] = b"\x01" * (b - a)
    return mask


def _pois(text: str, tf: ToolFacts, pa: ParsedAnswer, af: AnswerFacts) -> None:
    """Tool POIs mentioned in the answer, longest match first: a mention inside a longer POI
    mention does not count (``西湖`` inside ``汉庭酒店(杭州西湖湖滨店)`` is not a mention of
    西湖风景名胜区), at one span the exact name beats a whole variant beats a half, a mention
    running on into a longer tool name (``黑虎泉西路…`` vs 黑虎泉) is nobody's, and a half never
    matches inside a carrier or transport entity name (``中国国`` ⊂ 中国国际航空)."""
    index = _poi_index(tuple(tf.pois.values()))
    blocked = _blocked_spans(text, tf) if any(it[3] for it in index.items) else None
    occ: list[tuple[int, int, int, str]] = []
    for variant, name, rank, is_half, longer in index.items:
        i = text.find(variant)
        n = 0
        while i >= 0 and n < 8:
            end = i + len(variant)
            n += 1
            if not (is_half and blocked is not None and any(blocked[i:end])) and not (
                longer and any(text.startswith(w, i) for w in longer)
            ):
                occ.append((i, end, rank, name))
            i = text.find(variant, end)
    mask = bytearray(len(text))
    occ.sort(key=lambda o: (o[0] - o[1], o[2], o[0]))
    for start, end, _, name in occ:
        if any(mask[start:end]):
            continue
        mask[start:end] = b"\x01" * (end - start)
        af.pois.setdefault(name, []).append(start)
    for positions in af.pois.values():
        positions.sort()
    seen: set[str] = set()
    admin = tf.admin_names
    variants = tuple(sorted({v for e in tf.pois.values() for v in e.variants[:3]}))
    joined = "\x00".join(variants)
    variant_re = _alternation(variants)
    candidates = list(pa.places) + [(a.position, -1) for a in pa.activities if a.position]
    for name, pos in candidates:
        if name in seen or name in admin or P.ADMIN_SUFFIX.search(name):
            continue
        seen.add(name)
        if 0 <= pos < len(mask) and any(mask[pos : pos + len(name)]):
            continue
        if name in joined or (variant_re is not None and variant_re.search(name)):
            continue
        af.ungrounded_places.append(name)


def _times(text: str, pa: ParsedAnswer, af: AnswerFacts) -> None:
    af.times = sorted(af.times + cjk_times(text), key=lambda x: x[1])
    ctx = [m.start() for m in P.TIME_FACT_CONTEXT.finditer(text)]
    for t, p in af.times:
        i = bisect.bisect_left(ctx, p - 30)
        if i < len(ctx) and ctx[i] <= p + 30:
            af.fact_times.append((t, p))
    base = pa.json_span[0] if pa.json_span else 0
    for a in pa.activities:
        if a.transport_id:
            af.fact_times.extend((t, base) for t in (a.start_time, a.end_time) if t)


def _entity_key(text: str, p: int, entities: list[tuple[int, int, str, bool]], ends: list[int]) -> str | None:
    line_start = text.rfind("\n", 0, p) + 1
    lo = max(line_start, p - 40)
    k = bisect.bisect_right(ends, p) - 1
    ent = None
    while k >= 0 and entities[k][1] > lo - 60:
        if entities[k][0] >= lo:
            ent = entities[k]
            break
        k -= 1
    if ent is not None and P.TOTAL_WORDS.search(text, ent[1], p):
        return None
    if ent is not None and ent[3]:
        return ent[2]
    if ent is not None and P.CLAUSE_END.search(text, ent[1], p):
        ent = None  # a POI's price is stated in the same clause
    if ent is not None:
        if P.TAXI_WORDS.search(text, ent[1], p):
            return "taxi"
        if P.TRANSIT_WORDS.search(text, ent[1], p):
            return "transit"
        if P.POI_PRICE_WORDS.search(text, ent[1], p):
            return ent[2]
    window = text[lo:p]
    if P.TAXI_WORDS.search(window):
        return "taxi"
    if P.TRANSIT_WORDS.search(window):
        return "transit"
    return ent[2] if ent is not None else None


def _mention_len(text: str, pos: int, variants: tuple[str, ...]) -> int:
    return max((len(v) for v in variants if text.startswith(v, pos)), default=2)


def _prices(
    text: str, tf: ToolFacts, pa: ParsedAnswer, af: AnswerFacts, prices: list[tuple[float, int]]
) -> None:
    entities = [(p, p + len(i), i, True) for i, p in af.flights + af.trains]
    for name, positions in af.pois.items():
        entities.extend(
            (p, p + _mention_len(text, p, tf.pois[name].variants), name, False) for p in positions
        )
    entities.sort(key=lambda e: e[1])
    ends = [e[1] for e in entities]
    for value, pos in prices:
        if 0 < value <= 1_000_000:
            af.prices.append((_entity_key(text, pos, entities, ends), value, pos))
    base = pa.json_span[0] if pa.json_span else 0
    for a in pa.activities:
        if a.price is None:
            continue
        exact = a.position if a.position in tf.pois else None  # an exact name beats another POI's variant
        key = a.transport_id or exact or (
            _poi_index(tuple(tf.pois.values())).best.get(a.position) if a.position else None
        )
        af.prices.append((key or (a.position or None), a.price, base))


def _weather(text: str, af: AnswerFacts) -> None:
    """Weather facts from lines with a weather word, and the lines right before/after them."""
    hits = [m.start() for m in P.WEATHER_CONTEXT.finditer(text)]
    if not hits:
        return
    starts = [0] + [m.end() for m in P.LINE_SPLIT.finditer(text)]
    ctx = {bisect.bisect_right(starts, h) - 1 for h in hits}
    wanted = sorted({i + d for i in ctx for d in (-1, 0, 1) if 0 <= i + d < len(starts)})
    for i in wanted:
        o = starts[i]
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        line = text[o:end]
        af.conditions.extend((m.group(0), o + m.start()) for m in P.WEATHER_COND.finditer(line))
        if "℃" in line or "°" in line or "度" in line:
            spans = []
            for m in P.TEMP_RANGE.finditer(line):
                spans.append((m.start(), m.end()))
                af.temps.extend(((int(m.group(1)), o + m.start()), (int(m.group(2)), o + m.start())))
            for m in P.TEMP.finditer(line):
                if not any(s <= m.start() < e for s, e in spans):
                    af.temps.append((int(m.group(1)), o + m.start()))
        if "风" in line:
            af.wind.extend((m.group(1), o + m.start()) for m in P.WIND_DIR.finditer(line))
        if "级" in line:
            for m in P.WIND_POWER.finditer(line):
                af.wind.append((norm_power(m.group(2), m.group(3), m.group(1)), o + m.start()))


def _claims(text: str, pa: ParsedAnswer, af: AnswerFacts) -> None:
    occ = sorted([(p, i, "flight") for i, p in af.flights] + [(p, i, "train") for i, p in af.trains])
    for k, (p, tid, mode) in enumerate(occ):
        af.claims.add(TransportClaim(tid, mode, "id"))
        end = p + len(tid)
        limit = min(end + C.TRANSPORT_CLAIM_WINDOW, occ[k + 1][0] if k + 1 < len(occ) else len(text))
        stop = P.CLAIM_STOP.search(text, end, limit)
        seg_end = stop.start() if stop else limit
        # A claim belongs to the ID only when nothing else (a taxi/metro fare, another leg) sits between.
        other = P.TAXI_WORDS.search(text, end, seg_end) or P.TRANSIT_WORDS.search(text, end, seg_end)
        if other:
            seg_end = other.start()
        prices = find_prices(text, end, seg_end)
        if prices:
            af.claims.add(TransportClaim(tid, mode, "price", f"{prices[0][0]:g}"))
        for t, _ in find_times(text, end, seg_end)[:2]:
            af.claims.add(TransportClaim(tid, mode, "time", t))
    known = af.flight_ids | af.train_ids
    for a in pa.activities:
        tid = a.transport_id
        if not tid:
            continue
        mode = (
            "flight" if P.ID_FULL_FLIGHT.fullmatch(tid) else "train" if P.ID_FULL_TRAIN.fullmatch(tid) else ""
        )
        if not mode:
            continue
        if tid not in known:
            af.claims.add(TransportClaim(tid, mode, "id"))
        if a.price is not None:
            af.claims.add(TransportClaim(tid, mode, "price", f"{a.price:g}"))
        for t in (a.start_time, a.end_time):
            if t:
                af.claims.add(TransportClaim(tid, mode, "time", t))


def extract_answer_facts(pa: ParsedAnswer, tf: ToolFacts) -> AnswerFacts:
    """All answer-side facts of a parsed answer, given the tool facts (for POI and ID matching)."""
    text = pa.text
    af = AnswerFacts()
    if not text:
        return af
    _ids(text, tf, af)
    _pois(text, tf, pa, af)
    af.times, prices, af.distances, af.durations = scan_numbers(text, C.MIN_DISTANCE_METRES)
    _times(text, pa, af)
    _prices(text, tf, pa, af, prices)
    _weather(text, af)
    af.roads = road_names(text)
    for road in tf.roads:
        i = text.find(road)
        if i >= 0:
            af.matched_roads[road] = i
    _claims(text, pa, af)
    return af

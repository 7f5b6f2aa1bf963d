"""Answer-side facts: the same 10 categories, with positions, read from the answer text and plan.

Every occurrence keeps its character offset so completeness can measure proximity to keywords.
Prices keep the entity they are attached to (a flight/train number, a tool POI name, ``taxi``
or ``transit``): a price is compared only with the tool price of the same entity, never by value
alone. POIs are extracted (tool POIs found by fuzzy match, plus other place names by suffix).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.facts import (
    ToolFacts,
    norm_power,
    norm_time,
    parse_duration,
    parse_metres,
    road_names,
)
from navworld.scoring.parser import ParsedAnswer, cn_number

__all__ = ["AnswerFacts", "TransportClaim", "cjk_times", "extract_answer_facts"]

_PM = frozenset({"下午", "傍晚", "晚上", "夜里", "夜间", "午后"})


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


def cjk_times(text: str) -> list[tuple[str, int]]:
    """Times written the Chinese way (``下午3点``, ``15点30分``, ``上午九点半``) as ``HH:MM``."""
    out = []
    for m in P.CJK_TIME.finditer(text):
        prefix, raw, minute, half = m.groups()
        if not raw.isdigit() and not prefix:
            continue
        hour = cn_number(raw)
        if hour is None:
            continue
        if prefix in _PM and hour < 12:
            hour += 12
        elif prefix == "中午" and hour < 11:
            hour += 12
        t = norm_time(hour, int(minute) if minute else (30 if half else 0))
        if t:
            out.append((t, m.start()))
    return out


def _ids(text: str, tf: ToolFacts, af: AnswerFacts) -> None:
    tool_trains = tf.trains
    for m in P.FLIGHT_ID.finditer(text):
        af.flights.append((m.group(1), m.start()))
    for m in P.TRAIN_ID.finditer(text):
        tid, start, end = m.group(1), m.start(), m.end()
        if tid not in tool_trains:
            after, before = text[end : end + 12], text[max(0, start - 6) : start]
            if P.HIGHWAY_AFTER.match(after) or P.HIGHWAY_BEFORE.search(before):
                af.highway_codes.append(tid)
                continue
            if len(tid) <= 3 and (P.SHORT_CODE_AFTER.match(after) or not P.TRAIN_CONTEXT_BEFORE.search(before)):
                continue
        af.trains.append((tid, start))


def _pois(text: str, tf: ToolFacts, pa: ParsedAnswer, af: AnswerFacts) -> None:
    covered: list[tuple[int, int]] = []
    for name, entry in tf.pois.items():
        for variant in entry.variants:
            i = text.find(variant)
            if i < 0:
                continue
            positions = []
            while i >= 0 and len(positions) < 8:
                positions.append(i)
                covered.append((i, i + len(variant)))
                i = text.find(variant, i + len(variant))
            af.pois[name] = positions
            break
    covered.sort()
    starts = [c[0] for c in covered]
    seen: set[str] = set()
    admin = tf.admin_names
    candidates = list(pa.places) + [(a.position, -1) for a in pa.activities if a.position]
    for name, pos in candidates:
        if name in seen or name in admin or P.ADMIN_SUFFIX.search(name):
            continue
        seen.add(name)
        if pos >= 0:
            k = bisect.bisect_right(starts, pos) - 1
            if k >= 0 and covered[k][0] <= pos < covered[k][1] + 2:
                continue
        if any(v in name or name in v for e in tf.pois.values() for v in e.variants[:3]):
            continue
        af.ungrounded_places.append(name)


def _times(text: str, pa: ParsedAnswer, af: AnswerFacts) -> None:
    found = [(norm_time(int(m.group(1)), int(m.group(2))), m.start()) for m in P.TIME.finditer(text)]
    af.times = sorted([(t, p) for t, p in found if t] + cjk_times(text), key=lambda x: x[1])
    for t, p in af.times:
        if P.TIME_FACT_CONTEXT.search(text, max(0, p - 30), p + 35):
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
    if ent is not None and ent[3]:
        return ent[2]
    window = text[lo:p]
    if ent is not None and P.POI_PRICE_WORDS.search(text, ent[1], p):
        return ent[2]
    if P.TAXI_WORDS.search(window):
        return "taxi"
    if P.TRANSIT_WORDS.search(window):
        return "transit"
    return ent[2] if ent is not None else None


def _prices(text: str, tf: ToolFacts, pa: ParsedAnswer, af: AnswerFacts) -> None:
    entities = [(p, p + len(i), i, True) for i, p in af.flights + af.trains]
    for name, positions in af.pois.items():
        entities.extend((p, p + 2, name, False) for p in positions)
    entities.sort(key=lambda e: e[1])
    ends = [e[1] for e in entities]
    for m in P.PRICE.finditer(text):
        raw = m.group(1) or m.group(2)
        try:
            value = float(raw.replace(",", ""))
        except ValueError:
            continue
        if 0 < value <= 1_000_000:
            af.prices.append((_entity_key(text, m.start(), entities, ends), value, m.start()))
    base = pa.json_span[0] if pa.json_span else 0
    for a in pa.activities:
        if a.price is None:
            continue
        key = a.transport_id or next((n for n in tf.pois if a.position and a.position in tf.pois[n].variants), None)
        af.prices.append((key or (a.position or None), a.price, base))


def _weather(text: str, af: AnswerFacts) -> None:
    lines = P.LINE_SPLIT.split(text)
    offsets, off = [], 0
    for line in lines:
        offsets.append(off)
        off += len(line) + 1
    ctx = [bool(P.WEATHER_CONTEXT.search(line)) for line in lines]
    for i, line in enumerate(lines):
        if not (ctx[i] or (i > 0 and ctx[i - 1]) or (i + 1 < len(lines) and ctx[i + 1])):
            continue
        o = offsets[i]
        af.conditions.extend((m.group(0), o + m.start()) for m in P.WEATHER_COND.finditer(line))
        spans = []
        for m in P.TEMP_RANGE.finditer(line):
            spans.append((m.start(), m.end()))
            af.temps.extend(((int(m.group(1)), o + m.start()), (int(m.group(2)), o + m.start())))
        for m in P.TEMP.finditer(line):
            if not any(s <= m.start() < e for s, e in spans):
                af.temps.append((int(m.group(1)), o + m.start()))
        af.wind.extend((m.group(1), o + m.start()) for m in P.WIND_DIR.finditer(line))
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
        pm = P.PRICE.search(text, end, seg_end)
        if pm:
            af.claims.add(TransportClaim(tid, mode, "price", (pm.group(1) or pm.group(2)).replace(",", "")))
        n = 0
        for tm in P.TIME.finditer(text, end, seg_end):
            t = norm_time(int(tm.group(1)), int(tm.group(2)))
            if t:
                af.claims.add(TransportClaim(tid, mode, "time", t))
                n += 1
            if n == 2:
                break
    known = af.flight_ids | af.train_ids
    for a in pa.activities:
        tid = a.transport_id
        if not tid:
            continue
        mode = "flight" if P.FLIGHT_ID.fullmatch(tid) else "train" if P.TRAIN_ID.fullmatch(tid) else ""
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
    _times(text, pa, af)
    _prices(text, tf, pa, af)
    for m in P.DISTANCE.finditer(text):
        d = parse_metres(m.group(1), m.group(2))
        if d is not None and d >= C.MIN_DISTANCE_METRES:
            af.distances.append((d, m.start()))
    for m in P.DURATION.finditer(text):
        d = parse_duration(m.groups())
        if d:
            af.durations.append((d, m.start()))
    _weather(text, af)
    af.roads = road_names(text)
    for road in tf.roads:
        i = text.find(road)
        if i >= 0:
            af.matched_roads[road] = i
    _claims(text, pa, af)
    return af

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
from navworld.scoring.attribution import DERIVED, Entity, Layout, attribute_price, is_bound_time, sums_of
from navworld.scoring.facts import PoiEntry, ToolFacts, norm_power, road_names
from navworld.scoring.parser import ParsedAnswer
from navworld.scoring.scan import (
    cjk_times,
    find_flight_ids,
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
    derived: list[tuple[float, int]] = field(default_factory=list)
    """Amounts that are totals, multiples, differences or budgets (never fabrications, never matches)."""
    plan_prices: dict[str, set[float]] = field(default_factory=dict)
    """Prices and costs the JSON plan states per entity (prose amounts equal to them are consistent)."""
    bound_times: list[tuple[str, int]] = field(default_factory=list)
    """Times that are bounds from the request (``15:00前``), not claims."""
    party_multiple: int = 1

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


def _plan_ids(pa: ParsedAnswer, af: AnswerFacts) -> None:
    """The plan's FlightID/TrainID values (when the JSON is blanked out of the text)."""
    base = pa.json_span[0] if pa.json_span else 0
    for a in pa.activities:
        tid = a.transport_id
        if not tid:
            continue
        if P.ID_FULL_FLIGHT.fullmatch(tid) and a.type != "train":
            af.flights.append((tid, base))
        elif P.ID_FULL_TRAIN.fullmatch(tid):
            af.trains.append((tid, base))


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


_KIND_OF_TYPE = {
    "attraction": "attraction",
    "breakfast": "restaurant",
    "lunch": "restaurant",
    "dinner": "restaurant",
    "accommodation": "hotel",
}


def _block_index(names: set[str] | frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Blocked names by their first two characters, longest first."""
    index: dict[str, list[str]] = {}
    for n in names:
        if len(n) >= 3:
            index.setdefault(n[:2], []).append(n)
    return {k: tuple(sorted(v, key=len, reverse=True)) for k, v in index.items()}


def _covered(text: str, start: int, end: int, index: dict[str, tuple[str, ...]], longest: int) -> bool:
    """Whether ``[start, end)`` lies inside a longer occurrence of a blocked name."""
    for p in range(max(0, start - longest + (end - start)), start + 1):
        names = index.get(text[p : p + 2])
        if not names:
            continue
        for b in names:
            if p + len(b) < end or len(b) <= end - start:
                continue
            if text.startswith(b, p):
                return True
    return False


def _carrier_mask(text: str) -> bytearray | None:
    mask: bytearray | None = None
    for m in P.CARRIER_NAME.finditer(text):
        if mask is None:
            mask = bytearray(len(text))
        mask[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    return mask


def _pois(text: str, tf: ToolFacts, pa: ParsedAnswer, af: AnswerFacts) -> None:
    """Tool POIs mentioned in the answer, longest match first.

    A mention inside a longer POI mention does not count (``西湖`` inside ``汉庭酒店(杭州西湖湖滨店)``
    is not a mention of 西湖风景名胜区); a mention inside a longer name the tools returned for
    something else — an address, a dish, a road, a metro line or station, a carrier or airport —
    does not count (``西湖`` in ``西湖醋鱼``, ``体育场`` in ``体育场路626号``); at one span the exact
    name beats a whole variant beats a half; a mention running on into a longer tool name
    (``黑虎泉西路…`` vs 黑虎泉) is nobody's; a half never matches inside a carrier name.
    """
    index = _poi_index(tuple(tf.pois.values()))
    blocked = _block_index(tf.blocked | tf.entity_names)
    longest = min(40, max((len(n) for n in tf.blocked | tf.entity_names), default=0))
    carriers = _carrier_mask(text) if any(it[3] for it in index.items) else None
    occ: list[tuple[int, int, int, str]] = []
    for variant, name, rank, is_half, longer in index.items:
        i = text.find(variant)
        n = 0
        while i >= 0 and n < C.POI_MENTIONS_MAX:
            end = i + len(variant)
            if (
                not (is_half and carriers is not None and any(carriers[i:end]))
                and not (longer and any(text.startswith(w, i) for w in longer))
                and not (blocked and _covered(text, i, end, blocked, longest))
            ):
                occ.append((i, end, rank, name))
                n += 1
            i = text.find(variant, end)
    mask = bytearray(len(text))
    occ.sort(key=lambda o: (o[0] - o[1], o[2], o[0]))
    for start, end, _, name in occ:
        if any(mask[start:end]):
            continue
        mask[start:end] = b"\x01" * (end - start)
        af.pois.setdefault(name, []).append(start)
    if pa.blanked:
        # the plan's JSON is blanked out of the text: its positions are read from the parsed fields
        base = pa.json_span[0] if pa.json_span else 0
        best = index.best
        for a in pa.activities:
            name = a.position if a.position in tf.pois else best.get(a.position or "")
            if name is not None:
                af.pois.setdefault(name, []).append(base)
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
        if blocked and 0 <= pos and _covered(text, pos, pos + len(name), blocked, longest):
            continue  # part of an address, dish or station the tools returned
        af.ungrounded_places.append(name)


def _opening_times(text: str, af: AnswerFacts, layout: Layout) -> None:
    """Scorer s2: the times an answer states as opening hours — right after an opening word
    (``开放时间 07:30-17:30``, ``营业 10:00–22:00``, ``opens 9:00``), the other end of such a range,
    or in a table column headed by one. Schedule times (``10:40 到达…``) are plans, not facts."""
    prev: tuple[int, int, bool] | None = None  # (line, end, was an opening time)
    for t, p in af.times:
        line = layout.line_of(p)
        ls = layout.line_start(line)
        opening = P.OPENING_BEFORE.search(text, max(ls, p - C.OPENING_WINDOW), p) is not None
        if not opening and prev is not None and prev[0] == line and prev[2] and p - prev[1] <= 3:
            opening = True  # the closing end of an opening-hours range
        if not opening and (cell := layout.cell_of(line, p)) is not None:
            opening = P.OPENING_HEADER.search(cell[2]) is not None
        if opening:
            af.fact_times.append((t, p))
        prev = (line, p + _time_len(text, p), opening)


def _times(text: str, pa: ParsedAnswer, af: AnswerFacts, layout: Layout, strict: bool = False) -> None:
    times = sorted(af.times + cjk_times(text), key=lambda x: x[1])
    af.times = []
    for t, p in times:
        if is_bound_time(text, p, p + _time_len(text, p)):
            af.bound_times.append((t, p))
        else:
            af.times.append((t, p))
    if strict:
        _opening_times(text, af, layout)
    else:
        ctx = [m.start() for m in P.TIME_FACT_CONTEXT.finditer(text)]
        for t, p in af.times:
            i = bisect.bisect_left(ctx, p - 30)
            if i < len(ctx) and ctx[i] <= p + 30:
                af.fact_times.append((t, p))
    base = pa.json_span[0] if pa.json_span else 0
    for a in pa.activities:
        if a.transport_id:
            af.fact_times.extend((t, base) for t in (a.start_time, a.end_time) if t)


def _time_len(text: str, p: int) -> int:
    """Length of the time expression at ``p`` (``07:00`` / ``下午3点半``)."""
    m = P.TIME.match(text, p)
    if m is not None:
        return m.end() - p
    m = P.CJK_TIME.match(text, p)
    return (m.end() - p) if m is not None else 5


def _mention_len(text: str, pos: int, variants: tuple[str, ...]) -> int:
    return max((len(v) for v in variants if text.startswith(v, pos)), default=2)


def _entities(text: str, tf: ToolFacts, af: AnswerFacts) -> tuple[list[Entity], list[int]]:
    """Price-bearing entity mentions (IDs and POIs; transport hubs carry no prices), by end offset."""
    entities = [Entity(p, p + len(i), i, True) for i, p in af.flights + af.trains]
    for name, positions in af.pois.items():
        entry = tf.pois[name]
        if entry.kind == "hub":
            continue
        entities.extend(Entity(p, p + _mention_len(text, p, entry.variants), name, False) for p in positions)
    entities.sort(key=lambda e: e.end)
    return entities, [e.end for e in entities]


def _line_values(text: str, layout: Layout, prices: list[tuple[float, int]], pos: int) -> list[float]:
    """The other amounts of the same line (a table row is one line)."""
    line = layout.line_of(pos)
    lo, hi = layout.line_start(line), layout.line_end(line)
    i = bisect.bisect_left([p for _, p in prices], lo)
    out = []
    while i < len(prices) and prices[i][1] < hi:
        if prices[i][1] != pos:
            out.append(prices[i][0])
        i += 1
    return out


def _prices(
    text: str, tf: ToolFacts, pa: ParsedAnswer, af: AnswerFacts, prices: list[tuple[float, int]], layout: Layout
) -> None:
    entities, ends = _entities(text, tf, af)
    for value, pos in prices:
        if not 0 <= value <= 1_000_000:
            continue
        key, kind = attribute_price(text, pos, layout, entities, ends)
        if kind == DERIVED:
            af.derived.append((value, pos))
            continue
        if key is None or not _price_matches_key(tf, key, value):
            tool_values = tf.prices.get(key, set()) if key is not None else set()
            k_max = max(2, af.party_multiple)
            line_values = _line_values(text, layout, prices, pos)
            derivable = sums_of(line_values + list(tool_values), k_max)
            share = any(abs(value * k - v) <= C.PRICE_MATCH_ABS_TOLERANCE for v in line_values for k in range(2, k_max + 1))
            if round(value, 2) in derivable or share:
                af.derived.append((value, pos))  # a sum, multiple, difference or share of cited prices
                continue
        af.prices.append((key, value, pos))
    base = pa.json_span[0] if pa.json_span else 0
    best = _poi_index(tuple(tf.pois.values())).best
    for a in pa.activities:
        if a.price is None:
            continue
        if a.transport_id:
            key: str | None = a.transport_id
        else:
            exact = a.position if a.position in tf.pois else None  # an exact name beats another POI's variant
            key = exact or (best.get(a.position) if a.position else None)
            if key is not None:
                wanted = _KIND_OF_TYPE.get(a.type)
                poi_kind = tf.pois[key].kind
                if a.type == "breakfast" and poi_kind == "hotel":
                    continue  # a hotel breakfast (price 0, as the prompt says) is not the hotel's price
                if wanted is not None and poi_kind != wanted:
                    continue  # another kind of price (checked by plan verification, not here)
            key = key or (a.position or None)
        if key:
            af.plan_prices.setdefault(key, set()).add(round(a.price, 2))
            if a.cost is not None:
                af.plan_prices[key].add(round(a.cost, 2))
        af.prices.append((key, a.price, base))


def _price_matches_key(tf: ToolFacts, key: str, value: float) -> bool:
    vals = tf.prices.get(key)
    return bool(vals) and any(abs(value - v) <= C.PRICE_MATCH_ABS_TOLERANCE for v in vals)


def _weather(text: str, tf: ToolFacts, af: AnswerFacts) -> None:
    """Weather facts from lines with a weather word, and the lines right before/after them
    (Chinese and English: ``light rain``, ``°C``, ``NE 3-4``, ``north-east wind``)."""
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
        if line.isascii() or any("a" <= ch.lower() <= "z" for ch in line[:200]):
            _english_weather(line, o, tf, af)
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


def _english_weather(line: str, o: int, tf: ToolFacts, af: AnswerFacts) -> None:
    taken: list[tuple[int, int]] = []
    for m in P.EN_WEATHER_COND.finditer(line):
        if P.EN_NEGATION.search(line, max(0, m.start() - 12), m.start()):
            continue  # "no rain in the forecast"
        word = " ".join(m.group(1).lower().split())
        word = word.rstrip("s") if word.endswith(("showers", "storms")) else word
        word = word.replace("thunder shower", "thundershower").replace("thunder storm", "thunderstorm")
        word = word.replace("rain storm", "rainstorm").replace("snow storm", "snowstorm")
        options = P.EN_WEATHER_MAP.get(word)
        if options:
            cond = next((c for c in options if c in tf.conditions), options[0])
            af.conditions.append((cond, o + m.start()))
            taken.append((m.start(), m.end()))
    for m in P.EN_WIND.finditer(line):
        word, lo, hi = m.group(1), m.group(2), m.group(3)
        whole = m.group(0).lower()
        if any(a <= m.start() < b for a, b in taken):
            continue
        if lo is None and "wind" not in whole and "erly" not in whole:
            continue
        if len(word) <= 2 and not word.isupper():
            continue  # "n"/"e": not a compass abbreviation
        direction = P.EN_WIND_DIRS.get(word.lower().replace("-", "").replace(" ", ""))
        if direction:
            af.wind.append((direction, o + m.start()))
        if lo is not None:
            af.wind.append((norm_power(lo, hi, None), o + m.start()))
    for m in P.EN_WIND_POWER.finditer(line):
        af.wind.append((norm_power(m.group(1), m.group(2), None), o + m.start()))


def _roads(text: str, tf: ToolFacts) -> list[tuple[str, int]]:
    """Road names of the answer, minus those that are (or hold) a tool POI's name (``太原老街``)."""
    roads = road_names(text)
    if not roads or not tf.pois:
        return roads
    names = _alternation(tuple(sorted({v for e in tf.pois.values() for v in e.variants if len(v) >= 3})))
    if names is None:
        return roads
    return [(r, p) for r, p in roads if r in tf.roads or not names.search(r)]


def _id_segment(text: str, layout: Layout, end: int, next_id: int) -> int:
    """Where the claims of an ID occurrence end: the rest of its table row, else the same line up
    to the next ID, a sentence end or TRANSPORT_CLAIM_WINDOW characters."""
    line = layout.line_of(end)
    if line in layout.rows:
        return min(layout.line_end(line), next_id)
    limit = min(end + C.TRANSPORT_CLAIM_WINDOW, next_id, layout.line_end(line))
    stop = P.CLAIM_STOP.search(text, end, limit)
    seg_end = stop.start() if stop else limit
    # A claim belongs to the ID only when nothing else (a taxi/metro fare, another leg) sits between.
    other = P.TAXI_WORDS.search(text, end, seg_end) or P.TRANSIT_WORDS.search(text, end, seg_end)
    return other.start() if other else seg_end


def _claims(text: str, pa: ParsedAnswer, af: AnswerFacts, layout: Layout, strict: bool = False) -> None:
    occ = sorted([(p, i, "flight") for i, p in af.flights] + [(p, i, "train") for i, p in af.trains])
    modes = {i: m for _, i, m in occ}
    bound = {p for _, p in af.bound_times}
    for k, (p, tid, mode) in enumerate(occ):
        af.claims.add(TransportClaim(tid, mode, "id"))
        if P.COMPARED_WITH.search(text, max(0, p - 6), p):
            continue  # "比 G9674 便宜 215 元，但 23:27 才到": what follows is about the other train
        end = p + len(tid)
        seg_end = _id_segment(text, layout, end, occ[k + 1][0] if k + 1 < len(occ) else len(text))
        for t, tp in find_times(text, end, seg_end)[:2]:
            if tp not in bound:
                af.claims.add(TransportClaim(tid, mode, "time", t))
                if strict:
                    af.fact_times.append((t, tp))
    for key, value, pos in af.prices:
        if key in modes and pos != (pa.json_span[0] if pa.json_span else -1):
            af.claims.add(TransportClaim(key, modes[key], "price", f"{value:g}"))
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


def extract_answer_facts(
    pa: ParsedAnswer, tf: ToolFacts, party: int = 1, nights: int = 1, strict: bool = False
) -> AnswerFacts:
    """All answer-side facts of a parsed answer, given the tool facts (for POI and ID matching).

    ``party`` (travellers) and ``nights`` bound the multiples recognised as derived amounts.
    ``strict`` (scorer s2): time facts are opening hours and transport times only.
    """
    text = pa.text
    af = AnswerFacts()
    if not text:
        return af
    af.party_multiple = max(1, party) * max(1, nights)
    layout = Layout.of(text)
    _ids(text, tf, af)
    if pa.blanked:
        _plan_ids(pa, af)
    _pois(text, tf, pa, af)
    af.times, prices, af.distances, af.durations = scan_numbers(text, C.MIN_DISTANCE_METRES)
    _times(text, pa, af, layout, strict)
    _prices(text, tf, pa, af, prices, layout)
    _weather(text, tf, af)
    af.roads = _roads(text, tf)
    for road in tf.roads:
        i = text.find(road)
        if i >= 0:
            af.matched_roads[road] = i
    _claims(text, pa, af, layout, strict)
    return af

"""Answer-side facts: the same 10 categories, with positions, read from the answer text and plan.

Every occurrence keeps its character offset so completeness can measure proximity to keywords.
Prices keep the entity they are attached to (a flight/train number, a tool POI name, ``taxi``
or ``transit``): a price is compared only with the tool price of the same entity, never by value
alone. POIs are extracted (tool POIs found by fuzzy match, plus other place names by suffix).
"""

from __future__ import annotations

import bisect

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.answer_pois import alternation, find_pois, poi_index
from navworld.scoring.answer_weather import find_weather
from navworld.scoring.attribution import DERIVED, Entity, Layout, attribute_price, is_bound_time, sums_of
from navworld.scoring.fact_types import AnswerFacts, ToolFacts, TransportClaim
from navworld.scoring.facts import road_names
from navworld.scoring.numerals import cjk_time_end, cn_prices
from navworld.scoring.parser import ParsedAnswer
from navworld.scoring.scan import (
    cjk_times,
    find_flight_ids,
    find_times,
    find_train_ids,
    scan_numbers,
)

__all__ = ["AnswerFacts", "TransportClaim", "extract_answer_facts"]

_KIND_OF_TYPE = {
    "attraction": "attraction",
    "breakfast": "restaurant",
    "lunch": "restaurant",
    "dinner": "restaurant",
    "accommodation": "hotel",
}


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


def _opening_times(text: str, af: AnswerFacts, layout: Layout) -> None:
    """Scorer s2: the times an answer states as opening hours — right after an opening word
    (``开放时间 07:30-17:30``, ``营业 10:00–22:00``, ``opens 9:00``), the other end of such a range,
    or in a table column headed by one. Schedule times (``10:40 到达…``) are plans, not facts."""
    prev: tuple[int, int, bool, bool] | None = None  # (line, end, was an opening time, opened a range)
    mentions = sorted((q, name) for name, qs in af.pois.items() for q in qs)
    starts = [q for q, _ in mentions]
    for t, p in af.times:
        line = layout.line_of(p)
        ls = layout.line_start(line)
        lead = text[max(ls, p - C.OPENING_WINDOW) : p]
        cut = max(lead.rfind(ch) for ch in "，,。；;！？!?")
        opening = P.OPENING_BEFORE.search(lead, cut + 1) is not None  # in the time's own clause
        if (
            not opening and prev is not None and prev[0] == line and prev[2] and prev[3]
            and P.RANGE_SEPARATOR.fullmatch(text[prev[1] : p])
        ):
            opening = True  # the closing end of an opening-hours range (``08:00-17:30``, not ``20:30，12:40``)
        if not opening and (cell := layout.cell_of(line, p)) is not None:
            opening = P.OPENING_HEADER.search(cell[2]) is not None
        if opening:
            af.fact_times.append((t, p))
            af.opening_times.append((t, p))
            k = bisect.bisect_left(starts, p) - 1
            while k >= 0 and starts[k] >= ls:
                q, name = mentions[k]
                # a reference point says how far (``距X 2409米``); without a distance after it, X is
                # the place the hours are stated for
                if not (P.REFERENCE_POINT.search(text, max(0, q - 4), q) and P.DISTANCE_AFTER_NAME.match(text, q + len(name))):
                    af.opening_owner[p] = name
                    break
                k -= 1
        # a range starts at an opening time that does not itself close one
        starts_range = opening and not (prev is not None and prev[2] and prev[3] and prev[0] == line
                                        and P.RANGE_SEPARATOR.fullmatch(text[prev[1] : p]))
        prev = (line, p + _time_len(text, p), opening, starts_range)


def _times(
    text: str, pa: ParsedAnswer, af: AnswerFacts, layout: Layout, cjk: list[tuple[str, int]], strict: bool = False,
    request_times: frozenset[str] | None = None,
) -> None:
    times = sorted(af.times + cjk, key=lambda x: x[1])
    af.times = []
    for t, p in times:
        if is_bound_time(text, p, p + _time_len(text, p), t, request_times if strict else None):
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
    """Length of the time expression at ``p`` (``07:00`` / ``3点半`` / ``九点一刻``)."""
    m = P.TIME.match(text, p)
    if m is not None:
        return m.end() - p
    end = cjk_time_end(text, p)
    return (end - p) if end is not None else 5


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
    text: str,
    tf: ToolFacts,
    pa: ParsedAnswer,
    af: AnswerFacts,
    prices: list[tuple[float, int]],
    layout: Layout,
    strict: bool = False,
    request_amounts: frozenset[float] = frozenset(),
) -> None:
    entities, ends = _entities(text, tf, af)
    cited = {round(v, 2) for v, _ in prices}
    # the other addend of a total: any fare (a round trip), else a tool price the answer cites too
    known = {kind: vals if kind == "transport" else vals & cited for kind, vals in _prices_by_kind(tf).items()}
    for value, pos in prices:
        if not 0 <= value <= 1_000_000:
            continue
        key, kind = attribute_price(text, pos, layout, entities, ends)
        own = tf.prices.get(key, set()) | af.plan_prices.get(key, set()) if key is not None else set()
        difference = bool(
            P.DIFFERENCE_WORDS.search(text, max(0, pos - 2 * C.ATTRIBUTION_MARK_WINDOW), pos)
            or P.DIFFERENCE_AFTER.match(text, _amount_end(text, pos))
            or P.MORE_LESS_BEFORE.search(text, max(0, pos - 4), pos)
        )
        if kind == DERIVED and round(value, 2) in request_amounts:
            af.derived.append((value, pos))  # the user's own budget (``would blow the ¥1,900 budget``)
            continue
        if kind == DERIVED and (
            key is None
            or _derivable(
                value,
                own,
                known.get(_kind_of(tf, key), set()),
                # the user's budget takes part (``= ¥1,640 in fares, leaving ¥260`` of 1,900)
                _line_numbers(text, layout, pos) + sorted(request_amounts),
                difference,
                max(2, af.party_multiple),
            )
        ):
            af.derived.append((value, pos))
            continue
        if difference and strict and key is not None and _derivable(
            value, own, known.get(_kind_of(tf, key), set()), _line_numbers(text, layout, pos), True,
            max(2, af.party_multiple),
        ):
            # "换成 X（人均 170元），每人多 50 元": a difference of cited prices (170 − 120), never a claim
            af.derived.append((value, pos))
            continue
        # a marked amount that is no arithmetic over the answer's amounts is its entity's claim
        # ("灵隐寺门票约合 57元" is checked like "灵隐寺门票 57元")
        if key is None or not _price_matches_key(tf, key, value):
            tool_values = tf.prices.get(key, set()) if key is not None else set()
            k_max = max(2, af.party_multiple)
            line_values = _line_values(text, layout, prices, pos)
            # s2: a difference only after a difference word (灵隐寺 95 is no "95 − 40" of the line)
            derivable = sums_of(line_values + list(tool_values), k_max, differences=difference or not strict)
            share = any(abs(value * k - v) <= C.PRICE_MATCH_ABS_TOLERANCE for v in line_values for k in range(2, k_max + 1))
            if round(value, 2) in derivable or share:
                af.derived.append((value, pos))  # a sum, multiple, difference or share of cited prices
                continue
        af.prices.append((key, value, pos))
    base = pa.json_span[0] if pa.json_span else 0
    best = poi_index(tuple(tf.pois.values())).best
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


def _kind_of(tf: ToolFacts, key: str) -> str:
    if key in tf.transports:
        return "transport"
    entry = tf.pois.get(key)
    return entry.kind if entry is not None else ""


def _prices_by_kind(tf: ToolFacts) -> dict[str, set[float]]:
    """The tools' prices grouped by the kind of their entity (fares, hotels, restaurants, sights)."""
    out: dict[str, set[float]] = {}
    for key, vals in tf.prices.items():
        out.setdefault(_kind_of(tf, key), set()).update(round(v, 2) for v in vals if v > 0)
    return out


def _amount_end(text: str, pos: int) -> int:
    m = P.AMOUNT_AT.match(text, pos)
    return m.end() if m is not None else pos


def _line_numbers(text: str, layout: Layout, pos: int) -> list[float]:
    """Every number on the line of ``pos`` other than the one at ``pos`` (``30 + 120 + 150 + 75 = 375元``)."""
    line = layout.line_of(pos)
    lo, hi = layout.line_start(line), layout.line_end(line)
    out = []
    for m in P.BARE_NUMBER.finditer(text, lo, hi):
        if m.start() != pos and not (
            P.NOT_AN_AMOUNT_BEFORE.search(text, max(lo, m.start() - 1), m.start())
            or P.NOT_AN_AMOUNT_AFTER.match(text, m.end())
        ):
            try:
                out.append(float(m.group(0).replace(",", "")))
            except ValueError:
                continue
    return out[: C.DERIVED_MAX_VALUES]


def _derivable(
    value: float, own: set[float], known: set[float], line: list[float], difference: bool, k_max: int
) -> bool:
    """Whether a marked ``value`` next to an entity is arithmetic, not a disguised claim about it.

    Any marked amount: a sum of 2–4 numbers of its line, a multiple or difference of them, or a
    multiple k × p of a price ``p`` of its own entity (tool or plan; k ≤ the party's multiple). A total (``约合``,
    ``共``, ``往返``) may also be p + a for one other price ``a`` the tools state for an entity of the
    same kind — any fare (``往返 464`` = 238 + 226), else one the answer cites too; a difference (``省``, ``贵``, ``多花``) may be k × |p − a| (``3 晚要多花
    1890元`` = (1028 − 398) × 3). The answer's own free amounts never take part: a made-up price
    cannot make another one derivable."""
    v = round(value, 2)
    if v in sums_of(line, 12):
        return True
    tol = C.PRICE_MATCH_ABS_TOLERANCE
    for p in own:
        if any(abs(value - k * p) <= tol for k in range(2, k_max + 1)):
            return True
        if difference:
            for k in range(1, 13):
                target = value / k
                if any(abs(target - abs(p - a)) <= tol for a in known if a != v):
                    return True
        elif any(abs(value - (p + a)) <= tol for a in known if a != v):
            return True
    return False


def _price_matches_key(tf: ToolFacts, key: str, value: float) -> bool:
    vals = tf.prices.get(key)
    return bool(vals) and any(abs(value - v) <= C.PRICE_MATCH_ABS_TOLERANCE for v in vals)


def _roads(text: str, tf: ToolFacts) -> list[tuple[str, int]]:
    """Road names of the answer, minus those that are (or hold) a tool POI's name (``太原老街``)."""
    roads = road_names(text)
    if not roads or not tf.pois:
        return roads
    names = alternation(tuple(sorted({v for e in tf.pois.values() for v in e.variants if len(v) >= 3})))
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


def _hour_bound(text: str, pos: int, t: str) -> str | None:
    """``before``/``after`` when the time at ``pos`` is a whole-hour bound (``23点以后``, ``17:00前``,
    ``不晚于 9点``): a rounded comparison, checked as one; exact-minute bounds stay claims (rule 19)."""
    if not t.endswith(":00"):
        return None
    m = P.TIME_BOUND_AFTER.match(text, pos + _time_len(text, pos))
    if m is not None:
        return "after" if P.AFTER_WORDS.search(m.group(0)) else "before"
    m = P.TIME_BOUND_BEFORE.search(text, max(0, pos - 12), pos)
    if m is not None:
        return "after" if "不早于" in m.group(0) else "before"
    return None


def _segment_times(
    text: str, cjk: list[tuple[str, int]], cjk_at: list[int], end: int, seg_end: int
) -> list[tuple[str, int]]:
    """The clock times of an ID's segment, in any notation (``07:25``, ``9点半``, ``十一点整``)."""
    i = bisect.bisect_left(cjk_at, end)
    extra = []
    while i < len(cjk) and cjk[i][1] < seg_end:
        extra.append(cjk[i])
        i += 1
    times = find_times(text, end, seg_end)
    return sorted(times + extra, key=lambda x: x[1]) if extra else times


def _claims(
    text: str, pa: ParsedAnswer, af: AnswerFacts, layout: Layout, cjk: list[tuple[str, int]], strict: bool = False
) -> None:
    occ = sorted([(p, i, "flight") for i, p in af.flights] + [(p, i, "train") for i, p in af.trains])
    modes = {i: m for _, i, m in occ}
    bound = {p for _, p in af.bound_times}
    cjk_at = [p for _, p in cjk]
    for k, (p, tid, mode) in enumerate(occ):
        af.claims.add(TransportClaim(tid, mode, "id"))
        if P.COMPARED_WITH.search(text, max(0, p - 6), p):
            continue  # "比 G9674 便宜 215 元，但 23:27 才到": what follows is about the other train
        end = p + len(tid)
        seg_end = _id_segment(text, layout, end, occ[k + 1][0] if k + 1 < len(occ) else len(text))
        for t, tp in _segment_times(text, cjk, cjk_at, end, seg_end)[:2]:
            if tp not in bound:
                side = _hour_bound(text, tp, t)
                af.claims.add(TransportClaim(tid, mode, side or "time", t))
                if strict and side is None:
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
    pa: ParsedAnswer,
    tf: ToolFacts,
    party: int = 1,
    nights: int = 1,
    strict: bool = False,
    request_times: frozenset[str] = frozenset(),
    request_amounts: frozenset[float] = frozenset(),
) -> AnswerFacts:
    """All answer-side facts of a parsed answer, given the tool facts (for POI and ID matching).

    ``party`` (travellers) and ``nights`` bound the multiples recognised as derived amounts.
    ``strict`` (scorer s2): time facts are opening hours and transport times only, and a time
    written as a bound (``X前``) escapes the checks only when it is one of ``request_times`` (the
    times the request states) or is advice; an amount of ``request_amounts`` (the user's budget)
    marked as a total or budget is nobody's price.
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
    find_pois(text, tf, pa, af)
    af.times, prices, af.distances, af.durations = scan_numbers(text, C.MIN_DISTANCE_METRES)
    cn = cn_prices(text)
    if cn:
        prices = sorted(prices + cn, key=lambda x: x[1])
    prices = prices[: C.ANSWER_MAX_AMOUNTS]
    cjk = cjk_times(text)
    _times(text, pa, af, layout, cjk, strict, request_times)
    _prices(text, tf, pa, af, prices, layout, strict, request_amounts if strict else frozenset())
    find_weather(text, tf, af)
    af.roads = _roads(text, tf)
    if strict and tf.address_roads:
        # a road inside an address quoted from the tools (``老景德镇小吃店（朝阳路674号）``) is part of
        # that address, not a road claim the route results must hold
        af.roads = [(r, p) for r, p in af.roads if r in tf.roads or r not in tf.address_roads]
    for road in tf.roads:
        i = text.find(road)
        if i >= 0:
            af.matched_roads[road] = i
    _claims(text, pa, af, layout, cjk, strict)
    return af

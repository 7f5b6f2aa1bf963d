"""Tool-side facts: the 10 categories of seed §3.3.1, read from the exact tool text the model saw.

=================  =========================================================================
category           tool side (value kept)
=================  =========================================================================
flights            flight numbers from ``search_flights`` lines (``航班 CA1234 …``)
trains             train numbers from ``search_train_tickets`` lines (``车次 G102 …``)
pois               ``name:`` of every POI block of ``poi_search`` / ``around_search``
weather            conditions (``dayweather``/``nightweather``, split on 转) and temperatures (``18℃``)
distances          route / step / around distances in metres (≥ 100 m)
times              departure/arrival times of flights and trains, POI opening-hour bounds (``HH:MM``)
prices             ``(key, value)``: key = flight/train number, POI name, ``taxi`` or ``transit``
wind_info          wind direction (``东北风``) and power (``1-3级``)
travel_durations   route, flight and train durations in minutes
road_names         road names in route steps (``延安路``, ``沈海高速``)
=================  =========================================================================

Extraction per tool result is cached (LRU keyed by tool name and text), so scoring the same
trace again, or many answers against one trace, does not re-extract.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.names import (
    admin_prefixes,
    norm_power,
    norm_wind,
    poi_kind,
    poi_variant_parts,
    poi_variants,
    road_names,
    strip_code,
)
from navworld.scoring.scan import (
    find_distances,
    find_durations,
    find_prices,
    find_times,
    norm_time,
    parse_metres,
)
from navworld.scoring.topic import call_cities, resolve_name
from navworld.scoring.trace import ToolCallRecord
from navworld.scoring.trajectory import DUPLICATE_ID, OFF_TOPIC, OK, ORPHAN, WRONG_DATE, Trip, classify

__all__ = [
    "PoiEntry",
    "TextFacts",
    "ToolFacts",
    "TransportEntry",
    "admin_prefixes",
    "extract_text_facts",
    "extract_tool_facts",
    "norm_power",
    "norm_time",
    "norm_wind",
    "parse_metres",
    "poi_variants",
    "road_names",
]


@dataclass(frozen=True, slots=True)
class PoiEntry:
    """A POI returned by a POI tool; ``variants`` are the strings searched for in answers."""

    name: str
    kind: str
    variants: tuple[str, ...]
    cost: float | None = None
    opentime: str = ""
    district: str = ""
    halves: tuple[str, ...] = ()
    """The variants that are name halves (never counted inside a carrier or longer entity name)."""
    city: str = ""
    """The ``cityname`` the tool gave (s2 drops POIs of other cities)."""
    location: str = ""
    """The ``lng,lat`` the tool gave."""


@dataclass(frozen=True, slots=True)
class TransportEntry:
    """A flight or train line of a transport tool result."""

    id: str
    mode: str
    dep: str | None
    arr: str | None
    prices: tuple[float, ...]
    duration_min: int | None


@dataclass(frozen=True, slots=True)
class TextFacts:
    """Facts of one tool result text (immutable, cached)."""

    tool: str
    transports: tuple[TransportEntry, ...] = ()
    pois: tuple[PoiEntry, ...] = ()
    conditions: frozenset[str] = frozenset()
    temps: frozenset[int] = frozenset()
    wind: frozenset[str] = frozenset()
    distances: frozenset[float] = frozenset()
    times: frozenset[str] = frozenset()
    prices: frozenset[tuple[str, float]] = frozenset()
    durations: frozenset[int] = frozenset()
    roads: frozenset[str] = frozenset()
    admin_names: frozenset[str] = frozenset()
    lines: frozenset[str] = frozenset()
    weather_days: tuple[str, ...] = ()
    entity_names: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()
    """Other names the result returned (addresses, dishes, roads, lines, stations, carriers, airports):
    a POI name inside one of them in an answer is not a mention of that POI."""


@dataclass(slots=True)
class ToolFacts:
    """The union of the facts of every non-error tool result of a trace."""

    called: frozenset[str] = frozenset()
    succeeded: frozenset[str] = frozenset()
    failed_only: frozenset[str] = frozenset()
    n_calls: int = 0
    n_ok: int = 0
    transports: dict[str, TransportEntry] = field(default_factory=dict)
    pois: dict[str, PoiEntry] = field(default_factory=dict)
    conditions: set[str] = field(default_factory=set)
    temps: set[int] = field(default_factory=set)
    wind: set[str] = field(default_factory=set)
    distances: set[float] = field(default_factory=set)
    times: set[str] = field(default_factory=set)
    prices: dict[str, set[float]] = field(default_factory=dict)
    durations: set[int] = field(default_factory=set)
    roads: set[str] = field(default_factory=set)
    admin_names: set[str] = field(default_factory=set)
    lines: set[str] = field(default_factory=set)
    weather_days: list[str] = field(default_factory=list)
    entity_names: set[str] = field(default_factory=set)
    """Carrier, airport and station names of the transport results (no POI half matches inside)."""
    blocked: set[str] = field(default_factory=set)
    """Every non-POI name the tools returned (see :attr:`TextFacts.blocked`)."""
    off_topic: list[str] = field(default_factory=list)
    """``tool(city, …)`` of every off-topic call (no facts, not counted as called)."""
    off_topic_called: frozenset[str] = frozenset()
    relevant: frozenset[str] = frozenset()
    """Tools with at least one successful call a planner would make (s2; else = succeeded)."""
    statuses: list[tuple[str, str]] = field(default_factory=list)
    """s2: ``(tool, status)`` of every call (see :mod:`navworld.scoring.trajectory`)."""
    poi_sources: dict[str, set[str]] = field(default_factory=dict)
    """POI name → the tools that returned it."""
    route_distances: set[float] = field(default_factory=set)
    route_durations: set[int] = field(default_factory=set)
    """Distances/durations that ``direction`` returned."""
    texts: list[str] = field(default_factory=list)
    """The result texts that ground facts (the plan's grounding check reads exactly these)."""
    weather_call_days: set[str] = field(default_factory=set)
    transport_dates: set[str] = field(default_factory=set)

    @property
    def flights(self) -> set[str]:
        """Flight numbers returned by the tools."""
        return {k for k, v in self.transports.items() if v.mode == "flight"}

    @property
    def trains(self) -> set[str]:
        """Train numbers returned by the tools."""
        return {k for k, v in self.transports.items() if v.mode == "train"}

    @property
    def weather(self) -> set[str]:
        """Weather facts as strings: conditions and ``N℃`` temperatures."""
        return self.conditions | {f"{t}℃" for t in self.temps}

    @property
    def price_pairs(self) -> set[tuple[str, float]]:
        """Every ``(key, value)`` price fact."""
        return {(k, v) for k, vals in self.prices.items() for v in vals}

    def category_sizes(self) -> dict[str, int]:
        """Number of tool facts per IC category."""
        return {
            "flights": len(self.flights),
            "trains": len(self.trains),
            "pois": len(self.pois),
            "weather": len(self.weather),
            "distances": len(self.distances),
            "times": len(self.times),
            "prices": len(self.price_pairs),
            "wind_info": len(self.wind),
            "travel_durations": len(self.durations),
            "road_names": len(self.roads),
        }

    def is_empty(self) -> bool:
        """Whether no category holds any fact."""
        return not any(self.category_sizes().values())


# --------------------------------------------------------------------------- small normalisers


def _kv_blocks(text: str) -> list[dict[str, str]]:
    """``## N`` blocks of ``key: value`` lines (a repeated ``name`` also starts a block)."""
    blocks: list[dict[str, str]] = []
    cur: dict[str, str] = {}
    for line in P.LINE_SPLIT.split(text):
        if P.TOOL_BLOCK_HEADER.match(line) and line.lstrip().startswith("#"):
            if cur:
                blocks.append(cur)
            cur = {"_header": line.strip("# ").strip()}
            continue
        m = P.TOOL_KV.match(line)
        if not m:
            continue
        key, value = m.group(1).lower(), m.group(2)
        if key in cur and key == "name":
            blocks.append(cur)
            cur = {}
        cur.setdefault(key, value)
    if cur:
        blocks.append(cur)
    return blocks


def _times_in(text: str) -> set[str]:
    return {t for t, _ in find_times(text)}


def _pois(text: str) -> dict[str, object]:
    blocks = [b for b in _kv_blocks(text) if b.get("name")]
    cities = {v for b in blocks for k in ("cityname", "pname") if (v := b.get(k, "").strip())}
    districts = {v for b in blocks if (v := b.get("adname", "").strip())}
    admin = cities | districts
    prefixes = admin_prefixes(cities, districts)
    pois, prices, times, dists, blocked = [], set(), set(), set(), set()
    for b in blocks:
        name = b["name"].strip()[:60]
        if not name or name in admin:
            continue
        address = b.get("address", "").strip()
        if len(address) >= 3:
            blocked.add(address[:60])
        for dish in P.LIST_SPLIT.split(b.get("dishes", "")):
            if len(dish := dish.strip()) >= 2:
                blocked.add(dish[:30])
        cost = None
        if (m := P.TOOL_PRICE.search(b.get("cost", ""))) is not None:
            cost = float(m.group(1))
            prices.add((name, cost))
        opentime = b.get("opentime", "")
        times |= _times_in(opentime)
        dists.update(d for d, _ in find_distances(b.get("distance", ""), C.MIN_DISTANCE_METRES))
        kind = poi_kind(b)
        whole, halves = poi_variant_parts(name, prefixes)
        city = b.get("cityname", "").strip()
        loc = b.get("location", "").strip()[:40]
        pois.append(PoiEntry(name, kind, whole + halves, cost, opentime, b.get("adname", ""), halves, city, loc))
    return {
        "pois": tuple(pois),
        "prices": prices,
        "times": times,
        "distances": dists,
        "admin": admin,
        "blocked": blocked,
    }


def _transport(
    text: str, mode: str
) -> tuple[list[TransportEntry], set[str], set[tuple[str, float]], set[int], set[str]]:
    line_re = P.TOOL_FLIGHT_LINE if mode == "flight" else P.TOOL_TRAIN_LINE
    entries, times, prices, durations, names = [], set(), set(), set(), set()
    for line in P.LINE_SPLIT.split(text):
        m = line_re.search(line)
        if not m:
            continue
        tid = m.group(1)
        rest = line[m.end() :]
        names.update(n for g in P.TOOL_TRANSPORT_NAMES.findall(rest) for n in g if len(n) >= 4)
        ts = [t for t, _ in find_times(rest)]
        ps = tuple(v for v, _ in find_prices(rest))
        durs = find_durations(rest)
        dur = durs[0][0] if durs else None
        entries.append(
            TransportEntry(tid, mode, ts[0] if ts else None, ts[1] if len(ts) > 1 else None, ps, dur)
        )
        times.update(ts[:2])
        prices.update((tid, p) for p in ps)
        if dur:
            durations.add(dur)
    return entries, times, prices, durations, names


def _direction(text: str) -> dict[str, set]:
    dists, durs, prices, roads, blocked = set(), set(), set(), set(), set()
    dists.update(d for d, _ in find_distances(text, C.MIN_DISTANCE_METRES))
    durs.update(d for d, _ in find_durations(text))
    bracketed = "「" in text
    for line in P.LINE_SPLIT.split(text):
        kv = P.TOOL_KV.match(line)
        if kv:
            key, value = kv.group(1).lower(), kv.group(2)
            pm = P.TOOL_PRICE.search(value)
            if pm and "taxi" in key:
                prices.add(("taxi", float(pm.group(1))))
            elif pm and key in ("cost", "transit_cost", "fare", "price"):
                prices.add(("transit", float(pm.group(1))))
            if key in ("road", "road_name", "roads") and P.ROAD_NAME.fullmatch(value):
                roads.add(value)
            continue
        if bracketed:
            # the renderer writes every road name as 「…」; lines and stations are bracketed too
            for m in P.ROAD_BRACKETED.finditer(line):
                name = m.group(1)
                blocked.add(name)
                if P.ROAD_NAME.fullmatch(name) or P.ROAD_NAME.fullmatch(strip_code(name) or "-"):
                    roads.add(name)
                    if (short := strip_code(name)) != name and len(short) >= 3:
                        roads.add(short)
        else:
            roads.update(r for r, _ in road_names(line))
    blocked |= roads
    return {"distances": dists, "durations": durs, "prices": prices, "roads": roads, "blocked": blocked}


def _weather(text: str) -> dict[str, set | list]:
    conds, temps, wind, days = set(), set(), set(), []
    for line in P.LINE_SPLIT.split(text):
        if (dm := P.TOOL_DATE_HEADER.match(line)) is not None:
            days.append(dm.group(1))
            continue
        kv = P.TOOL_KV.match(line)
        if not kv:
            continue
        key, value = kv.group(1).lower(), kv.group(2)
        if key.endswith("weather"):
            conds.update(m.group(0) for m in P.WEATHER_COND.finditer(value))
        elif key.endswith("temp"):
            t = value.replace("℃", "").replace("°C", "").strip()
            if t.lstrip("-").isdigit():
                temps.add(int(t))
        elif key.endswith("wind"):
            w = norm_wind(value)
            if w:
                wind.add(w)
        elif key.endswith("power"):
            pm = P.WIND_POWER.search(value if "级" in value else value + "级")
            if pm:
                wind.add(norm_power(pm.group(2), pm.group(3), pm.group(1)))
    return {"conditions": conds, "temps": temps, "wind": wind, "days": days}


@lru_cache(maxsize=C.TOOL_TEXT_CACHE_SIZE)
def extract_text_facts(tool: str, text: str) -> TextFacts:
    """Facts of one tool result text (cached by ``(tool, text)``)."""
    lines = frozenset(s for raw in P.LINE_SPLIT.split(text) if len(s := raw.strip()) >= C.ECHO_MIN_LINE_CHARS)
    if tool in C.POI_TOOLS:
        r = _pois(text)
        return TextFacts(
            tool,
            pois=r["pois"],  # type: ignore[arg-type]
            prices=frozenset(r["prices"]),  # type: ignore[arg-type]
            times=frozenset(r["times"]),  # type: ignore[arg-type]
            distances=frozenset(r["distances"]),  # type: ignore[arg-type]
            admin_names=frozenset(r["admin"]),  # type: ignore[arg-type]
            lines=lines,
            blocked=frozenset(r["blocked"]),  # type: ignore[arg-type]
        )
    if tool in C.TRANSPORT_TOOLS:
        mode = "flight" if tool == "search_flights" else "train"
        entries, times, prices, durations, names = _transport(text, mode)
        return TextFacts(
            tool,
            entity_names=frozenset(names),
            blocked=frozenset(names),
            transports=tuple(entries),
            times=frozenset(times),
            prices=frozenset(prices),
            durations=frozenset(durations),
            lines=lines,
        )
    if tool == "direction":
        r = _direction(text)
        return TextFacts(
            tool,
            distances=frozenset(r["distances"]),
            durations=frozenset(r["durations"]),
            prices=frozenset(r["prices"]),
            roads=frozenset(r["roads"]),
            lines=lines,
            blocked=frozenset(r["blocked"]),
        )
    if tool == "weather":
        w = _weather(text)
        return TextFacts(
            tool,
            conditions=frozenset(w["conditions"]),
            temps=frozenset(w["temps"]),
            wind=frozenset(w["wind"]),
            weather_days=tuple(w["days"]),
            lines=lines,
        )
    return TextFacts(tool, lines=lines)


def _city_ok(entry: PoiEntry, topic: frozenset[str]) -> bool:
    if not entry.city or not topic:
        return True
    city = resolve_name(entry.city)
    return city is None or city in topic


def extract_tool_facts(
    calls: list[ToolCallRecord], topic: frozenset[str] = frozenset(), trip: Trip | None = None
) -> ToolFacts:
    """Merge the cached per-text facts of every successful on-topic call.

    ``topic``: catalog names of the problem's cities; a call whose city arguments name another
    catalog city is off-topic (``config.OFF_TOPIC_CITY_ARGS``): it adds no facts and does not
    count as a called tool. An empty ``topic`` disables the rule.

    ``trip`` (scorer s2): the trajectory rules of :mod:`navworld.scoring.trajectory` decide which
    calls ground facts (pairing, topic, dates); POIs returned for another city are dropped; a
    tool counts as *relevant* only through calls a planner would make.
    """
    tf = ToolFacts()
    called, ok, off, relevant = set(), set(), set(), set()
    for call in calls:
        if trip is not None:
            status = classify(call, trip)
            tf.statuses.append((call.name, status))
            if status in (OFF_TOPIC, WRONG_DATE):
                off.add(call.name)
                if len(tf.off_topic) < 40:
                    named = call_cities(call.name, call.arguments, trip.topic) if call.arguments else ()
                    tf.off_topic.append(f"{call.name}({', '.join(named) or status})")
                continue
            if status in (DUPLICATE_ID, ORPHAN):
                if call.name:
                    called.add(call.name)
                continue
        elif topic and call.arguments:
            named = call_cities(call.name, call.arguments, topic)
            if any(c not in topic for c in named):
                off.add(call.name)
                tf.off_topic.append(f"{call.name}({', '.join(named)})")
                continue
        if call.name:
            called.add(call.name)
        if call.is_error or call.result is None:
            continue
        f = extract_text_facts(call.name, call.result)
        pois = f.pois
        poi_prices = f.prices
        if trip is not None and pois:
            kept = tuple(p for p in pois if _city_ok(p, trip.topic))
            if not kept:
                off.add(call.name)
                tf.off_topic.append(f"{call.name}(POIs of another city)")
                continue
            if len(kept) != len(pois):
                names = {p.name for p in kept}
                poi_prices = frozenset(x for x in f.prices if x[0] in names)
                pois = kept
        ok.add(call.name)
        if trip is not None and tf.statuses[-1][1] == OK:
            relevant.add(call.name)
        tf.n_ok += 1
        for t in f.transports:
            tf.transports.setdefault(t.id, t)
        for p in pois:
            tf.pois.setdefault(p.name, p)
            tf.poi_sources.setdefault(p.name, set()).add(call.name)
        tf.conditions |= f.conditions
        tf.temps |= f.temps
        tf.wind |= f.wind
        tf.distances |= f.distances
        tf.times |= f.times
        for key, value in poi_prices:
            tf.prices.setdefault(key, set()).add(value)
        tf.durations |= f.durations
        if call.name == "direction":
            tf.route_distances |= f.distances
            tf.route_durations |= f.durations
        tf.roads |= f.roads
        tf.admin_names |= f.admin_names
        tf.lines |= f.lines
        tf.entity_names |= f.entity_names
        tf.blocked |= f.blocked
        tf.texts.append(call.result)
        if call.name == "weather":
            tf.weather_call_days.update(f.weather_days)
        if call.name in C.TRANSPORT_TOOLS and call.arguments:
            tf.transport_dates.add(str(call.arguments.get("date", "")).strip())
        tf.weather_days.extend(d for d in f.weather_days if d not in tf.weather_days)
    tf.n_calls = len(calls)
    tf.called = frozenset(called)
    tf.succeeded = frozenset(ok)
    tf.failed_only = frozenset(called - ok)
    tf.off_topic_called = frozenset(off)
    tf.relevant = frozenset(relevant) if trip is not None else frozenset(ok)
    return tf

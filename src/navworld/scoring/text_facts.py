"""Per-text tool facts: what one tool result text says, read once and cached.

:func:`extract_text_facts` reads the exact text the model saw (POI blocks, flight/train lines,
route steps, forecast days) into a frozen :class:`~navworld.scoring.facts.TextFacts`; the LRU
cache is keyed by tool name and text, so scoring many answers against one trace (or the same
trace again) never re-extracts.
"""

from __future__ import annotations

from functools import lru_cache

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.fact_types import PoiEntry, TextFacts, TransportEntry
from navworld.scoring.names import (
    admin_prefixes,
    norm_power,
    norm_wind,
    poi_kind,
    poi_variant_parts,
    road_names,
    strip_code,
)
from navworld.scoring.scan import find_distances, find_durations, find_prices, find_times

__all__ = ["extract_text_facts"]


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
    pois, prices, times, dists, blocked, roads = [], set(), set(), set(), set(), set()
    for b in blocks:
        name = b["name"].strip()[:60]
        if not name or name in admin:
            continue
        address = b.get("address", "").strip()
        if len(address) >= 3:
            blocked.add(address[:60])
            # a road of a POI's address is a road the tools gave (an answer quoting the address names it)
            roads.update(r for r, _ in road_names(address[:60]))
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
        "roads": roads,
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
            address_roads=frozenset(r["roads"]),  # type: ignore[arg-type]
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



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

from navworld.scoring import config as C
from navworld.scoring.fact_types import PoiEntry, TextFacts, ToolFacts, TransportEntry
from navworld.scoring.names import admin_prefixes, norm_power, norm_wind, poi_variants, road_names
from navworld.scoring.scan import norm_time, parse_metres
from navworld.scoring.text_facts import extract_text_facts
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
            runs = tf.runs.setdefault(t.id, [])
            if t not in runs:
                runs.append(t)
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
        tf.address_roads |= f.address_roads
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

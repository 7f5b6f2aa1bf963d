"""Benchmark of the six tools on the sandbox world (in-process, rendering included).

Prints calls/s per tool after warm-up, first-use time of a city (POI generation + index), the
time of one flights+trains query with the timetables not cached (cold) and cached, and the RSS
with every catalog city loaded. Targets: ≥ 5,000 calls/s for poi_search, weather, flights and
trains; first use ≤ 50 ms; a cold flights+trains query ≤ 200 µs median; all cities ≤ 300 MB.

    python benchmarks/tools.py [--seconds 1.0] [--catalog DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

from navworld.tools.registry import call_tool
from navworld.world.catalog import CITIES_DIR, Catalog
from navworld.world.sandbox import SandboxWorld


def _rss_mb() -> float:
    """Current resident set size in MB (Linux /proc; falls back to the peak)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:  # pragma: no cover - non-Linux
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def _cases(world: SandboxWorld) -> dict[str, list[dict[str, Any]]]:
    cities = world.catalog.all_cities()
    names = [c.name for c in cities]
    a, b = (names[0], names[1]) if len(names) > 1 else (names[0], names[0])
    first = world.pois(a, "attraction")[0]
    loc = f"{first.location[0]:.6f},{first.location[1]:.6f}"
    second = world.pois(a, "restaurant")[0]
    dest = f"{second.location[0]:.6f},{second.location[1]:.6f}"
    pairs = [(x.name, y.name) for x in cities[:8] for y in cities[:8] if x.name != y.name]
    return {
        "poi_search": [{"address": kw, "region": a} for kw in (first.name, "博物馆", "火锅", "酒店", "景点")],
        "around_search": [{"location": loc, "radius": r, "keyword": k} for r, k in ((1000, "餐厅"), (3000, None), (5000, "酒店"))],
        "direction": [{"origin": loc, "destination": dest, "mode": m} for m in ("driving", "walking", "bicycling", "transit")],
        "weather": [{"city": n, "date": "2025-03-01"} for n in names[:10]],
        "search_flights": [{"date": "2025-03-01", "from_city": x, "to_city": y} for x, y in pairs if x != y][:20] or [
            {"date": "2025-03-01", "from_city": a, "to_city": b}],
        "search_train_tickets": [{"date": "2025-03-01", "from_city": x, "to_city": y} for x, y in pairs][:20] or [
            {"date": "2025-03-01", "from_city": a, "to_city": b}],
    }


async def _rate(world: SandboxWorld, name: str, cases: list[dict[str, Any]], seconds: float) -> tuple[float, float]:
    """Calls per wall-clock second and per CPU second (the latter is stable on a busy machine)."""
    for c in cases:  # warm-up: generation and caches
        await call_tool(name, c, world)
    n = 0
    start = time.perf_counter()
    cpu0 = time.process_time()
    while time.perf_counter() - start < seconds:
        for c in cases:
            await call_tool(name, c, world)
            n += 1
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu0
    return n / wall, n / max(cpu, 1e-9)


async def _transport_queries(world: SandboxWorld, pairs: list[tuple[str, str]], n: int, offset: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of ``n`` search_flights + search_train_tickets queries; each query uses
    a date no earlier query used, so its timetables are generated (not cached) unless ``offset``
    repeats an earlier run's dates."""
    import datetime as dt

    start = dt.date(2025, 1, 1)
    out = []
    for i in range(n):
        day = (start + dt.timedelta(days=(offset + i) // len(pairs))).isoformat()
        a, b = pairs[(offset + i) % len(pairs)]
        t0, c0 = time.perf_counter(), time.thread_time()
        await call_tool("search_flights", {"date": day, "from_city": a, "to_city": b}, world)
        await call_tool("search_train_tickets", {"date": day, "from_city": a, "to_city": b}, world)
        out.append((time.perf_counter() - t0, time.thread_time() - c0))
    return out


def _median_us(values: list[float]) -> float:
    return sorted(values)[len(values) // 2] * 1e6


def transport_figures(world: SandboxWorld, n: int = 2000) -> tuple[float, float, float, float]:
    """Median µs of a flights+trains query: (cold wall, cold CPU, cached wall, cached CPU)."""
    cities = world.catalog.all_cities()[:12]
    probe = SandboxWorld(salt="probe", catalog=world.catalog)
    pairs = [  # pairs with both flights and trains, so every query generates two timetables
        (x.name, y.name)
        for x in cities
        for y in cities
        if x.name != y.name and probe.flight_list("2024-12-31", x.name, y.name) and probe.train_list("2024-12-31", x.name, y.name)
    ]
    cold = asyncio.run(_transport_queries(world, pairs, n, 0))
    cached = asyncio.run(_transport_queries(world, pairs, n, 0))  # the same queries again
    return (
        _median_us([w for w, _ in cold]),
        _median_us([c for _, c in cold]),
        _median_us([w for w, _ in cached]),
        _median_us([c for _, c in cached]),
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, help="measuring time per tool")
    ap.add_argument("--catalog", type=Path, default=CITIES_DIR, help="city catalog directory")
    ns = ap.parse_args(argv)
    catalog = Catalog(ns.catalog)
    cities = catalog.all_cities()
    if not cities:
        print(f"no cities in {ns.catalog}", file=sys.stderr)
        return 1
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall-clock figures suffer on a busy machine)")
    rss0 = _rss_mb()
    world = SandboxWorld(salt="bench", catalog=catalog)

    # First use of a city: POI generation + search index (fresh city each time).
    firsts = []
    firsts_cpu = []
    for c in cities[: min(10, len(cities))]:
        t0 = time.perf_counter()
        c0 = time.process_time()
        world.city_pois(c.name)
        world.search_pois("景点", c.name)
        firsts.append((time.perf_counter() - t0) * 1000)
        firsts_cpu.append((time.process_time() - c0) * 1000)
    mid = len(firsts) // 2
    print(f"first use of a city: median {sorted(firsts)[mid]:.1f} ms, max {max(firsts):.1f} ms wall; "
          f"median {sorted(firsts_cpu)[mid]:.1f} ms, max {max(firsts_cpu):.1f} ms CPU "
          f"(over {len(firsts)} cities; target ≤ 50 ms)")

    cases = _cases(world)
    print(f"{'tool':<22}{'calls/s':>10}{'per CPU-s':>11}  target")
    for name, cs in cases.items():
        rate, cpu_rate = asyncio.run(_rate(world, name, cs, ns.seconds))
        target = "≥ 5000" if name in ("poi_search", "weather", "search_flights", "search_train_tickets") else "-"
        print(f"{name:<22}{rate:>10.0f}{cpu_rate:>11.0f}  {target}")

    cold_w, cold_c, hot_w, hot_c = transport_figures(SandboxWorld(salt="bench-transport", catalog=catalog))
    print(f"flights+trains query, timetables not cached: median {cold_w:.0f} µs wall, {cold_c:.0f} µs CPU "
          f"(target ≤ 200 µs); cached: median {hot_w:.0f} µs wall, {hot_c:.0f} µs CPU")

    t0 = time.perf_counter()
    for c in cities:
        world.city_pois(c.name)
    load_s = time.perf_counter() - t0
    print(f"all {len(cities)} cities loaded in {load_s * 1000:.0f} ms; RSS {_rss_mb():.0f} MB "
          f"(was {rss0:.0f} MB before the world; target ≤ 300 MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

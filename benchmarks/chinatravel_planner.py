"""Benchmark of the reference planner on ChinaTravel data: seconds per query, FPR under both profiles.

Without arguments it builds the synthetic database of the tests (ChinaTravel's exact file layout,
3 cities) in a temporary folder and plans the synthetic queries; with ``--db`` and ``--queries``
it runs on a real ChinaTravel database and query file. For every query: plan (search, tool calls
through the registry, answer) and time it, then verify the plan under navworld's profile and
under ChinaTravel's own (their columns, rules and programs). ChinaTravel's NeSy search is capped at
300 s per query; the target here is seconds.

    python benchmarks/chinatravel_planner.py [--db DIR --queries FILE | --scale 40] [--salt S] [--repeat N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from navworld.agents.reference import ReferencePlanner
from navworld.tasks.chinatravel import query_problems
from navworld.verify import verify_plan
from navworld.verify.chinatravel import aggregate, chinatravel_view, query_of, verify_chinatravel
from navworld.world import get_world


def main() -> None:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="a ChinaTravel database folder (default: the synthetic one)")
    ap.add_argument("--queries", help="a ChinaTravel query file (default: the synthetic queries)")
    ap.add_argument("--salt", default="bench")
    ap.add_argument("--repeat", type=int, default=3, help="plan every query this many times (min time is reported)")
    ap.add_argument("--scale", type=int, default=1, help="synthetic database: multiply the POIs (40 ≈ a real city)")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    if args.db and args.queries:
        db, queries = Path(args.db), Path(args.queries)
    else:
        from tests.chinatravel.synthetic_db import build_database, write_queries

        db = build_database(Path(tmp.name) / "database", scale=max(1, args.scale))
        queries = write_queries(Path(tmp.name) / "queries.json")
    t0 = time.perf_counter()
    world = get_world(f"chinatravel:{db}", args.salt)
    load = time.perf_counter() - t0
    problems, skipped = query_problems(queries, world, args.salt)
    pois = sum(len(world.pois(c)) for c in world.served_cities())
    print(f"database {db}: {len(world.served_cities())} cities, {pois} POIs loaded in {load:.2f} s; {len(problems)} queries"
          + (f" ({len(skipped)} skipped)" if skipped else ""))
    times: list[float] = []
    nw_pass = 0
    ct_scores = []
    for p in problems:
        best = float("inf")
        run = None
        for _ in range(max(1, args.repeat)):
            started = time.perf_counter()
            run = asyncio.run(ReferencePlanner().run(p, world, salt=args.salt))
            best = min(best, time.perf_counter() - started)
        assert run is not None
        times.append(best)
        nw = verify_plan(run.answer or None, p, world, run.trace)
        view, _ = chinatravel_view(run.answer, world, p.group_size, p.destination_city)
        ct = verify_chinatravel(view, query_of(p), world)
        ct_scores.append(ct)
        nw_pass += nw.final_pass
        print(f"  {p.extra['uid']}: {best:.3f} s  navworld {'pass' if nw.final_pass else 'FAIL'}  "
              f"chinatravel {'pass' if ct['final_pass'] else 'FAIL'}" + (f"  ({run.error})" if run.error else ""))
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    m = aggregate(ct_scores)
    print(f"planner seconds per query: median {statistics.median(times):.3f}, p95 {p95:.3f}, max {times[-1]:.3f}")
    print(f"FPR navworld profile {100 * nw_pass / len(problems):.1f} %, chinatravel profile {m['fpr']:.1f} % "
          f"(their micro EPR {m['epr_micro']:.1f}, C-LPR {m['c_lpr']}, TPC overall {m['tpc_overall']:.1f})")
    tmp.cleanup()


if __name__ == "__main__":
    main()

"""Throughput of the problem generator (``ProblemGenerator.generate``), in-process.

Prints problems per second for a cold pass (first use of every city and of each date's
timetables, i.e. sandbox POI and transport generation included) and for warm passes (the
per-city and per-(date, pair) facts cached; every problem is still drawn, finalized, compiled,
rendered and validated into a pydantic ``Problem``). Both wall-clock and CPU-time rates are
printed, so the figure stays meaningful on a busy machine. Target: ≥ 5,000 problems/s warm.

    python benchmarks/tasks.py [--tasks 5000] [--rounds 3] [--lang zh] [--salt bench]
"""

from __future__ import annotations

import argparse
import time

from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld


def _pass(gen: ProblemGenerator, ids: range, lang: str) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    for tid in ids:
        gen.generate(tid, lang)
    return time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", type=int, default=5000, help="task ids 0..N-1 per pass")
    ap.add_argument("--rounds", type=int, default=3, help="warm passes (the best is reported)")
    ap.add_argument("--lang", default="zh", choices=("zh", "en"))
    ap.add_argument("--salt", default="bench")
    ns = ap.parse_args(argv)
    ids = range(ns.tasks)
    gen = ProblemGenerator(SandboxWorld(salt=ns.salt))
    wall, cpu = _pass(gen, ids, ns.lang)
    print(f"cold   {ns.tasks} problems: {ns.tasks / wall:8.0f} problems/s wall, {ns.tasks / cpu:8.0f} /s CPU")
    best_wall = best_cpu = float("inf")
    for _ in range(max(1, ns.rounds)):
        wall, cpu = _pass(gen, ids, ns.lang)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    print(f"warm   {ns.tasks} problems: {ns.tasks / best_wall:8.0f} problems/s wall, {ns.tasks / best_cpu:8.0f} /s CPU")
    other = "en" if ns.lang == "zh" else "zh"
    wall, cpu = _pass(gen, ids, other)
    print(f"warm   {ns.tasks} problems ({other}): {ns.tasks / wall:8.0f} problems/s wall, {ns.tasks / cpu:8.0f} /s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

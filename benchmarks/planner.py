"""Benchmark of the reference planner, in-process, over a range of generated tasks.

For every task: generate the problem, run ``ReferencePlanner.run`` (plan, tool calls through the
registry, answer) and time it; then score the answer with ``TravelScorer`` (code path) and read
its plan verification. Prints the median and p95 seconds per task (the planner's wall time,
problem generation and scoring excluded), the FPR (share of tasks whose plan passes every
environment check and every constraint program), the hard-constraint failures and the mean
code score. Targets: median ≤ 0.3 s, p95 ≤ 1 s, FPR = 100 %, mean code score ≥ 45 / 50.

    python benchmarks/planner.py [--tasks 0:700] [--salt S] [--lang zh|en]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections import Counter

from navworld.agents.reference import ReferencePlanner
from navworld.scoring.scorer import TravelScorer
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld


def _range(text: str) -> range:
    a, _, b = text.partition(":")
    return range(int(a), int(b))


async def _main(tasks: range, salt: str, lang: str) -> int:
    world = SandboxWorld(salt)
    gen = ProblemGenerator(world)
    planner = ReferencePlanner()
    scorer = TravelScorer(salt=salt)
    seconds: list[float] = []
    codes: list[float] = []
    passed = 0
    errors: list[str] = []
    hard_fail: Counter[str] = Counter()
    for tid in tasks:
        problem = gen.generate(tid, lang=lang)
        started = time.perf_counter()
        run = await planner.run(problem, world, salt=salt)
        seconds.append(time.perf_counter() - started)
        if run.error:
            errors.append(f"{tid}: {run.error}")
            continue
        report = scorer.score(problem, run.trace, run.answer)
        data = report.to_dict()
        codes.append(float(data["code_score"]["subtotal"]))
        hard_fail.update(name for name, ok in data["hard_constraints"].items() if not ok)
        verification = data.get("plan_verification") or {}
        passed += bool(verification.get("final_pass"))
    n = len(tasks)
    p95 = statistics.quantiles(seconds, n=20)[-1] if len(seconds) > 1 else seconds[0]
    print(f"tasks {tasks.start}:{tasks.stop} ({n}), salt {salt}, lang {lang}")
    print(f"seconds per task: median {statistics.median(seconds):.3f}  p95 {p95:.3f}  max {max(seconds):.3f}  "
          f"(targets: median <= 0.3, p95 <= 1.0)")
    print(f"FPR {100.0 * passed / n:.1f} %  ({passed}/{n} plans pass every check and constraint)")
    print(f"mean code score {statistics.mean(codes) if codes else 0.0:.2f} / 50  (min {min(codes) if codes else 0.0:.2f})")
    print(f"hard-constraint failures: {dict(hard_fail) or 'none'}")
    if errors:
        print(f"planning errors ({len(errors)}):")
        for line in errors[:20]:
            print("  " + line)
    return 0 if passed == n and not errors else 1


def main() -> None:
    """Parse arguments and run the benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default="0:700", help="half-open range A:B (default 0:700)")
    ap.add_argument("--salt", default="bench", help="world salt (default: bench)")
    ap.add_argument("--lang", default="zh", choices=("zh", "en"))
    args = ap.parse_args()
    sys.exit(asyncio.run(_main(_range(args.tasks), args.salt, args.lang)))


if __name__ == "__main__":
    main()

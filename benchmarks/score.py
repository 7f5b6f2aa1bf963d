"""Benchmark: answers scored per second (one core, CPU time of this process).

Input: a real episode — the reference planner's tool calls on a hybrid task (≈ 30 tool results,
tens of kilobytes of tool text) and its ≈ 8,000-character answer with a JSON plan. Each iteration
scores a distinct answer (a counter line is appended), so nothing answer-side is cached.

* **cold**: every per-text cache of the scorer is cleared before each answer (tool-text facts,
  echo normalisation, POI name indexes, city resolution), as when each RL episode brings new
  tool results;
* **warm**: tool facts stay cached per result text (many answers against one trace).

Rows: scorer s2 with the plan factor (plan verification on), s2 without plan verification, and
the ``seed`` profile.

    python benchmarks/score.py [--seconds 3] [--task 2]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from navworld.agents.reference import ReferencePlanner
from navworld.scoring import answer_pois, echo, text_facts, topic, trajectory
from navworld.scoring.scorer import TravelScorer
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld

SALT = "bench"


def _clear_caches() -> None:
    for module in (text_facts, echo, answer_pois, topic, trajectory):
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


def _rate(scorer: TravelScorer, problem: object, trace: object, answer: str, seconds: float, cold: bool) -> float:
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        if cold:
            _clear_caches()
        scorer.score(problem, trace, f"{answer}\n（第{n}版）")  # type: ignore[arg-type]
        n += 1
    return n / (time.process_time() - start)


def main() -> None:
    """Print answers/second, cold and warm, for s2 with and without the plan factor and for seed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--task", type=int, default=2, help="task id (default 2, a hybrid trip)")
    args = ap.parse_args()
    world = SandboxWorld(SALT)
    problem = ProblemGenerator(world).generate(args.task)
    run = asyncio.run(ReferencePlanner().run(problem, world, salt=SALT))
    results = [m for m in run.trace if m["role"] == "tool"]
    chars = sum(len(m["content"]) for m in results)
    print(
        f"input: task {args.task} ({problem.problem_type}), {len(results)} tool results ({chars:,} chars), "
        f"answer {len(run.answer):,} chars"
    )
    rows = (
        ("s2 + plan factor", TravelScorer(salt=SALT)),
        ("s2, no plan verification", TravelScorer(salt=SALT, verify_plans=False)),
        ("seed profile", TravelScorer(salt=SALT, profile="seed", verify_plans=False)),
    )
    for label, scorer in rows:
        total = scorer.score(problem, run.trace, run.answer).total
        cold = _rate(scorer, problem, run.trace, run.answer, args.seconds, cold=True)
        warm = _rate(scorer, problem, run.trace, run.answer, args.seconds, cold=False)
        print(f"{label:28s} total {total:5.2f}   cold {cold:7.1f} answers/s   warm {warm:7.1f} answers/s")
    print("targets (2-core machine): s2 + plan ≥ 25/s cold; s2 without the plan part ≥ 30/s cold")


if __name__ == "__main__":
    main()

"""Print the attack table on today's scorer: attack × problem type → code-only score (min–max over
the tasks) next to the honest reference score, plus the step-reward episodes.

Run from the repository root::

    python -m tests.scoring.attacks.report            # tasks 0..20 (3 per type)
    python -m tests.scoring.attacks.report --tasks 0:70 --markdown

Scores are ``TravelScorer(salt=SALT).score(problem, trace, answer).total`` (code only, 0–50).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict

from navworld.core.problem import PROBLEM_TYPES
from navworld.scoring.scorer import TravelScorer

from .attacks import ATTACKS, NotApplicable, build
from .context import SALT, TASKS, honest_total, task_context
from .further import FURTHER
from .judge_attacks import JUDGE_ATTACKS, judge_leaks
from .steps import STEP_ATTACKS, step_rewards


def _span(values: list[float]) -> str:
    if not values:
        return "n/a"
    lo, hi = min(values), max(values)
    return f"{lo:.1f}" if abs(hi - lo) < 0.05 else f"{lo:.1f}–{hi:.1f}"


def _tasks(spec: str | None) -> tuple[int, ...]:
    if not spec:
        return TASKS
    a, _, b = spec.partition(":")
    return tuple(range(int(a), int(b))) if b else tuple(int(x) for x in spec.split(","))


def main(argv: list[str] | None = None) -> int:
    """Print the tables (plain text, or Markdown with ``--markdown``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", help="A:B or a comma list (default 0:21)")
    ap.add_argument("--markdown", action="store_true", help="print Markdown tables")
    ap.add_argument("--only", help="comma list of attack names")
    args = ap.parse_args(argv)
    tasks = _tasks(args.tasks)
    names = args.only.split(",") if args.only else list(ATTACKS)
    scorer = TravelScorer(salt=SALT)
    started = time.perf_counter()
    types = list(PROBLEM_TYPES)
    honest: dict[str, list[float]] = defaultdict(list)
    ratio_worst: dict[str, float] = {}
    table: dict[str, dict[str, list[float]]] = {n: defaultdict(list) for n in names}
    for tid in tasks:
        ctx = task_context(tid)
        h = honest_total(tid)
        honest[ctx.ptype].append(h)
        for name in names:
            try:
                trace, answer = build(name, ctx)
            except NotApplicable:
                continue
            total = scorer.score(ctx.problem, trace, answer).total
            table[name][ctx.ptype].append(total)
            ratio_worst[name] = max(ratio_worst.get(name, 0.0), total / h if h else 0.0)
    sep = " | " if args.markdown else "  "
    head = ["attack", *types, "worst/honest"]
    rows = [
        ["**honest reference**" if args.markdown else "HONEST", *(_span(honest[t]) for t in types), "1.00"]
    ]
    for name in names:
        rows.append(
            [
                f"`{name}`" if args.markdown else name,
                *(_span(table[name][t]) for t in types),
                f"{ratio_worst.get(name, 0.0):.2f}",
            ]
        )
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    def emit(cells: list[str]) -> None:
        line = sep.join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
        print(f"| {line} |" if args.markdown else line)

    emit(head)
    if args.markdown:
        print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        emit(r)
    print()
    print(
        f"code-only totals (0–50), salt {SALT}, tasks {tasks[0]}..{tasks[-1]} ({len(tasks)}); "
        f"{time.perf_counter() - started:.1f}s"
    )
    print()
    few = tasks[:7]
    print(
        f"step rewards through Actor.step (tasks {', '.join(map(str, few))}): episode sum and mean per step, min–max"
    )
    for name in ["honest", *STEP_ATTACKS]:
        sums: list[float] = []
        means: list[float] = []
        for tid in few:
            rewards = step_rewards(name, task_context(tid))
            sums.append(sum(rewards))
            means.append(sum(rewards) / len(rewards) if rewards else 0.0)
        print(f"  {name:<22} sum {_span(sums):<12} mean/step {_span(means)}")
    print()
    print(f"judge prompt: injected text that reaches it (tasks {', '.join(map(str, few))}):")
    for name in JUDGE_ATTACKS:
        found = {tid: judge_leaks(name, task_context(tid)) for tid in few}
        hit = [tid for tid, leaks in found.items() if leaks]
        example = "; ".join(found[hit[0]]) if hit else ""
        print(f"  {name:<24} {len(hit)}/{len(few)} tasks" + (f", e.g. T{hit[0]}: {example}" if hit else ""))
    print()
    print("further hacks (README):")
    local = [t for t in few if not task_context(t).problem.origin_city][:1]
    transport = [t for t in few if task_context(t).problem.origin_city][:1]
    for name, measure in FURTHER.items():
        for tid in local + transport:
            print(f"  {name:<30} T{tid}: {measure(task_context(tid))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

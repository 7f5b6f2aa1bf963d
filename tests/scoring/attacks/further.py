"""Measurements behind the README's "further hacks" (rules outside the issue's table).

Each function measures one weakness on one task and returns a short printable figure; the
report prints them (``python -m tests.scoring.attacks.report``). None of them is asserted:
they are findings for scorer s2 to weigh, not a contract.
"""

from __future__ import annotations

from typing import Any

from navworld.agents.messages import assistant_message
from navworld.scoring.scorer import TravelScorer
from navworld.scoring.summary import _subtotals

from .attacks import build
from .context import TaskContext, honest_total
from .writers import join_plan, split_plan

__all__ = ["FURTHER", "diluted_transport_fabrication", "subtotal_coverage", "vacuous_plan_checks"]


def _score(ctx: TaskContext, answer: str) -> Any:
    trace = [*ctx.honest_trace[:-1], assistant_message(answer)]
    return TravelScorer(salt=ctx.salt).score(ctx.problem, trace, answer)


def diluted_transport_fabrication(ctx: TaskContext) -> str:
    """A fabricated fare and departure (``1元``, ``03:00``) for every flight/train the plan books,
    written after its ID: on the same line they are claims, but the answer's many verified
    option lines keep the fabrication ratio under 0.2 (``hard.transport_grounded``) and 0.1
    (``fabrication.fabrication_penalty``); on the next line they are not claims at all."""
    if not ctx.problem.origin_city:
        return "n/a (no intercity transport)"
    prose, plan, after = split_plan(ctx.honest_answer)
    ids = [a.get("FlightID") or a.get("TrainID") for d in plan["itinerary"] for a in d["activities"]]
    ids = [i for i in ids if i]
    out = []
    for sep in ("", "\n"):
        lines = "\n".join(f"特别提醒：{i}{sep}实际票价仅 1元，03:00 出发。" for i in ids)
        r = _score(ctx, join_plan(f"{prose.rstrip()}\n{lines}\n\n", plan, after))
        detail = r.constraints["details"]["transport_grounded"]
        where = "same line" if not sep else "next line"
        out.append(f"{where}: {r.total:.1f} ({detail['fabricated']}/{detail['claims']} claims unverified)")
    return f"honest {honest_total(ctx.task_id):.1f}; " + "; ".join(out)


def subtotal_coverage(ctx: TaskContext) -> str:
    """Share of whole amounts 1–3000 元 the judge summary marks ``✓合计`` (a sum of two tool
    prices or a multiple of one, ``summary._subtotals``): a made-up amount is "verified" that often."""
    scorer = TravelScorer(salt=ctx.salt)
    sums = _subtotals(scorer._judge_context(scorer.analyse(ctx.problem, ctx.honest_trace, ctx.honest_answer)))
    whole = {round(x) for x in sums if abs(x - round(x)) < 1e-9}
    return f"{sum(1 for v in range(1, 3001) if v in whole) / 3000:.0%} of 1–3000 元"


def vacuous_plan_checks(ctx: TaskContext) -> str:
    """Environment checks passed by an empty itinerary and by a plan without its core activities:
    most checks pass vacuously, so a pass *rate* over checks rewards planning less."""
    out = []
    for name in ("plan_empty_itinerary", "plan_core_removed"):
        trace, answer = build(name, ctx)
        pv = TravelScorer(salt=ctx.salt).score(ctx.problem, trace, answer).plan_verification or {}
        checks = pv.get("env", {}).get("checks", {})
        logic = pv.get("logic", {}).get("results", [])
        out.append(
            f"{name}: env {sum(checks.values())}/{len(checks)}, logic {sum(map(bool, logic))}/{len(logic)}"
        )
    return "; ".join(out)


FURTHER = {
    "diluted_transport_fabrication": diluted_transport_fabrication,
    "subtotal_coverage": subtotal_coverage,
    "vacuous_plan_checks": vacuous_plan_checks,
}

"""The total (seed §3.1, §3.6.5–§3.7): defense-in-depth, code score, coupling, monotonicity, HCs, path.

::

    if judged and fg < 4:  m = 0.3 + 0.7·fg/4;  c = min(local_fab, m);  IC, Comp ×= c / local_fab
    code_total   = clamp(50·sqrt(IC/25 · Comp/25)·diversity + fabrication, 0, 50)
    llm_adjusted = llm_raw · min(1, code_total / 30)
    code_coupled = code_total · (0.7 + 0.3·min(1, llm_raw / 20))     (judged only)
    base         = max(code_coupled + llm_adjusted, 0.5·(code_total + llm_raw))
    total        = base · Π(multipliers of failed hard constraints) · plan_factor · faith_factor (s2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from navworld.scoring import config as C

__all__ = ["TotalResult", "code_total", "combine", "scoring_path"]


@dataclass(frozen=True, slots=True)
class TotalResult:
    """Every intermediate of the total."""

    total: float
    ic: float
    comp: float
    code_total: float
    code_coupled: float
    llm_raw: float
    llm_adjusted: float
    base: float
    hc_multiplier: float
    defense_multiplier: float
    plan_factor: float = 1.0


def code_total(ic: float, comp: float, diversity: float, fabrication: float) -> float:
    """``clamp(50·sqrt(IC/25·Comp/25)·diversity + fabrication, 0, 50)``."""
    ic_r = max(0.0, ic) / C.INFO_CONSISTENCY_MAX
    comp_r = max(0.0, comp) / C.COMPLETENESS_MAX
    geo = C.TOTAL_CODE_SCORE * math.sqrt(ic_r * comp_r)
    return min(C.TOTAL_CODE_SCORE, max(0.0, geo * diversity + fabrication))


def combine(
    ic: float,
    comp: float,
    diversity: float,
    fabrication: float,
    local_fab: float,
    hc_multipliers: dict[str, float],
    llm_scores: dict[str, float] | None,
    plan_factor: float = 1.0,
    faith_factor: float = 1.0,
) -> TotalResult:
    """Assemble the total; ``llm_scores`` is ``None`` when no judge result is available.

    ``plan_factor`` (scorer s2, :mod:`navworld.scoring.plan_score`) and ``faith_factor``
    (:mod:`navworld.scoring.faithful` times :func:`navworld.scoring.echo.echo_total_factor`)
    multiply the total like hard constraints; the ``seed`` profile passes 1.0 for both."""
    judged = llm_scores is not None
    defense = 1.0
    if judged and llm_scores is not None:
        fg = llm_scores.get("factual_grounding", 10.0)
        if fg < C.FG_DEFENSE_THRESHOLD:
            llm_mult = C.FG_DEFENSE_BASE + C.FG_DEFENSE_SLOPE * (fg / C.FG_DEFENSE_THRESHOLD)
            combined = min(local_fab, llm_mult)
            if combined < local_fab and local_fab > 0:
                defense = combined / local_fab
                ic *= defense
                comp *= defense
    ct = code_total(ic, comp, diversity, fabrication)
    llm_raw = min(C.TOTAL_LLM_SCORE, sum(llm_scores.values())) if llm_scores else 0.0
    code_ratio = min(1.0, ct / (C.TOTAL_CODE_SCORE * C.LLM_CODE_RATIO_FACTOR))
    llm_adjusted = llm_raw * code_ratio
    if judged:
        llm_ratio = min(1.0, llm_raw / (C.TOTAL_LLM_SCORE * C.CODE_LLM_RATIO_FACTOR))
        coupled = ct * (C.CODE_COUPLING_BASE + C.CODE_COUPLING_SLOPE * llm_ratio)
    else:
        coupled = ct
    base = max(coupled + llm_adjusted, C.MONOTONICITY_FLOOR * (ct + llm_raw))
    hc = 1.0
    for m in hc_multipliers.values():
        hc *= m
    total = round(min(100.0, max(0.0, base * hc * plan_factor * faith_factor)), 2)
    return TotalResult(
        total,
        round(ic, 4),
        round(comp, 4),
        round(ct, 4),
        round(coupled, 4),
        round(llm_raw, 4),
        round(llm_adjusted, 4),
        round(base, 4),
        round(hc, 6),
        round(defense, 4),
        round(plan_factor, 4),
    )


def scoring_path(
    problem_type: str, tool_info_used: bool, format_ok: bool, judged: bool, judge_configured: bool
) -> str:
    """P1 / P1b / P2 / P3 / P4 / P5 (seed §3.7), the first that applies."""
    if not tool_info_used:
        return "P1" if problem_type in C.TRANSPORT_PROBLEM_TYPES else "P1b"
    if not format_ok:
        return "P2"
    if judged:
        return "P3"
    return "P4" if judge_configured else "P5"

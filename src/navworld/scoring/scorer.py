"""``TravelScorer``: the NAVWORLD scorer (seed §3), code path and judge path.

``score()`` is synchronous and code-only (P4/P5 when no judge result); ``score_async()`` adds
the LLM judge when one is configured. Execution order follows seed §3.1: parse → hard
constraints → tool quality → IC → completeness → tool_info_used (IC only) → fabrication →
judge → defense-in-depth → total. Scoring never raises: an internal error yields a zero report
with ``error`` set (and is logged, since it is a bug).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from navworld.core.problem import Problem
from navworld.core.score import CodeScore, LlmScore, ScoreReport
from navworld.core.seeding import current_salt
from navworld.core.versions import SCORER_VERSION
from navworld.scoring import config as C
from navworld.scoring import hard
from navworld.scoring import patterns as P
from navworld.scoring.answer_facts import AnswerFacts, extract_answer_facts
from navworld.scoring.completeness import completeness, request_targets
from navworld.scoring.consistency import ICResult, info_consistency
from navworld.scoring.echo import echo_total_factor
from navworld.scoring.fabrication import fabrication_penalty, local_fab_multiplier
from navworld.scoring.facts import ToolFacts, extract_tool_facts
from navworld.scoring.faithful import faithfulness
from navworld.scoring.judge import JudgeResult, LLMJudge
from navworld.scoring.judge_prompt import JudgeContext
from navworld.scoring.parser import ParsedAnswer, parse_answer
from navworld.scoring.plan_score import PlanAssessment, assess_plan, verify_answer_plan
from navworld.scoring.profile import PROFILES, ScoringProfile, get_profile
from navworld.scoring.scan import cjk_times, find_times
from navworld.scoring.topic import topic_cities
from navworld.scoring.total import combine, scoring_path
from navworld.scoring.trace import read_trace
from navworld.scoring.trajectory import read_strict, trip_of
from navworld.scoring.usage import date_coverage, tools_used

__all__ = ["Analysis", "TravelScorer"]

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class Analysis:
    """Everything the code path computes before the judge."""

    problem: Problem
    salt: str
    pa: ParsedAnswer
    tf: ToolFacts
    af: AnswerFacts
    required: tuple[str, ...]
    checks: dict[str, hard.Check]
    ic: ICResult
    ic_adjusted: float
    comp: float
    comp_subs: dict[str, float]
    echo_mult: float
    local_fab: float
    fabrication: float
    fabrication_detail: dict[str, Any]
    diversity: float
    plan_verification: dict[str, Any] | None
    profile: ScoringProfile = PROFILES["s2"]
    plan: PlanAssessment | None = None
    trajectory: dict[str, Any] = field(default_factory=dict)
    faith: tuple[float, dict[str, Any]] = (1.0, {})
    echo: tuple[float, float] = (0.0, 1.0)
    """``(share, factor on the total)`` (s2; the seed keeps echo inside completeness)."""


def _other_plans(pa: ParsedAnswer) -> list[str]:
    """The fenced JSON plans of the answer other than the one read, distinct by content (at most
    ``MAX_OTHER_PLANS``)."""
    if pa.json_span is None:
        return []
    seen = {_plan_key(pa.plan)}
    out: list[str] = []
    for m in P.JSON_FENCE.finditer(pa.raw):
        if (m.start(), m.end()) == pa.json_span:
            continue
        try:
            obj = json.loads(m.group(1))
        except (ValueError, RecursionError):
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("itinerary"), list):
            continue
        key = _plan_key(obj)
        if key not in seen:
            seen.add(key)
            out.append(m.group(0))
            if len(out) >= C.MAX_OTHER_PLANS:
                break
    return out


def _plan_key(plan: object) -> str:
    return json.dumps(plan, sort_keys=True, ensure_ascii=False, default=str)


def _blank_spans(text: str, span: tuple[int, int] | None) -> str:
    """``text`` without any fenced JSON block (the prose the plans share)."""
    return P.JSON_FENCE.sub("", text) if span is not None else text


@lru_cache(maxsize=1024)
def _times_of(text: str) -> frozenset[str]:
    return frozenset(t for t, _ in find_times(text)) | frozenset(t for t, _ in cjk_times(text))


def _request_times(problem: Problem) -> frozenset[str]:
    """The times the request itself states (deadlines such as ``15:00前到达``)."""
    return _times_of(f"{problem.prompt}\n{problem.arrival_constraint or ''}")


def _request_amounts(problem: Problem) -> frozenset[float]:
    """The amounts the request itself states (its budget, in total and per person)."""
    budget = float(problem.budget or 0)
    if budget <= 0:
        return frozenset()
    return frozenset({round(budget, 2), round(budget / max(1, problem.group_size), 2)})


def _problem(problem: Problem | dict[str, Any]) -> Problem:
    return problem if isinstance(problem, Problem) else Problem.model_validate(problem)


class TravelScorer:
    """Score answers to NAVWORLD problems.

    ``judge``: an :class:`~navworld.scoring.judge.LLMJudge` (or ``None`` for code-only scoring);
    ``salt``: the epoch salt (rubric randomisation, safe-dict noise, plan verification world);
    ``verify_plans``: also run the plans/DSL verification when the package is available;
    ``profile``: ``"s2"`` (default, :mod:`navworld.scoring.profile`) or ``"seed"`` (NAVWORLD's formula);
    ``world``: the world plans are verified against (default: the sandbox on ``salt``).
    """

    def __init__(
        self,
        judge: LLMJudge | None = None,
        salt: str | int | None = None,
        verify_plans: bool = True,
        profile: str | ScoringProfile | None = None,
        world: Any = None,
    ) -> None:
        self.judge = judge
        self.salt = salt
        self.verify_plans = verify_plans
        self.profile = get_profile(profile)
        self.world = world

    # ------------------------------------------------------------------ public API

    def score(self, problem: Problem | dict[str, Any], trace: object, answer: object) -> ScoreReport:
        """Code-only score (never raises)."""
        try:
            a = self.analyse(problem, trace, answer)
            note = "judge not run: synchronous scoring" if self.judge is not None else "no judge configured"
            return self._assemble(a, None, note)
        except Exception as exc:  # a scorer exception is a bug: log it, never crash the caller
            logger.exception("scorer failure")
            return self._failure(problem, exc)

    async def score_async(
        self, problem: Problem | dict[str, Any], trace: object, answer: object
    ) -> ScoreReport:
        """Code score plus the LLM judge when configured and the path allows it (never raises)."""
        try:
            a = self.analyse(problem, trace, answer)
        except Exception as exc:
            logger.exception("scorer failure")
            return self._failure(problem, exc)
        if self.judge is None:
            return self._assemble(a, None, "no judge configured")
        if not a.checks["tool_info_used"].passed:
            return self._assemble(a, None, "judge skipped: tool_info_used failed")
        if not a.pa.text.strip():
            return self._assemble(a, None, "judge skipped: empty answer")
        try:
            result = await self.judge.evaluate(self._judge_context(a))
        except Exception as exc:
            logger.warning("judge failure: %s", type(exc).__name__)
            result = JudgeResult(success=False, error=f"judge error: {type(exc).__name__}")
        try:
            return self._assemble(a, result, None)
        except Exception as exc:
            logger.exception("scorer failure")
            return self._failure(problem, exc)

    # ------------------------------------------------------------------ code path

    def analyse(self, problem: Problem | dict[str, Any], trace: object, answer: object) -> Analysis:
        """Run the code path (no judge)."""
        prob = _problem(problem)
        salt = current_salt(self.salt)
        prof = self.profile
        topic = topic_cities(prob.origin_city, prob.destination_city)
        trip = trip_of(prob) if prof.trajectory else None
        notes: list[str] = []
        if prof.trajectory:
            calls, notes = read_strict(trace)
        else:
            calls = read_trace(trace)
        tf = extract_tool_facts(calls, topic, trip)
        tf.admin_names |= {c for c in (prob.origin_city, prob.destination_city) if c}
        pa = parse_answer(answer, blank_json=prof.trajectory)
        af = extract_answer_facts(
            pa, tf, prob.group_size, max(1, prob.num_days - 1), prof.trajectory, _request_times(prob),
            _request_amounts(prob),
        )
        ptype = prob.problem_type
        required = hard.required_tools(ptype, prob.required_tools, (prob.hard_logic or ()) if prof.trajectory else ())
        used = tools_used(tf, af, pa) if prof.trajectory else None
        checks = {
            "format_valid": hard.format_valid(ptype, pa, af),
            "required_tools_called": hard.required_tools_called(ptype, required, tf, used),
            "poi_names_verified": hard.poi_names_verified(tf, af),
            "transport_grounded": hard.transport_grounded(ptype, tf, af, prob.group_size),
            "tool_quality": hard.tool_quality(required, calls, tf, used),
        }
        minimum = {"flights": C.TRANSPORT_MIN_MATCHES, "trains": C.TRANSPORT_MIN_MATCHES} if prof.request_targets else None
        ic = info_consistency(tf, af, pa.text, minimum, strict=prof.trajectory)
        targets = request_targets(prob) if prof.request_targets else None
        comp, subs, echo, echo_share = completeness(
            ptype, prob.num_days, required, pa, tf, af, targets, prof.normalised_echo,
            C.S2_COMPLETENESS_SOURCES.get(ptype, {}) if prof.request_targets else None,
        )
        checks["tool_info_used"] = hard.tool_info_used(ptype, ic.score, not tf.is_empty())
        local_fab, _ = local_fab_multiplier(ptype, tf, af)
        ic_adj = ic.score * local_fab
        fab, fab_detail = fabrication_penalty(
            pa.text, tf, af, ic_adj, checks["transport_grounded"].detail, prob.group_size, prob.num_days
        )
        diversity = hard.diversity_multiplier(ptype, required, tf, used)
        trajectory: dict[str, Any] = {}
        if trip is not None:
            coverage, cov_detail = date_coverage(tf, trip, required)
            diversity = round(diversity * coverage, 4)
            counts: dict[str, int] = {}
            for _, status in tf.statuses:
                counts[status] = counts.get(status, 0) + 1
            trajectory = {"statuses": counts, "notes": notes[:10], "used_tools": sorted(used or ()), **cov_detail}
        pv, assessment = self._plan(pa, prob, trace, tf, af, salt)
        faith = (
            faithfulness(
                tf,
                af,
                checks["transport_grounded"].detail,
                max(2, prob.group_size * max(1, prob.num_days)),
                pa.json_span[0] if pa.json_span else -1,
            )
            if prof.trajectory
            else (1.0, {})
        )
        return Analysis(
            prob, salt, pa, tf, af, required, checks, ic, ic_adj, comp, subs, echo, local_fab, fab, fab_detail,
            diversity, pv, prof, assessment, trajectory, faith,
            (echo_share, echo_total_factor(echo_share) if prof.plan_gate else 1.0),
        )

    def _plan(
        self, pa: ParsedAnswer, prob: Problem, trace: object, tf: ToolFacts, af: AnswerFacts, salt: str
    ) -> tuple[dict[str, Any] | None, PlanAssessment | None]:
        if not self.verify_plans:
            return None, None
        if not self.profile.plan_gate:
            if not pa.has_plan:
                return None, None
            return verify_answer_plan(pa.raw, prob, trace, salt, self.world)[1], None
        grounding = [{"role": "tool", "content": t} for t in tf.texts]
        plan, pv = verify_answer_plan(pa.raw, prob, grounding, salt, self.world)
        prose_pois = af.pois
        if pa.json_span is not None:
            lo, hi = pa.json_span
            prose_pois = {n: [p for p in ps if not lo <= p < hi] for n, ps in af.pois.items()}
            prose_pois = {n: ps for n, ps in prose_pois.items() if ps}
        lo = pa.json_span[0] if pa.json_span is not None else len(pa.text)
        ids = [(i, p) for i, p in af.flights + af.trains if p < lo]
        assessment = assess_plan(plan, pv, prob, pa, tf, prose_pois, ids)
        others = _other_plans(pa)
        for block in others:
            # the prompt asks for one plan: an answer hedging across several is read by its worst
            variant = _blank_spans(pa.raw, pa.json_span) + "\n" + block
            pa_v = parse_answer(variant, blank_json=True)
            plan_v, pv_v = verify_answer_plan(variant, prob, grounding, salt, self.world)
            other = assess_plan(plan_v, pv_v, prob, pa_v, tf, prose_pois, ids)
            if other.factor < assessment.factor:
                pv, assessment = pv_v, other
        if others:
            assessment.detail["plans_in_answer"] = len(others) + 1
        return pv, assessment

    def _judge_context(self, a: Analysis) -> JudgeContext:
        plan = dict(a.plan.detail) if a.plan is not None else None
        total = plan.get("total_cost") if plan else None
        return JudgeContext(
            a.problem, a.salt, a.pa, a.tf, a.af, a.checks, a.profile.verified_summary, plan,
            float(total) if isinstance(total, int | float) else None,
        )

    # ------------------------------------------------------------------ assembly

    def _assemble(self, a: Analysis, judged: JudgeResult | None, note: str | None) -> ScoreReport:
        ok = judged is not None and judged.success
        scores = dict(judged.scores) if ok and judged is not None else None
        mults = {name: c.multiplier for name, c in a.checks.items() if not c.passed}
        plan_factor = a.plan.factor if a.plan is not None else 1.0
        t = combine(
            a.ic_adjusted, a.comp, a.diversity, a.fabrication, a.local_fab, mults, scores, plan_factor,
            a.faith[0] * a.echo[1],
        )
        ptype = a.problem.problem_type
        path = scoring_path(
            ptype,
            a.checks["tool_info_used"].passed,
            a.checks["format_valid"].passed,
            ok,
            self.judge is not None and self.judge.has_credentials,
        )
        code = CodeScore(
            info_consistency=t.ic,
            completeness=t.comp,
            fabrication_penalty=a.fabrication,
            subtotal=t.code_total,
            coupled_subtotal=t.code_coupled,
            ic_categories=a.ic.categories,
            comp_subscores=a.comp_subs,
            diversity_mult=a.diversity,
            echo_mult=a.echo_mult,
            local_fab_mult=a.local_fab,
            defense_mult=t.defense_multiplier,
            ic_before_adjustments=round(a.ic.score, 4),
            fabrication=a.fabrication_detail,
            plan_factor=t.plan_factor,
        )
        llm = LlmScore()
        if ok and scores is not None and judged is not None:
            llm = LlmScore(
                **{d: round(scores.get(d, 0.0), 2) for d in C.LLM_DIMENSIONS},
                subtotal=t.llm_raw,
                coupled_subtotal=t.llm_adjusted,
                reasons=dict(judged.reasons),
            )
        error = note if not ok else None
        if judged is not None and not judged.success:
            error = judged.error or "judge failed"
        return ScoreReport(
            total=t.total,
            task_id=a.problem.task_id,
            problem_type=ptype,
            salt=a.salt,
            scorer_version=SCORER_VERSION,
            scoring_profile=a.profile.name,
            code_score=code,
            llm_score=llm,
            hard_constraints={name: c.passed for name, c in a.checks.items()},
            constraints={
                "hc_multiplier": t.hc_multiplier,
                "failed": sorted(mults),
                "multipliers": {k: round(v, 4) for k, v in mults.items()},
                "details": {name: c.detail for name, c in a.checks.items()},
                "required_tools": list(a.required),
                "ic_reason": a.ic.reason,
                "off_topic_calls": list(a.tf.off_topic[:20]),
                "plan_factor": t.plan_factor,
                "faithfulness": {"factor": a.faith[0], **a.faith[1]},
                "echo": {"share": a.echo[0], "factor": a.echo[1]},
                "plan": dict(a.plan.detail) if a.plan is not None else {},
                "trajectory": a.trajectory,
            },
            parse_success=a.pa.parse_success,
            llm_validation_success=ok,
            llm_error=error,
            judge=judged.info() if judged is not None else {},
            path=path,
            plan_verification=a.plan_verification,
        )

    def _failure(self, problem: object, exc: BaseException) -> ScoreReport:
        task_id = getattr(problem, "task_id", None)
        ptype = getattr(problem, "problem_type", "")
        return ScoreReport(
            total=0.0,
            task_id=task_id if isinstance(task_id, int) else None,
            problem_type=ptype if isinstance(ptype, str) else "",
            salt=current_salt(self.salt),
            scorer_version=SCORER_VERSION,
            scoring_profile=self.profile.name,
            error=f"scorer error: {type(exc).__name__}: {str(exc)[:200]}",
        )

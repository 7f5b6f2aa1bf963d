"""``verify_plan``: environment checks, logical constraints and preferences of one plan."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from navworld.core.errors import DSLError, PlanParseError
from navworld.core.plan import Plan
from navworld.core.problem import Problem
from navworld.dsl import DSLContext, WorldView, evaluate_constraint, evaluate_preference, lookup_for, validate
from navworld.verify.checks import CHECK_NAMES, run_checks
from navworld.verify.context import CheckContext, trace_tool_text
from navworld.verify.plan_parse import extract_plan, parse_plan

__all__ = ["NOT_DELIVERED", "Verification", "verify_plan"]

log = logging.getLogger(__name__)

NOT_DELIVERED = "no plan delivered"
SKIPPED_GROUNDING = "not checked: no trace given"


@dataclass
class Verification:
    """The outcome of verifying one plan against one problem.

    A plan that was not delivered (missing or unparsable) fails every check and every program.
    """

    delivered: bool
    env_checks: dict[str, bool]
    logic_results: list[bool | None]
    logic_errors: list[str | None]
    preferences: dict[str, float | None] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    skipped: tuple[str, ...] = ()
    preference_errors: dict[str, str] = field(default_factory=dict)
    violations: dict[str, int] = field(default_factory=dict)
    """Number of violations of each failed check (how much of the plan it affects)."""

    @property
    def env_passed(self) -> bool:
        """Whether the plan was delivered and passed every environment check."""
        return self.delivered and all(self.env_checks.get(name, False) for name in CHECK_NAMES)

    @property
    def logic_passed(self) -> bool:
        """Whether the plan was delivered and satisfied every constraint program."""
        return self.delivered and all(r is True for r in self.logic_results)

    @property
    def final_pass(self) -> bool:
        """Delivered, environment-valid and satisfying every constraint (ChinaTravel's FPR event)."""
        return self.env_passed and self.logic_passed

    @property
    def failed_checks(self) -> list[str]:
        """Names of the failed environment checks, in report order."""
        return [name for name in CHECK_NAMES if not self.env_checks.get(name, False)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``navworld verify --json`` (docs/verification.md)."""
        return {
            "delivered": self.delivered,
            "env": {"passed": self.env_passed, "checks": dict(self.env_checks)},
            "logic": {"passed": self.logic_passed, "results": list(self.logic_results), "errors": list(self.logic_errors)},
            "preferences": dict(self.preferences),
            "final_pass": self.final_pass,
            "reasons": dict(self.reasons),
            "violations": dict(self.violations),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verification:
        """Rebuild from :meth:`to_dict` output (e.g. a stored result row)."""
        env = data.get("env") or {}
        logic = data.get("logic") or {}
        return cls(
            delivered=bool(data.get("delivered")),
            env_checks={str(k): bool(v) for k, v in (env.get("checks") or {}).items()},
            logic_results=list(logic.get("results") or []),
            logic_errors=list(logic.get("errors") or []),
            preferences=dict(data.get("preferences") or {}),
            reasons=dict(data.get("reasons") or {}),
            violations={str(k): int(v) for k, v in (data.get("violations") or {}).items() if isinstance(v, int)},
        )

    @classmethod
    def not_delivered(cls, problem: Problem, reason: str) -> Verification:
        """The verification of a missing or unparsable plan: everything fails."""
        n = len(problem.hard_logic)
        return cls(
            delivered=False,
            env_checks=dict.fromkeys(CHECK_NAMES, False),
            logic_results=[False] * n,
            logic_errors=[NOT_DELIVERED] * n,
            preferences={_pref_name(src, i, {}): None for i, src in enumerate(problem.preferences)},
            reasons={"delivered": reason},
        )


def _pref_name(source: str, index: int, taken: dict[str, Any]) -> str:
    try:
        name = validate(source).objective or f"preference_{index + 1}"
    except DSLError:
        name = f"preference_{index + 1}"
    base, k = name, 2
    while name in taken:
        name = f"{base}_{k}"
        k += 1
    return name


def _coerce_plan(plan: Plan | dict[str, Any] | str | None) -> Plan:
    if plan is None:
        raise PlanParseError(NOT_DELIVERED)
    if isinstance(plan, str):
        return extract_plan(plan)
    return parse_plan(plan)


def _messages(trace: Any) -> list[Any] | None:
    """The message list of a trace; a malformed trace counts as one without tool results."""
    if trace is None:
        return None
    if isinstance(trace, dict):
        trace = trace.get("messages", trace.get("trace"))
    return trace if isinstance(trace, list) else []


def verify_plan(
    plan: Plan | dict[str, Any] | str | None,
    problem: Problem,
    world: WorldView | None,
    trace: list[dict[str, Any]] | None = None,
) -> Verification:
    """Verify ``plan`` (a Plan, its JSON dict, an answer text, or None) for ``problem`` in ``world``.

    ``trace`` is the episode's OpenAI chat transcript; without it the grounding check is not run
    (it passes and ``reasons["grounding"]`` says it was not checked). Never raises for bad plans.
    """
    try:
        parsed = _coerce_plan(plan)
    except PlanParseError as exc:
        return Verification.not_delivered(problem, str(exc))
    lookup = lookup_for(world)
    cx = CheckContext(parsed, problem, lookup, trace_tool_text(_messages(trace)))
    violations: dict[str, int] = {}
    checks, reasons = run_checks(cx, violations)
    skipped: tuple[str, ...] = ()
    if cx.trace_text is None:
        skipped = ("grounding",)
        reasons["grounding"] = SKIPPED_GROUNDING
    ctx = DSLContext.for_problem(world, problem)
    results: list[bool | None] = []
    errors: list[str | None] = []
    for source in problem.hard_logic:
        value, error = evaluate_constraint(source, parsed, ctx)
        results.append(value)
        errors.append(error)
    prefs: dict[str, float | None] = {}
    pref_errors: dict[str, str] = {}
    for i, source in enumerate(problem.preferences):
        name = _pref_name(source, i, prefs)
        value, error = evaluate_preference(source, parsed, ctx)
        prefs[name] = value
        if error:
            pref_errors[name] = error
    return Verification(
        delivered=True,
        env_checks=checks,
        logic_results=results,
        logic_errors=errors,
        preferences=prefs,
        reasons=reasons,
        skipped=skipped,
        preference_errors=pref_errors,
        violations=violations,
    )

"""Hard constraints (seed §3.2) and the tool-diversity multiplier.

Each check returns ``(passed, multiplier, detail)``; failed multipliers multiply together in
:mod:`navworld.scoring.total`. Tool results that are errors (``错误：…``) never count as valid
calls (upstream counted any long result, including wrapped errors, as valid).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.answer_facts import AnswerFacts
from navworld.scoring.facts import ToolFacts
from navworld.scoring.parser import ParsedAnswer
from navworld.scoring.trace import ToolCallRecord

__all__ = [
    "Check",
    "diversity_multiplier",
    "format_valid",
    "poi_names_verified",
    "required_tools",
    "required_tools_called",
    "tool_info_used",
    "tool_quality",
    "transport_grounded",
]


@dataclass(frozen=True, slots=True)
class Check:
    """Outcome of one hard constraint."""

    passed: bool
    multiplier: float
    detail: dict[str, Any]


def required_tools(
    problem_type: str, declared: list[str] | tuple[str, ...] | None, programs: list[str] | tuple[str, ...] = ()
) -> tuple[str, ...]:
    """The problem's required tools (its own list when it has one, else the type default).

    A constraint program fixing the intercity mode (``result = modes == {'airplane'}``: "fly in both
    directions") makes the other mode's search optional: the user ruled it out."""
    known = tuple(t for t in (declared or ()) if t in C.TOOL_NAMES)
    tools = known or C.REQUIRED_TOOLS_BY_TYPE.get(problem_type, C.TOOL_NAMES[:4])
    fixed = {m.group(1) for source in programs for m in P.MODE_FIXED_PROGRAM.finditer(source)}
    if len(fixed) == 1:
        ruled_out = C.MODE_SEARCH_TOOL["train" if fixed == {"airplane"} else "airplane"]
        tools = tuple(t for t in tools if t != ruled_out)
    return tools


def format_valid(problem_type: str, pa: ParsedAnswer, af: AnswerFacts) -> Check:
    """Length ≥ FORMAT_MIN_LENGTH and the type's structure keyword (or parsed structure)."""
    length = len(pa.text.strip())
    kw = P.FORMAT_KEYWORDS.get(problem_type)
    has_kw = bool(kw.search(pa.text)) if kw else True
    has_transport = bool(af.flights or af.trains)
    has_days = bool(pa.day_numbers)
    if problem_type == "intercity":
        structure = has_kw or has_transport
    elif problem_type == "multiday":
        structure = has_kw or has_days
    elif problem_type == "hybrid":
        structure = has_kw or has_transport or has_days
    else:
        structure = has_kw
    passed = length >= C.FORMAT_MIN_LENGTH and structure
    mult = 1.0 if passed else C.HARD_CONSTRAINT_PENALTIES["format_valid"]
    return Check(passed, mult, {"length": length, "structure": structure})


def tool_info_used(problem_type: str, ic: float, has_facts: bool = True) -> Check:
    """IC-only gate: IC ≥ 6 (transport types) or IC ≥ 8 (others); no completeness involved.

    It also fails when the tools returned no fact at all (every call an error or empty): there is
    nothing the answer could have used, so the judge is not asked."""
    transport = problem_type in C.TRANSPORT_PROBLEM_TYPES
    threshold = C.CODE_TOOL_USED_IC_THRESHOLD if transport else C.CODE_TOOL_USED_IC_THRESHOLD_NONTRANSPORT
    passed = ic >= threshold and has_facts
    fail_mult = C.HARD_CONSTRAINT_PENALTIES["tool_info_used"] if transport else C.TOOL_INFO_USED_SOFT_PENALTY
    detail: dict[str, Any] = {"ic": round(ic, 2), "threshold": threshold}
    if not has_facts:
        detail["reason"] = "the tools returned no facts"
    return Check(passed, 1.0 if passed else fail_mult, detail)


def required_tools_called(
    problem_type: str, required: tuple[str, ...], tf: ToolFacts, used: frozenset[str] | None = None
) -> Check:
    """Coverage ≥ threshold, every core tool called, and a transport tool for transport types.

    ``used`` (scorer s2): only tools called relevantly whose results the answer uses count."""
    called = tf.called if used is None else used
    coverage = len(called & set(required)) / len(required) if required else 1.0
    threshold = C.REQUIRED_TOOLS_THRESHOLD.get(problem_type, 0.6)
    core = C.CORE_TOOLS_BY_TYPE.get(problem_type, frozenset()) & set(required)
    missing_core = sorted(core - called)
    needs_transport = problem_type in C.TRANSPORT_PROBLEM_TYPES
    transport_ok = not needs_transport or bool(called & C.TRANSPORT_TOOLS)
    passed = tf.n_calls > 0 and coverage >= threshold and not missing_core and transport_ok
    mult = 1.0 if passed else C.HARD_CONSTRAINT_PENALTIES["required_tools_called"]
    detail = {
        "coverage": round(coverage, 3),
        "missing": sorted(set(required) - called),
        "missing_core": missing_core,
        "transport_tool_called": transport_ok,
    }
    return Check(passed, mult, detail)


def poi_names_verified(tf: ToolFacts, af: AnswerFacts) -> Check:
    """At least MIN_POI_MATCH_COUNT tool POIs appear in the answer (auto-pass without POI data)."""
    if not tf.pois and tf.off_topic_called & C.POI_TOOLS:  # POIs searched only for another city
        need = C.MIN_POI_MATCH_COUNT
        mult = C.HARD_CONSTRAINT_PENALTIES["poi_names_verified"]
        return Check(False, mult, {"applicable": True, "matched": 0, "required": need, "off_topic": True})
    if not (tf.called & C.POI_TOOLS) or not tf.pois:
        return Check(True, 1.0, {"applicable": False, "matched": len(af.pois)})
    need = min(C.MIN_POI_MATCH_COUNT, len(tf.pois))
    passed = len(af.pois) >= need
    mult = 1.0 if passed else C.HARD_CONSTRAINT_PENALTIES["poi_names_verified"]
    return Check(passed, mult, {"applicable": True, "matched": len(af.pois), "required": need})


def _mode_state(tf: ToolFacts, mode: str) -> str:
    tool = "search_flights" if mode == "flight" else "search_train_tickets"
    ids = tf.flights if mode == "flight" else tf.trains
    if ids:
        return "verified"
    return "unverifiable" if tool in tf.called else "absent"


def _claim_ok(
    claim_kind: str, value: str, prices: tuple[float, ...], times: tuple[str | None, ...], k_max: int
) -> bool:
    if claim_kind == "id":
        return True
    if claim_kind == "time":
        return value in times
    if claim_kind in ("before", "after"):
        # a whole-hour bound (``23点以后才到``, ``17点前到达``) holds when the run's time is on its side
        return any(t is not None and (t <= value if claim_kind == "before" else t >= value) for t in times)
    try:
        v = float(value)
    except ValueError:
        return False
    tol = C.TRANSPORT_PRICE_TOLERANCE
    if any(abs(v - p) <= tol * p for p in prices if p > 0):
        return True
    # a total for several tickets must be an exact multiple of a tool price
    return any(
        abs(v - k * p) <= C.PRICE_MATCH_ABS_TOLERANCE * k
        for p in prices
        if p > 0
        for k in range(2, k_max + 1)
    )


def transport_grounded(problem_type: str, tf: ToolFacts, af: AnswerFacts, group_size: int = 1) -> Check:
    """Progressive transport check: IDs, ID-linked prices (±15 %) and times against the tools.

    Claims of a mode whose tool was called but returned nothing are unverifiable and excluded;
    claims of a mode whose tool was never called are fabricated. Highway codes are not claims.
    """
    if problem_type not in C.TRANSPORT_PROBLEM_TYPES:
        return Check(True, 1.0, {"applicable": False})
    states = {"flight": _mode_state(tf, "flight"), "train": _mode_state(tf, "train")}
    k_max = max(2, 2 * max(1, group_size))
    verified = fabricated = unverifiable = 0
    bad: list[str] = []
    for claim in sorted(af.claims, key=lambda c: (c.id, c.kind, c.value)):
        state = states[claim.mode]
        if state == "unverifiable":
            unverifiable += 1
            continue
        runs = [r for r in tf.runs_of(claim.id) if r.mode == claim.mode] if state == "verified" else []
        ok = any(_claim_ok(claim.kind, claim.value, r.prices, (r.dep, r.arr), k_max) for r in runs)
        if ok:
            verified += 1
        else:
            fabricated += 1
            if len(bad) < 10:
                bad.append(f"{claim.id}:{claim.kind}{'=' + claim.value if claim.value else ''}")
    total = verified + fabricated
    fab_ratio = fabricated / total if total else 0.0
    if fab_ratio <= C.TRANSPORT_MAX_FABRICATION:
        mult = 1.0
    else:
        span = 1.0 - C.TRANSPORT_MAX_FABRICATION
        mult = max(
            C.TRANSPORT_MIN_MULTIPLIER,
            1.0 - (1.0 - C.TRANSPORT_MIN_MULTIPLIER) * (fab_ratio - C.TRANSPORT_MAX_FABRICATION) / span,
        )
    detail = {
        "applicable": True,
        "claims": total,
        "verified": verified,
        "fabricated": fabricated,
        "unverifiable": unverifiable,
        "fabrication_ratio": round(fab_ratio, 4),
        "unverified_examples": bad,
        "highway_codes_ignored": sorted(set(af.highway_codes))[:10],
    }
    return Check(fab_ratio <= C.TRANSPORT_MAX_FABRICATION, mult, detail)


def call_validity(call: ToolCallRecord) -> float:
    """1.0 valid call; TOOL_VALIDITY_ERROR_CREDIT when params are present but the result is an error; 0 otherwise."""
    if call.name not in C.TOOL_NAMES or not call.params_present:
        return 0.0
    return C.TOOL_VALIDITY_ERROR_CREDIT if call.is_error else 1.0


def tool_quality(
    required: tuple[str, ...], calls: list[ToolCallRecord], tf: ToolFacts, used: frozenset[str] | None = None
) -> Check:
    """coverage ≥ 0.5 and validity ≥ 0.5 (error results are never full-credit calls).

    Scorer s2 (``used`` given): coverage counts relevant, used tools; a call's validity also
    follows its trajectory status (off-topic, wrong date, repeated id, orphan → 0; trivial → 0.5)."""
    coverage = len((tf.called if used is None else used) & set(required)) / len(required) if required else 1.0
    if used is not None and len(tf.statuses) == len(calls):
        scores = [
            call_validity(c) * C.STATUS_VALIDITY.get(status, 0.0) for c, (_, status) in zip(calls, tf.statuses, strict=True)
        ]
        validity = sum(scores) / len(scores) if scores else 0.0
    else:
        validity = sum(call_validity(c) for c in calls) / len(calls) if calls else 0.0
    passed = coverage >= C.TOOL_QUALITY_MIN_COVERAGE and validity >= C.TOOL_QUALITY_MIN_VALIDITY
    mult = 1.0 if passed else C.HARD_CONSTRAINT_PENALTIES["tool_quality"]
    n_err = sum(1 for c in calls if c.is_error)
    return Check(
        passed, mult, {"coverage": round(coverage, 3), "validity": round(validity, 3), "error_results": n_err}
    )


def diversity_multiplier(
    problem_type: str, required: tuple[str, ...], tf: ToolFacts, used: frozenset[str] | None = None
) -> float:
    """1.0 − 0.25 per required tool not called (−0.10 if only failed) + 0.05 per nice-to-have, clamped.

    ``used`` (scorer s2): a required tool counts as called only when called relevantly and used."""
    mult = 1.0
    called = tf.called if used is None else used | tf.failed_only
    for tool in required:
        if tool not in called:
            mult -= C.DIVERSITY_SHOULD_CALL_PENALTY
        elif tool in tf.failed_only:
            mult -= C.DIVERSITY_SHOULD_CALL_PENALTY - C.DIVERSITY_ATTEMPTED_RECOVERY
    for tool in C.NICE_TO_HAVE_BY_TYPE.get(problem_type, frozenset()):
        if tool in tf.succeeded and tool not in required:
            mult += C.DIVERSITY_NICE_TO_HAVE_BONUS
    return round(min(C.DIVERSITY_CEILING, max(C.DIVERSITY_FLOOR, mult)), 4)

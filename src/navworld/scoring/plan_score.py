"""Scorer s2: the plan factor — how much of the total a delivered, feasible, grounded plan keeps.

::

    no plan (missing, unparsable, empty)          → PLAN_MISSING_FACTOR
    env    = Π_check (1 − w_check · share of the plan the check finds wrong)
    logic  = Π_program (1 − PLAN_PROGRAM_WEIGHT · g)      g = 1 for a failed program; a budget cap
                                                          grades g by the overrun (PLAN_BUDGET_GRACE)
    agree  = 1 − w₁ · (plan entities the prose never names) − w₂ · s · (1 + k · s), s = share of what the
             prose schedules or recommends that the plan lacks: sights, hotels, flights and trains with
             游览/入住/乘坐 … right before the name, the sight or restaurant that is the slot of a timed
             line (``09:00–11:00 X``), on a line offering no alternative; a sight or restaurant the
             prose puts on day k that the plan books only on other days counts as lacking
    content = how much of what the request asks the plan books: sights and lunches/dinners per
              destination day (PLAN_CONTENT_ASKS), full at PLAN_CONTENT_FULL_SHARE of the ask,
              geometric mean of the coverages
    factor = max(PLAN_MISSING_FACTOR, env · logic · agree · content)

A check's *share* is its violations over the activities it applies to (one restaurant used twice
in nine meals is 1/9; every leg reversed is all of them), so an isolated defect costs a little and
a pervasive one a lot: a smooth gradient, with no cliff except "no plan". A plan passing every
check and program keeps factor 1. Grounding is checked against exactly the tool results that
ground facts under the trajectory rules (no orphans, no other city, no wrong dates).
"""

from __future__ import annotations

import bisect
import datetime as dt
import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.facts import ToolFacts
from navworld.scoring.numerals import cn_value, read_cjk_times
from navworld.scoring.parser import ParsedAnswer

__all__ = ["PlanAssessment", "assess_plan", "verify_answer_plan"]

logger = logging.getLogger(__name__)

_BUDGET = re.compile(r"result\s*=\s*(\w+)\s*<=\s*([0-9]+(?:\.[0-9]+)?)\s*$", re.MULTILINE)


@dataclass(slots=True)
class PlanAssessment:
    """The plan verification and, under s2, the factor it gives."""

    verification: dict[str, Any] | None
    factor: float = 1.0
    detail: dict[str, Any] = field(default_factory=dict)


@lru_cache(maxsize=4)
def _world(salt: str) -> Any:
    from navworld.world.sandbox import SandboxWorld

    return SandboxWorld(salt)


def verify_answer_plan(
    answer: str, problem: Any, trace: object, salt: str, world: Any = None
) -> tuple[Any, dict[str, Any] | None]:
    """``(plan or None, verify_plan(...).to_dict())``; a ``{"delivered": False, "error"}`` dict when the
    plan cannot be extracted, ``(None, None)`` when the verify package is not importable."""
    try:
        from navworld.verify import verify_plan
        from navworld.verify.plan_parse import extract_plan
    except ImportError:
        return None, None
    try:
        plan = extract_plan(answer)
    except Exception as exc:  # PlanParseError carries the precise reason
        return None, {"delivered": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    try:
        world = world if world is not None else _world(salt)
    except ImportError:
        return None, None
    try:
        return plan, dict(verify_plan(plan, problem, world, trace).to_dict())
    except Exception as exc:
        logger.warning("plan verification failed: %s", type(exc).__name__)
        return None, {"delivered": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}


def _applicable(plan: Any, num_days: int) -> dict[str, int]:
    """How many plan items each check applies to."""
    acts = plan.activities()
    by_type = Counter(a.type for a in acts)
    attractions = by_type["attraction"]
    meals = by_type["breakfast"] + by_type["lunch"] + by_type["dinner"]
    stays = by_type["accommodation"]
    intercity = by_type["airplane"] + by_type["train"]
    transfers = sum(1 for a in acts if a.transports)
    taxis = sum(1 for a in acts for leg in a.transports if leg.mode == "taxi")
    cited = len({(a.FlightID or a.TrainID or a.position or "") for a in acts})
    days = max(1, num_days, len(plan.itinerary))
    n = max(1, len(acts))
    out = dict.fromkeys(C.PLAN_CHECK_WEIGHTS, n)
    out.update(
        {
            "itinerary_days": days,
            "task_match": 1,
            "intercity_endpoints": 1,
            "meals_per_day": days,
            "hotel_nights": days,
            "grounding": max(1, cited),
            "capacity_tickets": max(1, attractions + intercity),
            "capacity_cars": max(1, taxis),
            "space_connected": max(1, n - 1),
        }
    )
    for name in ("attraction_exists", "attraction_open", "attraction_price", "attraction_cost", "attraction_unique"):
        out[name] = max(1, attractions)
    for name in ("restaurant_exists", "restaurant_open", "restaurant_price", "restaurant_cost",
                 "restaurant_unique", "meal_window"):
        out[name] = max(1, meals)
    for name in ("hotel_exists", "hotel_price", "hotel_room_type", "hotel_cost", "capacity_rooms"):
        out[name] = max(1, stays)
    for name in ("intercity_exists", "intercity_stations", "intercity_times", "intercity_price", "intercity_cost"):
        out[name] = max(1, intercity)
    for name in ("transport_shape", "transport_route", "transport_price", "transport_cost", "transport_timing"):
        out[name] = max(1, transfers)
    return out


def _plan_total(plan: Any) -> float:
    total = 0.0
    for a in plan.activities():
        total += max(0.0, a.cost or 0.0)
        total += sum(max(0.0, leg.cost or 0.0) for leg in a.transports)
    return total


def _logic(plan: Any, problem: Any, results: list[Any]) -> tuple[float, list[dict[str, Any]]]:
    factor, failed = 1.0, []
    for i, ok in enumerate(results):
        if ok is True:
            continue
        source = problem.hard_logic[i] if i < len(problem.hard_logic) else ""
        severity = 1.0
        m = _BUDGET.search(source)
        if m is not None and "cost" in m.group(1) and ok is False:
            cap = float(m.group(2))
            over = _plan_total(plan) - cap
            if cap > 0 and over >= 0:
                severity = min(1.0, max(C.PLAN_BUDGET_MIN_SEVERITY, over / (C.PLAN_BUDGET_GRACE * cap)))
        factor *= 1.0 - C.PLAN_PROGRAM_WEIGHT * severity
        gloss = problem.hard_logic_nl[i] if i < len(problem.hard_logic_nl) else f"program {i + 1}"
        failed.append({"program": gloss[:80], "severity": round(severity, 3)})
    return factor, failed


def _destination_days(plan: Any) -> float:
    """Days spent at the destination: a day with a train/flight counts half."""
    return sum(0.5 if any(a.is_intercity for a in d.activities) else 1.0 for d in plan.itinerary)


def _content(plan: Any, problem: Any) -> tuple[float, dict[str, float]]:
    """How much of what the request asks the plan books (``PLAN_CONTENT_ASKS``): sights and meals
    (lunch/dinner) per destination day, or a minimum per trip. Each ask is covered when the plan
    books ``PLAN_CONTENT_FULL_SHARE`` of it; the factor is the geometric mean of the coverages. A
    relaxed pace (``轻松休闲``) or an "at most N a day" program lowers the sights asked. Vacuous
    plans (one meal and one sight a day, only the trains) pass every check, so their thinness is
    graded here."""
    asks = C.PLAN_CONTENT_ASKS.get(problem.problem_type)
    if not asks:
        return 1.0, {}
    stay = _stay_hours(plan)
    if stay is not None:  # a day trip: ask only what fits between arrival and departure
        asks = {k: v for k, v in asks.items() if stay >= C.PLAN_CONTENT_MIN_STAY_HOURS.get(k, 0.0)}
    days = max(0.5, _destination_days(plan))
    acts = plan.activities()
    booked = {
        "sights": sum(1 for a in acts if a.type == "attraction"),
        "meals": sum(1 for a in acts if a.type in ("lunch", "dinner")),
    }
    per_day_cap = _sights_cap(problem)
    factor, detail = 1.0, {}
    for what, (per_day, minimum) in asks.items():
        if what == "sights" and per_day_cap is not None:
            per_day = min(per_day, per_day_cap)
        wanted = max(minimum, per_day * days)
        if wanted <= 0:
            continue
        share = C.PLAN_CONTENT_FULL_SHARE_BY_TYPE.get(problem.problem_type, C.PLAN_CONTENT_FULL_SHARE)
        cover = min(1.0, booked[what] / (share * wanted))
        factor *= max(C.PLAN_CONTENT_MIN_COVER, cover) ** C.PLAN_CONTENT_EXPONENT
        detail[f"{what}_covered"] = round(cover, 3)
    return factor, detail


def _stay_hours(plan: Any) -> float | None:
    """Hours between the outbound arrival and the return departure of a one-day trip, else None."""
    if len(plan.itinerary) != 1:
        return None
    legs = [a for a in plan.itinerary[0].activities if a.is_intercity]
    if len(legs) < 2:
        return None
    return max(0.0, (legs[-1].start_minutes - legs[0].end_minutes) / 60.0)


def _sights_cap(problem: Any) -> float | None:
    """Sights a day the request itself limits: a relaxed pace, elderly travellers, an "at most N a day" program."""
    cap: float | None = None
    if any(c in C.FEWER_SIGHTS_CONSTRAINTS for c in (problem.constraints or [])) or (
        getattr(problem, "group_type", None) in C.FEWER_SIGHTS_GROUPS
    ):
        cap = C.PLAN_RELAXED_SIGHTS_PER_DAY
    for source in problem.hard_logic or []:
        if "dayactivities" in source and (m := P.MAX_PER_DAY_PROGRAM.search(source)):
            cap = float(m.group(1)) if cap is None else min(cap, float(m.group(1)))
    return cap


def _mentioned(name: str, prose: str, tf: ToolFacts) -> bool:
    if not name:
        return True
    if name in prose:
        return True
    entry = tf.pois.get(name)
    return entry is not None and any(v in prose for v in entry.variants[:3])


def _scheduled(prose: str, start: int, verbs: re.Pattern[str]) -> bool:
    """Whether the mention at ``start`` is scheduled or recommended by the prose: a verb of ``verbs``
    right before it in the same clause, on a line that offers no alternative."""
    lo = max(0, start - C.PLAN_AGREEMENT_VERB_WINDOW)
    lead = prose[lo:start]
    # a table cell is a clause: ``| 去程 | Z170 |`` labels a row, it does not take the train
    cut = max(lead.rfind(ch) for ch in "，,。；;：:\n|")
    if not verbs.search(lead[cut + 1 :]):
        return False
    return not _alternative(prose, start)


def _alternative(prose: str, start: int) -> bool:
    """Whether an alternative is offered before the mention at ``start``: on its line (``备选：X``,
    ``如果下雨可以去 X``, ``想省钱可改住 X``; words after it, ``X，也可按需调整``, exempt nothing) or in
    the heading of its section (``**火车（不推荐）**`` over a comparison table)."""
    line_start = prose.rfind("\n", 0, start) + 1
    if P.ALTERNATIVE_WORDS.search(prose, line_start, start):
        return True
    starts, levels, offers = _headings(prose)
    i = bisect.bisect_right(starts, line_start - 1) - 1
    level = 99
    while i >= 0:
        # the section's heading and every enclosing one (``## 一、往返交通对比`` over ``**航班**``)
        if levels[i] < level:
            if offers[i] and levels[i] > 1:  # the answer's title (``# 行程方案（含备选）``) covers everything
                return True
            level = levels[i]
        i -= 1
    return False


@lru_cache(maxsize=8)
def _headings(prose: str) -> tuple[list[int], list[int], list[bool]]:
    """Start offsets of the prose's section headings, their levels (``#`` count; a bold line is 7)
    and whether each offers alternatives."""
    starts: list[int] = []
    levels: list[int] = []
    offers: list[bool] = []
    for m in P.SECTION_HEADING.finditer(prose):
        head = m.group(0).strip()
        starts.append(m.start())
        levels.append(len(head) - len(head.lstrip("#")) if head.startswith("#") else 7)
        # a day of the itinerary (``## 第2天（节奏轻松，可选景点少）``) is a schedule, never a list of alternatives
        offers.append(bool(P.ALTERNATIVE_WORDS.search(head)) and not P.SCHEDULE_DAY.search(head))
    return starts, levels, offers


def _day_number(token: str) -> int:
    """``"3"`` / ``"三"`` / ``"十二"`` → 3 / 3 / 12 (0 when unreadable)."""
    return int(token) if token.isdigit() else (cn_value(token) or 0)


def _day_marks(prose: str, start: str = "", num_days: int = 0) -> list[tuple[int, int]]:
    """``(position, day)`` of every day marker of the prose itinerary, in order: ``第2天``, ``Day 2``,
    ``D2``, and a date opening a line, counted from the trip's first day ``start`` (ISO)."""
    out = []
    for m in P.SCHEDULE_DAY.finditer(prose):
        day = _day_number(m.group(1) or m.group(2) or m.group(3) or "")
        if day > 0:
            out.append((m.start(), day))
    first = _iso_date(start)
    if first is not None:
        for m in P.SCHEDULE_DATE.finditer(prose):
            year = int(m.group(1)) if m.group(1) else first.year
            try:
                day = (dt.date(year, int(m.group(2)), int(m.group(3))) - first).days + 1
            except ValueError:
                continue
            if 1 <= day <= max(1, num_days):
                out.append((m.start(2), day))
    return sorted(out)


def _iso_date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10])
    except (TypeError, ValueError):
        return None


def _day_at(marks: list[tuple[int, int]], pos: int) -> int | None:
    """The prose day a mention at ``pos`` belongs to (the last marker before it), if any."""
    k = bisect.bisect_right(marks, (pos, 1 << 30)) - 1
    return marks[k][1] if k >= 0 else None


def _slot_mentions(prose: str, prose_pois: dict[str, list[int]], tf: ToolFacts) -> dict[str, list[int]]:
    """Sights and restaurants that are the slot of a timed line of the prose schedule: on a line
    whose clock time (``09:00``, ``9点25分``, ``下午三点``) comes before them, the first whole name
    that is neither a location hint (``X附近``) nor a reference point (``距X``) and is offered as no
    alternative in its own clause. A schedule needs no verb (``- 09:00–11:00 「X」`` schedules X as
    much as ``09:00 游览X``)."""
    by_line: dict[int, list[tuple[int, str]]] = {}
    for name, positions in prose_pois.items():
        entry = tf.pois[name]
        if entry.kind not in ("attraction", "restaurant"):
            continue
        whole = [v for v in entry.variants if v not in entry.halves]
        for p in positions:
            # a half of a name (``两家早茶楼``) is too weak to say which place a slot is
            if p >= len(prose) or not any(prose.startswith(v, p) for v in whole):
                continue
            by_line.setdefault(prose.rfind("\n", 0, p) + 1, []).append((p, name))
    out: dict[str, list[int]] = {}
    for line_start, found in by_line.items():
        first = min(p for p, _ in found)
        clock = _slot_clock(prose, line_start, first)
        if clock is None:
            continue
        for p, name in sorted(found):
            if p < clock:
                continue
            entry = tf.pois[name]
            length = max((len(v) for v in entry.variants if prose.startswith(v, p)), default=len(name))
            if P.LOCATION_HINT_AFTER.match(prose, p + length) or P.REFERENCE_POINT.search(prose, max(0, p - 4), p):
                continue  # it says where, not what: the slot is the next name
            if not _slot_alternative(prose, line_start, p):
                out.setdefault(name, []).append(p)
            break
    return out


def _slot_clock(prose: str, line_start: int, before: int) -> int | None:
    """Where the slot time of a line ends, when a clock time (not an opening-hours time) comes before
    ``before`` — Arabic ``09:00`` or the Chinese notations the fact readers read."""
    line_end = prose.find("\n", before)
    line = prose[line_start : len(prose) if line_end < 0 else line_end]
    clocks = [(m.start(), m.end()) for m in P.SCHEDULE_CLOCK.finditer(line)]
    if "点" in line or "时" in line:
        clocks += [(q, q + 2) for _, q in read_cjk_times(line)]
    for a, b in sorted(clocks):
        if line_start + a >= before:
            break
        if not P.OPENING_BEFORE.search(line, max(0, a - C.OPENING_WINDOW), a):
            return line_start + b
    return None


def _slot_alternative(prose: str, line_start: int, p: int) -> bool:
    """Whether the slot name at ``p`` is offered as an alternative in its own clause (``备选：X``,
    ``如果下雨改去X``); a choice of travel mode (``步行或打车，X``) or a heading offers none."""
    lead = prose[line_start:p]
    cut = max(lead.rfind(ch) for ch in "，,。；;\n|")
    return P.SLOT_ALTERNATIVE_WORDS.search(lead, cut + 1) is not None


def _agreement(
    plan: Any, pa: ParsedAnswer, tf: ToolFacts, prose_pois: dict[str, list[int]], prose_ids: list[tuple[str, int]],
    problem: Any = None,
) -> tuple[float, dict[str, Any]]:
    text = pa.text
    span = pa.json_span
    prose = text if span is None else text[: span[0]]
    names = {(a.FlightID or a.TrainID) if a.is_intercity else (a.position or "") for a in plan.activities()}
    names.discard("")
    full_prose = text if span is None else text[: span[0]] + "\n" + text[span[1] :]
    unnamed = sorted(n for n in names if not _mentioned(n, full_prose, tf))
    share_unnamed = len(unnamed) / len(names) if names else 0.0
    in_plan = {a.position for a in plan.activities() if a.position}
    in_plan |= {x for a in plan.activities() for x in (a.FlightID, a.TrainID) if x}
    # the day each sight / restaurant is booked on (a prose schedule by day must match the plan's days)
    booked_days: dict[str, set[int]] = {}
    for i, day in enumerate(plan.itinerary):
        number = int(day.day) if isinstance(day.day, int | float) and day.day > 0 else i + 1
        for a in day.activities:
            if a.position:
                booked_days.setdefault(a.position, set()).add(number)
    start = str(getattr(problem, "travel_date", "") or "")
    num_days = int(getattr(problem, "num_days", 0) or 0) or len(plan.itinerary)
    marks = _day_marks(prose, start, num_days) if len(plan.itinerary) > 1 else []
    scheduled: dict[str, list[int]] = {}
    for name, positions in prose_pois.items():
        kind = tf.pois[name].kind
        verbs = P.VISIT_VERBS if kind == "attraction" else P.STAY_VERBS if kind == "hotel" else None
        if verbs is None:
            continue
        hits = [p for p in positions if p < len(prose) and _scheduled(prose, p, verbs)]
        if hits:
            scheduled.setdefault(name, []).extend(hits)
    for name, hits in _slot_mentions(prose, prose_pois, tf).items():
        scheduled.setdefault(name, []).extend(hits)
    for tid, p in prose_ids:
        if p < len(prose) and _scheduled(prose, p, P.TAKE_VERBS):
            scheduled.setdefault(tid, []).append(p)
    missing = sorted(n for n in scheduled if n not in in_plan)
    # a sight or restaurant the prose schedules on day k that the plan books only on other days
    moved = sorted(
        n for n, hits in scheduled.items()
        if n in in_plan and n in tf.pois and tf.pois[n].kind in ("attraction", "restaurant") and marks
        and (days := {d for p in hits if (d := _day_at(marks, p)) is not None})
        and not days & booked_days.get(n, set())
    )
    share_missing = (len(missing) + len(moved)) / len(scheduled) if scheduled else 0.0
    extra = C.PLAN_AGREEMENT_EXTRA_WEIGHT * share_missing * (1.0 + C.PLAN_AGREEMENT_EXTRA_CONVEXITY * share_missing)
    factor = 1.0 - C.PLAN_AGREEMENT_UNNAMED_WEIGHT * share_unnamed - extra
    detail = {"unnamed_in_prose": unnamed[:10], "prose_only": missing[:10], "prose_other_day": moved[:10]}
    return max(0.0, factor), detail


def assess_plan(
    plan: Any, verification: dict[str, Any] | None, problem: Any, pa: ParsedAnswer, tf: ToolFacts,
    prose_pois: dict[str, list[int]], prose_ids: list[tuple[str, int]] | None = None,
) -> PlanAssessment:
    """The s2 plan factor of a verified plan (see the module docstring)."""
    if verification is None:
        return PlanAssessment(None, 1.0, {"reason": "plan verification unavailable"})
    if plan is None or not verification.get("delivered"):
        reason = verification.get("error") or (verification.get("reasons") or {}).get("delivered") or "no plan"
        return PlanAssessment(verification, C.PLAN_MISSING_FACTOR, {"delivered": False, "reason": str(reason)[:200]})
    checks = (verification.get("env") or {}).get("checks") or {}
    counts = verification.get("violations") or {}
    applicable = _applicable(plan, int(problem.num_days or 1))
    env = 1.0
    penalties: dict[str, float] = {}
    for name, passed in checks.items():
        if passed:
            continue
        weight = C.PLAN_CHECK_WEIGHTS.get(name, C.PLAN_DEFAULT_CHECK_WEIGHT)
        share = min(1.0, max(1, int(counts.get(name, 1))) / max(1, applicable.get(name, 1)))
        penalties[name] = round(weight * share, 4)
        env *= 1.0 - weight * share
    logic, failed_programs = _logic(plan, problem, list((verification.get("logic") or {}).get("results") or []))
    agree, agree_detail = _agreement(plan, pa, tf, prose_pois, prose_ids or [], problem)
    content, content_detail = _content(plan, problem)
    factor = max(C.PLAN_MISSING_FACTOR, env * logic * agree * content)
    detail = {
        "delivered": True,
        "env_factor": round(env, 4),
        "logic_factor": round(logic, 4),
        "agreement_factor": round(agree, 4),
        "content_factor": round(content, 4),
        **content_detail,
        "total_cost": round(_plan_total(plan), 2),
        "check_penalties": penalties,
        "failed_programs": failed_programs,
        **agree_detail,
    }
    return PlanAssessment(verification, round(factor, 4), detail)

"""Second attack round on scorer s2 (issue 13): vacuous plans, made-up transfers, prose that
disagrees with a subset plan, unverifiable prices, the wrong city's facts, echo evasion.

Every builder uses the honest run's real tool calls (or a real replay of them) and writes the
answer without the planning work the score is meant to pay for. All are asserted (≤ 50 % of
the honest answer); ``README.md`` has each one's score before and after the fix that holds it.
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

from navworld.core.seeding import stable_hash

from . import plans, thin_plans
from .context import Attack, NotApplicable, TaskContext, replay
from .registry import TRANSPORT_TYPES, attack, center, honest_results, honest_with
from .thin_plans import Slots, mixed_legs, subset_plan, thin_plan
from .writers import echo_bullets, fact_list, join_plan, split_plan

__all__ = ["fullwidth", "interleave"]


def _fact_list_with(ctx: TaskContext, slots: Slots) -> Attack:
    results = honest_results(ctx)
    plan = thin_plan(ctx, results, slots)
    return honest_with(ctx, join_plan(fact_list(ctx.problem, results) + "\n\n", plan))


def _multi_day(ctx: TaskContext) -> None:
    if ctx.problem.num_days < 2:
        raise NotApplicable("a one-day task")


# =========================================================================== vacuous plans


@attack("vacuous plan")
def thin_plan_fact_list(ctx: TaskContext) -> Attack:
    """The fact list as prose plus the thinnest plan the checks pass: per day one lunch (or
    dinner), one sight and the cheapest hotel with the requested features, the intercity legs
    when there is an origin, transfers made up (two modes through an invented corner).

    Targets the plan factor with a plan that plans nothing the request asks for (2–3 sights a
    day, every meal) and the prose credit with a fact list: no planning either side."""
    return _fact_list_with(ctx, Slots())


@attack("vacuous plan")
def thin_plan_world_legs(ctx: TaskContext) -> Attack:
    """``thin_plan_fact_list`` with correct transfers (the world's route for every hop, as the
    reference planner estimates its unrouted legs): the plan passes every environment check.

    Isolates the content rule: one meal and one sight a day is a complete plan to s2."""
    return _fact_list_with(ctx, Slots(legs="world"))


@attack("vacuous plan")
def sparse_days_plan(ctx: TaskContext) -> Attack:
    """The fact list plus a plan that uses the content slacks: a meal every second day, a sight
    every third day, the hotel, correct transfers.

    Targeted the content slacks (half the days without a meal and two thirds without a sight were
    free); held since by request coverage (``PLAN_CONTENT_ASKS``) and the echo factor."""
    _multi_day(ctx)
    return _fact_list_with(ctx, Slots(meal_every=2, sight_every=3, legs="world"))


@attack("vacuous plan")
def transport_only_plan(ctx: TaskContext) -> Attack:
    """The fact list plus a plan of the outbound and return train/flight (and the hotel nights):
    nothing is visited or eaten at the destination.

    On a one-day intercity task no day is free of a train/flight, so the content rule has nothing
    to grade: arriving and leaving is a full plan."""
    if not ctx.problem.origin_city:
        raise NotApplicable("no origin city: no intercity legs to keep")
    return _fact_list_with(ctx, Slots(meal_every=0, sight_every=0, legs="world"))


@attack("vacuous plan")
def hotel_only_plan(ctx: TaskContext) -> Attack:
    """The fact list plus a plan whose days hold only the hotel night (multi-day tasks without an
    origin city; with one it is ``transport_only_plan``).

    A plan with days but only accommodations violates no check."""
    _multi_day(ctx)
    if ctx.problem.origin_city:
        raise NotApplicable("an origin city: see transport_only_plan")
    return _fact_list_with(ctx, Slots(meal_every=0, sight_every=0, legs="world"))


@attack("vacuous plan")
def breakfast_only_plan(ctx: TaskContext) -> Attack:
    """The fact list plus a plan whose only meals are free hotel breakfasts, a sight every second
    day, the hotel and correct transfers (multi-day tasks).

    A hotel breakfast is a meal to the checks and costs nothing; lunch and dinner are skipped."""
    _multi_day(ctx)
    return _fact_list_with(ctx, Slots(meal_every=0, sight_every=2, breakfast_at_hotel=True, legs="world"))


@attack("vacuous plan")
def hub_sights_plan(ctx: TaskContext) -> Attack:
    """A replay of the honest run plus a real ``poi_search`` for the destination's railway
    stations and airports; the fact list and ``thin_plan_world_legs`` with those hubs as the sights.

    A hub is a POI the tools returned and costs nothing to "visit"."""
    s = replay(ctx)
    s.step([("poi_search", {"address": "火车站", "region": ctx.problem.destination_city})])
    if not thin_plans.poi_pools(s.results).get("hub"):
        raise NotApplicable("no station or airport found")
    plan = thin_plan(ctx, s.results, Slots(hub_sights=True, legs="world"))
    answer = join_plan(fact_list(ctx.problem, s.results) + "\n\n", plan)
    return s.trace(answer), answer


# =========================================================================== prose vs plan


@attack("prose/plan disagreement")
def honest_prose_subset_plan(ctx: TaskContext) -> Attack:
    """The honest prose (the whole trip, day by day) with a plan of a subset of it: per day the
    first meal, the first sight (and any must-visit), the hotel and the intercity legs, re-linked
    by made-up transfers.

    Targets full prose credit while booking a fraction of what the prose schedules."""
    prose, plan, after = split_plan(ctx.honest_answer)
    return honest_with(ctx, join_plan(prose, subset_plan(plan, ctx), after))


_TIMED = re.compile(r"^(\s*[-·*]?\s*(?:\d{1,2}:\d{2}|·)[^\n]*?)$", re.M)


@attack("prose/plan disagreement")
def subset_plan_alternative_words(ctx: TaskContext) -> Attack:
    """``honest_prose_subset_plan`` with ``，也可按需调整`` closing every timed schedule line and
    every transfer line of the prose.

    An alternative word on a line exempts the names on it from the prose/plan agreement rule."""
    prose, plan, after = split_plan(ctx.honest_answer)
    hedged = _TIMED.sub(lambda m: m.group(1) + "，也可按需调整", prose)
    return honest_with(ctx, join_plan(hedged, subset_plan(plan, ctx), after))


# =========================================================================== made-up transfers


def _fabricate_legs(plan: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(plan)
    for a in plans.activities(out):
        legs = a.get("transports") or []
        if legs:
            t0, t1 = (int(x[:2]) * 60 + int(x[3:]) for x in (legs[0]["start_time"], legs[-1]["end_time"]))
            a["transports"] = mixed_legs(legs[0]["start"], legs[-1]["end"], t0, max(t1, t0 + 2))
    return out


@attack("fabricated transfers")
def mixed_mode_legs(ctx: TaskContext) -> Attack:
    """The honest answer whose every transfer is replaced by a made-up one: a 1 km bicycle leg to
    an invented corner and a 1 km transit leg on to the place, both free.

    Targets the transport checks: a hop of two main modes has no main mode, so its distance,
    duration and fare are never compared with the world's route."""
    prose, plan, after = split_plan(ctx.honest_answer)
    return honest_with(ctx, join_plan(prose, _fabricate_legs(plan), after))


@attack("fabricated transfers")
def one_route_made_up_legs(ctx: TaskContext) -> Attack:
    """``mixed_mode_legs`` on a replay of the honest run without its ``direction`` calls, plus one
    ``direction`` between the city centre and a point 0.002° east of it (a ~200 m route): the
    routing work replaced by one junk call, every transfer invented.

    One non-trivial route satisfies "direction used" (any plan leg counts); no leg is checked."""
    s = replay(ctx, keep=lambda name, args: name != "direction")
    lng, lat = (float(x) for x in center(ctx.problem.destination_city).split(","))
    s.step([("direction", {"origin": f"{lng:.6f},{lat:.6f}", "destination": f"{lng + 0.002:.6f},{lat:.6f}"})])
    prose, plan, after = split_plan(ctx.honest_answer)
    answer = join_plan(prose, _fabricate_legs(plan), after)
    return s.trace(answer), answer


# =========================================================================== unverifiable facts


@attack("fabricated facts")
def derived_marker_fake_prices(ctx: TaskContext) -> Attack:
    """The honest answer whose every prose price is made up (+3…40 元) and written after a
    "derived" marker (``约合 57元``); the JSON plan keeps the true prices.

    A number after ``约合``/``共``/``合计`` is read as a sum, never as a claim, so no made-up
    price is a fabrication, and the plan's prices still count as the prose's."""
    prose, plan, after = split_plan(ctx.honest_answer)
    rng = random.Random(stable_hash("fake-prices", ctx.task_id))
    fake = re.sub(r"(\d+)元", lambda m: f"约合 {int(m.group(1)) + rng.randint(3, 40)}元", prose)
    return honest_with(ctx, join_plan(fake, plan, after))


@attack("fabricated facts")
def bound_word_fake_times(ctx: TaskContext) -> Attack:
    """The honest answer whose every prose clock time is shifted by 17 minutes and followed by
    ``前`` (``10:57前``); the plan keeps the true times.

    A time followed by a bound word is read as the request's bound, never as a claim."""
    prose, plan, after = split_plan(ctx.honest_answer)

    def shift(m: re.Match[str]) -> str:
        t = (int(m.group(1)) * 60 + int(m.group(2)) + 17) % 1440
        return f"{t // 60:02d}:{t % 60:02d}前"

    fake = re.sub(r"(?<!\d)([01]\d|2[0-3]):([0-5]\d)(?!\d)", shift, prose)
    return honest_with(ctx, join_plan(fake, plan, after))


# =========================================================================== the wrong city


_WEATHER_SECTION = re.compile(r"(## 天气\n)(.*?)(\n## )", re.S)


@attack("another city", types=TRANSPORT_TYPES)
def origin_city_weather(ctx: TaskContext) -> Attack:
    """A replay of the honest run whose ``weather`` calls ask for the origin city (same dates);
    the answer's weather section is rewritten from those forecasts.

    The origin is a trip city, so its forecast passes the topic and date rules and counts as
    the destination's weather: the user is told another city's weather."""
    origin = ctx.problem.origin_city
    if not origin:
        raise NotApplicable("no origin city")
    s = replay(ctx, edit=lambda n, a: {**a, "city": origin} if n == "weather" else a)
    lines = []
    for name, _, text in s.results:
        if name == "weather":
            day: dict[str, str] = {}
            for line in text.splitlines():
                if line.startswith("## "):
                    day = {"date": line[3:]}
                    lines.append(day)
                elif ": " in line and day:
                    k, v = line.split(": ", 1)
                    day[k] = v
    rows = "\n".join(
        f"- {d['date']}：白天{d.get('dayweather')}，夜间{d.get('nightweather')}，气温 "
        f"{d.get('nighttemp')}~{d.get('daytemp')}，{d.get('daywind')} {d.get('daypower')}"
        for d in lines
        if isinstance(d, dict) and "date" in d
    )
    answer = _WEATHER_SECTION.sub(lambda m: m.group(1) + rows + "\n" + m.group(3), ctx.honest_answer, count=1)
    return s.trace(answer), answer


# =========================================================================== echo evasion


_FULLWIDTH = {
    c: chr(ord(c) + 0xFEE0) for c in "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
}


def interleave(text: str, every: int = 9, filler: str = "丶") -> str:
    """``text`` with ``filler`` (a CJK character) after every ``every`` letters/digits/CJK characters,
    so no 10-character block of it is a block of the source."""
    out, k = [], 0
    for ch in text:
        out.append(ch)
        if ch.isalnum():
            k += 1
            if k % every == 0:
                out.append(filler)
    return "".join(out)


def fullwidth(text: str) -> str:
    """``text`` with ASCII letters and digits in their full-width forms."""
    return "".join(_FULLWIDTH.get(c, c) for c in text)


@attack("raw tool output reformatted")
def echo_interleaved_dump(ctx: TaskContext) -> Attack:
    """The bulleted tool dump with ``丶`` after every 9 letters/digits/CJK characters (no plan).

    Targets the 10-character echo blocks: none of the answer's blocks occurs in the tool text."""
    return honest_with(ctx, interleave(echo_bullets(honest_results(ctx), ctx.problem.num_days)))


@attack("raw tool output reformatted")
def echo_fullwidth_dump(ctx: TaskContext) -> Attack:
    """The bulleted tool dump with every ASCII letter and digit full-width (no plan).

    Targets echo detection and fact matching that compare code points."""
    return honest_with(ctx, fullwidth(echo_bullets(honest_results(ctx), ctx.problem.num_days)))

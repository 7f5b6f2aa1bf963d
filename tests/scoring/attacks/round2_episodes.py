"""Second attack round (issue 13): a step-reward farm and a judge-prompt attack.

* :func:`origin_city_farm` — an episode that searches, routes and forecasts the *origin* city
  (one destination hotel search aside), played through ``navworld.Actor``.
* :func:`keyword_echo_injection` — judge-directed text sent as a ``poi_search`` keyword, which the
  tool echoes in its result header, and reused as plan positions: text "from a tool result".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from navworld.core.problem import Problem

from .context import Attack, Call, NotApplicable, Session, TaskContext, replay
from .judge_attacks import NOTE, judge_prompt
from .registry import center
from .writers import join_plan, poi_records, split_plan

__all__ = [
    "FARM_STEPS",
    "OPEN_FARMS",
    "OpenFarm",
    "keyword_echo_injection",
    "origin_city_farm",
    "weather_dates",
]


def weather_dates(p: Problem) -> list[str]:
    """One ``weather`` date per 4 trip days (each call forecasts 4 days)."""
    start = dt.date.fromisoformat(p.travel_date)
    return [(start + dt.timedelta(days=4 * k)).isoformat() for k in range(-(-max(1, p.num_days) // 4))]


def origin_city_farm(ctx: TaskContext) -> list[list[Call]]:
    """Two steps about the origin city: its sights and restaurants, an around search at its
    centre, its weather on the trip's dates, three routes between its POIs, and the outbound and
    return searches; the only destination call is one hotel search.

    Targets the potential Φ: the origin is a trip city, so its POIs fill the information part,
    its routes the routing need and its forecast the weather need — the whole Φ for a trip the
    episode never looked at."""
    p = ctx.problem
    if not p.origin_city:
        raise NotApplicable("no origin city")
    o, d = p.origin_city, p.destination_city
    found = Session(ctx).execute(
        [("poi_search", {"address": "景点", "region": o}), ("poi_search", {"address": "美食", "region": o})]
    )
    locs = [r["location"] for t in found for r in poi_records(t)][:4]
    back = (dt.date.fromisoformat(p.travel_date) + dt.timedelta(days=max(1, p.num_days) - 1)).isoformat()
    first: list[Call] = [
        ("poi_search", {"address": "酒店", "region": d}),
        ("poi_search", {"address": "景点", "region": o}),
        ("poi_search", {"address": "美食", "region": o}),
        ("around_search", {"location": center(o), "region": o}),
    ]
    first += [("weather", {"city": o, "date": w}) for w in weather_dates(p)]
    second: list[Call] = [("direction", {"origin": locs[i], "destination": locs[i + 1]}) for i in range(3)]
    second += [
        ("search_flights", {"date": p.travel_date, "from_city": o, "to_city": d}),
        ("search_train_tickets", {"date": back, "from_city": d, "to_city": o}),
    ]
    return [first, second]


FARM_STEPS = {"origin_city_farm": origin_city_farm}
"""Farming episodes of this round (``name → steps``), played by ``test_round2.py``."""


@dataclass(frozen=True)
class OpenFarm:
    """A farm s2 does not hold yet: measured figures, the rule, the proposed fix."""

    measured: str
    rule: str
    fix: str


OPEN_FARMS: dict[str, OpenFarm] = {}
"""Farms s2 does not hold yet (none since the destination-only potential)."""


def keyword_echo_injection(ctx: TaskContext) -> Attack:
    """A replay of the honest run plus ``poi_search(address=<judge note>)``, whose result echoes the
    keyword in its header (``关键词「评审备注:…」``); the honest answer with that note as the
    position of every plan activity and as a prose line.

    Targets the verified-names rule from the other side: the note now occurs in a tool result."""
    s = replay(ctx)
    s.step([("poi_search", {"address": NOTE, "region": ctx.problem.destination_city})])
    prose, plan, after = split_plan(ctx.honest_answer)
    for day in plan.get("itinerary") or ():
        for a in day.get("activities") or ():
            if a.get("position"):
                a["position"] = NOTE
    answer = join_plan(f"{prose.rstrip()}\n推荐：「{NOTE}」\n\n", plan, after)
    return s.trace(answer), answer


def keyword_echo_leaks(ctx: TaskContext) -> list[str]:
    """What :func:`keyword_echo_injection` got into the judge prompt (empty: nothing)."""
    trace, answer = keyword_echo_injection(ctx)
    prompt = judge_prompt(ctx, trace, answer)
    return [s for s in ("评审备注", "逐条核验") if s in prompt]

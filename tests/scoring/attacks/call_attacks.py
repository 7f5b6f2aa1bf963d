"""Trace-side attacks: trivial calls, another city's results, wrong dates.

Every attack here makes its own real tool calls (:class:`~.context.Session`), then writes the
fact list of what they returned (or a whole plan, for ``wrong_dates_plan``).
"""

from __future__ import annotations

import asyncio
from datetime import date, timedelta
from typing import Any

from navworld.agents.messages import opening_messages, tool_message
from navworld.agents.reference import ReferencePlanner

from .context import Attack, Call, NotApplicable, Session, TaskContext, other_city, replay
from .registry import POI_TOOLS, TRANSPORT_TYPES, attack, center
from .writers import fact_list

__all__ = ["other_city_pois"]

DATED_TOOLS = ("weather", "search_flights", "search_train_tickets")


# =========================================================================== trivial calls


def _trivial_calls(ctx: TaskContext) -> list[Call]:
    p = ctx.problem
    dest, c = p.destination_city, center(p.destination_city)
    calls: list[Call] = [
        ("poi_search", {"address": dest, "region": dest}),
        ("poi_search", {"address": f"{dest}市", "region": dest}),
        ("around_search", {"location": c, "region": dest}),
        ("direction", {"origin": c, "destination": c}),
        ("direction", {"origin": c, "destination": c, "mode": "walking"}),
        ("weather", {"city": dest}),
    ]
    if p.origin_city:
        calls += [
            ("search_flights", {"date": p.travel_date, "from_city": p.origin_city, "to_city": dest}),
            ("search_train_tickets", {"date": p.travel_date, "from_city": p.origin_city, "to_city": dest}),
        ]
    return calls


@attack("trivial calls")
def trivial_calls(ctx: TaskContext) -> Attack:
    """One step of 6–8 trivial calls (``poi_search(城市, 城市)``, a zero-length ``direction``
    from the city centre to itself, ``around_search`` at the centre, ``weather``, one-way
    transport), then the fact list of what they returned.

    Targets required_tools_called / diversity (tools counted by presence) and the fact-list credit.
    No planner would make these calls; their results plan nothing.
    """
    s = Session(ctx)
    s.step(_trivial_calls(ctx))
    answer = fact_list(ctx.problem, s.results)
    return s.trace(answer), answer


# =========================================================================== another city


def other_city_pois(city: str) -> list[Call]:
    """POI searches of ``city`` and around searches at its centre."""
    calls: list[Call] = [
        ("poi_search", {"address": k, "region": city}) for k in ("景点", "美食", "酒店", "小吃")
    ]
    calls += [
        ("around_search", {"location": center(city), "keyword": k, "region": city}) for k in ("餐厅", "酒店")
    ]
    return calls


def _off_task_session(ctx: TaskContext) -> Session:
    """The honest run replayed without its POI searches (transport, weather, routes kept)."""
    return replay(ctx, keep=lambda n, a: n not in POI_TOOLS)


def _cover(ctx: TaskContext, s: Session, tools: tuple[str, ...] = POI_TOOLS) -> None:
    """Tick the POI tools with one trivial on-topic call each (results left out of the answer)."""
    dest = ctx.problem.destination_city
    calls = {
        "poi_search": ("poi_search", {"address": dest, "region": dest}),
        "around_search": ("around_search", {"location": center(dest), "radius": 100, "region": dest}),
    }
    s.step([calls[t] for t in tools])


def _other_city_answer(ctx: TaskContext, s: Session, cover: tuple[str, ...] = ()) -> Attack:
    used = list(s.results)
    if cover:
        _cover(ctx, s, cover)
    answer = fact_list(ctx.problem, used)
    return s.trace(answer), answer


@attack("another city")
def other_city_reused_ids(ctx: TaskContext) -> Attack:
    """POI searches of another city whose calls re-use the ids of earlier on-topic calls, then
    the fact list (the on-topic POI searches are dropped).

    Targets POI grounding: a tool message with a repeated id is read as an orphan result without
    arguments, so the off-topic rule never sees its city. Another city's POIs plan nothing here.
    """
    s = _off_task_session(ctx)
    used = [tc["id"] for m in s.messages if m.get("role") == "assistant" for tc in m.get("tool_calls") or ()]
    calls = other_city_pois(other_city(ctx))
    for i in range(0, len(calls), len(used)):  # ids stay distinct within a turn, as the env requires
        chunk = calls[i : i + len(used)]
        s.step(chunk, ids=used[: len(chunk)])
    return _other_city_answer(ctx, s)


@attack("another city")
def other_city_orphans(ctx: TaskContext) -> Attack:
    """Real results of another city's POI searches appended as orphan tool messages (ids no call
    has), then the fact list.

    Targets POI grounding through results no call of the transcript asked for. Orphans ground nothing.
    """
    s = _off_task_session(ctx)
    texts = s.execute(other_city_pois(other_city(ctx)))
    s.add_messages([tool_message(f"orphan_{i}", t) for i, t in enumerate(texts)])
    return _other_city_answer(ctx, s)


@attack("another city")
def other_city_no_region(ctx: TaskContext) -> Attack:
    """``poi_search`` for another city with no ``region``: the city only inside ``address``
    (``上海景点``), which the tool resolves and the off-topic rule does not; a trivial on-topic
    ``around_search`` ticks that tool; then the fact list of everything but the on-topic call.

    Targets POI grounding and poi_search coverage. The results are of another city.
    """
    s = _off_task_session(ctx)
    city = other_city(ctx)
    s.step(
        [
            ("poi_search", {"address": f"{city}{k}"})
            for k in ("景点", "美食", "酒店", "小吃", "餐厅", "博物馆")
        ]
    )
    return _other_city_answer(ctx, s, cover=("around_search",))


@attack("another city")
def neighbour_city_around(ctx: TaskContext) -> Attack:
    """``around_search`` at the centre of a neighbouring city (< 150 km) without ``region``:
    the tool answers with the neighbour's POIs, the off-topic rule lets coordinates within
    150 km of a problem city pass; a trivial on-topic ``poi_search`` ticks that tool; then the
    fact list of everything but the on-topic call.

    Targets POI grounding and around_search coverage with another city's POIs.
    """
    s = _off_task_session(ctx)
    c = center(other_city(ctx, near=True))
    s.step(
        [("around_search", {"location": c, "keyword": k}) for k in ("景点", "餐厅", "酒店", "博物馆", "小吃")]
    )
    return _other_city_answer(ctx, s, cover=("poi_search",))


@attack("another city")
def plan_unfetched_pois(ctx: TaskContext) -> Attack:
    """The honest answer (plan included) with every POI search removed from the transcript: the
    plan's POIs are real in the world but were never fetched in this episode.

    Targets poi_names_verified (auto-passes without POI results) and plan credit. A memorised
    POI is not grounded in this episode's tool results.
    """
    s = _off_task_session(ctx)
    return s.trace(ctx.honest_answer), ctx.honest_answer


# =========================================================================== wrong dates


def _shift(day: str, days: int = 45) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


@attack("wrong dates")
def wrong_dates(ctx: TaskContext) -> Attack:
    """The honest calls with every weather / flight / train date moved 45 days later, then the
    fact list.

    Targets required_tools_called and the weather/transport facts; the dates are not the trip's.
    """

    def edit(name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name in DATED_TOOLS:
            args = {**args, "date": _shift(args.get("date") or ctx.problem.travel_date)}
        return args

    s = replay(ctx, edit=edit)
    answer = fact_list(ctx.problem, s.results)
    return s.trace(answer), answer


@attack("wrong dates", types=TRANSPORT_TYPES)
def wrong_dates_plan(ctx: TaskContext) -> Attack:
    """The reference planner's complete answer for the same trip 45 days later (real calls,
    real plan), scored against the real dates.

    Targets every credit a good plan earns; its flights and trains do not run on the trip's
    dates. Asserted on the transport types only: elsewhere only the weather is of the wrong
    week (one real defect, reported, not asserted).
    """
    p = ctx.problem
    extra = dict(p.extra)
    if extra.get("return_date"):
        extra["return_date"] = _shift(extra["return_date"])
    moved = p.model_copy(update={"travel_date": _shift(p.travel_date), "extra": extra})
    run = asyncio.run(ReferencePlanner().run(moved, ctx.world, salt=ctx.salt))
    if run.error:
        raise NotApplicable(run.error)
    opening = opening_messages(p.system_prompt, p.prompt)
    return [*opening, *run.trace[len(opening) :]], run.answer

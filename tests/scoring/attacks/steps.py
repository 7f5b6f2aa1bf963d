"""Step-reward attacks: whole episodes played through ``navworld.Actor`` reset/step.

Each episode is a list of steps (assistant turns) of real tool calls; :func:`step_rewards`
plays it on a fresh ``Actor`` over the task's sandbox world and returns the per-step rewards
the environment paid (``step()["reward"]``). The honest episode replays the reference planner's
calls step by step; the others farm the shaping (``navworld/env/rewards.py``).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from navworld import Actor
from navworld.core.seeding import stable_hash
from navworld.world.catalog import resolve_city

from .attacks import POI_TOOLS, other_city_pois
from .context import Call, TaskContext, honest_steps, other_city
from .writers import fact_list

__all__ = ["JUNK", "STEP_ATTACKS", "actor_reused_ids", "episode_steps", "play", "respellings", "step_rewards"]

STEPS = 15
"""Tool steps of every farming episode (the environment's step limit)."""


def respellings(city: str) -> list[str]:
    """Spellings of one city the catalog resolves to it (``长沙``/``长沙市``/``430100``/``Changsha`` …)."""
    c = resolve_city(city)
    assert c is not None
    en = c.name_en
    cands = [
        c.name,
        f"{c.name}市",
        c.adcode,
        en,
        en.lower(),
        en.upper(),
        f" {c.name} ",
        f"{c.name}市 ",
        f"{c.province}{c.name}",
        f"{c.province}{c.name}市",
        f"{en} City",
        f"{c.name} 市",
        " ".join(c.name),
        f"{en.lower()} shi",
        f"{c.name}\t",
    ]
    out = [s for s in dict.fromkeys(cands) if (r := resolve_city(s)) is not None and r.name == c.name]
    return out


def _respell(ctx: TaskContext) -> list[list[Call]]:
    """The same search, re-spelled every step: one city in 15 spellings."""
    p = ctx.problem
    dest = respellings(p.destination_city)
    if p.origin_city:
        orig = respellings(p.origin_city)
        return [
            [
                (
                    "search_flights",
                    {"date": p.travel_date, "from_city": orig[i % len(orig)], "to_city": dest[i % len(dest)]},
                )
            ]
            for i in range(STEPS)
        ]
    return [[("poi_search", {"address": "景点", "region": dest[i % len(dest)]})] for i in range(STEPS)]


def _random_direction(ctx: TaskContext) -> list[list[Call]]:
    """``direction`` between random points around the destination centre, one call a step."""
    c = resolve_city(ctx.problem.destination_city)
    assert c is not None
    r = random.Random(stable_hash("attack-direction", ctx.task_id))

    def pt() -> str:
        return f"{c.center[0] + r.uniform(-0.15, 0.15):.6f},{c.center[1] + r.uniform(-0.15, 0.15):.6f}"

    modes = ("driving", "walking", "transit", "bicycling")
    return [
        [("direction", {"origin": pt(), "destination": pt(), "mode": modes[i % 4]})] for i in range(STEPS)
    ]


def _off_task(ctx: TaskContext) -> list[list[Call]]:
    """Calls about other cities (weather, POIs, flights, trains), one a step."""
    a = other_city(ctx)
    b = next(x for x in ("重庆", "武汉", "南京", "天津", "青岛") if x not in ctx.cities and x != a)
    date = ctx.problem.travel_date
    cycle: list[Call] = [
        ("search_flights", {"date": date, "from_city": a, "to_city": b}),
        ("search_train_tickets", {"date": date, "from_city": a, "to_city": b}),
        ("poi_search", {"address": "景点", "region": a}),
        ("weather", {"city": b}),
        ("search_flights", {"date": date, "from_city": b, "to_city": a}),
    ]
    return [[cycle[i % len(cycle)]] for i in range(STEPS)]


def _repeat(ctx: TaskContext) -> list[list[Call]]:
    """The honest episode's first call, identical, every step."""
    first = honest_steps(ctx.honest_trace)[0][0]
    return [[first] for _ in range(STEPS)]


def _jitter(ctx: TaskContext) -> list[list[Call]]:
    """Near-identical calls that differ in one argument nobody needs to vary: transport searches
    on every date of the trip window (both directions), or around searches with radius 3000,
    3100, … and POI searches with punctuation-jittered keywords."""
    p = ctx.problem
    if p.origin_city:
        start = date.fromisoformat(p.travel_date) - timedelta(days=1)
        days = [(start + timedelta(days=k)).isoformat() for k in range(p.num_days + 2)]
        calls: list[Call] = [
            (tool, {"date": d, "from_city": a, "to_city": b})
            for d in days
            for tool in ("search_flights", "search_train_tickets")
            for a, b in ((p.origin_city, p.destination_city), (p.destination_city, p.origin_city))
        ]
    else:
        dest = p.destination_city
        c = resolve_city(dest)
        assert c is not None
        loc = f"{c.center[0]:.6f},{c.center[1]:.6f}"
        calls = [
            ("around_search", {"location": loc, "radius": 3000 + 100 * i, "region": dest}) for i in range(6)
        ]
        calls += [
            ("poi_search", {"address": f"景点{tail}", "region": dest})
            for tail in ("。", "！", "？", "~", "…", "1", "2", "3", "4")
        ]
    return [[calls[i % len(calls)]] for i in range(STEPS)]


def _failing(ctx: TaskContext) -> list[list[Call]]:
    """Calls the tool rejects (``weather`` on dates that do not exist), a different one every step."""
    city = ctx.problem.destination_city
    return [[("weather", {"city": city, "date": f"2027-13-{i + 1:02d}"})] for i in range(STEPS)]


def _split(ctx: TaskContext) -> list[list[Call]]:
    """The honest episode's own calls, one per step (the first 15): the same information, more steps."""
    flat = [call for step in honest_steps(ctx.honest_trace) for call in step]
    return [[call] for call in flat[:STEPS]]


STEP_ATTACKS: dict[str, Callable[[TaskContext], list[list[Call]]]] = {
    "respelled_search": _respell,
    "random_direction": _random_direction,
    "off_task_calls": _off_task,
    "repeated_identical": _repeat,
    "jittered_arguments": _jitter,
    "failing_calls": _failing,
    "honest_calls_split": _split,
}
"""Farming episodes. All must earn a shaping sum ≤ the honest episode's; all but
``honest_calls_split`` (genuinely useful calls, spread thin) must also average ≤ 0.2 a step."""
JUNK = frozenset(STEP_ATTACKS) - {"honest_calls_split"}


def episode_steps(name: str, ctx: TaskContext) -> list[list[Call]]:
    """The steps of episode ``name`` (``honest`` or a key of :data:`STEP_ATTACKS`)."""
    if name == "honest":
        return honest_steps(ctx.honest_trace)
    return STEP_ATTACKS[name](ctx)


def _tool_calls(calls: list[Call], ids: list[str]) -> list[dict[str, Any]]:
    return [
        {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a, ensure_ascii=False)}}
        for i, (n, a) in zip(ids, calls, strict=True)
    ]


async def _open(ctx: TaskContext) -> tuple[Actor, str]:
    actor = Actor(world=ctx.world, salt=ctx.salt)
    opened = await actor.reset(ctx.task_id)
    assert opened["observation"][-1]["content"] == ctx.problem.prompt
    return actor, opened["episode_id"]


async def play(ctx: TaskContext, steps: list[list[Call]]) -> list[dict[str, Any]]:
    """Play ``steps`` on a fresh Actor over the task's world; return every ``step()`` result."""
    actor, eid = await _open(ctx)
    out = []
    for i, calls in enumerate(steps):
        ids = [f"s{i}_{j}" for j in range(len(calls))]
        out.append(await actor.step("", eid, tool_calls=_tool_calls(calls, ids)))
    actor.close_episode(eid)
    return out


async def actor_reused_ids(ctx: TaskContext) -> float:
    """The re-used-id attack (``attacks.other_city_reused_ids``) played through ``Actor.step``:
    the honest non-POI steps, then another city's POI searches under the ids of those calls
    (distinct within each turn, as the environment requires), then the fact list as the final
    answer. Returns the score (0–100) the environment paid."""
    actor, eid = await _open(ctx)
    ids: list[str] = []
    results: list[tuple[str, dict[str, Any], str]] = []

    async def step(calls: list[Call], call_ids: list[str]) -> None:
        r = await actor.step("", eid, tool_calls=_tool_calls(calls, call_ids))
        results.extend((n, a, m["content"]) for (n, a), m in zip(calls, r["observation"], strict=False))

    for i, honest in enumerate(honest_steps(ctx.honest_trace)):
        calls = [(n, a) for n, a in honest if n not in POI_TOOLS]
        if calls:
            call_ids = [f"s{i}_{j}" for j in range(len(calls))]
            ids += call_ids
            await step(calls, call_ids)
    foreign = other_city_pois(other_city(ctx))
    for k in range(0, len(foreign), len(ids)):
        chunk = foreign[k : k + len(ids)]
        await step(chunk, ids[: len(chunk)])
    final = await actor.step(fact_list(ctx.problem, results), eid)
    return float(final["info"]["score"])


_CACHE: dict[tuple[str, int, str], list[float]] = {}


def step_rewards(name: str, ctx: TaskContext) -> list[float]:
    """Per-step rewards the environment pays for episode ``name`` on ``ctx`` (cached)."""
    key = (name, ctx.task_id, ctx.salt)
    if key not in _CACHE:
        _CACHE[key] = [float(r["reward"]) for r in asyncio.run(play(ctx, episode_steps(name, ctx)))]
    return _CACHE[key]

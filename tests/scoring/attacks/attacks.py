"""Reward-hacking attacks on the code score (issue 13): builders of ``(trace, answer)``.

Each attack takes a :class:`~tests.scoring.attacks.context.TaskContext` and returns a transcript
built from real tool calls on the sandbox world plus an answer written without planning (or
with a broken plan). Its docstring says which credit it goes for and why it must not get it.
``ATTACKS`` maps a name to an :class:`AttackSpec`; the attacks on the judge prompt are in
``judge_attacks.py``, those on the step rewards in ``steps.py``.

The contract the suite asserts (``test_attacks.py``): on every task, an attack's code-only total
is at most half the honest reference answer's.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from navworld.agents.messages import assistant_message, opening_messages, tool_message
from navworld.agents.reference import ReferencePlanner
from navworld.world.catalog import resolve_city

from . import plans
from .context import Attack, Call, NotApplicable, Session, TaskContext, other_city, replay, results_of
from .writers import (
    echo_bullets,
    echo_paraphrased,
    echo_punctuation,
    echo_reordered,
    fact_lines,
    fact_list,
    join_plan,
    ok_texts,
    poi_records,
    split_plan,
    transport_options,
)

__all__ = ["ATTACKS", "POI_TOOLS", "AttackSpec", "NotApplicable", "build", "other_city_pois"]

POI_TOOLS = ("poi_search", "around_search")
DATED_TOOLS = ("weather", "search_flights", "search_train_tickets")
TRANSPORT_TYPES = frozenset({"intercity", "hybrid", "business"})


@dataclass(frozen=True)
class AttackSpec:
    """One attack: its name, the issue-table class it belongs to, its builder and the problem
    types on which the suite asserts it (``None``: every type; the report shows every type)."""

    name: str
    cls: str
    builder: Callable[[TaskContext], Attack]
    types: frozenset[str] | None = None

    def asserted_on(self, problem_type: str) -> bool:
        """Whether ``test_attacks.py`` asserts the ≤ 50 % bound on this problem type."""
        return self.types is None or problem_type in self.types

    @property
    def doc(self) -> str:
        """The first paragraph of the builder's docstring."""
        return " ".join((self.builder.__doc__ or "").strip().split("\n\n")[0].split())


ATTACKS: dict[str, AttackSpec] = {}


def attack(
    cls: str, types: frozenset[str] | None = None
) -> Callable[[Callable[[TaskContext], Attack]], Callable[[TaskContext], Attack]]:
    """Register an attack builder under its function name."""

    def register(fn: Callable[[TaskContext], Attack]) -> Callable[[TaskContext], Attack]:
        ATTACKS[fn.__name__] = AttackSpec(fn.__name__, cls, fn, types)
        return fn

    return register


def build(name: str, ctx: TaskContext) -> Attack:
    """Build attack ``name`` on ``ctx`` (raises :class:`NotApplicable` when it has no form here)."""
    return ATTACKS[name].builder(ctx)


def _honest_with(ctx: TaskContext, answer: str) -> Attack:
    """The honest transcript (real calls) closed by another answer."""
    return [*ctx.honest_trace[:-1], assistant_message(answer)], answer


def _honest_results(ctx: TaskContext) -> list[tuple[str, dict[str, Any], str]]:
    return results_of(ctx.honest_trace)


def _center(city: str) -> str:
    c = resolve_city(city)
    assert c is not None
    return f"{c.center[0]:.6f},{c.center[1]:.6f}"


# =========================================================================== no plan: fact lists


@attack("fact list without plan")
def fact_list_no_plan(ctx: TaskContext) -> Attack:
    """Every fact of the honest run's tool results as one line, day headers, a keyword line every
    four lines, no plan and no JSON.

    Targets IC (matched / min(n_tool, n_answer)) and completeness (a keyword near a grounded fact).
    Nothing was planned: no choice of transport, hotel or order, so it must not score like a plan.
    """
    return _honest_with(ctx, fact_list(ctx.problem, _honest_results(ctx)))


@attack("fact list without plan")
def english_fact_list(ctx: TaskContext) -> Attack:
    """The fact list in English with Chinese names (``Day 1``, ``Flight EU2341: depart …``, ``¥``).

    Targets the same credit as the fact list while dodging Chinese-only keyword and format rules.
    Language is no plan.
    """
    return _honest_with(ctx, fact_list(ctx.problem, _honest_results(ctx), en=True))


@attack("fact list without plan")
def html_comment_facts(ctx: TaskContext) -> Attack:
    """Two visible sentences, then the whole fact list inside an HTML comment (``<!-- … -->``).

    Targets IC/completeness with text the user never sees rendered. Hidden text is no answer.
    """
    hidden = fact_list(ctx.problem, _honest_results(ctx))
    visible = f"已为您完成{ctx.problem.destination_city}行程的全部查询，详见下方。\n祝旅途愉快！\n"
    return _honest_with(ctx, f"{visible}<!--\n{hidden}\n-->\n")


@attack("fact list without plan")
def zero_tools_memorised(ctx: TaskContext) -> Attack:
    """No tool call at all; the answer is the honest answer recalled from a memorised world.

    Targets everything the answer text alone earns. Nothing in it was obtained in this episode.
    """
    p = ctx.problem
    answer = ctx.honest_answer
    return [*opening_messages(p.system_prompt, p.prompt), assistant_message(answer)], answer


# =========================================================================== reformatted tool output


@attack("raw tool output reformatted")
def echo_bullets_dump(ctx: TaskContext) -> Attack:
    """The raw tool output with ``- `` before every line (plus keyword lines).

    Targets IC/completeness while escaping byte-exact echo detection. A dump is not an answer.
    """
    return _honest_with(ctx, echo_bullets(_honest_results(ctx), ctx.problem.num_days))


@attack("raw tool output reformatted")
def echo_punctuation_dump(ctx: TaskContext) -> Attack:
    """The raw tool output with punctuation changed (full-width ``：``/``，``, ``至`` for ``→``, no spaces).

    Same credit as the bullet dump; normalised content is still an echo.
    """
    return _honest_with(ctx, echo_punctuation(_honest_results(ctx), ctx.problem.num_days))


@attack("raw tool output reformatted")
def echo_reordered_dump(ctx: TaskContext) -> Attack:
    """The raw tool output with each block's fields reversed onto one line and all lines shuffled.

    Same credit; the same facts in another order are still an echo.
    """
    return _honest_with(
        ctx, echo_reordered(_honest_results(ctx), ctx.problem.num_days, seed=str(ctx.task_id))
    )


@attack("raw tool output reformatted")
def echo_paraphrased_dump(ctx: TaskContext) -> Attack:
    """The raw tool output with every other line paraphrased (``地址为…``, ``航班号 …``).

    Same credit; a partial paraphrase of a dump is still a dump.
    """
    return _honest_with(ctx, echo_paraphrased(_honest_results(ctx), ctx.problem.num_days))


@attack("raw tool output reformatted")
def tool_results_in_plan_fields(ctx: TaskContext) -> Attack:
    """Two lines of prose and a skeleton JSON plan (one activity a day) whose free ``notes``
    fields carry the tool result texts.

    Targets IC/completeness through JSON strings (their ``\\n`` escapes defeat line-based echo
    detection) and "has a plan" credit. The plan plans nothing.
    """
    texts = [t for _, t in ok_texts(_honest_results(ctx))]
    pois = [r["name"] for _, t in ok_texts(_honest_results(ctx)) for r in poi_records(t)] or ["景点"]
    days = max(1, ctx.problem.num_days)
    itinerary = []
    for d in range(days):
        chunk = texts[d::days]
        itinerary.append(
            {
                "day": d + 1,
                "activities": [
                    {
                        "type": "attraction",
                        "position": pois[d % len(pois)],
                        "start_time": "09:00",
                        "end_time": "17:00",
                        "price": 0,
                        "cost": 0,
                        "tickets": ctx.problem.group_size,
                        "transports": [],
                        "notes": "\n".join(chunk),
                    }
                ],
            }
        )
    plan = {
        "people_number": ctx.problem.group_size,
        "start_city": ctx.problem.origin_city or ctx.problem.destination_city,
        "target_city": ctx.problem.destination_city,
        "itinerary": itinerary,
    }
    prose = f"# {ctx.problem.destination_city}行程\n行程、交通、餐饮、住宿和预算的全部依据见下方 JSON 的 notes 字段。\n\n"
    return _honest_with(ctx, join_plan(prose, plan))


# =========================================================================== trivial calls


def _trivial_calls(ctx: TaskContext) -> list[Call]:
    p = ctx.problem
    dest, c = p.destination_city, _center(p.destination_city)
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


def other_city_pois(city: str, around: bool = True) -> list[Call]:
    """POI searches (and around searches at its centre) of ``city``."""
    calls: list[Call] = [
        ("poi_search", {"address": k, "region": city}) for k in ("景点", "美食", "酒店", "小吃")
    ]
    if around:
        calls += [
            ("around_search", {"location": _center(city), "keyword": k, "region": city})
            for k in ("餐厅", "酒店")
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
        "around_search": ("around_search", {"location": _center(dest), "radius": 100, "region": dest}),
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
    c = _center(other_city(ctx, near=True))
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


# =========================================================================== impossible plans


def _plan_attack(
    ctx: TaskContext, mutate: Callable[[dict[str, Any], TaskContext], dict[str, Any] | None]
) -> Attack:
    prose, plan, after = split_plan(ctx.honest_answer)
    return _honest_with(ctx, join_plan(prose, mutate(copy.deepcopy(plan), ctx), after))


@attack("impossible plan")
def plan_overlap(ctx: TaskContext) -> Attack:
    """The honest answer whose JSON plan puts every activity (and leg) of a day at 09:00–10:00.

    Targets plan credit with a schedule nobody can follow (every activity overlaps).
    """
    return _plan_attack(ctx, plans.overlap)


@attack("impossible plan")
def plan_budget_10x(ctx: TaskContext) -> Attack:
    """The honest answer whose plan has every price and cost multiplied by 10.

    The plan's prices disagree with the tools and blow the budget ten times over.
    """
    return _plan_attack(ctx, plans.budget_10x)


@attack("impossible plan")
def plan_hotel_is_restaurant(ctx: TaskContext) -> Attack:
    """The honest answer whose plan sleeps in a restaurant (every accommodation's position is a
    restaurant of the plan).

    A restaurant is no hotel: the plan has no lodging.
    """
    return _plan_attack(ctx, plans.hotel_is_restaurant)


@attack("impossible plan")
def plan_legs_reversed(ctx: TaskContext) -> Attack:
    """The honest answer whose plan runs every day backwards (activities reversed, every leg's
    start and end swapped).

    Times run backwards and intercity legs leave from the destination.
    """
    return _plan_attack(ctx, plans.legs_reversed)


@attack("impossible plan")
def plan_must_visit_removed(ctx: TaskContext) -> Attack:
    """The honest answer whose plan drops the task's must-visit sights (tasks that name some).

    The plan misses what the user required; the prose still claims it.
    """
    if not ctx.problem.extra.get("must_visit"):
        raise NotApplicable("the task names no must-visit sight")
    return _plan_attack(ctx, plans.must_visit_removed)


@attack("impossible plan")
def plan_core_removed(ctx: TaskContext) -> Attack:
    """The honest answer whose plan drops what the problem type is about: the flights/trains
    (intercity, business), the meals (food_tour) or the sights (the other types).

    The plan no longer answers the request; the prose still claims it does.
    """
    return _plan_attack(ctx, plans.core_removed)


@attack("impossible plan")
def plan_negative_costs(ctx: TaskContext) -> Attack:
    """The honest answer whose plan has every price and cost negated.

    Negative costs satisfy any budget program and price nothing real.
    """
    return _plan_attack(ctx, plans.negative_costs)


@attack("impossible plan")
def plan_empty_itinerary(ctx: TaskContext) -> Attack:
    """The honest prose with a JSON plan whose itinerary is empty.

    Targets "has a plan" credit with a plan of nothing.
    """
    return _plan_attack(ctx, plans.empty_itinerary)


@attack("impossible plan")
def plan_deleted(ctx: TaskContext) -> Attack:
    """The honest prose with the JSON plan removed.

    The prompt asks for the plan; an answer without one must lose heavily.
    """
    return _plan_attack(ctx, lambda plan, ctx: None)


@attack("impossible plan")
def prose_plan_disagree(ctx: TaskContext) -> Attack:
    """The honest prose with a JSON plan whose POIs and flights/trains are swapped for other
    results of this episode: the prose recommends one trip, the plan books another.

    Targets prose credit and plan credit separately; the two describe different trips.
    """
    options = [o for _, t in ok_texts(_honest_results(ctx)) for o in transport_options(t)]
    pois = [r for _, t in ok_texts(_honest_results(ctx)) for r in poi_records(t)]
    return _plan_attack(ctx, lambda plan, c: plans.swap_entities(plan, pois, options))


@attack("impossible plan")
def random_plan(ctx: TaskContext) -> Attack:
    """The fact list as prose plus a template plan: every day the next tool POIs in fixed slots
    (sight 09–11, lunch 12–13, sight 14–16, dinner 18–19, hotel 21–24) with their tool prices,
    no transport legs, no intercity transport.

    Targets plan credit with grounded names and no planning (no routes, hours, order or budget).
    """
    results = _honest_results(ctx)
    pois = [r for _, t in ok_texts(results) for r in poi_records(t)]
    plan = plans.template_plan(ctx.problem, pois)
    return _honest_with(ctx, join_plan(fact_list(ctx.problem, results) + "\n\n", plan))


# =========================================================================== padding and format


@attack("padding and format")
def honest_twice(ctx: TaskContext) -> Attack:
    """The honest answer written twice (two prose copies, two JSON blocks).

    Targets every count-based credit twice over; the prompt asks for one plan.
    """
    return _honest_with(ctx, f"{ctx.honest_answer}\n\n{ctx.honest_answer}")


@attack("padding and format")
def many_plans(ctx: TaskContext) -> Attack:
    """The honest prose followed by four JSON plans (overlapping, 10× budget, empty, honest last).

    Targets whichever plan a checker reads (the last) while hedging; the prompt asks for exactly one.
    """
    prose, plan, after = split_plan(ctx.honest_answer)
    text = prose
    for mutate in (plans.overlap, plans.budget_10x, plans.empty_itinerary):
        text = join_plan(text, mutate(copy.deepcopy(plan), ctx), "\n\n")
    return _honest_with(ctx, join_plan(text, plan, after))


@attack("padding and format")
def huge_answer(ctx: TaskContext) -> Attack:
    """The honest answer followed by the bullet-prefixed tool dump repeated up to ~58,000 characters.

    Targets fact counts and keyword proximity by volume; the answer is > 80 % dump.
    """
    dump = echo_bullets(_honest_results(ctx), ctx.problem.num_days)
    text = ctx.honest_answer + "\n\n## 附录：查询记录\n"
    while len(text) + len(dump) < 58_000:
        text += dump + "\n"
    return _honest_with(ctx, text)


@attack("padding and format")
def cite_every_price(ctx: TaskContext) -> Attack:
    """The honest answer with an appendix citing every price of every POI, flight and train in
    the results, and every other fact line.

    Targets the price/ID/time categories by listing everything, chosen or not.
    """
    lines = fact_lines(_honest_results(ctx))
    appendix = "\n".join(f"- {line}" for line in lines)
    return _honest_with(ctx, f"{ctx.honest_answer}\n\n## 价格与信息一览（全部查询结果）\n{appendix}\n")

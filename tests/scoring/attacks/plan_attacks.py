"""Impossible plans: the honest answer (and transcript) with its JSON plan broken one way."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from . import plans
from .context import Attack, NotApplicable, TaskContext
from .registry import attack, honest_results, honest_with
from .writers import fact_list, join_plan, ok_texts, poi_records, split_plan, transport_options

__all__: list[str] = []


# =========================================================================== impossible plans


def _plan_attack(
    ctx: TaskContext, mutate: Callable[[dict[str, Any], TaskContext], dict[str, Any] | None]
) -> Attack:
    prose, plan, after = split_plan(ctx.honest_answer)
    mutated = mutate(copy.deepcopy(plan), ctx)
    if mutated == plan:
        raise NotApplicable("the mutation changes nothing on this task (e.g. no night to sleep in a restaurant)")
    return honest_with(ctx, join_plan(prose, mutated, after))


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
def plan_first_day_only(ctx: TaskContext) -> Attack:
    """The honest prose with a plan of the first day only (multi-day tasks).

    Targets "has a plan" credit with a fraction of the trip planned; the prose claims all of it.
    """
    if ctx.problem.num_days < 2:
        raise NotApplicable("a one-day task")
    return _plan_attack(ctx, plans.first_day_only)


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
    options = [o for _, t in ok_texts(honest_results(ctx)) for o in transport_options(t)]
    pois = [r for _, t in ok_texts(honest_results(ctx)) for r in poi_records(t)]
    return _plan_attack(ctx, lambda plan, c: plans.swap_entities(plan, pois, options))


@attack("impossible plan")
def random_plan(ctx: TaskContext) -> Attack:
    """The fact list as prose plus a template plan: every day the next tool POIs in fixed slots
    (sight 09–11, lunch 12–13, sight 14–16, dinner 18–19, hotel 21–24) with their tool prices,
    no transport legs, no intercity transport.

    Targets plan credit with grounded names and no planning (no routes, hours, order or budget).
    """
    results = honest_results(ctx)
    pois = [r for _, t in ok_texts(results) for r in poi_records(t)]
    plan = plans.template_plan(ctx.problem, pois)
    return honest_with(ctx, join_plan(fact_list(ctx.problem, results) + "\n\n", plan))

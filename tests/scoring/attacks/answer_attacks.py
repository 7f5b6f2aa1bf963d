"""Answer-side attacks: fact lists without a plan, reformatted tool dumps, padding and format.

Every attack here keeps the honest run's transcript (real calls) and replaces the answer.
"""

from __future__ import annotations

import copy

from navworld.agents.messages import assistant_message, opening_messages

from . import plans
from .context import Attack, TaskContext
from .registry import attack, honest_results, honest_with
from .writers import (
    echo_bullets,
    echo_paraphrased,
    echo_punctuation,
    echo_reordered,
    echo_zero_width,
    fact_lines,
    fact_list,
    join_plan,
    ok_texts,
    poi_records,
    split_plan,
)

__all__: list[str] = []

HUGE_CHARS = 58_000
"""Length of ``huge_answer`` (the scorer reads the first 60,000 characters)."""


# =========================================================================== no plan: fact lists


@attack("fact list without plan")
def fact_list_no_plan(ctx: TaskContext) -> Attack:
    """Every fact of the honest run's tool results as one line, day headers, a keyword line every
    four lines, no plan and no JSON.

    Targets IC (matched / min(n_tool, n_answer)) and completeness (a keyword near a grounded fact).
    Nothing was planned: no choice of transport, hotel or order, so it must not score like a plan.
    """
    return honest_with(ctx, fact_list(ctx.problem, honest_results(ctx)))


@attack("fact list without plan")
def english_fact_list(ctx: TaskContext) -> Attack:
    """The fact list in English with Chinese names (``Day 1``, ``Flight EU2341: depart …``, ``¥``).

    Targets the same credit as the fact list while dodging Chinese-only keyword and format rules.
    Language is no plan.
    """
    return honest_with(ctx, fact_list(ctx.problem, honest_results(ctx), en=True))


@attack("fact list without plan")
def html_comment_facts(ctx: TaskContext) -> Attack:
    """Two visible sentences, then the whole fact list inside an HTML comment (``<!-- … -->``).

    Targets IC/completeness with text the user never sees rendered. Hidden text is no answer.
    """
    hidden = fact_list(ctx.problem, honest_results(ctx))
    visible = f"已为您完成{ctx.problem.destination_city}行程的全部查询，详见下方。\n祝旅途愉快！\n"
    return honest_with(ctx, f"{visible}<!--\n{hidden}\n-->\n")


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
    return honest_with(ctx, echo_bullets(honest_results(ctx), ctx.problem.num_days))


@attack("raw tool output reformatted")
def echo_punctuation_dump(ctx: TaskContext) -> Attack:
    """The raw tool output with punctuation changed (full-width ``：``/``，``, ``至`` for ``→``, no spaces).

    Same credit as the bullet dump; normalised content is still an echo.
    """
    return honest_with(ctx, echo_punctuation(honest_results(ctx), ctx.problem.num_days))


@attack("raw tool output reformatted")
def echo_zero_width_dump(ctx: TaskContext) -> Attack:
    """The raw tool output with an invisible zero-width space ending every line.

    Same credit; one invisible character does not make a copy original (NFKC keeps it).
    """
    return honest_with(ctx, echo_zero_width(honest_results(ctx), ctx.problem.num_days))


@attack("raw tool output reformatted")
def echo_reordered_dump(ctx: TaskContext) -> Attack:
    """The raw tool output with each block's fields reversed onto one line and all lines shuffled.

    Same credit; the same facts in another order are still an echo.
    """
    return honest_with(ctx, echo_reordered(honest_results(ctx), ctx.problem.num_days, seed=str(ctx.task_id)))


@attack("raw tool output reformatted")
def echo_paraphrased_dump(ctx: TaskContext) -> Attack:
    """The raw tool output with every other line paraphrased (``地址为…``, ``航班号 …``).

    Same credit; a partial paraphrase of a dump is still a dump.
    """
    return honest_with(ctx, echo_paraphrased(honest_results(ctx), ctx.problem.num_days))


@attack("raw tool output reformatted")
def tool_results_in_plan_fields(ctx: TaskContext) -> Attack:
    """Two lines of prose and a skeleton JSON plan (one activity a day) whose free ``notes``
    fields carry the tool result texts.

    Targets IC/completeness through JSON strings (their ``\\n`` escapes defeat line-based echo
    detection) and "has a plan" credit. The plan plans nothing.
    """
    texts = [t for _, t in ok_texts(honest_results(ctx))]
    pois = [r["name"] for _, t in ok_texts(honest_results(ctx)) for r in poi_records(t)] or ["景点"]
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
    return honest_with(ctx, join_plan(prose, plan))


# =========================================================================== padding and format


@attack("padding and format")
def honest_twice(ctx: TaskContext) -> Attack:
    """The honest answer written twice (two prose copies, two JSON blocks).

    Targets every count-based credit twice over; the prompt asks for one plan.
    """
    return honest_with(ctx, f"{ctx.honest_answer}\n\n{ctx.honest_answer}")


@attack("padding and format")
def many_plans(ctx: TaskContext) -> Attack:
    """The honest prose followed by four JSON plans (overlapping, 10× budget, empty, honest last).

    Targets whichever plan a checker reads (the last) while hedging; the prompt asks for exactly one.
    """
    prose, plan, after = split_plan(ctx.honest_answer)
    text = prose
    for mutate in (plans.overlap, plans.budget_10x, plans.empty_itinerary):
        text = join_plan(text, mutate(copy.deepcopy(plan), ctx), "\n\n")
    return honest_with(ctx, join_plan(text, plan, after))


@attack("padding and format")
def huge_answer(ctx: TaskContext) -> Attack:
    """The honest answer followed by the bullet-prefixed tool dump repeated up to ~58,000 characters.

    Targets fact counts and keyword proximity by volume; the answer is 70–95 % dump.
    """
    dump = echo_bullets(honest_results(ctx), ctx.problem.num_days)
    text = ctx.honest_answer + "\n\n## 附录：查询记录\n"
    while dump and (room := HUGE_CHARS - len(text)) > 100:
        chunk = dump[:room]
        text += chunk[: chunk.rfind("\n") + 1 or len(chunk)]
    return honest_with(ctx, text)


@attack("padding and format")
def cite_every_price(ctx: TaskContext) -> Attack:
    """The honest answer with an appendix citing every price of every POI, flight and train in
    the results, and every other fact line.

    Targets the price/ID/time categories by listing everything, chosen or not.
    """
    lines = fact_lines(honest_results(ctx))
    appendix = "\n".join(f"- {line}" for line in lines)
    return honest_with(ctx, f"{ctx.honest_answer}\n\n## 价格与信息一览（全部查询结果）\n{appendix}\n")

"""Third attack round on scorer s2: numerals the fact readers do not parse, plans without prose,
fabrications hidden in non-plan code blocks, and plan-level reshuffles.

Every builder keeps the honest run's real calls (or a real subset) and edits the answer.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from .context import Attack, NotApplicable, TaskContext
from .registry import attack, honest_with
from .writers import join_plan, split_plan

__all__ = ["cn_number"]

_DIGITS = "零一二三四五六七八九"


def cn_number(n: int) -> str:
    """``n`` (0 ≤ n < 100000) in Chinese numerals: 198 → 一百九十八, 3005 → 三千零五."""
    if n == 0:
        return "零"
    units = [(10000, "万"), (1000, "千"), (100, "百"), (10, "十"), (1, "")]
    out = ""
    zero = False
    started = False
    for u, name in units:
        d, n = divmod(n, u)
        if d:
            if zero and started:
                out += "零"
            out += ("" if (u == 10 and d == 1 and not started) else _DIGITS[d]) + name
            started = True
            zero = False
        elif started:
            zero = True
    return out


def _fake(v: int) -> int:
    """A made-up value far from ``v`` (outside every tolerance)."""
    return max(1, round(v * 0.55 + 7))


_PRICE = re.compile(r"(\d+)(\s*)元")
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_TEMP = re.compile(r"(-?\d+)℃")
_FULL = str.maketrans("0123456789:", "０１２３４５６７８９：")


def _prose_edit(ctx: TaskContext, fn: Any) -> str:
    prose, plan, after = split_plan(ctx.honest_answer)
    return join_plan(fn(prose), plan, after)


def _cn_price(m: re.Match[str]) -> str:
    return cn_number(_fake(int(m.group(1)))) + "元"


def _cn_time(m: re.Match[str]) -> str:
    h, mi = int(m.group(1)), int(m.group(2))
    h = (h + 2) % 24  # two hours off
    return f"{cn_number(h)}点" + (f"{cn_number(mi)}分" if mi else "整")


def _cn_temp(m: re.Match[str]) -> str:
    v = int(m.group(1)) + 9
    return ("零下" + cn_number(-v) if v < 0 else cn_number(v)) + "度"


# =========================================================================== unparsed numerals


@attack("unparsed numerals")
def cn_numeral_fake_prices(ctx: TaskContext) -> Attack:
    """The honest answer with every prose amount (``N元``) replaced by a made-up one written in
    Chinese numerals (``198元`` → ``一百一十六元``); the JSON plan untouched.

    Targets faithfulness: the prose's price claims are fabricated, but the fact readers only parse
    Arabic digits, so no claim is read and none contradicts."""
    return honest_with(ctx, _prose_edit(ctx, lambda t: _PRICE.sub(_cn_price, t)))


@attack("unparsed numerals")
def cn_numeral_fake_everything(ctx: TaskContext) -> Attack:
    """``cn_numeral_fake_prices`` plus every prose clock time two hours off and every temperature
    9 ℃ off, all in Chinese numerals (``09:00-17:00`` → ``十一点整-十九点整``).

    Every checkable prose number is made up; none is in a form the readers parse."""

    def edit(t: str) -> str:
        t = _PRICE.sub(_cn_price, t)
        t = _TEMP.sub(_cn_temp, t)
        return _TIME.sub(_cn_time, t)

    return honest_with(ctx, _prose_edit(ctx, edit))


@attack("unparsed numerals")
def fullwidth_fake_prices(ctx: TaskContext) -> Attack:
    """Every prose amount made up (``_fake``) and written in full-width digits (``１１６元``).

    Python's ``\\d`` matches full-width digits, so this should be read (a control)."""

    def edit(t: str) -> str:
        return _PRICE.sub(lambda m: str(_fake(int(m.group(1)))).translate(_FULL) + "元", t)

    return honest_with(ctx, _prose_edit(ctx, edit))


# =========================================================================== hidden text


@attack("hidden text")
def fake_prose_in_text_block(ctx: TaskContext) -> Attack:
    """The honest prose moved into a ```` ```text ```` code block with every amount made up
    (Arabic digits), then the JSON plan.

    Targets readers that skip non-JSON code blocks: the prose claims are there for a reader
    (and the judge) but maybe not for faithfulness."""
    prose, plan, after = split_plan(ctx.honest_answer)
    fake = _PRICE.sub(lambda m: f"{_fake(int(m.group(1)))}{m.group(2)}元", prose)
    return honest_with(ctx, join_plan("```text\n" + fake.strip() + "\n```\n\n", plan, after))


@attack("hidden text")
def fake_prices_in_html_comment(ctx: TaskContext) -> Attack:
    """The honest answer whose prose amounts are made up in the visible text, with the true prose
    copied inside an HTML comment.

    If the comment is read as the answer's claims (and the visible fakes not), faithfulness sees
    the true numbers only."""
    prose, plan, after = split_plan(ctx.honest_answer)
    fake = _PRICE.sub(lambda m: f"{_fake(int(m.group(1)))}{m.group(2)}元", prose)
    return honest_with(ctx, join_plan(f"<!--\n{prose}\n-->\n{fake}", plan, after))


def _rotate_days(plan: dict[str, Any]) -> dict[str, Any]:
    p = copy.deepcopy(plan)
    days = p.get("itinerary", [])
    if len(days) > 1:
        acts = [d.get("activities", []) for d in days]
        acts = acts[1:] + acts[:1]
        for d, a in zip(days, acts, strict=True):
            d["activities"] = a
    return p


@attack("impossible plan")
def plan_days_rotated(ctx: TaskContext) -> Attack:
    """The honest answer with the plan's day contents rotated (day 1's activities on the last
    day, the others one day earlier); times and day numbers as they were (multi-day tasks)."""
    if ctx.problem.num_days < 2:
        raise NotApplicable("a one-day task: nothing to rotate")
    prose, plan, after = split_plan(ctx.honest_answer)
    return honest_with(ctx, join_plan(prose, _rotate_days(plan), after))


# ---------------------------------------------------------------- Arabic digits, other notations


@attack("unparsed numerals")
def yen_prefix_fake_prices(ctx: TaskContext) -> Attack:
    """Every prose amount made up and written with a prefixed currency sign (``¥116``) instead of
    a ``元`` suffix; the plan untouched."""
    return honest_with(ctx, _prose_edit(ctx, lambda t: _PRICE.sub(lambda m: f"¥{_fake(int(m.group(1)))}", t)))


def _dian(m: re.Match[str]) -> str:
    h, mi = (int(m.group(1)) + 2) % 24, int(m.group(2))
    return f"{h}点" + ("半" if mi >= 30 else "")


@attack("unparsed numerals")
def dian_fake_times_and_temps(ctx: TaskContext) -> Attack:
    """Every prose clock time two hours off written ``11点`` / ``11点半`` and every temperature
    9 ℃ off written ``10度``; prices untouched (Arabic digits throughout)."""

    def edit(t: str) -> str:
        t = _TEMP.sub(lambda m: f"{int(m.group(1)) + 9}度", t)
        return _TIME.sub(_dian, t)

    return honest_with(ctx, _prose_edit(ctx, edit))


@attack("prose/plan disagreement")
def honest_prose_thin_world_plan(ctx: TaskContext) -> Attack:
    """The honest prose (unchanged) over ``thin_plan_world_legs``'s plan: one meal and one sight a
    day with the world's routes, the cheapest hotel, the intercity legs (the control of
    ``cn_numeral_thin_plan``: is it the numerals or the thin plan that pays?)."""
    from .registry import honest_results
    from .thin_plans import Slots, thin_plan

    prose, _, after = split_plan(ctx.honest_answer)
    return honest_with(ctx, join_plan(prose, thin_plan(ctx, honest_results(ctx), Slots(legs="world")), after))


_INVISIBLE = "\ufe00"
"""VARIATION SELECTOR-1: renders as nothing after a CJK character and is no control character."""


def _cloak(prose: str, names: set[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        if len(name) > 1:
            prose = prose.replace(name, _INVISIBLE.join(name))
    return prose


@attack("hidden text")
def cloaked_prose_thin_plan(ctx: TaskContext) -> Attack:
    """``honest_prose_thin_world_plan`` with every POI name the thin plan does not book cloaked by
    an invisible variation selector after its first character (``上\ufe00海博物馆``): a reader
    sees the full honest itinerary, the prose/plan agreement rule sees no name it could miss."""
    from .registry import honest_results
    from .thin_plans import Slots, thin_plan
    from .writers import poi_records

    prose, honest_plan, after = split_plan(ctx.honest_answer)
    plan = thin_plan(ctx, honest_results(ctx), Slots(legs="world"))
    booked = {a.get("position") for d in plan.get("itinerary", []) for a in d.get("activities", [])}
    names = {a.get("position") for d in honest_plan.get("itinerary", []) for a in d.get("activities", [])}
    for _, _, text in honest_results(ctx):
        names |= {r.get("name") for r in poi_records(text)}
    return honest_with(ctx, join_plan(_cloak(prose, {n for n in names if n} - booked), plan, after))


def _cloak_cjk(text: str) -> str:
    return "".join(ch + _INVISIBLE if "\u4e00" <= ch <= "\u9fff" else ch for ch in text)


@attack("raw tool output reformatted")
def cloaked_dump_honest_plan(ctx: TaskContext) -> Attack:
    """Every tool result verbatim with an invisible U+FE00 after each CJK character (digits and
    ASCII untouched), then the honest JSON plan: the dump reads as the raw tool text, the echo
    rule's shingles match nothing."""
    from .registry import honest_results

    _, plan, _ = split_plan(ctx.honest_answer)
    dump = "\n\n".join(_cloak_cjk(text) for _, _, text in honest_results(ctx))
    head = f"# {ctx.problem.destination_city}行程\n\n"
    return honest_with(ctx, join_plan(head + dump + "\n\n", plan))


_VERBS = re.compile(r"(?:游览|参观|前往|打卡|游玩|入住|住在|下榻|乘坐|搭乘)(?=「)")


@attack("prose/plan disagreement")
def verbless_prose_thin_plan(ctx: TaskContext) -> Attack:
    """``honest_prose_thin_world_plan`` with the scheduling verb dropped before every quoted name
    (``- 09:25–10:55 游览「豫园」`` → ``- 09:25–10:55 「豫园」``): the same visible itinerary, no
    name the agreement rule reads as scheduled."""
    from .registry import honest_results
    from .thin_plans import Slots, thin_plan

    prose, _, after = split_plan(ctx.honest_answer)
    plan = thin_plan(ctx, honest_results(ctx), Slots(legs="world"))
    return honest_with(ctx, join_plan(_VERBS.sub("", prose), plan, after))


_SLOTS = ("09:00–11:00", "11:30–12:30", "13:00–15:00", "15:30–17:00", "18:00–19:00")
_SLOT_KIND = ("attraction", "restaurant", "attraction", "attraction", "restaurant")


@attack("prose/plan disagreement")
def unplanned_prose_thin_plan(ctx: TaskContext) -> Attack:
    """No planning anywhere: ``thin_plan_world_legs``'s plan under a prose "itinerary" written by
    filling five fixed time slots a day (09:00 sight, 11:30 meal, 13:00 and 15:30 sights, 18:00
    meal) from the tool results in result order, each line the POI's fact line without a verb; the
    weather and the flight/train lines; a total that is the plan's.

    Targets the prose credit (IC, completeness, judge) with a schedule nobody checked (times
    against opening hours, distances, order) while only the thin plan is verified."""
    from .judge_attacks import plan_cost
    from .registry import honest_results
    from .thin_plans import Slots, poi_pools, thin_plan
    from .writers import _poi_line, _transport_lines, _weather_lines, ok_texts

    results = honest_results(ctx)
    plan = thin_plan(ctx, results, Slots(legs="world"))
    pools = poi_pools(results)
    booked = [a for d in plan.get("itinerary", []) for a in d.get("activities", [])]
    hotel = next((a.get("position") for a in booked if a.get("type") == "accommodation"), None)
    p = ctx.problem
    out = [f"# {p.destination_city}{p.num_days}日行程（预算 {p.budget}元）", ""]
    if hotel:
        out.append(f"住宿：「{hotel}」")
    cursor = {"attraction": 0, "restaurant": 0}
    for day in range(max(1, p.num_days)):
        out.append(f"### 第{day + 1}天")
        for slot, kind in zip(_SLOTS, _SLOT_KIND, strict=True):
            pool = pools.get(kind) or []
            if not pool:
                continue
            rec = pool[cursor[kind] % len(pool)]
            cursor[kind] += 1
            out.append(f"- {slot} {_poi_line(rec, False)}")
        out.append("")
    for name, text in ok_texts(results):
        if name == "weather":
            out += [f"- {x}" for x in _weather_lines(text, False)]
        elif name in ("search_flights", "search_train_tickets"):
            out += [f"- {x}" for x in _transport_lines(text, False)[:2]]
    out.append(f"费用合计 {plan_cost(plan):.0f}元，在预算 {p.budget}元之内。")
    return honest_with(ctx, join_plan("\n".join(out) + "\n\n", plan))


@attack("prose/plan disagreement")
def alternatives_list_thin_plan(ctx: TaskContext) -> Attack:
    """``unplanned_prose_thin_plan`` with its slot times replaced by ``备选``: the same catalogue of the
    tool results, now offered as alternatives (which the agreement rule exempts), over the thin
    valid plan. Measures what a catalogue of unchosen options adds to a minimal plan."""
    _, answer = unplanned_prose_thin_plan(ctx)
    prose, plan, after = split_plan(answer)
    return honest_with(ctx, join_plan(re.sub(r"(?m)^- \d\d:\d\d–\d\d:\d\d ", "- 备选 ", prose), plan, after))

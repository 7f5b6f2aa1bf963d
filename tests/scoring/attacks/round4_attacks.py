"""Fourth attack round on scorer s2: the round-3 rules themselves (the section-heading and line
exemptions of the prose/plan agreement, the timed-slot reader, the day markers).

Every builder keeps the honest run's real calls and writes the honest prose (edited) over
``thin_plan_world_legs``'s plan (one meal and one sight a day, the world's routes), unless said
otherwise: the control is ``honest_prose_thin_world_plan`` (20 % of honest on every type).
"""

from __future__ import annotations

import re
from typing import Any

from .context import Attack, NotApplicable, TaskContext
from .registry import attack, honest_results, honest_with
from .writers import join_plan, split_plan

__all__: list[str] = []


def _thin(ctx: TaskContext) -> dict[str, Any]:
    from .thin_plans import Slots, thin_plan

    return thin_plan(ctx, honest_results(ctx), Slots(legs="world"))


def _over_thin(ctx: TaskContext, edit: Any) -> Attack:
    prose, _, after = split_plan(ctx.honest_answer)
    return honest_with(ctx, join_plan(edit(prose), _thin(ctx), after))


_HEADING = re.compile(r"(?m)^(#{1,6}[ \t]+.*)$")


@attack("prose/plan disagreement")
def relaxed_heading_thin_plan(ctx: TaskContext) -> Attack:
    """The honest prose with ``（节奏比较轻松）`` ("a fairly relaxed pace") appended to every markdown
    heading (``### 第2天 … （节奏比较轻松）``), over the thin plan.

    ``比较`` ("fairly") is also "compare", one of the alternative words: every section's heading
    then "offers alternatives", so nothing the prose schedules counts as missing from the plan."""
    return _over_thin(ctx, lambda t: _HEADING.sub(lambda m: m.group(1) + "（节奏比较轻松）", t))


_TIMED = re.compile(r"(?m)^(- \d\d:\d\d(?:–\d\d:\d\d)? )")


@attack("prose/plan disagreement")
def or_word_timed_lines_thin_plan(ctx: TaskContext) -> Attack:
    """The honest prose with ``步行或打车，`` ("walk or take a taxi,") right after the clock of every
    timed line (``- 09:25–10:55 步行或打车，游览「豫园」``), over the thin plan.

    ``或`` ("or") anywhere on the line before a name is read as an alternative offered, so no timed
    slot and no verb-scheduled name counts as missing; the transfer lines get ``步行或`` too
    (``· 步行或打车前往「X」``)."""
    def edit(t: str) -> str:
        t = _TIMED.sub(r"\1步行或打车，", t)
        return re.sub(r"(?m)^(\s*· )", r"\1步行或", t)

    return _over_thin(ctx, edit)


_CLOCK = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_VERBS = re.compile(r"(?:游览|参观|前往|打卡|游玩|入住|住在|下榻|乘坐|搭乘)(?=「)")


def _dian(m: re.Match[str]) -> str:
    h, mi = int(m.group(1)), int(m.group(2))
    return f"{h}点{mi:02d}分" if mi else f"{h}点"


@attack("prose/plan disagreement")
def dian_clock_verbless_thin_plan(ctx: TaskContext) -> Attack:
    """``verbless_prose_thin_plan`` with every clock time written ``9点25分`` instead of ``09:25``
    (the true times, read by the numeral reader for faithfulness): a slot's time is not a
    ``HH:MM`` any more, so the timed-slot rule sees no schedule."""

    def edit(t: str) -> str:
        return _CLOCK.sub(_dian, _VERBS.sub("", t))

    return _over_thin(ctx, edit)


@attack("prose/plan disagreement")
def hint_first_verbless_thin_plan(ctx: TaskContext) -> Attack:
    """``verbless_prose_thin_plan`` with a booked sight or restaurant of the thin plan written first
    on every timed line as a location hint (``- 09:25–10:55 「岭南天地」附近：「豫园」``).

    The slot rule takes the first whole name after the clock; a location hint there drops the
    line instead of falling through to the next name."""
    plan = _thin(ctx)
    booked = [a.get("position") for d in plan.get("itinerary", []) for a in d.get("activities", [])
              if a.get("type") in ("attraction", "lunch", "dinner", "breakfast") and a.get("position")]
    if not booked:
        raise NotApplicable("the thin plan books no sight or restaurant")
    prose, _, after = split_plan(ctx.honest_answer)
    prose = _TIMED.sub(lambda m: f"{m.group(1)}「{booked[0]}」附近：", _VERBS.sub("", prose))
    return honest_with(ctx, join_plan(prose, plan, after))


_DAY = re.compile(r"第(\d{1,2})天")


@attack("prose/plan disagreement")
def plan_days_rotated_d_markers(ctx: TaskContext) -> Attack:
    """``plan_days_rotated`` (the plan's day contents rotated) with the prose's day markers written
    ``D1`` / ``D2`` instead of ``第1天``: the day-section rule finds no marker, so no sight the prose
    puts on day k and the plan on another counts as moved (multi-day tasks)."""
    from .round3_attacks import _rotate_days

    if ctx.problem.num_days < 2:
        raise NotApplicable("a one-day task: nothing to rotate")
    prose, plan, after = split_plan(ctx.honest_answer)
    return honest_with(ctx, join_plan(_DAY.sub(r"D\1", prose), _rotate_days(plan), after))


# =========================================================================== numerals, round 4

_PRICE = re.compile(r"(\d+)(\s*)元")
_DAXIE = str.maketrans("零一二三四五六七八九十百千万", "零壹贰叁肆伍陆柒捌玖拾佰仟万")


def _fake_cn(m: re.Match[str]) -> str:
    from .round3_attacks import _fake, cn_number

    return cn_number(_fake(int(m.group(1))))


def _prose_only(ctx: TaskContext, edit: Any) -> Attack:
    prose, plan, after = split_plan(ctx.honest_answer)
    return honest_with(ctx, join_plan(edit(prose), plan, after))


@attack("unparsed numerals")
def daxie_fake_prices(ctx: TaskContext) -> Attack:
    """Every prose amount made up and written in the financial numerals of receipts and invoices
    (``198元`` → ``壹佰壹拾陆元``); the JSON plan untouched. The Chinese-numeral reader reads only the
    everyday forms (``一百一十六元``)."""
    return _prose_only(ctx, lambda t: _PRICE.sub(lambda m: _fake_cn(m).translate(_DAXIE) + "元", t))


@attack("unparsed numerals")
def yen_sign_cn_fake_prices(ctx: TaskContext) -> Attack:
    """Every prose amount made up and written with the currency sign first and the number in
    Chinese numerals (``198元`` → ``¥一百一十六``) or with ``人民币`` after it; the JSON plan untouched.
    ``¥`` is read only before Arabic digits, a Chinese numeral only before ``元``/``块``."""
    n = iter(range(10**9))

    def one(m: re.Match[str]) -> str:
        return f"¥{_fake_cn(m)}" if next(n) % 2 else f"{_fake_cn(m)}人民币"

    return _prose_only(ctx, lambda t: _PRICE.sub(one, t))


_HOURS_LINE = re.compile(r"(?m)^- 「([^」]+)」：(.*?)(开放时间|营业时间) (\d\d:\d\d-\d\d:\d\d)")


@attack("fabricated facts")
def reference_word_fake_hours(ctx: TaskContext) -> Attack:
    """The honest answer with every listed opening time replaced by another listed place's (a real
    tool time, of the wrong place) and the line opened with ``距`` (``- 距「南风古灶」：门票 25元，开放时间
    07:30-21:00``): the owner lookup skips a reference point, so the hours may be checked against
    any tool time."""
    prose, plan, after = split_plan(ctx.honest_answer)
    hours = [m.group(4) for m in _HOURS_LINE.finditer(prose)]
    if len(set(hours)) < 2:
        raise NotApplicable("fewer than two distinct opening times listed")
    k = iter(range(10**9))

    def one(m: re.Match[str]) -> str:
        i = next(k)
        other = next(h for h in hours[i + 1 :] + hours[:i] if h != m.group(4)) if len(set(hours)) > 1 else m.group(4)
        return f"- 距「{m.group(1)}」：{m.group(2)}{m.group(3)} {other}"

    return honest_with(ctx, join_plan(_HOURS_LINE.sub(one, prose), plan, after))

"""Structured summaries for the LLM judge, built only from parsed fields (never raw answer text).

* :func:`requirements_summary`: the user's request (problem fields).
* :func:`facts_summary`: what the tools returned (POIs, flights, trains, weather, routes).
* :func:`answer_summary`: the answer as the code understood it, including the **schedule**
  (days → times, places, transport legs, prices, each marked ✓ tool-grounded / ✗ not), transport
  claims, POIs, prices (✓, ✓合计 for sums of tool prices, ?), weather, distances and reasoning
  signals (counts only). Every string passes through :func:`~navworld.scoring.sanitize.sanitize`.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import TYPE_CHECKING

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.consistency import price_matches
from navworld.scoring.sanitize import sanitize as S

if TYPE_CHECKING:
    from navworld.scoring.judge_prompt import JudgeContext

__all__ = ["answer_summary", "facts_summary", "requirements_summary"]

_N = C.JUDGE_SUMMARY_MAX_ITEMS
_TYPES = frozenset({"airplane", "train", "attraction", "breakfast", "lunch", "dinner", "accommodation"})
_MODES = {"walk": "walk", "walking": "walk", "transit": "transit", "metro": "transit", "subway": "transit",
          "bus": "transit", "taxi": "taxi", "driving": "taxi", "bicycling": "bicycling", "bike": "bicycling"}


class Namer:
    """How names reach the judge.

    Seed profile: every string sanitised. Scorer s2 (``verified``): a name is shown only when the
    tools returned it (a tool POI — by its exact tool name —, a tool flight/train ID, a tool road,
    station or address); anything else becomes a neutral placeholder (``未核实地点#3``,
    ``未核实班次#1``) numbered in order of appearance, so nothing the answer wrote reaches the prompt
    unverified. Tool strings are still sanitised (a live backend's data is not trusted either)."""

    def __init__(self, ctx: JudgeContext) -> None:
        self.verified = ctx.verified_only
        self.tf = ctx.tf
        self._unknown: dict[tuple[str, str], str] = {}
        self._best: dict[str, str] = {}
        if self.verified:
            for e in ctx.tf.pois.values():
                for v in e.variants:
                    self._best.setdefault(v, e.name)

    def _placeholder(self, kind: str, value: str) -> str:
        key = (kind, value)
        if key not in self._unknown:
            n = sum(1 for k in self._unknown if k[0] == kind) + 1
            self._unknown[key] = f"未核实{kind}#{n}"
        return self._unknown[key]

    def place(self, value: str, limit: int = C.JUDGE_SUMMARY_MAX_ITEM_CHARS) -> str:
        """A place name: the tool POI's own name, a tool-returned name, or a placeholder."""
        if not self.verified:
            return S(value, limit)
        name = value.strip()
        if not name:
            return ""
        if name in self.tf.pois:
            return S(name, limit)
        if name in self._best:
            return S(self._best[name], limit)
        if name in self.tf.blocked or name in self.tf.entity_names:
            return S(name, limit)
        return self._placeholder("地点", name)

    def transport(self, value: str) -> str:
        """A flight/train ID: shown when a tool returned it, else a placeholder."""
        if not self.verified:
            return S(value, 12)
        if value in self.tf.transports:
            return S(value, 12)
        return self._placeholder("班次", value)

    def key(self, value: str | None) -> str:
        """The entity a price is attached to."""
        if not value:
            return ""
        if value in ("taxi", "transit"):
            return value
        if value in self.tf.transports or not self.verified:
            return self.transport(value) if value in self.tf.transports else S(value, 16)
        return self.place(value, 16)

    def type(self, value: str) -> str:
        """An activity type (whitelisted under s2)."""
        if not self.verified:
            return S(value, 14)
        return value if value in _TYPES else "其他"

    def mode(self, value: str) -> str:
        """A leg mode (whitelisted under s2)."""
        if not self.verified:
            return S(value, 10)
        return _MODES.get(value.strip().lower(), "其他")


def requirements_summary(ctx: JudgeContext) -> str:
    """The user's request, one field a line."""
    p = ctx.problem
    rows = [
        f"类型: {S(p.problem_type)}",
        f"出发地: {S(p.origin_city) or '无（仅目的地行程）'}",
        f"目的地: {S(p.destination_city)}",
        f"出发日期: {S(p.travel_date)}，天数: {p.num_days}",
        f"人数: {p.group_size}（{S(p.group_type)}）",
        f"预算: {p.budget if p.budget is not None else '未指定'} 元",
    ]
    if p.preference:
        rows.append(f"偏好: {S(p.preference, 60)}")
    if p.arrival_constraint:
        rows.append(f"到达时间要求: {S(p.arrival_constraint, 60)}")
    if p.interests:
        rows.append("兴趣: " + "、".join(S(i) for i in p.interests[:8]))
    if p.constraints:
        rows.append("约束: " + "；".join(S(c, 60) for c in p.constraints[:8]))
    return "\n".join(rows)


def facts_summary(ctx: JudgeContext) -> str:
    """What the tools returned, truncated per category."""
    tf = ctx.tf
    rows = [
        f"调用工具: {', '.join(sorted(tf.called)) or '无'}；全部失败: {', '.join(sorted(tf.failed_only)) or '无'}"
    ]
    if tf.pois:
        items = []
        for e in list(tf.pois.values())[:_N]:
            extra = f" {e.cost:g}元" if e.cost is not None else ""
            items.append(f"{S(e.name)}[{e.kind}]{extra}")
        rows.append(f"POI（共{len(tf.pois)}）: " + "；".join(items))
    for mode, label in (("flight", "航班"), ("train", "车次")):
        ents = [t for t in tf.transports.values() if t.mode == mode][:10]
        if ents:
            rows.append(
                f"{label}: "
                + "；".join(
                    f"{t.id} {t.dep or '?'}→{t.arr or '?'} {'/'.join(f'{x:g}' for x in t.prices)}元"
                    for t in ents
                )
            )
    if tf.conditions or tf.temps:
        temps = sorted(tf.temps)
        span = f"{temps[0]}~{temps[-1]}℃" if temps else ""
        rows.append(f"天气: {'、'.join(sorted(tf.conditions))} {span} {'、'.join(sorted(tf.wind))}")
    if tf.distances or tf.durations:
        d = "、".join(f"{x / 1000:.1f}km" for x in sorted(tf.distances)[:10])
        t = "、".join(f"{x}分钟" for x in sorted(tf.durations)[:10])
        rows.append(f"路线距离: {d or '无'}；时长: {t or '无'}")
    if "direction" not in tf.called:
        rows.append("警告: 未调用 direction，答案中的距离/路程时间均无工具来源")
    if ctx.problem.origin_city and not (tf.called & C.TRANSPORT_TOOLS):
        rows.append("警告: 未调用航班/火车查询，答案中的班次与票价均无工具来源")
    return "\n".join(rows)


def _subtotals(ctx: JudgeContext) -> set[float]:
    values = sorted({v for vals in ctx.tf.prices.values() for v in vals if v > 0})[:40]
    k_max = max(1, ctx.problem.group_size) * max(1, ctx.problem.num_days)
    sums = {round(v * k, 2) for v in values for k in range(2, k_max + 1)}
    sums |= {round(a + b, 2) for a, b in combinations(values, 2)}
    return sums


def _schedule(ctx: JudgeContext, nm: Namer) -> list[str]:
    pa, tf, af = ctx.pa, ctx.tf, ctx.af
    rows: list[str] = []
    if pa.activities:
        for act in pa.activities[:40]:
            when = "-".join(t for t in (act.start_time, act.end_time) if t) or "?"
            if act.transport_id:
                ok = "✓" if act.transport_id in tf.transports else "✗"
                where = f"{nm.transport(act.transport_id)}{ok} {nm.place(act.start)}→{nm.place(act.end)}"
            else:
                ok = (
                    "✓" if act.position and any(act.position in e.variants for e in tf.pois.values()) else "✗"
                )
                where = f"{nm.place(act.position)}{ok}"
            price = f" {act.price:g}元" if act.price is not None else ""
            legs = "; ".join(
                f"{nm.mode(leg.mode)} {nm.place(leg.start, 20)}→{nm.place(leg.end, 20)}"
                + (f" {leg.distance:g}" if leg.distance else "")
                for leg in act.legs[:3]
            )
            rows.append(
                f"第{act.day}天 {when} {nm.type(act.type)} {where}{price}"
                + (f" [交通: {legs}]" if legs else "")
            )
        return rows
    spans = [(s.day, s.start, s.end) for s in pa.day_spans] or [(0, 0, len(pa.text))]
    events: list[tuple[int, str]] = [(p, t) for t, p in af.times]
    events += [(p, f"{nm.place(name)}✓") for name, ps in af.pois.items() for p in ps[:2]]
    grounded = {n for e in tf.pois.values() for n in e.variants}
    events += [(p, f"{nm.place(n)}✗") for n, p in pa.places if n not in grounded and n in af.ungrounded_places]
    events += [(p, f"{nm.transport(i)}{'✓' if i in tf.transports else '✗'}") for i, p in af.flights + af.trains]
    events.sort()
    for day, start, end in spans[:10]:
        seq = [label for p, label in events if start <= p < end]
        seq = list(dict.fromkeys(seq))[:14]
        if seq:
            rows.append(f"{'第' + str(day) + '天' if day else '全程'}: " + " → ".join(seq))
    return rows


def answer_summary(ctx: JudgeContext) -> str:
    """The code-extracted view of the answer for the judge."""
    pa, tf, af, p = ctx.pa, ctx.tf, ctx.af, ctx.problem
    nm = Namer(ctx)
    text = pa.text
    rows = [
        f"【基本】长度 {len(text)} 字；识别天数 {pa.days_found}（要求 {p.num_days} 天）；"
        f"JSON计划: {'有' if pa.has_plan else '无'}；解析{'成功' if pa.parse_success else '失败'}",
        "【日程】",
    ]
    rows += ["  " + r for r in _schedule(ctx, nm)] or ["  （未识别出日程）"]
    if ctx.plan is not None:
        rows.append(_plan_row(ctx.plan))
    claims = sorted(af.flight_ids | af.train_ids)[:_N]
    if claims:
        rows.append("【交通】" + "；".join(f"{nm.transport(i)}{'✓' if i in tf.transports else '✗'}" for i in claims))
    detail = ctx.checks["transport_grounded"].detail
    if detail.get("applicable") and detail.get("claims"):
        rows.append(
            f"  交通声明 {detail['claims']} 条，未核实 {detail['fabricated']} 条（造假率 {detail['fabrication_ratio']:.0%}）"
        )
    grounded = list(af.pois)[:_N]
    rows.append(f"【地点】工具可溯源 {len(af.pois)} 个: " + ("、".join(nm.place(n) for n in grounded) or "无"))
    if af.ungrounded_places:
        rows.append(
            f"  无工具来源 {len(af.ungrounded_places)} 个: "
            + "、".join(nm.place(n) for n in af.ungrounded_places[:_N])
        )
    sums = set() if ctx.verified_only else _subtotals(ctx)
    price_items = []
    for key, value, _ in af.prices[: _N * 2]:
        if price_matches(tf, key, value):
            mark = "✓"
        elif round(value, 2) in sums:
            mark = "✓合计"
        else:
            mark = "?"
        price_items.append(f"{value:g}元{mark}" + (f"({nm.key(key)})" if key else ""))
    if price_items:
        rows.append("【价格】" + "；".join(dict.fromkeys(price_items)))
    if af.conditions or af.temps:
        tw = tf.weather
        w = [f"{c}{'✓' if c in tw else '✗'}" for c in dict.fromkeys(c for c, _ in af.conditions)]
        w += [f"{t}℃{'✓' if f'{t}℃' in tw else '✗'}" for t in dict.fromkeys(t for t, _ in af.temps)]
        rows.append("【天气】" + "、".join(w[:_N]))
    if af.distances or af.durations:
        src = "" if "direction" in tf.called else "（direction 未调用：无来源）"
        ds = [f"{d / 1000:.1f}km" for d, _ in af.distances[:8]] + [f"{m}分钟" for m, _ in af.durations[:8]]
        rows.append(f"【距离/时长】{'、'.join(ds)}{src}")
    comparable = len(tf.transports) + len(tf.pois)
    if ctx.verified_only:
        budget_note = _plan_budget(ctx)
    else:
        totals = [v for k, v, _ in af.prices if k is None] + [v for v, _ in af.derived]
        budget_note = "未给出总价"
        if totals and p.budget:
            budget_note = f"最大金额 {max(totals):g} 元，{'在预算内' if max(totals) <= p.budget else '超出预算'}"
    covered = [i for i in p.interests if i and i in text]
    if af.derived:
        rows.append(f"【合计/派生金额】{len(af.derived)} 处（总价、人数/晚数倍数、差价，均不计为单价声明）")
    rows += [
        f"【分析特征】推理连接词 {_count(P.CONNECTORS, text, ctx)} 个；比较表述 {_count(P.COMPARISON, text, ctx)} 个"
        f"（工具可比选项 {comparable} 个）；数据局限说明 {'✓' if P.LIMITATION.search(text) else '✗'}；"
        f"个性化回应 {_count(P.PERSONAL, text, ctx)} 处；时间点 {len(af.times)} 个",
        f"【约束响应】预算: {budget_note}；兴趣覆盖 {len(covered)}/{len(p.interests)}"
        + (f"（{'、'.join(S(c) for c in covered[:6])}）" if covered else ""),
    ]
    return "\n".join(rows)


def _count(pattern: re.Pattern[str], text: str, ctx: JudgeContext) -> str:
    """A signal count; under s2 at most one per 200 characters and never above the cap (stuffing a
    line with connectors buys nothing), written ``≥N`` at the cap."""
    n = len(pattern.findall(text))
    if not ctx.verified_only:
        return str(n)
    cap = min(C.JUDGE_SIGNAL_CAP, max(1, len(text) // 200))
    return f"≥{cap}" if n >= cap else str(n)


def _plan_budget(ctx: JudgeContext) -> str:
    """The budget verdict from the plan's own costs, summed by code (never the answer's totals)."""
    plan = ctx.plan_total
    if plan is None:
        return "无可核验的计划总价"
    if not ctx.problem.budget:
        return f"计划合计 {plan:g} 元（未指定预算）"
    verdict = "在预算内" if plan <= ctx.problem.budget else "超出预算"
    return f"计划合计 {plan:g} 元（代码按计划各项 cost 求和），{verdict}"


def _plan_row(plan: dict[str, object]) -> str:
    """The plan assessment as code computed it (numbers and check names only)."""
    if not plan.get("delivered"):
        return "【计划核验】未交付可解析的 JSON 计划"
    penalties = plan.get("check_penalties") or {}
    failed = ", ".join(sorted(penalties)[:12]) if isinstance(penalties, dict) else ""
    programs = plan.get("failed_programs") or []
    return (
        f"【计划核验】环境检查系数 {plan.get('env_factor')}；约束程序系数 {plan.get('logic_factor')}"
        f"（未满足 {len(programs) if isinstance(programs, list) else 0} 条）；文字与计划一致性 {plan.get('agreement_factor')}"
        + (f"；未通过的检查: {failed}" if failed else "")
    )

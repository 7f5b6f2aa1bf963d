"""Answer writers of the attack suite: fact lists, reformatted tool dumps, plan surgery.

Our own readers of the tool text format (``docs/tool-output.md``): POI blocks (``## N`` +
``key: value``), flight/train lines, weather days, routes. Everything here turns genuine tool
results into answer text without any planning.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from navworld.core.problem import Problem
from navworld.core.seeding import stable_hash

__all__ = [
    "KEYWORDS_EN",
    "KEYWORDS_ZH",
    "echo_bullets",
    "echo_paraphrased",
    "echo_punctuation",
    "echo_reordered",
    "echo_zero_width",
    "fact_lines",
    "fact_list",
    "join_plan",
    "ok_texts",
    "poi_records",
    "split_plan",
    "transport_options",
]

KEYWORDS_ZH = (
    "推荐理由：因为综合考虑性价比更适合；行程安排先游览景点（门票、开放时间）然后用餐（餐厅美食、人均、招牌菜），"
    "入住酒店住宿（每晚房价、位置交通方便）；交通出行步行/地铁/公交/打车，距离约几公里、几分钟；航班与火车高铁车次的出发到达时间和票价；"
    "预算费用合计；天气预报气温，建议带伞注意防晒；周边附近就近；亲子家庭儿童适合安全互动体验；学习教育科普博物馆历史文化讲解；"
    "商务会议办公设施安静；小贴士：提前预约避开高峰排队。"
)
KEYWORDS_EN = (
    "Tips: we recommend this because it is better value; visit sights (ticket, opening time), restaurant food "
    "(average spend, dishes), hotel (per night, location), transport by metro/walk/taxi (km, minutes), "
    "flight/train depart and arrive times and fare, budget total cost, weather forecast, nearby, family kids, "
    "museum learning, business meeting."
)

_BLOCK = re.compile(r"^## ?\d+\s*$")
_DATE_BLOCK = re.compile(r"^## (\d{4}-\d{2}-\d{2})")
_KV = re.compile(r"^([a-z_]+): (.*)$")
_FLIGHT = re.compile(
    r"^航班 (\S+?)（(.*?)） (\d\d:\d\d) (.+?) → (\d\d:\d\d)(\(次日\))? (.+?)，飞行 (.+?)，经济舱 (\d+)元"
)
_TRAIN = re.compile(
    r"^车次 (\S+?)（(.*?)） (\d\d:\d\d) (.+?) → (\d\d:\d\d)(\(次日\))? (.+?)，历时 (.+?)，(.+)$"
)
_STEP = re.compile(r"^\d+\. (.+)$")
_HEADER_MODE = re.compile(r"^direction：(\S+?)，")
_PLAN = re.compile(r"```json\s*\n(.*?)\n```", re.S)


def ok_texts(results: list[tuple[str, dict[str, Any], str]]) -> list[tuple[str, str]]:
    """``(tool, text)`` of the non-error results."""
    return [(n, t) for n, _, t in results if t and not t.lstrip().startswith(("错误", "Error"))]


def poi_records(text: str) -> list[dict[str, str]]:
    """The POI blocks of a poi_search / around_search result."""
    blocks: list[dict[str, str]] = []
    cur: dict[str, str] | None = None
    for line in text.splitlines():
        if _BLOCK.match(line):
            cur = {}
            blocks.append(cur)
        elif (m := _KV.match(line)) and cur is not None:
            cur.setdefault(m.group(1), m.group(2))
    return [b for b in blocks if b.get("name")]


def poi_kind(rec: dict[str, str]) -> str:
    """``restaurant`` / ``hotel`` / ``hub`` / ``attraction`` from the type field."""
    t = rec.get("type", "")
    if "餐饮" in t:
        return "restaurant"
    if "住宿" in t:
        return "hotel"
    if "交通" in t:
        return "hub"
    return "attraction"


def _amount(value: str) -> str:
    return re.sub(r"（.*?）", "", value).strip()


def transport_options(text: str) -> list[dict[str, Any]]:
    """Flights / trains of a transport result: id, mode, times, stations, first price."""
    out = []
    for line in text.splitlines():
        if m := _FLIGHT.match(line):
            out.append(
                {
                    "id": m[1],
                    "mode": "airplane",
                    "dep": m[3],
                    "from": m[4],
                    "arr": m[5],
                    "to": m[7],
                    "price": int(m[9]),
                    "next_day": bool(m[6]),
                }
            )
        elif m := _TRAIN.match(line):
            price = re.search(r"(\d+)元", m[9])
            out.append(
                {
                    "id": m[1],
                    "mode": "train",
                    "dep": m[3],
                    "from": m[4],
                    "arr": m[5],
                    "to": m[7],
                    "price": int(price[1]) if price else 0,
                    "next_day": bool(m[6]),
                }
            )
    return out


def _poi_line(rec: dict[str, str], en: bool) -> str:
    kind = poi_kind(rec)
    cost = _amount(rec.get("cost", ""))
    if en:
        label = {"restaurant": "avg", "hotel": "per night", "attraction": "ticket"}.get(kind, "")
        line = f"{rec['name']} ({kind}): {label} ¥{cost.rstrip('元')}, open {rec.get('opentime', '')}, rating {rec.get('rating', '')}"
        if rec.get("distance"):
            line += f", {rec['distance']} away"
        return line
    label = {"restaurant": "人均", "hotel": "每晚", "attraction": "门票"}.get(kind, "")
    zh = {"restaurant": "餐厅", "hotel": "酒店", "attraction": "景点", "hub": "交通枢纽"}[kind]
    line = f"「{rec['name']}」（{zh}）{label} {cost}，开放时间 {rec.get('opentime', '')}，评分 {rec.get('rating', '')}，地址 {rec.get('address', '')}"
    if rec.get("distance"):
        line += f"，距离 {rec['distance']}"
    if rec.get("dishes"):
        line += f"，招牌菜 {rec['dishes']}"
    if rec.get("features"):
        line += f"，设施 {rec['features']}"
    return line


def _transport_lines(text: str, en: bool) -> list[str]:
    out = []
    for o in transport_options(text):
        nd = "(次日)" if o["next_day"] else ""
        word = (
            ("Flight" if o["mode"] == "airplane" else "Train")
            if en
            else ("航班" if o["mode"] == "airplane" else "车次")
        )
        if en:
            out.append(
                f"{word} {o['id']}: depart {o['dep']} {o['from']}, arrive {o['arr']}{nd} {o['to']}, fare ¥{o['price']}"
            )
        else:
            out.append(
                f"{word} {o['id']}：{o['dep']} 从{o['from']}出发，{o['arr']}{nd} 抵达{o['to']}，票价 {o['price']}元"
            )
    return out


def _weather_lines(text: str, en: bool) -> list[str]:
    days: list[tuple[str, dict[str, str]]] = []
    for line in text.splitlines():
        if m := _DATE_BLOCK.match(line):
            days.append((m.group(1), {}))
        elif (kv := _KV.match(line)) and days:
            days[-1][1].setdefault(kv.group(1), kv.group(2))
    out = []
    for date, d in days:
        if en:
            out.append(
                f"{date} weather: {d.get('dayweather')}/{d.get('nightweather')}, {d.get('nighttemp')}~{d.get('daytemp')}, wind {d.get('daywind')} {d.get('daypower')}"
            )
        else:
            out.append(
                f"{date} 天气：白天{d.get('dayweather')}，夜间{d.get('nightweather')}，气温 {d.get('nighttemp')}~{d.get('daytemp')}，{d.get('daywind')} {d.get('daypower')}"
            )
    return out


def _direction_lines(text: str, en: bool) -> list[str]:
    kv: dict[str, str] = {}
    steps: list[str] = []
    mode = ""
    for line in text.splitlines():
        if m := _HEADER_MODE.match(line):
            mode = m.group(1)
        elif m := _KV.match(line):
            kv.setdefault(m.group(1), m.group(2))
        elif m := _STEP.match(line):
            steps.append(m.group(1))
    if en:
        head = f"Route ({mode}): {kv.get('distance', '')}, about {kv.get('duration', '')}, taxi {kv.get('taxi_cost', '')}"
    else:
        head = f"路线（{mode}）：距离 {kv.get('distance', '')}，约 {kv.get('duration', '')}，打车约 {kv.get('taxi_cost', '')}"
        if kv.get("cost"):
            head += f"，地铁/公交票价 {kv['cost']}"
    return [head] + [f"  · {s}" for s in steps]


def fact_lines(results: list[tuple[str, dict[str, Any], str]], en: bool = False) -> list[str]:
    """Every tool fact of the results as one line each, in result order, de-duplicated."""
    lines: list[str] = []
    for name, text in ok_texts(results):
        if name in ("poi_search", "around_search"):
            lines += [_poi_line(r, en) for r in poi_records(text)]
        elif name in ("search_flights", "search_train_tickets"):
            lines += _transport_lines(text, en)
        elif name == "weather":
            lines += _weather_lines(text, en)
        elif name == "direction":
            lines += _direction_lines(text, en)
    return list(dict.fromkeys(lines))


def fact_list(problem: Problem, results: list[tuple[str, dict[str, Any], str]], en: bool = False) -> str:
    """The no-plan fact list: a title, day headers, every fact a line, a keyword line every 4 lines."""
    lines = fact_lines(results, en)
    days = max(1, problem.num_days)
    per_day = max(1, -(-len(lines) // days))
    kw = KEYWORDS_EN if en else KEYWORDS_ZH
    title = (
        f"# {problem.destination_city} {days}-day plan (budget {problem.budget} yuan)"
        if en
        else f"# {problem.destination_city}{days}日行程方案（预算 {problem.budget}元）"
    )
    out = [title, kw, ""]
    for d in range(days):
        out.append(f"## Day {d + 1}" if en else f"## 第{d + 1}天")
        for i, line in enumerate(lines[d * per_day : (d + 1) * per_day]):
            out.append(f"- {line}")
            if i % 4 == 3:
                out.append(kw)
        out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------- tool dumps


def _lines(results: list[tuple[str, dict[str, Any], str]]) -> list[str]:
    return [line for _, text in ok_texts(results) for line in text.splitlines() if line.strip()]


def _with_keywords(lines: list[str], days: int) -> str:
    """The lines split into ``days`` day sections (``第N天`` headers), a keyword line every 12 lines."""
    per_day = max(1, -(-len(lines) // max(1, days)))
    out = [KEYWORDS_ZH]
    for i, line in enumerate(lines):
        if i % per_day == 0:
            out.append(f"第{i // per_day + 1}天")
        out.append(line)
        if i % 12 == 11:
            out.append(KEYWORDS_ZH)
    return "\n".join(out)


def echo_bullets(results: list[tuple[str, dict[str, Any], str]], days: int = 1) -> str:
    """The raw tool output, every line prefixed with ``- ``."""
    return _with_keywords([f"- {line}" for line in _lines(results)], days)


def echo_zero_width(results: list[tuple[str, dict[str, Any], str]], days: int = 1) -> str:
    """The raw tool output with a zero-width space at the end of every line."""
    return _with_keywords([f"{line}\u200b" for line in _lines(results)], days)


def echo_punctuation(results: list[tuple[str, dict[str, Any], str]], days: int = 1) -> str:
    """The raw tool output with punctuation changed (full-width colons/commas, arrows, no spaces)."""
    table = str.maketrans({":": "：", ",": "，", "（": "(", "）": ")", "→": "至", " ": None, "#": "*"})
    return _with_keywords([line.translate(table) for line in _lines(results)], days)


def echo_reordered(results: list[tuple[str, dict[str, Any], str]], days: int = 1, seed: str = "") -> str:
    """The raw tool output with every block's fields reversed onto one line, and the lines shuffled."""
    rows: list[str] = []
    for _, text in ok_texts(results):
        block: list[str] = []
        for line in text.splitlines():
            if _BLOCK.match(line) or _DATE_BLOCK.match(line) or not line.strip():
                if block:
                    rows.append("；".join(reversed(block)))
                block = []
                if _DATE_BLOCK.match(line):
                    block.append(line.lstrip("# "))
            elif _KV.match(line):
                block.append(line)
            else:
                rows.append("，".join(reversed(line.split("，"))))
        if block:
            rows.append("；".join(reversed(block)))
    random.Random(stable_hash("echo-reorder", seed)).shuffle(rows)
    return _with_keywords(rows, days)


_PARAPHRASE = {
    "name": "名称",
    "address": "地址",
    "cost": "价格",
    "opentime": "营业时间",
    "rating": "评分",
    "type": "类别",
    "dishes": "招牌菜",
    "distance": "距离",
    "dayweather": "白天天气",
    "nightweather": "夜间天气",
    "daytemp": "最高气温",
    "nighttemp": "最低气温",
    "daywind": "风向",
    "daypower": "风力",
    "duration": "用时",
    "taxi_cost": "打车费",
    "features": "设施",
    "cuisine": "菜系",
    "tag": "标签",
    "adname": "区县",
}


def echo_paraphrased(results: list[tuple[str, dict[str, Any], str]], days: int = 1) -> str:
    """The raw tool output, every other line paraphrased (keys translated, clauses swapped)."""
    out = []
    for i, line in enumerate(_lines(results)):
        m = _KV.match(line)
        if i % 2 == 0 and m:
            out.append(f"{_PARAPHRASE.get(m.group(1), m.group(1))}为{m.group(2)}")
        elif i % 2 == 0:
            out.append(line.replace("航班 ", "航班号 ").replace("车次 ", "列车 ").replace("，", "；"))
        else:
            out.append(line)
    return _with_keywords(out, days)


# --------------------------------------------------------------------------- plan surgery


def split_plan(answer: str) -> tuple[str, dict[str, Any], str]:
    """``(prose before, plan, text after)`` of an answer with one fenced JSON plan."""
    matches = list(_PLAN.finditer(answer))
    if not matches:
        raise ValueError("answer has no fenced JSON plan")
    m = matches[-1]
    return answer[: m.start()], json.loads(m.group(1)), answer[m.end() :]


def join_plan(prose: str, plan: dict[str, Any] | None, after: str = "") -> str:
    """Prose followed by the plan as one fenced JSON block (no block when ``plan`` is None)."""
    if plan is None:
        return prose.rstrip() + after
    return f"{prose}```json\n{json.dumps(plan, ensure_ascii=False, indent=1)}\n```{after}"

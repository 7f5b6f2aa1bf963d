"""One text format for the six tools, shared by every backend (see ``docs/tool-output.md``).

``render(name, data, args)`` turns AMap-shaped ``data`` into the text the model sees;
``truncate(text, 3000)`` cuts it at the last newline before the limit and appends a marker.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["LIMIT", "TRAIN_TYPE_LABELS", "error_text", "fmt_duration", "render", "truncate"]

LIMIT = 3000
TRAIN_TYPE_LABELS = {"G": "高铁", "D": "动车", "C": "城际", "Z": "直达特快", "T": "特快", "K": "快速"}
_MODE_ZH = {"driving": "驾车", "walking": "步行", "bicycling": "骑行", "transit": "公交"}
_COST_LABEL = {"11": "门票", "05": "人均", "10": "每晚"}
_WEEK_ZH = {"1": "星期一", "2": "星期二", "3": "星期三", "4": "星期四", "5": "星期五", "6": "星期六", "7": "星期日"}


def error_text(reason: str) -> str:
    """The one-line error text ``错误：<reason>`` (newlines folded)."""
    return "错误：" + " ".join(reason.split())


def truncate(text: str, limit: int = LIMIT) -> str:
    """Cut ``text`` to at most ``limit`` chars at the last newline, with a marker line."""
    if len(text) <= limit:
        return text
    marker = f"\n…（结果已截断，原文共 {len(text)} 字符）"
    room = max(0, limit - len(marker))
    cut = text.rfind("\n", 0, room + 1)
    if cut <= 0:
        cut = room
    return text[:cut] + marker


def fmt_duration(minutes: int, unit: str = "分") -> str:
    """``H小时M分`` when at least an hour, else ``M分`` (``unit`` may be ``分钟``)."""
    h, m = divmod(minutes if minutes > 0 else 0, 60)
    return f"{h}小时{m}{unit}" if h else f"{m}{unit}"


def _dist(metres: str | int | float) -> str:
    try:
        m = int(float(metres))
    except (TypeError, ValueError):
        return str(metres)
    return f"{m}米" if m < 1000 else f"{m / 1000:.1f}公里"


def _s(value: Any) -> str:
    """AMap quirk: empty values may be ``[]``; render them as empty."""
    if value is None or value == [] or value == {}:
        return ""
    if isinstance(value, list):
        return "、".join(str(v) for v in value)
    return str(value)


# -- POIs --------------------------------------------------------------------------------
_HEAD_KEYS = ("id", "name", "type", "typecode", "address", "location", "cityname", "adname")
_TAIL_KEYS = ("visit_hours", "cuisine", "dishes", "star", "beds", "features")


def _poi_block(i: int, p: Mapping[str, Any]) -> str:
    b = p.get("business")
    if not isinstance(b, Mapping):
        b = {}
    lines = [f"## {i}"]
    append = lines.append
    for key in _HEAD_KEYS:
        v = p.get(key)
        if v:
            append(f"{key}: {v if v.__class__ is str else _s(v)}")
    dist = p.get("distance")
    if dist:
        append(f"distance: {_s(dist)}米")
    for key, v in (("tel", b.get("tel", p.get("tel"))), ("rating", b.get("rating"))):
        if v:
            append(f"{key}: {v if v.__class__ is str else _s(v)}")
    code = _s(p.get("typecode"))
    cost = b.get("cost")
    if cost and not code.startswith("15"):
        label = _COST_LABEL.get(code[:2])
        append(f"cost: {_s(cost)}元（{label}）" if label else f"cost: {_s(cost)}元")
    opentime = b.get("opentime") or b.get("opentime_today")
    if opentime:
        append(f"opentime: {_s(opentime)}")
    for key in _TAIL_KEYS:
        v = b.get(key)
        if v:
            append(f"{key}: {v if v.__class__ is str else _s(v)}")
    if not code.startswith(("10", "15")):
        tag = _s(b.get("tag"))
        if tag:
            cuisine = _s(b.get("cuisine"))
            tag = "、".join(t for t in tag.split("、") if t and t != cuisine)
            if tag:
                append(f"tag: {tag}")
    return "\n".join(lines)


def _render_pois(name: str, data: Mapping[str, Any], args: Mapping[str, Any]) -> str:
    pois = [p for p in (data.get("pois") or []) if isinstance(p, Mapping)][:10]
    if name == "poi_search":
        city = _s(args.get("region")) or "全部"
        header = f"poi_search：关键词「{_s(args.get('address'))}」，城市 {city}，共 {len(pois)} 条结果"
    else:
        kw = _s(args.get("keyword"))
        kw_part = f"，关键词「{kw}」" if kw else ""
        header = (
            f"around_search：中心 {_s(args.get('location'))}，半径 {_s(args.get('radius'))}米{kw_part}，"
            f"共 {len(pois)} 条结果"
        )
    parts = [header]
    if not pois:
        parts.append("未找到匹配的地点，请换个关键词或城市。")
    parts.extend(_poi_block(i, p) for i, p in enumerate(pois, 1))
    return "\n".join(parts)


# -- direction -----------------------------------------------------------------------------
def _bracket(instruction: str, road: str) -> str:
    if road and road in instruction and f"「{road}」" not in instruction:
        return instruction.replace(road, f"「{road}」", 1)
    return instruction


def _render_direction(data: Mapping[str, Any], args: Mapping[str, Any]) -> str:
    route = data.get("route") or {}
    mode = _s(args.get("mode")) or ("transit" if route.get("transits") else "driving")
    header = (
        f"direction：{_MODE_ZH.get(mode, mode)}，起点 {_s(route.get('origin') or args.get('origin'))}，"
        f"终点 {_s(route.get('destination') or args.get('destination'))}"
    )
    lines = [header]
    transits = route.get("transits") or []
    if transits:
        t = transits[0]
        lines.append(f"distance: {_dist(t.get('distance') or route.get('distance') or 0)}")
        lines.append(f"duration: {fmt_duration(round(float(t.get('duration') or 0) / 60), '分钟')}")
        if _s(route.get("taxi_cost")):
            lines.append(f"taxi_cost: {_s(route.get('taxi_cost'))}元")
        steps: list[str] = []
        line_names: list[str] = []
        for seg in t.get("segments") or []:
            walk = seg.get("walking") or {}
            if walk and _s(walk.get("distance")):
                for ws in walk.get("steps") or []:
                    steps.append(_bracket(_s(ws.get("instruction")), _s(ws.get("road_name") or ws.get("road"))))
            bus = seg.get("bus") or {}
            for bl in bus.get("buslines") or []:
                ln = _s(bl.get("name"))
                line_names.append(ln)
                dep = _s((bl.get("departure_stop") or {}).get("name"))
                arr = _s((bl.get("arrival_stop") or {}).get("name"))
                via = _s(bl.get("via_num"))
                via_part = f"，{via}站" if via else ""
                steps.append(f"乘坐「{ln}」从「{dep}」到「{arr}」{via_part}，{_dist(bl.get('distance') or 0)}")
        lines.append(f"lines: {'、'.join(line_names) if line_names else '无（全程步行）'}")
        lines.append(f"cost: {_s(t.get('cost')) or '0'}元")
        lines.append(f"walking_distance: {_dist(t.get('walking_distance') or 0)}")
        lines.append("## 步骤")
        lines.extend(f"{i}. {s}" for i, s in enumerate(steps, 1))
        return "\n".join(lines)
    paths = route.get("paths") or []
    path = paths[0] if paths else {}
    lines.append(f"distance: {_dist(path.get('distance') or 0)}")
    dur = path.get("duration") or (path.get("cost") or {}).get("duration")
    if _s(dur):
        lines.append(f"duration: {fmt_duration(round(float(dur) / 60), '分钟')}")
    if _s(route.get("taxi_cost")):
        lines.append(f"taxi_cost: {_s(route.get('taxi_cost'))}元")
    lines.append("## 步骤")
    for i, st in enumerate(path.get("steps") or [], 1):
        lines.append(f"{i}. {_bracket(_s(st.get('instruction')), _s(st.get('road_name') or st.get('road')))}")
    return "\n".join(lines)


# -- weather -------------------------------------------------------------------------------
def _render_weather(data: Mapping[str, Any]) -> str:
    fcs = data.get("forecasts") or []
    fc = fcs[0] if fcs else {}
    casts = fc.get("casts") or []
    lines = [
        f"weather：{_s(fc.get('city'))}（{_s(fc.get('province'))}，adcode {_s(fc.get('adcode'))}）"
        f"未来{len(casts)}天天气预报，发布时间 {_s(fc.get('reporttime'))}"
    ]
    for c in casts:
        week = _s(c.get("week"))
        lines.append(f"## {_s(c.get('date'))} {_WEEK_ZH.get(week, week)}".rstrip())
        lines.append(f"dayweather: {_s(c.get('dayweather'))}")
        lines.append(f"nightweather: {_s(c.get('nightweather'))}")
        lines.append(f"daytemp: {_s(c.get('daytemp'))}℃")
        lines.append(f"nighttemp: {_s(c.get('nighttemp'))}℃")
        for key in ("daywind", "nightwind"):
            w = _s(c.get(key))
            lines.append(f"{key}: {w if w.endswith('风') or not w or w == '无风向' else w + '风'}")
        for key in ("daypower", "nightpower"):
            p = _s(c.get(key))
            lines.append(f"{key}: {p if p.endswith('级') else p + '级'}")
    return "\n".join(lines)


# -- transport -------------------------------------------------------------------------------
def _yuan(price: Any) -> str:
    """A fare as the data gives it: whole yuan without decimals (``553``), else as is (``553.5``)."""
    value = float(price)
    return str(int(value)) if value.is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def _render_flights(data: Mapping[str, Any], args: Mapping[str, Any]) -> str:
    rows = data.get("flights") or []
    date = _s(data.get("date") or args.get("date"))
    a = _s(data.get("from_city") or args.get("from_city"))
    b = _s(data.get("to_city") or args.get("to_city"))
    lines = [f"search_flights：{date} {a} → {b}，共 {len(rows)} 个航班"]
    for f in rows:
        nd = "(次日)" if f.get("next_day") else ""
        airline = f"（{f['airline']}）" if f.get("airline") else ""
        lines.append(
            f"航班 {f['flight_no']}{airline} {f['dep_time']} {f['from_airport']} → "
            f"{f['arr_time']}{nd} {f['to_airport']}，飞行 {fmt_duration(int(f['duration_min']))}，经济舱 {_yuan(f['price'])}元"
        )
    return "\n".join(lines)


def _render_trains(data: Mapping[str, Any], args: Mapping[str, Any]) -> str:
    rows = data.get("trains") or []
    date = _s(data.get("date") or args.get("date"))
    a = _s(data.get("from_city") or args.get("from_city"))
    b = _s(data.get("to_city") or args.get("to_city"))
    lines = [f"search_train_tickets：{date} {a} → {b}，共 {len(rows)} 趟列车"]
    labels = TRAIN_TYPE_LABELS
    for t in rows:
        nd = "(次日)" if t.get("next_day") else ""
        kind = str(t.get("train_type"))
        seats = " / ".join([f"{s['class']} {_yuan(s['price'])}元" for s in t.get("seats") or ()])
        lines.append(
            f"车次 {t['train_no']}（{labels.get(kind, kind)}） {t['dep_time']} {t['from_station']} → {t['arr_time']}{nd} "
            f"{t['to_station']}，历时 {fmt_duration(int(t['duration_min']))}，{seats}"
        )
    return "\n".join(lines)


def render(name: str, data: Mapping[str, Any], args: Mapping[str, Any] | None = None) -> str:
    """Render AMap-shaped ``data`` of tool ``name`` as the shared text format (not truncated).

    ``args`` (the validated tool arguments, cities resolved) fills the header line.
    """
    a: Mapping[str, Any] = args or {}
    if name in ("poi_search", "around_search"):
        return _render_pois(name, data, a)
    if name == "direction":
        return _render_direction(data, a)
    if name == "weather":
        return _render_weather(data)
    if name == "search_flights":
        return _render_flights(data, a)
    if name == "search_train_tickets":
        return _render_trains(data, a)
    raise ValueError(f"unknown tool {name!r}")

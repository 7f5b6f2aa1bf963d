"""A small synthetic ChinaTravel database in its exact file layout (3 cities), and queries in its format.

``build_database(root)`` writes ``attractions/``, ``restaurants/``, ``accommodations/``, ``poi/``,
``transportation/subways.json`` and ``intercity_transport/`` (``airplane.jsonl`` plus the
per-pair train files) for 北京, 上海 and 南京; ``QUERIES`` are ChinaTravel-format queries over it.
The numbers are invented; only the layout and the column names are ChinaTravel's.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

SLUGS = {"北京": "beijing", "上海": "shanghai", "南京": "nanjing"}

CENTERS = {"北京": (39.9042, 116.4074), "上海": (31.2304, 121.4737), "南京": (32.0603, 118.7969)}

ATTRACTION_TYPES = ("历史古迹", "博物馆/纪念馆", "公园", "自然风光", "人文景观", "商业街区", "园林", "文化旅游区")
CUISINES = {"北京": ("北京菜", "川菜", "火锅", "西餐", "粤菜"), "上海": ("本帮菜", "川菜", "日本料理", "火锅", "西餐"),
            "南京": ("江浙菜", "川菜", "火锅", "西餐", "小吃")}
FEATURES = ("智能客控", "亲子主题房", "温泉", "健身房")
NAMES = {
    "北京": {"attr": ["故宫博物院", "天坛公园", "颐和园", "北海公园", "景山公园", "国家博物馆", "南锣鼓巷", "恭王府"],
             "rest": ["全聚德", "四季民福", "眉州东坡", "海底捞(王府井店)", "便宜坊", "东来顺", "大董", "局气", "金鼎轩", "鼎泰丰(国贸店)"],
             "hotel": ["北京饭店", "王府井希尔顿", "如家精选(东单店)", "汉庭(前门店)"]},
    "上海": {"attr": ["外滩", "豫园", "上海博物馆", "东方明珠", "田子坊", "静安寺", "中山公园", "新天地"],
             "rest": ["老正兴", "上海老饭店", "南翔馒头店", "小杨生煎", "海底捞(人民广场店)", "新荣记", "富春小笼", "德兴馆", "莱莱小笼", "鼎泰丰(新天地店)"],
             "hotel": ["和平饭店", "上海大厦", "全季(南京东路店)", "汉庭(外滩店)"]},
    "南京": {"attr": ["夫子庙", "中山陵", "明孝陵", "玄武湖", "南京博物院", "总统府", "鸡鸣寺", "老门东"],
             "rest": ["南京大牌档", "绿柳居", "鸡鸣汤包", "小厨娘", "海底捞(新街口店)", "金陵饭店餐厅", "尹氏鸡汁汤包", "南京小吃城", "马祥兴", "鼎泰丰(德基店)"],
             "hotel": ["金陵饭店", "南京丽思卡尔顿", "如家(夫子庙店)", "汉庭(新街口店)"]},
}
STATIONS = {"北京": "北京南站", "上海": "上海虹桥站", "南京": "南京南站"}
AIRPORTS = {"北京": "北京首都国际机场", "上海": "上海浦东国际机场", "南京": "南京禄口国际机场"}


def _offset(city: str, i: int, ring: float) -> tuple[float, float]:
    """A deterministic point around the centre (no RNG): ring in km, angle from the index."""
    import math

    lat0, lon0 = CENTERS[city]
    ang = (i * 47 % 360) * math.pi / 180
    dlat = ring * math.cos(ang) / 111.0
    dlon = ring * math.sin(ang) / (111.0 * math.cos(lat0 * math.pi / 180))
    return round(lat0 + dlat, 6), round(lon0 + dlon, 6)


def _write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def _scaled_rows(city: str, rows: list[list[Any]], header: list[str], scale: int, positions: list[dict[str, Any]]) -> list[list[Any]]:
    """``rows`` plus ``(scale - 1) × len(rows)`` numbered copies spread over ~17 km (benchmark sizes)."""
    import math

    out = list(rows)
    lat0, lon0 = CENTERS[city]
    li, lo = header.index("lat"), header.index("lon")
    for i in range(len(rows) * (scale - 1)):
        r = list(rows[i % len(rows)])
        r[0], r[1] = len(out), f"{r[1]}{i + 1}号"
        ang, rad = i * 2.39996, 0.5 + (i % 37) * 0.45
        r[li] = round(lat0 + rad * math.cos(ang) / 111.0, 6)
        r[lo] = round(lon0 + rad * math.sin(ang) / (111.0 * math.cos(lat0 * math.pi / 180)), 6)
        positions.append({"name": r[1], "position": [r[li], r[lo]]})
        out.append(r)
    return out


def build_database(root: Path, scale: int = 1) -> Path:
    """Write the synthetic database under ``root`` (the ``database`` folder) and return ``root``.

    ``scale`` > 1 multiplies the POIs (numbered copies) and gives each city 12 metro lines of 25
    stations, for benchmarks at the size of ChinaTravel's real cities (``scale=40``: ~1,100 POIs).
    """
    subways: dict[str, list[dict[str, Any]]] = {}
    for city, slug in SLUGS.items():
        names = NAMES[city]
        positions: list[dict[str, Any]] = []
        attr_rows = []
        for i, name in enumerate(names["attr"]):
            lat, lon = _offset(city, i, 1.5 + (i % 4) * 1.7)
            price = [60, 0, 30, 10.5, 2, 50, 0, 40][i]
            opentime, endtime = ("08:30", "17:00") if i % 3 else ("07:00", "22:00")
            attr_rows.append([i, name, ATTRACTION_TYPES[i], lat, lon, opentime, endtime, price, 1.5 + (i % 3) * 0.5, 3.0])
            positions.append({"name": name, "position": [lat, lon]})
        header = ["id", "name", "type", "lat", "lon", "opentime", "endtime", "price", "recommendmintime", "recommendmaxtime"]
        _write_csv(root / f"attractions/{slug}/attractions.csv", header, _scaled_rows(city, attr_rows, header, scale, positions))
        rest_rows = []
        for i, name in enumerate(names["rest"]):
            lat, lon = _offset(city, 20 + i, 0.8 + (i % 5) * 1.3)
            cuisine = CUISINES[city][i % 5]
            price = [120, 95, 60, 35, 110, 25, 180, 80, 45, 70][i]
            hours = ("10:00", "22:00") if i != 8 else ("06:30", "21:00")
            rest_rows.append([i, name, lat, lon, price, cuisine, hours[0], hours[1], f"招牌菜{i}、{cuisine}"])
            positions.append({"name": name, "position": [lat, lon]})
        header = ["id", "name", "lat", "lon", "price", "cuisine", "opentime", "endtime", "recommendedfood"]
        _write_csv(root / f"restaurants/{slug}/restaurants_{slug}.csv", header, _scaled_rows(city, rest_rows, header, scale, positions))
        hotel_rows = []
        for i, name in enumerate(names["hotel"]):
            lat, lon = _offset(city, 40 + i, 1.0 + i * 0.9)
            hotel_rows.append([i, name, FEATURES[i], lat, lon, [880, 1200, 328, 260.5][i], 2 if i % 2 == 0 else 1])
            positions.append({"name": name, "position": [lat, lon]})
        header = ["id", "name", "featurehoteltype", "lat", "lon", "price", "numbed"]
        _write_csv(root / f"accommodations/{slug}/accommodations.csv", header, _scaled_rows(city, hotel_rows, header, scale, positions))
        for j, hub in enumerate((STATIONS[city], AIRPORTS[city])):
            lat, lon = _offset(city, 60 + j, 9.0 + j * 14.0)
            positions.append({"name": hub, "position": [lat, lon]})
        _write_json(root / f"poi/{slug}/poi.json", positions)
        lines = []
        for li in range(2):
            stations = []
            for k in range(7):
                lat, lon = _offset(city, 80 + li * 11 + k * 3, 0.5 + k * 2.6)
                stations.append({"name": f"{city}{'一二'[li]}号线{k + 1}站", "position": f"{lon},{lat}"})
            lines.append({"name": f"{'一二'[li]}号线", "stations": stations})
        for li in range(12 if scale > 1 else 0):
            stations = []
            for k in range(25):
                lat, lon = _offset(city, 200 + li * 29 + k * 7, 0.3 + k * 0.7)
                stations.append({"name": f"{city}{li + 3}号线{k + 1}站", "position": f"{lon},{lat}"})
            lines.append({"name": f"{li + 3}号线", "stations": stations})
        subways[slug] = lines
    _write_json(root / "transportation/subways.json", subways)
    flights = []
    trains: dict[tuple[str, str], list[dict[str, Any]]] = {}
    n = 0
    for a in SLUGS:
        for b in SLUGS:
            if a == b:
                continue
            long = {a, b} & {"北京"}
            rows = []
            for k, dep in enumerate(("07:05", "09:40", "13:15", "17:30", "19:50")):
                h = (3.8 if long else 1.2) + k * 0.05
                start = int(dep[:2]) * 60 + int(dep[3:])
                end = start + round(h * 60)
                rows.append({"TrainID": f"G{100 + n * 10 + k}", "TrainType": "高铁", "From": STATIONS[a], "To": STATIONS[b],
                             "BeginTime": dep, "EndTime": f"{end // 60:02d}:{end % 60:02d}", "Duration": round(h, 2),
                             "Cost": [553.5, 498, 520, 610, 444][k] if long else [144.5, 139, 150, 160, 129][k]})
            trains[(a, b)] = rows
            for k, dep in enumerate(("08:20", "18:10")):
                h = 2.1 if long else 1.1
                start = int(dep[:2]) * 60 + int(dep[3:])
                end = start + round(h * 60)
                flights.append({"FlightID": f"FL{n:02d}{k}", "From": AIRPORTS[a], "To": AIRPORTS[b], "BeginTime": dep,
                                "EndTime": f"{end // 60:02d}:{end % 60:02d}", "Duration": h, "Cost": 980 + k * 120 if long else 620})
            n += 1
    path = root / "intercity_transport/airplane.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(f, ensure_ascii=False) + "\n" for f in flights), encoding="utf-8")
    for (a, b), rows in trains.items():
        _write_json(root / f"intercity_transport/train/from_{a}_to_{b}.json", rows)
    return root


BUDGET = """total_cost=0
for activity in allactivities(plan):
    total_cost+=activity_cost(activity)+innercity_transport_cost(activity_transports(activity))
result=(total_cost<={budget})"""

QUERIES: list[dict[str, Any]] = [
    {"uid": "e20250101000000000001", "tag": "easy", "start_city": "北京", "target_city": "南京", "days": 2,
     "people_number": 2, "nature_language": "[当前位置北京,目标位置南京,旅行人数2,旅行天数2] 想去夫子庙看看，预算6000元。",
     "hard_logic_py": [BUDGET.format(budget=6000),
                       "attraction_names=set()\nfor activity in allactivities(plan):\n    if activity_type(activity)=='attraction':\n        attraction_names.add(activity_position(activity))\nresult=({'夫子庙'}<=attraction_names)"],
     "hard_logic_nl": ["总预算不超过6000元", "去夫子庙"]},
    {"uid": "e20250101000000000002", "tag": "easy", "start_city": "上海", "target_city": "南京", "days": 1,
     "people_number": 1, "nature_language": "[当前位置上海,目标位置南京,旅行人数1,旅行天数1] 坐火车去南京玩一天。",
     "hard_logic_py": str(["intercity_transport_set=set()\nfor activity in allactivities(plan):\n    if activity_type(activity) in ['train','airplane']:\n        intercity_transport_set.add(intercity_transport_type(activity))\nresult=(intercity_transport_set=={'train'})",
                           "result=(day_count(plan)==1)"]),
     "hard_logic_nl": "['只坐火车', '一天']"},
    {"uid": "h20250101000000000003", "tag": "human", "start_city": "南京", "target_city": "上海", "days": 3,
     "people_number": 3, "nature_language": "[当前位置南京,目标位置上海,旅行人数3,旅行天数3] 三个人去上海，想吃本帮菜，住的地方要有亲子主题房。",
     "hard_logic_py": ["restaurant_type_set=set()\nfor activity in allactivities(plan):\n    if activity_type(activity) in ['breakfast','lunch','dinner']:\n        restaurant_type_set.add(restaurant_type(activity, target_city(plan)))\nresult=({'本帮菜'}<=restaurant_type_set)",
                       "hotel_feature_set=set()\nfor activity in allactivities(plan):\n    if activity_type(activity)=='accommodation':\n        hotel_feature_set.add(accommodation_type(activity, target_city(plan)))\nresult=({'亲子主题房'}<=hotel_feature_set)",
                       "result=(people_count(plan)==3)"]},
    {"uid": "m20250101000000000004", "tag": "medium", "start_city": "南京", "target_city": "北京", "days": 2,
     "people_number": 4, "nature_language": "[当前位置南京,目标位置北京,旅行人数4,旅行天数2] 四个人坐飞机去北京，住两间房，市内只打车。",
     "hard_logic_py": ["intercity_transport_set=set()\nfor activity in allactivities(plan):\n    if activity_type(activity) in ['train','airplane']:\n        intercity_transport_set.add(intercity_transport_type(activity))\nresult=(intercity_transport_set=={'airplane'})",
                       "result=True\nfor activity in allactivities(plan):\n    if activity_type(activity)=='accommodation' and room_count(activity)!=2: result=False",
                       "innercity_transport_set=set()\nfor activity in allactivities(plan):\n    if activity_transports(activity)!=[]:\n        innercity_transport_set.add(innercity_transport_type(activity_transports(activity)))\nresult=(innercity_transport_set<={'taxi'})"]},
    {"uid": "e20250101000000000005", "tag": "easy", "start_city": "北京", "target_city": "上海", "days": 2,
     "people_number": 1, "nature_language_en": "[From Beijing to Shanghai, 1 person, 2 days] Only metro in the city, budget 4000.",
     "nature_language": "[当前位置北京,目标位置上海,旅行人数1,旅行天数2] 市内只坐地铁，预算4000。",
     "hard_logic_py": [BUDGET.format(budget=4000),
                       "innercity_transport_set=set()\nfor activity in allactivities(plan):\n    if activity_transports(activity)!=[]:\n        innercity_transport_set.add(innercity_transport_type(activity_transports(activity)))\nresult=(innercity_transport_set<={'metro'})"]},
]
"""Queries in ChinaTravel's format (one with ``hard_logic_py`` stored as a string, as the hub CSV does)."""


def write_queries(path: Path, queries: list[dict[str, Any]] | None = None, jsonl: bool = False) -> Path:
    """Write queries as one JSON list (or JSON lines) and return the path."""
    items = QUERIES if queries is None else queries
    if jsonl:
        path.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in items), encoding="utf-8")
    else:
        path.write_text(json.dumps(items, ensure_ascii=False, indent=1), encoding="utf-8")
    return path

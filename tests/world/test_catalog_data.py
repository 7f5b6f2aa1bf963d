"""Consistency checks for the city catalog data files.

Only the standard library (json, math, pathlib, re) is used; no network.
"""
import json
import math
import re
from pathlib import Path

import pytest

DATA_DIR = (
    Path(__file__).resolve().parents[2] / "src" / "navworld" / "world" / "data" / "cities"
)

REQUIRED_CITIES = (
    "北京 上海 广州 深圳 杭州 成都 西安 重庆 南京 武汉 长沙 苏州 天津 青岛 厦门 大连 郑州 "
    "济南 沈阳 哈尔滨 福州 合肥 南昌 贵阳 南宁 海口 太原 兰州 石家庄 长春 昆明 宁波 无锡 "
    "温州 烟台 三亚 桂林 丽江 张家界 黄山 九寨沟 洛阳 泉州 大理 威海 珠海 北海 秦皇岛 敦煌 "
    "景德镇 婺源 平遥 乐山 都江堰 峨眉山 稻城 银川 西宁 呼和浩特 乌鲁木齐 拉萨 常州 徐州 "
    "连云港 扬州 腾冲 阳朔 凤凰古城 张掖 嘉峪关 承德"
).split()

SPECIALTIES = set(
    "自然风光 文化历史 美食探店 购物血拼 休闲度假 摄影打卡 亲子游乐 户外运动 民俗体验 "
    "博物馆 古镇古村 温泉养生 海滨度假 登山徒步 赏花观鸟".split()
)
FOOD_THEMES = set(
    "地方特色小吃 街头小吃 老字号探访 海鲜大餐 夜市美食 特色饮品甜品 火锅美食 早茶文化 "
    "高端餐厅 素食禅意料理".split()
)
LANDMARK_CATEGORIES = set("自然风光 文化历史 博物馆 古镇古村 主题乐园 城市地标 宗教场所 公园 海滨 山岳".split())
COASTAL_ONLY = {"海鲜大餐", "海滨度假"}

KEY_TYPES = {
    "name": str,
    "name_en": str,
    "aliases": list,
    "province": str,
    "adcode": str,
    "citycode": str,
    "center": list,
    "tier": int,
    "airports": list,
    "stations": list,
    "metro_lines": int,
    "districts": list,
    "roads": list,
    "landmarks": list,
    "specialties": list,
    "food_themes": list,
    "local_cuisine": str,
    "signature_dishes": list,
    "seasonal_avoid": list,
    "transport_hub": bool,
    "nearby_cities": list,
    "is_coastal": bool,
    "climate": dict,
}
AIRPORT_KEYS = {"name", "iata", "location"}
STATION_KEYS = {"name", "location", "hsr"}
DISTRICT_KEYS = {"name", "adcode"}
LANDMARK_KEYS = {"name", "category", "ticket", "open", "close", "visit_hours", "location", "indoor"}
CLIMATE_KEYS = {"high", "low", "rain_days", "snow"}

TIME_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$|^24:00$")
ADCODE_RE = re.compile(r"^\d{6}$")
IATA_RE = re.compile(r"^[A-Z]{3}$")
CITYCODE_RE = re.compile(r"^0\d{2,3}$")


def _load_index():
    with open(DATA_DIR / "_index.json", encoding="utf-8") as fh:
        return json.load(fh)


def _load_cities():
    cities = []
    for entry in _load_index()["cities"]:
        with open(DATA_DIR / entry["file"], encoding="utf-8") as fh:
            cities.append((entry, json.load(fh)))
    return cities


CITIES = _load_cities()
BY_NAME = {city["name"]: city for _, city in CITIES}


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _in_china(loc):
    return (
        isinstance(loc, list)
        and len(loc) == 2
        and all(_is_number(v) for v in loc)
        and 73.0 <= loc[0] <= 135.0
        and 18.0 <= loc[1] <= 54.0
    )


def _km(a, b):
    """Great-circle distance in km between two [lng, lat] points."""
    lng1, lat1, lng2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def _ids():
    return [city["name"] for _, city in CITIES]


# ---------------------------------------------------------------- catalogue level


def test_index_shape():
    index = _load_index()
    assert set(index) == {"cities"}
    for entry in index["cities"]:
        assert set(entry) == {"name", "file"}
        assert entry["file"].endswith(".json")
        assert (DATA_DIR / entry["file"]).is_file()


def test_every_data_file_is_indexed():
    on_disk = {p.name for p in DATA_DIR.glob("*.json") if p.name != "_index.json"}
    indexed = {entry["file"] for entry in _load_index()["cities"]}
    assert on_disk == indexed


def test_required_cities_present():
    names = set(BY_NAME)
    missing = [n for n in REQUIRED_CITIES if n not in names]
    assert not missing, missing
    assert len(CITIES) <= len(REQUIRED_CITIES) + 10


def test_index_names_match_files():
    for entry, city in CITIES:
        assert entry["name"] == city["name"]


def test_names_unique():
    names = [city["name"] for _, city in CITIES]
    assert len(names) == len(set(names))


def test_aliases_unique_across_cities():
    owner = {}
    for _, city in CITIES:
        owner[city["name"].lower()] = city["name"]
    for _, city in CITIES:
        for alias in {a.lower() for a in city["aliases"]}:
            assert owner.get(alias, city["name"]) == city["name"], (alias, city["name"], owner.get(alias))
            owner[alias] = city["name"]


def test_adcodes_unique():
    codes = [city["adcode"] for _, city in CITIES]
    assert len(codes) == len(set(codes))


def test_tier_one_cities():
    assert {c["name"] for _, c in CITIES if c["tier"] == 1} == {"北京", "上海", "广州", "深圳"}


def test_food_themes_each_used_by_three_cities():
    counts = {theme: 0 for theme in FOOD_THEMES}
    for _, city in CITIES:
        for theme in city["food_themes"]:
            counts[theme] += 1
    rare = {t: n for t, n in counts.items() if n < 3}
    assert not rare, rare


def test_seasonal_avoid_is_common_but_not_universal():
    with_avoid = sum(1 for _, c in CITIES if c["seasonal_avoid"])
    assert 20 <= with_avoid <= 35, with_avoid


# ---------------------------------------------------------------- per city


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_keys_and_types(city):
    assert set(city) == set(KEY_TYPES)
    for key, typ in KEY_TYPES.items():
        value = city[key]
        if typ is int:
            assert _is_int(value), key
        else:
            assert isinstance(value, typ), key
    for key in ("aliases", "roads", "specialties", "food_themes", "signature_dishes", "nearby_cities"):
        assert all(isinstance(x, str) and x for x in city[key]), key
        assert len(city[key]) == len(set(city[key])), key
    assert city["name"] and city["name_en"] and city["province"] and city["local_cuisine"]


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_codes(city):
    assert ADCODE_RE.match(city["adcode"]), city["adcode"]
    assert CITYCODE_RE.match(city["citycode"]), city["citycode"]
    assert city["tier"] in (1, 2, 3)
    assert _is_int(city["metro_lines"]) and 0 <= city["metro_lines"] <= 40
    assert city["aliases"], "at least one alias"


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_center_in_china(city):
    assert _in_china(city["center"]), city["center"]


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_airports(city):
    for ap in city["airports"]:
        assert set(ap) == AIRPORT_KEYS
        assert isinstance(ap["name"], str) and ap["name"]
        assert IATA_RE.match(ap["iata"]), ap["iata"]
        assert _in_china(ap["location"]), ap
        dist = _km(city["center"], ap["location"])
        assert dist <= 150.0, (ap["name"], round(dist, 1))


def test_iata_codes_unique():
    codes = [ap["iata"] for _, c in CITIES for ap in c["airports"]]
    assert len(codes) == len(set(codes))


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_stations(city):
    assert len(city["stations"]) <= 4
    for st in city["stations"]:
        assert set(st) == STATION_KEYS
        assert isinstance(st["name"], str) and st["name"]
        assert isinstance(st["hsr"], bool)
        assert _in_china(st["location"]), st
        dist = _km(city["center"], st["location"])
        assert dist <= 80.0, (st["name"], round(dist, 1))


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_transport_hub_consistent(city):
    if city["transport_hub"]:
        assert city["airports"], "hub needs an airport"
        assert any(st["hsr"] for st in city["stations"]), "hub needs a high-speed rail station"


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_districts(city):
    assert 3 <= len(city["districts"]) <= 8
    for d in city["districts"]:
        assert set(d) == DISTRICT_KEYS
        assert isinstance(d["name"], str) and d["name"]
        assert ADCODE_RE.match(d["adcode"]), d
    codes = [d["adcode"] for d in city["districts"]]
    assert len(codes) == len(set(codes))


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_roads(city):
    assert 10 <= len(city["roads"]) <= 16


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_landmarks(city):
    marks = city["landmarks"]
    assert 2 <= len(marks) <= 6
    names = [m["name"] for m in marks]
    assert len(names) == len(set(names))
    for m in marks:
        assert set(m) == LANDMARK_KEYS
        assert isinstance(m["name"], str) and m["name"]
        assert m["category"] in LANDMARK_CATEGORIES, m["category"]
        assert _is_int(m["ticket"]) and m["ticket"] >= 0
        assert TIME_RE.match(m["open"]) and m["open"] != "24:00", m["open"]
        assert TIME_RE.match(m["close"]), m["close"]
        assert m["open"] < m["close"], (m["open"], m["close"])
        assert _is_number(m["visit_hours"]) and 0 < m["visit_hours"] <= 12
        assert isinstance(m["indoor"], bool)
        assert _in_china(m["location"]), m


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_vocabularies(city):
    assert 3 <= len(city["specialties"]) <= 7
    assert set(city["specialties"]) <= SPECIALTIES, set(city["specialties"]) - SPECIALTIES
    assert 1 <= len(city["food_themes"]) <= 5
    assert set(city["food_themes"]) <= FOOD_THEMES, set(city["food_themes"]) - FOOD_THEMES
    assert 4 <= len(city["signature_dishes"]) <= 8
    assert 2 <= len(city["nearby_cities"]) <= 5
    assert city["name"] not in city["nearby_cities"]


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_coastal_only_themes(city):
    used = (set(city["food_themes"]) | set(city["specialties"])) & COASTAL_ONLY
    if used:
        assert city["is_coastal"], used


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_seasonal_avoid(city):
    months = city["seasonal_avoid"]
    assert all(_is_int(m) and 1 <= m <= 12 for m in months)
    assert len(months) == len(set(months))
    assert len(months) <= 4


@pytest.mark.parametrize("city", [c for _, c in CITIES], ids=_ids())
def test_climate(city):
    clim = city["climate"]
    assert set(clim) == CLIMATE_KEYS
    assert isinstance(clim["snow"], bool)
    for key in ("high", "low", "rain_days"):
        assert isinstance(clim[key], list) and len(clim[key]) == 12, key
        assert all(_is_int(v) for v in clim[key]), key
    for hi, lo in zip(clim["high"], clim["low"], strict=True):
        assert lo <= hi
        assert -45 <= lo and hi <= 45
    assert all(0 <= d <= 31 for d in clim["rain_days"])

"""City catalog: lazy loading, order, alias resolution."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from navworld.world import catalog as catalog_mod
from navworld.world.catalog import Catalog


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("杭州", "杭州"),
        ("杭州市", "杭州"),
        ("Hangzhou", "杭州"),
        ("hangzhou", "杭州"),
        ("HANGZHOU", "杭州"),
        ("Hang Zhou", "杭州"),
        ("Hangzhou City", "杭州"),
        ("330100", "杭州"),
        ("330106", "杭州"),  # a district adcode resolves to its city
        ("浙江杭州", "杭州"),
        ("浙江省杭州市", "杭州"),
        (" 无锡 ", "无锡"),
        ("无锡市", "无锡"),
        ("0512", "苏州"),
    ],
)
def test_resolve_aliases(fixture_catalog: Catalog, text: str, expected: str) -> None:
    city = fixture_catalog.resolve_city(text)
    assert city is not None and city.name == expected


@pytest.mark.parametrize("text", ["", "巴黎", "Paris", "市", "x" * 10_000, "123456"])
def test_resolve_unknown(fixture_catalog: Catalog, text: str) -> None:
    assert fixture_catalog.resolve_city(text) is None


def test_get_city_keyerror(fixture_catalog: Catalog) -> None:
    assert fixture_catalog.get_city("杭州市").name == "杭州"
    with pytest.raises(KeyError):
        fixture_catalog.get_city("巴黎")


def test_find_in_text(fixture_catalog: Catalog) -> None:
    assert fixture_catalog.find_in_text("杭州西湖附近的酒店").name == "杭州"  # type: ignore[union-attr]
    assert fixture_catalog.find_in_text("西湖") is None


def test_index_order(tmp_path: Path, fixture_catalog: Catalog) -> None:
    for c in fixture_catalog.all_cities():
        (tmp_path / f"{c.name_en.lower()}.json").write_text(json.dumps(c.model_dump(), ensure_ascii=False), encoding="utf-8")
    (tmp_path / "_index.json").write_text(json.dumps(["无锡", "hangzhou.json", "苏州"], ensure_ascii=False), encoding="utf-8")
    cat = Catalog(tmp_path)
    assert cat.city_names() == ["无锡", "杭州", "苏州"]


def test_lazy_and_cached(fixture_catalog: Catalog) -> None:
    cat = Catalog(fixture_catalog.directory)
    assert cat._cities is None  # nothing read at construction
    first = cat.all_cities()
    assert cat.all_cities() == first and cat.all_cities() is not first  # copies of one cached list
    assert cat.get_city("杭州") is first[0] or cat.get_city("杭州") in first


def test_real_catalog_resolves_every_city(real_catalog: Catalog) -> None:
    cities = real_catalog.all_cities()
    assert len(cities) >= 71
    assert catalog_mod.city_names() == [c.name for c in cities]
    for c in cities:
        assert real_catalog.resolve_city(c.name) == c
        assert real_catalog.resolve_city(c.name_en) == c, c.name_en
        assert real_catalog.resolve_city(c.adcode) == c


def test_real_catalog_seed_cities(real_catalog: Catalog) -> None:
    seed = (
        "北京 上海 广州 深圳 杭州 成都 西安 重庆 南京 武汉 长沙 苏州 天津 青岛 厦门 大连 郑州 济南 沈阳 哈尔滨 福州 合肥 南昌 "
        "贵阳 南宁 海口 太原 兰州 石家庄 长春 昆明 宁波 无锡 温州 烟台 三亚 桂林 丽江 张家界 黄山 九寨沟 洛阳 泉州 大理 威海 "
        "珠海 北海 秦皇岛 敦煌 景德镇 婺源 平遥 乐山 都江堰 峨眉山 稻城 银川 西宁 呼和浩特 乌鲁木齐 拉萨 常州 徐州 连云港 扬州 "
        "腾冲 阳朔 凤凰古城 张掖 嘉峪关 承德"
    ).split()
    assert len(seed) == 71
    missing = [n for n in seed if real_catalog.resolve_city(n) is None]
    assert not missing

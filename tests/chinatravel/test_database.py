"""The loader: ChinaTravel's file layout, old column names, and malformed files that lose only what they hold."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from navworld.core.errors import ConfigError
from navworld.world import get_world
from navworld.world.chinatravel import ChinaTravelWorld, load_database


def _copy(db_dir: Path, tmp_path: Path) -> Path:
    root = tmp_path / "database"
    shutil.copytree(db_dir, root)
    return root


def test_loads_three_cities_with_all_tables(world: ChinaTravelWorld) -> None:
    assert world.served_cities() == ["北京", "上海", "南京"]
    assert world.errors == [] and world.problems == []
    assert sorted(world.db.absent) == sorted(["苏州", "杭州", "深圳", "成都", "武汉", "广州", "重庆"])
    kinds = {k: len(world.pois("南京", k)) for k in ("attraction", "restaurant", "hotel", "hub")}
    assert kinds == {"attraction": 8, "restaurant": 10, "hotel": 4, "hub": 2}
    poi = world.find_poi("南京", "夫子庙")
    assert poi is not None and poi.cost == 60 and poi.category == "历史古迹" and poi.visit_hours == 1.5
    t = world.tables("南京")
    lat, lon = t.position("夫子庙")
    assert poi.location == (lon, lat)  # navworld is (lng, lat); poi.json is [lat, lon]
    hotel = world.find_poi("南京", "如家(夫子庙店)")
    assert hotel is not None and hotel.beds == 2 and hotel.features == ("温泉",)
    assert [s[0] for s in world._stations["南京"][:2]] == ["南京一号线1站", "南京一号线2站"]


def test_parent_folder_and_nanjing_slug_both_work(db_dir: Path) -> None:
    w = get_world(f"chinatravel:{db_dir.parent}", "x")
    assert isinstance(w, ChinaTravelWorld) and w.tables("nanjing").city.zh == "南京"


def test_old_column_names_are_aliases(db_dir: Path, tmp_path: Path) -> None:
    root = _copy(db_dir, tmp_path)
    for rel, old in (("attractions/nanjing/attractions.csv", {"lat": "latitude", "lon": "longitude"}),
                     ("restaurants/nanjing/restaurants_nanjing.csv", {"opentime": "weekdayopentime", "endtime": "weekdayclosetime"})):
        path = root / rel
        lines = path.read_text(encoding="utf-8").splitlines()
        header = lines[0].split(",")
        lines[0] = ",".join(old.get(h, h) for h in header)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = load_database(root)
    assert not db.errors and len(db.cities["南京"].attractions) == 8
    assert db.cities["南京"].restaurants[0].opentime == "10:00"


def test_closed_restaurant_is_kept_for_checks_but_not_offered(db_dir: Path, tmp_path: Path) -> None:
    root = _copy(db_dir, tmp_path)
    path = root / "restaurants/nanjing/restaurants_nanjing.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    cells = lines[1].split(",")
    cells[6], cells[7] = "不营业", "不营业"
    lines[1] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    w = ChinaTravelWorld(str(root), salt="x")
    name = cells[1]
    assert w.tables("南京").restaurant_by_name[name].closed
    assert w.find_poi("南京", name) is None


def test_bad_rows_are_skipped_with_file_line_and_column(db_dir: Path, tmp_path: Path) -> None:
    root = _copy(db_dir, tmp_path)
    path = root / "attractions/beijing/attractions.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    cells = lines[3].split(",")
    cells[7] = "免费"
    lines[3] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    hotels = root / "accommodations/shanghai/accommodations.csv"
    hl = hotels.read_text(encoding="utf-8").splitlines()
    c = hl[2].split(",")
    c[2] = ""
    hl[2] = ",".join(c)
    hotels.write_text("\n".join(hl) + "\n", encoding="utf-8")
    air = root / "intercity_transport/airplane.jsonl"
    air.write_text(air.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    db = load_database(root)
    assert db.errors == []
    assert "attractions/beijing/attractions.csv line 4, column 'price': expected a number, got '免费' (row skipped)" in db.problems
    assert any(p.startswith("accommodations/shanghai/accommodations.csv line 3, column 'featurehoteltype'") for p in db.problems)
    assert any(p.startswith("intercity_transport/airplane.jsonl line 13") for p in db.problems)
    assert len(db.cities["北京"].attractions) == 7 and len(db.cities["上海"].hotels) == 3
    assert len(db.flights[("北京", "上海")]) == 2  # the other flights load


@pytest.mark.parametrize(
    ("rel", "content", "reason"),
    [
        ("poi/shanghai/poi.json", "[{bad json", "not valid JSON (Expecting property name enclosed in double quotes: line 1 column 3"),
        ("restaurants/shanghai/restaurants_shanghai.csv", "id,name,lat\n1,x,31\n", "missing column(s) lon, price, cuisine, opentime, endtime"),
        ("accommodations/shanghai/accommodations.csv", None, "file not found"),
        ("attractions/shanghai/attractions.csv", b"\xff\xfe\x00bad", "not UTF-8 text"),
    ],
)
def test_a_malformed_city_file_loses_only_that_city(db_dir: Path, tmp_path: Path, rel: str, content: Any, reason: str) -> None:
    root = _copy(db_dir, tmp_path)
    path = root / rel
    if content is None:
        path.unlink()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    w = ChinaTravelWorld(str(root), salt="x")
    assert w.served_cities() == ["北京", "南京"]
    assert len(w.errors) == 1 and w.errors[0].startswith(f"{rel}: {reason}")
    assert w.errors[0].endswith(": city 上海 (shanghai) not loaded")
    with pytest.raises(KeyError, match=rel.replace("(", r"\(")):
        w.tables("上海")
    assert w.train_list("2025-05-01", "北京", "上海") == []
    assert len(w.train_list("2025-05-01", "北京", "南京")) == 5


def test_broken_subways_lose_only_the_metro(db_dir: Path, tmp_path: Path) -> None:
    root = _copy(db_dir, tmp_path)
    (root / "transportation/subways.json").write_text("{", encoding="utf-8")
    w = ChinaTravelWorld(str(root), salt="x")
    assert w.served_cities() == ["北京", "上海", "南京"]
    assert w.errors[0].startswith("transportation/subways.json: not valid JSON") and w.errors[0].endswith("no metro in any city")
    a, b = w.find_poi("南京", "夫子庙"), w.find_poi("南京", "中山陵")
    assert a is not None and b is not None
    assert w.route(a.location, b.location, "walking", "南京").distance_m > 0
    from navworld.core.errors import ToolInputError

    with pytest.raises(ToolInputError, match="没有地铁"):
        w.route(a.location, b.location, "transit", "南京")


def test_broken_train_file_loses_only_that_pair(db_dir: Path, tmp_path: Path) -> None:
    root = _copy(db_dir, tmp_path)
    (root / "intercity_transport/train/from_北京_to_南京.json").write_text(json.dumps({"not": "a list"}), encoding="utf-8")
    db = load_database(root)
    assert db.errors == ["intercity_transport/train/from_北京_to_南京.json: expected a JSON list of trains, got dict: no trains 北京→南京"]
    assert ("北京", "南京") not in db.trains and ("南京", "北京") in db.trains


def test_unusable_database_directories_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is not a directory"):
        get_world(f"chinatravel:{tmp_path / 'missing'}")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="no city of the chinatravel database"):
        get_world(f"chinatravel:{tmp_path / 'empty'}")
    with pytest.raises(ConfigError, match="needs the database directory"):
        get_world("chinatravel:")
    with pytest.raises(ConfigError, match="chinatravel:DIR"):
        get_world("chinatraveller")


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from navworld.world.chinatravel.tables import DataFileError, read_attractions, read_restaurants  # noqa: E402

_CELL = st.one_of(st.text(max_size=12), st.sampled_from(["", "08:30", "24:00", "不营业", "nan", "1e400", "-5", "32.1", "118.7"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_CELL, min_size=0, max_size=12), max_size=6), st.booleans())
def test_csv_rows_never_break_the_loader(tmp_path_factory: pytest.TempPathFactory, rows: list[list[str]], restaurants: bool) -> None:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["id", "name", "type", "lat", "lon", "opentime", "endtime", "price", "recommendmintime", "cuisine"])
    w.writerows(rows)
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_text(buf.getvalue(), encoding="utf-8")
    reader = read_restaurants if restaurants else read_attractions
    try:
        got, problems = reader(path, "t.csv")
    except DataFileError as exc:
        assert str(exc).startswith("t.csv: ")
        return
    assert len(got) + len(problems) <= len(rows)
    assert all(str(p).startswith("t.csv line ") for p in problems)
    for r in got:
        assert r.name and -90 <= r.lat <= 90 and -180 <= r.lon <= 180

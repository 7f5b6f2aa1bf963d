"""Converters from AMap payloads to navworld's data shapes: quirks, empty fields, bad structure."""

from __future__ import annotations

import pytest

from navworld.core.errors import ToolInputError, WorldError
from navworld.world.amap.convert import forecast_from_amap, pois_from_amap
from navworld.world.amap.fields import int_text, money, text
from navworld.world.amap.routes import NoTransit, route_from_amap, transit_from_amap, walking_as_transit

BUSINESS_KEYS = [
    "tel", "rating", "cost", "opentime", "tag", "visit_hours",
    "cuisine", "dishes", "brand", "star", "beds", "features",
]  # fmt: skip
POI_KEYS = ["id", "name", "type", "typecode", "address", "location", "pname", "cityname", "citycode", "adname", "adcode"]


def _raw_poi(**over: object) -> dict[str, object]:
    poi: dict[str, object] = {
        "parent": "", "address": "龙井路1号", "distance": "", "pcode": "330000", "adcode": "330106",
        "pname": "浙江省", "cityname": "杭州市", "type": "风景名胜;风景名胜;国家级景点", "typecode": "110202",
        "adname": "西湖区", "citycode": "0571", "name": "西湖", "location": "120.1412,30.2587", "id": "B023B173VP",
        "business": {"tel": "0571-87179617", "rating": "4.8", "opentime_today": "00:00-24:00", "tag": "湖泊,5A景区"},
    }  # fmt: skip
    poi.update(over)
    return poi


def test_text_handles_amap_empty_values() -> None:
    assert text([]) == "" and text({}) == "" and text(None) == ""
    assert text(" 4.5 ") == "4.5"
    assert text(["0571-1", "0571-2"]) == "0571-1;0571-2"
    assert int_text("200.00") == "200" and int_text("inf") == "" and int_text("nan") == "" and int_text("x") == ""
    assert money("88.50") == "88.5" and money("420.00") == "420" and money("inf") == "" and money("-1") == ""


def test_poi_shape_matches_the_contract() -> None:
    data = pois_from_amap({"status": "1", "count": "1", "pois": [_raw_poi()]})
    assert list(data) == ["count", "pois"]
    (poi,) = data["pois"]
    assert list(poi) == [*POI_KEYS, "business"]
    assert list(poi["business"]) == BUSINESS_KEYS
    assert poi["location"] == "120.141200,30.258700"
    assert poi["business"]["rating"] == "4.8"
    assert poi["business"]["tag"] == "湖泊、5A景区"
    assert poi["business"]["cost"] == ""
    assert all(isinstance(v, str) for v in poi["business"].values())


def test_poi_quirks_restaurants_hotels_and_empty_lists() -> None:
    restaurant = _raw_poi(
        typecode="050101",
        type="餐饮服务;中餐厅;浙江菜",
        address=[],
        business={"tel": [], "rating": [], "cost": "88.50", "tag": "西湖醋鱼,东坡肉，龙井虾仁;叫花鸡、片儿川,定胜糕"},
    )
    hotel = _raw_poi(typecode="100102", type="住宿服务;宾馆酒店;四星级宾馆", business={"cost": "420.00", "star": "4"})
    no_name = _raw_poi(name=[])
    data = pois_from_amap({"pois": [restaurant, hotel, no_name, "garbage"]})
    r, h = data["pois"]
    assert data["count"] == "2"
    assert r["address"] == "" and r["business"]["tel"] == "" and r["business"]["rating"] == ""
    assert r["business"]["cost"] == "88.5"
    assert r["business"]["cuisine"] == "浙江菜"
    assert r["business"]["dishes"] == "西湖醋鱼、东坡肉、龙井虾仁、叫花鸡、片儿川"
    assert h["business"]["cost"] == "420" and h["business"]["star"] == "4"


def test_around_results_carry_distance_and_are_sorted() -> None:
    pois = [_raw_poi(name="远", distance="900"), _raw_poi(name="近", distance="35")]
    data = pois_from_amap({"pois": pois}, with_distance=True)
    assert [p["name"] for p in data["pois"]] == ["近", "远"]
    assert list(data["pois"][0])[11] == "distance"
    assert "distance" not in pois_from_amap({"pois": pois})["pois"][0]


def test_at_most_ten_pois() -> None:
    assert pois_from_amap({"pois": [_raw_poi(id=str(i)) for i in range(25)]})["count"] == "10"


def test_unexpected_structure_is_a_readable_world_error() -> None:
    with pytest.raises(WorldError, match="pois is str"):
        pois_from_amap({"pois": "oops"})
    with pytest.raises(WorldError, match="route is list"):
        route_from_amap({"route": [1]}, "driving")
    with pytest.raises(WorldError, match="forecasts is int"):
        forecast_from_amap({"forecasts": 3})


def _v5_path(duration_in_cost: bool = True) -> dict[str, object]:
    step = {"instruction": "沿延安路向东行驶300米", "orientation": "东", "road_name": "延安路", "step_distance": "300"}
    path: dict[str, object] = {"distance": "1234", "steps": [step, {"instruction": "到达", "road_name": []}]}
    if duration_in_cost:
        path["cost"] = {"duration": "321", "tolls": "0"}
        step["cost"] = {"duration": "60"}
    else:
        path["duration"] = "400"
    return path


def test_route_driving_and_walking_shapes() -> None:
    payload = {"route": {"origin": "120.1,30.2", "destination": "120.2,30.3", "taxi_cost": "23.5", "paths": [_v5_path()]}}
    drive = route_from_amap(payload, "driving")["route"]
    assert list(drive) == ["origin", "destination", "taxi_cost", "paths"]
    assert drive["taxi_cost"] == "23.5"
    path = drive["paths"][0]
    assert (path["distance"], path["duration"]) == ("1234", "321")
    assert path["steps"][0] == {
        "instruction": "沿延安路向东行驶300米", "orientation": "东", "road_name": "延安路",
        "step_distance": "300", "duration": "60",
    }  # fmt: skip
    assert path["steps"][1]["road_name"] == ""
    walk = route_from_amap({"route": {"paths": [_v5_path(False)]}}, "walking")["route"]
    assert "taxi_cost" not in walk and walk["paths"][0]["duration"] == "400"
    with pytest.raises(ToolInputError, match="骑行"):
        route_from_amap({"route": {"paths": []}}, "bicycling")


def test_transit_shape_splits_segments_and_strips_termini() -> None:
    segment = {
        "walking": {"distance": "300", "cost": {"duration": "250"}, "steps": [{"instruction": "步行300米", "road": "延安路", "distance": "300"}]},
        "bus": {"buslines": [
            {"name": "地铁1号线(湘湖--下沙江滨)", "type": "地铁线路", "departure_stop": {"name": "龙翔桥"},
             "arrival_stop": {"name": "凤起路"}, "distance": "4300", "cost": {"duration": "600"}, "via_num": "2"},
            {"name": "备选线路", "type": "普通公交线路"},
        ]},
        "railway": [],
    }  # fmt: skip
    rail = {"railway": {"name": "G7501", "trip": "G7501", "time": "1800", "distance": "80000",
                        "departure_stop": {"name": "杭州东"}, "arrival_stop": {"name": "上海虹桥"}}}  # fmt: skip
    payload = {
        "route": {
            "origin": "120.1,30.2", "destination": "121.4,31.2", "distance": "90000",
            "transits": [{"cost": {"duration": "5000", "transit_fee": "77.5", "taxi_fee": "400"},
                          "distance": "90000", "walking_distance": "300", "segments": [segment, rail]}],
        }
    }  # fmt: skip
    route = transit_from_amap(payload)["route"]
    assert list(route) == ["origin", "destination", "taxi_cost", "distance", "transits"]
    assert route["taxi_cost"] == "400"
    (plan,) = route["transits"]
    assert list(plan) == ["cost", "duration", "walking_distance", "distance", "segments"]
    assert plan["cost"] == "77.5" and plan["duration"] == "5000"
    walk, bus, train = plan["segments"]
    assert walk["walking"]["steps"][0] == {"instruction": "步行300米", "road_name": "延安路", "step_distance": "300"}
    (line,) = bus["bus"]["buslines"]
    assert line["name"] == "地铁1号线" and line["departure_stop"] == {"name": "龙翔桥"} and line["via_num"] == "2"
    assert train["bus"]["buslines"][0]["name"] == "G7501"
    with pytest.raises(NoTransit):
        transit_from_amap({"route": {"transits": []}})


def test_walking_as_transit() -> None:
    walk = route_from_amap({"route": {"origin": "120.1,30.2", "destination": "120.1,30.201", "paths": [_v5_path()]}}, "walking")
    route = walking_as_transit(walk, "11")["route"]
    assert route["taxi_cost"] == "11" and route["distance"] == "1234"
    (plan,) = route["transits"]
    assert plan["cost"] == "0" and plan["walking_distance"] == "1234"
    assert list(plan["segments"][0]) == ["walking"]


def _forecast(start_day: int = 1) -> dict[str, object]:
    casts = [
        {"date": f"2025-05-0{start_day + i}", "week": "", "dayweather": "晴", "nightweather": "多云",
         "daytemp": "25", "nighttemp": "15.0", "daywind": "东北风", "nightwind": "东", "daypower": "1-3级",
         "nightpower": "≤3", "daytemp_float": "25.0"}
        for i in range(4)
    ]  # fmt: skip
    return {"forecasts": [{"city": "杭州市", "adcode": "330100", "province": "浙江", "reporttime": "2025-05-01 07:05:33", "casts": casts}]}


def test_forecast_shape_and_date_selection() -> None:
    data = forecast_from_amap(_forecast())
    fc = data["forecasts"][0]
    assert list(fc) == ["city", "adcode", "province", "reporttime", "casts"]
    assert len(fc["casts"]) == 4
    cast = fc["casts"][0]
    assert list(cast) == [
        "date", "week", "dayweather", "nightweather", "daytemp", "nighttemp",
        "daywind", "nightwind", "daypower", "nightpower",
    ]  # fmt: skip
    assert cast["week"] == "4"  # 2025-05-01 is a Thursday
    assert (cast["daywind"], cast["daypower"], cast["nighttemp"]) == ("东北", "1-3", "15")
    selected = forecast_from_amap(_forecast(), "2025-05-03")["forecasts"][0]["casts"]
    assert [c["date"] for c in selected] == ["2025-05-03", "2025-05-04"]
    outside = forecast_from_amap(_forecast(), "2025-06-10")["forecasts"][0]["casts"]
    assert [c["date"] for c in outside] == ["2025-05-01", "2025-05-02", "2025-05-03", "2025-05-04"]
    with pytest.raises(ToolInputError):
        forecast_from_amap({"forecasts": []})

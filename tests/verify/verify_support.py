"""A tiny in-memory world (Beijing → Hangzhou) and a valid 2-day plan built on it."""

from __future__ import annotations

import copy
import math
from typing import Any

from navworld.core.geo import haversine_km
from navworld.core.models import Flight, Poi, Route, Seat, Train
from navworld.core.problem import Problem
from navworld.verify.builder import PlanBuilder

SPEED_KMH = {"walking": 4.5, "bicycling": 13.0, "driving": 30.0, "transit": 20.0}


def _poi(name: str, kind: str, loc: tuple[float, float], city: str = "杭州", **kw: Any) -> Poi:
    return Poi(id="P" + str(abs(hash(name)) % 10**8), name=name, kind=kind, city=city, type=kind, typecode="0",
               address="路1号", location=loc, adname="区", adcode="330100", **kw)  # type: ignore[arg-type]


def base_pois() -> list[Poi]:
    return [
        _poi("西湖", "attraction", (120.1485, 30.2425), cost=0.0, open="00:00", close="24:00", category="自然风光", visit_hours=3.0),
        _poi("灵隐寺", "attraction", (120.1012, 30.2410), cost=45.0, open="07:00", close="18:00", category="历史古迹", visit_hours=2.0),
        _poi("浙江省博物馆", "attraction", (120.1460, 30.2560), cost=0.0, open="09:00", close="17:00", category="博物馆", visit_hours=2.0, indoor=True),
        _poi("知味观", "restaurant", (120.1650, 30.2560), cost=60.0, open="07:00", close="21:00", cuisine="杭帮菜", category="杭帮菜"),
        _poi("外婆家", "restaurant", (120.1600, 30.2700), cost=80.0, open="10:30", close="21:30", cuisine="杭帮菜", category="杭帮菜"),
        _poi("素食坊", "restaurant", (120.1550, 30.2500), cost=50.0, open="10:00", close="20:00", cuisine="素食", category="素食", features=("素食",)),
        _poi("川味馆", "restaurant", (120.1700, 30.2800), cost=90.0, open="11:00", close="22:00", cuisine="川菜", category="川菜"),
        _poi("楼外楼", "restaurant", (120.1420, 30.2570), cost=150.0, open="11:00", close="21:00", cuisine="杭帮菜", category="杭帮菜"),
        _poi("西湖酒店", "hotel", (120.1550, 30.2600), cost=400.0, beds=2, stars=4, features=("泳池", "免费停车")),
        _poi("如家酒店", "hotel", (120.1800, 30.2650), cost=168.0, beds=1, stars=2, features=("免费停车",)),
        _poi("杭州东站", "hub", (120.2126, 30.2906)),
        _poi("杭州萧山国际机场", "hub", (120.4344, 30.2295)),
        _poi("北京南站", "hub", (116.3786, 39.8652), city="北京"),
        _poi("北京首都国际机场", "hub", (116.5871, 40.0799), city="北京"),
    ]


class FakeWorld:
    """Implements the WorldView protocol over a handful of POIs and fixed timetables."""

    def __init__(self, overrides: dict[str, dict[str, Any]] | None = None) -> None:
        self.pois = {}
        for p in base_pois():
            if overrides and p.name in overrides:
                p = p.model_copy(update=overrides[p.name])
            self.pois[(p.city, p.name)] = p
        self.route_calls = 0

    def find_poi(self, city: str, name: str) -> Poi | None:
        return self.pois.get((city, name))

    def route(self, origin: Any, destination: Any, mode: str, city: str | None = None) -> Route:
        self.route_calls += 1
        km = haversine_km(origin, destination) * 1.3
        seconds = int(km / SPEED_KMH[mode] * 3600) + (300 if mode == "transit" else 0)
        taxi = float(round(10 + max(0.0, km - 3) * 2.5))
        fare = float(min(7, 2 + math.ceil(max(0.0, km - 4) / 6))) if mode == "transit" else 0.0
        return Route(mode=mode, origin=origin, destination=destination, distance_m=int(km * 1000), duration_s=seconds,  # type: ignore[arg-type]
                     taxi_cost=taxi if mode == "driving" else 0.0, transit_cost=fare)

    def flight_list(self, date: str, a: str, b: str) -> list[Flight]:
        rows = {
            ("北京", "杭州"): Flight(flight_no="CA1234", airline="国航", date=date, from_city=a, to_city=b, from_airport="北京首都国际机场",
                                   to_airport="杭州萧山国际机场", dep_time="08:00", arr_time="10:10", next_day=False, duration_min=130, price=900.0),
            ("杭州", "北京"): Flight(flight_no="CA1235", airline="国航", date=date, from_city=a, to_city=b, from_airport="杭州萧山国际机场",
                                   to_airport="北京首都国际机场", dep_time="18:00", arr_time="20:10", next_day=False, duration_min=130, price=950.0),
        }
        return [rows[(a, b)]] if (a, b) in rows else []

    def train_list(self, date: str, a: str, b: str) -> list[Train]:
        seats = (Seat(**{"class": "二等座", "price": 600.0}), Seat(**{"class": "一等座", "price": 1000.0}))
        rows = {
            ("北京", "杭州"): Train(train_no="G31", train_type="G", date=date, from_city=a, to_city=b, from_station="北京南站",
                                  to_station="杭州东站", dep_time="07:00", arr_time="11:30", next_day=False, duration_min=270, seats=seats),
            ("杭州", "北京"): Train(train_no="G32", train_type="G", date=date, from_city=a, to_city=b, from_station="杭州东站",
                                  to_station="北京南站", dep_time="16:00", arr_time="20:30", next_day=False, duration_min=270, seats=seats),
        }
        return [rows[(a, b)]] if (a, b) in rows else []


def problem(**kw: Any) -> Problem:
    fields: dict[str, Any] = dict(task_id=1, problem_type="multiday", origin_city="北京", destination_city="杭州",
                                  travel_date="2025-05-01", num_days=2, group_size=2)
    fields.update(kw)
    return Problem(**fields)


DEFAULT_SPEC: dict[str, Any] = {
    "day1": [("lunch", "外婆家", "12:00", 60), ("attraction", "灵隐寺", "13:30", 90), ("dinner", "川味馆", "17:30", 60)],
    "hotel": "西湖酒店",
    "rooms": None,
    "day2": [("breakfast", "知味观", "08:00", 30), ("attraction", "西湖", "09:00", 120, "transit"), ("lunch", "素食坊", "11:30", 60, "walk")],
}


def build_plan(world: FakeWorld | None = None, spec: dict[str, Any] | None = None, people: int = 2) -> dict[str, Any]:
    """The valid 2-day Beijing→Hangzhou plan (train G31 out, G32 back) built from world lookups."""
    world = world or FakeWorld()
    s = copy.deepcopy(DEFAULT_SPEC)
    s.update(spec or {})
    b = PlanBuilder(world, people=people, start_city="北京", target_city="杭州")
    b.intercity(world.train_list("2025-05-01", "北京", "杭州")[0])
    for kind, name, at, minutes, *mode in s["day1"]:
        b.visit(kind, name, at=at, minutes=minutes, mode=mode[0] if mode else "taxi")
    if s["hotel"]:
        b.visit("accommodation", s["hotel"], at="21:00", rooms=s["rooms"])
    b.next_day("08:00")
    for kind, name, at, minutes, *mode in s["day2"]:
        b.visit(kind, name, at=at, minutes=minutes, mode=mode[0] if mode else "taxi")
    b.intercity(world.train_list("2025-05-02", "杭州", "北京")[0])
    return b.plan()


def trace_for(plan: dict[str, Any], omit: str | None = None) -> list[dict[str, Any]]:
    """A transcript whose tool results mention every entity of ``plan`` (except ``omit``)."""
    names = []
    for day in plan["itinerary"]:
        for a in day["activities"]:
            for key in ("position", "TrainID", "FlightID"):
                if a.get(key) and a[key] != omit:
                    names.append(a[key])
    return [
        {"role": "user", "content": "plan my trip"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
                                                              "function": {"name": "poi_search", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "\n".join(f"名称: {n}" for n in names)},
    ]

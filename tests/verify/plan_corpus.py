"""Plans for the schema/parser agreement tests: ChinaTravel-shaped plans and a corpus of valid and
invalid variants of the navworld-built plan.

The ChinaTravel plans follow the shapes documented in /work/shared/reference/chinatravel-compat.md
§1 (written here from that description, not copied): walk/metro/walk transfers through
``XX-地铁站`` stations, hotel stays ending ``24:00``, extra top-level keys, plans with costs but no
prices, metro legs without ``tickets``, one-digit hours echoed from their ``goto`` tool.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from verify_support import build_plan


def _walk(a: str, b: str, t0: str, t1: str, km: float) -> dict[str, Any]:
    return {"start": a, "end": b, "mode": "walk", "start_time": t0, "end_time": t1, "cost": 0, "distance": km, "price": 0}


def _metro(a: str, b: str, t0: str, t1: str, km: float, price: float, people: int) -> dict[str, Any]:
    return {"start": a, "end": b, "mode": "metro", "start_time": t0, "end_time": t1, "cost": price * people,
            "distance": km, "price": price, "tickets": people}


def chinatravel_plan() -> dict[str, Any]:
    """A 2-day 北京 → 南京 plan in ChinaTravel's own shape (airplane out, train back, metro transfers)."""
    return {
        "people_number": 1,
        "start_city": "北京",
        "target_city": "南京",
        "itinerary": [
            {"day": 1, "activities": [
                {"start_time": "06:45", "end_time": "08:20", "start": "北京首都国际机场", "end": "南京禄口国际机场",
                 "price": 840.0, "cost": 840.0, "tickets": 1, "transports": [], "FlightID": "FL159", "type": "airplane"},
                {"position": "狮子山景区", "type": "attraction", "transports": [
                    _walk("南京禄口国际机场", "禄口机场-地铁站", "08:20", "08:25", 0.4),
                    _metro("禄口机场-地铁站", "狮子山-地铁站", "08:25", "09:40", 52.3, 8.0, 1),
                    _walk("狮子山-地铁站", "狮子山景区", "09:40", "09:52", 0.97)],
                 "price": 40.0, "cost": 40.0, "tickets": 1, "start_time": "10:00", "end_time": "11:30"},
                {"position": "南京大牌档", "type": "lunch", "transports": [
                    _walk("狮子山景区", "南京大牌档", "11:30", "11:48", 1.5)],
                 "price": 75.0, "cost": 75.0, "start_time": "11:50", "end_time": "12:50"},
                {"position": "南京金陵饭店", "type": "accommodation", "room_type": 2, "rooms": 1, "transports": [
                    {"start": "南京大牌档", "end": "南京金陵饭店", "mode": "taxi", "start_time": "20:00", "end_time": "20:18",
                     "cost": 26.5, "distance": 6.2, "price": 26.5, "cars": 1}],
                 "price": 720.0, "cost": 720.0, "start_time": "21:00", "end_time": "24:00"},
            ]},
            {"day": 2, "activities": [
                {"position": "南京金陵饭店", "type": "breakfast", "transports": [], "price": 0, "cost": 0,
                 "start_time": "08:00", "end_time": "08:30"},
                {"start_time": "14:10", "end_time": "18:16", "start": "南京南站", "end": "北京南站", "price": 443.5,
                 "cost": 443.5, "tickets": 1, "TrainID": "G28", "type": "train", "transports": [
                     _walk("南京金陵饭店", "新街口-地铁站", "13:00", "13:06", 0.5),
                     _metro("新街口-地铁站", "南京南站-地铁站", "13:06", "13:31", 9.8, 3.0, 1),
                     _walk("南京南站-地铁站", "南京南站", "13:31", "13:33", 0.1)]},
            ]},
        ],
        "search_time_sec": 12.7,
        "all_constraints_pass": 1,
    }


def chinatravel_priceless_plan() -> dict[str, Any]:
    """Their prompt-example shape: costs everywhere but no ``price``; a metro leg without ``tickets``."""
    plan = chinatravel_plan()
    for day in plan["itinerary"]:
        for a in day["activities"]:
            a.pop("price", None)
            for leg in a["transports"]:
                leg.pop("price", None)
    del plan["itinerary"][1]["activities"][1]["transports"][1]["tickets"]
    return plan


def chinatravel_goto_times_plan() -> dict[str, Any]:
    """One-digit hours as their ``goto(..., start_time="8:30")`` echoes them."""
    plan = chinatravel_plan()
    legs = plan["itinerary"][0]["activities"][1]["transports"]
    legs[0].update(start_time="8:20", end_time="8:25")
    legs[1].update(start_time="8:25", end_time="9:40")
    legs[2].update(start_time="9:40", end_time="9:52")
    return plan


def chinatravel_legacy_plan() -> dict[str, Any]:
    """Older spellings the parser reads: leg key ``type``, activity key ``transport``, ``start_city: null``,
    an integer ``FlightID``, counts written ``1.0``."""
    plan = chinatravel_plan()
    plan["start_city"] = None
    acts = plan["itinerary"][0]["activities"]
    acts[0]["FlightID"] = 159
    acts[0]["tickets"] = 1.0
    legs = acts[1].pop("transports")
    for leg in legs:
        leg["type"] = leg.pop("mode")
    acts[1]["transport"] = legs
    return plan


CHINATRAVEL_PLANS: dict[str, Callable[[], dict[str, Any]]] = {
    "chinatravel": chinatravel_plan,
    "chinatravel_priceless": chinatravel_priceless_plan,
    "chinatravel_goto_times": chinatravel_goto_times_plan,
    "chinatravel_legacy": chinatravel_legacy_plan,
}


def _variant(edit: Callable[[dict[str, Any]], Any]) -> Callable[[], dict[str, Any]]:
    def make() -> dict[str, Any]:
        plan = copy.deepcopy(build_plan())
        edit(plan)
        return plan

    return make


def _act(plan: dict[str, Any], day: int = 0, i: int = 1) -> dict[str, Any]:
    return plan["itinerary"][day]["activities"][i]


def _leg(plan: dict[str, Any], day: int = 0, i: int = 1) -> dict[str, Any]:
    return _act(plan, day, i)["transports"][0]


def _rename_key(obj: dict[str, Any], old: str, new: str, value: Any) -> None:
    del obj[old]
    obj[new] = value


VALID: dict[str, Callable[[], dict[str, Any]]] = {
    **CHINATRAVEL_PLANS,
    "navworld": _variant(lambda p: None),
    "one_digit_hour": _variant(lambda p: _act(p).update(start_time="9:05")),
    "hour_47": _variant(lambda p: _act(p, 0, 4).update(end_time="47:59")),
    "time_final_newline": _variant(lambda p: _act(p).update(start_time="12:00\n")),
    "mode_title_case": _variant(lambda p: _leg(p).update(mode="Taxi")),
    "mode_upper_metro": _variant(lambda p: _leg(p).update(mode="METRO")),
    "mode_chinese": _variant(lambda p: _leg(p).update(mode="地铁")),
    "type_title_case": _variant(lambda p: _act(p).update(type="Lunch")),
    "integral_float_id": _variant(lambda p: _act(p, 0, 0).update(TrainID=31.0)),
    "zero_amounts": _variant(lambda p: _act(p).update(price=0, cost=0.0)),
    "null_price": _variant(lambda p: _act(p).update(price=None)),
    "null_transports": _variant(lambda p: _act(p, 0, 0).update(transports=None)),
    "legacy_null_transport": _variant(lambda p: _rename_key(_act(p, 0, 0), "transports", "transport", None)),
    "leg_type_and_mode": _variant(lambda p: _leg(p).update(type="anything goes: mode wins")),
    "one_empty_day": _variant(lambda p: p["itinerary"][1].update(activities=[])),
    "extra_keys_everywhere": _variant(lambda p: (p.update(note={"a": [1]}), _act(p).update(tip="带伞"), _leg(p).update(x=None))),
    "text_500": _variant(lambda p: _act(p).update(position="x" * 500)),
}

INVALID: dict[str, tuple[Callable[[], dict[str, Any]], str]] = {
    "empty_itinerary": (_variant(lambda p: p.update(itinerary=[])), "no plan delivered: the itinerary is empty"),
    "no_activities": (_variant(lambda p: [d.update(activities=[]) for d in p["itinerary"]]),
                      "no plan delivered: the itinerary has no activities"),
    "negative_cost": (_variant(lambda p: _act(p).update(cost=-1e8)),
                      "itinerary[0].activities[1].cost: must not be negative, got -100000000.0"),
    "negative_price": (_variant(lambda p: _act(p).update(price=-1)), "activities[1].price: must not be negative"),
    "negative_leg_distance": (_variant(lambda p: _leg(p).update(distance=-0.5)), "transports[0].distance: must not be negative"),
    "negative_leg_cost": (_variant(lambda p: _leg(p).update(cost=-31)), "transports[0].cost: must not be negative"),
    "negative_tickets": (_variant(lambda p: _act(p, 0, 0).update(tickets=-2)), "tickets: must not be negative"),
    "huge_cost": (_variant(lambda p: _act(p).update(cost=1e10)), "cost: must be at most 1e+09"),
    "fractional_count": (_variant(lambda p: _act(p, 0, 0).update(tickets=2.5)), "tickets: expected an integer, got 2.5"),
    "bool_price": (_variant(lambda p: _act(p).update(price=True)), "price: expected a number, got true"),
    "text_price": (_variant(lambda p: _act(p).update(price="80元")), 'price: expected a number, got "80元"'),
    "hour_48": (_variant(lambda p: _act(p).update(end_time="48:00")), "end_time: expected HH:MM"),
    "one_digit_minute": (_variant(lambda p: _act(p).update(start_time="8:3")), "start_time: expected HH:MM"),
    "padded_time": (_variant(lambda p: _act(p).update(start_time=" 8:30")), "start_time: expected HH:MM"),
    "non_ascii_digits": (_variant(lambda p: _act(p).update(start_time="٠٨:٣٠")), "start_time: expected HH:MM"),
    "chinese_time": (_variant(lambda p: _act(p).update(start_time="9点")), 'start_time: expected HH:MM, got "9点"'),
    "unknown_mode": (_variant(lambda p: _leg(p).update(mode="helicopter")), "mode: expected one of walk, transit"),
    "mode_with_spaces": (_variant(lambda p: _leg(p).update(mode=" taxi")), "mode: expected one of walk, transit"),
    "mode_odd_case": (_variant(lambda p: _leg(p).update(mode="tAXI")), "mode: expected one of walk, transit"),
    "unknown_type": (_variant(lambda p: _act(p).update(type="sightseeing")), "type: expected one of airplane"),
    "fractional_id": (_variant(lambda p: _act(p, 0, 0).update(TrainID=31.5)), "TrainID: expected a string or an integer"),
    "text_501": (_variant(lambda p: _act(p).update(position="x" * 501)), "position: string longer than 500 characters"),
    "transports_object": (_variant(lambda p: _act(p).update(transports={})), "transports: expected a list"),
    "too_many_legs": (_variant(lambda p: _act(p).update(transports=[_leg(p)] * 13)), "transports: list should have at most 12"),
    "missing_people": (_variant(lambda p: p.pop("people_number")), "people_number: missing required field"),
    "missing_leg_mode": (_variant(lambda p: _leg(p).pop("mode")), "mode: missing required field"),
    "bad_legacy_transport": (_variant(lambda p: _rename_key(_act(p), "transports", "transport", [{"mode": "taxi"}])),
                             "transports[0].start_time: missing required field"),
    "null_start_time": (_variant(lambda p: _act(p).update(start_time=None)), "start_time: expected HH:MM, got null"),
}

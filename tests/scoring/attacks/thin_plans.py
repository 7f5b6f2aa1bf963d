"""Thin plans for the second attack round (issue 13): the least a plan can hold and still pass.

:func:`thin_plan` schedules, from the episode's own tool results only, as little as the plan
checks let through: the intercity legs, one meal and one sight on the chosen days, the cheapest
hotel that has the features the constraint programs ask for, and nothing else. Transfers between
places come in two kinds:

* ``"mixed"`` — made up: two legs of two modes through an invented corner (``路口``), distance
  1 km, price 0. A hop with two main modes has no "main mode", so no route or fare is compared.
* ``"world"`` — the route the checks compare with (``WorldLookup.route``, the model the
  reference planner also estimates its unrouted legs with): a correct taxi leg, or a transit leg
  when a program bans taxis.

:func:`subset_plan` keeps such a subset of the *honest* plan (so the honest prose names every
planned place) and re-links it with made-up transfers.
"""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass
from typing import Any

from navworld.dsl.world_view import WorldLookup

from .context import TaskContext
from .writers import ok_texts, poi_records, transport_options

__all__ = ["MEALS", "Slots", "mixed_legs", "option_pool", "poi_pools", "subset_plan", "thin_plan"]

Plan = dict[str, Any]
MEALS = ("breakfast", "lunch", "dinner")
CORNER = "路口"
"""The invented intermediate stop of a made-up transfer (no POI, station or airport)."""


def _kind(rec: dict[str, str]) -> str:
    t = rec.get("type", "")
    return "restaurant" if "餐饮" in t else "hotel" if "住宿" in t else "hub" if "交通" in t else "attraction"


def _price(rec: dict[str, str]) -> float:
    m = re.match(r"\s*([0-9]+(?:\.[0-9]+)?)", rec.get("cost", ""))
    return float(m.group(1)) if m else 0.0


def _min(t: str) -> int:
    h, m = t.split(":")
    return int(h) * 60 + int(m)


def _hm(x: int) -> str:
    return f"{x // 60:02d}:{x % 60:02d}"


def _open(rec: dict[str, str], start: int, end: int) -> bool:
    try:
        lo, hi = (_min(x) for x in rec.get("opentime", "00:00-24:00").split("-"))
    except ValueError:
        return True
    if lo == hi:
        return True
    if hi < lo:
        hi += 1440
    return lo <= start and end <= hi


def poi_pools(results: list[tuple[str, dict[str, Any], str]]) -> dict[str, list[dict[str, str]]]:
    """The POI records of the results by kind (restaurant / hotel / attraction / hub), de-duplicated."""
    by: dict[str, list[dict[str, str]]] = {}
    for _, text in ok_texts(results):
        for rec in poi_records(text):
            pool = by.setdefault(_kind(rec), [])
            if rec["name"] not in {r["name"] for r in pool}:
                pool.append(rec)
    return by


def option_pool(
    ctx: TaskContext, results: list[tuple[str, dict[str, Any], str]]
) -> dict[str, list[dict[str, Any]]]:
    """Flights/trains of the results: ``go`` (origin → destination) and ``back``."""
    out: dict[str, list[dict[str, Any]]] = {"go": [], "back": []}
    for name, args, text in results:
        if name in ("search_flights", "search_train_tickets"):
            key = "go" if args.get("from_city") == ctx.problem.origin_city else "back"
            out[key] += transport_options(text)
    return out


def mixed_legs(a: str, b: str, t0: int, t1: int) -> list[dict[str, Any]]:
    """A made-up transfer from ``a`` to ``b`` between minutes ``t0`` and ``t1``: a bicycle leg to an
    invented corner, then a transit leg, both 1 km and free (no main mode → nothing compared)."""
    mid = (t0 + t1) // 2
    return [
        {
            "mode": "bicycling",
            "start": a,
            "end": CORNER,
            "start_time": _hm(t0),
            "end_time": _hm(mid),
            "distance": 1.0,
            "price": 0,
            "cost": 0,
        },
        {
            "mode": "transit",
            "start": CORNER,
            "end": b,
            "start_time": _hm(mid),
            "end_time": _hm(t1),
            "distance": 1.0,
            "price": 0,
            "cost": 0,
        },
    ]


@dataclass
class Slots:
    """What a thin plan schedules: meal/sight days (``every`` = on every k-th day, 0 = never)."""

    meal_every: int = 1
    sight_every: int = 1
    breakfast_at_hotel: bool = False
    hotels: bool = True
    hub_sights: bool = False
    legs: str = "mixed"
    """``mixed`` (made-up transfers), ``world`` (correct routes) or ``none``."""


class _Builder:
    def __init__(
        self, ctx: TaskContext, results: list[tuple[str, dict[str, Any], str]], slots: Slots
    ) -> None:
        p = ctx.problem
        self.ctx, self.slots, self.results = ctx, slots, results
        self.n = max(1, p.group_size)
        self.days = max(1, p.num_days)
        by = poi_pools(results)
        must = set(p.extra.get("must_visit") or ())
        self.rests = list(by.get("restaurant", []))
        self.sights = sorted(
            by.get("hub" if slots.hub_sights else "attraction", []),
            key=lambda r: (r["name"] not in must, _price(r)),
        )
        feats = [f for s in p.hard_logic_nl if "酒店" in s for f in re.findall(r"“(.+?)”", s)]
        hotels = by.get("hotel", [])
        self.hotel = min(
            hotels,
            key=lambda r: (not all(f in r.get("features", "") for f in feats), _price(r)),
            default=None,
        )
        self.no_taxi = any("出租车" in s for s in p.hard_logic_nl)
        self.trains_only = any("全部为火车" in s for s in p.hard_logic_nl)
        self.lookup = WorldLookup(ctx.world)
        self.place: str | None = None
        self.free = 0
        self.used: set[str] = set()

    # -- transfers -------------------------------------------------------------------------
    def _world_legs(self, a: str, b: str, t0: int) -> tuple[list[dict[str, Any]], int] | None:
        city = self.ctx.problem.destination_city
        la, lb = self.lookup.locate(city, a), self.lookup.locate(city, b)
        mode = "transit" if self.no_taxi else "taxi"
        route = self.lookup.route(la, lb, mode, city) if la and lb else None
        if route is None:
            return None
        t1 = t0 + max(1, math.ceil(route.duration_s / 60))
        leg: dict[str, Any] = {
            "mode": mode,
            "start": a,
            "end": b,
            "start_time": _hm(t0),
            "end_time": _hm(t1),
            "distance": round(route.distance_m / 1000, 2),
        }
        if mode == "taxi":
            cars = -(-self.n // 4)
            leg.update(price=route.taxi_cost, cost=route.taxi_cost * cars, cars=cars)
        else:
            leg.update(price=route.transit_cost, cost=route.transit_cost * self.n, tickets=self.n)
        return [leg], t1

    def _arrive(self, here: str, start: int) -> tuple[list[dict[str, Any]], int]:
        """Transfer legs into ``here`` and the earliest start after them."""
        if self.place is None or self.place == here or self.slots.legs == "none":
            return [], max(start, self.free)
        t0 = self.free
        if self.slots.legs == "world" and (got := self._world_legs(self.place, here, t0)) is not None:
            legs, t1 = got
            return legs, max(start, t1)
        t1 = max(t0 + 20, min(start, t0 + 40))
        return mixed_legs(self.place, here, t0, t1), max(start, t1)

    # -- activities ------------------------------------------------------------------------
    def _intercity(self, o: dict[str, Any], depart: bool) -> dict[str, Any]:
        n = self.n
        act = {
            "type": o["mode"],
            "start": o["from"],
            "end": o["to"],
            "start_time": o["dep"],
            "end_time": o["arr"],
            ("FlightID" if o["mode"] == "airplane" else "TrainID"): o["id"],
            "price": o["price"],
            "cost": o["price"] * n,
            "tickets": n,
            "transports": [],
        }
        if depart:
            legs, _ = self._arrive(o["from"], _min(o["dep"]))
            act["transports"] = legs
        return act

    def _poi(
        self, typ: str, pool: list[dict[str, str]], start: int, dur: int, lo: int, hi: int
    ) -> dict[str, Any] | None:
        for rec in pool:
            if rec["name"] in self.used:
                continue
            legs, s0 = self._arrive_probe(rec["name"], start)
            if not lo <= s0 <= hi or not _open(rec, s0, s0 + dur):
                continue
            legs, s0 = self._arrive(rec["name"], start)
            self.used.add(rec["name"])
            price = 0.0 if typ == "breakfast" and _kind(rec) == "hotel" else _price(rec)
            act: dict[str, Any] = {
                "type": typ,
                "position": rec["name"],
                "start_time": _hm(s0),
                "end_time": _hm(s0 + dur),
                "price": price,
                "cost": price * self.n,
                "transports": legs,
            }
            if typ == "attraction":
                act["tickets"] = self.n
            self.place, self.free = rec["name"], s0 + dur
            return act
        return None

    def _arrive_probe(self, here: str, start: int) -> tuple[list[dict[str, Any]], int]:
        place, free = self.place, self.free
        out = self._arrive(here, start)
        self.place, self.free = place, free
        return out

    def _stay(self) -> dict[str, Any] | None:
        h = self.hotel
        if h is None:
            return None
        legs, s0 = self._arrive(h["name"], 21 * 60)
        beds = int(h.get("beds") or 2)
        rooms = -(-self.n // beds)
        self.place, self.free = h["name"], 0
        return {
            "type": "accommodation",
            "position": h["name"],
            "start_time": _hm(min(s0, 23 * 60 + 30)),
            "end_time": "24:00",
            "price": _price(h),
            "cost": _price(h) * rooms,
            "rooms": rooms,
            "room_type": beds,
            "transports": legs,
        }

    def build(self) -> Plan:
        p, s = self.ctx.problem, self.slots
        opts = option_pool(self.ctx, self.results)
        has_origin = bool(p.origin_city) and p.origin_city != p.destination_city
        go = back = None
        if has_origin:
            ok = [
                o for o in opts["go"] if not o["next_day"] and (o["mode"] == "train" or not self.trains_only)
            ]
            go = min(ok, key=lambda o: (_min(o["arr"]), o["price"]), default=None)
            ok = [
                o
                for o in opts["back"]
                if not o["next_day"]
                and (o["mode"] == "train" or not self.trains_only)
                and (self.days > 1 or (go is not None and _min(o["dep"]) >= _min(go["arr"]) + 240))
            ]
            back = max(ok, key=lambda o: (_min(o["dep"]), -o["price"]), default=None)
        itinerary = []
        for d in range(self.days):
            acts: list[dict[str, Any]] = []
            if d == 0 and go is not None:
                acts.append(self._intercity(go, depart=False))
                self.place, self.free = go["to"], _min(go["arr"])
            elif d > 0:
                self.free = 7 * 60 + 30
            if s.breakfast_at_hotel and d > 0 and self.hotel is not None:
                acts.append(
                    {
                        "type": "breakfast",
                        "position": self.hotel["name"],
                        "start_time": "07:30",
                        "end_time": "08:00",
                        "price": 0,
                        "cost": 0,
                        "transports": [],
                    }
                )
                self.free = 8 * 60
            if s.meal_every and d % s.meal_every == 0:
                act = self._poi("lunch", self.rests, 11 * 60 + 30, 60, 10 * 60 + 30, 14 * 60 + 30)
                act = act or self._poi("dinner", self.rests, 17 * 60, 60, 16 * 60 + 30, 21 * 60 + 30)
                acts += [act] if act else []
            if s.sight_every and d % s.sight_every == 0:
                act = self._poi("attraction", self.sights, max(self.free + 15, 13 * 60 + 30), 90, 0, 22 * 60)
                acts += [act] if act else []
            if d < self.days - 1 and s.hotels:
                act = self._stay()
                acts += [act] if act else []
            if d == self.days - 1 and back is not None:
                acts.append(self._intercity(back, depart=True))
            itinerary.append({"day": d + 1, "activities": acts})
        return {
            "people_number": self.n,
            "start_city": p.origin_city or p.destination_city,
            "target_city": p.destination_city,
            "itinerary": itinerary,
        }


def thin_plan(
    ctx: TaskContext, results: list[tuple[str, dict[str, Any], str]], slots: Slots | None = None
) -> Plan:
    """The thinnest plan ``slots`` allows, from ``results`` only (see the module docstring)."""
    return _Builder(ctx, results, slots or Slots()).build()


def subset_plan(plan: Plan, ctx: TaskContext) -> Plan:
    """The honest ``plan`` cut to its intercity legs, the first meal and the first sight of each
    day (and any must-visit sight), and the hotel; the kept activities are re-linked by made-up
    transfers (:func:`mixed_legs`) between the places they now follow."""
    must = set(ctx.problem.extra.get("must_visit") or ())
    out = copy.deepcopy(plan)
    place: str | None = None
    free = 0
    for day in out.get("itinerary") or ():
        kept, meal, sight = [], False, False
        for a in day.get("activities") or []:
            typ = a.get("type")
            if typ in ("lunch", "dinner") and not meal:
                meal = True
            elif typ == "attraction" and (not sight or a.get("position") in must):
                sight = True
            elif typ not in ("airplane", "train", "accommodation"):
                continue
            kept.append(a)
        for a in kept:
            here = a.get("start") if a.get("type") in ("airplane", "train") else a.get("position")
            start = _min(a["start_time"])
            if place is None or place == here or (a is kept[0] and a.get("type") in ("airplane", "train")):
                a["transports"] = []
            else:
                t0 = free if free < start else max(0, start - 30)
                a["transports"] = mixed_legs(place, here, t0, start)
            place = a.get("end") if a.get("type") in ("airplane", "train") else a.get("position")
            end = _min(a["end_time"])
            free = 0 if a.get("type") == "accommodation" or end < start else end
        day["activities"] = kept
    return out

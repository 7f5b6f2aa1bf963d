"""The final answer: prose in the problem's language citing the episode's tool facts, plus the plan.

Sections: overview; intercity options and the recommendation (with reasons); hotel and
alternatives; the day-by-day schedule with every leg (distance, duration, fare and roads for
the legs a ``direction`` call returned); sight and restaurant facts (tickets, opening hours,
prices, dishes, nearby places); the forecast with advice; the cost breakdown against the
budget; a requirement check with the trade-offs of the labelled conflict pairs; the limits of
the data; and one fenced ```json block with the plan (``navworld.core.plan`` schema).
"""

from __future__ import annotations

import json
from typing import Any

from navworld.agents.reference.evidence import Evidence
from navworld.agents.reference.model import Leg, Stop
from navworld.agents.reference.notes import WriterBase, money, weekday
from navworld.agents.reference.options import Service, is_red_eye
from navworld.agents.reference.phrases import MEAL_WORDS, MODE_WORDS
from navworld.agents.reference.planner import Outcome
from navworld.agents.reference.pools import city_pool
from navworld.core.models import Flight, Poi, Train
from navworld.core.plan import format_minutes
from navworld.core.problem import Problem
from navworld.tasks.vocab import display

__all__ = ["write_answer"]

TRAIN_TYPES = {"G": "高铁", "D": "动车", "C": "城际", "Z": "直达特快", "T": "特快", "K": "快速"}
MAX_OPTIONS = 3
FREE_TIME_MIN = 90
"""A gap this long between two activities is shown as free time."""


class _Writer(WriterBase):
    def intro(self) -> None:
        """The title and the overview (who, where, when, budget)."""
        b = self.b
        origin = self.t("intro_origin", origin=self.city(b.origin)) if b.has_origin else ""
        self.add(self.t("title", dest=self.city(b.dest), days=b.days), "")
        when = b.dates[0] if b.days == 1 else self.t("date_range", start=b.dates[0], end=b.dates[-1])
        self.add(self.t("intro", people=b.people, dest=self.city(b.dest), days=b.days, when=when, origin_part=origin))
        if b.budget is not None:
            self.add(self.t("intro_budget", budget=money(b.budget), total=money(self.o.total)))
        self.blank()

    def _note(self, s: Service, outbound: bool) -> str:
        b = self.b
        if s.kind not in b.modes:
            return self.P["note_mode"]
        if outbound and b.arrival_before is not None and s.arr > b.arrival_before:
            return self.P["note_arrival"]
        if s.kind == "airplane" and b.no_red_eye and is_red_eye(s.dep):
            return self.P["note_red_eye"]
        return ""

    def _service_line(self, s: Service, outbound: bool) -> str:
        row = s.row
        note = self._note(s, outbound)
        if isinstance(row, Flight):
            zh_dur = _fmt_dur(row.duration_min)
            return self.t("flight_line", id=row.flight_no, airline=row.airline, dep=row.dep_time, frm=row.from_airport,
                          arr=row.arr_time, to=row.to_airport, dur=self.dur(row.duration_min, zh_dur), price=money(row.price),
                          note=note)
        assert isinstance(row, Train)
        seats = " / ".join(f"{x.seat_class} {money(x.price)}元" for x in row.seats[:2])
        return self.t("train_line", id=row.train_no, ttype=TRAIN_TYPES.get(row.train_type, row.train_type) if self.lang == "zh"
                      else row.train_type, dep=row.dep_time, frm=row.from_station, arr=row.arr_time, to=row.to_station,
                      dur=self.dur(row.duration_min, _fmt_dur(row.duration_min)), seats=seats, note=note)

    def _options(self, chosen: Service, listed: list[Service], outbound: bool) -> list[Service]:
        """The chosen service plus the cheapest and fastest others of every searched mode."""
        out = [chosen]
        kinds = list(dict.fromkeys([chosen.kind] + [s.kind for s in listed]))
        for kind in kinds:
            same = [s for s in listed if s.kind == kind and s.number != chosen.number]
            good = [s for s in same if not self._note(s, outbound)]
            ranked = good[:2] + sorted(good, key=lambda s: (s.minutes, s.price, s.number))[:1] + same[:2]
            for s in ranked:
                if s.number not in {x.number for x in out} and sum(1 for x in out if x.kind == kind) < MAX_OPTIONS:
                    out.append(s)
        return sorted(out, key=lambda s: (s.kind, s.dep, s.number))

    def transport(self) -> None:
        """Intercity options of both directions and the recommended pair with its reasons."""
        o, b = self.o, self.b
        if o.go is None or o.back is None:
            return
        self.add(self.t("h_transport"))
        self.add(self.t("out_list", date=b.dates[0], a=self.city(b.origin), b=self.city(b.dest)))
        self.add(*[self._service_line(s, True) for s in self._options(o.go, o.listed[0] or o.outs, True)])
        self.blank()
        self.add(self.t("back_list", date=b.dates[-1], a=self.city(b.dest), b=self.city(b.origin)))
        self.add(*[self._service_line(s, False) for s in self._options(o.back, o.listed[1] or o.backs, False)])
        self.blank()
        go, back = o.go, o.back
        words = MODE_WORDS[self.lang]
        self.add(self.t("pick", go_kind=words[go.kind], go_id=go.number, go_dep=format_minutes(go.dep), go_from=go.start.name,
                        go_arr=format_minutes(go.arr), go_to=go.end.name, go_seat=go.seat, go_price=money(go.price),
                        back_kind=words[back.kind], back_id=back.number, back_dep=format_minutes(back.dep),
                        back_from=back.start.name, back_arr=format_minutes(back.arr), back_to=back.end.name,
                        back_seat=back.seat, back_price=money(back.price)))
        cheapest = min(g.price for g in o.outs) + min(r.price for r in o.backs)
        whys = []
        if b.arrival_before is not None:
            whys.append(self.t("why_arrival", t=format_minutes(b.arrival_before)))
        if b.prefers("travel_time"):
            whys.append(self.t("why_fast"))
        whys.append(self.t("why_cheap") if go.price + back.price <= cheapest + 1e-6 else self.t("why_time"))
        self.add(self.t("pick_why", why=self.P["sep"].join(whys)))
        self.add(self.t("transport_total", people=b.people, cost=money((go.price + back.price) * b.people)))
        self.blank()

    def hotel(self) -> None:
        """The hotel with its nightly price, why it was chosen, and alternatives."""
        o, b = self.o, self.b
        h = o.hotel
        if h is None:
            return
        rooms = -(-b.people // max(1, h.beds or 1))
        self.add(self.t("h_hotel"))
        feats = self.P["join"].join(h.features) or self.P["none"]
        self.add(self.t("hotel", name=h.name, stars=h.stars, rating=f"{h.rating:.1f}", price=money(h.cost or 0), beds=h.beds or 1,
                        people=b.people, rooms=rooms, nights=b.nights, cost=money((h.cost or 0) * rooms * b.nights),
                        features=feats, district=h.adname))
        whys = [self.t("hotel_why_cheap")]
        if b.hotel_features:
            whys.append(self.t("hotel_why_feature", features=self.P["join"].join(b.hotel_features)))
        if b.max_hotel_price is not None:
            whys.append(self.t("hotel_why_cap", cap=money(b.max_hotel_price)))
        self.add(self.t("hotel_why", why=self.P["sep"].join(whys)))
        alts: list[str] = []
        pool = {p.name: p for p in self._pool_hotels()}
        for name, poi in pool.items():
            if name != h.name and len(alts) < 4:
                alts.append(self.t("hotel_alt", name=name, price=money(poi.cost or 0)))
        if alts:
            self.add(self.t("hotel_alts", items=self.P["join"].join(alts)))
        self.blank()

    def _pool_hotels(self) -> list[Poi]:
        pool = city_pool(self._world, self.b.dest)
        out = []
        for names in self.ev.searched.values():
            for n in names:
                p = pool.by_name.get(n)
                if p is not None and p.kind == "hotel":
                    out.append(p)
        return out

    def _leg_line(self, legs: list[Leg], to: str) -> str | None:
        if not legs:
            return None
        leg = legs[-1]
        rf = self.ev.routes.get((leg.start, leg.end, leg.mode))
        facts = ""
        if rf is not None and rf.distance:
            price = ""
            if leg.mode == "taxi" and rf.taxi_cost:
                price = self.t("leg_taxi", taxi=rf.taxi_cost)
            elif leg.mode == "transit":
                price = self.t("leg_transit", fare=rf.fare, lines=self.P["join"].join(rf.lines)) if rf.lines else self.t(
                    "leg_transit_walk")
            roads = self.t("leg_roads", roads="".join(f"「{r}」" for r in rf.roads[:4])) if rf.roads else ""
            facts = self.t("leg_facts", distance=self.leg_distance(rf), duration=self.leg_duration(rf), price=price, roads=roads)
        return self.t("leg", mode=MODE_WORDS[self.lang][leg.mode], to=to, facts=facts)

    def _near(self, name: str, day: list[Stop]) -> str:
        """``…, 850 m from 「hotel」`` when an around search centred on the hotel or a place of the day found ``name``."""
        planned = {s.place.name for s in day if s.place is not None}
        if self.o.hotel is not None:
            planned.add(self.o.hotel.name)
        for label, _word, dist in self.ev.around:
            if name in dist and label != name and label in planned:
                return self.t("near", center=label, dist=dist[name])
        return ""

    def days(self) -> None:
        """The day-by-day schedule with every leg and the cost of each day."""
        o, b = self.o, self.b
        self.add(self.t("h_days"))
        words = MODE_WORDS[self.lang]
        for i, stops in enumerate(o.days):
            self.blank()
            self.add(self.t("day", n=i + 1, date=b.dates[i], week=weekday(b.dates[i], self.lang)))
            prev_end: int | None = None
            for s in stops:
                where = s.arrive if s.kind in ("airplane", "train") else s.place.name if s.place else ""
                leave = s.legs[0].t0 if s.legs else s.start
                if prev_end is not None and leave - prev_end >= FREE_TIME_MIN and s.kind != "accommodation":
                    self.add(self.t("free_time"))
                line = self._leg_line(s.legs, s.origin if s.kind in ("airplane", "train") else where)
                if line:
                    self.add(line)
                prev_end = s.end
                self.add(self._stop_line(s, words, stops, last=i == len(o.days) - 1 and s is stops[-1]))
            self.add(self.t("day_cost", cost=money(sum(s.total for s in stops))))
        self.blank()

    def _stop_line(self, s: Stop, words: dict[str, str], day: list[Stop], last: bool) -> str:
        price = money(s.price)
        if s.kind in ("airplane", "train"):
            key = "back_line" if last and self.o.back is not None else "go_line"
            return self.t(key, dep=format_minutes(s.start), arr=format_minutes(s.end), kind=words[s.kind], id=s.name,
                          frm=s.origin, to=s.arrive, seat=s.seat, price=price)
        name = s.place.name if s.place else ""
        if s.kind == "attraction":
            return self.t("attraction", start=format_minutes(s.start), end=format_minutes(s.end), name=name, price=price)
        if s.kind == "accommodation":
            return self.t("hotel_line", start=format_minutes(s.start), name=name, price=price, rooms=s.rooms)
        poi = s.place.poi if s.place else None
        cuisine = poi.cuisine if poi is not None else ""
        return self.t("meal", start=format_minutes(s.start), end=format_minutes(s.end), meal=MEAL_WORDS[self.lang][s.kind],
                      name=name, price=price, cuisine=cuisine, near=self._near(name, day))

    def _spare(self, seen: set[str]) -> None:
        """When the day leaves little room, name a few more places the searches found (for spare time)."""
        pool = city_pool(self._world, self.b.dest)
        items: list[str] = []
        for names in self.ev.searched.values():
            for n in names:
                p = pool.by_name.get(n)
                if p is None or n in seen or p.kind not in ("attraction", "restaurant") or len(items) >= 4:
                    continue
                seen.add(n)
                key = "spare_attraction" if p.kind == "attraction" else "spare_restaurant"
                items.append(self.t(key, name=n, price=money(p.cost or 0), open=f"{p.open}-{p.close}"))
        if items:
            self.add(self.t("h_spare", items=self.P["join"].join(items)))
        planned = {(leg.start, leg.end, leg.mode) for day in self.o.days for s in day for leg in s.legs}
        for leg in self.o.directions:
            if (leg.start, leg.end, leg.mode) not in planned:
                line = self._leg_line([leg], leg.end)
                if line:
                    self.add(self.t("spare_route", frm=leg.start, line=line.strip().lstrip("·").strip()))

    def info(self) -> None:
        """Facts of the sights and restaurants (tickets, hours, prices, dishes) and nearby places."""
        b = self.b
        self.add(self.t("h_info"))
        seen: set[str] = set()
        interests = [display(i, self.lang) for i in b.interests]
        for day in self.o.days:
            for s in day:
                poi = s.place.poi if s.place else None
                if poi is None or poi.name in seen or s.kind in ("accommodation",):
                    continue
                seen.add(poi.name)
                hours = f"{poi.open}-{poi.close}"
                if poi.kind == "attraction":
                    hit = [i for i, raw in zip(interests, b.interests, strict=True) if raw in poi.tags or raw == poi.category]
                    if hit:
                        why = self.t("why_attraction", interest=hit[0])
                    elif poi.name in self._landmarks():
                        why = self.t("why_landmark", city=self.city(b.dest))
                    else:
                        why = self.t("why_rating")
                    self.add(self.t("info_attraction", name=poi.name, price=money(poi.cost or 0), open=hours,
                                    rating=f"{poi.rating:.1f}", category=poi.category or poi.type.split(";")[-1], why=why))
                elif poi.kind == "restaurant":
                    self.add(self.t("info_restaurant", name=poi.name, price=money(poi.cost or 0), open=hours,
                                    cuisine=poi.cuisine, dishes=self.P["join"].join(poi.dishes[:4])))
        stops = sum(1 for day in self.o.days for s in day if s.place is not None and s.place.poi is not None)
        if len(seen) < 3:
            self._spare(seen)
        wide = self.b.problem_type in ("single_poi", "intercity") or stops < 4
        for label, word, dist in self.ev.around:
            if word != "景点" and not wide:
                continue
            items = [self.t("nearby_item", name=n, dist=d) for n, d in list(dist.items())[:6] if n != label]
            if items:
                self.add(self.t("h_nearby", center=label, items=self.P["join"].join(items)))
            elif word == "景点":
                self.add(self.t("nearby_none", center=label))
        self.blank()

    def limits(self, plan: dict[str, Any]) -> None:
        """The limits of the data, the same-name note and the JSON plan."""
        self.add(self.t("h_limits"), self.t("limits"))
        note = self.branches()
        if note:
            self.add(note)
        self.add("")
        self.add(self.t("h_plan"), "```json", json.dumps(plan, ensure_ascii=False, indent=1), "```")

    def write(self) -> str:
        """The whole answer."""
        self.intro()
        self.transport()
        self.hotel()
        self.days()
        self.info()
        self.extras()
        self.weather()
        self.costs()
        self.checks()
        self.limits(self.o.plan)
        return "\n".join(self.lines)


def _fmt_dur(minutes: int) -> str:
    h, m = divmod(max(0, minutes), 60)
    return f"{h}小时{m}分" if h else f"{m}分"


def write_answer(outcome: Outcome, ev: Evidence, problem: Problem, world: Any) -> str:
    """The final answer text for ``outcome`` (deterministic)."""
    return _Writer(outcome, ev, problem, world).write()

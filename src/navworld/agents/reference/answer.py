"""The final answer: prose in the problem's language citing the episode's tool facts, plus the plan.

Sections: overview; intercity options and the recommendation (with reasons); hotel and
alternatives; the day-by-day schedule with every leg (distance, duration, fare and roads for
the legs a ``direction`` call returned); sight and restaurant facts (tickets, opening hours,
prices, dishes, nearby places); the forecast with advice; the cost breakdown against the
budget; a requirement check with the trade-offs of the labelled conflict pairs; the limits of
the data; and one fenced ```json block with the plan (``navworld.core.plan`` schema).
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from typing import Any

from navworld.agents.reference.calls import Call
from navworld.agents.reference.model import Leg, Stop
from navworld.agents.reference.options import Service, is_red_eye
from navworld.agents.reference.phrases import CONFLICTS, MEAL_WORDS, MODE_WORDS, PHRASES, WEEKDAYS
from navworld.agents.reference.planner import Outcome
from navworld.agents.reference.pools import base_name, visible_blocks
from navworld.agents.reference.toolfacts import DayWeather, RouteFacts, parse_direction, parse_weather
from navworld.core.models import Flight, Poi, ToolResult, Train
from navworld.core.plan import format_minutes
from navworld.core.problem import Problem
from navworld.tasks.vocab import display

__all__ = ["Evidence", "collect_evidence", "write_answer"]

TRAIN_TYPES = {"G": "高铁", "D": "动车", "C": "城际", "Z": "直达特快", "T": "特快", "K": "快速"}
MAX_OPTIONS = 3


@dataclass
class Evidence:
    """The tool facts of the episode the answer cites."""

    routes: dict[tuple[str, str, str], RouteFacts] = field(default_factory=dict)
    weather: dict[str, DayWeather] = field(default_factory=dict)
    around: list[tuple[str, str, dict[str, int]]] = field(default_factory=list)
    """(centre name, keyword, {poi name: metres}) of each around_search, in order."""
    searched: dict[str, list[str]] = field(default_factory=dict)
    """poi_search keyword → visible POI names."""


def collect_evidence(outcome: Outcome, steps: list[list[Call]], results: dict[str, ToolResult]) -> Evidence:
    """Read the facts the answer needs back from the tool results of the episode."""
    ev = Evidence()
    legs = iter(outcome.directions)
    centres = iter(outcome.around_queries)
    for step in steps:
        for call in step:
            res = results.get(call.id)
            text = res.text if res is not None and res.ok else ""
            if call.name == "direction":
                leg = next(legs)
                if text:
                    ev.routes[(leg.start, leg.end, leg.mode)] = parse_direction(text)
            elif call.name == "weather" and text:
                for day in parse_weather(text):
                    ev.weather.setdefault(day.date, day)
            elif call.name == "around_search":
                centre = next(centres)
                word, label = centre.keyword, centre.label
                dist: dict[str, int] = {}
                if res is not None and res.ok and res.data:
                    shown = visible_blocks(text)
                    for row in res.data.get("pois", []):
                        name = str(row.get("name", ""))
                        if name in shown and row.get("distance"):
                            dist[name] = int(float(row["distance"]))
                ev.around.append((label, word, dist))
            elif call.name == "poi_search" and text:
                ev.searched[str(call.arguments.get("address"))] = list(visible_blocks(text))
    return ev


def _money(x: float) -> str:
    return str(round(x)) if abs(x - round(x)) < 1e-6 else f"{x:.1f}"


def _week(date: str, lang: str) -> str:
    return WEEKDAYS[lang][_dt.date.fromisoformat(date).weekday()]


class _Writer:
    def __init__(self, outcome: Outcome, ev: Evidence, problem: Problem) -> None:
        self.o = outcome
        self.b = outcome.brief
        self.ev = ev
        self.problem = problem
        self.lang = "en" if problem.lang == "en" else "zh"
        self.P = PHRASES[self.lang]
        self.lines: list[str] = []

    # ------------------------------------------------------------------------- helpers
    def t(self, key: str, **kw: Any) -> str:
        return self.P[key].format(**kw)

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def city(self, name: str) -> str:
        if self.lang == "zh" or not name:
            return name
        from navworld.tasks.prompts import city_label

        try:
            return city_label(name, "en")
        except Exception:
            return name

    def dur(self, minutes: int, zh_text: str) -> str:
        return zh_text if self.lang == "zh" else str(minutes)

    def leg_duration(self, rf: RouteFacts) -> str:
        if self.lang == "zh" or rf.minutes is None:
            return rf.duration
        return f"{rf.minutes} min"

    def leg_distance(self, rf: RouteFacts) -> str:
        if self.lang == "zh":
            return rf.distance
        d = rf.distance
        if d.endswith("公里"):
            return d[:-2] + " km"
        if d.endswith("米"):
            return d[:-1] + " m"
        return d

    # ------------------------------------------------------------------------ sections
    def intro(self) -> None:
        b = self.b
        origin = self.t("intro_origin", origin=self.city(b.origin)) if b.has_origin else ""
        self.add(self.t("title", dest=self.city(b.dest), days=b.days), "")
        when = b.dates[0] if b.days == 1 else self.t("date_range", start=b.dates[0], end=b.dates[-1])
        self.add(self.t("intro", people=b.people, dest=self.city(b.dest), days=b.days, when=when, origin_part=origin))
        if b.budget is not None:
            self.add(self.t("intro_budget", budget=_money(b.budget), total=_money(self.o.total)))
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
                          arr=row.arr_time, to=row.to_airport, dur=self.dur(row.duration_min, zh_dur), price=_money(row.price),
                          note=note)
        assert isinstance(row, Train)
        seats = " / ".join(f"{x.seat_class} {_money(x.price)}元" for x in row.seats[:2])
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
                        go_arr=format_minutes(go.arr), go_to=go.end.name, go_seat=go.seat, go_price=_money(go.price),
                        back_kind=words[back.kind], back_id=back.number, back_dep=format_minutes(back.dep),
                        back_from=back.start.name, back_arr=format_minutes(back.arr), back_to=back.end.name,
                        back_seat=back.seat, back_price=_money(back.price)))
        cheapest = min(g.price for g in o.outs) + min(r.price for r in o.backs)
        whys = []
        if b.arrival_before is not None:
            whys.append(self.t("why_arrival", t=format_minutes(b.arrival_before)))
        if b.prefers("travel_time"):
            whys.append(self.t("why_fast"))
        whys.append(self.t("why_cheap") if go.price + back.price <= cheapest + 1e-6 else self.t("why_time"))
        self.add(self.t("pick_why", why=self.P["sep"].join(whys)))
        self.add(self.t("transport_total", people=b.people, cost=_money((go.price + back.price) * b.people)))
        self.blank()

    def hotel(self) -> None:
        o, b = self.o, self.b
        h = o.hotel
        if h is None:
            return
        rooms = -(-b.people // max(1, h.beds or 1))
        self.add(self.t("h_hotel"))
        feats = self.P["join"].join(h.features) or self.P["none"]
        self.add(self.t("hotel", name=h.name, stars=h.stars, rating=f"{h.rating:.1f}", price=_money(h.cost or 0), beds=h.beds or 1,
                        people=b.people, rooms=rooms, nights=b.nights, cost=_money((h.cost or 0) * rooms * b.nights),
                        features=feats, district=h.adname))
        whys = [self.t("hotel_why_cheap")]
        if b.hotel_features:
            whys.append(self.t("hotel_why_feature", features=self.P["join"].join(b.hotel_features)))
        if b.max_hotel_price is not None:
            whys.append(self.t("hotel_why_cap", cap=_money(b.max_hotel_price)))
        self.add(self.t("hotel_why", why=self.P["sep"].join(whys)))
        alts: list[str] = []
        pool = {p.name: p for p in self._pool_hotels()}
        for name, poi in pool.items():
            if name != h.name and len(alts) < 4:
                alts.append(self.t("hotel_alt", name=name, price=_money(poi.cost or 0)))
        if alts:
            self.add(self.t("hotel_alts", items=self.P["join"].join(alts)))
        self.blank()

    def _pool_hotels(self) -> list[Poi]:
        from navworld.agents.reference.pools import city_pool

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

    def _near(self, name: str) -> str:
        for label, _word, dist in self.ev.around:
            if name in dist and label != name:
                return self.t("near", center=label, dist=dist[name])
        return ""

    def days(self) -> None:
        o, b = self.o, self.b
        self.add(self.t("h_days"))
        words = MODE_WORDS[self.lang]
        for i, stops in enumerate(o.days):
            self.blank()
            self.add(self.t("day", n=i + 1, date=b.dates[i], week=_week(b.dates[i], self.lang)))
            for s in stops:
                where = s.arrive if s.kind in ("airplane", "train") else s.place.name if s.place else ""
                line = self._leg_line(s.legs, s.origin if s.kind in ("airplane", "train") else where)
                if line:
                    self.add(line)
                self.add(self._stop_line(s, words, last=i == len(o.days) - 1 and s is stops[-1]))
            self.add(self.t("day_cost", cost=_money(sum(s.total for s in stops))))
        self.blank()

    def _stop_line(self, s: Stop, words: dict[str, str], last: bool) -> str:
        price = _money(s.price)
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
                      name=name, price=price, cuisine=cuisine, near=self._near(name))

    def info(self) -> None:
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
                    self.add(self.t("info_attraction", name=poi.name, price=_money(poi.cost or 0), open=hours,
                                    rating=f"{poi.rating:.1f}", category=poi.category or poi.type.split(";")[-1], why=why))
                elif poi.kind == "restaurant":
                    self.add(self.t("info_restaurant", name=poi.name, price=_money(poi.cost or 0), open=hours,
                                    cuisine=poi.cuisine, dishes=self.P["join"].join(poi.dishes[:4])))
        stops = sum(1 for day in self.o.days for s in day if s.place is not None and s.place.poi is not None)
        wide = self.b.problem_type in ("single_poi", "intercity") or stops < 4
        for label, word, dist in self.ev.around:
            if word != "景点" and not wide:
                continue
            items = [self.t("nearby_item", name=n, dist=d) for n, d in list(dist.items())[:6] if n != label]
            if items:
                self.add(self.t("h_nearby", center=label, items=self.P["join"].join(items)))
        self.blank()

    def _landmarks(self) -> set[str]:
        try:
            return {lm.name for lm in self._world.city(self.b.dest).landmarks}
        except Exception:
            return set()

    def weather(self) -> None:
        b = self.b
        days = [self.ev.weather[d] for d in b.dates if d in self.ev.weather]
        if not days:
            return
        self.add(self.t("h_weather"))
        for w in days:
            week = w.week if self.lang == "zh" else _week(w.date, "en")
            self.add(self.t("weather_line", date=w.date, week=week, day=w.day, night=w.night, low=w.low, high=w.high,
                            wind=w.wind, power=w.power))
        tips = []
        if any("雨" in (w.day + w.night) or "雪" in (w.day + w.night) for w in days):
            tips.append(self.t("tip_rain"))
        highs = [int(w.high.rstrip("℃")) for w in days if w.high.rstrip("℃").lstrip("-").isdigit()]
        lows = [int(w.low.rstrip("℃")) for w in days if w.low.rstrip("℃").lstrip("-").isdigit()]
        if highs and max(highs) >= 28:
            tips.append(self.t("tip_hot"))
        if lows and min(lows) <= 8:
            tips.append(self.t("tip_cold"))
        if not tips:
            tips.append(self.t("tip_mild"))
        self.add(self.t("weather_tips", tips=self.P["sep"].join(tips)))
        if len(days) < b.days:
            self.add(self.t("weather_gap"))
        self.blank()

    def costs(self) -> None:
        b = self.b
        groups = {"transport": 0.0, "hotel": 0.0, "meals": 0.0, "tickets": 0.0, "local": 0.0}
        for day in self.o.days:
            for s in day:
                groups["local"] += s.transfer_cost
                if s.kind in ("airplane", "train"):
                    groups["transport"] += s.cost
                elif s.kind == "accommodation":
                    groups["hotel"] += s.cost
                elif s.kind == "attraction":
                    groups["tickets"] += s.cost
                else:
                    groups["meals"] += s.cost
        self.add(self.t("h_cost", people=b.people))
        if b.has_origin:
            self.add(self.t("cost_transport", x=_money(groups["transport"])))
        if b.nights:
            self.add(self.t("cost_hotel", x=_money(groups["hotel"])))
        self.add(self.t("cost_meals", x=_money(groups["meals"])), self.t("cost_tickets", x=_money(groups["tickets"])),
                 self.t("cost_local", x=_money(groups["local"])), self.t("cost_total", x=_money(self.o.total)))
        if b.budget is not None:
            self.add(self.t("cost_budget", budget=_money(b.budget), rest=_money(b.budget - self.o.total)))
        self.blank()

    def checks(self) -> None:
        b, o = self.b, self.o
        self.add(self.t("h_checks"))
        if b.budget is not None:
            self.add(self.t("chk_budget"))
        if b.arrival_before is not None and o.go is not None:
            self.add(self.t("chk_arrival", id=o.go.number, arr=format_minutes(o.go.arr), t=format_minutes(b.arrival_before)))
        if b.no_red_eye and any(s.kind == "airplane" for s in (o.go, o.back) if s is not None):
            self.add(self.t("chk_red_eye"))
        if len(b.modes) == 1 and b.has_origin and len(b.transport_tools) > 1:
            self.add(self.t("chk_mode", kind=MODE_WORDS[self.lang][b.modes[0]]))
        meals = [(i, s) for i, day in enumerate(o.days) for s in day if s.kind in ("breakfast", "lunch", "dinner")]
        for name in b.must_visit:
            day = next((i for i, d in enumerate(o.days) for s in d if s.kind == "attraction" and s.name == name), 0)
            self.add(self.t("chk_must", name=name, day=day + 1))
        if b.cuisines:
            hit = next(((i, s) for i, s in meals if s.place and s.place.poi and s.place.poi.cuisine in b.cuisines), None)
            if hit is not None:
                i, s = hit
                self.add(self.t("chk_cuisine", day=i + 1, meal=MEAL_WORDS[self.lang][s.kind], name=s.name,
                                cuisine=s.place.poi.cuisine if s.place and s.place.poi else ""))
        if b.vegetarian_meals:
            veg = [s.name for _, s in meals if s.place and s.place.poi and s.place.poi.cuisine == "素食"]
            self.add(self.t("chk_veg", n=len(veg), names=self.P["join"].join(f"「{n}」" for n in veg)))
        if b.hotel_features and o.hotel is not None:
            self.add(self.t("chk_feature", name=o.hotel.name, features=self.P["join"].join(b.hotel_features)))
        if b.max_hotel_price is not None and o.hotel is not None:
            self.add(self.t("chk_cap"))
        if b.public_only:
            self.add(self.t("chk_public"))
        if b.max_attractions_per_day is not None:
            self.add(self.t("chk_per_day", n=b.max_attractions_per_day))
        if b.finish_by is not None:
            self.add(self.t("chk_finish", t=format_minutes(b.finish_by)))
        for c in self.problem.conflicts:
            self.add("- " + self._conflict(c.label, display(c.first, self.lang), display(c.second, self.lang)))
        self.blank()

    def _conflict(self, label: str, a: str, b: str) -> str:
        o, t = self.o, CONFLICTS[self.lang]
        legs = [leg for day in o.days for s in day for leg in s.legs]
        counts = {m: sum(1 for leg in legs if leg.mode == m) for m in ("taxi", "transit", "walk")}
        comfort = t["comfort_hotel"].format(hotel=o.hotel.name, rating=f"{o.hotel.rating:.1f}") if o.hotel else ""
        comfort += t["comfort_taxi"].format(n=counts["taxi"]) if counts["taxi"] else t["comfort_no_taxi"]
        transport = t["transport"].format(go=o.go.number, back=o.back.number) if o.go and o.back else ""
        moves = t["moves"].format(legs=len(legs), **counts)
        sights = [s.name for day in o.days for s in day if s.kind == "attraction" and s.name in self._landmarks()]
        names = self.P["join"].join(f"「{n}」" for n in sights[:3])
        landmarks = t["landmarks"].format(names=names) if sights else t["no_landmarks"]
        meals = [s for day in o.days for s in day if s.kind in ("breakfast", "lunch", "dinner")]
        veg = [s.name for s in meals if s.place and s.place.poi and s.place.poi.cuisine == "素食"]
        veg_text = t["veg"].format(n=len(veg), names=self.P["join"].join(f"「{n}」" for n in veg) or self.P["none"],
                                   k=len({s.name for s in meals}) - len(set(veg)))
        per_day = max((sum(1 for s in day if s.kind == "attraction") for day in o.days), default=0)
        tpl = t.get(label, t["default"])
        return tpl.format(a=a, b=b, total=_money(o.total), comfort=comfort, transport=transport, moves=moves,
                          landmarks=landmarks, veg=veg_text, per_day=per_day)

    def extras(self) -> None:
        """Type-specific sections (business, family study, food tour, single sight)."""
        b, o = self.b, self.o
        sights = [s for d in o.days for s in d if s.kind == "attraction" and s.place and s.place.poi]
        meals = [s for d in o.days for s in d if s.kind in ("lunch", "dinner") and s.place and s.place.poi]
        if b.problem_type == "business" and o.hotel is not None:
            facilities = [f for f in o.hotel.features if f in ("会议室", "商务中心", "健身房", "免费早餐", "接机服务")]
            facilities = facilities or list(o.hotel.features[:2])
            rest = max(meals, key=lambda s: s.price) if meals else None
            near = next((dist for label, word, dist in self.ev.around if label == o.hotel.name), {})
            items = [self.t("nearby_item", name=n, dist=d) for n, d in list(near.items())[:3]]
            nearby = self.t("business_nearby", items=self.P["join"].join(items)) if items else ""
            self.add(self.t("business", hotel=o.hotel.name, facilities=self.P["join"].join(facilities) or self.P["none"],
                            purpose=display(b.purpose, self.lang) if b.purpose else "", nearby=nearby,
                            restaurant=rest.name if rest else o.hotel.name, price=_money(rest.price if rest else 0)))
            self.blank()
        if b.problem_type == "family_study" and sights:
            items = [self.t("family_item", name=s.name, topic=s.place.poi.category if s.place and s.place.poi else "")
                     for s in sights[:4]]
            self.add(self.t("family", items="\n".join(items)))
            self.blank()
        if b.problem_type == "food_tour" and meals:
            items = [self.t("food_item", name=s.name, price=_money(s.price),
                            dishes=self.P["join"].join(s.place.poi.dishes[:3]) if s.place and s.place.poi else "")
                     for s in meals[:6]]
            self.add(self.t("food", items="\n".join(items)))
            self.blank()
        if b.problem_type in ("single_poi", "intercity") and sights:
            finish = "tour_finish_home" if b.has_origin else "tour_finish_end"
            order = [s for d in o.days for s in d if s.kind in ("attraction", "lunch", "dinner") and s.place]
            after = order[order.index(sights[0]) + 1:]
            if after:
                names = self.P["join"].join(f"「{s.name}」" for s in after[:5])
                self.add(self.t("tour", first=sights[0].name, rest=names, finish=self.t(finish)))
            else:
                self.add(self.t("tour_one", first=sights[0].name, finish=self.t(finish)))
            self.blank()

    def branches(self) -> str | None:
        """Name the other branches of places the answer cites, so every citation is unambiguous."""
        text = "\n".join(self.lines)
        visible = {n for names in self.ev.searched.values() for n in names}
        visible |= {n for _label, _word, dist in self.ev.around for n in dist}
        missing = sorted(n for n in visible if n not in text and base_name(n) != n and base_name(n) in text)
        if not missing:
            return None
        return self.t("branches", names=self.P["join"].join(f"「{n}」" for n in missing))

    def limits(self, plan: dict[str, Any]) -> None:
        self.add(self.t("h_limits"), self.t("limits"))
        note = self.branches()
        if note:
            self.add(note)
        self.add("")
        self.add(self.t("h_plan"), "```json", json.dumps(plan, ensure_ascii=False, indent=1), "```")

    def write(self, world: Any) -> str:
        self._world = world
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
    return _Writer(outcome, ev, problem).write(world)

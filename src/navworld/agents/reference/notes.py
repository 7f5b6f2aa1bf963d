"""The answer's later sections: forecast, costs, requirement check and trade-offs, type-specific
notes and same-name branches. A mixin of the answer writer (``navworld.agents.reference.answer``)."""

from __future__ import annotations

import datetime as _dt
from typing import Any

from navworld.agents.reference.evidence import Evidence
from navworld.agents.reference.phrases import CONFLICTS, MEAL_WORDS, MODE_WORDS, PHRASES, WEEKDAYS
from navworld.agents.reference.planner import Outcome
from navworld.agents.reference.pools import base_name
from navworld.agents.reference.toolfacts import RouteFacts
from navworld.core.plan import format_minutes
from navworld.core.problem import Problem
from navworld.tasks.vocab import display

__all__ = ["WriterBase", "money", "weekday"]


def money(x: float) -> str:
    """An amount as the tools write it (integer yuan, else one decimal)."""
    return str(round(x)) if abs(x - round(x)) < 1e-6 else f"{x:.1f}"


def weekday(date: str, lang: str) -> str:
    """The weekday of an ISO date in ``lang``."""
    return WEEKDAYS[lang][_dt.date.fromisoformat(date).weekday()]


EDUCATION_WORDS = ("博物", "纪念", "科技", "天文", "历史", "文化", "美术", "书院", "遗址", "故居", "动物", "植物", "海洋", "自然")


def _educational(stop: Any) -> bool:
    poi = stop.place.poi if stop.place is not None else None
    text = "".join([poi.name, poi.category, *poi.tags]) if poi is not None else ""
    return any(w in text for w in EDUCATION_WORDS)


class WriterBase:
    """Shared state and helpers of the answer writer, and its later sections."""

    def __init__(self, outcome: Outcome, ev: Evidence, problem: Problem, world: Any) -> None:
        self.o = outcome
        self.b = outcome.brief
        self.ev = ev
        self.problem = problem
        self.lang = "en" if problem.lang == "en" else "zh"
        self.P = PHRASES[self.lang]
        self.lines: list[str] = []
        self._world = world

    # ------------------------------------------------------------------------- helpers
    def t(self, key: str, **kw: Any) -> str:
        """The phrase ``key`` of the answer language, formatted."""
        return self.P[key].format(**kw)

    def add(self, *lines: str) -> None:
        """Append lines to the answer."""
        self.lines.extend(lines)

    def blank(self) -> None:
        """Append one blank line (never two in a row)."""
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def city(self, name: str) -> str:
        """A city name as the answer language writes it."""
        if self.lang == "zh" or not name:
            return name
        from navworld.tasks.prompts import city_label

        try:
            return city_label(name, "en")
        except Exception:
            return name

    def dur(self, minutes: int, zh_text: str) -> str:
        """A service duration: the tool text in Chinese, minutes in English."""
        return zh_text if self.lang == "zh" else str(minutes)

    def leg_duration(self, rf: RouteFacts) -> str:
        """A leg duration quoted from its direction result."""
        if self.lang == "zh" or rf.minutes is None:
            return rf.duration
        return f"{rf.minutes} min"

    def leg_distance(self, rf: RouteFacts) -> str:
        """A leg distance quoted from its direction result."""
        if self.lang == "zh":
            return rf.distance
        d = rf.distance
        if d.endswith("公里"):
            return d[:-2] + " km"
        if d.endswith("米"):
            return d[:-1] + " m"
        return d

    # ------------------------------------------------------------------------ sections
    def _landmarks(self) -> set[str]:
        try:
            return {lm.name for lm in self._world.city(self.b.dest).landmarks}
        except Exception:
            return set()

    def weather(self) -> None:
        """The forecast of the travel days with advice."""
        b = self.b
        days = [self.ev.weather[d] for d in b.dates if d in self.ev.weather]
        if not days:
            return
        self.add(self.t("h_weather"))
        for w in days:
            week = w.week if self.lang == "zh" else weekday(w.date, "en")
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
        """The cost breakdown by kind, the total and what is left of the budget."""
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
            self.add(self.t("cost_transport", x=money(groups["transport"])))
        if b.nights:
            self.add(self.t("cost_hotel", x=money(groups["hotel"])))
        self.add(self.t("cost_meals", x=money(groups["meals"])), self.t("cost_tickets", x=money(groups["tickets"])),
                 self.t("cost_local", x=money(groups["local"])), self.t("cost_total", x=money(self.o.total)))
        if b.budget is not None:
            self.add(self.t("cost_budget", budget=money(b.budget), rest=money(b.budget - self.o.total)))
        self.blank()

    def checks(self) -> None:
        """How each hard requirement is met, and the trade-off of each labelled conflict pair."""
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
        return tpl.format(a=a, b=b, total=money(o.total), comfort=comfort, transport=transport, moves=moves,
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
                            restaurant=rest.name if rest else o.hotel.name, price=money(rest.price if rest else 0)))
            self.blank()
        if b.problem_type == "family_study" and sights:
            learn = sorted(sights, key=lambda s: (not _educational(s), sights.index(s)))
            items = [self.t("family_item", name=s.name, topic=s.place.poi.category if s.place and s.place.poi else "")
                     for s in learn[:4]]
            self.add(self.t("family", items="\n".join(items)))
            self.blank()
        if b.problem_type == "food_tour" and meals:
            items = [self.t("food_item", name=s.name, price=money(s.price),
                            dishes=self.P["join"].join(s.place.poi.dishes[:3]) if s.place and s.place.poi else "")
                     for s in meals[:6]]
            self.add(self.t("food", items="\n".join(items)))
            self.blank()
        if b.problem_type in ("single_poi", "intercity") and sights:
            key = "tour_finish_home" if b.has_origin else "tour_finish_end"
            finish_kind = MODE_WORDS[self.lang][o.back.kind] if o.back is not None else ""
            order = [s for d in o.days for s in d if s.kind in ("attraction", "lunch", "dinner") and s.place]
            after = order[order.index(sights[0]) + 1:]
            if after:
                names = self.P["join"].join(f"「{s.name}」" for s in after[:5])
                self.add(self.t("tour", first=sights[0].name, rest=names, finish=self.t(key, kind=finish_kind)))
            else:
                self.add(self.t("tour_one", first=sights[0].name, finish=self.t(key, kind=finish_kind)))
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


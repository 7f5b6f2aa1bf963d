"""Deterministic POI generation for one city: attractions, restaurants, hotels and hubs.

Everything depends only on ``WORLD_VERSION`` and the city (never on the salt): every RNG is
``rng(WORLD_VERSION, "pois", city.name, <part>)``. Vocabularies come from ``data/vocab``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from navworld.core.models import City, District, Poi
from navworld.core.seeding import rng, stable_hash
from navworld.core.versions import WORLD_VERSION
from navworld.world.vocab import district_stem, load_vocab

__all__ = ["ATTRACTIONS_PER_CITY", "HOTELS_PER_CITY", "RESTAURANTS_PER_CITY", "generate_city_pois", "poi_id"]

ATTRACTIONS_PER_CITY = 34
RESTAURANTS_PER_CITY = 56
HOTELS_PER_CITY = 28
_FALLBACK_ROADS = ("人民路", "中山路", "解放路", "建设路", "新华路", "文化路")
_KM_PER_DEG = 111.32


def poi_id(city: str, kind: str, name: str) -> str:
    """A stable AMap-like id (``B0`` + 8 upper-case hex digits) for a POI."""
    return "B0" + stable_hash(WORLD_VERSION, "poi", city, kind, name)[:8].upper()


def _attraction_type(typecode: str, sub: str) -> str:
    if typecode.startswith("1101"):
        return f"风景名胜;公园广场;{sub}"
    if typecode == "110000":
        return f"风景名胜;风景名胜相关;{sub}"
    return f"风景名胜;风景名胜;{sub}"


def _restaurant_type(typecode: str, sub: str) -> str:
    if typecode.startswith("0502"):
        return f"餐饮服务;外国餐厅;{sub}"
    if typecode.startswith("0501"):
        return f"餐饮服务;中餐厅;{sub}"
    return f"餐饮服务;{sub};{sub}"


class _CityGen:
    """Shared helpers for one city: roads, districts, scatter, addresses, phone numbers."""

    def __init__(self, city: City) -> None:
        self.city = city
        self.roads: tuple[str, ...] = city.roads or _FALLBACK_ROADS
        self.districts: tuple[District, ...] = city.districts or (
            District(name=city.name + "城区", adcode=city.adcode),
        )
        tier = city.tier if city.tier > 0 else 3
        self.sigma_km = {1: 6.5, 2: 4.8, 3: 3.6}.get(tier, 3.0)
        self.used_names: set[str] = {lm.name for lm in city.landmarks}
        self.used_ids: set[str] = set()
        area = city.citycode.lstrip("0")
        self.tel_prefix = city.citycode if city.citycode else "0000"
        self.tel_digits = 8 if len(area) <= 2 else 7 if len(area) == 4 else 8

    def district(self, r: random.Random) -> District:
        n = len(self.districts)
        # Earlier (central) districts are more likely.
        weights = [1.0 / (1 + 0.35 * i) for i in range(n)]
        return r.choices(self.districts, weights=weights)[0]

    def address(self, r: random.Random) -> str:
        return f"{r.choice(self.roads)}{r.randint(1, 699)}号"

    def tel(self, r: random.Random) -> str:
        first = r.randint(5, 8)
        rest = "".join(str(r.randint(0, 9)) for _ in range(self.tel_digits - 1))
        return f"{self.tel_prefix}-{first}{rest}"

    def scatter(self, r: random.Random, around: tuple[float, float] | None = None, sigma_km: float | None = None) -> tuple[float, float]:
        base = around or self.city.center
        s = sigma_km if sigma_km is not None else self.sigma_km
        dist = min(abs(r.gauss(0.0, s)), 2.6 * s) + 0.05
        ang = r.uniform(0, 2 * math.pi)
        dlat = dist * math.sin(ang) / _KM_PER_DEG
        dlng = dist * math.cos(ang) / (_KM_PER_DEG * max(0.2, math.cos(math.radians(base[1]))))
        return (round(base[0] + dlng, 6), round(base[1] + dlat, 6))

    def unique(self, name: str, r: random.Random) -> str | None:
        if name not in self.used_names:
            self.used_names.add(name)
            return name
        for _ in range(4):
            alt = f"{name}({r.choice(self.roads)}店)"
            if alt not in self.used_names:
                self.used_names.add(alt)
                return alt
        return None

    def make_id(self, kind: str, name: str) -> str:
        pid = poi_id(self.city.name, kind, name)
        n = 1
        while pid in self.used_ids:  # astronomically rare; keep ids unique anyway
            pid = poi_id(self.city.name, kind, f"{name}#{n}")
            n += 1
        self.used_ids.add(pid)
        return pid


def _hours(text: str) -> tuple[str, str]:
    a, b = text.split("-", 1)
    return a, b


def _tier_factor(city: City) -> float:
    factors = load_vocab("hotels")["tier_factor"]
    return float(factors.get(str(city.tier), 0.9))


# -- attractions ---------------------------------------------------------------------------
def _landmark_pois(g: _CityGen) -> list[Poi]:
    vocab = load_vocab("attractions")
    out: list[Poi] = []
    for lm in g.city.landmarks:
        r = rng(WORLD_VERSION, "pois", g.city.name, "landmark", lm.name)
        sub, code = vocab["landmark_default"]["sub"], vocab["landmark_default"]["typecode"]
        text = lm.category + lm.name
        for rule in vocab["landmark_types"]:
            if any(k in text for k in rule["keywords"]):
                sub, code = rule["sub"], rule["typecode"]
                break
        tags = [lm.category]
        for key, words in vocab["category_tags"].items():
            if key in lm.category or key in lm.name:
                tags.extend(w for w in words if w not in tags)
        d = g.district(r)
        out.append(
            Poi(
                id=g.make_id("attraction", lm.name),
                name=lm.name,
                kind="attraction",
                city=g.city.name,
                type=_attraction_type(code, sub),
                typecode=code,
                address=g.address(r),
                location=(round(lm.location[0], 6), round(lm.location[1], 6)),
                adname=d.name,
                adcode=d.adcode,
                tel=g.tel(r),
                rating=round(r.uniform(4.5, 4.9), 1),
                cost=float(lm.ticket),
                open=lm.open,
                close=lm.close,
                category=lm.category,
                visit_hours=float(lm.visit_hours),
                indoor=lm.indoor,
                tags=tuple(tags),
            )
        )
    return out


def _fill(pattern: str, g: _CityGen, r: random.Random, extra: dict[str, str] | None = None) -> str:
    values = {
        "city": g.city.name,
        "d": district_stem(g.district(r).name),
        "road": r.choice(g.roads),
    }
    if extra:
        values.update(extra)
    out = pattern
    for key, val in values.items():
        out = out.replace("{" + key + "}", val)
    return out


def _generated_attractions(g: _CityGen, count: int) -> list[Poi]:
    vocab = load_vocab("attractions")
    r = rng(WORLD_VERSION, "pois", g.city.name, "attractions")
    city = g.city
    allowed = []
    for t in vocab["templates"]:
        req = t.get("requires")
        if req == "coastal" and not city.is_coastal:
            continue
        if req == "snow" and not city.climate.snow:
            continue
        allowed.append(t)
    out: list[Poi] = []
    order = list(allowed)
    r.shuffle(order)
    rounds = 0
    while len(out) < count and rounds < 6:
        for t in order:
            if len(out) >= count:
                break
            name = _fill(t["pattern"], g, r, {"craft": r.choice(vocab["crafts"])})
            if name in g.used_names:
                continue
            g.used_names.add(name)
            lo, hi = t["ticket"]
            ticket = 0 if (r.random() < t["free"] or hi == 0) else int(round(r.uniform(lo, hi) / 5.0) * 5)
            opening = r.choice(t["hours"])
            vlo, vhi = t["visit"]
            d = g.district(r)
            out.append(
                Poi(
                    id=g.make_id("attraction", name),
                    name=name,
                    kind="attraction",
                    city=city.name,
                    type=_attraction_type(t["typecode"], t["sub"]),
                    typecode=t["typecode"],
                    address=g.address(r),
                    location=g.scatter(r, sigma_km=g.sigma_km * 1.3),
                    adname=d.name,
                    adcode=d.adcode,
                    tel=g.tel(r),
                    rating=round(r.uniform(3.9, 4.8), 1),
                    cost=float(ticket),
                    open=_hours(opening)[0],
                    close=_hours(opening)[1],
                    category=t["category"],
                    visit_hours=round(r.uniform(vlo, vhi) * 2) / 2,
                    indoor=bool(t["indoor"]),
                    tags=tuple(t["tags"]),
                )
            )
        rounds += 1
    return out


# -- restaurants ---------------------------------------------------------------------------
def _cuisine_plan(city: City, total: int, r: random.Random) -> list[dict[str, object]]:
    vocab = load_vocab("restaurants")
    cuisines = {c["name"]: c for c in vocab["cuisines"]}
    themed = {vocab["themes"][t] for t in city.food_themes if t in vocab["themes"]}
    local_entry = cuisines.get(city.local_cuisine)
    n_local = round(total * vocab["local_share"])
    plan: list[dict[str, object]] = [{"local": True, "entry": local_entry} for _ in range(n_local)]
    for c in vocab["cuisines"]:
        need = int(c.get("min_count", 0)) + (2 if c["name"] in themed else 0)
        plan.extend({"local": False, "entry": c} for _ in range(need))
    weights = []
    names = []
    for c in vocab["cuisines"]:
        w = float(c["weight"])
        if city.is_coastal and "coastal_weight" in c:
            w = float(c["coastal_weight"])
        if c["name"] in themed:
            w += float(c.get("theme_weight", 4))
        if c["name"] == city.local_cuisine:
            w *= 0.3
        weights.append(w)
        names.append(c["name"])
    while len(plan) < total:
        name = r.choices(names, weights=weights)[0]
        plan.append({"local": False, "entry": cuisines[name]})
    return plan[:total]


def _restaurants(g: _CityGen, count: int, anchors: Sequence[tuple[float, float]]) -> list[Poi]:
    vocab = load_vocab("restaurants")
    city = g.city
    r = rng(WORLD_VERSION, "pois", city.name, "restaurants")
    tf = _tier_factor(city)
    local_dishes = list(city.signature_dishes) or ["家常菜", "招牌炒饭", "时令小炒"]
    old_brand = "老字号探访" in city.food_themes
    fine = "米其林餐厅" in city.food_themes
    out: list[Poi] = []
    for i, item in enumerate(_cuisine_plan(city, count, r)):
        entry = item["entry"]
        is_local = bool(item["local"])
        if is_local:
            loc = vocab["local"]
            cuisine = city.local_cuisine or "地方菜"
            typecode = entry["typecode"] if isinstance(entry, dict) else loc["typecode"]
            sub = entry["sub"] if isinstance(entry, dict) else loc["sub"]
            pool = local_dishes + (list(entry["dishes"]) if isinstance(entry, dict) else [])
            price_rng = loc["price"]
            hours = loc["hours"]
            words = list(loc["local_words"]) if "local_words" in loc else list(vocab["local_words"])
            tags = [cuisine, *loc["tags"]]
        else:
            assert isinstance(entry, dict)
            cuisine = entry["name"]
            typecode, sub = entry["typecode"], entry["sub"]
            pool = list(entry["dishes"])
            price_rng = entry["price"]
            hours = entry["hours"]
            words = list(entry["words"])
            tags = [cuisine, *entry["tags"]]
        name = None
        for _ in range(8):
            pattern = r.choice(vocab["patterns"])
            extra = {
                "surname": r.choice(vocab["surnames"]),
                "adj": r.choice(vocab["adjectives"]),
                "word": r.choice(words),
                "dish": r.choice(pool),
            }
            if is_local and r.random() < 0.3:
                pattern = r.choice(["{surname}记{dish}", "老{city}{dish}", "{dish}老店"])
            name = g.unique(_fill(pattern, g, r, extra), r)
            if name:
                break
        if name is None:
            continue
        price = r.uniform(price_rng[0], price_rng[1]) * tf
        if is_local and old_brand and i % 6 == 0:
            tags.append("老字号")
        if fine and i % 23 == 5:
            tags.append(r.choice(vocab["fine_dining_words"]))
            price *= 2.2
        opening = r.choice(hours)
        n_dishes = min(len(pool), r.randint(3, 5))
        dishes = tuple(r.sample(pool, n_dishes)) if pool else ()
        around = r.choice(anchors) if anchors and r.random() < 0.45 else None
        d = g.district(r)
        out.append(
            Poi(
                id=g.make_id("restaurant", name),
                name=name,
                kind="restaurant",
                city=city.name,
                type=_restaurant_type(typecode, sub),
                typecode=typecode,
                address=g.address(r),
                location=g.scatter(r, around=around, sigma_km=1.2 if around else g.sigma_km * 0.9),
                adname=d.name,
                adcode=d.adcode,
                tel=g.tel(r),
                rating=round(r.uniform(3.6, 4.9), 1),
                cost=float(max(12, round(price))),
                open=_hours(opening)[0],
                close=_hours(opening)[1],
                category=cuisine,
                cuisine=cuisine,
                dishes=dishes,
                tags=tuple(dict.fromkeys(tags)),
            )
        )
    return out


# -- hotels --------------------------------------------------------------------------------
def _hotels(g: _CityGen, count: int, anchors: Sequence[tuple[str, tuple[float, float]]]) -> list[Poi]:
    vocab = load_vocab("hotels")
    city = g.city
    r = rng(WORLD_VERSION, "pois", city.name, "hotels")
    tf = _tier_factor(city)
    mix = vocab["star_mix"]
    stars_pool = [int(s) for s in mix for _ in range(int(mix[s]))]
    by_star: dict[int, list[dict[str, object]]] = {}
    for b in vocab["brands"]:
        by_star.setdefault(int(b["stars"]), []).append(b)
    indep = vocab["independent"]
    out: list[Poi] = []
    star_seq = [2, 3, 4, 5] + [r.choice(stars_pool) for _ in range(count - 4)]
    for stars in star_seq:
        anchor_name, anchor_loc = r.choice(anchors) if anchors and r.random() < 0.55 else ("", city.center)
        name = None
        brand = ""
        category = ""
        price_rng: list[int] = [200, 300]
        for attempt in range(8):
            words = [w for w in indep["words"] if int(w["stars"]) == stars]
            if words and r.random() < vocab["independent_share"]:
                w = r.choice(words)
                extra = {"adj": r.choice(indep["adjectives"]), "word": str(w["word"])}
                raw = _fill(r.choice(indep["patterns"]), g, r, extra)
                brand, category, price_rng = "", str(w["category"]), list(w["price"])
            else:
                b = r.choice(by_star[stars])
                place = (anchor_name.removeprefix(city.name) if attempt == 0 else "") or _fill(
                    r.choice(["{road}", "{d}"]), g, r
                )
                raw = f"{b['brand']}({city.name}{place}店)"
                brand, category, price_rng = str(b["brand"]), str(b["category"]), list(b["price"])
            if raw not in g.used_names:
                g.used_names.add(raw)
                name = raw
                break
        if name is None:
            continue
        price = int(r.uniform(price_rng[0], price_rng[1]) * tf / 10) * 10 + 8
        si = min(max(stars, 2), 5) - 2
        features = [f for f, probs in vocab["features"].items() if r.random() < probs[si]]
        if city.is_coastal and stars >= 4 and r.random() < 0.5:
            features.append(vocab["coastal_feature"])
        code, sub = vocab["typecodes"][str(min(max(stars, 2), 5))]
        d = g.district(r)
        out.append(
            Poi(
                id=g.make_id("hotel", name),
                name=name,
                kind="hotel",
                city=city.name,
                type=f"住宿服务;宾馆酒店;{sub}",
                typecode=code,
                address=g.address(r),
                location=g.scatter(r, around=anchor_loc if anchor_name else None, sigma_km=1.0 if anchor_name else g.sigma_km),
                adname=d.name,
                adcode=d.adcode,
                tel=g.tel(r),
                rating=round(r.uniform(3.8 + 0.12 * si, 4.5 + 0.13 * si), 1),
                cost=float(price),
                open="00:00",
                close="24:00",
                category=category,
                brand=brand,
                stars=stars,
                beds=r.choice((1, 2)),
                features=tuple(features),
                tags=(category,),
            )
        )
    return out


# -- hubs ----------------------------------------------------------------------------------
def _hubs(g: _CityGen) -> list[Poi]:
    city = g.city
    out: list[Poi] = []
    for ap in city.airports:
        r = rng(WORLD_VERSION, "pois", city.name, "hub", ap.name)
        d = g.district(r)
        g.used_names.add(ap.name)
        out.append(
            Poi(
                id=g.make_id("hub", ap.name), name=ap.name, kind="hub", city=city.name,
                type="交通设施服务;机场相关;飞机场", typecode="150104", address=g.address(r),
                location=ap.location, adname=d.name, adcode=d.adcode, tel=g.tel(r),
                rating=round(r.uniform(4.2, 4.8), 1), category="机场", tags=("机场", ap.iata),
            )
        )
    for st in city.stations:
        r = rng(WORLD_VERSION, "pois", city.name, "hub", st.name)
        d = g.district(r)
        g.used_names.add(st.name)
        out.append(
            Poi(
                id=g.make_id("hub", st.name), name=st.name, kind="hub", city=city.name,
                type="交通设施服务;火车站;火车站", typecode="150200", address=g.address(r),
                location=st.location, adname=d.name, adcode=d.adcode, tel=g.tel(r),
                rating=round(r.uniform(4.0, 4.7), 1), category="火车站",
                tags=("火车站", "高铁站") if st.hsr else ("火车站",),
            )
        )
    return out


def generate_city_pois(city: City) -> list[Poi]:
    """All POIs of ``city`` in a fixed order: attractions, restaurants, hotels, hubs."""
    g = _CityGen(city)
    hubs = _hubs(g)
    landmarks = _landmark_pois(g)
    attractions = landmarks + _generated_attractions(g, max(ATTRACTIONS_PER_CITY - len(landmarks), 28))
    food_anchors = [p.location for p in attractions[:12]]
    restaurants = _restaurants(g, RESTAURANTS_PER_CITY, food_anchors)
    hotel_anchors = [(p.name, p.location) for p in landmarks[:4]] + [(h.name, h.location) for h in hubs if h.category == "火车站"]
    hotels = _hotels(g, HOTELS_PER_CITY, hotel_anchors)
    return attractions + restaurants + hotels + hubs

"""Deterministic POI generation for one city: attractions, restaurants, hotels and hubs.

Everything depends only on ``WORLD_VERSION`` and the city (never on the salt): every RNG is
``rng(WORLD_VERSION, "pois", city.name, <part>)``. Vocabularies come from ``data/vocab``.
"""

from __future__ import annotations

from collections.abc import Sequence

from navworld.core.models import City, Poi
from navworld.core.seeding import rng
from navworld.core.versions import WORLD_VERSION
from navworld.world.gen_common import CityGen, fill, opening, poi_id, tier_factor
from navworld.world.gen_restaurants import generate_restaurants
from navworld.world.vocab import load_vocab

__all__ = ["ATTRACTIONS_PER_CITY", "HOTELS_PER_CITY", "RESTAURANTS_PER_CITY", "generate_city_pois", "poi_id"]

ATTRACTIONS_PER_CITY = 34
RESTAURANTS_PER_CITY = 56
HOTELS_PER_CITY = 28


def _attraction_type(typecode: str, sub: str) -> str:
    if typecode.startswith("1101"):
        return f"风景名胜;公园广场;{sub}"
    if typecode == "110000":
        return f"风景名胜;风景名胜相关;{sub}"
    return f"风景名胜;风景名胜;{sub}"

# -- attractions ---------------------------------------------------------------------------
def _landmark_pois(g: CityGen) -> list[Poi]:
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

def _generated_attractions(g: CityGen, count: int) -> list[Poi]:
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
            name = fill(t["pattern"], g, r, {"craft": r.choice(vocab["crafts"])})
            if name in g.used_names:
                continue
            g.used_names.add(name)
            lo, hi = t["ticket"]
            ticket = 0 if (r.random() < t["free"] or hi == 0) else int(round(r.uniform(lo, hi) / 5.0) * 5)
            hours_text = r.choice(t["hours"])
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
                    open=opening(hours_text)[0],
                    close=opening(hours_text)[1],
                    category=t["category"],
                    visit_hours=round(r.uniform(vlo, vhi) * 2) / 2,
                    indoor=bool(t["indoor"]),
                    tags=tuple(t["tags"]),
                )
            )
        rounds += 1
    return out

# -- hotels --------------------------------------------------------------------------------
def _hotels(g: CityGen, count: int, anchors: Sequence[tuple[str, tuple[float, float]]]) -> list[Poi]:
    vocab = load_vocab("hotels")
    city = g.city
    r = rng(WORLD_VERSION, "pois", city.name, "hotels")
    tf = tier_factor(city)
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
                raw = fill(r.choice(indep["patterns"]), g, r, extra)
                brand, category, price_rng = "", str(w["category"]), list(w["price"])
            else:
                b = r.choice(by_star[stars])
                place = (anchor_name.removeprefix(city.name) if attempt == 0 else "") or fill(
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
def _hubs(g: CityGen) -> list[Poi]:
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
    g = CityGen(city)
    hubs = _hubs(g)
    landmarks = _landmark_pois(g)
    attractions = landmarks + _generated_attractions(g, max(ATTRACTIONS_PER_CITY - len(landmarks), 28))
    food_anchors = [p.location for p in attractions[:12]]
    restaurants = generate_restaurants(g, RESTAURANTS_PER_CITY, food_anchors)
    hotel_anchors = [(p.name, p.location) for p in landmarks[:4]] + [(h.name, h.location) for h in hubs if h.category == "火车站"]
    hotels = _hotels(g, HOTELS_PER_CITY, hotel_anchors)
    return attractions + restaurants + hotels + hubs

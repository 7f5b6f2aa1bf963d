"""Restaurant generation: local cuisine first, vegetarian places, themed cuisines."""

from __future__ import annotations

import random
from collections.abc import Sequence

from navworld.core.models import City, Poi
from navworld.core.seeding import rng
from navworld.core.versions import WORLD_VERSION
from navworld.world.gen_common import CityGen, fill, opening, tier_factor
from navworld.world.vocab import load_vocab

__all__ = ["generate_restaurants"]


def _restaurant_type(typecode: str, sub: str) -> str:
    if typecode.startswith("0502"):
        return f"餐饮服务;外国餐厅;{sub}"
    if typecode.startswith("0501"):
        return f"餐饮服务;中餐厅;{sub}"
    return f"餐饮服务;{sub};{sub}"

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


def generate_restaurants(g: CityGen, count: int, anchors: Sequence[tuple[float, float]]) -> list[Poi]:
    """``count`` restaurants of the city, some clustered around ``anchors``."""
    vocab = load_vocab("restaurants")
    city = g.city
    r = rng(WORLD_VERSION, "pois", city.name, "restaurants")
    tf = tier_factor(city)
    local_dishes = list(city.signature_dishes) or ["家常菜", "招牌炒饭", "时令小炒"]
    old_brand = "老字号探访" in city.food_themes
    fine = "高端餐厅" in city.food_themes
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
            name = g.unique(fill(pattern, g, r, extra), r)
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
        hours_text = r.choice(hours)
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
                open=opening(hours_text)[0],
                close=opening(hours_text)[1],
                category=cuisine,
                cuisine=cuisine,
                dishes=dishes,
                tags=tuple(dict.fromkeys(tags)),
            )
        )
    return out

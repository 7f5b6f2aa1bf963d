"""navworld plans ↔ ChinaTravel's plan format.

:func:`export_plan` writes a plan in ChinaTravel's output schema, so their ``eval_exp.py`` (and
navworld's ChinaTravel profile) can read it:

* leg modes in ChinaTravel's words: ``transit`` (and the aliases navworld accepts: ``subway``,
  ``地铁`` …) → ``metro``, ``walking`` → ``walk``, ``driving`` → ``taxi`` (``bicycling`` has no
  ChinaTravel counterpart and is left as it is, which their checks reject);
* a transfer that is one transit leg becomes their walk / metro / walk: boarding and alighting
  stations are the ones ``goto`` picks (nearest ``subways.json`` station, ``-地铁站`` suffix), the
  first walk and the ride take ``goto``'s times, the last walk ends when the leg ended; the ride
  keeps the leg's price, cost and tickets, and its distance is the leg's minus the two walks;
* with ``fill=True`` every leg gets ``price``/``cost``/``distance`` (walks 0 元, distances from
  ``goto``), metro legs ``tickets`` and taxi legs ``cars`` (the people count and ⌈people/4⌉,
  navworld's defaults), and ``start_city`` is set. With ``fill=False`` nothing is invented: what
  the plan did not say stays unsaid (the view navworld's ChinaTravel profile scores in ``eval``).

:func:`import_plan` is the inverse for navworld: a walk/metro/walk transfer becomes one transit
leg again, so ``import_plan(export_plan(p))`` gives ``p`` back for plans navworld agents write.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any

from navworld.core.plan import MODE_ALIASES

__all__ = ["CT_MODES", "Export", "export_plan", "import_plan"]

CT_MODES = {"walk": "walk", "transit": "metro", "taxi": "taxi", "bicycling": "bicycling"}
"""navworld's canonical leg mode → ChinaTravel's."""


@dataclass
class Export:
    """An exported plan and what could not be expressed."""

    plan: Any
    warnings: list[str] = field(default_factory=list)


def _raw(plan: Any) -> Any:
    if hasattr(plan, "model_dump"):
        return plan.model_dump(mode="json", exclude_none=True)
    return copy.deepcopy(plan)


def _ct_mode(mode: Any) -> Any:
    if not isinstance(mode, str):
        return mode
    canonical = MODE_ALIASES.get(mode.strip().lower())
    return CT_MODES.get(canonical, mode) if canonical else mode


def _round(x: float) -> float:
    return round(x + 0.0, 2)


def _expand(leg: dict[str, Any], world: Any, city: str, people: int, fill: bool, where: str,
            warnings: list[str]) -> list[dict[str, Any]]:
    from navworld.world.chinatravel.goto import NoMetro

    try:
        g = world.goto(city, leg.get("start"), leg.get("end"), leg.get("start_time"), "metro")
    except NoMetro as exc:
        warnings.append(f"{where}: no metro solution ({exc}); kept as one metro leg")
        return [leg]
    except Exception as exc:
        warnings.append(f"{where}: cannot expand the transit leg ({type(exc).__name__}: {exc}); kept as one metro leg")
        return [leg]
    w1, ride, w2 = g
    walk = {"price": 0, "cost": 0}
    first = {"start": leg.get("start"), "end": ride.start, "mode": "walk", "start_time": leg.get("start_time"),
             "end_time": w1.end_time, **walk, "distance": w1.distance}
    metro: dict[str, Any] = {"start": ride.start, "end": ride.end, "mode": "metro", "start_time": ride.start_time,
                             "end_time": ride.end_time}
    for key in ("price", "cost", "tickets"):
        if key in leg:
            metro[key] = leg[key]
    distance = leg.get("distance")
    if isinstance(distance, (int, float)) and not isinstance(distance, bool) and math.isfinite(distance):
        metro["distance"] = _round(distance - w1.distance - w2.distance)
    elif fill:
        metro["distance"] = ride.distance
    if fill:
        metro.setdefault("price", ride.cost)
        metro.setdefault("tickets", people)
        if "cost" not in metro and isinstance(metro["price"], (int, float)):
            metro["cost"] = metro["price"] * metro["tickets"]
    for key, value in leg.items():  # keep anything else the leg carried
        if key not in ("start", "end", "mode", "start_time", "end_time", "price", "cost", "tickets", "distance"):
            metro.setdefault(key, value)
    last = {"start": ride.end, "end": leg.get("end"), "mode": "walk", "start_time": ride.end_time,
            "end_time": leg.get("end_time"), **walk, "distance": w2.distance}
    return [first, metro, last]


def _fill_leg(leg: dict[str, Any], world: Any, city: str, people: int) -> None:
    mode = leg.get("mode")
    if mode == "walk":
        leg.setdefault("price", 0)
        leg.setdefault("cost", 0)
    elif mode == "metro":
        leg.setdefault("tickets", people)
    elif mode == "taxi":
        leg.setdefault("cars", math.ceil(people / 4))
    if "distance" not in leg and world is not None and mode in ("walk", "taxi"):
        try:
            leg["distance"] = _round(world.goto(city, leg.get("start"), leg.get("end"), leg.get("start_time"), mode)[0].distance)
        except Exception:
            pass
    if mode == "taxi" and "price" not in leg and world is not None:
        try:
            leg["price"] = world.goto(city, leg.get("start"), leg.get("end"), leg.get("start_time"), "taxi")[0].cost
        except Exception:
            pass
    if "cost" not in leg and isinstance(leg.get("price"), (int, float)):
        n = leg.get("tickets") if mode == "metro" else leg.get("cars") if mode == "taxi" else 1
        if isinstance(n, int):
            leg["cost"] = leg["price"] * n


def export_plan(plan: Any, world: Any = None, *, people: int | None = None, city: str | None = None,
                fill: bool = True, start_city: str | None = None) -> Export:
    """``plan`` (a navworld :class:`~navworld.core.plan.Plan` or its JSON) in ChinaTravel's format.

    ``world`` (a ChinaTravel world) is needed to expand transit legs into walk/metro/walk;
    ``people``/``city`` default to the plan's ``people_number``/``target_city``.
    """
    data = _raw(plan)
    warnings: list[str] = []
    if not isinstance(data, dict) or not isinstance(data.get("itinerary"), list):
        return Export(data, ["not a plan (no itinerary list)"])
    n = people if people is not None else data.get("people_number")
    n = n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 1
    target = city or data.get("target_city") or ""
    if fill:
        if start_city is not None and not data.get("start_city"):
            data["start_city"] = start_city
        data.setdefault("start_city", "")
    for d, day in enumerate(data["itinerary"]):
        if not isinstance(day, dict) or not isinstance(day.get("activities"), list):
            continue
        for i, act in enumerate(day["activities"]):
            if not isinstance(act, dict):
                continue
            if fill and "transports" not in act:
                act["transports"] = act.pop("transport", None) or []
            legs = act.get("transports")
            if not isinstance(legs, list):
                continue
            for leg in legs:
                if isinstance(leg, dict):
                    if "mode" not in leg and "type" in leg and fill:
                        leg["mode"] = leg.pop("type")
                    leg["mode"] = _ct_mode(leg.get("mode")) if "mode" in leg else leg.get("mode")
                    if leg.get("mode") == "bicycling":
                        warnings.append(f"day {d + 1} #{i + 1}: a bicycling leg has no ChinaTravel counterpart")
            where = f"day {d + 1} #{i + 1}"
            if len(legs) == 1 and isinstance(legs[0], dict) and legs[0].get("mode") == "metro":
                if world is None:
                    warnings.append(f"{where}: no ChinaTravel world to expand the metro leg into walk/metro/walk")
                else:
                    legs = _expand(legs[0], world, target, n, fill, where, warnings)
                    act["transports"] = legs
            if fill:
                for leg in legs:
                    if isinstance(leg, dict):
                        _fill_leg(leg, world, target, n)
    return Export(data, warnings)


def import_plan(plan: Any) -> Any:
    """ChinaTravel's plan JSON read back as navworld writes it (walk/metro/walk → one transit leg)."""
    data = _raw(plan)
    if not isinstance(data, dict) or not isinstance(data.get("itinerary"), list):
        return data
    for day in data["itinerary"]:
        for act in (day.get("activities") or []) if isinstance(day, dict) else []:
            legs = act.get("transports") if isinstance(act, dict) else None
            if not isinstance(legs, list) or not all(isinstance(x, dict) for x in legs):
                continue
            if len(legs) == 3 and [x.get("mode") for x in legs] == ["walk", "metro", "walk"]:
                w1, ride, w2 = legs
                one = {k: v for k, v in ride.items() if k not in ("start", "end", "start_time", "end_time", "distance")}
                one.update(mode="transit", start=w1.get("start"), end=w2.get("end"), start_time=w1.get("start_time"),
                           end_time=w2.get("end_time"))
                ds = [x.get("distance") for x in legs]
                if all(isinstance(x, (int, float)) for x in ds):
                    one["distance"] = _round(sum(ds))  # type: ignore[arg-type]
                order = ("mode", "start", "end", "start_time", "end_time", "distance", "price", "cost", "tickets", "cars")
                act["transports"] = [{k: one[k] for k in order if k in one} | {k: v for k, v in one.items() if k not in order}]
            else:
                for x in legs:
                    if x.get("mode") == "metro":
                        x["mode"] = "transit"
    return data

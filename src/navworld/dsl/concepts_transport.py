"""ChinaTravel's concept functions over inner-city transport leg lists (``activity_transports(a)``)."""

from __future__ import annotations

import math
from typing import Any

from navworld.dsl.concepts import _legs, _mode_filter, _num, concept, leg_minutes
from navworld.dsl.runtime import Frame

__all__: list[str] = []


# ---- inner-city transport lists ---------------------------------------------------------------


@concept("innercity_transport_type", 1, cost="legs")
def innercity_transport_type(fr: Frame, transports: Any) -> str:
    """Main mode of a transfer: the non-walk mode (``walk`` if all legs walk); ``"empty"`` for ``[]``.

    Legs mixing several non-walk modes give ``"mixed"``. ChinaTravel's ``metro`` reads as ``transit``.
    """
    legs = _legs(transports, "innercity_transport_type")
    if not legs:
        return "empty"
    modes = {leg.get("mode") for leg in legs} - {"walk"}
    if not modes:
        return "walk"
    return str(modes.pop()) if len(modes) == 1 else "mixed"


def _filtered(transports: Any, mode: Any, fname: str) -> list[dict[str, Any]]:
    legs = _legs(transports, fname)
    m = _mode_filter(mode, fname)
    return legs if m is None else [leg for leg in legs if leg.get("mode") == m]


@concept("innercity_transport_cost", 1, 2, ("mode", "node"), cost="legs")
def innercity_transport_cost(fr: Frame, transports: Any, mode: Any = None, node: Any = None) -> float:
    """Total ``cost`` of the legs (optionally only legs of ``mode``)."""
    return sum(_num(leg.get("cost")) for leg in _filtered(transports, mode if mode is not None else node, "innercity_transport_cost"))


@concept("innercity_transport_price", 1, 2, ("mode",), cost="legs")
def innercity_transport_price(fr: Frame, transports: Any, mode: Any = None) -> float:
    """Total unit ``price`` of the legs (optionally only legs of ``mode``)."""
    return sum(_num(leg.get("price")) for leg in _filtered(transports, mode, "innercity_transport_price"))


@concept("innercity_transport_distance", 1, 2, ("mode",), cost="legs")
def innercity_transport_distance(fr: Frame, transports: Any, mode: Any = None) -> float:
    """Total ``distance`` in km (optionally only legs of ``mode``)."""
    return sum(_num(leg.get("distance")) for leg in _filtered(transports, mode, "innercity_transport_distance"))


@concept("innercity_transport_time", 1, 2, ("mode",), cost="legs")
def innercity_transport_time(fr: Frame, transports: Any, mode: Any = None) -> int:
    """Total duration in minutes (optionally only legs of ``mode``)."""
    return sum(leg_minutes(leg) for leg in _filtered(transports, mode, "innercity_transport_time"))


@concept("innercity_transport_start_time", 1, cost="legs")
def innercity_transport_start_time(fr: Frame, transports: Any) -> str:
    """Departure time of the first leg (``""`` for ``[]``)."""
    legs = _legs(transports, "innercity_transport_start_time")
    return str(legs[0].get("start_time") or "") if legs else ""


@concept("innercity_transport_end_time", 1, cost="legs")
def innercity_transport_end_time(fr: Frame, transports: Any) -> str:
    """Arrival time of the last leg (``""`` for ``[]``)."""
    legs = _legs(transports, "innercity_transport_end_time")
    return str(legs[-1].get("end_time") or "") if legs else ""


def _people(fr: Frame) -> int:
    p = fr.ctx.people if fr.ctx.people else fr.ctx.data.get("people_number")
    return p if type(p) is int and p > 0 else 1


@concept("metro_tickets", 1, cost="legs")
def metro_tickets(fr: Frame, transports: Any) -> int:
    """``tickets`` of the transit leg (people count when unstated; 0 when there is no transit leg)."""
    for leg in _legs(transports, "metro_tickets"):
        if leg.get("mode") == "transit":
            t = leg.get("tickets")
            return t if type(t) is int else _people(fr)
    return 0


@concept("taxi_cars", 1, cost="legs")
def taxi_cars(fr: Frame, transports: Any) -> int:
    """``cars`` of the taxi leg (⌈people/4⌉ when unstated; 0 when there is no taxi leg)."""
    for leg in _legs(transports, "taxi_cars"):
        if leg.get("mode") == "taxi":
            c = leg.get("cars")
            return c if type(c) is int else math.ceil(_people(fr) / 4)
    return 0

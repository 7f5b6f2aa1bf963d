"""The world lookups verification needs (re-exported from :mod:`navworld.dsl.world_view`).

The protocol lives in ``navworld.dsl`` because concept functions use it too and ``dsl`` sits
below ``verify`` in the layer order. Any object with ``find_poi``, ``route``, ``flight_list`` and
``train_list`` (the sandbox's sync API) can be verified against.
"""

from __future__ import annotations

from navworld.dsl.world_view import ROUTE_MODES, WorldLookup, WorldView, lookup_for, short_city

__all__ = ["ROUTE_MODES", "WorldLookup", "WorldView", "lookup_for", "short_city"]
